// Dram through a tester initiator: data, byte enables, the allocation check, atomics, debug
// transport, DMI and its invalidation, and the annotated latency.
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <memory>

#include "MappedDeviceMemory.h"
#include "TlmTester.h"
#include "dram/Dram.h"

namespace vgpu {
namespace {

using test::cycles;
using test::TesterInitiator;

constexpr uint32_t kLatency = 200;

struct DramBench {
  DramConfig config = test::fixedLatencyDram(16ull << 20, kLatency);
  Dram dram{"dram", config, cycles(1)};
  TesterInitiator init{"init"};
  uint64_t base = 0;  // one 1 KiB allocation
  DramBench() {
    init.socket.bind(dram.socket);
    base = test::mapDeviceMemory(dram, 1024);
  }
};

TEST(Dram, WriteThenReadRoundTrip) {
  DramBench b;
  b.init.body([&](TesterInitiator& i) {
    const uint8_t out[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    EXPECT_TRUE(i.write(b.base + 16, out, 8).ok());
    uint8_t in[8] = {};
    EXPECT_TRUE(i.read(b.base + 16, in, 8).ok());
    EXPECT_EQ(0, std::memcmp(in, out, 8));
    EXPECT_EQ(i.read32(b.base + 20), 0x08070605u);
    EXPECT_EQ(i.read32(b.base + 24), 0u);  // never written: zero
  });
  test::simulate();
  EXPECT_EQ(b.dram.writes, 1u);
  EXPECT_EQ(b.dram.reads, 3u);
  EXPECT_EQ(b.dram.bytesWritten, 8u);
  EXPECT_EQ(b.dram.bytesRead, 16u);
}

TEST(Dram, LatencyIsAnnotatedAndAddedToTheIncomingDelay) {
  DramBench b;
  b.init.body([&](TesterInitiator& i) {
    uint32_t v = 0;
    const test::Result r = i.read(b.base, &v, 4);
    EXPECT_EQ(r.delay, cycles(kLatency));
    EXPECT_EQ(r.waitedInTarget, sc_core::SC_ZERO_TIME);  // b_transport does not wait
    tlm::tlm_generic_payload p;
    TesterInitiator::fill(p, tlm::TLM_WRITE_COMMAND, b.base, reinterpret_cast<uint8_t*>(&v), 4,
                          nullptr, 0);
    const test::Result w = i.transport(p, cycles(7));
    EXPECT_EQ(w.delay, cycles(7 + kLatency));
    EXPECT_EQ(w.waitedInTarget, sc_core::SC_ZERO_TIME);
  });
  test::simulate();
}

TEST(Dram, ReadHonoursByteEnables) {
  DramBench b;
  b.init.body([&](TesterInitiator& i) {
    uint8_t pattern[8] = {0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17};
    i.write(b.base, pattern, 8);
    uint8_t in[8];
    std::memset(in, 0xee, sizeof in);
    const uint8_t be[2] = {TLM_BYTE_ENABLED, TLM_BYTE_DISABLED};  // repeats over the data
    EXPECT_TRUE(i.access(tlm::TLM_READ_COMMAND, b.base, in, 8, be, 2).ok());
    const uint8_t expect[8] = {0x10, 0xee, 0x12, 0xee, 0x14, 0xee, 0x16, 0xee};
    EXPECT_EQ(0, std::memcmp(in, expect, 8));
  });
  test::simulate();
}

TEST(Dram, WriteHonoursByteEnables) {
  DramBench b;
  b.init.body([&](TesterInitiator& i) {
    uint8_t old[8];
    std::memset(old, 0xaa, sizeof old);
    i.write(b.base, old, 8);
    uint8_t data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    const uint8_t be[8] = {0, 0xff, 0xff, 0, 0, 0, 0xff, 0};
    EXPECT_TRUE(i.access(tlm::TLM_WRITE_COMMAND, b.base, data, 8, be, 8).ok());
    uint8_t in[8];
    i.read(b.base, in, 8);
    const uint8_t expect[8] = {0xaa, 2, 3, 0xaa, 0xaa, 0xaa, 7, 0xaa};
    EXPECT_EQ(0, std::memcmp(in, expect, 8));
  });
  test::simulate();
}

TEST(Dram, AccessOutsideEveryAllocationIsAnAddressError) {
  DramBench b;
  b.init.body([&](TesterInitiator& i) {
    uint32_t v = 0x12345678;
    EXPECT_EQ(i.write(b.base + 1024, &v, 4).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(i.read(b.base - 4, &v, 4).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(i.read(0, &v, 4).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(v, 0x12345678u);
  });
  test::simulate();
  EXPECT_EQ(b.dram.addressErrors, 3u);
  EXPECT_EQ(b.dram.writes, 0u);
  EXPECT_EQ(b.dram.reads, 0u);
  uint8_t raw[4];
  b.dram.store().read(b.base + 1024, raw, 4);
  EXPECT_EQ(raw[0] | raw[1] | raw[2] | raw[3], 0);  // the refused write left no trace
}

TEST(Dram, AccessPartlyOutsideIsRefusedWhole) {
  DramBench b;
  b.init.body([&](TesterInitiator& i) {
    uint8_t data[16];
    std::memset(data, 0x5a, sizeof data);
    EXPECT_EQ(i.write(b.base + 1016, data, 16).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(i.read32(b.base + 1016), 0u);  // nothing of it was written
    EXPECT_EQ(i.read(b.base - 8, data, 16).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  });
  test::simulate();
  EXPECT_EQ(b.dram.addressErrors, 2u);
}

TEST(Dram, OnlyEnabledBytesMustBeInsideAnAllocation) {
  DramBench b;
  b.init.body([&](TesterInitiator& i) {
    uint8_t data[8] = {};
    const uint8_t inside[8] = {0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0};
    EXPECT_TRUE(i.access(tlm::TLM_READ_COMMAND, b.base + 1020, data, 8, inside, 8).ok());
    const uint8_t outside[8] = {0, 0, 0, 0, 0, 0, 0, 0xff};
    EXPECT_EQ(i.access(tlm::TLM_READ_COMMAND, b.base + 1020, data, 8, outside, 8).status,
              tlm::TLM_ADDRESS_ERROR_RESPONSE);
  });
  test::simulate();
}

TEST(Dram, AllEnabledByteEnablesDoNotChangeTheAllocationCheck) {
  // The same 512-byte read over two adjacent allocations, once without byte enables and once
  // with every byte enabled: the payloads mean the same, so the responses must agree.
  DramBench b;
  const uint64_t second = test::mapDeviceMemory(b.dram, 256);
  ASSERT_EQ(second, b.base + 1024);
  b.init.body([&](TesterInitiator& i) {
    std::array<uint8_t, 512> data{}, be;
    be.fill(TLM_BYTE_ENABLED);
    const auto plain = i.read(b.base + 768, data.data(), 512).status;
    const auto enabled =
        i.access(tlm::TLM_READ_COMMAND, b.base + 768, data.data(), 512, be.data(), 512).status;
    EXPECT_EQ(plain, enabled);
  });
  test::simulate();
}

TEST(Dram, StreamingWidthShorterThanLengthIsABurstError) {
  DramBench b;
  b.init.body([&](TesterInitiator& i) {
    uint8_t data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    tlm::tlm_generic_payload p;
    TesterInitiator::fill(p, tlm::TLM_WRITE_COMMAND, b.base, data, 8, nullptr, 0);
    p.set_streaming_width(4);
    EXPECT_EQ(i.transport(p).status, tlm::TLM_BURST_ERROR_RESPONSE);
    EXPECT_EQ(i.read32(b.base), 0u);
  });
  test::simulate();
  EXPECT_EQ(b.dram.writes, 0u);
}

TEST(Dram, AtomicAddReturnsTheOldValue) {
  DramBench b;
  b.init.body([&](TesterInitiator& i) {
    i.write32(b.base + 64, 5);
    uint32_t operand = 3;
    const test::Result r = i.atomic(b.base + 64, isa::AtomicOp::Add, &operand, 4);
    EXPECT_TRUE(r.ok());
    EXPECT_FALSE(r.dmiAllowed);
    EXPECT_EQ(r.delay, cycles(kLatency));
    EXPECT_EQ(operand, 5u);
    EXPECT_EQ(i.read32(b.base + 64), 8u);
  });
  test::simulate();
  EXPECT_EQ(b.dram.atomics, 1u);
}

TEST(Dram, Atomic64CompareAndSwap) {
  DramBench b;
  b.init.body([&](TesterInitiator& i) {
    uint64_t init = 0x1111222233334444ull;
    i.write(b.base + 8, &init, 8);
    uint64_t value = 0xabcdull, compare = 0x1234ull;  // compare fails: memory unchanged
    EXPECT_TRUE(i.atomic(b.base + 8, isa::AtomicOp::CmpSwap, &value, 8, &compare).ok());
    EXPECT_EQ(value, init);
    uint64_t now = 0;
    i.read(b.base + 8, &now, 8);
    EXPECT_EQ(now, init);
    value = 0xabcdull, compare = init;  // compare matches: swapped
    EXPECT_TRUE(i.atomic(b.base + 8, isa::AtomicOp::CmpSwap, &value, 8, &compare).ok());
    EXPECT_EQ(value, init);
    i.read(b.base + 8, &now, 8);
    EXPECT_EQ(now, 0xabcdull);
  });
  test::simulate();
}

// What the watchdog counts as progress: the DRAM says whether the atomic left another value.
TEST(Dram, AtomicSaysWhetherItChangedMemory) {
  DramBench b;
  b.init.body([&](TesterInitiator& i) {
    i.write32(b.base, 7);
    bool changed = true;
    uint32_t value = 1, compare = 0;  // a spin lock's failing compare-and-swap
    EXPECT_TRUE(i.atomic(b.base, isa::AtomicOp::CmpSwap, &value, 4, &compare, true, &changed).ok());
    EXPECT_FALSE(changed);
    value = 0;  // an add of 0: a read
    EXPECT_TRUE(i.atomic(b.base, isa::AtomicOp::Add, &value, 4, nullptr, true, &changed).ok());
    EXPECT_FALSE(changed);
    value = 9, compare = 7;  // a compare-and-swap that swaps
    EXPECT_TRUE(i.atomic(b.base, isa::AtomicOp::CmpSwap, &value, 4, &compare, true, &changed).ok());
    EXPECT_TRUE(changed);
    EXPECT_EQ(i.read32(b.base), 9u);
    uint64_t wide = 1;  // 64-bit, no data back
    EXPECT_TRUE(i.atomic(b.base + 8, isa::AtomicOp::Add, &wide, 8, nullptr, false, &changed).ok());
    EXPECT_TRUE(changed);
  });
  test::simulate();
}

TEST(Dram, AtomicWithoutReturnLeavesTheOperand) {
  DramBench b;
  b.init.body([&](TesterInitiator& i) {
    i.write32(b.base, 40);
    uint32_t operand = 2;
    EXPECT_TRUE(i.atomic(b.base, isa::AtomicOp::Add, &operand, 4, nullptr, false).ok());
    EXPECT_EQ(operand, 2u);
    EXPECT_EQ(i.read32(b.base), 42u);
  });
  test::simulate();
}

TEST(Dram, AtomicOutsideAllocationIsAnAddressError) {
  DramBench b;
  b.init.body([&](TesterInitiator& i) {
    uint32_t operand = 1;
    EXPECT_EQ(i.atomic(b.base + 1024, isa::AtomicOp::Add, &operand, 4).status,
              tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(operand, 1u);
  });
  test::simulate();
  EXPECT_EQ(b.dram.atomics, 0u);
}

TEST(Dram, AtomicOfUnsupportedSizeIsACommandError) {
  DramBench b;
  b.init.body([&](TesterInitiator& i) {
    uint16_t operand = 1;
    EXPECT_EQ(i.atomic(b.base, isa::AtomicOp::Add, &operand, 2).status,
              tlm::TLM_COMMAND_ERROR_RESPONSE);
  });
  test::simulate();
}

TEST(Dram, DebugTransportReadsAndWritesWithoutTime) {
  DramBench b;
  b.init.body([&](TesterInitiator& i) {
    uint32_t v = 0xcafef00d;
    EXPECT_EQ(i.debug(tlm::TLM_WRITE_COMMAND, b.base + 32, &v, 4), 4u);
    uint32_t back = 0;
    EXPECT_EQ(i.debug(tlm::TLM_READ_COMMAND, b.base + 32, &back, 4), 4u);
    EXPECT_EQ(back, 0xcafef00du);
    EXPECT_EQ(sc_core::sc_time_stamp(), sc_core::SC_ZERO_TIME);  // debug accesses take no time
    EXPECT_EQ(i.read32(b.base + 32), 0xcafef00du);               // the same memory b_transport sees
  });
  test::simulate();
  EXPECT_EQ(b.dram.writes, 0u);  // debug accesses are not counted
  EXPECT_EQ(b.dram.reads, 1u);
}

TEST(Dram, DebugTransportReachesUnallocatedMemory) {
  DramBench b;
  b.init.body([&](TesterInitiator& i) {
    uint32_t v = 0x77;
    EXPECT_EQ(i.debug(tlm::TLM_WRITE_COMMAND, b.base + 4096, &v, 4), 4u);
    uint32_t back = 0;
    EXPECT_EQ(i.debug(tlm::TLM_READ_COMMAND, b.base + 4096, &back, 4), 4u);
    EXPECT_EQ(back, 0x77u);
  });
  test::simulate();
  EXPECT_EQ(b.dram.addressErrors, 0u);
}

TEST(Dram, DebugTransportNeedsOnlyCommandAddressDataAndLength) {
  // IEEE 1666-2011 debug transport: the target uses command, address, data pointer and data
  // length; a payload that leaves the streaming width at its default (0) is still valid.
  DramBench b;
  b.init.body([&](TesterInitiator& i) {
    i.write32(b.base, 0x01020304);
    uint32_t back = 0;
    tlm::tlm_generic_payload p;
    p.set_command(tlm::TLM_READ_COMMAND);
    p.set_address(b.base);
    p.set_data_ptr(reinterpret_cast<uint8_t*>(&back));
    p.set_data_length(4);
    EXPECT_EQ(i.socket->transport_dbg(p), 4u);
    EXPECT_EQ(back, 0x01020304u);
  });
  test::simulate();
}

TEST(Dram, DmiGrantedInsideAnAllocation) {
  DramBench b;
  b.init.body([&](TesterInitiator& i) {
    tlm::tlm_dmi dmi;
    ASSERT_TRUE(i.dmi(b.base + 100, dmi));
    EXPECT_EQ(dmi.get_start_address(), b.base);
    EXPECT_EQ(dmi.get_end_address(), b.base + 1023);
    EXPECT_TRUE(dmi.is_read_write_allowed());
    EXPECT_EQ(dmi.get_read_latency(), cycles(kLatency));
    EXPECT_EQ(dmi.get_write_latency(), cycles(kLatency));
    uint8_t* ptr = dmi.get_dmi_ptr();
    ASSERT_NE(ptr, nullptr);
    // Write through the pointer, read through b_transport, and the other way round.
    const uint32_t v = 0xdeadbeef;
    std::memcpy(ptr + 100, &v, 4);
    EXPECT_EQ(i.read32(b.base + 100), 0xdeadbeefu);
    i.write32(b.base + 1020, 0x600df00d);
    uint32_t w = 0;
    std::memcpy(&w, ptr + 1020, 4);
    EXPECT_EQ(w, 0x600df00du);
  });
  test::simulate();
}

TEST(Dram, DmiDeniedOutsideAllocations) {
  DramBench b;
  b.init.body([&](TesterInitiator& i) {
    tlm::tlm_dmi dmi;
    EXPECT_FALSE(i.dmi(b.base + 1024, dmi));
    // A denial may only describe a range in which DMI is denied: it must not cover the
    // allocation below.
    EXPECT_GE(dmi.get_start_address(), b.base + 1024);
    EXPECT_LE(dmi.get_start_address(), b.base + 1024);
    EXPECT_GE(dmi.get_end_address(), b.base + 1024);
    EXPECT_FALSE(i.dmi(0, dmi));
  });
  test::simulate();
}

TEST(Dram, DmiRegionStopsAtTheBackingPage) {
  DramBench b;
  const uint64_t big = test::mapDeviceMemory(b.dram, 3ull << 20, 1ull << 20);
  b.init.body([&](TesterInitiator& i) {
    tlm::tlm_dmi dmi;
    ASSERT_TRUE(i.dmi(big + (1ull << 20) + 8, dmi));
    EXPECT_EQ(dmi.get_start_address(), big + (1ull << 20));
    EXPECT_EQ(dmi.get_end_address(), big + (2ull << 20) - 1);
    std::memset(dmi.get_dmi_ptr(), 0x3c, 4);
    EXPECT_EQ(i.read32(big + (1ull << 20)), 0x3c3c3c3cu);
  });
  test::simulate();
}

TEST(Dram, AccessAcrossBackingPagesRoundTrips) {
  DramBench b;
  const uint64_t big = test::mapDeviceMemory(b.dram, 2ull << 20, 1ull << 20);
  b.init.body([&](TesterInitiator& i) {
    const uint8_t out[8] = {9, 8, 7, 6, 5, 4, 3, 2};
    const uint64_t at = big + (1ull << 20) - 4;
    EXPECT_TRUE(i.write(at, out, 8).ok());
    uint8_t in[8] = {};
    EXPECT_TRUE(i.read(at, in, 8).ok());
    EXPECT_EQ(0, std::memcmp(in, out, 8));
  });
  test::simulate();
}

TEST(Dram, ReleaseInvalidatesDmiOfTheAllocation) {
  DramBench b;
  b.init.body([&](TesterInitiator& i) {
    tlm::tlm_dmi dmi;
    ASSERT_TRUE(i.dmi(b.base, dmi));
    EXPECT_TRUE(i.invalidations.empty());
    EXPECT_TRUE(test::unmapDeviceMemory(b.dram, b.base));
    ASSERT_EQ(i.invalidations.size(), 1u);
    EXPECT_EQ(i.invalidations[0].first, b.base);
    EXPECT_EQ(i.invalidations[0].second, b.base + 1023);
    uint32_t v = 0;
    EXPECT_EQ(i.read(b.base, &v, 4).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_FALSE(i.dmi(b.base, dmi));
  });
  test::simulate();
}

TEST(Dram, ReleaseOfUnknownBaseInvalidatesNothing) {
  DramBench b;
  b.init.body([&](TesterInitiator& i) {
    EXPECT_FALSE(b.dram.unmap(b.base + 256));
    EXPECT_FALSE(b.dram.unmap(b.base + 4096));
    EXPECT_TRUE(i.invalidations.empty());
    uint32_t v = 0;
    EXPECT_TRUE(i.read(b.base + 256, &v, 4).ok());  // the allocation is still there
  });
  test::simulate();
}

TEST(Dram, InvalidationReachesEveryBoundInitiator) {
  DramBench b;
  TesterInitiator second("second");
  second.socket.bind(b.dram.socket);
  b.init.body([&](TesterInitiator&) { EXPECT_TRUE(test::unmapDeviceMemory(b.dram, b.base)); });
  test::simulate();
  EXPECT_EQ(b.init.invalidations.size(), 1u);
  EXPECT_EQ(second.invalidations.size(), 1u);
}

TEST(Dram, WatchedPageGrantsReadOnlyDmiToReadsAndReportsEveryWrite) {
  // The bench's allocation is 1 KiB inside one 4 KiB page. Watching the page revokes the DMI
  // granted over it; a read request then gets DMI that allows reads only, over the page's part
  // of the allocation, through which the memory's current bytes are read. A write request gets
  // none, so writes come as transactions and are reported.
  DramBench b;
  test::RecordedPageWrites writes;
  const uint64_t page = b.base >> kWatchedPageShift;
  b.init.body([&](TesterInitiator& i) {
    i.write32(b.base + 8, 0x0badcafe);
    tlm::tlm_dmi dmi;
    ASSERT_TRUE(i.dmi(b.base, dmi));
    EXPECT_TRUE(dmi.is_read_write_allowed());
    b.dram.watchPage(page, writes);
    ASSERT_EQ(i.invalidations.size(), 1u);
    EXPECT_EQ(i.invalidations[0].first, page << kWatchedPageShift);
    EXPECT_EQ(i.invalidations[0].second, ((page + 1) << kWatchedPageShift) - 1);

    ASSERT_TRUE(i.dmi(b.base + 100, dmi, tlm::TLM_READ_COMMAND));
    EXPECT_TRUE(dmi.is_read_allowed());
    EXPECT_FALSE(dmi.is_write_allowed());
    EXPECT_EQ(dmi.get_start_address(), b.base);
    EXPECT_EQ(dmi.get_end_address(), b.base + 1023);
    EXPECT_EQ(dmi.get_read_latency(), cycles(kLatency));
    uint32_t v = 0;
    std::memcpy(&v, dmi.get_dmi_ptr() + 8, 4);
    EXPECT_EQ(v, 0x0badcafeu);

    tlm::tlm_dmi denied;
    EXPECT_FALSE(i.dmi(b.base + 100, denied, tlm::TLM_WRITE_COMMAND));
    EXPECT_LE(denied.get_start_address(), b.base + 100);
    EXPECT_GE(denied.get_end_address(), b.base + 100);
    EXPECT_TRUE(writes.pages.empty());
    i.write32(b.base + 12, 0x600d);
    ASSERT_EQ(writes.pages.size(), 1u);
    EXPECT_EQ(writes.pages[0], page);
    std::memcpy(&v, dmi.get_dmi_ptr() + 12, 4);  // the read-only region sees the new bytes
    EXPECT_EQ(v, 0x600du);
  });
  test::simulate();
}

TEST(Dram, SuccessfulAccessesAllowDmi) {
  DramBench b;
  b.init.body([&](TesterInitiator& i) {
    uint32_t v = 0;
    EXPECT_TRUE(i.read(b.base, &v, 4).dmiAllowed);
    EXPECT_FALSE(i.read(b.base + 4096, &v, 4).dmiAllowed);
  });
  test::simulate();
}

TEST(Dram, EmptyOrNullPayloadIsAGenericError) {
  DramBench b;
  b.init.body([&](TesterInitiator& i) {
    EXPECT_EQ(i.read(b.base, nullptr, 4).status, tlm::TLM_GENERIC_ERROR_RESPONSE);
    uint32_t v = 0;
    EXPECT_EQ(i.read(b.base, &v, 0).status, tlm::TLM_GENERIC_ERROR_RESPONSE);
  });
  test::simulate();
}

}  // namespace
}  // namespace vgpu
