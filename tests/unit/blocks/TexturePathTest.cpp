// TexturePath (texture-address unit + vector L1) with a Dram behind it: coalescing into line
// transactions, gathers, unaligned elements, byte-enabled stores, atomics and faults.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "MappedDeviceMemory.h"
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
    base = test::mapDeviceMemory(dram, 65536, 4096);
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
    for (int l = 0; l < 64; ++l) ld.address(l, 0) = b.base + 4 * l;
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
    for (int l = 0; l < 64; ++l) ld.address(l, 0) = b.base + 4 * l;
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
    for (int l = 0; l < 64; ++l) ld.address(l, 0) = b.base + 1000 * (63 - l);
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
    for (int l = 0; l < 64; ++l) ld.address(l, 0) = b.base + (l % 2 ? 8 : 4096 + 4 * (l % 16));
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
    ld.address(0, 0) = b.base + 61;   // bytes 61..68: lines 0 and 1
    ld.address(1, 0) = b.base + 126;  // bytes 126..133: lines 1 and 2
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
    st.address(0, 0) = b.base + 56;
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
    for (int l = 0; l < 32; ++l) st.address(l, 0) = b.base + 8 * l, put32(st, l, l);  // every other
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
    st.address(1, 0) = b.base + 102;
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
    for (int l = 0; l < 64; ++l) st.address(l, 0) = b.base + 128, put32(st, l, 0x500 + l);
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
    st.address(0, 0) = b.base + 2;  // bytes 2..5
    st.address(1, 0) = b.base;      // bytes 0..3: lane 1 wins bytes 2 and 3
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
    for (int l = 0; l < 64; ++l) at.address(l, 0) = b.base + 256, put32(at, l, 2 * l + 1);
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
    for (int l = 0; l < 64; ++l) at.address(l, 0) = b.base + 4 * l, put32(at, l, 130);
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
    for (int l = 0; l < 64; ++l) ld.address(l, 0) = b.base + 4 * l;
    ld.address(5, 0) = b.base + 65536 + 20;  // past the allocation
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
    st.address(0, 0) = b.base;
    st.address(1, 0) = 0x40;  // a small integer used as a pointer
    EXPECT_EQ(test::sendWave(i, st).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_TRUE(st.faulted);
    EXPECT_EQ(st.faultAddress, 0x40u);
  });
  test::simulate();
}

TEST(TexturePath, GatherWithAnAddressNearTheTopOfTheAddressSpace) {
  // Lanes out of line order are grouped by line, lowest first; an address whose line number
  // leaves no room for a sort key still sorts last, after the lanes in the allocation went out.
  TcBench b;
  for (int l = 0; l < 64; ++l) b.poke32(b.base + 256 * l, 0x500 + l);
  b.init.body([&](TesterInitiator& i) {
    isa::MemRequest ld = wave(isa::MemOp::Load);
    for (int l = 0; l < 64; ++l) ld.address(l, 0) = b.base + 256 * (63 - l);  // descending lines
    ld.address(7, 0) = ~uint64_t{0} - 255;
    EXPECT_EQ(test::sendWave(i, ld).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_TRUE(ld.faulted);
    EXPECT_EQ(ld.faultAddress, ~uint64_t{0} - 255);
    for (int l = 0; l < 64; ++l) {
      if (l == 7) continue;
      EXPECT_EQ(get32(ld, l), 0x500u + (63 - l)) << "lane " << l;
    }
  });
  test::simulate();
}

TEST(TexturePath, AtomicOutsideAllocationsFaults) {
  TcBench b;
  b.init.body([&](TesterInitiator& i) {
    isa::MemRequest at = wave(isa::MemOp::Atomic, 0x3);
    at.atomic = isa::AtomicOp::Add;
    at.address(0, 0) = b.base;
    at.address(1, 0) = b.base - 256;
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
    ld.address(0, 0) = b.base + 65532;  // last dword of the allocation
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
    ld.address(0, 0) = b.base;
    ld.address(1, 0) = b.base + (1ull << 40);  // inactive, and would fault
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
      st.address(l, 0) = b.base + 16 * l;
      for (int k = 0; k < 16; ++k) st.element(l, 0)[k] = static_cast<uint8_t>(l + k);
    }
    EXPECT_TRUE(test::sendWave(i, st).ok());
    isa::MemRequest ld = wave(isa::MemOp::Load, ~0ull, 16);
    for (int l = 0; l < 64; ++l) ld.address(l, 0) = st.address(l, 0);
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
      st.address(l, 0) = b.base + 20 + 4 * (l - 3);
      put32(st, l, 0x5000u + l);
    }
    EXPECT_TRUE(test::sendWave(i, st).ok());
    isa::MemRequest ld = wave(isa::MemOp::Load, mask);
    for (int l = 0; l < 64; ++l) ld.address(l, 0) = st.address(l, 0);
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
    for (int l = 0; l < 64; ++l) ld.address(l, 0) = b.base + 65536 - 128 + 4 * l;
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

// Passes everything between the vector L1 and DRAM on, but denies DMI for every address: the
// texture path above it must send every line's data through the hierarchy.
struct DmiDenyingBridge : sc_core::sc_module {
  tlm_utils::simple_target_socket<DmiDenyingBridge> in{"in"};
  tlm_utils::simple_initiator_socket<DmiDenyingBridge> out{"out"};
  explicit DmiDenyingBridge(sc_core::sc_module_name name) : sc_module(name) {
    in.register_b_transport(this, &DmiDenyingBridge::b_transport);
    in.register_transport_dbg(this, &DmiDenyingBridge::transport_dbg);
    in.register_get_direct_mem_ptr(this, &DmiDenyingBridge::get_direct_mem_ptr);
  }
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& d) { out->b_transport(p, d); }
  unsigned transport_dbg(tlm::tlm_generic_payload& p) { return out->transport_dbg(p); }
  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) { return false; }
};

