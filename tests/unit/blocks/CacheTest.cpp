// Cache (tester initiator -> Cache -> Dram): hits and misses, LRU, write policies, coherence,
// the ServedAbove and DataMoved roles, debug transport and DMI forwarding.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "MappedDeviceMemory.h"
#include "TlmTester.h"
#include "common/Cache.h"
#include "dram/Dram.h"

namespace vgpu {
namespace {

using test::cycles;
using test::TesterInitiator;

constexpr uint32_t kDramLatency = 200, kHit = 4;
// 256 bytes, 64-byte lines, 2 ways: 2 sets. Lines 0, 2, 4 (offsets 0, 128, 256) share set 0.
const CacheConfig kSmall{256, 64, 2, kHit, 64};

struct CacheBench {
  Dram dram;
  Cache cache;
  TesterInitiator init{"init"};
  uint64_t base = 0;  // 4 KiB allocation, 4 KiB aligned
  explicit CacheBench(Cache::WritePolicy policy)
      : dram("dram", test::fixedLatencyDram(16ull << 20, kDramLatency), cycles(1)),
        cache("cache", kSmall, cycles(1), policy) {
    init.socket.bind(cache.socket);
    cache.memory.bind(dram.socket);
    base = test::mapDeviceMemory(dram, 4096, 4096);
  }
};

const auto kWT = Cache::WritePolicy::WriteThroughNoAllocate;
const auto kWB = Cache::WritePolicy::WriteBackAllocate;

TEST(Cache, FirstReadMissesSecondHitsFaster) {
  CacheBench b(kWT);
  b.init.body([&](TesterInitiator& i) {
    uint32_t v = 0;
    const test::Result miss = i.read(b.base, &v, 4);
    EXPECT_TRUE(miss.ok());
    EXPECT_EQ(miss.delay, cycles(kHit + 1 + kDramLatency));  // tag check + transfer + DRAM
    const test::Result hit = i.read(b.base + 8, &v, 4);
    EXPECT_TRUE(hit.ok());
    EXPECT_EQ(hit.delay, cycles(kHit + 1));
    EXPECT_LT(hit.delay, miss.delay);
  });
  test::simulate();
  EXPECT_EQ(b.cache.misses, 1u);
  EXPECT_EQ(b.cache.hits, 1u);
  EXPECT_EQ(b.cache.reads, 2u);
}

TEST(Cache, ReadDataComesFromMemoryOnHitAndMiss) {
  CacheBench b(kWT);
  b.init.body([&](TesterInitiator& i) {
    uint32_t v = 0x11223344;
    i.debug(tlm::TLM_WRITE_COMMAND, b.base + 4, &v, 4);
    EXPECT_EQ(i.read32(b.base + 4), 0x11223344u);  // miss
    EXPECT_EQ(i.read32(b.base + 4), 0x11223344u);  // hit
  });
  test::simulate();
  EXPECT_EQ(b.cache.hits, 1u);
}

TEST(Cache, TransferTimeGrowsWithLength) {
  CacheBench b(kWT);
  b.init.body([&](TesterInitiator& i) {
    uint8_t buf[128];
    EXPECT_EQ(i.read(b.base, buf, 128).delay, cycles(kHit + 2 + kDramLatency));
    EXPECT_EQ(i.read(b.base, buf, 128).delay, cycles(kHit + 2));  // both lines now present
  });
  test::simulate();
  EXPECT_EQ(b.cache.misses, 1u);
  EXPECT_EQ(b.cache.hits, 1u);
}

TEST(Cache, AccessStraddlingAPresentAndAnAbsentLineMisses) {
  CacheBench b(kWT);
  b.init.body([&](TesterInitiator& i) {
    uint8_t buf[8];
    i.read(b.base, buf, 4);  // line 0 present
    EXPECT_EQ(i.read(b.base + 60, buf, 8).delay, cycles(kHit + 1 + kDramLatency));
  });
  test::simulate();
  EXPECT_EQ(b.cache.misses, 2u);
}

TEST(Cache, LeastRecentlyUsedLineIsEvicted) {
  CacheBench b(kWT);
  b.init.body([&](TesterInitiator& i) {
    const uint64_t A = b.base, B = b.base + 128, C = b.base + 256;  // one set
    auto hit = [&](uint64_t a) { return i.read(a, &a, 4).delay == cycles(kHit + 1); };
    EXPECT_FALSE(hit(A));
    EXPECT_FALSE(hit(B));
    EXPECT_TRUE(hit(A));   // B least recently used
    EXPECT_FALSE(hit(C));  // evicts B
    EXPECT_TRUE(hit(A));
    EXPECT_TRUE(hit(C));
    EXPECT_FALSE(hit(B));
  });
  test::simulate();
  EXPECT_EQ(b.cache.hits, 3u);
  EXPECT_EQ(b.cache.misses, 4u);
}

TEST(Cache, WriteThroughDoesNotAllocate) {
  CacheBench b(kWT);
  b.init.body([&](TesterInitiator& i) {
    i.write32(b.base, 0);
    uint32_t v = 7;
    const test::Result store = i.write(b.base + 64, &v, 4);
    EXPECT_TRUE(store.ok());
    EXPECT_EQ(store.delay, cycles(1 + kDramLatency));  // goes straight on to memory
    EXPECT_EQ(i.read(b.base + 64, &v, 4).delay, cycles(kHit + 1 + kDramLatency));  // miss
    EXPECT_EQ(v, 7u);
  });
  test::simulate();
  EXPECT_EQ(b.dram.writes, 2u);
  EXPECT_EQ(b.cache.writes, 2u);
}

TEST(Cache, WriteThroughStoreToAPresentLineStillReachesMemory) {
  CacheBench b(kWT);
  b.init.body([&](TesterInitiator& i) {
    EXPECT_EQ(i.read32(b.base), 0u);
    uint32_t v = 99;
    EXPECT_EQ(i.write(b.base, &v, 4).delay, cycles(1 + kDramLatency));
    EXPECT_EQ(i.read(b.base, &v, 4).delay, cycles(kHit + 1));  // line still present
    EXPECT_EQ(v, 99u);
  });
  test::simulate();
  uint32_t inDram = 0;
  b.dram.store().read(b.base, reinterpret_cast<uint8_t*>(&inDram), 4);
  EXPECT_EQ(inDram, 99u);
}

TEST(Cache, WriteBackAllocatesAndAbsorbsTheStore) {
  CacheBench b(kWB);
  b.init.body([&](TesterInitiator& i) {
    uint32_t v = 0xabc;
    const test::Result store = i.write(b.base + 64, &v, 4);
    EXPECT_TRUE(store.ok());
    EXPECT_EQ(store.delay, cycles(kHit + 1));  // no DRAM time
    v = 0;
    EXPECT_EQ(i.read(b.base + 64, &v, 4).delay, cycles(kHit + 1));  // allocated: hit
    EXPECT_EQ(v, 0xabcu);
  });
  test::simulate();
  EXPECT_EQ(b.cache.misses, 1u);
  EXPECT_EQ(b.cache.hits, 1u);
  uint32_t inDram = 0;  // the only copy of the data is in DRAM
  b.dram.store().read(b.base + 64, reinterpret_cast<uint8_t*>(&inDram), 4);
  EXPECT_EQ(inDram, 0xabcu);
}

TEST(Cache, DataStaysCoherentWithWritesThroughAnotherPath) {
  CacheBench b(kWB);
  TesterInitiator direct("direct");
  direct.socket.bind(b.dram.socket);
  b.init.body([&](TesterInitiator& i) {
    EXPECT_EQ(i.read32(b.base), 0u);  // now cached
    direct.write32(b.base, 0x5555);
    uint32_t v = 0;
    EXPECT_EQ(i.read(b.base, &v, 4).delay, cycles(kHit + 1));  // a hit ...
    EXPECT_EQ(v, 0x5555u);                                     // ... with the new data
    i.write32(b.base + 4, 0x6666);                             // absorbed by the write-back cache
    EXPECT_EQ(direct.read32(b.base + 4), 0x6666u);
  });
  test::simulate();
}

TEST(Cache, AtomicExecutesBelowAndInvalidatesAWriteThroughLine) {
  CacheBench b(kWT);
  b.init.body([&](TesterInitiator& i) {
    i.write32(b.base, 10);
    EXPECT_EQ(i.read32(b.base), 10u);  // line present
    uint32_t operand = 5;
    const test::Result r = i.atomic(b.base, isa::AtomicOp::Add, &operand, 4);
    EXPECT_TRUE(r.ok());
    EXPECT_EQ(operand, 10u);
    EXPECT_EQ(r.delay, cycles(kHit + kDramLatency));
    uint32_t v = 0;
    EXPECT_EQ(i.read(b.base, &v, 4).delay, cycles(kHit + 1 + kDramLatency));  // dropped
    EXPECT_EQ(v, 15u);
  });
  test::simulate();
  EXPECT_EQ(b.cache.atomics, 1u);
  EXPECT_EQ(b.dram.atomics, 1u);
}

TEST(Cache, ErrorResponseFromMemoryIsPassedBack) {
  CacheBench b(kWT);
  b.init.body([&](TesterInitiator& i) {
    uint32_t v = 0;
    EXPECT_EQ(i.read(b.base + 4096, &v, 4).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(i.read(b.base + 4096, &v, 4).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(i.write(b.base + 4096, &v, 4).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  });
  test::simulate();
}

TEST(Cache, ServedAboveTransactionIsForwardedForDataOnly) {
  CacheBench b(kWB);
  b.init.body([&](TesterInitiator& i) {
    i.debug(tlm::TLM_WRITE_COMMAND, b.base, &b.base, 8);
    uint64_t v = 0;
    tlm::tlm_generic_payload p;
    TesterInitiator::fill(p, tlm::TLM_READ_COMMAND, b.base, reinterpret_cast<uint8_t*>(&v), 8,
                          nullptr, 0);
    MemoryRoleExtension served(MemoryRoleExtension::Role::ServedAbove);
    p.set_extension(&served);
    const test::Result r = i.transport(p);
    p.clear_extension(&served);
    EXPECT_TRUE(r.ok());
    EXPECT_EQ(r.delay, sc_core::SC_ZERO_TIME);
    EXPECT_EQ(v, b.base);
  });
  test::simulate();
  EXPECT_EQ(b.cache.reads + b.cache.hits + b.cache.misses, 0u);
}

// Two levels as in the GPU: write-through L1 -> write-back L2 -> DRAM.
struct TwoLevelBench {
  Dram dram;
  Cache l2;
  Cache l1;
  TesterInitiator init{"init"};
  uint64_t base = 0;
  TwoLevelBench()
      : dram("dram", test::fixedLatencyDram(16ull << 20, kDramLatency), cycles(1)),
        l2("l2", CacheConfig{4096, 64, 4, 100, 64}, cycles(1), kWB),
        l1("l1", kSmall, cycles(1), kWT) {
    init.socket.bind(l1.socket);
    l1.memory.bind(l2.socket);
    l2.memory.bind(dram.socket);
    base = test::mapDeviceMemory(dram, 4096, 4096);
  }
};

TEST(Cache, LowerLevelDoesNotCountOrTimeHitsAbove) {
  TwoLevelBench b;
  b.init.body([&](TesterInitiator& i) {
    uint32_t v = 0;
    EXPECT_EQ(i.read(b.base, &v, 4).delay, cycles(kHit + 1 + 100 + 1 + kDramLatency));
    sc_core::wait(cycles(1000));
    EXPECT_EQ(i.read(b.base, &v, 4).delay, cycles(kHit + 1));  // L1 hit only
  });
  test::simulate();
  EXPECT_EQ(b.l1.hits, 1u);
  EXPECT_EQ(b.l2.reads, 1u);
  EXPECT_EQ(b.l2.misses, 1u);
  EXPECT_EQ(b.l2.hits, 0u);
}

TEST(Cache, DramDoesNotCountAccessesServedByACache) {
  // Cache.h: hits travel down with the ServedAbove role and "the lower levels pass the data
  // but neither count nor time them"; DRAM's statistics must show only real DRAM traffic.
  TwoLevelBench b;
  b.init.body([&](TesterInitiator& i) {
    EXPECT_EQ(i.read32(b.base), 0u);  // L1 and L2 miss: one DRAM read
    EXPECT_EQ(i.read32(b.base), 0u);  // L1 hit
    i.write32(b.base + 64, 1);        // L1 write-through, L2 write-back absorbs it
  });
  test::simulate();
  EXPECT_EQ(b.dram.reads, 1u);
  EXPECT_EQ(b.dram.writes, 0u);
}

TEST(Cache, DataMovedByTheInitiatorIsTimedAndCountedButNotMoved) {
  // The same accesses from a plain initiator and from one that moves the data itself (miss,
  // hit, write-through absorbed by L2, second miss), on two hierarchies side by side: equal
  // delays and statistics, while the hierarchy moves none of the second one's data.
  struct Run {
    TwoLevelBench bench;
    std::vector<sc_core::sc_time> delays;
    uint32_t buffer = 0, memoryWord = 0;
  };
  Run plain, moved;
  const uint32_t stale = 0x11111111;
  for (Run* run : {&plain, &moved}) {
    run->bench.init.body([run, stale, &moved](TesterInitiator& i) {
      MemoryRoleExtension role(MemoryRoleExtension::Role::DataMoved);
      auto send = [&](tlm::tlm_command cmd, uint64_t addr) {
        run->buffer = stale;
        tlm::tlm_generic_payload p;
        TesterInitiator::fill(p, cmd, addr, reinterpret_cast<uint8_t*>(&run->buffer), 4, nullptr,
                              0);
        if (run == &moved) p.set_extension(&role);
        const test::Result r = i.transport(p);
        if (run == &moved) p.clear_extension(&role);
        EXPECT_TRUE(r.ok());
        run->delays.push_back(r.delay);
        sc_core::wait(cycles(1000));
      };
      const uint64_t base = run->bench.base;
      const uint32_t pattern = 0x5a5a5a5a;
      i.debug(tlm::TLM_WRITE_COMMAND, base, const_cast<uint32_t*>(&pattern), 4);
      send(tlm::TLM_READ_COMMAND, base);  // L1 and L2 miss
      EXPECT_EQ(run->buffer, run == &moved ? stale : pattern);
      send(tlm::TLM_READ_COMMAND, base);        // L1 hit
      send(tlm::TLM_WRITE_COMMAND, base + 64);  // write-through, absorbed by L2
      send(tlm::TLM_READ_COMMAND, base + 128);  // a second miss
      i.debug(tlm::TLM_READ_COMMAND, base + 64, &run->memoryWord, 4);
    });
  }
  test::simulate();
  EXPECT_EQ(moved.delays, plain.delays);
  const TwoLevelBench &p = plain.bench, &m = moved.bench;
  EXPECT_EQ(m.l1.hits, p.l1.hits);
  EXPECT_EQ(m.l1.misses, p.l1.misses);
  EXPECT_EQ(m.l2.hits, p.l2.hits);
  EXPECT_EQ(m.l2.misses, p.l2.misses);
  EXPECT_EQ(m.l2.writes, p.l2.writes);
  EXPECT_EQ(m.l2.bytesDownstream, p.l2.bytesDownstream);
  EXPECT_EQ(m.dram.reads, p.dram.reads);
  EXPECT_EQ(m.dram.bytesRead, p.dram.bytesRead);
  EXPECT_EQ(m.dram.writes, p.dram.writes);
  EXPECT_EQ(plain.memoryWord, stale);  // the plain store reached memory
  EXPECT_EQ(moved.memoryWord, 0u);     // the hierarchy moved none of the other's data
}

TEST(Cache, HitsMoveTheirDataThroughDmiUntilTheMemoryIsReleased) {
  // A hit's data goes straight to and from DRAM's bytes through DMI (the transaction would
  // carry it there untimed anyway). Once the allocation is released DMI is revoked: a hit on
  // the line still in the tags is refused by DRAM as before, and a new allocation at the same
  // place is served again.
  CacheBench b(kWB);
  b.init.body([&](TesterInitiator& i) {
    i.write32(b.base + 8, 0x1234);  // a miss: the line comes in
    EXPECT_EQ(i.read32(b.base + 8), 0x1234u);
    i.write32(b.base + 12, 0x5678);  // a hit, absorbed
    uint32_t v = 0;
    i.debug(tlm::TLM_READ_COMMAND, b.base + 12, &v, 4);
    EXPECT_EQ(v, 0x5678u);  // in memory
    EXPECT_TRUE(test::unmapDeviceMemory(b.dram, b.base));
    EXPECT_EQ(i.read(b.base + 8, &v, 4).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    const uint64_t again = test::mapDeviceMemory(b.dram, 4096, 4096);
    ASSERT_EQ(again, b.base);
    i.write32(b.base + 16, 0x9abc);
    EXPECT_EQ(i.read32(b.base + 16), 0x9abcu);
    i.debug(tlm::TLM_READ_COMMAND, b.base + 16, &v, 4);
    EXPECT_EQ(v, 0x9abcu);
  });
  test::simulate();
  EXPECT_GE(b.cache.hits, 3u);
}

// Between a cache and DRAM: counts the transactions that pass and forwards everything.
struct CountingLink : sc_core::sc_module {
  tlm_utils::simple_target_socket<CountingLink> up{"up"};
  tlm_utils::simple_initiator_socket<CountingLink> down{"down"};
  unsigned reads = 0, writes = 0;
  explicit CountingLink(sc_core::sc_module_name name) : sc_module(name) {
    up.register_b_transport(this, &CountingLink::b_transport);
    up.register_get_direct_mem_ptr(this, &CountingLink::get_direct_mem_ptr);
    up.register_transport_dbg(this, &CountingLink::transport_dbg);
    down.register_invalidate_direct_mem_ptr(this, &CountingLink::invalidate);
  }
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
    ++(p.is_read() ? reads : writes);
    down->b_transport(p, delay);
  }
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& p, tlm::tlm_dmi& dmi) {
    return down->get_direct_mem_ptr(p, dmi);
  }
  unsigned transport_dbg(tlm::tlm_generic_payload& p) { return down->transport_dbg(p); }
  void invalidate(sc_dt::uint64 start, sc_dt::uint64 end) {
    up->invalidate_direct_mem_ptr(start, end);
  }
};

TEST(Cache, HitsOnAWatchedPageReadThroughReadOnlyDmiAndItsWritesStillReachTheWatcher) {
  // A page of decoded code is watched: DRAM must see every write to it, so it grants DMI there
  // for reads only. A read hit then takes its bytes through that DMI instead of a transaction
  // down (every instruction-cache hit used to), while a store the write-back cache absorbs still
  // goes down as a transaction, and DRAM reports it.
  test::RecordedPageWrites listener;
  Dram dram("dram", test::fixedLatencyDram(16ull << 20, kDramLatency), cycles(1));
  Cache cache("cache", kSmall, cycles(1), kWB);
  CountingLink link("link");
  TesterInitiator init("init");
  init.socket.bind(cache.socket);
  cache.memory.bind(link.up);
  link.down.bind(dram.socket);
  const uint64_t base = test::mapDeviceMemory(dram, 4096, 4096);
  const uint64_t page = base >> kWatchedPageShift;
  init.body([&](TesterInitiator& i) {
    uint64_t marker = base;
    i.debug(tlm::TLM_WRITE_COMMAND, base + 8, &marker, 8);
    dram.watchPage(page, listener);
    uint64_t v = 0;
    EXPECT_TRUE(i.read(base + 8, &v, 8).ok());  // a miss: the line comes from DRAM
    EXPECT_EQ(v, base);
    EXPECT_EQ(link.reads, 1u);
    for (int k = 0; k < 3; ++k) {  // hits: no transaction below
      v = 0;
      EXPECT_TRUE(i.read(base + 8, &v, 8).ok());
      EXPECT_EQ(v, base);
    }
    EXPECT_EQ(link.reads, 1u);
    EXPECT_EQ(cache.hits, 3u);
    i.write32(base + 16, 0x5eed);  // a hit the write-back cache absorbs
    EXPECT_EQ(link.writes, 1u);
    ASSERT_EQ(listener.pages.size(), 1u);
    EXPECT_EQ(listener.pages[0], page);
    EXPECT_EQ(i.read32(base + 16), 0x5eedu);  // a hit: the new bytes
  });
  test::simulate();
}

TEST(Cache, BackToBackReadsQueueOnThePort) {
  // The port moves 64 bytes per cycle: a second hit sent at the same time waits one cycle.
  CacheBench b(kWT);
  b.init.body([&](TesterInitiator& i) {
    uint32_t v = 0;
    i.read(b.base, &v, 4);  // bring the line in
    tlm::tlm_generic_payload p1, p2;
    TesterInitiator::fill(p1, tlm::TLM_READ_COMMAND, b.base, reinterpret_cast<uint8_t*>(&v), 4,
                          nullptr, 0);
    TesterInitiator::fill(p2, tlm::TLM_READ_COMMAND, b.base, reinterpret_cast<uint8_t*>(&v), 4,
                          nullptr, 0);
    EXPECT_EQ(i.transport(p1, sc_core::SC_ZERO_TIME, false).delay, cycles(kHit + 1));
    EXPECT_EQ(i.transport(p2, sc_core::SC_ZERO_TIME, false).delay, cycles(1 + kHit + 1));
  });
  test::simulate();
}

TEST(Cache, L2HitAfterL1EvictionTakesL2Time) {
  TwoLevelBench b;
  b.init.body([&](TesterInitiator& i) {
    uint32_t v;
    for (uint64_t off : {0, 128, 256}) i.read(b.base + off, &v, 4);  // line 0 leaves L1
    sc_core::wait(cycles(1000));  // past the earlier reads' port and MSHR occupancy
    EXPECT_EQ(i.read(b.base, &v, 4).delay, cycles(kHit + 1 + 100 + 1));
  });
  test::simulate();
  EXPECT_EQ(b.l2.hits, 1u);
}

TEST(Cache, DebugTransportIsForwardedWithoutTouchingTags) {
  CacheBench b(kWT);
  b.init.body([&](TesterInitiator& i) {
    uint32_t v = 0x4242;
    EXPECT_EQ(i.debug(tlm::TLM_WRITE_COMMAND, b.base, &v, 4), 4u);
    uint32_t back = 0;
    EXPECT_EQ(i.debug(tlm::TLM_READ_COMMAND, b.base, &back, 4), 4u);
    EXPECT_EQ(back, 0x4242u);
    EXPECT_EQ(i.read(b.base, &back, 4).delay, cycles(kHit + 1 + kDramLatency));  // still a miss
  });
  test::simulate();
  EXPECT_EQ(b.cache.reads, 1u);
  EXPECT_EQ(b.cache.writes, 0u);
}

TEST(Cache, DmiIsForwardedToMemory) {
  CacheBench b(kWT);
  b.init.body([&](TesterInitiator& i) {
    tlm::tlm_dmi dmi;
    ASSERT_TRUE(i.dmi(b.base + 16, dmi));
    EXPECT_EQ(dmi.get_start_address(), b.base);
    EXPECT_EQ(dmi.get_end_address(), b.base + 4095);
    const uint32_t v = 0x13579bdf;
    std::memcpy(dmi.get_dmi_ptr() + 16, &v, 4);
    EXPECT_EQ(i.read32(b.base + 16), 0x13579bdfu);
    EXPECT_FALSE(i.dmi(b.base + 4096, dmi));
  });
  test::simulate();
}

TEST(Cache, DmiInvalidationIsForwardedUpstream) {
  TwoLevelBench b;
  b.init.body([&](TesterInitiator& i) {
    tlm::tlm_dmi dmi;
    ASSERT_TRUE(i.dmi(b.base, dmi));
    EXPECT_TRUE(test::unmapDeviceMemory(b.dram, b.base));
    ASSERT_EQ(i.invalidations.size(), 1u);
    EXPECT_EQ(i.invalidations[0].first, b.base);
    EXPECT_EQ(i.invalidations[0].second, b.base + 4095);
  });
  test::simulate();
}

}  // namespace
}  // namespace vgpu
