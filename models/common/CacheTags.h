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
        fillTimes_(set_.value() * ways_, 0) {
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

  // Left uninitialised where declared (a cache keeps one per line of an access): lookup sets
  // every field.
  struct Outcome {
    bool hit;
    bool evictedDirty;        // a dirty line was evicted to make room: it must be written back
    size_t way;               // the line's slot (hit or newly installed), for fillDone/filling
    uint8_t* flags;           // the slot's flags
    uint64_t evictedAddress;  // of the dirty line evicted
  };
  // Looks up the line holding addr; on a miss with allocate, installs it (evicting LRU).
  // markDirty sets the line's dirty bit (write-back caches).
  [[gnu::always_inline]] Outcome lookup(uint64_t addr, bool allocate, bool markDirty = false) {
    const uint64_t line = line_.quotient(addr);
    const size_t set = static_cast<size_t>(set_.remainder(line));
    const uint64_t tag = set_.quotient(line);
    Block b = block(set);
    Outcome out{false, false, kNoWay, nullptr, 0};
    // Only the set's block (16-bit tags, ranks, flags: one host cache line for 16 ways) while
    // every line held shares its tag's upper bits; a way's full line number otherwise.
    if (const uint32_t w = find(b, tag, line, set); w != kNotFound) {
      use(b, w);
      if (markDirty) b.flags[w] |= kDirty;
      out.hit = true;
      out.way = slotOf(set, w);
      out.flags = &b.flags[w];
      return out;
    }
    if (!allocate) return out;
    const uint32_t victim = leastRecentlyUsed(b);
    if ((b.flags[victim] & (kValid | kDirty)) == (kValid | kDirty)) {
      out.evictedDirty = true;
      out.evictedAddress = lineHeld(b, set, victim) * line_.value();
    }
    if (!wide_) {
      if (!windowChosen_) {
        window_ = tag >> kPartialBits;
        windowChosen_ = true;
      } else if ((tag >> kPartialBits) != window_) {
        goWide();
      }
    }
    if (wide_) lines_[slotOf(set, victim)] = line;
    b.partials[victim] = static_cast<uint16_t>(tag);
    b.flags[victim] = static_cast<uint8_t>(kValid | (markDirty ? kDirty : 0));
    use(b, victim);
    out.way = slotOf(set, victim);
    out.flags = &b.flags[victim];
    return out;
  }
  bool access(uint64_t addr, bool allocate) {
    return lookup(addr, allocate).hit;
  }

  // A loosely-timed cache installs a tag when the miss is sent, so a later hit must not return
  // before the fill: filling() records when the line in `way` receives its data (ps), and
  // fillDone() gives that time while it is still ahead of `settled` (ps), else 0. Every later
  // lookup arrives at or after `settled` (the SystemC time, which no decoupled initiator's
  // local time is behind), so a fill done by then is forgotten: a hit then reads only its
  // set's block, not the way's fill time.
  [[gnu::always_inline]] uint64_t fillDone(const Outcome& o, uint64_t settled) {
    if (!(*o.flags & kFilling)) return 0;
    const uint64_t ps = fillTimes_[o.way];
    if (ps > settled) return ps;
    *o.flags &= static_cast<uint8_t>(~kFilling);
    return 0;
  }
  void filling(const Outcome& o, uint64_t ps) {
    fillTimes_[o.way] = ps;
    *o.flags |= kFilling;
  }
  static constexpr size_t kNoWay = ~size_t{0};
  void invalidate(uint64_t addr) {
    const uint64_t line = line_.quotient(addr);
    const size_t set = static_cast<size_t>(set_.remainder(line));
    Block b = block(set);
    const uint32_t w = find(b, set_.quotient(line), line, set);
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
    windowChosen_ = wide_ = false;
  }
  uint32_t lineBytes() const {
    return static_cast<uint32_t>(line_.value());
  }

 private:
  static constexpr uint8_t kValid = 1, kDirty = 2;
  static constexpr uint8_t kFilling = 4;   // the way's fill time may still be ahead
  static constexpr uint8_t kUnused = 127;  // the rank of a way holding no line
  // What a lookup needs of a set is in its block: per way the low 16 bits of its tag (the line
  // number above the set), a recency rank (0: the most recently used line, 1: the one before,
  // ...; kUnused: none held) and flags. Behind 60 CUs an L2's tag state no longer stays in the
  // host's cache, so the block is all a hit reads while the tags are narrow: every line held
  // has its tag's upper bits equal (window_), as every line within one aligned 16 GiB of
  // device memory behind vega20's L2 does, so the low 16 bits are the whole tag. A line outside the
  // window makes the tags wide for good (until invalidateAll): each way's full line number is
  // then kept in lines_ and compared where the low bits match. The fill times are apart too,
  // read only while a way's fill may still be ahead (kFilling). Both are way-major (way w of
  // set s at w * sets + s): a stream of misses replaces the same way of consecutive sets, whose
  // entries then share host cache lines.
  static constexpr uint32_t kPartialBits = 16;
  struct Block {
    uint16_t* partials;
    uint8_t* ranks;
    uint8_t* flags;
  };
  Block block(size_t set) {
    uint8_t* p = blocks_.get() + set * blockBytes_;
    return {reinterpret_cast<uint16_t*>(p), p + 2 * ways_, p + 3 * ways_};
  }
  // A way's index in the way-major arrays (fillTimes_, lines_), and the slot lookups report.
  size_t slotOf(size_t set, uint32_t w) const {
    return set_.value() * w + set;
  }
  // The line number held in way w of `set` (valid).
  uint64_t lineHeld(const Block& b, size_t set, uint32_t w) const {
    if (wide_) return lines_[slotOf(set, w)];
    return ((window_ << kPartialBits) | b.partials[w]) * set_.value() + set;
  }
  // A line outside the window arrives: every way's line number is written down once, from
  // then on at every install.
  void goWide() {
    lines_.assign(set_.value() * ways_, 0);
    for (size_t set = 0; set < set_.value(); ++set) {
      const Block b = block(set);
      for (uint32_t w = 0; w < ways_; ++w)
        if (b.flags[w] & kValid) lines_[slotOf(set, w)] = lineHeld(b, set, w);
    }
    wide_ = true;
  }
  static constexpr uint32_t kNotFound = ~uint32_t{0};
  // The valid way holding `line` (whose tag is `tag`), or kNotFound.
  [[gnu::always_inline]] uint32_t find(const Block& b, uint64_t tag, uint64_t line,
                                       size_t set) const {
    const auto partial = static_cast<uint16_t>(tag);
    if (!wide_) {
      // Narrow: no line outside the window is held, and a partial tag names one line (the
      // first candidate, without a loop: this is the hot path).
      if ((tag >> kPartialBits) != window_) return kNotFound;
      if (ways_ <= 32) {
        const uint32_t candidates = matching(b, partial);
        return candidates != 0 ? static_cast<uint32_t>(__builtin_ctz(candidates)) : kNotFound;
      }
    } else if (ways_ <= 32) {  // wide: a way's full line number decides
      for (uint32_t candidates = matching(b, partial); candidates != 0;
           candidates &= candidates - 1) {
        const auto w = static_cast<uint32_t>(__builtin_ctz(candidates));
        if (lines_[slotOf(set, w)] == line) return w;
      }
      return kNotFound;
    }
    for (uint32_t w = 0; w < ways_; ++w)  // more ways than matching() takes
      if (b.partials[w] == partial && (b.flags[w] & kValid) &&
          (!wide_ || lines_[slotOf(set, w)] == line))
        return w;
    return kNotFound;
  }
  // The valid ways whose partial tag is `partial`, a bit each (up to 32 ways).
  [[gnu::always_inline]] uint32_t matching(const Block& b, uint16_t partial) const {
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
  [[gnu::always_inline]] uint32_t leastRecentlyUsed(const Block& b) const {
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
  std::vector<uint64_t> fillTimes_;  // ps, way-major; meaningful where kFilling is set
  std::vector<uint64_t> lines_;      // line numbers, way-major; only while wide_
  uint64_t window_ = 0;              // the tags' bits above the low 16 while narrow
  bool windowChosen_ = false;        // by the first line installed
  bool wide_ = false;
#if defined(__SSE2__)
  uint32_t waysMask_ = 0;  // a bit per way (up to 16)
  __m128i beyondWays_{};   // 0xff in the bytes past the ways (up to 16)
#endif
};

}  // namespace vgpu
