// Every acceptance kernel through the runtime API (AQL packet, doorbell, completion signal),
// on the 1-CU platform and on a multi-CU one, checked against its CPU reference.
#include <gtest/gtest.h>

#include "KernelCases.h"
#include "gpu/Gpu.h"
#include "platforms/Platform.h"

namespace vgpu::test {
namespace {

struct Param {
  std::string kernelCase;
  std::string platform;
  friend void PrintTo(const Param& p, std::ostream* os) {
    *os << p.kernelCase << " on " << p.platform;
  }
};

class RuntimeApi : public ::testing::TestWithParam<Param> {};

TEST_P(RuntimeApi, MatchesCpuReference) {
  const KernelCase c = kernelCase(GetParam().kernelCase);
  const auto out = runThroughRuntime(c, GetParam().platform);
  EXPECT_EQ(checkAgainstReference(c, out), "");
}

std::vector<Param> params() {
  std::vector<Param> p;
  for (const auto& c : allKernelCases()) {
    const bool gfx900 = c.name.find("gfx900") != std::string::npos;
    if (gfx900) {
      p.push_back({c.name, "vega10"});
      p.push_back({c.name, "tiny"});  // gfx906 runs gfx900 code
      continue;
    }
    // The kernels whose LDS reads overlap under partial s_waitcnt lgkmcnt waits (issue 19):
    // on every gfx906 platform, where the timing of LDS against memory differs.
    if (c.name.rfind("stencil2d_", 0) == 0 || c.name.rfind("transpose_", 0) == 0) {
      for (const char* platform : {"tiny", "vega20", "mi60", "radeon_vii"})
        p.push_back({c.name, platform});
      continue;
    }
    // The biggest matrix only on the multi-CU platform: on one CU it is merely slow.
    if (c.name != "matmul_256") p.push_back({c.name, "tiny"});
    p.push_back({c.name, "vega20"});
  }
  return p;
}

INSTANTIATE_TEST_SUITE_P(Kernels, RuntimeApi, ::testing::ValuesIn(params()),
                         [](const ::testing::TestParamInfo<Param>& info) {
                           return info.param.kernelCase + "_on_" + info.param.platform;
                         });

// The reference check itself must be able to fail: a corrupted result is caught.
TEST(RuntimeApiSelfCheck, CorruptedResultIsReported) {
  const KernelCase c = kernelCase("vector_add");
  auto out = runThroughRuntime(c, "tiny");
  ASSERT_EQ(checkAgainstReference(c, out), "");
  out[2][4 * 17] ^= 0x40;
  EXPECT_NE(checkAgainstReference(c, out), "");
}

// The model's bookkeeping matches the launch: workgroups, waves and a dispatch record.
TEST(RuntimeApiStatistics, CountsWorkgroupsWavesAndCycles) {
  const KernelCase c = kernelCase("matmul_64");
  Simulation sim(loadPlatform("tiny"));
  sim.run([&](Runtime& rt) {
    const Module& m = rt.loadModule(kernelDir() + "/" + c.codeObject);
    const Kernel k = rt.kernel(m, c.kernel);
    std::vector<uint64_t> buffers;
    rt.launch(k, c.launch, uploadArgs(rt, c, buffers));
    rt.synchronize();
  });
  const auto& d = sim.gpu().dispatches();
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].kernel, "matmul_tiled");
  EXPECT_EQ(d[0].workgroups, 16u);  // (64/16)^2
  EXPECT_EQ(d[0].waves, 64u);       // 256 work-items = 4 waves each
  EXPECT_GT(d[0].endCycle, d[0].startCycle);
  EXPECT_GT(sim.gpu().waveInstructions(), 64u * 10);
  EXPECT_GT(sim.gpu().statistics().sum("lds_instructions"), 0u);
  EXPECT_GT(sim.gpu().statistics().sum("barrier_waits"), 0u);
}

}  // namespace
}  // namespace vgpu::test
