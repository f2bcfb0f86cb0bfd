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
    auto it = upperBound(start);
    if (it != first()) {
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
    return empty() ? sc_core::SC_ZERO_TIME : intervals_.back().second;
  }
  // Whether [at, at + 1 ps) is free.
  bool isFreeAt(const sc_core::sc_time& at) const {
    if (empty()) return true;
    auto it = upperBound(at);
    if (it == first()) return true;
    return std::prev(it)->second <= at;
  }
  const sc_core::sc_time& busyTime() const { return busy_; }

 private:
  using Interval = std::pair<sc_core::sc_time, sc_core::sc_time>;  // [start, end)
  using Iterator = std::vector<Interval>::iterator;
  using ConstIterator = std::vector<Interval>::const_iterator;

  bool empty() const { return head_ == intervals_.size(); }
  Iterator first() { return intervals_.begin() + static_cast<std::ptrdiff_t>(head_); }
  ConstIterator first() const { return intervals_.begin() + static_cast<std::ptrdiff_t>(head_); }
  // The first interval starting after `t` (std::map::upper_bound on the start).
  Iterator upperBound(const sc_core::sc_time& t) {
    return std::upper_bound(
        first(), intervals_.end(), t,
        [](const sc_core::sc_time& v, const Interval& i) { return v < i.first; });
  }
  ConstIterator upperBound(const sc_core::sc_time& t) const {
    return std::upper_bound(
        first(), intervals_.end(), t,
        [](const sc_core::sc_time& v, const Interval& i) { return v < i.first; });
  }
  void insert(sc_core::sc_time start, sc_core::sc_time end) {
    // Merge with touching neighbours so a saturated resource keeps a handful of intervals.
    auto next =
        std::lower_bound(first(), intervals_.end(), start,
                         [](const Interval& i, const sc_core::sc_time& v) { return i.first < v; });
    if (next != intervals_.end() && next->first == end) {
      end = next->second;
      next = intervals_.erase(next);
    }
    if (next != first()) {
      auto prev = std::prev(next);
      if (prev->second == start) {
        prev->second = end;
        return;
      }
    }
    if (next != intervals_.end() && next->first == start) return;  // as std::map::emplace
    intervals_.insert(next, Interval(start, end));
  }
  void prune() {
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    while (!empty() && intervals_[head_].second <= now) ++head_;
    // Dropped intervals stay in front of head_ until they are many: erasing the front of a
    // vector one by one would move the whole calendar every time.
    if (head_ >= 64 && head_ * 2 >= intervals_.size()) {
      intervals_.erase(intervals_.begin(), first());
      head_ = 0;
    }
  }

  static constexpr int kMaxGapsSearched = 32;
  // Disjoint intervals sorted by start, from index head_ on (a sorted vector: the calendar is
  // short, and a std::map's node walks and allocations cost more than moving a few entries).
  std::vector<Interval> intervals_;
  size_t head_ = 0;
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
      // Free after its last reservation: certainly free at `at`, no calendar search needed.
      const sc_core::sc_time lastEnd = slots_[i].freeAt();
      if (lastEnd <= at || slots_[i].isFreeAt(at)) return {at, i};
      const sc_core::sc_time free = std::max(at, lastEnd);
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
