// CacheTags: set-associative tags with LRU replacement (plain C++).
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "common/CacheTags.h"

namespace vgpu {
namespace {

// 256 bytes, 64-byte lines, 2 ways: 2 sets; lines with even index go to set 0.
constexpr uint64_t kA = 0x1000, kB = 0x1080, kC = 0x1100, kD = 0x1180;  // all in set 0
constexpr uint64_t kOdd = 0x1040;                                       // set 1

TEST(CacheTags, FirstAccessMissesSecondHits) {
  CacheTags tags(256, 64, 2);
  EXPECT_FALSE(tags.access(kA, true));
  EXPECT_TRUE(tags.access(kA, true));
  EXPECT_TRUE(tags.access(kA + 63, true));   // same line
  EXPECT_FALSE(tags.access(kA + 64, true));  // next line
}

TEST(CacheTags, MissWithoutAllocateDoesNotInstall) {
  CacheTags tags(256, 64, 2);
  EXPECT_FALSE(tags.access(kA, false));
  EXPECT_FALSE(tags.access(kA, false));
  EXPECT_FALSE(tags.access(kA, true));
  EXPECT_TRUE(tags.access(kA, false));  // a hit without allocate still hits
}

TEST(CacheTags, LeastRecentlyUsedWayIsEvicted) {
  CacheTags tags(256, 64, 2);
  EXPECT_FALSE(tags.access(kA, true));
  EXPECT_FALSE(tags.access(kB, true));
  EXPECT_TRUE(tags.access(kA, true));   // B is now least recently used
  EXPECT_FALSE(tags.access(kC, true));  // evicts B
  EXPECT_TRUE(tags.access(kA, true));
  EXPECT_TRUE(tags.access(kC, true));
  EXPECT_FALSE(tags.access(kB, true));  // evicts A (C was used after A)
  EXPECT_TRUE(tags.access(kC, true));
  EXPECT_FALSE(tags.access(kA, true));
}

TEST(CacheTags, SetsAreIndependent) {
  CacheTags tags(256, 64, 2);
  tags.access(kA, true);
  tags.access(kB, true);
  EXPECT_FALSE(tags.access(kOdd, true));
  EXPECT_TRUE(tags.access(kA, true));
  EXPECT_TRUE(tags.access(kB, true));
  EXPECT_TRUE(tags.access(kOdd, true));
  tags.access(kC, true);
  tags.access(kD, true);
  EXPECT_TRUE(tags.access(kOdd, true));  // set 1 untouched by set 0's evictions
}

TEST(CacheTags, InvalidateDropsOneLine) {
  CacheTags tags(256, 64, 2);
  tags.access(kA, true);
  tags.access(kB, true);
  tags.invalidate(kA + 8);
  EXPECT_FALSE(tags.access(kA, false));
  EXPECT_TRUE(tags.access(kB, false));
}

TEST(CacheTags, InvalidatedWayIsReusedFirst) {
  CacheTags tags(256, 64, 2);
  tags.access(kA, true);
  tags.access(kB, true);
  tags.invalidate(kB);
  EXPECT_FALSE(tags.access(kC, true));  // fills B's empty way, A stays
  EXPECT_TRUE(tags.access(kA, false));
  EXPECT_TRUE(tags.access(kC, false));
}

TEST(CacheTags, InvalidateAllEmptiesTheCache) {
  CacheTags tags(256, 64, 2);
  tags.access(kA, true);
  tags.access(kOdd, true);
  tags.invalidateAll();
  EXPECT_FALSE(tags.access(kA, false));
  EXPECT_FALSE(tags.access(kOdd, false));
}

TEST(CacheTags, DirectMappedAndFullyAssociative) {
  CacheTags direct(256, 64, 1);  // 4 sets
  direct.access(0x0, true);
  EXPECT_FALSE(direct.access(0x100, true));  // same set, evicts
  EXPECT_FALSE(direct.access(0x0, true));
  CacheTags full(256, 64, 4);  // 1 set, 4 ways
  for (uint64_t a = 0; a < 4; ++a) EXPECT_FALSE(full.access(a * 0x1000, true));
  for (uint64_t a = 0; a < 4; ++a) EXPECT_TRUE(full.access(a * 0x1000, true));
  EXPECT_EQ(full.lineBytes(), 64u);
}

TEST(CacheTags, LineZeroIsCacheable) {
  CacheTags tags(256, 64, 2);
  EXPECT_FALSE(tags.access(0, true));
  EXPECT_TRUE(tags.access(0, true));
}

// The tags as first written (every way's tag compared, the least recent use found by a scan):
// the reference the faster lookup must agree with, access for access.
class ReferenceTags {
 public:
  ReferenceTags(uint32_t sizeBytes, uint32_t lineBytes, uint32_t ways)
      : lineBytes_(lineBytes), ways_(ways ? ways : 1) {
    sets_ = std::max(1u, sizeBytes / lineBytes / ways_);
    tags_.assign(static_cast<size_t>(sets_) * ways_, kInvalid);
    lastUse_.assign(tags_.size(), 0);
    dirty_.assign(tags_.size(), 0);
  }
  CacheTags::Outcome lookup(uint64_t addr, bool allocate, bool markDirty) {
    const uint64_t line = addr / lineBytes_;
    const size_t set = static_cast<size_t>(line % sets_) * ways_;
    ++clock_;
    CacheTags::Outcome out;
    for (size_t w = set; w < set + ways_; ++w) {
      if (tags_[w] == line) {
        lastUse_[w] = clock_;
        if (markDirty) dirty_[w] = 1;
        out.hit = true;
        out.way = w;
        return out;
      }
    }
    size_t victim = set;
    for (size_t w = set + 1; w < set + ways_; ++w)
      if (lastUse_[w] < lastUse_[victim]) victim = w;
    if (allocate) {
      if (tags_[victim] != kInvalid && dirty_[victim]) {
        out.evictedDirty = true;
        out.evictedAddress = tags_[victim] * lineBytes_;
      }
      tags_[victim] = line;
      lastUse_[victim] = clock_;
      dirty_[victim] = markDirty ? 1 : 0;
      out.way = victim;
    }
    return out;
  }
  void invalidate(uint64_t addr) {
    const uint64_t line = addr / lineBytes_;
    const size_t set = static_cast<size_t>(line % sets_) * ways_;
    for (size_t w = set; w < set + ways_; ++w)
      if (tags_[w] == line) tags_[w] = kInvalid, lastUse_[w] = 0, dirty_[w] = 0;
  }
  void invalidateAll() {
    std::fill(tags_.begin(), tags_.end(), kInvalid);
    std::fill(lastUse_.begin(), lastUse_.end(), 0);
    std::fill(dirty_.begin(), dirty_.end(), 0);
  }

