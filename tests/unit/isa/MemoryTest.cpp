// Memory instructions: the requests execute() builds (addresses, data, counters, write-back)
// and the data completeMemory() writes, for SMEM, global, atomics, DS and buffer scratch.
#include <gtest/gtest.h>

#include "WaveRunner.h"
#include "isa/Atomics.h"
#include "isa/Memory.h"

#include <algorithm>
#include <cstring>

namespace vgpu::isa::test {
namespace {

constexpr uint64_t kA = 0x100000, kB = 0x200000, kKernarg = 0x300000, kScratch = 0x400000;

TEST(Memory, GlobalLdsAndScratchProgram) {
  WaveRunner r("memory");
  r.recordRequests = true;
  for (int l = 0; l < 64; ++l) {
    r.v(0, l) = static_cast<uint32_t>(l);
    r.memory.write32(kA + 4 * l, 0x80010000u + static_cast<uint32_t>(l) * 0x100);
  }
  r.memory.write64(kKernarg, kA);
  r.memory.write64(kKernarg + 8, kB);
  r.memory.write32(kKernarg + 16, 1000);
  r.memory.write32(kB + 256, 7);
  r.s(4) = static_cast<uint32_t>(kKernarg);
  r.s(5) = 0;
  const auto rsrc = makeScratchResource(kScratch, 1024 * 1024);
  for (int i = 0; i < 4; ++i) r.s(i) = rsrc[i];
  const StepResult res = r.run();
  ASSERT_EQ(res.kind, StepKind::EndProgram) << res.fault;
  for (int l = 0; l < 64; ++l) {
    SCOPED_TRACE(l);
    const uint32_t a = 0x80010000u + static_cast<uint32_t>(l) * 0x100;
    EXPECT_EQ(r.v(4, l), a);
    EXPECT_EQ(r.v(5, l), (a >> 8) & 0xff);                                       // ubyte
    EXPECT_EQ(r.v(6, l), static_cast<uint32_t>(static_cast<int16_t>(a >> 16)));  // sshort
    EXPECT_EQ(r.memory.read32(kB + 4 * l), a + 1000);
    EXPECT_EQ(r.v(14, l), a + 1000);                        // ds_read2 elt 0
    EXPECT_EQ(r.v(15, l), l < 63 ? a + 0x100 + 1000 : 0u);  // +4 bytes: next lane
    EXPECT_EQ(r.v(16, l), a + 1000);                        // read2st64 elt 0
    EXPECT_EQ(r.v(17, l), static_cast<uint32_t>(l));        // +512: v0 (before ds_add)
    EXPECT_EQ(r.v(18, l), static_cast<uint32_t>(l) * 2);
    EXPECT_EQ(r.v(19, l), a + 1000);
    EXPECT_EQ(r.v(20, l), static_cast<uint32_t>(l));
    // Swizzled scratch: private dword p of lane l at base + (p / 4) * 256 + l * 4.
    EXPECT_EQ(r.memory.read32(kScratch + (16 / 4) * 256 + l * 4), a + 1000);
    EXPECT_EQ(r.memory.read32(kScratch + ((4 * l + 2048) / 4) * 256 + l * 4),
              static_cast<uint32_t>(l));
  }
  // global_atomic_add with glc: every lane added its id; returns are the running sums.
  EXPECT_EQ(r.memory.read32(kB + 256), 7u + 64 * 63 / 2);
  std::vector<uint32_t> olds;
  for (int l = 0; l < 64; ++l) olds.push_back(r.v(12, l));
  std::sort(olds.begin(), olds.end());
  EXPECT_EQ(olds.front(), 7u);
  // Request shapes: counters and spaces.
  int smem = 0, vmem = 0, lds = 0;
  for (const MemRequest& m : r.requests) {
    if (m.space == MemSpace::Scalar) {
      ++smem;
      EXPECT_EQ(m.counter, WaitCounter::Lgkm);
    } else if (m.space == MemSpace::Lds) {
      ++lds;
      EXPECT_EQ(m.counter, WaitCounter::Lgkm);
    } else {
      ++vmem;
      EXPECT_EQ(m.counter, WaitCounter::Vm);
    }
  }
  EXPECT_EQ(smem, 2);
  EXPECT_EQ(lds, 6);
  EXPECT_EQ(vmem, 10);
  // s_load_dwordx4: one 16-byte scalar access at the kernarg address.
  EXPECT_EQ(r.requests[0].address(0, 0), kKernarg);
  EXPECT_EQ(r.requests[0].elementBytes, 16);
}

// A CU reuses one request after another. Lanes a load does not send (EXEC off, a buffer range
// check) read back 0 (Vega ISA guide 8.1.5: out-of-range loads return 0), whatever the request
// held before: beginRequest clears only what the last request's shape used, so that must be
// all the last request wrote.
TEST(Memory, ReusedRequestStartsWithZeroDataAfterEveryShape) {
  MemRequest mem;
  auto expectAllZero = [&](const char* after) {
    for (size_t i = 0; i < MemRequest::kDataBytes; ++i)
      ASSERT_EQ(mem.data[i], 0) << "byte " << i << " after " << after;
  };
  struct Shape {
    const char* name;
    MemSpace space;
    uint8_t bytes, perLane;
  };
  const Shape shapes[] = {{"ds_read2_b64", MemSpace::Lds, 8, 2},
                          {"global_load_dword", MemSpace::Vector, 4, 1},
                          {"global_load_dwordx3", MemSpace::Vector, 12, 1},
                          {"scratch dwordx4 split by dword", MemSpace::Vector, 4, 4},
                          {"s_load_dwordx16", MemSpace::Scalar, 64, 1},
                          {"global_load_ubyte", MemSpace::Vector, 1, 1},
                          {"global_load_dwordx4", MemSpace::Vector, 16, 1}};
  for (const Shape& shape : shapes) {
    beginRequest(mem, shape.space, MemOp::Load, WaitCounter::Vm);
    mem.elementBytes = shape.bytes;
    mem.elementsPerLane = shape.perLane;
    // The memory side fills every element the shape has.
    const int lanes = shape.space == MemSpace::Scalar ? 1 : 64;
    for (int l = 0; l < lanes; ++l)
      for (int e = 0; e < shape.perLane; ++e) std::memset(mem.element(l, e), 0xa5, shape.bytes);
    beginRequest(mem, MemSpace::Vector, MemOp::Load, WaitCounter::Vm);
    expectAllZero(shape.name);
  }
}

TEST(Memory, BufferRangeCheckZeroesOutOfRangeLoads) {
  // The same program with a raw (unswizzled, stride 0) V# of 64 bytes in s[0:3].
  WaveRunner r("memory");
  for (int i = 0; i < 2304; i += 4) r.memory.write32(kScratch + i, 0x55);
  for (int l = 0; l < 64; ++l) {
    r.v(0, l) = static_cast<uint32_t>(l);
    r.memory.write32(kA + 4 * l, 1);
  }
  r.memory.write64(kKernarg, kA);
  r.memory.write64(kKernarg + 8, kB);
  r.s(4) = static_cast<uint32_t>(kKernarg);
  r.s(0) = static_cast<uint32_t>(kScratch);
  r.s(1) = 0;
  r.s(2) = 64;        // num_records = 64 bytes, stride 0: raw buffer
  r.s(3) = 4u << 15;  // DATA_FORMAT 32: not the null resource (DATA_FORMAT 0)
  const StepResult res = r.run();
  ASSERT_EQ(res.kind, StepKind::EndProgram) << res.fault;
  for (int l = 0; l < 64; ++l) {
    SCOPED_TRACE(l);
    EXPECT_EQ(r.v(19, l), 1u);  // raw[16]: every lane stored there; the last lane wins
    EXPECT_EQ(r.v(20, l), 0u);  // raw[4 l + 2048]: out of range, the store was dropped
    // raw[4 l + 4]: in range while 4 l + 4 + 4 <= 64; out-of-range loads return 0.
    EXPECT_EQ(r.v(21, l), 4 * l + 8 <= 64 ? (l == 3 ? 1u : 0x55u) : 0u);
  }
  EXPECT_EQ(r.memory.read32(kScratch + 2048 + 4), 0x55u);  // lane 1 would have stored 1
}

TEST(Memory, FlatAperturesAndScratchSwizzle) {
  // flat_load_dword v1, v[2:3]; flat_store_dword v[2:3], v1 (from the corpus encodings).
  const std::vector<uint8_t> bytes = {0x00, 0x00, 0x50, 0xdc, 0x02, 0x00, 0x00, 0x01};
  const Program p = Program::decode(bytes, 0, GfxTarget::Gfx906);
  WaveState w;
  w.resizeVgprs(8);
  w.exec = 0xf;
  w.flatScratch = 0x900000;
  ExecContext ctx;
  ctx.sharedApertureBase = 0x1000000000000ull;
  ctx.privateApertureBase = 0x2000000000000ull;
  MemRequest mem;
  auto setAddr = [&](int lane, uint64_t a) {
    w.v(2)[lane] = static_cast<uint32_t>(a);
    w.v(3)[lane] = static_cast<uint32_t>(a >> 32);
  };
  for (int l = 0; l < 4; ++l) setAddr(l, ctx.privateApertureBase + 8 + l);
  StepResult r = execute(p.instructions()[0], w, mem, ctx);
  ASSERT_EQ(r.kind, StepKind::Memory);
  EXPECT_EQ(mem.space, MemSpace::Vector);
  EXPECT_EQ(mem.counter, WaitCounter::VmLgkm);
  for (int l = 0; l < 4; ++l) EXPECT_EQ(mem.address(l, 0), 0x900000u + 2 * 256 + l * 4 + (l % 4));
  w.pc = 0;
  for (int l = 0; l < 4; ++l) setAddr(l, ctx.sharedApertureBase + 0x40 * l);
  r = execute(p.instructions()[0], w, mem, ctx);
  ASSERT_EQ(r.kind, StepKind::Memory);
  EXPECT_EQ(mem.space, MemSpace::Lds);
  // FLAT-segment instructions count on both VM_CNT and LGKM_CNT, whatever aperture the address
  // falls in (Vega ISA guide, "Flat Memory Instructions"; LLVM sets both for FLAT).
  EXPECT_EQ(mem.counter, WaitCounter::VmLgkm);
  EXPECT_EQ(mem.address(3, 0), 0xc0u);
  w.pc = 0;
  setAddr(1, 0x5000);  // a global address among LDS lanes
  r = execute(p.instructions()[0], w, mem, ctx);
  EXPECT_EQ(r.kind, StepKind::Fault);
  EXPECT_EQ(r.fault, "flat access mixing apertures not supported");
  EXPECT_EQ(w.pc, 0u);
}

// A global access's lane addresses (FLAT, "Global" addressing, Vega ISA guide 10.1.2): VADDR's
// 64-bit address, or SADDR + VADDR's 32-bit offset, plus the instruction offset, for every
// lane EXEC enables. Alignment (STRICT: the access size) applies to the enabled lanes only: a
// disabled lane's misaligned address is no fault, an enabled one's is, naming that lane.
TEST(Memory, GlobalAddressesAndAlignmentOfTheEnabledLanes) {
  // global_load_dwordx2 v[6:7], v[4:5], off; global_load_dwordx2 v[6:7], v4, s[10:11] offset:8
  // (llvm-mc-15 -mcpu=gfx906 encodings).
  const std::vector<uint8_t> bytes = {0x00, 0x80, 0x54, 0xdc, 0x04, 0x00, 0x7f, 0x06,
                                      0x08, 0x80, 0x54, 0xdc, 0x04, 0x00, 0x0a, 0x06};
  const Program p = Program::decode(bytes, 0, GfxTarget::Gfx906);
  ASSERT_EQ(p.instructions().size(), 2u);
  const Instruction &vaddr64 = p.instructions()[0], &saddr = p.instructions()[1];
  WaveState w;
  w.resizeVgprs(8);
  w.sgpr[10] = 0x40000000u;
  w.sgpr[11] = 0x1u;  // SADDR = 0x1'4000'0000
  for (int l = 0; l < 64; ++l) {
    const uint64_t a = 0x2'0000'0000ull + 0x100ull * static_cast<uint64_t>(l);
    w.v(4)[l] = static_cast<uint32_t>(a);
    w.v(5)[l] = static_cast<uint32_t>(a >> 32);
  }
  w.v(4)[37] += 4;  // lane 37: 4-byte aligned only
  w.v(5)[37] = static_cast<uint32_t>((0x2'0000'0000ull + 0x100ull * 37 + 4) >> 32);
  ExecContext ctx;
  MemRequest mem;
  auto exec = [&](const Instruction& in, uint64_t lanes) {
    w.pc = in.pc;
    w.exec = lanes;
    w.alignmentMode = 2;  // STRICT
    return execute(in, w, mem, ctx);
  };
  const uint64_t all = ~0ull, but37 = ~(1ull << 37);
  ASSERT_EQ(exec(vaddr64, but37).kind, StepKind::Memory);
  EXPECT_EQ(mem.laneMask, but37);
  for (int l : {0, 1, 36, 38, 63})
    EXPECT_EQ(mem.address(l, 0), 0x2'0000'0000ull + 0x100ull * static_cast<uint64_t>(l)) << l;
  StepResult r = exec(vaddr64, all);
  ASSERT_EQ(r.kind, StepKind::Fault);
  EXPECT_NE(r.fault.find("misaligned global access: lane 37 address 0x200002504"),
            std::string::npos)
      << r.fault;
  // SADDR + VADDR's low dword + 8: lane 37's offset 0x2504 + 8 is misaligned, the rest are not.
  ASSERT_EQ(exec(saddr, but37).kind, StepKind::Memory);
  for (int l : {0, 5, 63})
    EXPECT_EQ(mem.address(l, 0), 0x1'4000'0000ull + 0x100ull * static_cast<uint64_t>(l) + 8) << l;
  r = exec(saddr, all);
  ASSERT_EQ(r.kind, StepKind::Fault);
  EXPECT_NE(r.fault.find("lane 37 address 0x14000250c"), std::string::npos) << r.fault;
}

TEST(Memory, FlatGlobalAndScratchAlignment) {
  // global_atomic_add_x2 v[4:5], v[2:3], off; flat_load_dwordx2 v[6:7], v[4:5];
  // scratch_load_dwordx2 v[2:3], v1, off (llvm-mc-15 -mcpu=gfx906 encodings).
  const std::vector<uint8_t> bytes = {0x00, 0x80, 0x88, 0xdd, 0x04, 0x02, 0x7f, 0x00,
                                      0x00, 0x00, 0x54, 0xdc, 0x04, 0x00, 0x00, 0x06,
                                      0x00, 0x40, 0x54, 0xdc, 0x01, 0x00, 0x7f, 0x02};
  const Program p = Program::decode(bytes, 0, GfxTarget::Gfx906);
  ASSERT_EQ(p.instructions().size(), 3u);
  const Instruction &atomic = p.instructions()[0], &load = p.instructions()[1],
                    &scratch = p.instructions()[2];
  WaveState w;
  w.resizeVgprs(8);
  w.exec = 0x3;
  w.flatScratch = 0x900000;
  ExecContext ctx;
  MemRequest mem;
  auto at = [&](uint64_t a) {
    for (int l = 0; l < 2; ++l) {
      w.v(4)[l] = static_cast<uint32_t>(a + 8 * l);
      w.v(5)[l] = static_cast<uint32_t>((a + 8 * l) >> 32);
    }
  };
  auto exec = [&](const Instruction& in, int mode) {
    w.pc = in.pc;
    w.alignmentMode = static_cast<uint8_t>(mode);
    return execute(in, w, mem, ctx);
  };
  for (int mode = 0; mode < 4; ++mode) {
    SCOPED_TRACE(mode);
    // Atomics: aligned to their data size in every mode, as buffer atomics are.
    at(0x5004);
    StepResult r = exec(atomic, mode);
    ASSERT_EQ(r.kind, StepKind::Fault);
    EXPECT_NE(r.fault.find("MEMVIOL: misaligned global access: lane 0 address 0x5004 is not "
                           "8-byte aligned (atomics must be aligned to their data size"),
              std::string::npos)
        << r.fault;
    EXPECT_EQ(w.pc, atomic.pc);  // a fault leaves PC on the instruction
    at(0x5008);
    EXPECT_EQ(exec(atomic, mode).kind, StepKind::Memory);
  }
  // Loads follow SH_MEM_CONFIG.alignment_mode: UNALIGNED takes anything, DWORD drops the low
  // bits, DWORD_STRICT needs a dword, STRICT the access size.
  at(0x6002);
  ASSERT_EQ(exec(load, 3).kind, StepKind::Memory);
  EXPECT_EQ(mem.address(1, 0), 0x600au);
  ASSERT_EQ(exec(load, 0).kind, StepKind::Memory);
  EXPECT_EQ(mem.address(0, 0), 0x6000u);
  EXPECT_EQ(mem.address(1, 0), 0x6008u);
  StepResult r = exec(load, 1);
  ASSERT_EQ(r.kind, StepKind::Fault);
  EXPECT_NE(r.fault.find("misaligned flat access"), std::string::npos) << r.fault;
  EXPECT_NE(r.fault.find("DWORD_STRICT"), std::string::npos) << r.fault;
  at(0x6004);
  EXPECT_EQ(exec(load, 1).kind, StepKind::Memory);
  EXPECT_EQ(exec(load, 2).kind, StepKind::Fault);
  // Scratch: checked on the private offset, not on the swizzled address (whose dwords are
  // 256 bytes apart and only dword aligned): an 8-aligned offset passes STRICT.
  w.v(1)[0] = 8;
  w.v(1)[1] = 16;
  ASSERT_EQ(exec(scratch, 2).kind, StepKind::Memory);
  EXPECT_EQ(mem.address(1, 0), 0x900000u + 4 * 256 + 1 * 4);
  w.v(1)[1] = 12;
  r = exec(scratch, 2);
  ASSERT_EQ(r.kind, StepKind::Fault);
  EXPECT_NE(r.fault.find("misaligned scratch access: lane 1 address 0xc"), std::string::npos)
      << r.fault;
}

TEST(Atomics, IntegerFloatAndWrapSemantics) {
  auto run = [](AtomicOp op, uint32_t mem, uint32_t src, uint32_t cmp = 0) {
    uint8_t m[4], s[4], c[4], old[4];
    std::memcpy(m, &mem, 4);
    std::memcpy(s, &src, 4);
    std::memcpy(c, &cmp, 4);
    applyAtomic(op, 4, m, s, c, old);
    uint32_t out, o;
    std::memcpy(&out, m, 4);
    std::memcpy(&o, old, 4);
    EXPECT_EQ(o, mem);
    return out;
  };
  EXPECT_EQ(run(AtomicOp::Add, 5, 7), 12u);
  EXPECT_EQ(run(AtomicOp::Inc, 9, 9), 0u);  // wraps at src
  EXPECT_EQ(run(AtomicOp::Inc, 3, 9), 4u);
  EXPECT_EQ(run(AtomicOp::Dec, 0, 9), 9u);   // 0 wraps to src
  EXPECT_EQ(run(AtomicOp::Dec, 12, 9), 9u);  // above src wraps to src
  EXPECT_EQ(run(AtomicOp::Dec, 5, 9), 4u);
  EXPECT_EQ(run(AtomicOp::SMin, 0xffffffffu, 3), 0xffffffffu);
  EXPECT_EQ(run(AtomicOp::UMin, 0xffffffffu, 3), 3u);
  EXPECT_EQ(run(AtomicOp::CmpSwap, 5, 9, 5), 9u);
  EXPECT_EQ(run(AtomicOp::CmpSwap, 5, 9, 4), 5u);
  EXPECT_EQ(run(AtomicOp::FAdd, 0x3f800000u, 0x40000000u), 0x40400000u);  // 1 + 2
  uint8_t m8[8] = {}, s8[8], old8[8];
  const uint64_t big = 0x100000000ull;
  std::memcpy(s8, &big, 8);
  applyAtomic(AtomicOp::Add, 8, m8, s8, nullptr, old8);
  uint64_t r8;
  std::memcpy(&r8, m8, 8);
  EXPECT_EQ(r8, big);
}

// applyAtomic's answer, what the watchdog counts as progress: whether memory holds another value.
TEST(Atomics, SayWhetherMemoryChanged) {
  auto changes = [](AtomicOp op, unsigned bytes, uint64_t mem, uint64_t src, uint64_t cmp = 0) {
    uint8_t m[8], s[8], c[8], old[8];
    std::memcpy(m, &mem, 8);
    std::memcpy(s, &src, 8);
    std::memcpy(c, &cmp, 8);
    return applyAtomic(op, bytes, m, s, c, old);
  };
  EXPECT_TRUE(changes(AtomicOp::CmpSwap, 4, 0, 1, 0));   // swaps
  EXPECT_FALSE(changes(AtomicOp::CmpSwap, 4, 1, 1, 0));  // compare fails
  EXPECT_FALSE(changes(AtomicOp::CmpSwap, 4, 5, 5, 5));  // swaps in the same value
  EXPECT_FALSE(changes(AtomicOp::Add, 4, 5, 0));
  EXPECT_TRUE(changes(AtomicOp::Add, 8, 5, 1ull << 32));  // only the high dword moves
  EXPECT_FALSE(changes(AtomicOp::Swap, 4, 3, 3));
  EXPECT_FALSE(changes(AtomicOp::UMax, 4, 9, 3));
  EXPECT_TRUE(changes(AtomicOp::UMax, 4, 3, 9));
  // ds_condxchg32_rtn_b64: each dword written only when its bit 31 is set.
  EXPECT_FALSE(changes(AtomicOp::CondXchg32, 8, 0x0000000500000005ull, 0x0000000680000005ull));
  EXPECT_TRUE(changes(AtomicOp::CondXchg32, 8, 0x0000000500000005ull, 0x8000000600000005ull));
}

}  // namespace
}  // namespace vgpu::isa::test
