// HBM2 timing of the Dram model with the vega20 (MI50) platform's parameters: row hits,
// closed-bank misses and row conflicts, tRAS, tCCD, the channel data bus, and the bank and
// channel interleaving of the address map. Every expected cycle count is worked out below from
// the datasheet-style parameters typed in here (JEDEC JESD235 HBM2; typical HBM2 vendor
// datasheet timings at 2 Gbps; MI50 datasheet), never from the model; the first test checks
// that the platform still carries those parameters, so a change of platform data shows up there
// and not as a puzzling timing failure.
//
// The bench clock is 1 ns, so "cycles" read as nanoseconds.
#include <gtest/gtest.h>

#include <cstdint>

#include "MappedDeviceMemory.h"
#include "TlmTester.h"
#include "dram/Dram.h"
#include "platforms/Platform.h"

namespace vgpu {
namespace {

using test::cycles;
using test::Result;
using test::TesterInitiator;

// The vega20 memory system (platforms/vega20.json cites the same sources).
constexpr double kControllerNs = 150;  // controller, fabric and PHY (a model choice there)
constexpr double kTRCD = 14;           // ACTIVATE to READ, ns (HBM2 at 2 Gbps, vendor datasheets)
constexpr double kTCL = 14;            // READ to data, ns
constexpr double kTRP = 14;            // PRECHARGE to ACTIVATE, ns
constexpr double kTRAS = 33;           // ACTIVATE to PRECHARGE, ns
constexpr double kTCCD = 2;            // READ to READ in one bank group, ns (BL4 on 128 bits)
constexpr unsigned kChannels = 32;     // 4 stacks x 8 channels (JESD235: 8 channels per stack)
constexpr unsigned kBanks = 16;        // banks per channel (JESD235, 8 Gb dies)
constexpr unsigned kRowBytes = 2048;   // page size per channel (JESD235)
constexpr unsigned kInterleave = 256;  // bytes per channel before the next
constexpr double kPeakGBs = 1024;      // MI50 datasheet: 1 TB/s over 4096 bits

// One channel's share of the peak: 1024 GB/s / 32 = 32 GB/s = 32 bytes per ns.
constexpr double kChannelBytesPerNs = kPeakGBs / kChannels;
constexpr double burst(unsigned bytes) {
  return bytes / kChannelBytesPerNs;  // 64 B: 2 ns; 256 B: 8 ns
}
// Address map (JESD235 leaves it to the controller; the model's is documented in Dram.h):
// 256 bytes per channel, then the next channel; within a channel, 8 such blocks make a 2 KiB
// row, then the next bank, then the next row. So in global addresses:
constexpr uint64_t kNextChannel = kInterleave;                                 // 256 B
constexpr uint64_t kSameRowNextBlock = uint64_t{kInterleave} * kChannels;      // 8 KiB
constexpr uint64_t kNextBank = kSameRowNextBlock * (kRowBytes / kInterleave);  // 64 KiB
constexpr uint64_t kNextRow = kNextBank * kBanks;                              // 1 MiB

// A closed bank: ACTIVATE, tRCD, READ, tCL, then the burst on the channel's bus.
constexpr double kMissNs = kControllerNs + kTRCD + kTCL + burst(64);  // 150+14+14+2 = 180
// An open row: READ, tCL, burst.
constexpr double kHitNs = kControllerNs + kTCL + burst(64);  // 150+14+2 = 166
// Another row open: PRECHARGE, tRP, ACTIVATE, tRCD, READ, tCL, burst.
constexpr double kConflictNs = kControllerNs + kTRP + kTRCD + kTCL + burst(64);  // 194

struct Vega20Dram {
  DramConfig config = loadPlatform("vega20").dram;
  Dram dram{"dram", config, cycles(1)};
  TesterInitiator init{"init"};
  uint64_t base = 0;  // 64 MiB, aligned to 64 MiB: offset 0 is channel 0, bank 0, row 0
  Vega20Dram() {
    init.socket.bind(dram.socket);
    base = test::mapDeviceMemory(dram, 64ull << 20, 64ull << 20);
  }
  // A read sent at the current time (plus `start`); `consume`: wait for it to complete.
  static Result read(TesterInitiator& i, uint64_t addr, unsigned bytes = 64, bool consume = true) {
    static uint8_t data[256];
    tlm::tlm_generic_payload p;
    TesterInitiator::fill(p, tlm::TLM_READ_COMMAND, addr, data, bytes, nullptr, 0);
    return i.transport(p, sc_core::SC_ZERO_TIME, consume);
  }
};

TEST(DramTiming, Vega20PlatformCarriesTheDatasheetParameters) {
  const DramConfig c = loadPlatform("vega20").dram;
  EXPECT_DOUBLE_EQ(c.controllerLatencyNs, kControllerNs);
  EXPECT_DOUBLE_EQ(c.tRCDns, kTRCD);
  EXPECT_DOUBLE_EQ(c.tCLns, kTCL);
  EXPECT_DOUBLE_EQ(c.tRPns, kTRP);
  EXPECT_DOUBLE_EQ(c.tRASns, kTRAS);
  EXPECT_DOUBLE_EQ(c.tCCDns, kTCCD);
  EXPECT_EQ(c.channels, kChannels);
  EXPECT_EQ(c.banksPerChannel, kBanks);
  EXPECT_EQ(c.rowBytes, kRowBytes);
  EXPECT_EQ(c.interleaveBytes, kInterleave);
  EXPECT_DOUBLE_EQ(c.peakBandwidthGBs, kPeakGBs);
  EXPECT_TRUE(c.timed);
}

TEST(DramTiming, MissThenHitThenConflictOnOneBank) {
  // One access at a time (each waits for the previous one): a closed bank, the same row again,
  // then another row of the same bank. tRAS (33 ns after the first ACTIVATE) has long passed
  // when the conflict's PRECHARGE comes (180 + 166 + 150 ns later).
  Vega20Dram b;
  b.init.body([&](TesterInitiator& i) {
    EXPECT_EQ(Vega20Dram::read(i, b.base).delay, cycles(kMissNs));                     // 180
    EXPECT_EQ(Vega20Dram::read(i, b.base + kSameRowNextBlock).delay, cycles(kHitNs));  // 166
    EXPECT_EQ(Vega20Dram::read(i, b.base + 64).delay, cycles(kHitNs));                 // 166
    EXPECT_EQ(Vega20Dram::read(i, b.base + kNextRow).delay, cycles(kConflictNs));      // 194
    EXPECT_EQ(Vega20Dram::read(i, b.base + kNextRow + 128).delay, cycles(kHitNs));     // 166
    EXPECT_EQ(Vega20Dram::read(i, b.base).delay, cycles(kConflictNs));                 // 194
  });
  test::simulate();
  EXPECT_EQ(b.dram.rowMisses, 1u);
  EXPECT_EQ(b.dram.rowHits, 3u);
  EXPECT_EQ(b.dram.rowConflicts, 2u);
}

TEST(DramTiming, ConflictRightAfterAnActivateWaitsForTRas) {
  // Two reads of different rows of one bank, sent together at t = 0. The first ACTIVATEs at
  // 150 (after the controller). The second may PRECHARGE only tRAS after that ACTIVATE:
  // 150 + 33 = 183; then tRP, tRCD, tCL and the burst: 183 + 14 + 14 + 14 + 2 = 227.
  Vega20Dram b;
  b.init.body([&](TesterInitiator& i) {
    EXPECT_EQ(Vega20Dram::read(i, b.base, 64, false).delay, cycles(kMissNs));  // 180
    constexpr double kSecond = kControllerNs + kTRAS + kTRP + kTRCD + kTCL + burst(64);
    static_assert(kSecond == 227);
    EXPECT_EQ(Vega20Dram::read(i, b.base + kNextRow, 64, false).delay, cycles(kSecond));
  });
  test::simulate();
  EXPECT_EQ(b.dram.rowConflicts, 1u);
}

TEST(DramTiming, RowHitsIssueOneTCcdApart) {
  // The row is opened first; then four 64-byte reads of it are sent together. READs to one
  // bank go tCCD = 2 ns apart, and a 64-byte burst also takes 2 ns, so neither the bank nor
  // the bus waits longer: 166, 168, 170, 172 ns.
  Vega20Dram b;
  b.init.body([&](TesterInitiator& i) {
    Vega20Dram::read(i, b.base);
    for (int k = 0; k < 4; ++k)
      EXPECT_EQ(Vega20Dram::read(i, b.base + 64 * k, 64, false).delay, cycles(kHitNs + kTCCD * k))
          << "read " << k;
  });
  test::simulate();
  EXPECT_EQ(b.dram.rowHits, 4u);
}

TEST(DramTiming, LongBurstsQueueOnTheChannelBus) {
  // Four 256-byte row hits sent together: the READs go tCCD apart, so read k has its data at
  // 150 + 2k + 14 ns, but each burst holds the channel's bus for 256 B / 32 B/ns = 8 ns: the
  // bus is the bottleneck and they finish 8 ns apart: 164 + 8 = 172, 180, 188, 196.
  Vega20Dram b;
  b.init.body([&](TesterInitiator& i) {
    Vega20Dram::read(i, b.base + kSameRowNextBlock);  // opens row 0 of bank 0
    const double first = kControllerNs + kTCL + burst(256);
    static_assert(burst(256) == 8);
    for (int k = 0; k < 4; ++k)
      EXPECT_EQ(Vega20Dram::read(i, b.base + kSameRowNextBlock * k, 256, false).delay,
                cycles(first + burst(256) * k))
          << "read " << k;
  });
  test::simulate();
}

TEST(DramTiming, BanksOfAChannelActivateInParallel) {
  // Two closed banks of one channel, read together: both ACTIVATE at 150 and have data at
  // 178; they share the channel's bus, so the second burst follows the first: 180, 182.
  // (The same two reads on one bank would be a tRAS-bound conflict: see above.)
  Vega20Dram b;
  b.init.body([&](TesterInitiator& i) {
    EXPECT_EQ(Vega20Dram::read(i, b.base, 64, false).delay, cycles(kMissNs));
    EXPECT_EQ(Vega20Dram::read(i, b.base + kNextBank, 64, false).delay,
              cycles(kMissNs + burst(64)));
  });
  test::simulate();
  EXPECT_EQ(b.dram.rowMisses, 2u);
  EXPECT_EQ(b.dram.rowConflicts, 0u);
}

TEST(DramTiming, ConsecutiveBlocksGoToConsecutiveChannels) {
  // 32 reads of 256 bytes at consecutive 256-byte blocks, sent together: one per channel, so
  // each has its own bank and bus: every one completes at 150 + 14 + 14 + 8 = 186 ns. The 33rd
  // block is channel 0 again, same row as the first (block 8 of the row's 2 KiB): a row hit
  // whose burst queues behind the first's: data ready at 150 + 14 + 2 (tCCD behind the
  // first READ at 164) + 14 = 180 < 186, so it ends 8 ns after the first: 194.
  Vega20Dram b;
  b.init.body([&](TesterInitiator& i) {
    const double alone = kControllerNs + kTRCD + kTCL + burst(256);
    for (unsigned c = 0; c < kChannels; ++c)
      EXPECT_EQ(Vega20Dram::read(i, b.base + kNextChannel * c, 256, false).delay, cycles(alone))
          << "channel " << c;
    EXPECT_EQ(Vega20Dram::read(i, b.base + kNextChannel * kChannels, 256, false).delay,
              cycles(alone + burst(256)));
  });
  test::simulate();
  EXPECT_EQ(b.dram.rowMisses, kChannels);
  EXPECT_EQ(b.dram.rowHits, 1u);
  EXPECT_EQ(b.dram.busiestChannelBusyCycles(), 16u);  // channel 0: two 8 ns bursts
}

TEST(DramTiming, StreamThroughOneRowOfEveryBankHitsAfterTheFirstAccess) {
  // Reading 64 KiB of one channel's address space in 256-byte blocks at the channel stride
  // (8 KiB) walks bank 0's row 0 (8 blocks), then bank 1's, ...: per bank 1 miss and 7 hits.
  // One access at a time, so the time is the sum: 16 x (186 + 7 x 172) for 256-byte reads
  // (a hit: 150 + 14 + 8 = 172; a miss: 150 + 14 + 14 + 8 = 186).
  Vega20Dram b;
  b.init.body([&](TesterInitiator& i) {
    const sc_core::sc_time start = sc_core::sc_time_stamp();
    for (unsigned bank = 0; bank < kBanks; ++bank)
      for (unsigned block = 0; block < kRowBytes / kInterleave; ++block)
        Vega20Dram::read(i, b.base + kNextBank * bank + kSameRowNextBlock * block, 256);
    const double miss = kControllerNs + kTRCD + kTCL + burst(256);
    const double hit = kControllerNs + kTCL + burst(256);
    EXPECT_EQ(sc_core::sc_time_stamp() - start, cycles(kBanks * (miss + 7 * hit)));
  });
  test::simulate();
  EXPECT_EQ(b.dram.rowMisses, kBanks);
  EXPECT_EQ(b.dram.rowHits, kBanks * 7);
  EXPECT_EQ(b.dram.rowConflicts, 0u);
}

TEST(DramTiming, WriteBackIsTimedLikeAWrite) {
  // A timing-only write (an L2 write-back) to a closed bank takes the miss time with a
  // 64-byte burst, and leaves the row open for the next read.
  Vega20Dram b;
  b.init.body([&](TesterInitiator& i) {
    uint8_t line[64] = {};
    tlm::tlm_generic_payload p;
    TesterInitiator::fill(p, tlm::TLM_WRITE_COMMAND, b.base + kNextBank * 3, line, 64, nullptr, 0);
    MemoryRoleExtension role{MemoryRoleExtension::Role::TimingOnly};
    p.set_extension(&role);
    EXPECT_EQ(i.transport(p).delay, cycles(kMissNs));
    p.clear_extension(&role);
    EXPECT_EQ(Vega20Dram::read(i, b.base + kNextBank * 3 + 64).delay, cycles(kHitNs));
  });
  test::simulate();
  EXPECT_EQ(b.dram.writebacks, 1u);
}

}  // namespace
}  // namespace vgpu
