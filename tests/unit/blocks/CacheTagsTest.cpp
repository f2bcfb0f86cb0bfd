// CacheTags: set-associative tags with LRU replacement (plain C++).
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace vgpu
