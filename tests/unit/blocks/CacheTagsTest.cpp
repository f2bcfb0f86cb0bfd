// CacheTags: set-associative tags with LRU replacement (plain C++).
#include <gtest/gtest.h>
#include <algorithm>
#include <cstdint>
#include <list>
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

TEST(CacheTags, SetsAndLinesThatAreNotPowersOfTwoIndexByDivision) {
  // 3 sets of 2 ways of 48-byte lines (288 bytes): address a is line a / 48, in set
  // (a / 48) % 3, worked out by hand below. Shifts and masks would put 0x60 (line 2) in set 0.
  CacheTags tags(288, 48, 2);
  EXPECT_FALSE(tags.access(0, true));       // line 0, set 0
  EXPECT_TRUE(tags.access(47, true));       // still line 0
  EXPECT_FALSE(tags.access(48, true));      // line 1, set 1
  EXPECT_FALSE(tags.access(0x60, true));    // line 2, set 2
  EXPECT_FALSE(tags.access(3 * 48, true));  // line 3, set 0: the set's second way
  EXPECT_FALSE(tags.access(6 * 48, true));  // line 6, set 0: evicts line 0 (least recent)
  EXPECT_TRUE(tags.access(48, true));       // line 1 and line 2 untouched by set 0's misses
  EXPECT_TRUE(tags.access(0x60 + 47, true));
  EXPECT_FALSE(tags.access(0, true));  // line 0 was evicted
  tags.invalidate(48 + 10);            // line 1
  EXPECT_FALSE(tags.access(48, false));
}

TEST(CacheTags, TagsThatDifferOnlyAboveTheirLow32BitsAreDifferentLines) {
  // 2 sets of 2 ways: the tag is the line number above the set bit, address / 128. kFar's tag
  // is kA's plus 2^32 (the tag's low halves are equal), as a host address of system memory
  // reached through a vector L1 can be; each must miss the other's line and hit its own.
  constexpr uint64_t kFar = kA + (uint64_t{1} << 32) * 128;
  CacheTags tags(256, 64, 2);
  EXPECT_FALSE(tags.lookup(kA, true, true).hit);
  EXPECT_FALSE(tags.access(kFar, true));
  EXPECT_TRUE(tags.access(kA, true));
  EXPECT_TRUE(tags.access(kFar, true));
  tags.invalidate(kFar);
  EXPECT_TRUE(tags.access(kA, false));
  EXPECT_FALSE(tags.access(kFar, false));
  // The dirty line kA, evicted by two further lines of set 0, is written back at its address.
  EXPECT_FALSE(tags.access(kFar, true));
  const CacheTags::Outcome o = tags.lookup(kB, true);
  EXPECT_FALSE(o.hit);
  EXPECT_TRUE(o.evictedDirty);
  EXPECT_EQ(o.evictedAddress, kA);
}

TEST(CacheTags, AFirstLineAboveTheLow32BitsOfTagsIsWrittenBackAtItsAddress) {
  // The first line installed is a far one (only its tag's high half is set), dirty; a device
  // line of equal low half comes next. Evicting the far line reports its own address.
  constexpr uint64_t kFar = (uint64_t{3} << 32) * 128 + 0x40;  // set 1
  CacheTags tags(256, 64, 2);
  EXPECT_FALSE(tags.lookup(kFar, true, true).hit);
  EXPECT_FALSE(tags.access(0x40, true));  // set 1, tag 0: the same low half
  EXPECT_TRUE(tags.access(kFar, false));
  EXPECT_TRUE(tags.access(0x40, false));
  const CacheTags::Outcome o = tags.lookup(0x40 + 128, true);  // set 1: evicts kFar (older)
  EXPECT_TRUE(o.evictedDirty);
  EXPECT_EQ(o.evictedAddress, kFar);
}

TEST(CacheTags, LineZeroIsCacheable) {
  CacheTags tags(256, 64, 2);
  EXPECT_FALSE(tags.access(0, true));
  EXPECT_TRUE(tags.access(0, true));
}

// Least recently used by definition: per set, a list of lines from the most to the least
// recently used, at most `ways` long.
class ReferenceLru {
 public:
  ReferenceLru(uint32_t sets, uint32_t ways) : sets_(sets), ways_(ways), lines_(sets) {}
  // Whether the line hits; on a miss the line is installed, and `evicted` is the line it
  // replaced (or ~0). A write makes the line dirty until it is evicted; `evictedDirty` says
  // whether the evicted line was.
  bool access(uint64_t line, bool write, uint64_t& evicted, bool& evictedDirty) {
    std::list<std::pair<uint64_t, bool>>& set = lines_[line % sets_];
    evicted = ~uint64_t{0};
    evictedDirty = false;
    const auto it =
        std::find_if(set.begin(), set.end(), [&](const auto& l) { return l.first == line; });
    if (it != set.end()) {
      it->second = it->second || write;
      set.splice(set.begin(), set, it);
      return true;
    }
    if (set.size() == ways_) {
      evicted = set.back().first;
      evictedDirty = set.back().second;
      set.pop_back();
    }
    set.push_front({line, write});
    return false;
  }
  // The line is no longer held (its set keeps the others' order).
  void invalidate(uint64_t line) {
    lines_[line % sets_].remove_if([&](const auto& l) { return l.first == line; });
  }

