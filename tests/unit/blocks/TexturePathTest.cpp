// TexturePath (texture-address unit + vector L1) with a Dram behind it: coalescing into line
// transactions, gathers, unaligned elements, byte-enabled stores, atomics and faults.
#include <gtest/gtest.h>

#include <cstring>

#include "TlmTester.h"
#include "dram/Dram.h"
#include "tc/TexturePath.h"

namespace vgpu {
namespace {

using test::cycles;
using test::TesterInitiator;

struct TcBench {
  TexturePath tc{"tc", CacheConfig{16384, 64, 4, 120, 64}, cycles(1)};
  Dram dram{"dram", test::fixedLatencyDram(64ull << 20, 200), cycles(1)};
  TesterInitiator init{"init"};
  uint64_t base = 0;  // 64 KiB allocation
  TcBench() {
    init.socket.bind(tc.socket);
    tc.vectorL1.memory.bind(dram.socket);
    base = *dram.memoryMap().allocate(65536, 4096);
  }
  uint32_t peek32(uint64_t addr) {
    uint32_t v = 0;
    dram.store().read(addr, reinterpret_cast<uint8_t*>(&v), 4);
    return v;
  }
  void poke32(uint64_t addr, uint32_t v) {
    dram.store().write(addr, reinterpret_cast<const uint8_t*>(&v), 4);
  }
};

isa::MemRequest wave(isa::MemOp op, uint64_t mask = ~0ull, uint8_t bytes = 4) {
  isa::MemRequest r;
  r.space = isa::MemSpace::Vector;
  r.op = op;
  r.laneMask = mask;
  r.elementBytes = bytes;
  return r;
}
uint32_t get32(const isa::MemRequest& r, int lane) {
  uint32_t v;
  std::memcpy(&v, r.element(lane, 0), 4);
  return v;
}
void put32(isa::MemRequest& r, int lane, uint32_t v) {
  std::memcpy(r.element(lane, 0), &v, 4);
}

TEST(TexturePath, CoalescedLoadIsFourLineTransactions) {
  TcBench b;
  for (int l = 0; l < 64; ++l) b.poke32(b.base + 4 * l, 0x1000 + l);
  b.init.body([&](TesterInitiator& i) {
    isa::MemRequest ld = wave(isa::MemOp::Load);
    for (int l = 0; l < 64; ++l) ld.addr[l][0] = b.base + 4 * l;
    const test::Result r = test::sendWave(i, ld);
    EXPECT_TRUE(r.ok());
    EXPECT_FALSE(ld.faulted);
    for (int l = 0; l < 64; ++l) EXPECT_EQ(get32(ld, l), 0x1000u + l) << "lane " << l;
    // Lines leave the address unit one per cycle; the fourth (3 cycles after the first) is
    // the last back: L1 miss (120 + 1 transfer) + DRAM 200.
    EXPECT_EQ(r.delay, cycles(3 + 120 + 1 + 200));
  });
  test::simulate();
  EXPECT_EQ(b.tc.lineTransactions, 4u);
  EXPECT_EQ(b.tc.laneAccesses, 64u);
  EXPECT_EQ(b.tc.instructions, 1u);
  EXPECT_EQ(b.tc.vectorL1.misses, 4u);
  EXPECT_EQ(b.dram.reads, 4u);
}

TEST(TexturePath, SecondLoadHitsInTheVectorL1) {
  TcBench b;
  b.init.body([&](TesterInitiator& i) {
    isa::MemRequest ld = wave(isa::MemOp::Load);
    for (int l = 0; l < 64; ++l) ld.addr[l][0] = b.base + 4 * l;
    test::sendWave(i, ld);
    sc_core::wait(cycles(1000));  // independent of the first load's occupancy
    EXPECT_EQ(test::sendWave(i, ld).delay, cycles(3 + 120 + 1));
  });
  test::simulate();
  EXPECT_EQ(b.tc.vectorL1.hits, 4u);
}

TEST(TexturePath, StridedGatherFillsTheRightLanes) {
  TcBench b;
  for (int l = 0; l < 64; ++l) b.poke32(b.base + 1000 * l, 0xa000 + l);
  b.init.body([&](TesterInitiator& i) {
    isa::MemRequest ld = wave(isa::MemOp::Load);
    for (int l = 0; l < 64; ++l) ld.addr[l][0] = b.base + 1000 * (63 - l);
    EXPECT_TRUE(test::sendWave(i, ld).ok());
    for (int l = 0; l < 64; ++l) EXPECT_EQ(get32(ld, l), 0xa000u + (63 - l)) << "lane " << l;
  });
  test::simulate();
  EXPECT_EQ(b.tc.lineTransactions, 64u);
}

TEST(TexturePath, LanesSharingALineShareOneTransaction) {
  TcBench b;
  b.poke32(b.base + 8, 0x88);
  b.init.body([&](TesterInitiator& i) {
    isa::MemRequest ld = wave(isa::MemOp::Load);
    for (int l = 0; l < 64; ++l) ld.addr[l][0] = b.base + (l % 2 ? 8 : 4096 + 4 * (l % 16));
    EXPECT_TRUE(test::sendWave(i, ld).ok());
    EXPECT_EQ(get32(ld, 1), 0x88u);
    EXPECT_EQ(get32(ld, 63), 0x88u);
    EXPECT_EQ(get32(ld, 0), 0u);
  });
  test::simulate();
  EXPECT_EQ(b.tc.lineTransactions, 2u);
}

TEST(TexturePath, UnalignedElementsStraddlingLines) {
  TcBench b;
  for (int k = 0; k < 64; ++k) b.poke32(b.base + 4 * k, 0x03020100u + 0x04040404u * k);
  b.init.body([&](TesterInitiator& i) {
    isa::MemRequest ld = wave(isa::MemOp::Load, 0x3, 8);
    ld.addr[0][0] = b.base + 61;   // bytes 61..68: lines 0 and 1
    ld.addr[1][0] = b.base + 126;  // bytes 126..133: lines 1 and 2
    EXPECT_TRUE(test::sendWave(i, ld).ok());
    for (int k = 0; k < 8; ++k) {
      EXPECT_EQ(ld.element(0, 0)[k], 61 + k) << "byte " << k;
      EXPECT_EQ(ld.element(1, 0)[k], 126 + k) << "byte " << k;
    }
  });
  test::simulate();
  EXPECT_EQ(b.tc.lineTransactions, 3u);
}

TEST(TexturePath, UnalignedStoreStraddlingLines) {
  TcBench b;
  b.init.body([&](TesterInitiator& i) {
    isa::MemRequest st = wave(isa::MemOp::Store, 0x1, 16);
    st.addr[0][0] = b.base + 56;
    for (int k = 0; k < 16; ++k) st.element(0, 0)[k] = static_cast<uint8_t>(0xc0 + k);
    EXPECT_TRUE(test::sendWave(i, st).ok());
  });
  test::simulate();
  uint8_t raw[20];
  b.dram.store().read(b.base + 54, raw, 20);
  EXPECT_EQ(raw[0], 0);
  EXPECT_EQ(raw[1], 0);
  for (int k = 0; k < 16; ++k) EXPECT_EQ(raw[2 + k], 0xc0 + k);
  EXPECT_EQ(raw[18], 0);
  EXPECT_EQ(b.tc.lineTransactions, 2u);
}

TEST(TexturePath, StoreWithGapsLeavesTheOtherBytesIntact) {
  TcBench b;
  for (int k = 0; k < 64; ++k) b.poke32(b.base + 4 * k, 0xaaaaaaaa);
  b.init.body([&](TesterInitiator& i) {
    isa::MemRequest st = wave(isa::MemOp::Store, 0x00000000ffffffffull);
    for (int l = 0; l < 32; ++l) st.addr[l][0] = b.base + 8 * l, put32(st, l, l);  // every other
    EXPECT_TRUE(test::sendWave(i, st).ok());
  });
  test::simulate();
  for (int k = 0; k < 64; ++k)
    EXPECT_EQ(b.peek32(b.base + 4 * k), k % 2 ? 0xaaaaaaaau : k / 2u) << "dword " << k;
  EXPECT_EQ(b.tc.lineTransactions, 4u);
}

TEST(TexturePath, ByteStoresLeaveNeighbouringBytesIntact) {
  TcBench b;
  b.poke32(b.base + 100, 0x44332211);
  b.init.body([&](TesterInitiator& i) {
    isa::MemRequest st = wave(isa::MemOp::Store, 0x2, 1);  // lane 1 stores one byte
    st.addr[1][0] = b.base + 102;
    st.element(1, 0)[0] = 0xee;
    EXPECT_TRUE(test::sendWave(i, st).ok());
  });
  test::simulate();
  EXPECT_EQ(b.peek32(b.base + 100), 0x44ee2211u);
}

TEST(TexturePath, SameAddressStoresHighestLaneWins) {
  TcBench b;
  b.init.body([&](TesterInitiator& i) {
    isa::MemRequest st = wave(isa::MemOp::Store, 0x0fffffffffffff0full);
    for (int l = 0; l < 64; ++l) st.addr[l][0] = b.base + 128, put32(st, l, 0x500 + l);
    EXPECT_TRUE(test::sendWave(i, st).ok());
  });
  test::simulate();
  EXPECT_EQ(b.peek32(b.base + 128), 0x500u + 59);
  EXPECT_EQ(b.tc.lineTransactions, 1u);
}

TEST(TexturePath, OverlappingStoresHighestLaneWinsPerByte) {
  TcBench b;
  b.init.body([&](TesterInitiator& i) {
    isa::MemRequest st = wave(isa::MemOp::Store, 0x3);
    st.addr[0][0] = b.base + 2;  // bytes 2..5
    st.addr[1][0] = b.base;      // bytes 0..3: lane 1 wins bytes 2 and 3
    put32(st, 0, 0x44332211);
    put32(st, 1, 0xddccbbaa);
    EXPECT_TRUE(test::sendWave(i, st).ok());
  });
  test::simulate();
  EXPECT_EQ(b.peek32(b.base), 0xddccbbaau);
  EXPECT_EQ(b.peek32(b.base + 4), 0x00004433u);
}

TEST(TexturePath, AtomicsPerLaneReturnOldValuesInLaneOrder) {
  TcBench b;
  b.poke32(b.base + 256, 1000);
  b.init.body([&](TesterInitiator& i) {
    isa::MemRequest at = wave(isa::MemOp::Atomic);
    at.atomic = isa::AtomicOp::Add;
    at.atomicReturnsData = true;
    for (int l = 0; l < 64; ++l) at.addr[l][0] = b.base + 256, put32(at, l, 2 * l + 1);
    EXPECT_TRUE(test::sendWave(i, at).ok());
    uint32_t expect = 1000;
    for (int l = 0; l < 64; ++l) {
      EXPECT_EQ(get32(at, l), expect) << "lane " << l;
      expect += 2 * l + 1;
    }
  });
  test::simulate();
  EXPECT_EQ(b.peek32(b.base + 256), 1000u + 64 * 64);
  EXPECT_EQ(b.tc.lineTransactions, 64u);
  EXPECT_EQ(b.dram.atomics, 64u);
}

TEST(TexturePath, AtomicsOnDistinctAddresses) {
  TcBench b;
  for (int l = 0; l < 64; ++l) b.poke32(b.base + 4 * l, 100 + l);
  b.init.body([&](TesterInitiator& i) {
    isa::MemRequest at = wave(isa::MemOp::Atomic, 0xf0f0f0f0f0f0f0f0ull);
    at.atomic = isa::AtomicOp::UMax;
    at.atomicReturnsData = true;
    for (int l = 0; l < 64; ++l) at.addr[l][0] = b.base + 4 * l, put32(at, l, 130);
    EXPECT_TRUE(test::sendWave(i, at).ok());
    EXPECT_EQ(get32(at, 4), 104u);
    EXPECT_EQ(get32(at, 63), 163u);
    EXPECT_EQ(get32(at, 0), 130u);  // inactive lane: operand untouched
  });
  test::simulate();
  EXPECT_EQ(b.peek32(b.base + 4 * 4), 130u);
  EXPECT_EQ(b.peek32(b.base + 4 * 0), 100u);
  EXPECT_EQ(b.peek32(b.base + 4 * 63), 163u);
}

TEST(TexturePath, LaneOutsideAllocationsFaults) {
  TcBench b;
  b.init.body([&](TesterInitiator& i) {
    isa::MemRequest ld = wave(isa::MemOp::Load);
    for (int l = 0; l < 64; ++l) ld.addr[l][0] = b.base + 4 * l;
    ld.addr[5][0] = b.base + 65536 + 20;  // past the allocation
    EXPECT_EQ(test::sendWave(i, ld).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_TRUE(ld.faulted);
    EXPECT_EQ(ld.faultAddress, b.base + 65536 + 20);
  });
  test::simulate();
}

TEST(TexturePath, StoreOutsideAllocationsFaults) {
  TcBench b;
  b.init.body([&](TesterInitiator& i) {
    isa::MemRequest st = wave(isa::MemOp::Store, 0x3);
    st.addr[0][0] = b.base;
    st.addr[1][0] = 0x40;  // a small integer used as a pointer
    EXPECT_EQ(test::sendWave(i, st).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_TRUE(st.faulted);
    EXPECT_EQ(st.faultAddress, 0x40u);
  });
  test::simulate();
}

TEST(TexturePath, AtomicOutsideAllocationsFaults) {
  TcBench b;
  b.init.body([&](TesterInitiator& i) {
    isa::MemRequest at = wave(isa::MemOp::Atomic, 0x3);
    at.atomic = isa::AtomicOp::Add;
    at.addr[0][0] = b.base;
    at.addr[1][0] = b.base - 256;
    EXPECT_EQ(test::sendWave(i, at).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_TRUE(at.faulted);
    EXPECT_EQ(at.faultAddress, b.base - 256);
  });
  test::simulate();
}

TEST(TexturePath, InBoundsRequestDoesNotFault) {
  TcBench b;
  b.init.body([&](TesterInitiator& i) {
    isa::MemRequest ld = wave(isa::MemOp::Load, 0x1);
    ld.addr[0][0] = b.base + 65532;  // last dword of the allocation
    EXPECT_TRUE(test::sendWave(i, ld).ok());
    EXPECT_FALSE(ld.faulted);
  });
  test::simulate();
}

TEST(TexturePath, InactiveLanesKeepTheirData) {
  TcBench b;
  b.poke32(b.base, 0x1234);
  b.init.body([&](TesterInitiator& i) {
    isa::MemRequest ld = wave(isa::MemOp::Load, 0x1);
    ld.addr[0][0] = b.base;
    ld.addr[1][0] = b.base + (1ull << 40);  // inactive, and would fault
    put32(ld, 1, 0x9999);
    EXPECT_TRUE(test::sendWave(i, ld).ok());
    EXPECT_EQ(get32(ld, 0), 0x1234u);
    EXPECT_EQ(get32(ld, 1), 0x9999u);
  });
  test::simulate();
}

TEST(TexturePath, WideElementsCoalesce) {
  TcBench b;
  b.init.body([&](TesterInitiator& i) {
    isa::MemRequest st = wave(isa::MemOp::Store, ~0ull, 16);
    for (int l = 0; l < 64; ++l) {
      st.addr[l][0] = b.base + 16 * l;
      for (int k = 0; k < 16; ++k) st.element(l, 0)[k] = static_cast<uint8_t>(l + k);
    }
    EXPECT_TRUE(test::sendWave(i, st).ok());
    isa::MemRequest ld = wave(isa::MemOp::Load, ~0ull, 16);
    ld.addr = st.addr;
    EXPECT_TRUE(test::sendWave(i, ld).ok());
    for (int l = 0; l < 64; ++l)
      EXPECT_EQ(0, std::memcmp(ld.element(l, 0), st.element(l, 0), 16)) << "lane " << l;
  });
  test::simulate();
  EXPECT_EQ(b.tc.lineTransactions, 32u);  // 16 lines each way
}

TEST(TexturePath, ConsecutiveLanesFromTheMiddleOfALine) {
  // Lanes 3..40 on consecutive dwords from 20 bytes into a line: three lines, the first and the
  // last partly, and the bytes around them untouched.
  TcBench b;
  const uint64_t mask = ((1ull << 38) - 1) << 3;
  for (int d = 0; d < 48; ++d) b.poke32(b.base + 4 * d, 0xaaaa0000u + d);
  b.init.body([&](TesterInitiator& i) {
    isa::MemRequest st = wave(isa::MemOp::Store, mask);
    for (int l = 3; l <= 40; ++l) {
      st.addr[l][0] = b.base + 20 + 4 * (l - 3);
      put32(st, l, 0x5000u + l);
    }
    EXPECT_TRUE(test::sendWave(i, st).ok());
    isa::MemRequest ld = wave(isa::MemOp::Load, mask);
    ld.addr = st.addr;
    EXPECT_TRUE(test::sendWave(i, ld).ok());
    for (int l = 3; l <= 40; ++l) EXPECT_EQ(get32(ld, l), 0x5000u + l) << "lane " << l;
  });
  test::simulate();
  EXPECT_EQ(b.tc.lineTransactions, 6u);  // 3 lines each way
  EXPECT_EQ(b.tc.laneAccesses, 76u);
  EXPECT_EQ(b.peek32(b.base + 16), 0xaaaa0004u);           // the dword before lane 3's
  EXPECT_EQ(b.peek32(b.base + 20 + 4 * 38), 0xaaaa002bu);  // the dword after lane 40's
}

TEST(TexturePath, ConsecutiveLanesRunningOffTheAllocationFaultAtTheirLine) {
  // Lanes 0..31 are the allocation's last 128 bytes, lanes 32..63 lie past it: the first two
  // lines go through, the third faults and names its first lane.
  TcBench b;
  b.init.body([&](TesterInitiator& i) {
    isa::MemRequest ld = wave(isa::MemOp::Load);
    for (int l = 0; l < 64; ++l) ld.addr[l][0] = b.base + 65536 - 128 + 4 * l;
    EXPECT_EQ(test::sendWave(i, ld).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_TRUE(ld.faulted);
    EXPECT_EQ(ld.faultAddress, b.base + 65536);
  });
  test::simulate();
  EXPECT_EQ(b.dram.reads, 2u);
  EXPECT_EQ(b.dram.addressErrors, 1u);
}

TEST(TexturePath, RequestWithoutWaveExtensionIsACommandError) {
  TcBench b;
  b.init.body([&](TesterInitiator& i) {
    uint32_t v = 0;
    EXPECT_EQ(i.read(b.base, &v, 4).status, tlm::TLM_COMMAND_ERROR_RESPONSE);
  });
  test::simulate();
}

TEST(TexturePath, DebugTransportReachesMemory) {
  TcBench b;
  b.poke32(b.base + 12, 0xbeef);
  b.init.body([&](TesterInitiator& i) {
    uint32_t v = 0;
    EXPECT_EQ(i.debug(tlm::TLM_READ_COMMAND, b.base + 12, &v, 4), 4u);
    EXPECT_EQ(v, 0xbeefu);
  });
  test::simulate();
}

}  // namespace
}  // namespace vgpu
