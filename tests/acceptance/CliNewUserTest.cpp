// What a new user trips over (issue 20), through vgpu-sim as a user runs it: platform names as
// the products are called, --version, functional mode's summary, argument kinds for every
// scalar the metadata describes and OpenCL __local pointers, warnings for launch mistakes, a
// fat bundle on either processor, printf, and fault reports in code-object offsets.
#include <gtest/gtest.h>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <regex>
#include <string>
#include <vector>

#include "CliRunner.h"
#include "KernelCases.h"

namespace vgpu::test {
namespace {

// vector_add(a, b, c, n) on zeroed buffers: the smallest complete run.
std::string vectorAdd(const std::string& options) {
  return "run " + shellQuote(kernelDir() + "/vector_add.co") + " vector_add --grid 64 --block 64 " +
         options + " --arg zeros:256 --arg zeros:256 --arg zeros:256 --arg i32:64";
}

// ---- platform aliases, --version, functional mode ---------------------------------------------

TEST(CliNewUser, PlatformAliasesNameTheProducts) {
  ScratchDir dir;
  // README calls vega20 the MI50; the alias runs that platform.
  for (const auto& [alias, platform] : std::vector<std::pair<std::string, std::string>>{
           {"mi50", "vega20"}, {"MI50", "vega20"}, {"radeon-vii", "radeon_vii"}}) {
    const SimResult r = runVgpuSim(vectorAdd("--platform " + alias), dir, alias);
    ASSERT_EQ(r.exitCode, 0) << alias << ": " << r.err;
    EXPECT_NE(r.out.find("on " + platform + ":"), std::string::npos) << alias << ": " << r.out;
  }
  const SimResult list = runVgpuSim("platforms", dir, "platforms");
  ASSERT_EQ(list.exitCode, 0) << list.err;
  EXPECT_TRUE(std::regex_search(list.out, std::regex("\nvega20 .*also: mi50")) ||
              std::regex_search(list.out, std::regex("^vega20 .*also: mi50")))
      << list.out;
  EXPECT_NE(list.out.find("radeon-vii"), std::string::npos) << list.out;
  const SimResult bad = runVgpuSim(vectorAdd("--platform mi5"), dir, "bad");
  EXPECT_EQ(bad.exitCode, 2);
  EXPECT_NE(bad.err.find("aliases: mi50"), std::string::npos) << bad.err;
}

TEST(CliNewUser, VersionPrintsTheVersion) {
  ScratchDir dir;
  for (const char* spelling : {"--version", "version"}) {
    const SimResult r = runVgpuSim(spelling, dir);
    EXPECT_EQ(r.exitCode, 0) << spelling << ": " << r.err;
    EXPECT_TRUE(std::regex_match(r.out, std::regex("vgpu-sim [0-9]+\\.[0-9]+\\.[0-9]+\n")))
        << spelling << ": " << r.out;
  }
  const SimResult help = runVgpuSim("help", dir, "help");
  EXPECT_NE(help.out.find("vgpu-sim version"), std::string::npos) << help.out;
}

// Functional mode has unit latencies: its cycles give no IPC worth printing.
TEST(CliNewUser, FunctionalModeSaysIpcIsNotMeaningful) {
  ScratchDir dir;
  const SimResult f = runVgpuSim(vectorAdd("--platform tiny --mode functional"), dir, "f");
  ASSERT_EQ(f.exitCode, 0) << f.err;
  EXPECT_NE(f.err.find("IPC not meaningful in functional mode"), std::string::npos) << f.err;
  EXPECT_FALSE(std::regex_search(f.err, std::regex("IPC [0-9]"))) << f.err;
  EXPECT_EQ(f.out.find("per cycle"), std::string::npos) << f.out;
  const SimResult t = runVgpuSim(vectorAdd("--platform tiny"), dir, "t");
  ASSERT_EQ(t.exitCode, 0) << t.err;
  EXPECT_TRUE(std::regex_search(t.err, std::regex("IPC [0-9]+\\.[0-9]+ wave-instructions")))
      << t.err;
}

}  // namespace
}  // namespace vgpu::test
