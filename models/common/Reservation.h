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
//
// Gaps too short for any request: a calendar behind decoupled initiators fills with gaps
// shorter than the occupancy every request asks for (a DRAM channel's bus, where every access
// is a 64-byte burst of 2 ns, is left with gaps of a few hundred picoseconds between bursts),
// and a lagging request walked past dozens of them, one interval each. Gaps shorter than the
// shortest occupancy requested so far can be used by no request seen yet, so the calendar
// joins the intervals around them and remembers the gap; a request shorter than any before
// re-opens the remembered gaps long enough for it. Joining changes no answer: each is the
// first-fit one (up to the bound on the search, below).
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
    // (An index times the comparison, not a choice between two pointers: GCC compiled the
    // choice to a conditional jump where this was inlined into SortedTimes::insert.)
    first += half * static_cast<size_t>(key(first[half - 1]) <= t);
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
    if (length < joinBelow_) {
      if (length == 0) {
        if (!joined_.empty()) return timeFromValue(firstFreeFrom(t));
      } else {
        reopenGapsFor(length, now.value());
      }
    }
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
    if (t - last.end < joinBelow_)  // touches the last one, or leaves a gap no request can use
      join(last.end, t), last.end = t + length;
    else
      intervals_.push_back({t, t + length});
    lastEnd_ = at + occupancy;
    return at;
  }
  // The end of the last reservation (when the resource is certainly free).
  sc_core::sc_time freeAt() const { return empty() ? sc_core::SC_ZERO_TIME : lastEnd_; }
  // Whether [at, at + 1 ps) is free.
  bool isFreeAt(const sc_core::sc_time& at) const {
    if (empty()) return true;
    return firstFreeFrom(at.value()) == at.value();
  }
  const sc_core::sc_time& busyTime() const { return busy_; }

  // The reservations not yet dropped, sorted by start (some may have ended already); runs of
  // reservations separated by gaps no request so far could use are one entry.
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
    auto it = upperBoundNearHint(start);
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
    const sc_core::sc_time startTime = start == t ? at : timeFromValue(start);
    if (length == 0) return startTime;
    // Every interval before `it` starts before `start`, and `it` (if any) after the new one
    // ends: `it` is where the new one goes.
    if (it == intervals_.end()) lastEnd_ = timeFromValue(start + length);
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
  // upperBound(t), looking first next to where the last search out of time order ended: the
  // requests of one decoupled CU reach a calendar in its time order, so most searches end
  // within an interval of the last (half of an L2 port's in a 60-CU pointer chase, 4 in 5 in a
  // stream copy). The search gallops out from there (1, 2, 4, ... intervals) and bisects only
  // the stretch that brackets the answer: many of the other searches end a few intervals away
  // (within 8: another 11 % of the 60-CU stream copy's and 30 % of the pointer chase's), where
  // a bisection of the rest of the calendar took as many dependent steps as a far one. In a
  // 60-CU pointer chase the calendars' out-of-order searches went from 59 to 51 ms of CPU time
  // (perf, task-clock; they were the largest part of what 60 CUs cost over 1).
  Iterator upperBoundNearHint(uint64_t t) {
    const Interval* v = intervals_.data();
    const size_t begin = head_, end = intervals_.size();
    const size_t i = std::clamp(hint_, begin, end);
    size_t lo, hi;  // the answer is in [lo, hi]: v[lo - 1].start <= t (or lo == begin), and
                    // v[hi].start > t (or hi == end)
    if (i < end && v[i].start <= t) {  // after i
      lo = i + 1;
      for (size_t step = 1;; step *= 2) {
        if (end - lo < step) {
          hi = end;
          break;
        }
        const size_t probe = lo + step - 1;
        if (v[probe].start > t) {
          hi = probe;
          break;
        }
        lo = probe + 1;
      }
    } else {  // at or before i
      hi = i;
      for (size_t step = 1;; step *= 2) {
        if (hi - begin < step) {
          lo = begin;
          break;
        }
        const size_t probe = hi - step;
        if (v[probe].start <= t) {
          lo = probe + 1;
          break;
        }
        hi = probe;
      }
    }
    const size_t found =
        lo == hi ? lo : static_cast<size_t>(firstAfter<&Interval::start>(v + lo, v + hi, t) - v);
    hint_ = found;
    return intervals_.begin() + static_cast<std::ptrdiff_t>(found);
  }
  [[gnu::always_inline]] void insertBefore(Iterator next, uint64_t start, uint64_t end) {
    // Merge with touching neighbours, and neighbours across a gap no request can use, so a
    // saturated resource keeps a handful of intervals (and the calendar moves entries only for
    // an interval that joins neither).
    const bool joinsPrev = next != first() && start - std::prev(next)->end < joinBelow_;
    const bool joinsNext = next != intervals_.end() && next->start - end < joinBelow_;
    if (joinsPrev) join(std::prev(next)->end, start);
    if (joinsNext) join(end, next->start);
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
    // The entry given up joins the dropped ones. prune() compacts those only once the first
    // reservation has ended, which a saturated resource's first one, extended by every join,
    // may never do: left to it, the L2 ports of a 60-CU pointer chase kept 16,000 entries for
    // 200 reservations.
    compactIfMostlyDropped();
  }
  void prune(uint64_t now) {
    if (empty() || intervals_[head_].end > now) return;  // the usual case: nothing ended
    // Disjoint and sorted by start, the intervals are sorted by end too. A calendar that was not
    // used for a while (one MSHR of 256) can hold hundreds that ended since: when they all
    // have, forget them at once; else find the first still running without visiting each.
    if (intervals_.back().end <= now) {
      intervals_.clear();
      joined_.clear();  // every joined gap lay inside an interval that ended
      head_ = 0;
      return;
    }
    const Interval* begin = intervals_.data();
    head_ = static_cast<size_t>(
        firstAfter<&Interval::end>(begin + head_, begin + intervals_.size(), now) - begin);
    compactIfMostlyDropped();
  }
  // Dropped intervals stay in front of head_ until they are many: erasing the front of a vector
  // one by one would move the whole calendar every time.
  void compactIfMostlyDropped() {
    if (head_ >= 64 && head_ * 2 >= intervals_.size()) compact();
  }
  [[gnu::noinline]] void compact() {
    // Some dropped entries stay as room for inserts near the front.
    const size_t room = std::min(head_, 8 + (intervals_.size() - head_) / 4);
    intervals_.erase(intervals_.begin(),
                     intervals_.begin() + static_cast<std::ptrdiff_t>(head_ - room));
    head_ = room;
  }

  // The gap [from, to) between two intervals is too short for any request so far (or empty):
  // they become one, and the gap is remembered for a shorter request to come.
  void join(uint64_t from, uint64_t to) {
    if (from == to) return;
    joined_.push_back({from, to});
    // Gaps that ended before the current time are forgotten now and then (no request reaches
    // them), at a cost proportional to the gaps joined since.
    if (joined_.size() >= forgetJoinedAt_) {
      // A gap ending before the first interval not dropped lay in a dropped one.
      const uint64_t live = intervals_[head_].start;
      joined_.erase(std::remove_if(joined_.begin(), joined_.end(),
                                   [live](const Interval& g) { return g.end <= live; }),
                    joined_.end());
      forgetJoinedAt_ = 64 + 2 * joined_.size();
    }
  }
  // A request of `length` (shorter than every one before): the joined gaps at least that long
  // are gaps again, for this request and the ones to come.
  [[gnu::noinline]] void reopenGapsFor(uint64_t length, uint64_t now) {
    joinBelow_ = length;
    std::vector<Interval> reopen;
    auto kept = std::remove_if(joined_.begin(), joined_.end(), [&](const Interval& g) {
      if (g.end <= now) return true;  // before the current time: forgotten
      if (g.end - g.start < length) return false;
      reopen.push_back(g);
      return true;
    });
    joined_.erase(kept, joined_.end());
    if (reopen.empty()) return;
    std::sort(reopen.begin(), reopen.end(),
              [](const Interval& a, const Interval& b) { return a.start < b.start; });
    // Each reopened gap lies inside one interval (ended intervals hold none: the gap ended
    // before them): cut the intervals at them, in one pass.
    std::vector<Interval> cut;
    cut.reserve(intervals_.size() - head_ + reopen.size());
    auto gap = reopen.begin();
    for (size_t i = head_; i < intervals_.size(); ++i) {
      Interval piece = intervals_[i];
      for (; gap != reopen.end() && gap->start < piece.end; ++gap) {
        cut.push_back({piece.start, gap->start});
        piece.start = gap->end;
      }
      cut.push_back(piece);
    }
    intervals_ = std::move(cut);
    head_ = 0;
  }
  // The first free instant at or after `t` (what a request occupying nothing is told), inside
  // joined gaps too.
  uint64_t firstFreeFrom(uint64_t t) const {
    if (empty()) return t;
    auto it = upperBound(t);
    if (it == first() || std::prev(it)->end <= t) return t;
    // Inside an interval: free at t if t is in one of its joined gaps, else at the end of the
    // reservation covering t (the next joined gap's start, or the interval's end).
    uint64_t free = std::prev(it)->end;
    for (const Interval& g : joined_) {
      if (g.start <= t && t < g.end) return t;
      if (g.start > t && g.start < free) free = g.start;
    }
    return free;
  }

  // A bound on the gaps a search passes, counting only gaps long enough for some request so far
  // (shorter ones are joined). 32 once; a DRAM-bound kernel on 60 CUs (private_array on vega20)
  // ran 16 % more cycles with it than with an unbounded search, which 256 matched. Counting the
  // gaps no request could use too, the float4 copy on 60 CUs reached it in about 12,000 of its
  // 2.5 M searches and ran 118,512 cycles; since short gaps are joined, neither it nor
  // vector_add or the pointer chase on 60 CUs reaches it, and that copy runs the 117,537 cycles
  // of an unbounded first-fit search.
  static constexpr int kMaxGapsSearched = 256;
  // Disjoint intervals sorted by start, from index head_ on (a sorted vector: a std::map's node
  // walks and allocations cost more than moving the few entries an insert usually moves).
  std::vector<Interval> intervals_;
  size_t head_ = 0;
  size_t hint_ = 0;  // where the last search out of time order ended (an index of intervals_)
  // Gaps shorter than this are joined: the shortest occupancy requested so far (a request
  // occupying nothing has its own answer, firstFreeFrom()).
  uint64_t joinBelow_ = UINT64_MAX;
  // The joined gaps, in the order they were joined; some may have ended already.
  std::vector<Interval> joined_;
  size_t forgetJoinedAt_ = 64;
  sc_core::sc_time lastEnd_ = sc_core::SC_ZERO_TIME;  // the last interval's end, as sc_time
  sc_core::sc_time busy_ = sc_core::SC_ZERO_TIME;
  friend class BusyUntilTestAccess;
};

}  // namespace vgpu
