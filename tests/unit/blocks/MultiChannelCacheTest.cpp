// Caches with the vega20 (MI50) platform's geometry: the L2 (4 MiB in 16 channels interleaved
// by 256 bytes, 64-byte lines, 16 ways, write-back) and the vector L1 (16 KiB, 4 ways, write-
// through): capacity, conflict misses within one set, dirty write-backs, channel interleaving
// and the limit on outstanding misses (MSHRs). Behind them a DRAM of fixed latency, so every
// expected time is a sum of the cache's own figures, worked out in the comments.
//
// Sources of the geometry: rocprofiler-compute's gfx906 description (L2: 4 MiB, 16 channels,
// 64 B lines, 64 B/clk per channel), ROCm's hardware specifications (vector L1: 16 KiB per CU,
// 64 B lines); ways, interleave, hit latency and MSHR counts are the platform's model choices.
// The first test pins them, so a change of platform data shows up there.
#include <gtest/gtest.h>

#include <cstdint>

#include "MappedDeviceMemory.h"
#include "TlmTester.h"
#include "common/Cache.h"
#include "dram/Dram.h"
#include "l2/L2Cache.h"
#include "platforms/Platform.h"

namespace vgpu {
namespace {

using test::cycles;
using test::TesterInitiator;

constexpr uint64_t kL2Bytes = 4ull << 20;
constexpr unsigned kL2Channels = 16, kL2Ways = 16, kLine = 64, kInterleave = 256;
constexpr unsigned kL2Hit = 100, kL2Mshrs = 256;
constexpr uint64_t kL1Bytes = 16384;
constexpr unsigned kL1Ways = 4;

// Sets per L2 channel: 4 MiB / 16 channels / (64 B x 16 ways) = 256. A channel holds every
// 16th 256-byte block; its lines, numbered in the order of the blocks it holds, fill sets
// 0, 1, ..., 255, 0, ... So lines 256 apart in a channel share a set: in global addresses,
// 256 lines = 64 blocks of that channel = 64 x 16 x 256 B = 256 KiB apart.
constexpr uint64_t kL2SetStride = 256 * kLine / kInterleave * kL2Channels * kInterleave;
static_assert(kL2SetStride == 256 * 1024);

struct L2Bench {
  Dram dram;
  L2Cache l2;
  TesterInitiator init{"init"};
  uint64_t base = 0;  // 16 MiB, aligned to 16 MiB
  explicit L2Bench(uint32_t dramLatency = 200)
      : dram("dram", test::fixedLatencyDram(64ull << 20, dramLatency), cycles(1)),
        l2("l2", loadPlatform("vega20").l2, cycles(1)) {
    init.socket.bind(l2.socket);
    l2.memory.bind(dram.socket);
    base = test::mapDeviceMemory(dram, 16ull << 20, 16ull << 20);
  }
};

// Reads one 64-byte line at each of `lines` addresses base + k * stride, in order.
void lap(TesterInitiator& i, uint64_t base, uint64_t lines, uint64_t stride) {
  uint8_t data[kLine];
  for (uint64_t k = 0; k < lines; ++k) i.read(base + k * stride, data, kLine);
}

TEST(MultiChannelCache, Vega20PlatformCarriesTheCacheGeometry) {
  const PlatformConfig p = loadPlatform("vega20");
  EXPECT_EQ(p.l2.sizeBytes, kL2Bytes);
  EXPECT_EQ(p.l2.channels, kL2Channels);
  EXPECT_EQ(p.l2.ways, kL2Ways);
  EXPECT_EQ(p.l2.lineBytes, kLine);
  EXPECT_EQ(p.l2.interleaveBytes, kInterleave);
  EXPECT_EQ(p.l2.hitLatencyCycles, kL2Hit);
  EXPECT_EQ(p.l2.bytesPerCyclePerChannel, 64u);
  EXPECT_EQ(p.l2.mshrsPerChannel, kL2Mshrs);
  EXPECT_EQ(p.vectorL1.sizeBytes, kL1Bytes);
  EXPECT_EQ(p.vectorL1.ways, kL1Ways);
  EXPECT_EQ(p.vectorL1.lineBytes, kLine);
}

TEST(MultiChannelCache, L2HoldsFourMiBAndNotMore) {
  // A 4 MiB footprint read line by line twice: every line of the second lap hits (65,536 hits).
  // An L2 that used only part of its sets (an indexing bug once made it behave like 256 KiB)
  // would miss here. Then 4 MiB + 256 KiB, read twice: every set now sees 17 lines in a cycle
  // through 16 ways, so LRU evicts each line just before it is read again: no hit at all.
  L2Bench b;
  constexpr uint64_t kLines = kL2Bytes / kLine;  // 65,536
  b.init.body([&](TesterInitiator& i) {
    lap(i, b.base, kLines, kLine);
    const uint64_t missesBefore = b.l2.misses;
    lap(i, b.base, kLines, kLine);
    EXPECT_EQ(b.l2.misses - missesBefore, 0u);
    EXPECT_EQ(b.l2.hits, kLines);

    constexpr uint64_t kOver = (kL2Bytes + (256 << 10)) / kLine;  // 69,632 lines
    const uint64_t other = b.base + (8ull << 20);                 // nothing of it cached
    lap(i, other, kOver, kLine);
    const uint64_t hitsBefore = b.l2.hits;
    lap(i, other, kOver, kLine);
    EXPECT_EQ(b.l2.hits - hitsBefore, 0u);
  });
  test::simulate();
  EXPECT_EQ(b.l2.writebacks, 0u);  // only reads: nothing dirty
}

TEST(MultiChannelCache, SixteenLinesOfOneL2SetFitSeventeenThrash) {
  // Lines 256 KiB apart fall in one set of one channel. 16 of them (the ways) read twice:
  // the second lap hits 16 times. 17 of them read twice in a cycle: LRU always evicts the
  // line read next, so the second lap misses 17 times.
  L2Bench b;
  b.init.body([&](TesterInitiator& i) {
    lap(i, b.base, kL2Ways, kL2SetStride);
    lap(i, b.base, kL2Ways, kL2SetStride);
    EXPECT_EQ(b.l2.hits, kL2Ways);
    EXPECT_EQ(b.l2.misses, kL2Ways);
    const uint64_t other = b.base + kLine;  // the next set
    lap(i, other, kL2Ways + 1, kL2SetStride);
    lap(i, other, kL2Ways + 1, kL2SetStride);
    EXPECT_EQ(b.l2.hits, kL2Ways);
    EXPECT_EQ(b.l2.misses, kL2Ways + 2 * (kL2Ways + 1));
  });
  test::simulate();
}

TEST(MultiChannelCache, L2WritesBackADirtyLineOnlyWhenItIsEvicted) {
  // A store allocates its line dirty (write-back). Reading the 15 other ways of its set
  // evicts nothing; the 16th new line evicts the least recently used one, the dirty line:
  // exactly one write-back reaches DRAM. Evicting clean lines afterwards writes nothing back.
  L2Bench b;
  b.init.body([&](TesterInitiator& i) {
    const uint32_t v = 0x5eed;
    i.write(b.base, &v, 4);
    lap(i, b.base + kL2SetStride, kL2Ways - 1, kL2SetStride);
    EXPECT_EQ(b.l2.writebacks, 0u);
    lap(i, b.base + kL2Ways * kL2SetStride, 1, kL2SetStride);
    EXPECT_EQ(b.l2.writebacks, 1u);
    lap(i, b.base + (kL2Ways + 1) * kL2SetStride, kL2Ways, kL2SetStride);
    EXPECT_EQ(b.l2.writebacks, 1u);
    EXPECT_EQ(i.read32(b.base), 0x5eedu);  // the data was in DRAM all along
  });
  test::simulate();
  EXPECT_EQ(b.dram.writebacks, 1u);
}

TEST(MultiChannelCache, L2ChannelsServeConsecutiveBlocksInParallel) {
  // 64-byte misses sent together. A miss takes a slot of its channel's port (64 B at 64 B per
  // cycle: 1 cycle), the tag lookup from the slot's start (100), DRAM (200) and the line's
  // transfer (1): 301 cycles. 16 consecutive 256-byte blocks go to the 16 channels: all 301.
  // A 17th (block 16) is channel 0 again and waits one cycle for its port: 302.
  // The same 17 misses in one channel (blocks 16 apart) queue on its port: 301 + k.
  L2Bench b;
  b.init.body([&](TesterInitiator& i) {
    uint8_t data[kLine];
    auto send = [&](uint64_t addr) {
      tlm::tlm_generic_payload p;
      TesterInitiator::fill(p, tlm::TLM_READ_COMMAND, addr, data, kLine, nullptr, 0);
      return i.transport(p, sc_core::SC_ZERO_TIME, false).delay;
    };
    for (unsigned c = 0; c < kL2Channels; ++c)
      EXPECT_EQ(send(b.base + c * kInterleave), cycles(kL2Hit + 200 + 1)) << "channel " << c;
    EXPECT_EQ(send(b.base + kL2Channels * kInterleave), cycles(1 + kL2Hit + 200 + 1));
    sc_core::wait(cycles(10000));
    const uint64_t far = b.base + (4ull << 20);
    for (unsigned k = 0; k <= kL2Channels; ++k)
      EXPECT_EQ(send(far + k * kL2Channels * kInterleave), cycles(k + kL2Hit + 200 + 1))
          << "miss " << k;
  });
  test::simulate();
  EXPECT_EQ(b.l2.misses, 2 * (kL2Channels + 1));
}

TEST(MultiChannelCache, L2MissesBeyondTheMshrsWaitForOneToFree) {
  // With a 1000-cycle DRAM a miss holds its MSHR from the tag lookup (100 cycles after its
  // port slot starts) until its line is through: 1000 + 1 cycles. 257 misses sent together to
  // one channel (blocks 16 apart) get port slots one cycle apart: miss k (0..255) takes an
  // MSHR at k + 100 and is done at k + 1101. Miss 256 reaches the tags at 356 with all 256 MSHRs
  // busy; the first frees at 1101, so it is done at 1101 + 1000 + 1 = 2102 instead of 1357.
  L2Bench b(1000);
  b.init.body([&](TesterInitiator& i) {
    uint8_t data[kLine];
    for (unsigned k = 0; k <= kL2Mshrs; ++k) {
      tlm::tlm_generic_payload p;
      TesterInitiator::fill(p, tlm::TLM_READ_COMMAND, b.base + k * kL2Channels * kInterleave, data,
                            kLine, nullptr, 0);
      const sc_core::sc_time d = i.transport(p, sc_core::SC_ZERO_TIME, false).delay;
      if (k < kL2Mshrs)
        EXPECT_EQ(d, cycles(k + kL2Hit + 1000 + 1)) << "miss " << k;
      else
        EXPECT_EQ(d, cycles((kL2Hit + 1000 + 1) + 1000 + 1));
    }
  });
  test::simulate();
  EXPECT_EQ(b.l2.misses, kL2Mshrs + 1u);
}

TEST(MultiChannelCache, VectorL1HoldsSixteenKiBAndNotMore) {
  // 16 KiB = 256 lines in 64 sets of 4 ways: the second lap hits 256 times. 20 KiB = 5 lines
  // per set through 4 ways: LRU thrash, no hit in the second lap. Write-through: a store
  // neither allocates nor counts as a hit, and the line it wrote is still present.
  Dram dram("dram", test::fixedLatencyDram(16ull << 20, 200), cycles(1));
  Cache l1("l1", loadPlatform("vega20").vectorL1, cycles(1),
           Cache::WritePolicy::WriteThroughNoAllocate);
  TesterInitiator init("init");
  init.socket.bind(l1.socket);
  l1.memory.bind(dram.socket);
  const uint64_t base = test::mapDeviceMemory(dram, 1 << 20, 1 << 20);
  init.body([&](TesterInitiator& i) {
    lap(i, base, kL1Bytes / kLine, kLine);
    lap(i, base, kL1Bytes / kLine, kLine);
    EXPECT_EQ(l1.hits, kL1Bytes / kLine);
    const uint64_t other = base + (64 << 10);
    constexpr uint64_t kOver = (kL1Bytes + 4096) / kLine;
    lap(i, other, kOver, kLine);
    const uint64_t hitsBefore = l1.hits;
    lap(i, other, kOver, kLine);
    EXPECT_EQ(l1.hits - hitsBefore, 0u);
    // The last lap left lines 64..319 of `other` present (the last 4 of each set).
    const uint32_t v = 7;
    const uint64_t misses = l1.misses;
    i.write(other + kOver * kLine - kLine, &v, 4);
    EXPECT_EQ(i.read32(other + kOver * kLine - kLine), 7u);
    EXPECT_EQ(l1.misses, misses);  // a hit: the store kept the line
  });
  test::simulate();
}

}  // namespace
}  // namespace vgpu