 private:
  uint32_t sets_, ways_;
  std::vector<std::list<std::pair<uint64_t, bool>>> lines_;
};

// A read or write of `line` (allocating) on both: whether the tags hit, evict a dirty line and
// name its address as the reference does. Counts the write-backs.
::testing::AssertionResult sameAsReference(CacheTags& tags, ReferenceLru& reference, uint64_t line,
                                           uint32_t lineBytes, bool write, int& writeBacks) {
  uint64_t evicted;
  bool evictedDirty;
  const bool hit = reference.access(line, write, evicted, evictedDirty);
  const CacheTags::Outcome o = tags.lookup(line * lineBytes, true, write);
  if (o.hit != hit) return ::testing::AssertionFailure() << "hit " << o.hit << ", expected " << hit;
  if (o.evictedDirty != evictedDirty)
    return ::testing::AssertionFailure()
           << "dirty eviction " << o.evictedDirty << ", expected " << evictedDirty;
  if (o.evictedDirty) {
    if (o.evictedAddress != evicted * lineBytes)
      return ::testing::AssertionFailure() << "wrote back 0x" << std::hex << o.evictedAddress
                                           << ", expected 0x" << evicted * lineBytes;
    ++writeBacks;
  }
  return ::testing::AssertionSuccess();
}

TEST(CacheTags, ReplacementDirtyLinesAndInvalidationFollowLeastRecentlyUsed) {
  // Each way has an 8-bit recency rank, rewritten on every use and closed up when a line is
  // invalidated (an atomic drops its line from the vector L1): 60,000 random lookups over 8
  // sets (two in three of them writes, one in sixteen an invalidation instead) must hit,
  // miss, evict and write back exactly as least-recently-used replacement with a dirty bit
  // per line does, for the vector L1's 4 ways, the L2's 16 and 64 (past what the 16- and 32-way
  // searches take). A rank that crept up with every
  // invalidation would reach the unused rank and evict a line held before an empty way.
  constexpr uint32_t kSets = 8, kLine = 64;
  for (const uint32_t ways : {4u, 16u, 64u}) {
    CacheTags tags(kSets * ways * kLine, kLine, ways);
    ReferenceLru reference(kSets, ways);
    std::mt19937_64 random(ways);
    int writeBacks = 0, invalidations = 0;
    for (int n = 0; n < 60000; ++n) {
      const uint64_t line = random() % (kSets * ways * 3);  // three times what fits
      if (random() % 16 == 0) {
        reference.invalidate(line);
        tags.invalidate(line * kLine);
        ++invalidations;
        continue;
      }
      ASSERT_TRUE(sameAsReference(tags, reference, line, kLine, random() % 3 != 0, writeBacks))
          << "ways " << ways << " lookup " << n;
    }
    EXPECT_GT(writeBacks, 10000);  // the comparison saw clean and dirty evictions alike
    EXPECT_GT(invalidations, 3000);
  }
}

TEST(CacheTags, ALineKeptThroughManyInvalidationsOfOthersStaysHeld) {
  // One set of 4 ways holding A; then 300 times a line is brought into an empty way and
  // invalidated again (as atomics do to the vector L1). A must stay the least recently used
  // line *held*, not look like an empty way: filling the three empty ways must not evict it.
  CacheTags tags(256, 64, 4);  // 1 set
  const uint64_t a = 0x0, x = 0x1000, b = 0x2000, c = 0x3000, d = 0x4000;
  EXPECT_FALSE(tags.access(a, true));
  for (int n = 0; n < 300; ++n) {
    ASSERT_FALSE(tags.access(x, true)) << n;
    tags.invalidate(x);
  }
  EXPECT_FALSE(tags.access(b, true));
  EXPECT_FALSE(tags.access(c, true));
  EXPECT_FALSE(tags.access(d, true));
  EXPECT_TRUE(tags.access(a, false));  // still held: the three went into the empty ways
  // The set is full now: x evicts b, the least recently used since a's use.
  EXPECT_FALSE(tags.access(x, true));
  EXPECT_FALSE(tags.access(b, false));
}

