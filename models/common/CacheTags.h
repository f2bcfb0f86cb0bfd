// Set-associative tag array with LRU replacement: decides hit or miss, holds no data.
// The data of every access still travels to DRAM over TLM (see Cache.h for why).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/Divisor.h"

namespace vgpu {

class CacheTags {
 public:
  CacheTags(uint32_t sizeBytes, uint32_t lineBytes, uint32_t ways)
      : ways_(ways ? ways : 1),
        line_(lineBytes),
        set_(std::max<uint64_t>(1, uint64_t{sizeBytes} / lineBytes / ways_)) {
    tags_.assign(set_.value() * ways_, kInvalid);
    lastUse_.assign(tags_.size(), 0);
    dirty_.assign(tags_.size(), 0);
    readyAt_.assign(tags_.size(), 0);
  }

  struct Outcome {
    bool hit = false;
    size_t way = kNoWay;        // the line's slot (hit or newly installed), for readyAt/setReadyAt
    bool evictedDirty = false;  // a dirty line was evicted to make room: it must be written back
    uint64_t evictedAddress = 0;
  };
  // Looks up the line holding addr; on a miss with allocate, installs it (evicting LRU).
  // markDirty sets the line's dirty bit (write-back caches).
  Outcome lookup(uint64_t addr, bool allocate, bool markDirty = false) {
    const uint64_t line = line_.quotient(addr);
    const size_t set = static_cast<size_t>(set_.remainder(line)) * ways_;
    if (++clock_ == 0) renumberUses();
    Outcome out;
    // The tags alone first (a hit needs nothing else), the replacement order only on a miss.
    const uint64_t* tags = tags_.data();
    for (size_t w = set; w < set + ways_; ++w) {
      if (tags[w] == line) {
        lastUse_[w] = clock_;
        if (markDirty) dirty_[w] = 1;
        out.hit = true;
        out.way = w;
        return out;
      }
    }
    size_t victim = set;  // the least recently used way (the first of equals)
    for (size_t w = set + 1; w < set + ways_; ++w)
      if (lastUse_[w] < lastUse_[victim]) victim = w;
    if (allocate) {
      if (tags_[victim] != kInvalid && dirty_[victim]) {
        out.evictedDirty = true;
        out.evictedAddress = tags_[victim] * line_.value();
      }
      tags_[victim] = line;
      lastUse_[victim] = clock_;
      dirty_[victim] = markDirty ? 1 : 0;
      readyAt_[victim] = 0;
      out.way = victim;
    }
    return out;
  }
  bool access(uint64_t addr, bool allocate) { return lookup(addr, allocate).hit; }

  // When the line in `way` holds its data (its fill completes), in picoseconds. A loosely-timed
  // cache installs a tag when the miss is sent; a later hit must not return before the fill.
  uint64_t readyAt(size_t way) const { return readyAt_[way]; }
  void setReadyAt(size_t way, uint64_t ps) { readyAt_[way] = ps; }
  static constexpr size_t kNoWay = ~size_t{0};
  void invalidate(uint64_t addr) {
    const uint64_t line = line_.quotient(addr);
    const size_t set = static_cast<size_t>(set_.remainder(line)) * ways_;
    for (size_t w = set; w < set + ways_; ++w)
      if (tags_[w] == line) tags_[w] = kInvalid, lastUse_[w] = 0, dirty_[w] = 0;
  }
  void invalidateAll() {
    std::fill(tags_.begin(), tags_.end(), kInvalid);
    std::fill(lastUse_.begin(), lastUse_.end(), 0);
    std::fill(dirty_.begin(), dirty_.end(), 0);
  }
  uint32_t lineBytes() const { return static_cast<uint32_t>(line_.value()); }

 private:
  static constexpr uint64_t kInvalid = ~0ull;
  uint32_t ways_;
  // The line size and the number of sets: shifts and masks when powers of two.
  Divisor line_, set_;
  std::vector<uint64_t> tags_;
  // When each way was last used, by a count of lookups. 32 bits rather than 64: an L2's ages are
  // a third of its tag state, which behind 60 CUs competes for the host's cache (4.4 % fewer
  // host cache misses for vector_add on 60 CUs); renumberUses() handles the wrap.
  std::vector<uint32_t> lastUse_;
  std::vector<uint8_t> dirty_;  // bytes, not std::vector<bool>: read on every hit
  std::vector<uint64_t> readyAt_;
  uint32_t clock_ = 0;

  // The count of lookups wrapped (every 2^32 of them): each set's ages become their ranks,
  // equal ages staying equal and unused ways (0) staying 0, so every later choice of victim is
  // the one the unwrapped ages would give; the count goes on above every rank.
  [[gnu::noinline]] void renumberUses() {
    std::vector<uint32_t> sorted(ways_);
    for (size_t set = 0; set < lastUse_.size(); set += ways_) {
      uint32_t* ages = &lastUse_[set];
      std::copy(ages, ages + ways_, sorted.begin());
      std::sort(sorted.begin(), sorted.end());
      sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
      for (uint32_t w = 0; w < ways_; ++w) {
        const auto rank = std::lower_bound(sorted.begin(), sorted.end(), ages[w]) - sorted.begin();
        ages[w] =
            sorted.front() == 0 ? static_cast<uint32_t>(rank) : static_cast<uint32_t>(rank) + 1;
      }
      sorted.resize(ways_);
    }
    clock_ = ways_ + 1;
  }
  friend class CacheTagsTestAccess;
};

}  // namespace vgpu
