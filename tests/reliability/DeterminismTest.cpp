// Determinism (same inputs, same outputs, same cycles) for every acceptance kernel
// (tests/acceptance/KernelCases): the same vgpu-sim run twice gives byte-identical output buffers
// and statistics (host time aside), and a run with a different temporal-decoupling quantum gives
// byte-identical outputs (its cycles may differ: the quantum is a timing approximation). Four
// compute units, so workgroups run on several CUs at once and their memory traffic interleaves.
#include <gtest/gtest.h>

#include <algorithm>

#include "CliRunner.h"
#include "KernelCases.h"

namespace vgpu::test {
namespace {

std::string dims(const Dim3& d) {
  return std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z);
}

// Statistics without what depends on the host (wall-clock time, speed).
std::string withoutHostFigures(const std::string& stats) {
  std::istringstream in(stats);
  std::string line, kept;
  while (std::getline(in, line))
    if (line.find("\"host_") == std::string::npos) kept += line + "\n";
  return kept;
}

class Determinism : public ::testing::TestWithParam<std::string> {};

TEST_P(Determinism, SameOutputsAndStatisticsEveryRunAndQuantum) {
  const KernelCase c = kernelCase(GetParam());
  ScratchDir dir;
  const std::string processor =
      c.codeObject.find("gfx900") != std::string::npos ? "gfx900" : "gfx906";
  for (int quantum : {1000, 7})
    std::ofstream(dir.file("q" + std::to_string(quantum) + ".json"))
        << R"({"name": "four_cus", "processor": ")" << processor
        << R"(", "compute_units": 4, "quantum": )" << quantum << "}";

  auto run = [&](const std::string& tag, int quantum) {
    std::string args = "run " + shellQuote(kernelDir() + "/" + c.codeObject) + " " + c.kernel +
                       " --grid " + dims(c.launch.grid) + " --block " + dims(c.launch.block) +
                       " --platform " +
                       shellQuote(dir.file("q" + std::to_string(quantum) + ".json")) +
                       " --quiet --stats " + shellQuote(dir.file(tag + ".stats.json"));
    if (c.launch.globalOffset[0] || c.launch.globalOffset[1] || c.launch.globalOffset[2])
      args += " --global-offset " + std::to_string(c.launch.globalOffset[0]) + "," +
              std::to_string(c.launch.globalOffset[1]) + "," +
              std::to_string(c.launch.globalOffset[2]);
    if (c.launch.dynamicLdsBytes)
      args += " --dynamic-lds " + std::to_string(c.launch.dynamicLdsBytes);
    for (size_t i = 0; i < c.args.size(); ++i) {
      const CaseArg& a = c.args[i];
      if (!a.isBuffer) {
        args += " --arg " + a.cliKind + ":" + a.cliValue;
        continue;
      }
      const std::string in = dir.file("in" + std::to_string(i));
      writeBytes(in, a.bytes);
      args += " --arg " +
              shellQuote("file:" + in + ",out=" + dir.file(tag + ".out" + std::to_string(i)));
    }
    const SimResult r = runVgpuSim(args, dir, tag);
    ASSERT_EQ(r.exitCode, 0) << r.err;
  };
  run("first", 1000);
  run("second", 1000);
  run("other_quantum", 7);
  if (HasFatalFailure()) return;

  std::vector<std::vector<uint8_t>> outputs(c.args.size());
  for (size_t i = 0; i < c.args.size(); ++i) {
    if (!c.args[i].isBuffer) continue;
    const std::string first = slurp(dir.file("first.out" + std::to_string(i)));
    EXPECT_EQ(first.size(), c.args[i].bytes.size());
    EXPECT_TRUE(first == slurp(dir.file("second.out" + std::to_string(i))))
        << "buffer " << i << " differs between two identical runs";
    EXPECT_TRUE(first == slurp(dir.file("other_quantum.out" + std::to_string(i))))
        << "buffer " << i << " differs between quantum 1000 and quantum 7";
    outputs[i].assign(first.begin(), first.end());
  }
  recordForReport("3 runs (quantum 1000 twice, quantum 7), " +
                  std::to_string(std::count_if(c.args.begin(), c.args.end(),
                                               [](const CaseArg& a) { return a.isBuffer; })) +
                  " output buffers and the statistics compared\n");
  // The runs computed the right thing, not merely the same thing.
  EXPECT_EQ(checkAgainstReference(c, outputs), "");
  const std::string stats = withoutHostFigures(slurp(dir.file("first.stats.json")));
  EXPECT_NE(stats.find("\"cycles\""), std::string::npos);
  EXPECT_EQ(stats, withoutHostFigures(slurp(dir.file("second.stats.json"))))
      << "statistics differ between two identical runs";
}

std::vector<std::string> caseNames() {
  std::vector<std::string> names;
  for (const auto& c : allKernelCases()) names.push_back(c.name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(AcceptanceKernels, Determinism, ::testing::ValuesIn(caseNames()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });

}  // namespace
}  // namespace vgpu::test
