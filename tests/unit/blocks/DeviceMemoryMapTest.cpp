// DeviceMemoryMap: the ranges host software mapped for the GPU (its MEM_MAP registers), behind
// DRAM's memory-violation check (plain C++).
#include <gtest/gtest.h>

#include "dram/DeviceMemoryMap.h"

namespace vgpu {
namespace {

constexpr uint64_t kMiB = 1ull << 20;
constexpr uint64_t kBase = DeviceMemoryMap::kBase;

TEST(DeviceMemoryMap, MappedRangeIsCoveredAndItsNeighboursAreNot) {
  DeviceMemoryMap map(16 * kMiB);
  ASSERT_TRUE(map.map(kBase + 4096, 100));
  EXPECT_TRUE(map.covers(kBase + 4096, 100));
  EXPECT_TRUE(map.contains(kBase + 4096 + 99, 1));
  EXPECT_FALSE(map.covers(kBase + 4095, 1));
  EXPECT_FALSE(map.covers(kBase + 4096 + 100, 1));
  EXPECT_FALSE(map.covers(kBase + 4096, 101));
  EXPECT_EQ(map.bytesMapped(), 100u);
}

TEST(DeviceMemoryMap, OverlappingRangesAreRefused) {
  DeviceMemoryMap map(16 * kMiB);
  ASSERT_TRUE(map.map(kBase + 1000, 1000));
  EXPECT_FALSE(map.map(kBase + 1999, 10));  // its last byte
  EXPECT_FALSE(map.map(kBase + 500, 501));  // reaches its first byte
  EXPECT_FALSE(map.map(kBase, 1 * kMiB));   // encloses it
  EXPECT_TRUE(map.map(kBase + 2000, 10));   // adjacent is fine
  EXPECT_TRUE(map.map(kBase + 990, 10));
  EXPECT_EQ(map.bytesMapped(), 1020u);
}

TEST(DeviceMemoryMap, RangesOutsideTheApertureOrEmptyAreRefused) {
  DeviceMemoryMap map(16 * kMiB);
  EXPECT_FALSE(map.map(kBase - 256, 512));
  EXPECT_FALSE(map.map(kBase + 16 * kMiB - 256, 257));
  EXPECT_FALSE(map.map(kBase + 17 * kMiB, 256));
  EXPECT_FALSE(map.map(kBase, 0));
  EXPECT_FALSE(map.map(kBase + 256, ~uint64_t{0}));  // must not wrap
  EXPECT_TRUE(map.map(kBase + 16 * kMiB - 256, 256));
}

TEST(DeviceMemoryMap, AdjacentRangesCoverAnAccessAcrossThemButContainsDoesNot) {
  DeviceMemoryMap map(16 * kMiB);
  ASSERT_TRUE(map.map(kBase, 256));
  ASSERT_TRUE(map.map(kBase + 256, 256));
  EXPECT_TRUE(map.covers(kBase + 200, 100));
  EXPECT_FALSE(map.contains(kBase + 200, 100));
}

TEST(DeviceMemoryMap, UnmapForgetsTheRangeEvenRightAfterACoveredAccess) {
  DeviceMemoryMap map(16 * kMiB);
  ASSERT_TRUE(map.map(kBase, 4096));
  EXPECT_TRUE(map.covers(kBase + 8, 8));  // remembered as the last range
  EXPECT_FALSE(map.unmap(kBase + 8));     // not a range's base
  EXPECT_TRUE(map.unmap(kBase));
  EXPECT_FALSE(map.covers(kBase + 8, 8));
  EXPECT_FALSE(map.unmap(kBase));
  EXPECT_EQ(map.bytesMapped(), 0u);
  EXPECT_TRUE(map.map(kBase, 8192));  // and the addresses can be mapped again
}

}  // namespace
}  // namespace vgpu
