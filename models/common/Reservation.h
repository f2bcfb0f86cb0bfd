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
#include <cstdint>
#include <cstring>
#include <iterator>
#include <utility>
#include <vector>

#include <systemc>

#include "common/SimTime.h"

namespace vgpu {

// A reservation: [start, end) in picoseconds (sc_time values), plain integers so that a
// calendar moves its entries with memmove and compares them without going through sc_time.
struct CalendarInterval {
  uint64_t start, end;
};

// The first element of [first, last), sorted by key(element), whose key is after t.
// Branch-free: a calendar behind decoupled CUs is searched millions of times at places no
// predictor guesses, and a mispredicted branch per step of std::upper_bound cost more than the
// steps themselves.
template <class T, class Key>
inline const T* firstKeyAfter(const T* first, const T* last, uint64_t t, Key key) {
  size_t n = static_cast<size_t>(last - first);
  if (n == 0) return first;
  while (n > 1) {
    const size_t half = n / 2;
    first = key(first[half - 1]) <= t ? first + half : first;
    n -= half;
  }
  return first + (key(*first) <= t ? 1 : 0);
}

// The first interval of [first, last) whose `Field` (start or end) is after t; the intervals
// are disjoint and sorted, so sorted by either.
template <uint64_t CalendarInterval::*Field>
inline const CalendarInterval* firstAfter(const CalendarInterval* first,
                                          const CalendarInterval* last, uint64_t t) {
  return firstKeyAfter(first, last, t, [](const CalendarInterval& i) { return i.*Field; });
}

// One server: a port, a bus, a bank.
class BusyUntil {
 public:
  using Interval = CalendarInterval;

  // Reserves `occupancy` in the first free gap at or after `at`; returns its start.
  sc_core::sc_time reserve(const sc_core::sc_time& at, const sc_core::sc_time& occupancy) {
    return reserve(at, occupancy, currentTime());
  }
  // The same for a caller that already has the current SystemC time `now` (at >= now): saves
  // the kernel call on the hot path.
  [[gnu::always_inline]] sc_core::sc_time reserve(const sc_core::sc_time& at,
                                                  const sc_core::sc_time& occupancy,
                                                  const sc_core::sc_time& now) {
    busy_ += occupancy;
    prune(now.value());
    const uint64_t t = at.value(), length = occupancy.value();
    if (empty()) {
      if (length != 0) intervals_.push_back({t, t + length}), lastEnd_ = at + occupancy;
      return at;
    }
    // The common case, a request at or after the start of the last reservation: it cannot fall
    // into a gap, so it goes at `at` or right after the last reservation (exactly what the
    // search finds, without searching).
    Interval& last = intervals_.back();
    if (t < last.start) return reserveInGap(at, length);
    if (last.end > t) {  // queues behind the last reservation
      const sc_core::sc_time start = lastEnd_;
      last.end += length;
      lastEnd_ += occupancy;
      return start;
    }
    if (length == 0) return at;
    if (last.end == t)
      last.end = t + length;  // touches the last one: merge
    else
      intervals_.push_back({t, t + length});
    lastEnd_ = at + occupancy;
    return at;
  }
  // The end of the last reservation (when the resource is certainly free).
  sc_core::sc_time freeAt() const { return empty() ? sc_core::SC_ZERO_TIME : lastEnd_; }
  // The start of the last reservation in picoseconds (0: none): the resource is busy without
  // a break from there to freeAt() (touching reservations are merged).
  uint64_t lastStart() const { return empty() ? 0 : intervals_.back().start; }
  // Whether [at, at + 1 ps) is free.
  bool isFreeAt(const sc_core::sc_time& at) const {
    if (empty()) return true;
    // At or after the last reservation's start (arrivals in time order): only it can cover.
    if (at.value() >= intervals_.back().start) return intervals_.back().end <= at.value();
    auto it = upperBound(at.value());
    if (it == first()) return true;
    return std::prev(it)->end <= at.value();
  }
  const sc_core::sc_time& busyTime() const { return busy_; }

  // The reservations not yet dropped, sorted by start (some may have ended already).
  std::pair<const Interval*, const Interval*> reservations() const {
    const Interval* begin = intervals_.data();
    return {begin + head_, begin + intervals_.size()};
  }

 private:
  using Iterator = std::vector<Interval>::iterator;
  using ConstIterator = std::vector<Interval>::const_iterator;

