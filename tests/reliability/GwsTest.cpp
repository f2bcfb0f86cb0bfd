// Global wave sync through vgpu-sim (tests/reliability/gws_kernels.s): eight one-wave
// workgroups, on eight compute units or on one, pass a ds_gws_barrier that ds_gws_init set up,
// then update one GDS dword in workgroup order, each wave waiting in ds_gws_sema_p for the
// ds_gws_sema_v of the one before. A wave stuck in ds_gws_sema_p is the watchdog's to report.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <regex>

#include "CliRunner.h"

namespace vgpu::test {
namespace {

struct GwsCase {
  std::string name;
  std::string codeObject;
  std::string options;   // platform, mode
  int computeUnits = 0;  // CUs the 8 workgroups must be spread over
  friend void PrintTo(const GwsCase& c, std::ostream* os) { *os << c.name; }
};

class GwsKernel : public ::testing::TestWithParam<GwsCase> {};

TEST_P(GwsKernel, BarrierThenUpdatesInWorkgroupOrder) {
  const GwsCase& c = GetParam();
  ScratchDir dir;
  const std::string out = dir.file("out.bin");
  const SimResult r =
      runVgpuSim("run " + shellQuote(c.codeObject) +
                     " gws_ordered --grid 512 --block 64 --arg zeros:4096,out=" + shellQuote(out) +
                     " --stats " + shellQuote(dir.file("stats.json")) + " --quiet " + c.options,
                 dir);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const std::string bytes = slurp(out);
  ASSERT_EQ(bytes.size(), 4096u);
  uint32_t w[1024];
  std::memcpy(w, bytes.data(), sizeof w);
  // GDS[0] = GDS[0] * 3 + g + 1, applied by workgroups 0, 1, ..., 7 in that order.
  uint32_t expected = 0;
  for (uint32_t g = 0; g < 8; ++g) {
    EXPECT_EQ(w[g], expected) << "value workgroup " << g << " found";
    expected = expected * 3 + g + 1;
    EXPECT_EQ(w[32 + g], expected) << "value workgroup " << g << " left";
    EXPECT_EQ(w[64 + g], 1u) << g;
    // Past the barrier, every workgroup's arrival flag was already set.
    EXPECT_EQ(w[128 + g], 8u) << g;
  }
  const std::string stats = slurp(dir.file("stats.json"));
  std::smatch m;
  // The waves are woken when the resource changes, not by the watchdog (10,000,000 cycles).
  ASSERT_TRUE(std::regex_search(stats, m, std::regex("\"cycles\": ([0-9]+)"))) << stats;
  EXPECT_LT(std::stoull(m[1]), 100000u) << stats;
  std::map<int, uint64_t> wavesPerCu;
  const std::regex perCu("\"cu([0-9]+)\\.waves\": ([0-9]+)");
  for (auto it = std::sregex_iterator(stats.begin(), stats.end(), perCu);
       it != std::sregex_iterator(); ++it)
    if (std::stoull((*it)[2]) > 0) wavesPerCu[std::stoi((*it)[1])] += std::stoull((*it)[2]);
  EXPECT_EQ(static_cast<int>(wavesPerCu.size()), c.computeUnits) << stats;
}

const std::string kGfx906 = VGPU_GWS_KERNELS;
const std::string kGfx900 = VGPU_GWS_KERNELS_GFX900;

INSTANTIATE_TEST_SUITE_P(
    Platforms, GwsKernel,
    ::testing::Values(GwsCase{"EightComputeUnits", kGfx906, "--platform vega20", 8},
                      GwsCase{"OneComputeUnit", kGfx906, "--platform tiny", 1},
                      GwsCase{"Functional", kGfx906, "--platform vega20 --mode functional", 8},
                      GwsCase{"Gfx900", kGfx900, "--platform vega10", 8}),
    [](const ::testing::TestParamInfo<GwsCase>& info) { return info.param.name; });

TEST(GwsKernel, SemaPThatNothingSignalsIsReportedByTheWatchdog) {
  ScratchDir dir;
  const SimResult r = runVgpuSim("run " + shellQuote(kGfx906) +
                                     " gws_sema_p_forever --grid 128 --block 64 --arg zeros:4096 "
                                     "--platform vega20 --watchdog-cycles 20000",
                                 dir);
  recordForReport("exit " + std::to_string(r.exitCode) + "\n" + r.err);
  EXPECT_EQ(r.exitCode, 3) << r.err;
  for (const char* part :
       {"vgpu-sim: kernel 'gws_sema_p_forever' faulted: deadlock: no forward progress for 20000 "
        "cycles (--watchdog-cycles): a wave has waited for a global wave sync resource "
        "(ds_gws_sema_p or ds_gws_barrier) that no wave releases",
        "ds_gws_sema_p gds: waits for global wave sync resource 5 since cycle ",
        "(counter 0, waves queued in sema_p: 2)", "encoding D9390000 00000000: ds_gws_sema_p gds"})
    EXPECT_NE(r.err.find(part), std::string::npos) << "missing '" << part << "' in: " << r.err;
}

}  // namespace
}  // namespace vgpu::test
