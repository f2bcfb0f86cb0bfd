// LDS-heavy kernels through vgpu-sim with the C++ and with the RTL bank arbiter: the results,
// the total cycles and every statistics counter must be identical. Also: the waveform of the RTL
// arbiter (--rtl-vcd, --vcd-window) and the signals waveforms/lds_arbiter.gtkw shows, and the
// command-line errors around the arbiter options.
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <regex>
#include <set>
#include <sstream>

#include "CliRunner.h"
#include "VcdReader.h"

namespace vgpu::rtl {
namespace {

namespace fs = std::filesystem;

using test::readVcd;
using test::runVgpuSim;
using test::ScratchDir;
using test::shellQuote;
using test::SimResult;
using test::slurp;
using test::Vcd;
using test::writeBytes;

// One LDS-heavy kernel launch, as vgpu-sim arguments; input files are written into the
// temporary directory, the last buffer argument is the result.
struct Case {
  std::string name, codeObject, kernel, grid, block;
  std::vector<std::vector<uint8_t>> inputs;  // one per buffer argument
  std::vector<std::string> scalars;          // --arg values after the buffers
};

template <typename T>
std::vector<uint8_t> bytesOf(const std::vector<T>& v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

std::vector<float> randomFloats(size_t n, uint32_t seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (auto& x : v) x = d(g);
  return v;
}

constexpr int kWidth = 256, kHeight = 192;  // transpose: a 192 x 256 matrix

Case transposeCase(const std::string& kernel) {
  Case c{kernel, std::string(VGPU_KERNEL_DIR) + "/transpose_lds.co",
         kernel, std::to_string(kWidth) + "," + std::to_string(kHeight / 4),
         "32,8", {},
         {}};
  c.inputs = {bytesOf(randomFloats(kWidth * kHeight, 3)),
              bytesOf(std::vector<float>(kWidth * kHeight, 0.0f))};
  c.scalars = {"i32:" + std::to_string(kWidth), "i32:" + std::to_string(kHeight)};
  return c;
}

Case blockReduceCase() {
  const int n = 256 * 64;
  Case c{"block_reduce",
         std::string(VGPU_KERNEL_DIR) + "/block_reduce.co",
         "block_reduce",
         std::to_string(n),
         "256",
         {},
         {}};
  c.inputs = {bytesOf(randomFloats(n, 5)), bytesOf(std::vector<float>(n / 256, 0.0f))};
  c.scalars = {"i32:" + std::to_string(n)};
  return c;
}

Case histogramCase() {
  const int n = 1 << 16;
  std::mt19937 g(8);
  std::vector<uint8_t> data(n);
  for (auto& d : data) d = static_cast<uint8_t>(g() % 256 < 160 ? g() % 256 : 7);  // skewed
  Case c{
      "histogram", std::string(VGPU_KERNEL_DIR) + "/histogram.co", "histogram", "4096", "256", {},
      {}};
  c.inputs = {data, bytesOf(std::vector<uint32_t>(256, 0))};
  c.scalars = {"i32:" + std::to_string(n)};
  return c;
}

Case caseNamed(const std::string& name) {
  if (name == "block_reduce") return blockReduceCase();
  if (name == "histogram") return histogramCase();
  return transposeCase(name);
}

struct KernelRun {
  std::vector<uint8_t> output;
  nlohmann::json stats;
};

std::string runArgs(const Case& c, const std::string& platform, const std::string& arbiter,
                    const ScratchDir& dir, const std::string& tag) {
  std::string args = "run " + shellQuote(c.codeObject) + " " + c.kernel + " --grid " + c.grid +
                     " --block " + c.block + " --platform " + platform + " --quiet" +
                     " --lds-arbiter " + arbiter + " --stats " +
                     shellQuote(dir.file(tag + ".json"));
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    const std::string in = dir.file("in" + std::to_string(i));
    writeBytes(in, c.inputs[i]);
    args += " --arg " + shellQuote("file:" + in);
    if (i + 1 == c.inputs.size()) args += ",out=" + shellQuote(dir.file(tag + ".out"));
  }
  for (const auto& s : c.scalars) args += " --arg " + s;
  return args;
}

KernelRun run(const Case& c, const std::string& platform, const std::string& arbiter,
              const ScratchDir& dir, const std::string& extra = "") {
  const SimResult r = runVgpuSim(runArgs(c, platform, arbiter, dir, arbiter) + extra, dir, arbiter);
  EXPECT_EQ(r.exitCode, 0) << r.err;
  KernelRun out;
  const std::string bytes = slurp(dir.file(arbiter + ".out"));
  out.output.assign(bytes.begin(), bytes.end());
  out.stats = nlohmann::json::parse(slurp(dir.file(arbiter + ".json")), nullptr, false);
  return out;
}

uint64_t sumCounters(const nlohmann::json& stats, const std::string& suffix) {
  uint64_t sum = 0;
  for (const auto& [name, value] : stats["counters"].items())
    if (name.size() > suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
      sum += value.get<uint64_t>();
  return sum;
}

class SameWithEitherArbiter
    : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(SameWithEitherArbiter, ResultsCyclesAndCounters) {
  const auto& [name, platform] = GetParam();
  const Case c = caseNamed(name);
  ScratchDir dir;
  const KernelRun cpp = run(c, platform, "cpp", dir);
  const KernelRun rtl = run(c, platform, "rtl", dir);
  ASSERT_FALSE(cpp.stats.is_discarded());
  ASSERT_FALSE(rtl.stats.is_discarded());
  ASSERT_FALSE(cpp.output.empty());
  EXPECT_EQ(cpp.output, rtl.output) << "results differ between the C++ and the RTL arbiter";
  EXPECT_EQ(cpp.stats["cycles"], rtl.stats["cycles"]);
  EXPECT_EQ(cpp.stats["counters"], rtl.stats["counters"]);
  EXPECT_GT(sumCounters(rtl.stats, ".bank_cycles"), 0u);

  if (name.rfind("transpose", 0) == 0) {  // out[x][y] == in[y][x]
    std::vector<float> in(kWidth * kHeight), out(kWidth * kHeight);
    std::memcpy(in.data(), c.inputs[0].data(), c.inputs[0].size());
    ASSERT_EQ(rtl.output.size(), out.size() * sizeof(float));
    std::memcpy(out.data(), rtl.output.data(), rtl.output.size());
    for (int y = 0; y < kHeight; ++y)
      for (int x = 0; x < kWidth; ++x)
        ASSERT_EQ(out[x * kHeight + y], in[y * kWidth + x]) << "x " << x << " y " << y;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Kernels, SameWithEitherArbiter,
    ::testing::Combine(::testing::Values("transpose_lds", "transpose_lds_padded", "block_reduce",
                                         "histogram"),
                       ::testing::Values("tiny", "vega20")),
    [](const auto& info) { return std::get<0>(info.param) + "_" + std::get<1>(info.param); });

TEST(RtlArbiter, PaddingRemovesTheTransposeConflicts) {
  ScratchDir dir;
  const KernelRun plain = run(transposeCase("transpose_lds"), "tiny", "rtl", dir);
  ScratchDir dir2;
  const KernelRun padded = run(transposeCase("transpose_lds_padded"), "tiny", "rtl", dir2);
  const uint64_t conflicts = sumCounters(plain.stats, ".conflict_cycles");
  EXPECT_GT(conflicts, 10 * sumCounters(padded.stats, ".conflict_cycles") + 1000);
  EXPECT_GT(plain.stats["cycles"].get<uint64_t>(), padded.stats["cycles"].get<uint64_t>());
}

// ---- Waveform ---------------------------------------------------------------------------------

constexpr uint64_t kLength = 400;  // cycles in the waveform window

class Waveform : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new ScratchDir("waveform");
    const Case c = transposeCase("transpose_lds");
    // Quantum 1: every LDS access reaches the arbiter at its own cycle (see README).
    const std::string platform = dir_->file("tiny_q1.json");
    std::ofstream(platform) << R"({"name": "tiny_q1", "compute_units": 1, "quantum": 1})";
    // The window is in absolute GPU cycles: find where the kernel runs (the same with either
    // arbiter), then record 400 cycles from its middle, where every CU moves tiles through LDS.
    SimResult first = runVgpuSim(runArgs(c, platform, "cpp", *dir_, "cpp"), *dir_);
    const nlohmann::json stats =
        nlohmann::json::parse(slurp(dir_->file("cpp.json")), nullptr, false);
    if (!stats.is_discarded())
      start_ = stats["start_cycle"].get<uint64_t>() + stats["cycles"].get<uint64_t>() / 2;
    result_ = runVgpuSim(runArgs(c, platform, "rtl", *dir_, "rtl") + " --rtl-vcd " +
                             shellQuote(dir_->file("lds.vcd")) + " --vcd-window " +
                             std::to_string(start_) + ":" + std::to_string(start_ + kLength),
                         *dir_);
    if (first.exitCode != 0) result_ = first;
    vcd_ = new Vcd(readVcd(dir_->file("lds.vcd")));
  }
  static void TearDownTestSuite() {
    delete vcd_;
    delete dir_;
  }
  static ScratchDir* dir_;
  static SimResult result_;
  static Vcd* vcd_;
  static uint64_t start_;
};
uint64_t Waveform::start_ = 0;
ScratchDir* Waveform::dir_ = nullptr;
SimResult Waveform::result_;
Vcd* Waveform::vcd_ = nullptr;

TEST_F(Waveform, HoldsTheSystemCSideAndTheRtlInOneFile) {
  ASSERT_EQ(result_.exitCode, 0) << result_.err;
  const Vcd& v = *vcd_;
  EXPECT_EQ(v.timescale, "1ps");
  const std::string sc = "system.gpu.lds_arbiter0.systemc.";
  const std::string rtl = "system.gpu.lds_arbiter0.rtl.lds_bank_arbiter.";
  for (const std::string& s :
       {sc + "clk", sc + "req_valid", sc + "served_lanes[63:0]", sc + "gpu_cycle[63:0]",
        rtl + "clk", rtl + "pending_q[31:0]", rtl + "served_lanes[63:0]", rtl + "grant_conflict",
        rtl + "g_bank[0].slots[31:0]", rtl + "g_bank[31].dword[31:0]", sc + "grant_group[3:0]",
        sc + "served_slots[31:0]"})
    EXPECT_TRUE(v.idOf.count(s)) << s << " is not in the VCD";
}

TEST_F(Waveform, CoversOnlyTheWindowAndShowsConflicts) {
  ASSERT_EQ(result_.exitCode, 0) << result_.err;
  const Vcd& v = *vcd_;
  ASSERT_FALSE(v.times.empty());
  const uint64_t period = 580;  // ps: tiny runs at 1725 MHz, SystemC rounds to 1 ps
  for (uint64_t t : v.times) {
    EXPECT_GE(t, start_ * period);
    EXPECT_LE(t, (start_ + kLength) * period + period);
  }
  const std::string conflict = "system.gpu.lds_arbiter0.rtl.lds_bank_arbiter.grant_conflict";
  ASSERT_TRUE(v.idOf.count(conflict));
  EXPECT_TRUE(v.values(conflict).count(1))
      << "the unpadded transpose has bank conflicts in this window";
}

TEST_F(Waveform, GtkwaveSaveFileNamesSignalsOfTheVcd) {
  ASSERT_EQ(result_.exitCode, 0) << result_.err;
  std::ifstream in(std::string(VGPU_SOURCE_DIR) + "/waveforms/lds_arbiter.gtkw");
  ASSERT_TRUE(in) << "waveforms/lds_arbiter.gtkw";
  std::string line;
  int signals = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '[' || line[0] == '*' || line[0] == '@' || line[0] == '-')
      continue;
    ++signals;
    EXPECT_TRUE(vcd_->idOf.count(line))
        << "the save file shows " << line << ", which the VCD does not have";
  }
  EXPECT_GT(signals, 40);
}

