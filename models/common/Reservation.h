// Bandwidth and occupancy by reservation, the loosely-timed way. A resource keeps a calendar
// of the intervals it is reserved for; a request arriving at time T takes the first gap at or
// after T long enough for its occupancy.
//
// Why a calendar and not a single "busy until" time: with temporal decoupling, initiators run
// ahead of SystemC time by different amounts, so requests reach a shared resource out of time
// order. With a busy-until time, one initiator running 900 cycles ahead would make every
// lagging initiator queue behind it; with a calendar the lagging request fills the gap it
// really falls into. Intervals that end before the current SystemC time can no longer be
// reached (no initiator is behind SystemC time) and are dropped.
#pragma once

#include <algorithm>
#include <iterator>
#include <map>
#include <vector>

#include <systemc>

namespace vgpu {

// One server: a port, a bus, a bank.
class BusyUntil {
 public:
  // Reserves `occupancy` in the first free gap at or after `at`; returns its start.
  sc_core::sc_time reserve(const sc_core::sc_time& at, const sc_core::sc_time& occupancy) {
    busy_ += occupancy;
    prune();
    sc_core::sc_time start = at;
    auto it = intervals_.upper_bound(start);
    if (it != intervals_.begin()) {
      auto prev = std::prev(it);
      if (prev->second > start) start = prev->second;
    }
    // First fit; a calendar fragmented by many decoupled initiators is searched for a bounded
    // number of gaps, after which the request goes after the last reservation (later, never
    // earlier, than an exact search would place it).
    for (int gaps = 0; it != intervals_.end() && it->first < start + occupancy; ++it) {
      start = std::max(start, it->second);
      if (++gaps == kMaxGapsSearched) {
        start = std::max(start, freeAt());
        break;
      }
    }
    if (occupancy == sc_core::SC_ZERO_TIME) return start;
    insert(start, start + occupancy);
    return start;
  }
  // The end of the last reservation (when the resource is certainly free).
  sc_core::sc_time freeAt() const {
    return intervals_.empty() ? sc_core::SC_ZERO_TIME : intervals_.rbegin()->second;
  }
  // Whether [at, at + 1 ps) is free.
  bool isFreeAt(const sc_core::sc_time& at) const {
    auto it = intervals_.upper_bound(at);
    if (it == intervals_.begin()) return true;
    return std::prev(it)->second <= at;
  }
  const sc_core::sc_time& busyTime() const { return busy_; }

 private:
  void insert(sc_core::sc_time start, sc_core::sc_time end) {
    // Merge with touching neighbours so a saturated resource keeps a handful of intervals.
    auto next = intervals_.lower_bound(start);
    if (next != intervals_.end() && next->first == end) {
      end = next->second;
      next = intervals_.erase(next);
    }
    if (next != intervals_.begin()) {
      auto prev = std::prev(next);
      if (prev->second == start) {
        prev->second = end;
        return;
      }
    }
    intervals_.emplace(start, end);
  }
  void prune() {
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    while (!intervals_.empty() && intervals_.begin()->second <= now)
      intervals_.erase(intervals_.begin());
  }

  static constexpr int kMaxGapsSearched = 32;
  std::map<sc_core::sc_time, sc_core::sc_time> intervals_;  // start -> end, disjoint
  sc_core::sc_time busy_ = sc_core::SC_ZERO_TIME;
};

// N identical servers (miss-status holding registers): a request takes a server that is free
// when it arrives, or waits for the one that frees first.
class SlotPool {
 public:
  explicit SlotPool(unsigned slots) : slots_(std::max(1u, slots)) {}
  // The earliest time >= at that a slot is free, and that slot's index.
  std::pair<sc_core::sc_time, size_t> acquire(const sc_core::sc_time& at) const {
    size_t best = 0;
    sc_core::sc_time bestStart = sc_core::sc_max_time();
    for (size_t i = 0; i < slots_.size(); ++i) {
      if (slots_[i].isFreeAt(at)) return {at, i};
      const sc_core::sc_time free = std::max(at, slots_[i].freeAt());
      if (free < bestStart) bestStart = free, best = i;
    }
    return {bestStart, best};
  }
  // Marks slot `slot` busy over [from, until).
  void hold(size_t slot, const sc_core::sc_time& from, const sc_core::sc_time& until) {
    if (until > from) slots_[slot].reserve(from, until - from);
  }

 private:
  std::vector<BusyUntil> slots_;
};

}  // namespace vgpu
