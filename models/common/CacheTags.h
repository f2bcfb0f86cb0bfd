// Set-associative tag array with LRU replacement: decides hit or miss, holds no data.
// The data of every access still travels to DRAM over TLM (see Cache.h for why).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

#include "common/Divisor.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace vgpu {

class CacheTags {
 public:
  CacheTags(uint32_t sizeBytes, uint32_t lineBytes, uint32_t ways)
      : ways_(std::clamp<uint32_t>(ways, 1, kMaxWays)),
        line_(lineBytes),
        set_(std::max<uint64_t>(1, uint64_t{sizeBytes} / lineBytes / ways_)),
        blockBytes_(4 * size_t{ways_}),
        blocks_(static_cast<uint8_t*>(
            ::operator new (set_.value() * blockBytes_ + 64, std::align_val_t{64}))),
        entries_(set_.value() * ways_) {
    std::memset(blocks_.get(), 0, set_.value() * blockBytes_ + 64);  // the padding too
    invalidateAll();
#if defined(__SSE2__)
    if (ways_ <= 16) {
      waysMask_ = (uint32_t{1} << ways_) - 1;
      uint8_t beyond[16];
      for (uint32_t w = 0; w < 16; ++w) beyond[w] = w < ways_ ? 0 : 0xff;
      beyondWays_ = _mm_loadu_si128(reinterpret_cast<const __m128i*>(beyond));
    }
#endif
  }
  // Recency ranks are 8-bit and compared signed (see Block): at most this many ways (the
  // platform refuses more; the constructor clamps).
  static constexpr uint32_t kMaxWays = 126;

  struct Outcome {
    bool hit = false;
    size_t way = kNoWay;        // the line's slot (hit or newly installed), for readyAt/setReadyAt
    bool evictedDirty = false;  // a dirty line was evicted to make room: it must be written back
    uint64_t evictedAddress = 0;
  };
  // Looks up the line holding addr; on a miss with allocate, installs it (evicting LRU).
  // markDirty sets the line's dirty bit (write-back caches).
  [[gnu::always_inline]] Outcome lookup(uint64_t addr, bool allocate, bool markDirty = false) {
    const uint64_t line = line_.quotient(addr);
    const size_t set = static_cast<size_t>(set_.remainder(line));
    const uint16_t partial = partialTag(line);
    Block b = block(set);
    const size_t first = set * ways_;
    Outcome out;
    // The set's block first (partial tags, ranks, flags: one host cache line for 16 ways); a
    // way's full tag only where its partial tag matches.
    if (const uint32_t w = find(b, partial, line, first); w != kNotFound) {
      use(b, w);
      if (markDirty) b.flags[w] |= kDirty;
      out.hit = true;
      out.way = first + w;
      return out;
    }
    if (!allocate) return out;
    const uint32_t victim = leastRecentlyUsed(b);
    Entry& e = entries_[first + victim];
    if ((b.flags[victim] & (kValid | kDirty)) == (kValid | kDirty)) {
      out.evictedDirty = true;
      out.evictedAddress = e.line * line_.value();
    }
    e.line = line;
    e.readyAt = 0;
    b.partials[victim] = partial;
    b.flags[victim] = static_cast<uint8_t>(kValid | (markDirty ? kDirty : 0));
    use(b, victim);
    out.way = first + victim;
    return out;
  }
  bool access(uint64_t addr, bool allocate) {
    return lookup(addr, allocate).hit;
  }

  // When the line in `way` holds its data (its fill completes), in picoseconds. A loosely-timed
  // cache installs a tag when the miss is sent; a later hit must not return before the fill.
  uint64_t readyAt(size_t way) const {
    return entries_[way].readyAt;
  }
  void setReadyAt(size_t way, uint64_t ps) {
    entries_[way].readyAt = ps;
  }
  static constexpr size_t kNoWay = ~size_t{0};
  void invalidate(uint64_t addr) {
    const uint64_t line = line_.quotient(addr);
    const size_t set = static_cast<size_t>(set_.remainder(line));
    Block b = block(set);
    const uint32_t w = find(b, partialTag(line), line, set * ways_);
    if (w == kNotFound) return;
    // The lines used before it close the gap its rank leaves: the ranks of the lines held stay
    // 0, 1, 2, ... (else repeated invalidations would push an unused line's rank to kUnused).
    for (uint32_t k = 0; k < ways_; ++k)
      if (b.ranks[k] != kUnused && b.ranks[k] > b.ranks[w]) --b.ranks[k];
    b.flags[w] = 0;
    b.ranks[w] = kUnused;
  }
  void invalidateAll() {
    for (size_t set = 0; set < set_.value(); ++set) {
      const Block b = block(set);
      std::fill_n(b.ranks, ways_, kUnused);
      std::fill_n(b.flags, ways_, uint8_t{0});
    }
  }
  uint32_t lineBytes() const {
    return static_cast<uint32_t>(line_.value());
  }