TEST(CacheTags, LinesWhosePartialTagsMatchAreStillDifferentLines) {
  // A set's block holds 16 bits of each way's tag; lines equal in those bits (tags 2^16
  // apart) must not hit on one another, and either may be evicted.
  CacheTags tags(256, 64, 2);  // 2 sets: the tag is address / 128
  const uint64_t a = 0x1000, b = a + (uint64_t{1} << 16) * 128, c = a + (uint64_t{2} << 16) * 128;
  EXPECT_FALSE(tags.access(a, true));
  EXPECT_FALSE(tags.access(b, true));
  EXPECT_TRUE(tags.access(a, true));
  EXPECT_TRUE(tags.access(b, true));
  EXPECT_FALSE(tags.access(c, true));  // evicts a, the least recently used
  EXPECT_FALSE(tags.access(a, false));
  EXPECT_TRUE(tags.access(b, false));
  EXPECT_TRUE(tags.access(c, false));
}

TEST(CacheTags, LinesFromFarApartRangesFollowLeastRecentlyUsedBeforeAndAfterTheTagsWiden) {
  // While every line held shares its tag's bits above the low 16, the tags keep only those 16
  // bits; the first line from elsewhere makes them keep whole line numbers. 40,000 random
  // lookups (writes and invalidations among them) first within one range of lines, then over
  // four ranges 2^20 lines apart, then, after invalidateAll, over one range again: hits,
  // evictions and written-back addresses must be least-recently-used's throughout.
  // For the L2's 16 ways and for 64 (past what the 16- and 32-way searches take).
  constexpr uint32_t kSets = 8, kLine = 64;
  for (const uint32_t ways : {16u, 64u}) {
    CacheTags tags(kSets * ways * kLine, kLine, ways);
    std::mt19937_64 random(3);
    for (int phase = 0; phase < 3; ++phase) {
      ReferenceLru reference(kSets, ways);
      if (phase == 2) tags.invalidateAll();
      const uint64_t ranges = phase == 1 ? 4 : 1;
      const uint64_t base = phase == 2 ? uint64_t{7} << 30 : 0;  // another range than phase 0's
      int writeBacks = 0;
      for (int n = 0; n < 40000; ++n) {
        const uint64_t line =
            base + (random() % ranges) * (uint64_t{1} << 20) + random() % (kSets * ways * 3);
        if (random() % 16 == 0) {
          reference.invalidate(line);
          tags.invalidate(line * kLine);
          continue;
        }
        ASSERT_TRUE(sameAsReference(tags, reference, line, kLine, random() % 3 != 0, writeBacks))
            << ways << " ways, phase " << phase << " lookup " << n;
      }
      EXPECT_GT(writeBacks, 5000) << ways << " ways, phase " << phase;
      if (phase == 0) tags.invalidateAll();  // phase 1 starts empty, as its reference does
    }
  }
}

TEST(CacheTags, AHitWaitsForItsLinesFillOnlyWhileTheFillIsAhead) {
  CacheTags tags(256, 64, 2);
  const CacheTags::Outcome miss = tags.lookup(kA, true);
  ASSERT_FALSE(miss.hit);
  EXPECT_EQ(tags.fillDone(miss, 0), 0u);  // no fill recorded: nothing to wait for
  tags.filling(miss, 5000);
  const CacheTags::Outcome hit = tags.lookup(kA, true);
  ASSERT_TRUE(hit.hit);
  EXPECT_EQ(hit.way, miss.way);
  EXPECT_EQ(tags.fillDone(hit, 4999), 5000u);  // SystemC time before the fill: wait
  EXPECT_EQ(tags.fillDone(hit, 4999), 5000u);  // asked again, still ahead
  EXPECT_EQ(tags.fillDone(hit, 5000), 0u);     // done by then
  EXPECT_EQ(tags.fillDone(hit, 0), 0u);        // and forgotten
  // A new line in the way starts with no fill of its own pending.
  const CacheTags::Outcome other = tags.lookup(kOdd, true);
  tags.filling(other, 9000);
  EXPECT_NE(other.way, hit.way);
  EXPECT_EQ(tags.fillDone(other, 100), 9000u);
  EXPECT_EQ(tags.fillDone(hit, 100), 0u);  // the set-0 line is unaffected
  tags.filling(hit, 7000);                 // kA's line is being filled again
  tags.lookup(kB, true);
  const CacheTags::Outcome evicting = tags.lookup(kC, true);  // set 0, replaces kA's way
  ASSERT_FALSE(evicting.hit);
  ASSERT_EQ(evicting.way, hit.way);
  EXPECT_EQ(tags.fillDone(evicting, 0), 0u);
}

}  // namespace
}  // namespace vgpu