TEST(TexturePath, DataThroughDmiMatchesDataThroughTheHierarchy) {
  // The texture path moves line data through DMI when memory grants it and sends the line
  // transactions for timing only. Random loads, stores and atomics (contiguous, scattered with
  // repeats, unaligned and straddling lines, partly outside the allocations, in the gap between
  // two allocations) on two benches side by side, one of them behind a bridge that denies
  // DMI, must give the same data, faults, delays, statistics and memory.
  DramConfig dramConfig = test::fixedLatencyDram(64ull << 20, 200);
  dramConfig.tRCDns = 3, dramConfig.tCLns = 5, dramConfig.tRPns = 4, dramConfig.tRASns = 9;
  dramConfig.tCCDns = 1, dramConfig.peakBandwidthGBs = 256;
  struct Bench {
    TexturePath tc;
    Dram dram;
    TesterInitiator init;
    std::unique_ptr<DmiDenyingBridge> bridge;
    uint64_t base = 0, second = 0;
    std::vector<isa::MemRequest> done;  // every request as it came back
    std::vector<test::Result> results;
    Bench(const char* name, const DramConfig& config, bool denyDmi)
        : tc((std::string(name) + "_tc").c_str(), CacheConfig{2048, 64, 4, 20, 64}, cycles(1)),
          dram((std::string(name) + "_dram").c_str(), config, cycles(1)),
          init((std::string(name) + "_init").c_str()) {
      init.socket.bind(tc.socket);
      if (denyDmi) {
        bridge = std::make_unique<DmiDenyingBridge>((std::string(name) + "_bridge").c_str());
        tc.vectorL1.memory.bind(bridge->in);
        bridge->out.bind(dram.socket);
      } else {
        tc.vectorL1.memory.bind(dram.socket);
      }
      base = test::mapDeviceMemory(dram, 16384, 4096);
      const uint64_t gap = test::mapDeviceMemory(dram, 4096, 4096);
      second = test::mapDeviceMemory(dram, 4096, 4096);
      test::unmapDeviceMemory(dram, gap);
    }
  };
  Bench direct("direct", dramConfig, false), through("through", dramConfig, true);
  ASSERT_EQ(direct.base, through.base);
  ASSERT_EQ(direct.second, through.second);

  std::mt19937_64 random(11);
  std::vector<isa::MemRequest> requests;
  const uint64_t base = direct.base;
  for (int n = 0; n < 400; ++n) {
    const uint64_t kind = random() % 10;
    isa::MemRequest r;
    r.space = isa::MemSpace::Vector;
    r.op = kind < 4 ? isa::MemOp::Load : kind < 9 ? isa::MemOp::Store : isa::MemOp::Atomic;
    const uint8_t sizes[] = {1, 2, 4, 4, 4, 8, 16};
    r.elementBytes = r.op == isa::MemOp::Atomic ? 4 : sizes[random() % 7];
    r.laneMask = random() % 3 == 0 ? random() : ~uint64_t{0};
    if (r.laneMask == 0) r.laneMask = 1;
    const bool contiguous = random() % 2 == 0;
    uint64_t start = base + (random() % 16384) / r.elementBytes * r.elementBytes;
    if (random() % 8 == 0) start = direct.second + random() % 4096;  // the second allocation
    for (int l = 0; l < 64; ++l) {
      uint64_t a = base + random() % 16384;
      if (random() % 4 != 0) a &= ~uint64_t{r.elementBytes - 1u};  // mostly aligned
      if (random() % 4 == 0) a = start + random() % 256;           // repeats and overlaps
      if (contiguous) a = start + uint64_t(l) * r.elementBytes;
      if (r.op == isa::MemOp::Atomic) a &= ~uint64_t{3};
      r.address(l, 0) = a;
    }
    if (random() % 25 == 0) r.address(random() % 64, 0) = base + 16384 + random() % 4096;  // gap
    if (random() % 40 == 0) r.address(random() % 64, 0) = base - 1 - random() % 64;        // before
    if (r.op == isa::MemOp::Atomic) {
      r.atomic = random() % 2 ? isa::AtomicOp::Add : isa::AtomicOp::Swap;
      r.atomicReturnsData = random() % 2;
    }
    for (auto& byte : r.data) byte = static_cast<uint8_t>(random());
    requests.push_back(r);
  }
  for (Bench* b : {&direct, &through}) {
    b->done = requests;
    b->init.body([b](TesterInitiator& i) {
      // Every third request leaves with the one before it, so that they queue.
      for (size_t n = 0; n < b->done.size(); ++n)
        b->results.push_back(test::sendWave(i, b->done[n], 0, 0, n % 3 != 0));
    });
  }
  test::simulate();
  ASSERT_EQ(direct.results.size(), requests.size());
  ASSERT_EQ(through.results.size(), requests.size());
  int faults = 0;
  for (size_t n = 0; n < requests.size(); ++n) {
    const isa::MemRequest &d = direct.done[n], &t = through.done[n];
    EXPECT_EQ(direct.results[n].status, through.results[n].status) << "request " << n;
    EXPECT_EQ(direct.results[n].delay, through.results[n].delay) << "request " << n;
    EXPECT_EQ(d.faulted, t.faulted) << "request " << n;
    EXPECT_EQ(d.faultAddress, t.faultAddress) << "request " << n;
    EXPECT_TRUE(d.data == t.data) << "request " << n;
    faults += d.faulted;
  }
  EXPECT_GT(faults, 5) << faults;  // some requests did fault
  std::vector<uint8_t> a(16384 + 8192), b(16384 + 8192);
  direct.dram.store().read(base, a.data(), a.size());
  through.dram.store().read(base, b.data(), b.size());
  EXPECT_TRUE(a == b);
  EXPECT_EQ(direct.tc.lineTransactions, through.tc.lineTransactions);
  EXPECT_EQ(direct.tc.vectorL1.hits, through.tc.vectorL1.hits);
  EXPECT_EQ(direct.tc.vectorL1.misses, through.tc.vectorL1.misses);
  EXPECT_EQ(direct.dram.reads, through.dram.reads);
  EXPECT_EQ(direct.dram.writes, through.dram.writes);
  EXPECT_EQ(direct.dram.bytesRead, through.dram.bytesRead);
  EXPECT_EQ(direct.dram.bytesWritten, through.dram.bytesWritten);
  EXPECT_EQ(direct.dram.atomics, through.dram.atomics);
  EXPECT_EQ(direct.dram.rowHits, through.dram.rowHits);
  EXPECT_EQ(direct.dram.rowConflicts, through.dram.rowConflicts);
}

