// Lds through a tester initiator sending whole-wave DS requests (WaveAccessExtension).
// Timing: an access holds its SIMD pair's port for its input (4 address bytes per lane, plus
// store data) and then its output (returned data) at 64 B per cycle, 16 lanes a cycle; the banks
// serve it from when the port starts; the data is back kLatency cycles after both are done.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <vector>

#include "TlmTester.h"
#include "lds/Lds.h"

namespace vgpu {
namespace {

using test::cycles;
using test::TesterInitiator;

constexpr uint32_t kLatency = 20;

struct LdsBench {
  Lds lds{"lds", LdsConfig{}, cycles(1), std::make_unique<CppLdsBankArbiter>()};
  TesterInitiator init{"init"};
  LdsBench() { init.socket.bind(lds.socket); }
};

isa::MemRequest wave(isa::MemOp op, uint64_t mask = ~0ull, uint8_t bytes = 4) {
  isa::MemRequest r;
  r.space = isa::MemSpace::Lds;
  r.op = op;
  r.laneMask = mask;
  r.elementBytes = bytes;
  return r;
}

uint32_t get32(const isa::MemRequest& r, int lane, int e = 0) {
  uint32_t v;
  std::memcpy(&v, r.element(lane, e), 4);
  return v;
}
void put32(isa::MemRequest& r, int lane, uint32_t v, int e = 0) {
  std::memcpy(r.element(lane, e), &v, 4);
}

TEST(Lds, StoreThenLoad) {
  LdsBench b;
  b.init.body([&](TesterInitiator& i) {
    isa::MemRequest st = wave(isa::MemOp::Store);
    for (int l = 0; l < 64; ++l) st.address(l, 0) = 4 * l, put32(st, l, 1000 + 3 * l);
    EXPECT_TRUE(test::sendWave(i, st, 0, 65536).ok());
    isa::MemRequest ld = wave(isa::MemOp::Load);
    for (int l = 0; l < 64; ++l) ld.address(l, 0) = 4 * (63 - l);  // reversed
    EXPECT_TRUE(test::sendWave(i, ld, 0, 65536).ok());
    for (int l = 0; l < 64; ++l) EXPECT_EQ(get32(ld, l), 1000u + 3 * (63 - l)) << "lane " << l;
  });
  test::simulate();
  EXPECT_EQ(b.lds.accesses, 2u);
}

TEST(Lds, DelayIsLatencyPlusTheLongerOfPortAndBankCycles) {
  LdsBench b;
  b.init.body([&](TesterInitiator& i) {
    isa::MemRequest ld = wave(isa::MemOp::Load);
    for (int l = 0; l < 64; ++l) ld.address(l, 0) = 4 * l;
    // 2 bank cycles; the port: 256 address bytes in, 256 data bytes out: 4 + 4.
    EXPECT_EQ(test::sendWave(i, ld, 0, 65536).delay, cycles(kLatency + 8));
    sc_core::wait(cycles(1000));                              // the banks are idle again
    for (int l = 0; l < 64; ++l) ld.address(l, 0) = 128 * l;  // all lanes in bank 0
    EXPECT_EQ(test::sendWave(i, ld, 0, 65536).delay, cycles(kLatency + 64));
  });
  test::simulate();
  EXPECT_EQ(b.lds.bankCycles, 66u);
  EXPECT_EQ(b.lds.conflictCycles, 62u);
  EXPECT_EQ(b.lds.portCycles, 16u);
}

TEST(Lds, StoresHoldThePortForAddressesAndData) {
  // The rocprofiler-compute LDS model's figures: a wave64 store of 4 B per lane takes 8 port
  // cycles (256 address + 256 data bytes), of 16 B per lane 20 (256 + 1024); the banks need 2 and
  // 8 cycles (conflict-free).
  LdsBench b;
  b.init.body([&](TesterInitiator& i) {
    isa::MemRequest st = wave(isa::MemOp::Store);
    for (int l = 0; l < 64; ++l) st.address(l, 0) = 4 * l;
    EXPECT_EQ(test::sendWave(i, st, 0, 65536).delay, cycles(kLatency + 8));
    sc_core::wait(cycles(1000));
    isa::MemRequest wide = wave(isa::MemOp::Store, ~0ull, 16);
    for (int l = 0; l < 64; ++l) wide.address(l, 0) = 16 * l;
    EXPECT_EQ(test::sendWave(i, wide, 0, 65536).delay, cycles(kLatency + 20));
    sc_core::wait(cycles(1000));
    // One active lane moves one quarter-wave: 1 cycle of addresses, 1 of data.
    isa::MemRequest one = wave(isa::MemOp::Store, 1ull << 40);
    one.address(40, 0) = 0;
    EXPECT_EQ(test::sendWave(i, one, 0, 65536).delay, cycles(kLatency + 2));
  });
  test::simulate();
  EXPECT_EQ(b.lds.bankCycles, 2u + 8u + 1u);
  EXPECT_EQ(b.lds.portCycles, 8u + 20u + 2u);
}

TEST(Lds, SimdsOfAPairShareAPort) {
  // Two conflict-free ds_read_b32 (8 port cycles, 2 bank cycles each) sent at the same time.
  // From SIMDs 0 and 1 (one pair): the second waits for the port, done at 8 + 8. From SIMDs 0
  // and 2: ports of their own; the second waits only for the banks (2..4) and is done with its
  // port transfer at 8.
  LdsBench b;
  b.init.body([&](TesterInitiator& i) {
    isa::MemRequest ld = wave(isa::MemOp::Load);
    for (int l = 0; l < 64; ++l) ld.address(l, 0) = 4 * l;
    EXPECT_EQ(test::sendWave(i, ld, 0, 65536, false, 0).delay, cycles(kLatency + 8));
    EXPECT_EQ(test::sendWave(i, ld, 0, 65536, false, 1).delay, cycles(kLatency + 16));
    sc_core::wait(cycles(1000));
    EXPECT_EQ(test::sendWave(i, ld, 0, 65536, false, 0).delay, cycles(kLatency + 8));
    EXPECT_EQ(test::sendWave(i, ld, 0, 65536, false, 2).delay, cycles(kLatency + 8));
  });
  test::simulate();
}

TEST(Lds, BankConflictsUseTheAbsoluteAddress) {
  // Offsets are relative to the workgroup's allocation; banks are decided by the LDS address.
  LdsBench b;
  b.init.body([&](TesterInitiator& i) {
    isa::MemRequest ld = wave(isa::MemOp::Load, 0x3);
    ld.address(0, 0) = 0;
    ld.address(1, 0) =
        124;  // bank 31 relative, bank 0 at base 4: with lane 0 at bank 1, no conflict
    EXPECT_TRUE(test::sendWave(i, ld, 4, 1024).ok());
    EXPECT_EQ(b.lds.bankCycles, 1u);
    EXPECT_EQ(b.lds.conflictCycles, 0u);
    sc_core::wait(cycles(1000));
    ld.address(1, 0) = 128;  // same bank as lane 0 in any case
    EXPECT_TRUE(test::sendWave(i, ld, 4, 1024).ok());
    EXPECT_EQ(b.lds.bankCycles, 1u + 2u);
    EXPECT_EQ(b.lds.conflictCycles, 1u);
  });
  test::simulate();
}

TEST(Lds, WorkgroupsSeeTheirOwnAllocation) {
  LdsBench b;
  b.init.body([&](TesterInitiator& i) {
    isa::MemRequest st = wave(isa::MemOp::Store, 0x1);
    st.address(0, 0) = 0;
    put32(st, 0, 0xaaaa);
    EXPECT_TRUE(test::sendWave(i, st, 0, 1024).ok());
    put32(st, 0, 0xbbbb);
    EXPECT_TRUE(test::sendWave(i, st, 1024, 1024).ok());
    isa::MemRequest ld = wave(isa::MemOp::Load, 0x1);
    ld.address(0, 0) = 0;
    test::sendWave(i, ld, 0, 1024);
    EXPECT_EQ(get32(ld, 0), 0xaaaau);
    test::sendWave(i, ld, 1024, 1024);
    EXPECT_EQ(get32(ld, 0), 0xbbbbu);
  });
  test::simulate();
  uint32_t raw;
  std::memcpy(&raw, b.lds.storage() + 1024, 4);
  EXPECT_EQ(raw, 0xbbbbu);
  std::memcpy(&raw, b.lds.storage(), 4);
  EXPECT_EQ(raw, 0xaaaau);
}

TEST(Lds, OutOfRangeLoadsReturnZero) {
  LdsBench b;
  std::memset(b.lds.storage(), 0x77, 4096);
  b.init.body([&](TesterInitiator& i) {
    isa::MemRequest ld = wave(isa::MemOp::Load, 0xf);
    ld.address(0, 0) = 0;     // in range
    ld.address(1, 0) = 1020;  // last dword: in range
    ld.address(2, 0) = 1022;  // straddles the end
    ld.address(3, 0) = 4000;  // beyond
    for (int l = 0; l < 4; ++l) put32(ld, l, 0xdeadbeef);
    EXPECT_TRUE(test::sendWave(i, ld, 1024, 1024).ok());
    EXPECT_EQ(get32(ld, 0), 0x77777777u);
    EXPECT_EQ(get32(ld, 1), 0x77777777u);
    EXPECT_EQ(get32(ld, 2), 0u);
    EXPECT_EQ(get32(ld, 3), 0u);
  });
  test::simulate();
  EXPECT_EQ(b.lds.outOfRangeLanes, 2u);
}

TEST(Lds, OutOfRangeStoresAreDropped) {
  LdsBench b;
  b.init.body([&](TesterInitiator& i) {
    isa::MemRequest st = wave(isa::MemOp::Store, 0x3);
    st.address(0, 0) = 1024;  // just past a 1 KiB allocation at 1024: would land at 2048
    st.address(1, 0) = 1022;
    put32(st, 0, 0x11111111);
    put32(st, 1, 0x22222222);
    EXPECT_TRUE(test::sendWave(i, st, 1024, 1024).ok());
  });
  test::simulate();
  for (int a = 2040; a < 2056; ++a) EXPECT_EQ(b.lds.storage()[a], 0) << "byte " << a;
  EXPECT_EQ(b.lds.outOfRangeLanes, 2u);
}

TEST(Lds, HugeOffsetDoesNotWrapIntoRange) {
  // offset + bytes wraps to 0 for offset 2^64 - 4: the range check must still refuse it.
  LdsBench b;
  b.init.body([&](TesterInitiator& i) {
    isa::MemRequest ld = wave(isa::MemOp::Load, 0x1);
    ld.address(0, 0) = ~0ull - 3;
    put32(ld, 0, 0xdeadbeef);
    EXPECT_TRUE(test::sendWave(i, ld, 0, 1024).ok());
    EXPECT_EQ(get32(ld, 0), 0u);
  });
  test::simulate();
  EXPECT_EQ(b.lds.outOfRangeLanes, 1u);
}

TEST(Lds, AccessBeyondTheLdsArrayIsOutOfRange) {
  LdsBench b;
  b.init.body([&](TesterInitiator& i) {
    isa::MemRequest st = wave(isa::MemOp::Store, 0x1);
    st.address(0, 0) = 1024;  // inside the claimed size, but past the 64 KiB array
    put32(st, 0, 0x1234);
    EXPECT_TRUE(test::sendWave(i, st, 65536 - 1024, 4096).ok());
  });
  test::simulate();
  EXPECT_EQ(b.lds.outOfRangeLanes, 1u);
}

TEST(Lds, InactiveLanesAreUntouched) {
  LdsBench b;
  b.init.body([&](TesterInitiator& i) {
    isa::MemRequest st = wave(isa::MemOp::Store, 0x5);
    for (int l = 0; l < 4; ++l) st.address(l, 0) = 4 * l, put32(st, l, 0x100 + l);
    test::sendWave(i, st, 0, 1024);
    isa::MemRequest ld = wave(isa::MemOp::Load, 0xa);
    for (int l = 0; l < 4; ++l) ld.address(l, 0) = 4 * l, put32(ld, l, 0xeeee);
    test::sendWave(i, ld, 0, 1024);
    EXPECT_EQ(get32(ld, 0), 0xeeeeu);
    EXPECT_EQ(get32(ld, 1), 0u);  // lane 1 was not stored
    EXPECT_EQ(get32(ld, 2), 0xeeeeu);
    EXPECT_EQ(get32(ld, 3), 0u);
  });
  test::simulate();
  uint32_t raw;
  std::memcpy(&raw, b.lds.storage() + 8, 4);
  EXPECT_EQ(raw, 0x102u);
}

TEST(Lds, SameAddressStoresHighestLaneWins) {
  LdsBench b;
  b.init.body([&](TesterInitiator& i) {
    isa::MemRequest st = wave(isa::MemOp::Store, 0x00ff00ff00ff00ffull);
    for (int l = 0; l < 64; ++l) st.address(l, 0) = 64, put32(st, l, l);
    test::sendWave(i, st, 0, 1024);
  });
  test::simulate();
  uint32_t raw;
  std::memcpy(&raw, b.lds.storage() + 64, 4);
  EXPECT_EQ(raw, 55u);
}

TEST(Lds, AtomicAddIsAppliedInLaneOrder) {
  LdsBench b;
  b.init.body([&](TesterInitiator& i) {
    isa::MemRequest at = wave(isa::MemOp::Atomic);
    at.atomic = isa::AtomicOp::Add;
    at.atomicReturnsData = true;
    for (int l = 0; l < 64; ++l) at.address(l, 0) = 16, put32(at, l, l + 1);
    EXPECT_TRUE(test::sendWave(i, at, 512, 512).ok());
    uint32_t sum = 0;
    for (int l = 0; l < 64; ++l) {
      EXPECT_EQ(get32(at, l), sum) << "lane " << l;
      sum += l + 1;
    }
    isa::MemRequest ld = wave(isa::MemOp::Load, 1);
    ld.address(0, 0) = 16;
    test::sendWave(i, ld, 512, 512);
    EXPECT_EQ(get32(ld, 0), 64u * 65 / 2);
  });
  test::simulate();
}

TEST(Lds, AtomicCompareSwapUsesTheCompareOperand) {
  LdsBench b;
  b.init.body([&](TesterInitiator& i) {
    isa::MemRequest at = wave(isa::MemOp::Atomic, 0x3);
    at.atomic = isa::AtomicOp::CmpSwap;
    at.atomicReturnsData = true;
    // Both lanes try to swap 0 -> their id: only lane 0 (first in lane order) succeeds.
    for (int l = 0; l < 2; ++l) {
      at.address(l, 0) = 32;
      put32(at, l, 10 + l);
      uint32_t zero = 0;
      std::memcpy(at.cmpElement(l, 0), &zero, 4);
    }
    test::sendWave(i, at, 0, 1024);
    EXPECT_EQ(get32(at, 0), 0u);
    EXPECT_EQ(get32(at, 1), 10u);
  });
  test::simulate();
  uint32_t raw;
  std::memcpy(&raw, b.lds.storage() + 32, 4);
  EXPECT_EQ(raw, 10u);
}

// The atomics as the Vega ISA guide defines them (section 12.13, LDS & GDS instructions),
// written here for the lane-order test below; the values of each operation are pinned by the
// hand-worked cases of AtomicValuesTest.cpp. `old`: memory before; returns memory after.
template <class U, class S, class F>
U guideAtomic(isa::AtomicOp op, U old, U data, U second) {
  using isa::AtomicOp;
  F fo, fd, fs;
  std::memcpy(&fo, &old, sizeof(F));
  std::memcpy(&fd, &data, sizeof(F));
  std::memcpy(&fs, &second, sizeof(F));
  auto bits = [](F f) {
    U u;
    std::memcpy(&u, &f, sizeof(F));
    return u;
  };
  switch (op) {
    case AtomicOp::Swap:
      return data;
    case AtomicOp::CmpSwap:
      return old == second ? data : old;
    case AtomicOp::Add:
      return U(old + data);
    case AtomicOp::Sub:
      return U(old - data);
    case AtomicOp::RsubU32:
      return U(data - old);
    case AtomicOp::SMin:
      return S(data) < S(old) ? data : old;
    case AtomicOp::SMax:
      return S(data) > S(old) ? data : old;
    case AtomicOp::UMin:
      return data < old ? data : old;
    case AtomicOp::UMax:
      return data > old ? data : old;
    case AtomicOp::And:
      return old & data;
    case AtomicOp::Or:
      return old | data;
    case AtomicOp::Xor:
      return old ^ data;
    case AtomicOp::Inc:
      return old >= data ? U(0) : U(old + 1);
    case AtomicOp::Dec:
      return old == 0 || old > data ? data : U(old - 1);
    case AtomicOp::Wrap:
      return old >= data ? U(old - data) : U(old + second);
    case AtomicOp::MskOr:
      return U((old & ~data) | second);
    // Operands here are small integers as floats (bytes 0..4): no NaN, so min/max are the
    // plain comparisons.
    case AtomicOp::FAdd:
      return bits(fo + fd);
    case AtomicOp::FMin:
      return fd < fo ? data : old;
    case AtomicOp::FMax:
      return fd > fo ? data : old;
    case AtomicOp::FCmpSwap:
      return fo == fs ? data : old;
    case AtomicOp::CondXchg32: {
      U out = old;
      for (unsigned d = 0; d < sizeof(U) / 4; ++d) {
        const uint32_t word = uint32_t(data >> (32 * d));
        if (word >> 31) {
          out &= ~(U(0xffffffffu) << (32 * d));
          out |= U(word & 0x7fffffffu) << (32 * d);
        }
      }
      return out;
    }
    default:
      return old;
  }
}

TEST(Lds, EveryAtomicAppliesLaneByLaneInLaneOrder) {
  // Every atomic operation, dword and qword, on random values with lanes sharing dwords: the
  // returned values and the LDS afterwards must be what applying the guide's definition lane
  // by lane, in lane order, to a copy of the LDS gives.
  using isa::AtomicOp;
  const AtomicOp ops[] = {
      AtomicOp::Swap,      AtomicOp::CmpSwap, AtomicOp::Add,  AtomicOp::Sub,  AtomicOp::RsubU32,
      AtomicOp::SMin,      AtomicOp::UMin,    AtomicOp::SMax, AtomicOp::UMax, AtomicOp::And,
      AtomicOp::Or,        AtomicOp::Xor,     AtomicOp::Inc,  AtomicOp::Dec,  AtomicOp::Wrap,
      AtomicOp::MskOr,     AtomicOp::FAdd,    AtomicOp::FMin, AtomicOp::FMax, AtomicOp::FCmpSwap,
      AtomicOp::CondXchg32};
  LdsBench b;
  std::vector<uint8_t> expected(1024);
  uint64_t seed = 12345;
  auto next = [&] {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<uint32_t>(seed >> 32);
  };
  b.init.body([&](TesterInitiator& i) {
    isa::MemRequest init = wave(isa::MemOp::Store, ~0ull, 16);
    for (int l = 0; l < 64; ++l) {
      init.address(l, 0) = 16 * l;
      for (int k = 0; k < 16; ++k) init.element(l, 0)[k] = static_cast<uint8_t>(next() % 7);
      std::memcpy(&expected[16 * l], init.element(l, 0), 16);
    }
    test::sendWave(i, init, 0, 1024);
    for (const AtomicOp op : ops) {
      for (const uint8_t bytes : {uint8_t{4}, uint8_t{8}}) {
        isa::MemRequest at = wave(isa::MemOp::Atomic, (uint64_t{next()} << 32) | next(), bytes);
        at.atomic = op;
        at.atomicReturnsData = true;
        for (int l = 0; l < 64; ++l) {
          at.address(l, 0) = bytes * (next() % 24);  // few places: lanes share them
          for (int k = 0; k < bytes; ++k) {
            at.element(l, 0)[k] = static_cast<uint8_t>(next() % 5);
            at.cmpElement(l, 0)[k] = static_cast<uint8_t>(next() % 5);
          }
        }
        isa::MemRequest want = at;
        for (uint64_t lanes = at.laneMask; lanes != 0; lanes &= lanes - 1) {
          const int l = __builtin_ctzll(lanes);
          uint8_t* mem = &expected[want.address(l, 0)];
          if (bytes == 4) {
            uint32_t old, data, second;
            std::memcpy(&old, mem, 4);
            std::memcpy(&data, want.element(l, 0), 4);
            std::memcpy(&second, want.cmpElement(l, 0), 4);
            const uint32_t after = guideAtomic<uint32_t, int32_t, float>(op, old, data, second);
            std::memcpy(mem, &after, 4);
            std::memcpy(want.element(l, 0), &old, 4);
          } else {
            uint64_t old, data, second;
            std::memcpy(&old, mem, 8);
            std::memcpy(&data, want.element(l, 0), 8);
            std::memcpy(&second, want.cmpElement(l, 0), 8);
            const uint64_t after = guideAtomic<uint64_t, int64_t, double>(op, old, data, second);
            std::memcpy(mem, &after, 8);
            std::memcpy(want.element(l, 0), &old, 8);
          }
        }
        EXPECT_TRUE(test::sendWave(i, at, 0, 1024).ok());
        for (int l = 0; l < 64; ++l) {
          if (!((at.laneMask >> l) & 1)) continue;
          EXPECT_EQ(std::memcmp(at.element(l, 0), want.element(l, 0), bytes), 0)
              << "op " << static_cast<int>(op) << " bytes " << int{bytes} << " lane " << l;
        }
      }
    }
  });
  test::simulate();
  EXPECT_EQ(std::memcmp(b.lds.storage(), expected.data(), expected.size()), 0);
}

TEST(Lds, B64AndRead2) {
  LdsBench b;
  b.init.body([&](TesterInitiator& i) {
    isa::MemRequest st = wave(isa::MemOp::Store, ~0ull, 8);
    for (int l = 0; l < 64; ++l) {
      st.address(l, 0) = 8 * l;
      const uint64_t v = 0x100000000ull * l + 7;
      std::memcpy(st.element(l, 0), &v, 8);
    }
    // Banks: quarter-waves of 16 lanes x 2 dwords, conflict-free: 4 cycles. Port: 4 address
    // and 8 data bytes per lane in: 12 cycles.
    EXPECT_EQ(test::sendWave(i, st, 0, 1024).delay, cycles(kLatency + 12));
    EXPECT_EQ(b.lds.bankCycles, 4u);
    isa::MemRequest ld = wave(isa::MemOp::Load, ~0ull, 4);
    ld.elementsPerLane = 2;  // read2: dwords 2l + 1 and 2l
    for (int l = 0; l < 64; ++l) ld.address(l, 0) = 8 * l + 4, ld.address(l, 1) = 8 * l;
    // Both dwords of a lane together, as b64: 4 bank cycles; port 4 in + 8 out.
    EXPECT_EQ(test::sendWave(i, ld, 0, 1024).delay, cycles(kLatency + 12));
    EXPECT_EQ(b.lds.bankCycles, 8u);
    for (int l = 0; l < 64; ++l) {
      EXPECT_EQ(get32(ld, l, 0), static_cast<uint32_t>(l));
      EXPECT_EQ(get32(ld, l, 1), 7u);
    }
  });
  test::simulate();
}

TEST(Lds, BackToBackAccessesQueueOnTheBanks) {
  // The banks serve one schedule at a time: a second access sent at the same time starts when
  // the first one's bank cycles are over.
  LdsBench b;
  b.init.body([&](TesterInitiator& i) {
    isa::MemRequest ld = wave(isa::MemOp::Load);
    for (int l = 0; l < 64; ++l) ld.address(l, 0) = 128 * l;  // 32-way conflict: 64 bank cycles
    EXPECT_EQ(test::sendWave(i, ld, 0, 65536, false).delay, cycles(kLatency + 64));
    EXPECT_EQ(test::sendWave(i, ld, 0, 65536, false).delay, cycles(64 + kLatency + 64));
  });
  test::simulate();
}

TEST(Lds, RequestWithoutWaveExtensionIsACommandError) {
  LdsBench b;
  b.init.body([&](TesterInitiator& i) {
    uint32_t v = 0;
    EXPECT_EQ(i.read(0, &v, 4).status, tlm::TLM_COMMAND_ERROR_RESPONSE);
  });
  test::simulate();
  EXPECT_EQ(b.lds.accesses, 0u);
}

TEST(Lds, DebugTransportSeesTheRawArray) {
  LdsBench b;
  b.init.body([&](TesterInitiator& i) {
    uint32_t v = 0xfeed;
    EXPECT_EQ(i.debug(tlm::TLM_WRITE_COMMAND, 4096, &v, 4), 4u);
    EXPECT_EQ(sc_core::sc_time_stamp(), sc_core::SC_ZERO_TIME);  // debug accesses take no time
    isa::MemRequest ld = wave(isa::MemOp::Load, 1);
    ld.address(0, 0) = 96;
    test::sendWave(i, ld, 4000, 1024);
    EXPECT_EQ(get32(ld, 0), 0xfeedu);
    uint8_t tail[8] = {};
    EXPECT_EQ(i.debug(tlm::TLM_READ_COMMAND, 65532, tail, 8), 4u);  // clipped at the end
    const sc_core::sc_time before = sc_core::sc_time_stamp();
    EXPECT_EQ(i.debug(tlm::TLM_READ_COMMAND, 65536, tail, 8), 0u);
    EXPECT_EQ(sc_core::sc_time_stamp(), before);
  });
  test::simulate();
  EXPECT_EQ(b.lds.accesses, 1u);
}

}  // namespace
}  // namespace vgpu
