// Set-associative tag array with LRU replacement: decides hit or miss, holds no data.
// The data of every access still travels to DRAM over TLM (see Cache.h for why).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace vgpu {

class CacheTags {
 public:
  CacheTags(uint32_t sizeBytes, uint32_t lineBytes, uint32_t ways)
      : lineBytes_(lineBytes), ways_(ways ? ways : 1) {
    sets_ = sizeBytes / lineBytes / ways_;
    if (sets_ == 0) sets_ = 1;
    setMask_ = (sets_ & (sets_ - 1)) == 0 ? sets_ - 1 : 0;
    fingerprintStride_ = (ways_ + 15) / 16 * 16;
    tags_.assign(static_cast<size_t>(sets_) * ways_, kInvalid);
    lastUse_.assign(tags_.size(), 0);
    dirty_.assign(tags_.size(), 0);
    readyAt_.assign(tags_.size(), 0);
    fingerprints_.assign(static_cast<size_t>(sets_) * fingerprintStride_, 0);
    recency_.assign(sets_, 0);
    unused_.assign(sets_, 0);
    invalidateAll();
  }

  struct Outcome {
    bool hit = false;
    size_t way = kNoWay;        // the line's slot (hit or newly installed), for readyAt/setReadyAt
    bool evictedDirty = false;  // a dirty line was evicted to make room: it must be written back
    uint64_t evictedAddress = 0;
  };
  // Looks up the line holding addr; on a miss with allocate, installs it (evicting LRU).
  // markDirty sets the line's dirty bit (write-back caches).
  [[gnu::always_inline]] Outcome lookup(uint64_t addr, bool allocate, bool markDirty = false) {
    const uint64_t line = addr / lineBytes_;
    const size_t setIndex = setOf(line);
    const size_t set = setIndex * ways_;
    ++clock_;
    Outcome out;
    // The tags alone first (a hit needs nothing else), the replacement order only on a miss.
    if (ways_ <= kNarrowWays) {
      for (size_t w = set; w < set + ways_; ++w) {
        if (tags_[w] != line) continue;
        lastUse_[w] = clock_;
        if (markDirty) dirty_[w] = 1;
        out.hit = true;
        out.way = w;
        return out;
      }
      if (allocate) install(out, setIndex, line, 0, markDirty);
      return out;
    }
    // Wider sets: a one-byte fingerprint per way picks the candidates, whose full tags decide.
    const uint8_t print = fingerprint(line);
    for (uint32_t group = 0;;) {
      for (uint32_t candidates = matches(setIndex, group, print); candidates != 0;
           candidates &= candidates - 1) {
        const size_t w = set + group + static_cast<size_t>(__builtin_ctz(candidates));
        if (tags_[w] != line) continue;
        touch(setIndex, w - set);
        if (markDirty) dirty_[w] = 1;
        out.hit = true;
        out.way = w;
        return out;
      }
      group += 16;
      if (group >= ways_) break;
    }
    if (allocate) install(out, setIndex, line, print, markDirty);
    return out;
  }
  bool access(uint64_t addr, bool allocate) { return lookup(addr, allocate).hit; }

  // When the line in `way` holds its data (its fill completes), in picoseconds. A loosely-timed
  // cache installs a tag when the miss is sent; a later hit must not return before the fill.
  uint64_t readyAt(size_t way) const { return readyAt_[way]; }
  void setReadyAt(size_t way, uint64_t ps) { readyAt_[way] = ps; }
  static constexpr size_t kNoWay = ~size_t{0};
  void invalidate(uint64_t addr) {
    const uint64_t line = addr / lineBytes_;
    const size_t setIndex = setOf(line);
    const size_t set = setIndex * ways_;
    for (size_t w = set; w < set + ways_; ++w)
      if (tags_[w] == line) {
        tags_[w] = kInvalid, lastUse_[w] = 0, dirty_[w] = 0;
        if (ordered()) unused_[setIndex] |= uint16_t(1u << (w - set));
      }
  }
  void invalidateAll() {
    std::fill(tags_.begin(), tags_.end(), kInvalid);
    std::fill(lastUse_.begin(), lastUse_.end(), 0);
    std::fill(dirty_.begin(), dirty_.end(), 0);
    // Every way unused; the recency order of unused ways does not matter (see touch()).
    std::fill(unused_.begin(), unused_.end(),
              ordered() ? uint16_t((1u << ways_) - 1) : uint16_t{0});
    uint64_t order = 0;
    for (uint32_t w = 0; w < std::min(ways_, kOrderedWays); ++w) order |= uint64_t{w} << (4 * w);
    std::fill(recency_.begin(), recency_.end(), order);
  }
  uint32_t lineBytes() const { return lineBytes_; }

 private:
  static constexpr uint64_t kInvalid = ~0ull;
  // Sets of up to this many ways compare every tag and find the least recently used way by its
  // last use: as quick as anything for so few, and a hit costs one store.
  static constexpr uint32_t kNarrowWays = 4;
  // Wider sets of up to this many ways keep their recency order as a list of 4-bit way numbers
  // (still wider ones by last use).
  static constexpr uint32_t kOrderedWays = 16;
  bool ordered() const { return ways_ > kNarrowWays && ways_ <= kOrderedWays; }

