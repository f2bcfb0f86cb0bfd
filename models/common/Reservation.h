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

// The first interval of [first, last) whose `Field` (start or end) is after t; the intervals
// are disjoint and sorted, so sorted by either. Branch-free: a calendar behind decoupled CUs is
// searched millions of times at places no predictor guesses, and a mispredicted branch per
// step of std::upper_bound cost more than the steps themselves.
template <uint64_t CalendarInterval::*Field>
inline const CalendarInterval* firstAfter(const CalendarInterval* first,
                                          const CalendarInterval* last, uint64_t t) {
  size_t n = static_cast<size_t>(last - first);
  if (n == 0) return first;
  while (n > 1) {
    const size_t half = n / 2;
    first = first[half - 1].*Field <= t ? first + half : first;
    n -= half;
  }
  return first + (first->*Field <= t ? 1 : 0);
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

// N identical servers (miss-status holding registers): a request takes a server that is free
// when it arrives (the lowest-numbered one), or waits for the one that frees first.
//
// Finding that slot must not visit every slot's calendar (L2 has 256 per channel). A tree over
// the slots keeps, for every subtree, the earliest end of a slot's last reservation (and the
// lowest slot ending then) and the latest start of one: going down from the root into the
// first subtree that has a slot either done by `at` or starting its last reservation after
// `at` finds the lowest slot that can be free, and that slot's calendar says whether it is.
// While requests come in time order (one initiator, as a vector L1) that slot is free.
//
// Requests out of time order (shared caches under temporal decoupling) find many slots whose
// last reservation starts later but which are busy at `at` anyway. From the first such request
// on, the tree also keeps, for every subtree, the times at which all its slots are busy (the
// intersection of their calendars): going down into the first subtree not all busy at `at`
// then finds the free slot directly. A reservation only adds busy time, so it adds to a
// subtree's intersection only the part of it during which the other slots below are busy
// too, which usually vanishes a few levels up.
class SlotPool {
 public:
  using Interval = BusyUntil::Interval;

  explicit SlotPool(unsigned slots) : slots_(std::max(1u, slots)), always_{0, ~uint64_t{0}} {
    while (leaves_ < slots_.size()) leaves_ *= 2;
    // Padding leaves are always busy and never first to free; real slots start empty.
    nodes_.assign(2 * leaves_, Node{sc_core::sc_max_time(), 0, 0});
    for (size_t i = 0; i < slots_.size(); ++i) {
      nodes_[leaves_ + i].minEnd = sc_core::SC_ZERO_TIME;
      nodes_[leaves_ + i].minEndSlot = i;
    }
    for (size_t node = leaves_ - 1; node >= 1; --node) update(node);
  }
  // The earliest time >= at that a slot is free, and that slot's index.
  std::pair<sc_core::sc_time, size_t> acquire(const sc_core::sc_time& at) const {
    if (!outOfOrder_ && at < latestRequest_) startAllBusy();
    latestRequest_ = std::max(latestRequest_, at);
    const size_t slot = outOfOrder_ ? firstFree(at) : firstFreeInOrder(at);
    if (slot < slots_.size()) return {at, slot};
    // Every slot is busy at `at`. In time order, every slot's last reservation covers `at`:
    // the one that ends first frees first (the lowest index among equals).
    if (!outOfOrder_) return {nodes_[1].minEnd, nodes_[1].minEndSlot};
    // Out of time order, slots may be free between `at` and their last reservations (booked
    // by initiators running ahead): the first slot frees when the span during which all are
    // busy ends. Waiting for the end of a last reservation instead would queue a lagging
    // request behind requests of its future, as a single busy-until time would.
    const Span all = busyTimes(1);
    const Interval* covering = firstEndingAfter(all, at.value());
    if (covering == all.second) return {nodes_[1].minEnd, nodes_[1].minEndSlot};
    const sc_core::sc_time freed = sc_core::sc_time::from_value(covering->end);
    const size_t first = firstFree(freed);
    if (first >= slots_.size()) return {nodes_[1].minEnd, nodes_[1].minEndSlot};
    return {freed, first};
  }
  // Marks slot `slot` busy over [from, until).
  void hold(size_t slot, const sc_core::sc_time& from, const sc_core::sc_time& until) {
    hold(slot, from, until, currentTime());
  }
  void hold(size_t slot, const sc_core::sc_time& from, const sc_core::sc_time& until,
            const sc_core::sc_time& now) {
    if (until <= from) return;
    // The calendar places the reservation in a free gap (not always at `from`): that gap is
    // the busy time the slot gains.
    const sc_core::sc_time start = slots_[slot].reserve(from, until - from, now);
    const size_t leaf = leaves_ + slot;
    nodes_[leaf].minEnd = slots_[slot].freeAt();
    if (outOfOrder_) {
      // The latest last starts serve only requests in time order (firstFreeInOrder), which do
      // not come back: the earliest ends alone, which change far less often.
      for (size_t node = leaf / 2; node >= 1 && updateEarliestEnd(node); node /= 2) {
      }
    } else {
      nodes_[leaf].maxLastStart = slots_[slot].lastStart();
      for (size_t node = leaf / 2; node >= 1 && update(node); node /= 2) {
      }
    }
    if (outOfOrder_)
      addAllBusy(slot, {start.value(), start.value() + (until - from).value()}, now.value());
  }

 private:
  using Span = std::pair<const Interval*, const Interval*>;

  // When every slot of the subtree is busy: disjoint intervals sorted by start (some may have
  // ended already).
  Span busyTimes(size_t node) const {
    if (node >= leaves_) {
      const size_t slot = node - leaves_;
      return slot < slots_.size() ? slots_[slot].reservations() : Span(&always_, &always_ + 1);
    }
    const std::vector<Interval>& list = allBusy_[node];
    return {list.data(), list.data() + list.size()};
  }
  bool busyAt(size_t node, const sc_core::sc_time& at) const {
    const Span s = busyTimes(node);
    const uint64_t t = at.value();
    if (s.first == s.second) return false;
    const Interval& last = *(s.second - 1);
    if (t >= last.start) return last.end > t;  // only the last one can cover t
    const Interval* after = firstAfter<&Interval::start>(s.first, s.second, t);
    return after != s.first && std::prev(after)->end > t;
  }
  // Recomputes an inner node from its children; false if it did not change (then no node
  // above changes either).
  bool update(size_t node) {
    const size_t l = 2 * node, r = 2 * node + 1;
    const size_t from = nodes_[l].minEnd <= nodes_[r].minEnd ? l : r;
    const uint64_t lastStart = std::max(nodes_[l].maxLastStart, nodes_[r].maxLastStart);
    if (nodes_[node].minEnd == nodes_[from].minEnd &&
        nodes_[node].minEndSlot == nodes_[from].minEndSlot &&
        nodes_[node].maxLastStart == lastStart)
      return false;
    nodes_[node].minEnd = nodes_[from].minEnd;
    nodes_[node].minEndSlot = nodes_[from].minEndSlot;
    nodes_[node].maxLastStart = lastStart;
    return true;
  }
  bool updateEarliestEnd(size_t node) {
    const size_t l = 2 * node, r = 2 * node + 1;
    const size_t from = nodes_[l].minEnd <= nodes_[r].minEnd ? l : r;
    if (nodes_[node].minEnd == nodes_[from].minEnd &&
        nodes_[node].minEndSlot == nodes_[from].minEndSlot)
      return false;
    nodes_[node].minEnd = nodes_[from].minEnd;
    nodes_[node].minEndSlot = nodes_[from].minEndSlot;
    return true;
  }
  // The lowest slot free at `at` (slots_.size() or more: none), by the all-busy intersections.
  size_t firstFree(const sc_core::sc_time& at) const {
    if (slots_[0].isFreeAt(at)) return 0;  // the usual answer, without the descent
    if (busyAt(1, at)) return leaves_;
    size_t node = 1;
    while (node < leaves_) node = busyAt(2 * node, at) ? 2 * node + 1 : 2 * node;
    return node - leaves_;
  }
  // The same by the last reservations' ends and starts: a slot is free at `at` if its last
  // reservation ended by then; if it starts after `at`, `at` may fall into a gap before it
  // (its calendar says); otherwise the last reservation covers `at`.
  bool mayBeFree(size_t node, const sc_core::sc_time& at) const {
    return nodes_[node].minEnd <= at || nodes_[node].maxLastStart > at.value();
  }
  size_t firstFreeInOrder(const sc_core::sc_time& at) const {
    for (size_t from = 0;;) {
      const size_t slot = firstMayBeFree(1, 0, leaves_, at, from);
      if (slot >= slots_.size()) return leaves_;
      if (nodes_[leaves_ + slot].minEnd <= at || slots_[slot].isFreeAt(at)) return slot;
      from = slot + 1;
    }
  }
  // The lowest slot >= from in the subtree at `node` (slots [lo, lo + width)) that may be
  // free at `at`; leaves_ if none.
  size_t firstMayBeFree(size_t node, size_t lo, size_t width, const sc_core::sc_time& at,
                        size_t from) const {
    if (lo + width <= from || !mayBeFree(node, at)) return leaves_;
    if (width == 1) return lo;
    const size_t half = width / 2;
    const size_t left = firstMayBeFree(2 * node, lo, half, at, from);
    return left < leaves_ ? left : firstMayBeFree(2 * node + 1, lo + half, half, at, from);
  }
  // Builds every subtree's all-busy intersection from the calendars (requests started coming
  // out of time order).
  void startAllBusy() const {
    outOfOrder_ = true;
    allBusy_.assign(leaves_, {});
    for (size_t node = leaves_ - 1; node >= 1; --node) {
      const Span a = busyTimes(2 * node), b = busyTimes(2 * node + 1);
      std::vector<Interval>& out = allBusy_[node];
      for (const Interval* x = a.first; x != a.second; ++x)
        for (const Interval* y = firstEndingAfter(b, x->start); y != b.second && y->start < x->end;
             ++y)
          out.push_back({std::max(x->start, y->start), std::min(x->end, y->end)});
    }
  }
  // Slot `slot` gained `gained`: adds what it makes all busy to the intersections above it.
  void addAllBusy(size_t slot, Interval gained, uint64_t t) {
    // Of what a subtree gained, the part during which the sibling subtree is all busy too is
    // what the parent gains. Usually that is one interval all the way up.
    size_t node = leaves_ + slot;
    for (; node > 1; node /= 2) {
      const Span sibling = busyTimes(node ^ 1);
      const Interval* y = firstEndingAfter(sibling, gained.start);
      if (y == sibling.second || y->start >= gained.end) return;
      if (y + 1 != sibling.second && (y + 1)->start < gained.end) break;  // several pieces
      gained = {std::max(gained.start, y->start), std::min(gained.end, y->end)};
      if (gained.end <= t) return;
      if (!unite(allBusy_[node / 2], gained, t)) return;  // the parent had it: nothing changes
    }
    if (node <= 1) return;
    added_.assign(1, gained);
    for (; node > 1; node /= 2) {
      intersect(added_, busyTimes(node ^ 1), t, scratch_);
      if (scratch_.empty()) break;
      for (const Interval& piece : scratch_) unite(allBusy_[node / 2], piece, t);
      added_.swap(scratch_);
    }
  }
  // The first interval of a disjoint sorted span (so sorted by end too) that ends after t.
  static const Interval* firstEndingAfter(Span s, uint64_t t) {
    // The usual case, t at or after the last one's start: every other one ended by then.
    if (s.first != s.second && t >= (s.second - 1)->start)
      return (s.second - 1)->end > t ? s.second - 1 : s.second;
    return firstAfter<&Interval::end>(s.first, s.second, t);
  }
  // out = a ∩ b, both disjoint and sorted, without what ended by `now` (no request can
  // arrive before now).
  static void intersect(const std::vector<Interval>& a, Span b, uint64_t now,
                        std::vector<Interval>& out) {
    out.clear();
    for (const Interval& x : a) {
      for (const Interval* y = firstEndingAfter(b, x.start); y != b.second && y->start < x.end;
           ++y) {
        const uint64_t lo = std::max(x.start, y->start);
        const uint64_t hi = std::min(x.end, y->end);
        if (hi > now) out.push_back({lo, hi});
      }
    }
  }
  // list = list ∪ {x} (list disjoint and sorted), touching intervals merged, without what
  // ended by `now`; false if x was in the list already.
  static bool unite(std::vector<Interval>& list, const Interval& x, uint64_t now) {
    if (!list.empty() && list.front().end <= now) dropEnded(list, now);
    // The usual cases: after the last interval, or overlapping it from its start on.
    if (list.empty() || x.start > list.back().end) {
      list.push_back(x);
      return true;
    }
    Interval& last = list.back();
    if (x.start >= last.start) {
      if (x.end <= last.end) return false;
      last.end = x.end;
      return true;
    }
    return uniteInside(list, x);
  }
  static void dropEnded(std::vector<Interval>& list, uint64_t now) {
    auto live = list.begin();
    while (live != list.end() && live->end <= now) ++live;
    list.erase(list.begin(), live);
  }
  static bool uniteInside(std::vector<Interval>& list, const Interval& x) {
    // The first interval that ends at or after x starts: x merges with it and the following
    // ones that start by x's end.
    auto it = std::lower_bound(list.begin(), list.end(), x.start,
                               [](const Interval& i, uint64_t v) { return i.end < v; });
    if (it->start > x.end) {
      list.insert(it, x);
      return true;
    }
    if (it->start <= x.start && x.end <= it->end) return false;
    it->start = std::min(it->start, x.start);
    it->end = std::max(it->end, x.end);
    auto next = std::next(it);
    auto merged = next;
    while (merged != list.end() && merged->start <= it->end) {
      it->end = std::max(it->end, merged->end);
      ++merged;
    }
    list.erase(next, merged);
    return true;
  }

  std::vector<BusyUntil> slots_;
  Interval always_;  // a padding leaf's calendar
  size_t leaves_ = 1;
  // By tree node (1 is the root, leaves_ + i is slot i), together so that a step of a descent
  // or an update reads one host cache line: the earliest end of a last reservation below and
  // the lowest slot ending then; the latest start (ps) of a last reservation below (kept while
  // requests come in time order).
  struct alignas(32) Node {
    sc_core::sc_time minEnd;
    size_t minEndSlot;
    uint64_t maxLastStart;
  };
  std::vector<Node> nodes_;
  // The latest time asked for so far; whether one came before it (then allBusy_ is kept:
  // inner nodes only, the times all slots below are busy). Caches of acquire(): mutable.
  mutable sc_core::sc_time latestRequest_ = sc_core::SC_ZERO_TIME;
  mutable bool outOfOrder_ = false;
  mutable std::vector<std::vector<Interval>> allBusy_;
  // Scratch space of hold(), kept so that it does not allocate.
  std::vector<Interval> added_, scratch_;
};

}  // namespace vgpu