 private:
  static constexpr uint64_t kInvalid = ~0ull;
  uint32_t lineBytes_, ways_, sets_;
  std::vector<uint64_t> tags_, lastUse_;
  std::vector<uint8_t> dirty_;
  uint64_t clock_ = 0;
};

TEST(CacheTags, MatchesTheScanOfEveryWay) {
  // Random lookups (with and without allocation, marking dirty), invalidations of single
  // lines and of everything, over shapes from direct mapped to 32 ways and a set count that
  // is not a power of two, with few enough lines that sets fill, hit and evict.
  struct Shape {
    uint32_t size, ways;
  };
  for (const Shape shape :
       {Shape{4096, 1}, Shape{4096, 2}, Shape{16384, 4}, Shape{65536, 16}, Shape{49152, 16},
        Shape{32768, 8}, Shape{3 * 4096, 4}, Shape{65536, 32}, Shape{1024, 16}}) {
    std::mt19937_64 random(shape.size + shape.ways);
    CacheTags tags(shape.size, 64, shape.ways);
    ReferenceTags reference(shape.size, 64, shape.ways);
    const uint64_t lines = 2 * shape.size / 64;
    for (int n = 0; n < 40000; ++n) {
      const uint64_t addr = (random() % lines) * 64 + random() % 64;
      const uint64_t kind = random() % 64;
      if (kind == 0) {
        tags.invalidate(addr);
        reference.invalidate(addr);
        continue;
      }
      if (kind == 1 && random() % 64 == 0) {
        tags.invalidateAll();
        reference.invalidateAll();
        continue;
      }
      const bool allocate = kind % 5 != 0, dirty = kind % 3 == 0;
      const CacheTags::Outcome got = tags.lookup(addr, allocate, dirty);
      const CacheTags::Outcome want = reference.lookup(addr, allocate, dirty);
      ASSERT_EQ(got.hit, want.hit) << shape.size << "/" << shape.ways << " access " << n;
      ASSERT_EQ(got.way, want.way) << shape.size << "/" << shape.ways << " access " << n;
      ASSERT_EQ(got.evictedDirty, want.evictedDirty) << " access " << n;
      ASSERT_EQ(got.evictedAddress, want.evictedAddress) << " access " << n;
    }
  }
}

}  // namespace
}  // namespace vgpu
