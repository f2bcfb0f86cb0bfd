// Every LDS and memory atomic, 32- and 64-bit, with its returning (glc) form, checked against
// values worked out by hand from the Vega ISA reference guide's opcode descriptions
// (section 12.13, "LDS & GDS instructions": DS_*_U32/U64/I32/I64/B32/B64/F32/F64; section 12.17,
// "MUBUF instructions": BUFFER_ATOMIC_*, whose FLAT/GLOBAL forms in 12.18 are the same
// operations). Each case is (memory before, DATA, DATA2 or compare, memory after), the after
// value written out as a literal; nothing here calls the model's atomic code.
//
// At the block interface a request carries DATA in the lane's data element and the second
// operand (the compare value of CMPST/CMPSWAP, DATA2 of WRAP and MSKOR) in its cmp element;
// which instruction operand goes where is the ISA's decoding, not tested here.
//
// The definitions (tmp = MEM[ADDR]; RETURN_DATA = tmp in every returning form):
//   SWAP (DS_WRXCHG_RTN_*)   MEM = DATA
//   CMPSWAP / DS_CMPST_B*    MEM = (tmp == CMP) ? DATA : tmp
//   DS_CMPST_F*              the same with a floating-point compare (+0 == -0, NaN != NaN)
//   ADD, SUB                 MEM = tmp + DATA, tmp - DATA (modulo 2^32 or 2^64)
//   DS_RSUB_*                MEM = DATA - tmp
//   SMIN/SMAX, UMIN/UMAX     signed / unsigned minimum and maximum of tmp and DATA
//   AND, OR, XOR             bitwise
//   INC                      MEM = (tmp >= DATA) ? 0 : tmp + 1               (unsigned)
//   DEC                      MEM = (tmp == 0 || tmp > DATA) ? DATA : tmp - 1 (unsigned)
//   DS_WRAP_RTN_B32          MEM = (tmp >= DATA) ? tmp - DATA : tmp + DATA2
//   DS_MSKOR_B*              MEM = (tmp & ~DATA) | DATA2
//   DS_ADD_F32               MEM = tmp + DATA (IEEE single, round to nearest even)
//   DS_MIN_F*, DS_MAX_F*     MEM = the smaller / larger of tmp and DATA as floats (LLVM
//                            assembles them with one data operand: DATA2 is not used)
//   DS_CONDXCHG32_RTN_B64    per dword d of the 64-bit DATA: if DATA[32d + 31] is set,
//                            dword d of MEM = DATA[32d + 30 : 32d] (bit 31 cleared); the
//                            other dword keeps its value
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <vector>

#include "MappedDeviceMemory.h"
#include "TlmTester.h"
#include "dram/Dram.h"
#include "l2/L2Cache.h"
#include "lds/Lds.h"
#include "platforms/Platform.h"
#include "tc/TexturePath.h"