// Image instructions (docs/images.md): the address unit takes a cycle per quad with an active
// lane, and a line goes out once its lanes' quads are through; a sample's texel list travels as
// line pieces into texelData and the filter unit then takes a cycle per four footprints.
TEST(TexturePath, ImageSampleTexelsTravelAsLinesAndAreFiltered) {
  TcBench b;
  for (int k = 0; k < 16; ++k) b.poke32(b.base + 4 * k, 0x500 + k);
  b.init.body([&](TesterInitiator& i) {
    isa::MemRequest rq = wave(isa::MemOp::Load, 0xf);  // one quad
    rq.image = true;
    for (int k = 0; k < 16; ++k) {  // four bilinear footprints of four texels, one line
      isa::MemRequest::Texel t;
      t.address = b.base + 4 * static_cast<uint64_t>(k);
      t.lane = static_cast<uint8_t>(k / 4);
      t.weight = 0.25f;
      rq.texels.push_back(t);
    }
    isa::MemRequest::Texel border;  // a border texel reads nothing
    border.fetch = false;
    rq.texels.push_back(border);
    rq.texelData.assign(rq.texels.size() * isa::MemRequest::kMaxElementBytes, 0);
    const test::Result r = test::sendWave(i, rq);
    EXPECT_TRUE(r.ok());
    for (int k = 0; k < 16; ++k) {
      uint32_t v;
      std::memcpy(&v, rq.texelElement(static_cast<size_t>(k)), 4);
      EXPECT_EQ(v, 0x500u + k) << "texel " << k;
    }
    // One quad of address processing, the line (L1 miss 120 + 1 transfer, DRAM 200), then the
    // filter: 17 texels are 5 footprints of four, two cycles at four a cycle.
    EXPECT_EQ(r.delay, cycles(1 + 120 + 1 + 200 + 2));
  });
  test::simulate();
  EXPECT_EQ(b.tc.lineTransactions, 1u);
  EXPECT_EQ(b.tc.imageInstructions, 1u);
  EXPECT_EQ(b.tc.imageAddressCycles, 1u);
  EXPECT_EQ(b.tc.filterCycles, 2u);
}

