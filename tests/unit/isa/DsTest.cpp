// DS range rules and the global data share (GDS): labelled snippets of programs/ds_gds.s run on
// the test wave runner with M0, EXEC and the VGPRs set here. Edge cases first: the M0 window's
// boundaries (in, straddling, past the end, past the GDS), per-element windows for read2, then
// atomics from several waves on one GDS.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "ValueCheck.h"
#include "WaveRunner.h"
#include "isa/Gws.h"

namespace vgpu::isa::test {
namespace {

// The device's GDS as the tests see it: 64 KiB, shared by the runners attached to it.
struct Gds {
  std::vector<uint8_t> bytes = std::vector<uint8_t>(65536, 0);
  uint32_t read32(size_t a) const {
    return bytes[a] | (bytes[a + 1] << 8) | (bytes[a + 2] << 16) |
           (static_cast<uint32_t>(bytes[a + 3]) << 24);
  }
  void write32(size_t a, uint32_t v) {
    for (int i = 0; i < 4; ++i) bytes[a + i] = static_cast<uint8_t>(v >> (8 * i));
  }
};

WaveRunner at(const std::string& label, Gds* gds, uint32_t m0) {
  WaveRunner r = WaveRunner::atLabel("ds_gds", label);
  r.wave.m0 = m0;
  if (gds) {
    r.ctx.gdsData = gds->bytes.data();
    r.ctx.gdsSize = static_cast<uint32_t>(gds->bytes.size());
  }
  return r;
}
void runToEnd(WaveRunner& r) {
  const StepResult res = r.run(100);
  ASSERT_EQ(res.kind, StepKind::EndProgram) << res.fault;
}
constexpr uint32_t window(uint32_t base, uint32_t size) {
  return (base << 16) | size;
}
bool ldsAllZero(const WaveRunner& r) {
  return std::all_of(r.lds.begin(), r.lds.end(), [](uint8_t b) { return b == 0; });
}

TEST(DsLds, M0DoesNotClampLdsAccessesOnGfx9) {
  // gfx9 LDS instructions do not read M0 (clang-15 never sets it before them): M0 = 0 must not
  // turn the accesses into out-of-range ones.
  WaveRunner r = at("lds_ignores_m0", nullptr, 0);
  for (int l = 0; l < 64; ++l) {
    r.v(0, l) = 4u * static_cast<uint32_t>(l);
    r.v(1, l) = 1000u + static_cast<uint32_t>(l);
  }
  runToEnd(r);
  for (int l = 0; l < 64; ++l) EXPECT_EQ(r.v(2, l), 1000u + static_cast<uint32_t>(l)) << l;
}

TEST(DsGds, WriteThenReadInTheM0Window) {
  Gds gds;
  WaveRunner r = at("gds_write_read", &gds, window(0x100, 0x400));
  for (int l = 0; l < 64; ++l) {
    r.v(0, l) = 4u * static_cast<uint32_t>(l);
    r.v(1, l) = 0xa0000000u + static_cast<uint32_t>(l);
  }
  runToEnd(r);
  for (int l = 0; l < 64; ++l) {
    EXPECT_EQ(gds.read32(0x100 + 4 * l), 0xa0000000u + l) << l;  // base M0[31:16]
    EXPECT_EQ(r.v(2, l), 0xa0000000u + l) << l;
  }
  EXPECT_EQ(gds.read32(0xfc), 0u);  // nothing below the base
  EXPECT_TRUE(ldsAllZero(r));       // and nothing in the LDS
}

TEST(DsGds, WindowBoundariesReadZero) {
  Gds gds;
  for (size_t a = 0; a < gds.bytes.size(); ++a) gds.bytes[a] = static_cast<uint8_t>(a * 7 + 1);
  // Window [0x100, 0x140): a dword at 60 is the last one inside, 61 straddles the end, 64 is
  // past it.
  WaveRunner r = at("gds_read", &gds, window(0x100, 64));
  const uint32_t addr[4] = {0, 60, 61, 64};
  for (int l = 0; l < 4; ++l) r.v(0, l) = addr[l];
  r.wave.exec = 0xf;
  runToEnd(r);
  EXPECT_EQ(r.v(2, 0), gds.read32(0x100));
  EXPECT_EQ(r.v(2, 1), gds.read32(0x13c));
  EXPECT_EQ(r.v(2, 2), 0u);
  EXPECT_EQ(r.v(2, 3), 0u);
  // A window that runs past the 64 KiB GDS: the last dword of the GDS is in, the next is not.
  WaveRunner e = at("gds_read", &gds, window(0xfff0, 0x100));
  e.v(0, 0) = 12;
  e.v(0, 1) = 16;
  e.wave.exec = 0x3;
  runToEnd(e);
  EXPECT_EQ(e.v(2, 0), gds.read32(0xfffc));
  EXPECT_EQ(e.v(2, 1), 0u);
}

TEST(DsGds, Read2ChecksEachElement) {
  Gds gds;
  gds.write32(0x204, 0x11111111);
  gds.write32(0x208, 0x22222222);
  WaveRunner r = at("gds_read2", &gds, window(0x200, 8));
  r.v(0, 0) = 4;  // elements at 4 (inside) and 8 (past the 8-byte window)
  r.wave.exec = 1;
  runToEnd(r);
  EXPECT_EQ(r.v(2, 0), 0x11111111u);
  EXPECT_EQ(r.v(3, 0), 0u);
}

TEST(DsGds, AtomicsFromSeveralWavesShareOneGds) {
  Gds gds;
  const uint64_t execs[3] = {~0ull, 0xffffffffull, 0xff00000000000000ull};
  std::vector<WaveRunner> waves;
  waves.reserve(3);
  for (uint64_t e : execs) {
    waves.push_back(at("gds_add_rtn", &gds, window(0, 0xffff)));
    WaveRunner& w = waves.back();
    w.wave.exec = e;
    for (int l = 0; l < 64; ++l) {
      w.v(0, l) = 0x80;
      w.v(1, l) = 1;
      w.v(2, l) = 0xdeadbeef;
    }
  }
  // Interleave the waves instruction by instruction, as a CU would issue them.
  for (int step = 0; step < 3; ++step)
    for (WaveRunner& w : waves) w.step();
  for (WaveRunner& w : waves) ASSERT_EQ(w.events.back().kind, StepKind::EndProgram);
  EXPECT_EQ(gds.read32(0x80), 64u + 32u + 8u);
  // Lanes in ascending order, waves in issue order: every pre-op value exactly once.
  for (int l = 0; l < 64; ++l) EXPECT_EQ(waves[0].v(2, l), static_cast<uint32_t>(l));
  for (int l = 0; l < 64; ++l) EXPECT_EQ(waves[1].v(2, l), l < 32 ? 64u + l : 0xdeadbeefu) << l;
  for (int l = 56; l < 64; ++l) EXPECT_EQ(waves[2].v(2, l), 96u + (l - 56)) << l;
  for (const WaveRunner& w : waves) EXPECT_TRUE(ldsAllZero(w));
}

TEST(DsGds, CompareSwapAppendAndSrc2) {
  Gds gds;
  gds.write32(0x40, 5);
  WaveRunner c = at("gds_cmpst", &gds, window(0, 0xffff));
  c.wave.exec = 0xff;
  for (int l = 0; l < 8; ++l) {
    c.v(0, l) = 0x40;
    c.v(1, l) = l == 3 ? 5 : 7;  // compare value: only lane 3 matches
    c.v(3, l) = 99;              // new value
  }
  runToEnd(c);
  for (int l = 0; l < 8; ++l) EXPECT_EQ(c.v(2, l), l <= 3 ? 5u : 99u) << l;
  EXPECT_EQ(gds.read32(0x40), 99u);

  // ds_append: one add of popcount(EXEC) at M0[15:0] + offset in the GDS.
  gds.write32(0x28, 10);
  WaveRunner a = at("gds_append", &gds, 0x20);
  a.wave.exec = 0xf0f0;
  runToEnd(a);
  EXPECT_EQ(gds.read32(0x28), 18u);
  EXPECT_EQ(a.v(2, 4), 10u);
  EXPECT_EQ(a.v(2, 15), 10u);

  // ds_add_src2_u32 offset:4: GDS[addr] += GDS[addr + 16], inside the window at 0x300.
  for (int k = 0; k < 8; ++k) gds.write32(0x300 + 4 * k, 100u * (k + 1));
  WaveRunner s = at("gds_src2", &gds, window(0x300, 0x20));
  s.wave.exec = 0xf;
  for (int l = 0; l < 4; ++l) s.v(0, l) = 4u * static_cast<uint32_t>(l);
  runToEnd(s);
  for (int k = 0; k < 4; ++k) EXPECT_EQ(gds.read32(0x300 + 4 * k), 100u * (k + 1) + 100u * (k + 5));
}

TEST(DsGds, FaultsWhenNoGdsIsAttached) {
  WaveRunner r = at("gds_read", nullptr, window(0, 0xffff));
  const StepResult res = r.step();
  EXPECT_EQ(res.kind, StepKind::Fault);
  EXPECT_NE(res.fault.find("GDS"), std::string::npos) << res.fault;
}

// Global wave sync (isa/Gws.h): the ds_gws_* instructions on one device-wide GwsState; a
// wave that must wait gets StepKind::GwsWait (the compute unit parks it, tests/reliability
// GwsKernelTest runs that on the GPU).
WaveRunner atGws(const std::string& label, GwsState* gws, uint32_t m0) {
  WaveRunner r = at(label, nullptr, m0);
  r.ctx.gws = gws;
  return r;
}

TEST(DsGws, InitTakesTheFirstActiveLaneAndTheResourceFromM0PlusOffset) {
  GwsState gws;
  WaveRunner r = atGws("gws_init", &gws, (5u << 16) | 0xffffu);  // M0[15:0] plays no part
  r.wave.exec = 0xf0;
  for (int l = 0; l < 64; ++l) r.v(1, l) = l == 4 ? 7u : 99u;
  r.recordRequests = true;
  const StepResult res = r.step();
  // Completes like a GDS access: an LDS request without lanes, counted on LGKM_CNT.
  ASSERT_EQ(res.kind, StepKind::Memory) << res.fault;
  ASSERT_EQ(r.requests.size(), 1u);
  EXPECT_EQ(r.requests[0].laneMask, 0u);
  EXPECT_EQ(r.requests[0].counter, WaitCounter::Lgkm);
  EXPECT_EQ(gws.counter(8), 7u);  // 5 + offset 3
  for (uint32_t rid = 0; rid < GwsState::kResources; ++rid)
    EXPECT_EQ(gws.counter(rid), rid == 8 ? 7u : 0u) << rid;

  // M0[21:16] + offset wraps at 64; M0 bits above 21 are not part of the id.
  WaveRunner w = atGws("gws_init", &gws, (0xffu << 16));
  w.wave.exec = 1;
  w.v(1, 0) = 11;
  ASSERT_EQ(w.step().kind, StepKind::Memory);
  EXPECT_EQ(gws.counter(2), 11u);  // (63 + 3) % 64
  recordValueChecked({"ds_gws_init"});
}

TEST(DsGws, SemaVAddsOneAndSemaBrAddsTheValue) {
  GwsState gws;
  WaveRunner r = atGws("gws_v_br", &gws, 0);
  r.wave.exec = 0x6;
  for (int l = 0; l < 64; ++l) r.v(1, l) = l == 1 ? 5u : 1000u;
  runToEnd(r);
  EXPECT_EQ(gws.counter(0), 6u);
  EXPECT_EQ(gws.counter(1), 0u);
  recordValueChecked({"ds_gws_sema_v", "ds_gws_sema_br"});
}

TEST(DsGws, SemaPWaitsUntilTheCounterIsPositive) {
  GwsState gws;
  WaveRunner p = atGws("gws_p", &gws, 0);
  const uint64_t pc = p.wave.pc;
  StepResult res = p.step();
  ASSERT_EQ(res.kind, StepKind::GwsWait) << res.fault;
  EXPECT_EQ(res.gwsResource, 1u);
  EXPECT_FALSE(res.gwsBarrier);
  EXPECT_EQ(p.wave.pc, pc + 8);  // the wave goes on after the instruction once released
  EXPECT_EQ(gws.queuedP(1), 1u);
  EXPECT_FALSE(gws.tryQueuedP(1));

  WaveRunner v = atGws("gws_v", &gws, 0);
  ASSERT_EQ(v.step().kind, StepKind::Memory);
  EXPECT_EQ(gws.counter(1), 1u);
  EXPECT_TRUE(gws.tryQueuedP(1));  // what the compute unit does when the resource changed
  EXPECT_EQ(gws.counter(1), 0u);
  EXPECT_EQ(gws.queuedP(1), 0u);

  // With a positive counter sema_p decrements and does not wait.
  gws.semaBr(1, 2);
  WaveRunner q = atGws("gws_p", &gws, 0);
  EXPECT_EQ(q.step().kind, StepKind::Memory);
  EXPECT_EQ(gws.counter(1), 1u);
  recordValueChecked({"ds_gws_sema_p"});
}

TEST(DsGws, ReleaseAllLetsEveryQueuedWavePass) {
  GwsState gws;
  for (int k = 0; k < 3; ++k) {
    WaveRunner p = atGws("gws_p", &gws, 0);
    ASSERT_EQ(p.step().kind, StepKind::GwsWait);
  }
  EXPECT_EQ(gws.queuedP(1), 3u);
  WaveRunner r = atGws("gws_release_all", &gws, 0);
  ASSERT_EQ(r.step().kind, StepKind::Memory);
  EXPECT_EQ(gws.counter(1), 3u);
  for (int k = 0; k < 3; ++k) EXPECT_TRUE(gws.tryQueuedP(1)) << k;
  EXPECT_FALSE(gws.tryQueuedP(1));
  EXPECT_EQ(gws.counter(1), 0u);
  recordValueChecked({"ds_gws_sema_release_all"});
}

TEST(DsGws, BarrierReleasesWhenTheInitialisedNumberOfWavesArrived) {
  GwsState gws;
  gws.init(2, 2);  // three waves: the value is the number of waves minus 1
  for (int round = 0; round < 2; ++round) {
    std::vector<StepResult> waits;
    for (int k = 0; k < 2; ++k) {
      WaveRunner b = atGws("gws_barrier", &gws, 0);
      b.wave.exec = 1;
      b.v(1, 0) = 2;
      waits.push_back(b.step());
      ASSERT_EQ(waits.back().kind, StepKind::GwsWait) << round << " " << k;
      EXPECT_TRUE(waits.back().gwsBarrier);
      EXPECT_EQ(waits.back().gwsResource, 2u);
      EXPECT_FALSE(gws.barrierPassed(2, waits.back().gwsGeneration));
    }
    EXPECT_EQ(gws.queuedAtBarrier(2), 2u);
    WaveRunner last = atGws("gws_barrier", &gws, 0);
    last.wave.exec = 1;
    last.v(1, 0) = 2;  // the count for the next round
    ASSERT_EQ(last.step().kind, StepKind::Memory) << round;
    for (const StepResult& w : waits) EXPECT_TRUE(gws.barrierPassed(2, w.gwsGeneration));
    EXPECT_EQ(gws.counter(2), 2u);
    EXPECT_EQ(gws.queuedAtBarrier(2), 0u);
  }
  recordValueChecked({"ds_gws_barrier"});
}

TEST(DsGws, OrderedCountIsGraphicsOnlyAndGwsNeedsTheUnit) {
  GwsState gws;
  WaveRunner o = atGws("gws_ordered_count", &gws, 0);
  StepResult res = o.step();
  EXPECT_EQ(res.kind, StepKind::Fault);
  EXPECT_NE(res.fault.find("graphics-only"), std::string::npos) << res.fault;
  EXPECT_NE(o.program.at(o.wave.pc)->op, nullptr);

  WaveRunner r = atGws("gws_v", nullptr, 0);
  res = r.step();
  EXPECT_EQ(res.kind, StepKind::Fault);
  EXPECT_NE(res.fault.find("global wave sync"), std::string::npos) << res.fault;
}

TEST(DsGws, Gds0EncodingsAreUnknownAsInObjdump) {
  // ds_gws_init v1 (D9330000 00000001) and ds_ordered_count v1, v2 (D97F0000 01000002) with
  // the gds bit cleared: llvm-objdump-15 prints one .long and goes on with the next word.
  for (const uint32_t w0 : {0xd9320000u, 0xd97e0000u}) {
    const uint32_t words[] = {w0, 0x00000001u};
    std::vector<uint8_t> bytes(8);
    std::memcpy(bytes.data(), words, 8);
    const Program p = Program::decode(bytes, 0x1000, GfxTarget::Gfx906);
    ASSERT_NE(p.at(0x1000), nullptr);
    EXPECT_EQ(p.at(0x1000)->op, nullptr) << std::hex << w0;
    EXPECT_EQ(p.at(0x1000)->sizeBytes, 4u);
    // ... and with it set, they decode.
    std::vector<uint8_t> gdsBytes = bytes;
    gdsBytes[2] |= 1;  // bit 16
    const Program q = Program::decode(gdsBytes, 0x1000, GfxTarget::Gfx900);
    ASSERT_NE(q.at(0x1000), nullptr);
    EXPECT_NE(q.at(0x1000)->op, nullptr) << std::hex << w0;
    EXPECT_EQ(q.at(0x1000)->sizeBytes, 8u);
  }
}

}  // namespace
}  // namespace vgpu::isa::test
