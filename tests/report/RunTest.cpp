// The activity sampler and the progress meter on a real run: lds_column_sum (a 32-way LDS bank
// conflict on every column read, a barrier, global loads and stores) on the 1-CU platform.
// The time series must add up to the statistics counters, and the meter must report while the
// dispatch runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "activity/ActivitySampler.h"
#include "activity/ProgressMeter.h"
#include "gpu/Gpu.h"
#include "platforms/Platform.h"
#include "runtime/Runtime.h"

namespace vgpu {
namespace {

constexpr uint32_t kGroups = 24;

// Runs lds_column_sum and checks its results against the CPU.
void runColumnSum(Simulation& sim) {
  sim.run([&](Runtime& rt) {
    const Module& m = rt.loadModule(std::string(VGPU_REPORT_KERNEL));
    std::vector<float> in(kGroups * 1024);
    for (size_t i = 0; i < in.size(); ++i) in[i] = float(i % 97) * 0.5f;
    const uint64_t a = rt.malloc(in.size() * 4), b = rt.malloc(kGroups * 256 * 4);
    rt.copyToDevice(a, in.data(), in.size() * 4);
    rt.launch(rt.kernel(m, "lds_column_sum"), {{kGroups * 256, 1, 1}, {256, 1, 1}},
              {KernelArg::pointer(a), KernelArg::pointer(b)});
    rt.synchronize();
    std::vector<float> out(kGroups * 256);
    rt.copyFromDevice(out.data(), b, out.size() * 4);
    for (uint32_t g = 0; g < kGroups; ++g)
      for (uint32_t t = 0; t < 256; ++t) {
        float sum = 0;
        for (uint32_t r = t / 32 * 4; r < t / 32 * 4 + 4; ++r)
          sum += in[g * 1024 + t % 32 * 32 + r];
        ASSERT_EQ(out[g * 256 + t], sum) << "workgroup " << g << " work-item " << t;
      }
  });
}

uint64_t sampled(const ActivitySampler& a, const std::string& channel) {
  const auto v = a.values(const_cast<ActivitySampler&>(a).channel(channel));
  return std::accumulate(v.begin(), v.end(), uint64_t{0});
}

TEST(ActivityOnARun, TimeSeriesAddUpToTheCounters) {
  Simulation sim(loadPlatform("tiny"));
  ActivitySampler& activity = sim.gpu().enableActivitySampling();
  runColumnSum(sim);
  const Statistics& s = sim.gpu().statistics();
  const DispatchRecord& d = sim.gpu().dispatches().at(0);

  EXPECT_EQ(activity.originCycle(), d.startCycle);
  EXPECT_LE(activity.bucketCount(), ActivitySampler::kMaxBuckets);
  EXPECT_GT(activity.bucketCount(), ActivitySampler::kMaxBuckets / 4) << "too coarse to plot";
  // The last sample is within the dispatch (a CU's local time may run a quantum ahead of it).
  EXPECT_LE(activity.endCycle(), d.endCycle + 2 * 1000);

  // Everything the compute unit and its LDS and vector L1 count happens inside the dispatch.
  EXPECT_EQ(sampled(activity, "wave_instructions"), s.sum("wave_instructions"));
  EXPECT_EQ(sampled(activity, "cu0.active_waves"), s.value("cu0.resident_wave_cycles"));
  EXPECT_EQ(sampled(activity, "stall.waitcnt_vm"), s.sum("stall_waitcnt_vm_cycles"));
  EXPECT_EQ(sampled(activity, "stall.waitcnt_lgkm"), s.sum("stall_waitcnt_lgkm_cycles"));
  EXPECT_EQ(sampled(activity, "stall.barrier"), s.sum("stall_barrier_cycles"));
  EXPECT_EQ(sampled(activity, "stall.fetch"), s.sum("stall_fetch_cycles"));
  EXPECT_EQ(sampled(activity, "stall.issue_conflict"), s.sum("stall_issue_conflict_cycles"));
  EXPECT_EQ(sampled(activity, "stall.valu_busy"), s.sum("stall_valu_busy_cycles"));
  EXPECT_EQ(sampled(activity, "lds.bytes"), s.value("lds0.bytes"));
  EXPECT_EQ(sampled(activity, "lds.conflict_cycles"), s.value("lds0.conflict_cycles"));
  EXPECT_EQ(sampled(activity, "vector_l1.bytes"), s.value("tc0.vector_l1.bytes"));
  // L2 and DRAM also carry the command processor's packet reads, some before the dispatch.
  EXPECT_LE(sampled(activity, "l2.bytes"), s.value("l2.bytes"));
  EXPECT_GE(sampled(activity, "l2.bytes"), s.value("tc0.vector_l1.bytes"));
  EXPECT_LE(sampled(activity, "dram.bytes"), s.value("l2.dram_bytes"));
  EXPECT_GT(sampled(activity, "dram.bytes"), 0u);

  // The kernel's shape, seen in the counters: 8 column reads of 32-way conflicts per wave
  // (two half-waves each), and conflict-free staging.
  const uint64_t waves = kGroups * 4;
  EXPECT_GT(s.value("lds0.conflict_cycles"), 0u);
  EXPECT_GE(s.value("lds0.conflict_degree_32_up"), waves);
  EXPECT_GT(s.value("lds0.conflict_degree_1"), 0u);
  EXPECT_EQ(s.value("lds0.conflict_degree_2") + s.value("lds0.conflict_degree_3_4") +
                s.value("lds0.conflict_degree_5_8") + s.value("lds0.conflict_degree_9_16") +
                s.value("lds0.conflict_degree_17_31") + s.value("lds0.conflict_degree_32_up") +
                s.value("lds0.conflict_degree_1"),
            s.value("lds0.accesses"));
}

TEST(ProgressMeterOnARun, ReportsWhileTheDispatchRuns) {
  Simulation sim(loadPlatform("tiny"));
  std::FILE* out = std::tmpfile();
  ASSERT_NE(out, nullptr);
  ProgressOptions o;
  o.out = out;
  o.inPlace = false;
  o.quietSeconds = 0;
  o.intervalSeconds = 0;
  o.checkCycles = 512;
  ProgressMeter meter("progress", sim.gpu(), o);
  runColumnSum(sim);
  meter.finish();
  EXPECT_GT(meter.updates(), 5u);
  std::rewind(out);
  std::string text;
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, out)) > 0;) text.append(buf, n);
  std::fclose(out);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), static_cast<long>(meter.updates()));
  EXPECT_NE(text.find("vgpu-sim: workgroups "), std::string::npos) << text;
  EXPECT_NE(text.find(" M wave-instructions/s"), std::string::npos) << text;
  // Workgroups only ever go up, and never past the grid.
  EXPECT_EQ(text.find("workgroups " + std::to_string(kGroups + 1)), std::string::npos) << text;
}

TEST(ProgressMeter, FormatsOneLine) {
  EXPECT_EQ(ProgressMeter::formatLine(1200, 1100, 1234567, 12.345e6),
            "vgpu-sim: workgroups 1,200 dispatched, 1,100 finished | cycle 1,234,567 | 12.35 M "
            "wave-instructions/s");
}

}  // namespace
}  // namespace vgpu