TEST(TexturePath, ImageLoadAddressesAQuadPerCycle) {
  TcBench b;
  b.init.body([&](TesterInitiator& i) {
    isa::MemRequest ld = wave(isa::MemOp::Load);
    ld.image = true;
    for (int l = 0; l < 64; ++l) ld.address(l, 0) = b.base + 4 * l;
    const test::Result r = test::sendWave(i, ld);
    EXPECT_TRUE(r.ok());
    // 16 quads, a cycle each; a line goes out once the quads of its 16 lanes are through
    // (cycles 4, 8, 12, 16), so the last leaves at 16.
    EXPECT_EQ(r.delay, cycles(16 + 120 + 1 + 200));
  });
  test::simulate();
  EXPECT_EQ(b.tc.lineTransactions, 4u);
  EXPECT_EQ(b.tc.imageAddressCycles, 16u);
  EXPECT_EQ(b.tc.filterCycles, 0u);
}

// Address processing is a stage ahead of the line requests: the second instruction's quads are
// processed while the first one's lines go out, so back to back each wave64 takes 16 cycles
// (one quad per cycle), not 16 + its lines.
TEST(TexturePath, ImageAddressProcessingOverlapsTheLines) {
  TcBench b;
  b.init.body([&](TesterInitiator& i) {
    isa::MemRequest first = wave(isa::MemOp::Load), second = wave(isa::MemOp::Load);
    first.image = second.image = true;
    for (int l = 0; l < 64; ++l) {
      first.address(l, 0) = b.base + 4 * l;
      second.address(l, 0) = b.base + 256 + 4 * l;  // four other lines: misses too
    }
    const test::Result a = test::sendWave(i, first, 0, 0, false);  // both arrive at time 0
    const test::Result r = test::sendWave(i, second);
    EXPECT_TRUE(a.ok() && r.ok());
    EXPECT_EQ(a.delay, cycles(16 + 120 + 1 + 200));
    // Quads 16..31 (cycles 16-32), lines at 20, 24, 28 and 32.
    EXPECT_EQ(r.delay, cycles(32 + 120 + 1 + 200));
  });
  test::simulate();
  EXPECT_EQ(b.tc.lineTransactions, 8u);
  EXPECT_EQ(b.tc.imageAddressCycles, 32u);
}

}  // namespace
}  // namespace vgpu