  size_t setOf(uint64_t line) const {
    return static_cast<size_t>(setMask_ != 0 || sets_ == 1 ? line & setMask_ : line % sets_);
  }
  static uint8_t fingerprint(uint64_t line) {
    return static_cast<uint8_t>((line * 0x9E3779B97F4A7C15ull) >> 56);
  }
  // The ways of [group, group + 16) of the set whose fingerprint is `print`, as a bit mask.
  uint32_t matches(size_t setIndex, uint32_t group, uint8_t print) const {
    const uint8_t* prints = &fingerprints_[setIndex * fingerprintStride_ + group];
    const uint32_t ways = std::min<uint32_t>(16, ways_ - group);
    const uint32_t valid = ways == 16 ? 0xffffu : (1u << ways) - 1;
#if defined(__SSE2__)
    const __m128i row = _mm_loadu_si128(reinterpret_cast<const __m128i*>(prints));
    const __m128i equal = _mm_cmpeq_epi8(row, _mm_set1_epi8(static_cast<char>(print)));
    return static_cast<uint32_t>(_mm_movemask_epi8(equal)) & valid;
#else
    uint32_t mask = 0;
    for (uint32_t w = 0; w < ways; ++w) mask |= uint32_t{prints[w] == print} << w;
    return mask & valid;
#endif
  }
  // A miss that allocates: the least recently used way of the set takes the line.
  [[gnu::noinline]] void install(Outcome& out, size_t setIndex, uint64_t line, uint8_t print,
                                 bool markDirty) {
    const size_t set = setIndex * ways_;
    const size_t victim = set + leastRecentlyUsed(setIndex);
    if (tags_[victim] != kInvalid && dirty_[victim]) {
      out.evictedDirty = true;
      out.evictedAddress = tags_[victim] * lineBytes_;
    }
    tags_[victim] = line;
    if (ways_ > kNarrowWays) fingerprints_[setIndex * fingerprintStride_ + (victim - set)] = print;
    touch(setIndex, victim - set);
    dirty_[victim] = markDirty ? 1 : 0;
    readyAt_[victim] = 0;
    out.way = victim;
  }
  // Way `w` (of its set) was just used.
  void touch(size_t setIndex, size_t w) {
    if (!ordered()) {
      lastUse_[setIndex * ways_ + w] = clock_;
      return;
    }
    unused_[setIndex] &= static_cast<uint16_t>(~(1u << w));
    // Move w to the front of the recency list (most recent first): find its nibble, shift the
    // ones before it back by one.
    uint64_t& order = recency_[setIndex];
    const uint64_t x = order ^ (w * 0x1111111111111111ull);  // w's nibble becomes zero
    const uint64_t zero = (x - 0x1111111111111111ull) & ~x & 0x8888888888888888ull;
    const auto at = static_cast<uint32_t>(__builtin_ctzll(zero)) / 4;  // the lowest zero nibble
    const uint64_t before = at == 0 ? 0 : order & (~0ull >> (64 - 4 * at));
    const uint64_t after = at == 15 ? 0 : order & (~0ull << (4 * at + 4));
    order = after | before << 4 | w;
  }
  // The least recently used way of the set (the first of the never or no longer used ones).
  size_t leastRecentlyUsed(size_t setIndex) const {
    if (ordered()) {
      if (unused_[setIndex] != 0) return static_cast<size_t>(__builtin_ctz(unused_[setIndex]));
      return static_cast<size_t>(recency_[setIndex] >> (4 * (ways_ - 1)) & 0xf);
    }
    const size_t set = setIndex * ways_;
    size_t victim = set;  // the least recently used way (the first of equals)
    for (size_t w = set + 1; w < set + ways_; ++w)
      if (lastUse_[w] < lastUse_[victim]) victim = w;
    return victim - set;
  }

  uint32_t lineBytes_, ways_, sets_;
  uint64_t setMask_ = 0;  // sets_ - 1 when sets_ is a power of two, else 0
  uint32_t fingerprintStride_ = 16;
  std::vector<uint64_t> tags_;
  std::vector<uint64_t> lastUse_;  // by way, when last used (sets not ordered())
  std::vector<uint8_t> dirty_;     // bytes, not std::vector<bool>: read on every hit
  std::vector<uint64_t> readyAt_;
  // By way, a byte of its line's hash (rows of fingerprintStride_ per set, padded with zeros
  // that the valid-way mask ignores).
  std::vector<uint8_t> fingerprints_;
  // By set (ordered() only): its ways from most to least recently used, 4 bits each, and which
  // ways are unused (never used, or invalidated): those are the first victims.
  std::vector<uint64_t> recency_;
  std::vector<uint16_t> unused_;
  uint64_t clock_ = 0;
};

}  // namespace vgpu