namespace vgpu {
namespace {

using isa::AtomicOp;
using test::cycles;
using test::TesterInitiator;

struct Case {
  uint64_t before, data, second, after;
};
struct OpCases {
  const char* name;  // the instruction(s)
  AtomicOp op;
  unsigned bytes;
  bool memoryAtomic;  // also a BUFFER/GLOBAL atomic on gfx9 (through the texture path and L2)
  std::vector<Case> cases;
};

// Float and double bit patterns used below.
constexpr uint32_t kF1p5 = 0x3fc00000, kF2p25 = 0x40100000, kF3p75 = 0x40700000;
constexpr uint32_t kFm1 = 0xbf800000, kF1 = 0x3f800000, kF2 = 0x40000000, kFm2 = 0xc0000000;
constexpr uint32_t kFm3 = 0xc0400000, kF5 = 0x40a00000, kF7 = 0x40e00000;
constexpr uint32_t kFInf = 0x7f800000, kFmInf = 0xff800000, kFNan = 0x7fc00000;
constexpr uint32_t kFm0 = 0x80000000, kF0 = 0;
constexpr uint64_t kD1 = 0x3ff0000000000000, kD2 = 0x4000000000000000;
constexpr uint64_t kDm3 = 0xc008000000000000, kD5 = 0x4014000000000000;
constexpr uint64_t kD7 = 0x401c000000000000, kDm0 = 0x8000000000000000, kD0 = 0;
constexpr uint64_t kDNan = 0x7ff8000000000000, kDmHalf = 0xbfe0000000000000;
constexpr uint64_t kDmQuarter = 0xbfd0000000000000;

const std::vector<OpCases>& table() {
  static const std::vector<OpCases> t = {
      {"swap_b32", AtomicOp::Swap, 4, true, {{0x11111111, 0xdeadbeef, 0, 0xdeadbeef}}},
      {"cmpswap_b32",
       AtomicOp::CmpSwap,
       4,
       true,
       {{5, 9, 5, 9}, {5, 9, 6, 5}, {0x80000000, 1, 0x80000000, 1}, {0, 3, 0x80000000, 0}}},
      {"add_u32", AtomicOp::Add, 4, true, {{100, 23, 0, 123}, {0xfffffffe, 3, 0, 1}}},
      {"sub_u32", AtomicOp::Sub, 4, true, {{100, 1, 0, 99}, {5, 7, 0, 0xfffffffe}}},
      {"ds_rsub_u32", AtomicOp::RsubU32, 4, false, {{5, 7, 0, 2}, {7, 5, 0, 0xfffffffe}}},
      {"smin_i32",
       AtomicOp::SMin,
       4,
       true,
       {{0xffffffff, 1, 0, 0xffffffff}, {5, 0x80000000, 0, 0x80000000}, {3, 5, 0, 3}}},
      {"umin_u32",
       AtomicOp::UMin,
       4,
       true,
       {{0xffffffff, 1, 0, 1},
        {5, 3, 0, 3},
        {3, 5, 0, 3},
        {0x7fffffff, 0x80000000, 0, 0x7fffffff}}},
      {"smax_i32",
       AtomicOp::SMax,
       4,
       true,
       {{0xffffffff, 1, 0, 1}, {0x7fffffff, 0x80000000, 0, 0x7fffffff}, {3, 5, 0, 5}}},
      {"umax_u32",
       AtomicOp::UMax,
       4,
       true,
       {{0xffffffff, 1, 0, 0xffffffff}, {0x7fffffff, 0x80000000, 0, 0x80000000}}},
      {"and_b32", AtomicOp::And, 4, true, {{0xf0f0f0f0, 0xff00ff00, 0, 0xf000f000}}},
      {"or_b32", AtomicOp::Or, 4, true, {{0xf0f0f0f0, 0xff00ff00, 0, 0xfff0fff0}}},
      {"xor_b32", AtomicOp::Xor, 4, true, {{0xf0f0f0f0, 0xff00ff00, 0, 0x0ff00ff0}}},
      {"inc_u32",
       AtomicOp::Inc,
       4,
       true,
       {{3, 10, 0, 4},
        {9, 10, 0, 10},
        {10, 10, 0, 0},
        {11, 10, 0, 0},
        {0, 0, 0, 0},
        {0xfffffffe, 0xffffffff, 0, 0xffffffff},
        {0xffffffff, 0xffffffff, 0, 0}}},
      {"dec_u32",
       AtomicOp::Dec,
       4,
       true,
       {{3, 10, 0, 2},
        {10, 10, 0, 9},
        {11, 10, 0, 10},
        {0, 10, 0, 10},
        {1, 0, 0, 0},
        {0, 0, 0, 0},
        {0x80000000, 0xffffffff, 0, 0x7fffffff}}},
      {"ds_wrap_rtn_b32",
       AtomicOp::Wrap,
       4,
       false,
       {{10, 4, 7, 6}, {3, 4, 7, 10}, {4, 4, 7, 0}, {0xfffffffe, 0xffffffff, 5, 3}}},
      {"ds_mskor_b32",
       AtomicOp::MskOr,
       4,
       false,
       {{0x12345678, 0x0000ff00, 0x0000ab00, 0x1234ab78},
        {0xffffffff, 0xffffffff, 1, 1},
        {0x000000ff, 0x0000000f, 0x30, 0xf0},
        {0, 0, 0xf0, 0xf0}}},
      {"ds_add_f32", AtomicOp::FAdd, 4, false, {{kF1p5, kF2p25, 0, kF3p75}, {kFm1, kF1, 0, kF0}}},
      {"ds_min_f32",
       AtomicOp::FMin,
       4,
       false,
       {{kF2, kFm3, kF7, kFm3}, {kFm1, kF5, kFm3, kFm1}, {kFInf, kF1, 0, kF1}}},
      {"ds_max_f32",
       AtomicOp::FMax,
       4,
       false,
       {{kF2, kFm3, kF7, kF2}, {kFmInf, kFm2, kF7, kFm2}, {kFm3, kF5, kF1, kF5}}},
      {"ds_cmpst_f32",
       AtomicOp::FCmpSwap,
       4,
       false,
       {{kF1, kF7, kF1, kF7},
        {kF1, kF7, kF2, kF1},
        {kF0, kF5, kFm0, kF5},
        {kFNan, kF5, kFNan, kFNan}}},

      {"swap_x2", AtomicOp::Swap, 8, true, {{1, 0x0123456789abcdef, 0, 0x0123456789abcdef}}},
      {"cmpswap_x2",
       AtomicOp::CmpSwap,
       8,
       true,
       {{0x100000005, 9, 5, 0x100000005}, {0x100000005, 9, 0x100000005, 9}}},
      {"add_u64",
       AtomicOp::Add,
       8,
       true,
       {{0xffffffffffffffff, 2, 0, 1}, {0xffffffff, 1, 0, 0x100000000}}},
      {"sub_u64", AtomicOp::Sub, 8, true, {{0x100000000, 1, 0, 0xffffffff}, {0, 1, 0, ~0ull}}},
      {"ds_rsub_u64", AtomicOp::RsubU32, 8, false, {{1, 0x100000000, 0, 0xffffffff}}},
      {"smin_i64",
       AtomicOp::SMin,
       8,
       true,
       {{~0ull, 0xffffffff, 0, ~0ull},
        {0x8000000000000000, 0x7fffffffffffffff, 0, 0x8000000000000000}}},
      {"umin_u64", AtomicOp::UMin, 8, true, {{0xffffffff00000000, 0x1ffffffff, 0, 0x1ffffffff}}},
      {"smax_i64", AtomicOp::SMax, 8, true, {{~0ull, 0xffffffff, 0, 0xffffffff}}},
      {"umax_u64",
       AtomicOp::UMax,
       8,
       true,
       {{0x100000000, 0xffffffff, 0, 0x100000000}, {1, ~0ull, 0, ~0ull}}},
      {"and_b64",
       AtomicOp::And,
       8,
       true,
       {{0xff00ff00f0f0f0f0, 0x0ff00ff0ff00ff00, 0, 0x0f000f00f000f000}}},
      {"or_b64",
       AtomicOp::Or,
       8,
       true,
       {{0xff00ff00f0f0f0f0, 0x0ff00ff0ff00ff00, 0, 0xfff0fff0fff0fff0}}},
      {"xor_b64",
       AtomicOp::Xor,
       8,
       true,
       {{0xff00ff00f0f0f0f0, 0x0ff00ff0ff00ff00, 0, 0xf0f0f0f00ff00ff0}}},
      {"inc_u64",
       AtomicOp::Inc,
       8,
       true,
       {{0xffffffff, 0x100000000, 0, 0x100000000}, {5, 5, 0, 0}, {0x100000000, 0xffffffff, 0, 0}}},
      {"dec_u64",
       AtomicOp::Dec,
       8,
       true,
       {{0x100000000, ~0ull, 0, 0xffffffff},
        {0, 7, 0, 7},
        {0x100000000, 0xffffffff, 0, 0xffffffff}}},
      {"ds_mskor_b64",
       AtomicOp::MskOr,
       8,
       false,
       {{0x123456789abcdef0, 0xffff00000000ffff, 0x00ab00000000cd00, 0x00ab56789abccd00}}},
      {"ds_min_f64",
       AtomicOp::FMin,
       8,
       false,
       {{kD2, kDm3, kD7, kDm3}, {kDmHalf, kDmQuarter, 0, kDmHalf}}},
      {"ds_max_f64",
       AtomicOp::FMax,
       8,
       false,
       {{kD2, kDm3, kD7, kD2}, {kDmHalf, kDmQuarter, 0, kDmQuarter}}},
      {"ds_cmpst_f64",
       AtomicOp::FCmpSwap,
       8,
       false,
       {{kD1, kD7, kD1, kD7},
        {kD1, kD7, kD2, kD1},
        {kD0, kD5, kDm0, kD5},
        {kDNan, kD5, kDNan, kDNan}}},
      {"ds_condxchg32_rtn_b64",
       AtomicOp::CondXchg32,
       8,
       false,
       {{0x1111111122222222, 0x8000000500000007, 0, 0x0000000522222222},
        {0x1111111122222222, 0x7fffffffffffffff, 0, 0x111111117fffffff},
        {0x1111111122222222, 0, 0, 0x1111111122222222},
        {0x1111111122222222, 0x8000000080000000, 0, 0}}},
  };
  return t;
}

// The wave of one op: lane l works on its own 8-byte slot, slot l.
isa::MemRequest waveFor(const OpCases& c, isa::MemSpace space, uint64_t base, bool glc = true) {
  isa::MemRequest r;
  r.space = space;
  r.op = isa::MemOp::Atomic;
  r.atomic = c.op;
  r.atomicReturnsData = glc;
  r.elementBytes = static_cast<uint8_t>(c.bytes);
  r.laneMask = (uint64_t{1} << c.cases.size()) - 1;
  for (size_t l = 0; l < c.cases.size(); ++l) {
    const int lane = static_cast<int>(l);
    r.address(l, 0) = base + 8 * l;
    std::memcpy(r.element(lane, 0), &c.cases[l].data, c.bytes);
    std::memcpy(r.cmpElement(lane, 0), &c.cases[l].second, c.bytes);
  }
  return r;
}

uint64_t returned(const isa::MemRequest& r, size_t lane, unsigned bytes) {
  uint64_t v = 0;
  std::memcpy(&v, r.element(static_cast<int>(lane), 0), bytes);
  return v;
}

TEST(AtomicValues, TableCoversEveryLdsAtomicOfBothWidths) {
  // The DS atomics of gfx9 with a value operand: 20 dword and 19 qword forms (ds_wrap and
  // ds_add_f32 are dword only, ds_condxchg32 qword only), by operation.
  unsigned dword = 0, qword = 0, memory = 0;
  for (const OpCases& c : table()) {
    (c.bytes == 4 ? dword : qword) += 1;
    memory += c.memoryAtomic;
    EXPECT_FALSE(c.cases.empty()) << c.name;
  }
  EXPECT_EQ(dword, 20u);
  EXPECT_EQ(qword, 19u);
  EXPECT_EQ(memory, 26u);  // BUFFER/GLOBAL_ATOMIC_*: 13 operations, each with an _X2 form
}

TEST(AtomicValues, LdsAtomicsReturnTheOldValueAndLeaveTheDefinedResult) {
  Lds lds{"lds", LdsConfig{}, cycles(1), std::make_unique<CppLdsBankArbiter>()};
  TesterInitiator init{"init"};
  init.socket.bind(lds.socket);
  init.body([&](TesterInitiator& i) {
    uint32_t region = 0;
    for (const OpCases& c : table()) {
      const uint32_t base = region;  // offset in the workgroup's allocation, at LDS 1024
      region += 256;
      for (size_t l = 0; l < c.cases.size(); ++l)
        std::memcpy(lds.storage() + 1024 + base + 8 * l, &c.cases[l].before, c.bytes);
      isa::MemRequest r = waveFor(c, isa::MemSpace::Lds, base);
      ASSERT_TRUE(test::sendWave(i, r, 1024, 32768).ok()) << c.name;
      for (size_t l = 0; l < c.cases.size(); ++l) {
        uint64_t after = 0;
        std::memcpy(&after, lds.storage() + 1024 + base + 8 * l, c.bytes);
        EXPECT_EQ(after, c.cases[l].after) << std::hex << c.name << " case " << l;
        EXPECT_EQ(returned(r, l, c.bytes), c.cases[l].before) << c.name << " case " << l;
      }
    }
  });
  test::simulate();
}

// BUFFER/GLOBAL_ATOMIC_* through the texture path, the vector L1 and the vega20 L2 to DRAM,
// which executes them. A plain load afterwards, through the same caches, sees the results (the
// caches keep no stale copy of an atomically updated line). With glc the lanes get the old
// values; without, their data stays as sent.
void memoryAtomicsThroughTheCaches(bool glc) {
  const PlatformConfig p = loadPlatform("vega20");
  TexturePath tc{"tc", p.vectorL1, cycles(1)};
  L2Cache l2{"l2", p.l2, cycles(1)};
  Dram dram{"dram", test::fixedLatencyDram(16ull << 20, 200), cycles(1)};
  TesterInitiator init{"init"};
  init.socket.bind(tc.socket);
  tc.vectorL1.memory.bind(l2.socket);
  l2.memory.bind(dram.socket);
  const uint64_t base = test::mapDeviceMemory(dram, 1 << 20, 4096);
  init.body([&](TesterInitiator& i) {
    uint64_t region = base;
    for (const OpCases& c : table()) {
      if (!c.memoryAtomic) continue;
      const uint64_t at = region;
      region += 256;
      for (size_t l = 0; l < c.cases.size(); ++l)
        dram.store().write(at + 8 * l, reinterpret_cast<const uint8_t*>(&c.cases[l].before),
                           c.bytes);
      // Pull the lines into both caches first, so a stale copy would show.
      isa::MemRequest warm;
      warm.space = isa::MemSpace::Vector;
      warm.op = isa::MemOp::Load;
      warm.elementBytes = static_cast<uint8_t>(c.bytes);
      warm.laneMask = (uint64_t{1} << c.cases.size()) - 1;
      for (size_t l = 0; l < c.cases.size(); ++l) warm.address(l, 0) = at + 8 * l;
      ASSERT_TRUE(test::sendWave(i, warm).ok());
      isa::MemRequest r = waveFor(c, isa::MemSpace::Vector, at, glc);
      ASSERT_TRUE(test::sendWave(i, r).ok()) << c.name;
      ASSERT_FALSE(r.faulted) << c.name;
      isa::MemRequest check = warm;
      ASSERT_TRUE(test::sendWave(i, check).ok());
      for (size_t l = 0; l < c.cases.size(); ++l) {
        EXPECT_EQ(returned(r, l, c.bytes), glc ? c.cases[l].before : c.cases[l].data)
            << c.name << " case " << l;
        EXPECT_EQ(returned(check, l, c.bytes), c.cases[l].after)
            << std::hex << c.name << " case " << l;
      }
    }
  });
  test::simulate();
  uint64_t lanes = 0;
  for (const OpCases& c : table()) lanes += c.memoryAtomic ? c.cases.size() : 0;
  EXPECT_EQ(dram.atomics, lanes);  // each lane's atomic executed once, at the memory
}

TEST(AtomicValues, MemoryAtomicsWithGlcThroughTheTexturePathAndL2) {
  memoryAtomicsThroughTheCaches(true);
}

TEST(AtomicValues, MemoryAtomicsWithoutGlcUpdateMemoryAndReturnNothing) {
  memoryAtomicsThroughTheCaches(false);
}

TEST(AtomicValues, LanesOnOneAddressApplyInLaneOrder) {
  // Not commutative, so the order shows: DS_WRAP with DATA 4, DATA2 10 on memory 5, lanes 0..3:
  // 5 -> 1 (5 >= 4) -> 11 (1 < 4: 1 + 10) -> 7 -> 3; each lane returns the value before it.
  // DS_DEC_U32 with limits 2, 9, 0 and 5 on memory 3: 3 > 2 -> 2; 2 -> 1; 1 > 0 -> 0; 0 -> 5.
  Lds lds{"lds", LdsConfig{}, cycles(1), std::make_unique<CppLdsBankArbiter>()};
  TesterInitiator init{"init"};
  init.socket.bind(lds.socket);
  init.body([&](TesterInitiator& i) {
    auto run = [&](AtomicOp op, uint32_t initial, const std::vector<uint32_t>& data,
                   uint32_t second) {
      std::memcpy(lds.storage() + 64, &initial, 4);
      isa::MemRequest r;
      r.space = isa::MemSpace::Lds;
      r.op = isa::MemOp::Atomic;
      r.atomic = op;
      r.atomicReturnsData = true;
      r.laneMask = (uint64_t{1} << data.size()) - 1;
      for (size_t l = 0; l < data.size(); ++l) {
        r.address(l, 0) = 64;
        std::memcpy(r.element(static_cast<int>(l), 0), &data[l], 4);
        std::memcpy(r.cmpElement(static_cast<int>(l), 0), &second, 4);
      }
      EXPECT_TRUE(test::sendWave(i, r, 0, 1024).ok());
      std::vector<uint32_t> out;
      for (size_t l = 0; l < data.size(); ++l) out.push_back(uint32_t(returned(r, l, 4)));
      uint32_t final = 0;
      std::memcpy(&final, lds.storage() + 64, 4);
      out.push_back(final);
      return out;
    };
    EXPECT_EQ(run(AtomicOp::Wrap, 5, {4, 4, 4, 4}, 10), (std::vector<uint32_t>{5, 1, 11, 7, 3}));
    EXPECT_EQ(run(AtomicOp::Dec, 3, {2, 9, 0, 5}, 0), (std::vector<uint32_t>{3, 2, 1, 0, 5}));
  });
  test::simulate();
}

}  // namespace
}  // namespace vgpu
