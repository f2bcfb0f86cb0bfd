// DeviceMemoryAllocator: host software's allocator over the device aperture (plain C++).
#include <gtest/gtest.h>

#include "runtime/DeviceMemoryAllocator.h"

namespace vgpu {
namespace {

constexpr uint64_t kMiB = 1ull << 20;

TEST(DeviceMemoryAllocator, FirstAllocationStartsAtBase) {
  DeviceMemoryAllocator map(16 * kMiB);
  const auto a = map.allocate(100);
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(*a, DeviceMemoryAllocator::kBase);
  EXPECT_EQ(*a, 0x1'0000'0000ull);
}

TEST(DeviceMemoryAllocator, SizesRoundUpTo256AndAllocationsDoNotOverlap) {
  DeviceMemoryAllocator map(16 * kMiB);
  const auto a = map.allocate(1);
  const auto b = map.allocate(257);
  const auto c = map.allocate(256);
  ASSERT_TRUE(a && b && c);
  EXPECT_EQ(*b, *a + 256);
  EXPECT_EQ(*c, *b + 512);
  EXPECT_EQ(map.find(*a)->size, 256u);
  EXPECT_EQ(map.find(*b)->size, 512u);
  EXPECT_EQ(map.bytesAllocated(), 256u + 512u + 256u);
}

TEST(DeviceMemoryAllocator, ZeroByteAllocationStillGetsItsOwnRange) {
  DeviceMemoryAllocator map(16 * kMiB);
  const auto a = map.allocate(0);
  const auto b = map.allocate(0);
  ASSERT_TRUE(a && b);
  EXPECT_NE(*a, *b);
  EXPECT_TRUE(map.contains(*a, 1));
}

TEST(DeviceMemoryAllocator, HonoursLargeAlignment) {
  DeviceMemoryAllocator map(64 * kMiB);
  const auto a = map.allocate(256);
  ASSERT_TRUE(a.has_value());
  const auto b = map.allocate(4096, 1 * kMiB);
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(*b % kMiB, 0u);
  EXPECT_EQ(*b, DeviceMemoryAllocator::kBase + kMiB);
  // The allocator may place c in the gap the alignment of b left; it must overlap neither.
  const auto c = map.allocate(256, 4096);
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(*c % 4096, 0u);
  EXPECT_TRUE(*c >= *a + 256 || *c + 256 <= *a);
  EXPECT_TRUE(*c >= *b + 4096 || *c + 256 <= *b);
}

TEST(DeviceMemoryAllocator, SmallAlignmentIsRaisedTo256) {
  DeviceMemoryAllocator map(16 * kMiB);
  ASSERT_TRUE(map.allocate(8, 1));
  const auto b = map.allocate(8, 4);
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(*b % 256, 0u);
}

TEST(DeviceMemoryAllocator, NonPowerOfTwoAlignmentIsRefused) {
  DeviceMemoryAllocator map(16 * kMiB);
  EXPECT_FALSE(map.allocate(256, 768).has_value());
  EXPECT_EQ(map.bytesAllocated(), 0u);
}

TEST(DeviceMemoryAllocator, ReleasedRangeIsReusedForSameSize) {
  DeviceMemoryAllocator map(16 * kMiB);
  const auto a = map.allocate(1024);
  const auto b = map.allocate(1024);
  ASSERT_TRUE(a && b);
  EXPECT_TRUE(map.release(*a));
  EXPECT_EQ(map.bytesAllocated(), 1024u);
  EXPECT_EQ(map.find(*a), nullptr);
  const auto c = map.allocate(1000);  // rounds up to 1024: the freed range fits exactly
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(*c, *a);
  EXPECT_EQ(map.bytesAllocated(), 2048u);
}

TEST(DeviceMemoryAllocator, ReleasedRangeIsNotHandedOutTwice) {
  DeviceMemoryAllocator map(16 * kMiB);
  const auto a = map.allocate(512);
  ASSERT_TRUE(a);
  ASSERT_TRUE(map.release(*a));
  const auto b = map.allocate(512);
  const auto c = map.allocate(512);
  ASSERT_TRUE(b && c);
  EXPECT_EQ(*b, *a);
  EXPECT_NE(*c, *b);
  EXPECT_FALSE(map.find(*c) == map.find(*b));
}

TEST(DeviceMemoryAllocator, FreedMemoryServesARequestOfAnotherSize) {
  // Everything was freed: a smaller request must not report the device as exhausted.
  DeviceMemoryAllocator map(4096);
  const auto a = map.allocate(4096);
  ASSERT_TRUE(a);
  ASSERT_TRUE(map.release(*a));
  EXPECT_EQ(map.bytesAllocated(), 0u);
  EXPECT_TRUE(map.allocate(2048).has_value());
}

TEST(DeviceMemoryAllocator, AdjacentFreedRangesServeALargerRequest) {
  DeviceMemoryAllocator map(4096);
  const auto a = map.allocate(2048);
  const auto b = map.allocate(2048);
  ASSERT_TRUE(a && b);
  ASSERT_TRUE(map.release(*a));
  ASSERT_TRUE(map.release(*b));
  EXPECT_TRUE(map.allocate(4096).has_value());
}

TEST(DeviceMemoryAllocator, ContainsAtBoundaries) {
  DeviceMemoryAllocator map(16 * kMiB);
  const uint64_t a = *map.allocate(512);
  EXPECT_TRUE(map.contains(a, 512));
  EXPECT_TRUE(map.contains(a, 1));
  EXPECT_TRUE(map.contains(a + 511, 1));
  EXPECT_TRUE(map.contains(a + 256, 256));
  EXPECT_FALSE(map.contains(a + 511, 2));  // one byte past the end
  EXPECT_FALSE(map.contains(a + 512, 1));
  EXPECT_FALSE(map.contains(a - 1, 1));
  EXPECT_FALSE(map.contains(a - 1, 2));  // starts before, ends inside
  EXPECT_FALSE(map.contains(a, 513));
  EXPECT_FALSE(map.contains(0, 4));
}

TEST(DeviceMemoryAllocator, ContainsRefusesRangesSpanningTwoAllocations) {
  DeviceMemoryAllocator map(16 * kMiB);
  const uint64_t a = *map.allocate(256);
  const uint64_t b = *map.allocate(256);
  ASSERT_EQ(b, a + 256);
  EXPECT_FALSE(map.contains(a + 128, 256));
}

TEST(DeviceMemoryAllocator, ContainsHugeLengthDoesNotWrap) {
  DeviceMemoryAllocator map(16 * kMiB);
  const uint64_t a = *map.allocate(256);
  EXPECT_FALSE(map.contains(a + 16, ~0ull - 8));
}

TEST(DeviceMemoryAllocator, FindReturnsTheAllocationHoldingAnAddress) {
  DeviceMemoryAllocator map(16 * kMiB);
  const uint64_t a = *map.allocate(256, 256, "a");
  const uint64_t b = *map.allocate(1024, 256, "b");
  const DeviceMemoryAllocator::Allocation* fa = map.find(a + 255);
  ASSERT_NE(fa, nullptr);
  EXPECT_EQ(fa->base, a);
  EXPECT_EQ(fa->size, 256u);
  EXPECT_EQ(fa->tag, "a");
  const DeviceMemoryAllocator::Allocation* fb = map.find(b + 1000);
  ASSERT_NE(fb, nullptr);
  EXPECT_EQ(fb->base, b);
  EXPECT_EQ(fb->tag, "b");
  EXPECT_EQ(map.find(b + 1024), nullptr);
  EXPECT_EQ(map.find(a - 1), nullptr);
  EXPECT_EQ(map.find(0), nullptr);
}

TEST(DeviceMemoryAllocator, ExhaustionReturnsNothing) {
  DeviceMemoryAllocator map(4096);
  const auto a = map.allocate(4096);
  ASSERT_TRUE(a.has_value());
  EXPECT_FALSE(map.allocate(1).has_value());
  EXPECT_EQ(map.bytesAllocated(), 4096u);
}

TEST(DeviceMemoryAllocator, TooLargeRequestReturnsNothingAndLeavesMapUsable) {
  DeviceMemoryAllocator map(8192);
  EXPECT_FALSE(map.allocate(8193).has_value());
  const auto a = map.allocate(8192);
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(*a, DeviceMemoryAllocator::kBase);
}

TEST(DeviceMemoryAllocator, HugeRequestDoesNotWrapToAnEmptyAllocation) {
  DeviceMemoryAllocator map(8192);
  // Rounding 2^64 - 17 up to 256 must not wrap around to a size of 0.
  EXPECT_FALSE(map.allocate(~0ull - 16).has_value());
  EXPECT_EQ(map.bytesAllocated(), 0u);
  EXPECT_EQ(map.find(DeviceMemoryAllocator::kBase), nullptr);
}

TEST(DeviceMemoryAllocator, AlignmentPaddingCountsAgainstCapacity) {
  DeviceMemoryAllocator map(8192);
  ASSERT_TRUE(map.allocate(256));
  // The next 8192-aligned address is kBase + 8192: no room left for 4096 bytes there.
  EXPECT_FALSE(map.allocate(4096, 8192).has_value());
}

TEST(DeviceMemoryAllocator, ReleaseOfUnknownBaseFails) {
  DeviceMemoryAllocator map(16 * kMiB);
  const uint64_t a = *map.allocate(512);
  EXPECT_FALSE(map.release(a + 256));  // inside, but not the base
  EXPECT_FALSE(map.release(0));
  EXPECT_FALSE(map.release(a + 4096));
  EXPECT_TRUE(map.contains(a, 512));
  EXPECT_EQ(map.bytesAllocated(), 512u);
}

TEST(DeviceMemoryAllocator, DoubleReleaseFails) {
  DeviceMemoryAllocator map(16 * kMiB);
  const uint64_t a = *map.allocate(512);
  EXPECT_TRUE(map.release(a));
  EXPECT_FALSE(map.release(a));
  EXPECT_EQ(map.bytesAllocated(), 0u);
}

TEST(DeviceMemoryAllocator, CapacityIsReported) {
  DeviceMemoryAllocator map(16 * kMiB);
  EXPECT_EQ(map.capacity(), 16 * kMiB);
}

}  // namespace
}  // namespace vgpu