 private:
  static constexpr uint8_t kValid = 1, kDirty = 2;
  static constexpr uint8_t kUnused = 127;  // the rank of a way holding no line
  // What a hit needs of a set is in its block: per way a partial tag (16 bits of the line
  // number above the set), a recency rank (0: the most recently used line, 1: the one before,
  // ...; kUnused: none held) and flags. The ways' full tags and fill times are apart, read only
  // for a way whose partial tag matches. Behind 60 CUs an L2's tag state no longer stays in the
  // host's cache: a lookup used to read the set's 16 full tags (two host lines), their last-use
  // counts (a third) and the way's fill time (a fourth); now it reads the block and one way's
  // entry (host cache misses of a 60-CU pointer chase: 17 % fewer).
  struct Block {
    uint16_t* partials;
    uint8_t* ranks;
    uint8_t* flags;
  };
  struct Entry {
    uint64_t line;     // the line number (address / line size)
    uint64_t readyAt;  // ps: when its fill completes
  };
  Block block(size_t set) {
    uint8_t* p = blocks_.get() + set * blockBytes_;
    return {reinterpret_cast<uint16_t*>(p), p + 2 * ways_, p + 3 * ways_};
  }
  uint16_t partialTag(uint64_t line) const {
    return static_cast<uint16_t>(set_.quotient(line));
  }
  static constexpr uint32_t kNotFound = ~uint32_t{0};
  // The valid way holding `line` (whose partial tag is `partial`), or kNotFound.
  uint32_t find(const Block& b, uint16_t partial, uint64_t line, size_t first) const {
    if (ways_ <= 32) {
      for (uint32_t candidates = matching(b, partial); candidates != 0;
           candidates &= candidates - 1) {
        const auto w = static_cast<uint32_t>(__builtin_ctz(candidates));
        if (entries_[first + w].line == line) return w;
      }
      return kNotFound;
    }
    for (uint32_t w = 0; w < ways_; ++w)
      if (b.partials[w] == partial && (b.flags[w] & kValid) && entries_[first + w].line == line)
        return w;
    return kNotFound;
  }
  // The valid ways whose partial tag is `partial`, a bit each (up to 32 ways).
  uint32_t matching(const Block& b, uint16_t partial) const {
#if defined(__SSE2__)
    if (ways_ <= 16) {
      // 16 ways at once: the block is padded so that reading 16 of each past a smaller set's
      // ways stays inside the allocation; the mask drops them.
      const __m128i p = _mm_set1_epi16(static_cast<short>(partial));
      const __m128i low =
          _mm_cmpeq_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(b.partials)), p);
      const __m128i high =
          _mm_cmpeq_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(b.partials + 8)), p);
      const __m128i one = _mm_set1_epi8(kValid);
      const __m128i flags = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b.flags));
      const __m128i valid = _mm_cmpeq_epi8(_mm_and_si128(flags, one), one);
      const auto mask = static_cast<uint32_t>(
          _mm_movemask_epi8(_mm_and_si128(_mm_packs_epi16(low, high), valid)));
      return mask & waysMask_;
    }
#endif
    uint32_t mask = 0;
    for (uint32_t w = 0; w < ways_; ++w)
      mask |= static_cast<uint32_t>(b.partials[w] == partial && (b.flags[w] & kValid)) << w;
    return mask;
  }
  // The way to replace: the first holding no line, else the least recently used (the largest
  // rank either way).
  uint32_t leastRecentlyUsed(const Block& b) const {
#if defined(__SSE2__)
    if (ways_ <= 16) {
      // The bytes past the set's ways read as 0 (never the largest, unless 1 way: then way 0).
      const __m128i ranks =
          _mm_andnot_si128(beyondWays_, _mm_loadu_si128(reinterpret_cast<const __m128i*>(b.ranks)));
      __m128i m = _mm_max_epu8(ranks, _mm_srli_si128(ranks, 8));
      m = _mm_max_epu8(m, _mm_srli_si128(m, 4));
      m = _mm_max_epu8(m, _mm_srli_si128(m, 2));
      m = _mm_max_epu8(m, _mm_srli_si128(m, 1));
      const __m128i largest = _mm_set1_epi8(static_cast<char>(_mm_cvtsi128_si32(m)));
      return static_cast<uint32_t>(__builtin_ctz(
          static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(ranks, largest))) | 0x10000u));
    }
#endif
    uint32_t victim = 0;  // the first of equals
    for (uint32_t w = 1; w < ways_; ++w)
      if (b.ranks[w] > b.ranks[victim]) victim = w;
    return victim;
  }
  // Way w becomes the most recently used of its set: the ways used more recently than it move
  // down a rank.
  void use(Block& b, uint32_t w) {
    const uint8_t rank = b.ranks[w];
#if defined(__SSE2__)
    if (ways_ <= 16) {
      // 16 bytes are written back: those past the set's ways (its flags, the next set's
      // partial tags) unchanged, as the mask leaves them.
      __m128i* const p = reinterpret_cast<__m128i*>(b.ranks);
      const __m128i ranks = _mm_loadu_si128(p);
      const __m128i newer = _mm_andnot_si128(
          beyondWays_, _mm_cmplt_epi8(ranks, _mm_set1_epi8(static_cast<char>(rank))));
      _mm_storeu_si128(p, _mm_sub_epi8(ranks, newer));  // + 1 where newer
      b.ranks[w] = 0;
      return;
    }
#endif
    for (uint32_t k = 0; k < ways_; ++k)
      if (b.ranks[k] < rank) ++b.ranks[k];
    b.ranks[w] = 0;
  }

  uint32_t ways_;
  // The line size and the number of sets: shifts and masks when powers of two.
  Divisor line_, set_;
  size_t blockBytes_;  // 4 bytes per way
  struct AlignedDelete {
    void operator()(uint8_t* p) const { ::operator delete (p, std::align_val_t{64}); }
  };
  std::unique_ptr<uint8_t[], AlignedDelete> blocks_;  // the sets' blocks, 64-byte aligned
  std::vector<Entry> entries_;
#if defined(__SSE2__)
  uint32_t waysMask_ = 0;  // a bit per way (up to 16)
  __m128i beyondWays_{};   // 0xff in the bytes past the ways (up to 16)
#endif
};

}  // namespace vgpu
