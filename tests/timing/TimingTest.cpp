// Cycle-level checks of the timing rules on hand-written kernels (timing_kernels.s). Each
// kernel is launched twice and the second (warm) dispatch is measured, so
// cold instruction-cache misses do not blur the rule under test. Differences between two
// kernels isolate one rule; the expected numbers are derived in the comments.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>

#include "gpu/Gpu.h"
#include "platforms/Platform.h"
#include "runtime/Runtime.h"

namespace vgpu {
namespace {

struct Measured {
  uint64_t cycles = 0;
  std::vector<uint64_t> buffer;              // the kernel's buffer after the run (64-bit words)
  std::map<std::string, uint64_t> counters;  // of the warm run only
};

struct Run {
  std::string kernel;
  uint32_t workItems = 64;
};

// Runs each kernel twice (cold, then warm) in ONE simulation (SystemC allows one per process)
// and returns the warm run's cycles and counter increments.
std::vector<Measured> runWarm(const std::vector<Run>& runs, const std::string& platform = "tiny",
                              const char* module = VGPU_TIMING_KERNELS) {
  // One compute unit, so the warm launch runs where the cold one warmed the caches.
  PlatformConfig config = loadPlatform(platform);
  config.computeUnits = 1;
  Simulation sim(config);
  std::vector<Measured> out(runs.size());
  auto snapshot = [&] {
    std::map<std::string, uint64_t> c;
    for (const auto& [name, value] : sim.gpu().statistics().counters()) c[name] = *value;
    return c;
  };
  sim.run([&](Runtime& rt) {
    const Module& mod = rt.loadModule(module);
    for (size_t r = 0; r < runs.size(); ++r) {
      const Kernel k = rt.kernel(mod, runs[r].kernel);
      const uint64_t buf = rt.malloc(4096);
      rt.memset(buf, 0, 4096);
      LaunchConfig c;
      c.grid = {runs[r].workItems, 1, 1};
      c.block = {runs[r].workItems, 1, 1};
      std::map<std::string, uint64_t> before;
      for (int pass = 0; pass < 2; ++pass) {
        if (pass == 1) before = snapshot();
        rt.launch(k, c, {KernelArg::pointer(buf)});
        rt.synchronize();
      }
      for (const auto& [name, value] : snapshot()) out[r].counters[name] = value - before[name];
      const DispatchRecord& d = sim.gpu().dispatches().back();
      out[r].cycles = d.endCycle - d.startCycle;
      out[r].buffer.resize(512);
      rt.copyFromDevice(out[r].buffer.data(), buf, 4096);
    }
  });
  return out;
}

// One wave: a wave64 VALU op occupies the SIMD for 4 cycles, and the SIMD gets an issue slot
// every 4 cycles, so 16 more ops cost 64 more cycles. A dispatch starts at whatever phase of
// the 4-cycle SIMD rotation the command processor reaches it, so comparisons between two
// dispatches hold to within one rotation (kSlot).
constexpr double kSlot = 4;

TEST(Timing, ValuOpsCostFourCyclesEach) {
  const auto m = runWarm({{"valu32"}, {"valu16"}});
  EXPECT_NEAR(double(m[0].cycles) - double(m[1].cycles), 16 * 4, kSlot);
}

// FP64 at 1/2 rate (MI50, the tiny platform's timing): 16 v_fma_f64 cost 16 x 4 more cycles
// than 16 v_fma_f32.
TEST(Timing, Fp64RunsAtHalfRateOnMi50) {
  const auto m = runWarm({{"fma64_16"}, {"fma32_16"}});
  EXPECT_NEAR(double(m[0].cycles) - double(m[1].cycles), 16 * 4 * (2 - 1), kSlot);
}

// Radeon VII runs FP64 at 1/4 rate: 16 x 4 x 3 more cycles.
TEST(Timing, Fp64RunsAtQuarterRateOnRadeonVii) {
  const auto m = runWarm({{"fma64_16"}, {"fma32_16"}}, "radeon_vii");
  EXPECT_NEAR(double(m[0].cycles) - double(m[1].cycles), 16 * 4 * (4 - 1), kSlot);
}

// Two waves land on two SIMDs (round-robin placement) and run side by side: the pair ends
// within one round of SIMD issue slots of a single wave (instead of 32 x 4 cycles later), plus
// the start-up skew of sharing one instruction-cache port: the second wave's first line queues
// behind the first wave's fetch and prefetch burst (one line per cycle).
TEST(Timing, TwoWavesOnTwoSimdsRunInParallel) {
  const auto m = runWarm({{"valu32", 128}, {"valu32", 64}});
  const double fetchSkew = 1 + loadPlatform("tiny").cu.instructionPrefetchLines;
  EXPECT_NEAR(double(m[0].cycles), double(m[1].cycles), kSlot + fetchSkew);
  EXPECT_LT(double(m[0].cycles), double(m[1].cycles) + 32 * 4 / 2);  // far from serial
}

// Five waves: two of them share a SIMD and its VALU, which executes 64 VALU ops: 32 x 4
// cycles more than one wave alone, plus at most a few rounds of issue slots for the second
// wave's start on the shared SIMD.
TEST(Timing, WavesSharingASimdSerialiseOnItsValu) {
  auto m = runWarm({{"valu32", 64}, {"valu32", 320}});
  Measured &one = m[0], &five = m[1];
  EXPECT_GE(five.cycles, one.cycles + 32 * 4);
  EXPECT_LE(five.cycles, one.cycles + 32 * 4 + 16);
  EXPECT_GT(five.counters["cu0.stall_valu_busy_cycles"] +
                five.counters["cu0.stall_issue_conflict_cycles"],
            0u);
}

// s_waitcnt vmcnt(0) right after the load holds the 16 VALU ops until the data is back; after
// the VALU ops it costs nothing more than the load latency they hide. The load latency is
// longer than 64 cycles, so the difference is exactly the 16 x 4 VALU cycles.
TEST(Timing, WaitcntBlocksUntilTheDataArrives) {
  auto m = runWarm({{"load_wait_then_valu"}, {"load_valu_then_wait"}});
  Measured &wait = m[0], &overlap = m[1];
  EXPECT_NEAR(double(wait.cycles) - double(overlap.cycles), 16 * 4, kSlot);
  EXPECT_GT(wait.counters["cu0.stall_waitcnt_vm_cycles"], 64u);
}

// A load's data reaches its VGPRs when the load completes, a memory latency after it issues
// (hundreds of cycles): an instruction that reads the destination before s_waitcnt reads what
// the VGPR held before (the ISA leaves it undefined; this model keeps the old value). The data
// of a load whose destination nothing touches before the wait is written at issue instead
// (isa/LoadResultAtIssue.h), which must not change that. load_result_kernels.s: each lane loads
// 42 into v1, which held 7, and copies v1 to v2 one instruction after the load
// (load_read_before_wait) or after the wait (load_read_after_wait); the same with a scalar load
// (scalar_load_read_before_wait).
TEST(Timing, ReadingALoadsDestinationBeforeItsWaitGetsTheValueBefore) {
  auto m = runWarm(
      {{"load_read_before_wait"}, {"load_read_after_wait"}, {"scalar_load_read_before_wait"}},
      "tiny", VGPU_LOAD_RESULT_KERNELS);
  auto dword = [](const Measured& r, size_t i) {
    uint32_t v;
    std::memcpy(&v, reinterpret_cast<const uint8_t*>(r.buffer.data()) + 4 * i, 4);
    return v;
  };
  for (uint32_t lane = 0; lane < 64; ++lane) {
    EXPECT_EQ(dword(m[0], 80 + lane), 7u) << "lane " << lane << ": v2 copied before the wait";
    EXPECT_EQ(dword(m[0], 144 + lane), 42u) << "lane " << lane << ": v1 after the wait";
    EXPECT_EQ(dword(m[1], 80 + lane), 42u) << "lane " << lane << ": v2 copied after the wait";
    EXPECT_EQ(dword(m[1], 144 + lane), 42u) << "lane " << lane << ": v1 after the wait";
    EXPECT_EQ(dword(m[2], 80 + lane), 7u) << "lane " << lane << ": s5 copied before the wait";
    EXPECT_EQ(dword(m[2], 144 + lane), dword(m[2], 208 + lane))
        << "lane " << lane << ": s4 after the wait";
  }
  EXPECT_NE(dword(m[2], 208), 0u);
}

// Vector memory returns in issue order (Vega ISA guide 4.4): of two loads into one register
// with nothing between them, the second one's data stays. The first one keeps its data for
// completion (the second writes its destination before the wait), so the second may not write
// its own at issue: the first would overwrite it.
TEST(Timing, OfTwoLoadsIntoOneRegisterTheSecondsDataStays) {
  auto m = runWarm({{"load_twice_into_one_register"}}, "tiny", VGPU_LOAD_RESULT_KERNELS);
  const auto* words = reinterpret_cast<const uint32_t*>(m[0].buffer.data());
  for (uint32_t lane = 0; lane < 64; ++lane) EXPECT_EQ(words[80 + lane], 2u) << "lane " << lane;
}

// LDS bank conflicts (Vega ISA guide ch. 9): 8 ds_read_b32 per wave, two half-waves each.
//   stride 1 dword: 32 distinct banks per half-wave: 1 cycle per half, no conflict.
//   stride 0: all lanes read one dword: broadcast, 1 cycle per half, no conflict.
//   stride 2: 16 banks used twice per half-wave: 2 cycles per half, 1 conflict cycle.
//   stride 32: every lane in bank 0: 32 cycles per half, 31 conflict cycles.
TEST(Timing, LdsConflictDegreeFollowsTheStride) {
  auto m = runWarm({{"lds_stride0"}, {"lds_stride1"}, {"lds_stride2"}, {"lds_stride32"}});
  Measured &s0 = m[0], &s1 = m[1], &s2 = m[2], &s32 = m[3];
  // 8 reads x 2 half-waves in the measured run.
  EXPECT_EQ(s0.counters["lds0.conflict_cycles"], 0u);
  EXPECT_EQ(s1.counters["lds0.conflict_cycles"], 0u);
  EXPECT_EQ(s2.counters["lds0.conflict_cycles"], 8u * 2 * 1);
  EXPECT_EQ(s32.counters["lds0.conflict_cycles"], 8u * 2 * 31);
  EXPECT_NEAR(double(s0.cycles), double(s1.cycles), kSlot);
  // Reads issue every 4 cycles (t, t+4, ..., t+28); each holds the wave's SIMD-pair port into
  // the LDS for 8 cycles (256 address bytes in, 256 data bytes out at 64 B/clk), and the banks
  // serve one read at a time from when its port transfer starts.
  //   stride 1: 2 bank cycles each, so the port limits: read k holds the port from t+8k, the
  //   last one until t+64, and its data is back at t+64+20 = t+84.
  //   stride 32: 64 bank cycles each, queued: the last starts at t+7*64 and is done at
  //   t+448+64+20 = t+532. The wave issues again on its SIMD's next slot (multiples of 4):
  //   t+84 and t+532, so stride 32 takes 448 cycles longer.
  EXPECT_NEAR(double(s32.cycles) - double(s1.cycles), 448, kSlot);
}

// Lane permutes go through the LDS (Vega ISA guide 12.13): 8 ds_bpermute_b32 against the 8
// conflict-free ds_read_b32 of lds_stride1 above. A permute sends an address and a dword per
// lane and gets a dword back: 512 bytes in and 256 out at 64 B/clk hold the port for 8 + 4 =
// 12 cycles (a read: 4 + 4), and its lanes take the banks for 2 cycles as a conflict-free read
// does. So the port limits: permute k holds it from t+12k, the last one until t+96, and its
// data is back at t+96+20 = t+116, 32 cycles after the reads' t+84. (When permutes completed at
// issue, outside the LDS and its counter, this kernel took about 80 cycles less than the reads.)
TEST(Timing, LanePermutesHoldTheLdsPortLikeAccesses) {
  auto m = runWarm({{"lds_stride1"}, {"lds_bpermute8"}});
  EXPECT_NEAR(double(m[1].cycles) - double(m[0].cycles), 32, kSlot);
  EXPECT_EQ(m[1].counters["lds0.conflict_cycles"], 0u);
}

// A lane permute counts on LGKM_CNT and returns in order with the wave's LDS accesses, so
// "ds_read_b32; ds_bpermute_b32; s_waitcnt lgkmcnt(1)" waits for the read: the copy of its
// destination taken right after the wait holds the LDS data (lane + 100), not the 0xdead it held
// before. The permute's destination gets lane (l + 1) mod 64's v0.
TEST(Timing, LgkmcntCountsLanePermutesInOrderWithLdsReads) {
  auto runs = runWarm({{"lds_read_then_bpermute"}});
  const auto* words = reinterpret_cast<const uint32_t*>(runs[0].buffer.data());
  for (uint32_t l = 0; l < 64; ++l) {
    EXPECT_EQ(words[l], l + 100) << "lane " << l << ": the read's data after lgkmcnt(1)";
    EXPECT_EQ(words[64 + l], (l + 1) % 64) << "lane " << l << ": the permute's result";
  }
}

// A barrier releases every wave when the last one arrives: wave 0 does 16 VALU ops first, the
// others wait for it; all four then pass the barrier within one round of SIMD slots.
TEST(Timing, BarrierReleasesWhenTheLastWaveArrives) {
  auto runs = runWarm({{"barrier_stamp", 256}});
  Measured& m = runs[0];
  const uint64_t lo = *std::min_element(m.buffer.begin(), m.buffer.begin() + 4);
  const uint64_t hi = *std::max_element(m.buffer.begin(), m.buffer.begin() + 4);
  EXPECT_GT(lo, 0u);
  EXPECT_LE(hi - lo, 3u);
  // The three other waves each wait for wave 0's 64 x 4 VALU cycles, less what they start or
  // fetch later than wave 0 (the dispatcher starts the waves a few cycles apart, and where the
  // code lies decides which instruction fetches miss): at most 64 cycles each, a bound that
  // does not move with the layout of the kernels around this one (16 VALU ops and 3 x 64 did).
  EXPECT_GE(m.counters["cu0.stall_barrier_cycles"], 3u * (64 * 4 - 64));
}

// s_memtime returns the shader clock's cycle count and s_memrealtime the real-time clock (Vega
// ISA guide, 12.4 SMEM), which the model runs at a constant 100 MHz (10 ns a tick), both read
// at the instruction's issue. Over 256 VALU
// ops of one wave (4 cycles each, so at least 1,024 cycles) the real-time clock advances by the
// elapsed shader cycles times the clock period over 10 ns (a tick either way: neither clock
// starts on the other's edge), and both read the same instant.
TEST(Timing, MemrealtimeTicksAtOneHundredMegahertzOfTheShaderClocksTime) {
  auto runs = runWarm({{"clock_span"}});
  const std::vector<uint64_t>& q = runs[0].buffer;
  const double periodPs = loadPlatform("tiny").clockPeriodNs() * 1000;
  const uint64_t cycles = q[2] - q[0];
  EXPECT_GE(cycles, 256u * 4);
  EXPECT_NEAR(double(q[3] - q[1]), double(cycles) * periodPs / 10000, 1.0);
  // The same instant: tick = time / 10 ns, with the time within a cycle of memtime's.
  for (int at : {0, 2}) {
    EXPECT_GE(double(q[at + 1]), double(q[at]) * periodPs / 10000 - 1) << "qword " << at + 1;
    EXPECT_LE(double(q[at + 1]), double(q[at] + 1) * periodPs / 10000 + 1) << "qword " << at + 1;
  }
  EXPECT_GT(q[1], 0u);
}

}  // namespace
}  // namespace vgpu