  // A request before the start of the last reservation: the first gap at or after `at` long
  // enough, searched (out of line: the in-order case above is the hot one).
  [[gnu::noinline]] sc_core::sc_time reserveInGap(const sc_core::sc_time& at, uint64_t length) {
    const uint64_t t = at.value();
    uint64_t start = t;
    auto it = upperBound(start);
    if (it != first()) {
      auto prev = std::prev(it);
      if (prev->end > start) start = prev->end;
    }
    // First fit; a calendar fragmented by many decoupled initiators is searched for a bounded
    // number of gaps, after which the request goes after the last reservation (later, never
    // earlier, than an exact search would place it).
    for (int gaps = 0; it != intervals_.end() && it->start < start + length; ++it) {
      start = std::max(start, it->end);
      if (++gaps == kMaxGapsSearched) {
        start = std::max(start, intervals_.back().end);
        it = intervals_.end();  // after every reservation
        break;
      }
    }
    const sc_core::sc_time startTime = start == t ? at : sc_core::sc_time::from_value(start);
    if (length == 0) return startTime;
    // Every interval before `it` starts before `start`, and `it` (if any) after the new one
    // ends: `it` is where the new one goes.
    if (it == intervals_.end()) lastEnd_ = sc_core::sc_time::from_value(start + length);
    insertBefore(it, start, start + length);
    return startTime;
  }
  bool empty() const { return head_ == intervals_.size(); }
  Iterator first() { return intervals_.begin() + static_cast<std::ptrdiff_t>(head_); }
  ConstIterator first() const { return intervals_.begin() + static_cast<std::ptrdiff_t>(head_); }
  // The first interval starting after `t` (std::map::upper_bound on the start).
  ConstIterator upperBound(uint64_t t) const {
    const Interval* begin = intervals_.data();
    return intervals_.begin() +
           (firstAfter<&Interval::start>(begin + head_, begin + intervals_.size(), t) - begin);
  }
  Iterator upperBound(uint64_t t) {
    return intervals_.begin() + (std::as_const(*this).upperBound(t) - intervals_.cbegin());
  }
  void insertBefore(Iterator next, uint64_t start, uint64_t end) {
    // Merge with touching neighbours so a saturated resource keeps a handful of intervals (and
    // the calendar moves entries only for an interval that touches neither).
    const bool joinsPrev = next != first() && std::prev(next)->end == start;
    const bool joinsNext = next != intervals_.end() && next->start == end;
    const auto index = static_cast<size_t>(next - intervals_.begin());
    if (joinsPrev && joinsNext) {
      std::prev(next)->end = next->end;
      eraseAt(index);
    } else if (joinsPrev) {
      std::prev(next)->end = end;
    } else if (joinsNext) {
      next->start = start;
    } else {
      insertAt(index, Interval{start, end});
    }
  }
  // A calendar under temporal decoupling can hold thousands of intervals (a backlog reaching far
  // past the current time), and a request out of time order usually lands near its front (a
  // lagging initiator, just after the current time) or near its back (a queue): inserting and
  // erasing move the shorter side, the front one into the dropped entries before head_.
  void insertAt(size_t index, const Interval& interval) {
    const size_t size = intervals_.size();
    if (index - head_ >= size - index) {
      intervals_.insert(intervals_.begin() + static_cast<std::ptrdiff_t>(index), interval);
      return;
    }
    if (head_ == 0) {  // no room in front: make some, for this and the next front inserts
      const size_t room = 8 + size / 4;
      intervals_.insert(intervals_.begin(), room, Interval{0, 0});
      head_ = room, index += room;
    }
    Interval* const live = intervals_.data() + head_;
    std::memmove(live - 1, live, (index - head_) * sizeof(Interval));
    --head_;
    intervals_[index - 1] = interval;
  }
  void eraseAt(size_t index) {
    const size_t size = intervals_.size();
    if (index - head_ >= size - index - 1) {
      intervals_.erase(intervals_.begin() + static_cast<std::ptrdiff_t>(index));
      return;
    }
    Interval* const live = intervals_.data() + head_;
    std::memmove(live + 1, live, (index - head_) * sizeof(Interval));
    ++head_;
  }
  void prune(uint64_t now) {
    if (empty() || intervals_[head_].end > now) return;  // the usual case: nothing ended
    // Disjoint and sorted by start, the intervals are sorted by end too. A calendar that was not
    // used for a while (one MSHR of 256) can hold hundreds that ended since: when they all
    // have, forget them at once; else find the first still running without visiting each.
    if (intervals_.back().end <= now) {
      intervals_.clear();
      head_ = 0;
      return;
    }
    const Interval* begin = intervals_.data();
    head_ = static_cast<size_t>(
        firstAfter<&Interval::end>(begin + head_, begin + intervals_.size(), now) - begin);
    // Dropped intervals stay in front of head_ until they are many: erasing the front of a
    // vector one by one would move the whole calendar every time.
    if (head_ >= 64 && head_ * 2 >= intervals_.size()) compact();
  }
  [[gnu::noinline]] void compact() {
    // Some dropped entries stay as room for inserts near the front.
    const size_t room = std::min(head_, 8 + (intervals_.size() - head_) / 4);
    intervals_.erase(intervals_.begin(),
                     intervals_.begin() + static_cast<std::ptrdiff_t>(head_ - room));
    head_ = room;
  }

  // 32 once; a DRAM-bound kernel on 60 CUs (private_array on vega20) ran 16 % more cycles with
  // it than with an unbounded search, which 256 matches.
  static constexpr int kMaxGapsSearched = 256;
  // Disjoint intervals sorted by start, from index head_ on (a sorted vector: a std::map's node
  // walks and allocations cost more than moving the few entries an insert usually moves).
  std::vector<Interval> intervals_;
  size_t head_ = 0;
  sc_core::sc_time lastEnd_ = sc_core::SC_ZERO_TIME;  // the last interval's end, as sc_time
  sc_core::sc_time busy_ = sc_core::SC_ZERO_TIME;
};

}  // namespace vgpu