// ---- Options ------------------------------------------------------------------------------------

TEST(RtlArbiterOptions, BadValuesAreInputErrors) {
  ScratchDir dir;
  const Case c = transposeCase("transpose_lds");
  const std::string base = runArgs(c, "tiny", "cpp", dir, "x");
  SimResult r = runVgpuSim(base + " --lds-arbiter verilog", dir);
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("--lds-arbiter"), std::string::npos) << r.err;
  r = runVgpuSim(base + " --rtl-vcd " + shellQuote(dir.file("a.vcd")), dir);  // the C++ arbiter
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("--lds-arbiter rtl"), std::string::npos) << r.err;
  r = runVgpuSim(base + " --vcd-window 1:2", dir);
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("--vcd-window needs --vcd"), std::string::npos) << r.err;
  r = runVgpuSim(
      base + " --lds-arbiter rtl --rtl-vcd " + shellQuote(dir.file("a.vcd")) + " --vcd-window 9:2",
      dir);
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("END is before START"), std::string::npos) << r.err;
}

TEST(RtlArbiterOptions, PlatformKeySelectsTheRtl) {
  ScratchDir dir;
  const std::string platform = dir.file("p.json");
  std::ofstream(platform) << R"({"name": "tiny_rtl", "lds": {"arbiter": "rtl"}})";
  const Case c = transposeCase("transpose_lds");
  // --lds-arbiter given on the command line wins; without it the platform key applies.
  std::string args = runArgs(c, platform, "cpp", dir, "cpp");
  args.replace(args.find(" --lds-arbiter cpp"), std::strlen(" --lds-arbiter cpp"), "");
  SimResult r = runVgpuSim(args + " --rtl-vcd " + shellQuote(dir.file("p.vcd")), dir);
  EXPECT_EQ(r.exitCode, 0) << r.err;  // --rtl-vcd is accepted: the platform chose the RTL
  EXPECT_TRUE(fs::exists(dir.file("p.vcd")));
  std::ofstream(platform) << R"({"name": "bad", "lds": {"arbiter": "gates"}})";
  r = runVgpuSim(args, dir);
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("lds.arbiter"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace vgpu::rtl
