// N identical servers held for intervals (a cache's miss-status holding registers): a request
// starts at the first time, at or after its arrival, at which fewer than N holds are in
// progress.
//
// The pool counts holds; it does not give each one a server of its own. Holds arriving in time
// order, each starting when the pool offered it a start, are the classic first-come
// first-served queue of N servers, and counting gives the same starts as assigning servers
// would. Out of time order (a shared cache behind temporally decoupled CUs, each up to a quantum
// ahead of SystemC time) assigning servers goes wrong in a way counting does not: a lagging
// request may find every server holding a reservation of some initiator's future around its
// own time although fewer than N are in progress then, and a reservation that an initiator
// running ahead made on one server has to move past a lagging one's on the same server. Counting
// asks only what the hardware asks, how many misses are in flight at the request's time.
//
// Two ways of answering, the same answers:
// - in time order (one initiator, as a CU's vector L1): a heap of the servers' free times. A
//   request starts at its arrival if a server is free by then, else when the first frees.
// - from the first request out of time order (or a hold the pool did not offer) on: the starts
//   and ends of the holds still in progress, counted at the request's time (most often bounded
//   from above well enough by a count per time bucket, HoldOverlapBound), and the times found
//   to have N or more in progress (saturated), which later requests jump over.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include <systemc>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "common/Reservation.h"

namespace vgpu {

// A sorted multiset of times in blocks of at most 2 x kBlock. A pool behind decoupled CUs
// holds thousands when DRAM is saturated (holds reach far past the current time, and lagging
// CUs add theirs in the middle): a block bounds what an insert moves, and the
// blocks' last values and sizes, side by side, find a time's block and rank.
// (One sorted vector moved 1.4 G host instructions' worth of memory on private_array's 60-CU run,
// where an L2 channel's pool held 3,000 holds on average.)
class SortedTimes {
 public:
  // The index of the first of the n sorted values at p after t.
  static size_t upperBound(const uint64_t* p, size_t n, uint64_t t) {
    return static_cast<size_t>(firstKeyAfter(p, p + n, t, [](uint64_t v) { return v; }) - p);
  }
  static constexpr size_t kBlock = 64;
  // A value's place: block and index in it (block == blocks: past the last value).
  struct Cursor {
    size_t block, index;
  };

  size_t size() const { return size_; }
  bool atEnd(const Cursor& c) const { return c.block == blocks_.size(); }
  uint64_t at(const Cursor& c) const { return blocks_[c.block][c.index]; }
  void advance(Cursor& c) const {
    if (++c.index == blocks_[c.block].size()) ++c.block, c.index = 0;
  }
  uint64_t front() const { return blocks_.front().front(); }

  // The first value after t, and the number of values before it (at or before t).
  Cursor firstAfter(uint64_t t, size_t& rank) const {
    const size_t block = firstBlockEndingAfter(t), blocks = blocks_.size();
    // The values in the blocks before, counted from the nearer end.
    if (block * 2 <= blocks) {
      rank = 0;
      for (size_t b = 0; b < block; ++b) rank += sizes_[b];
    } else {
      rank = size_;
      for (size_t b = block; b < blocks; ++b) rank -= sizes_[b];
    }
    if (block == blocks) return {block, 0};
    const std::vector<uint64_t>& v = blocks_[block];
    const size_t index = upperBound(v.data(), v.size(), t);
    rank += index;
    return {block, index};
  }
  size_t countAtOrBefore(uint64_t t) const {
    size_t rank;
    firstAfter(t, rank);
    return rank;
  }
  void insert(uint64_t x) {
    ++size_;
    if (blocks_.empty()) {
      blocks_.push_back({x});
      lasts_.push_back(x), sizes_.push_back(1);
      return;
    }
    // The first block whose last value is after x, or the last block.
    const size_t block = std::min(firstBlockEndingAfter(x), blocks_.size() - 1);
    std::vector<uint64_t>& v = blocks_[block];
    v.insert(v.begin() + static_cast<std::ptrdiff_t>(upperBound(v.data(), v.size(), x)), x);
    lasts_[block] = v.back(), ++sizes_[block];
    if (v.size() < 2 * kBlock) return;
    // Split in two halves.
    std::vector<uint64_t> upper(v.begin() + kBlock, v.end());
    v.resize(kBlock);
    lasts_[block] = v.back(), sizes_[block] = static_cast<uint32_t>(kBlock);
    const auto at = static_cast<std::ptrdiff_t>(block + 1);
    lasts_.insert(lasts_.begin() + at, upper.back());
    sizes_.insert(sizes_.begin() + at, static_cast<uint32_t>(upper.size()));
    blocks_.insert(blocks_.begin() + at, std::move(upper));
  }
  // Drops the first k values.
  void dropFront(size_t k) {
    size_ -= k;
    size_t whole = 0;
    while (whole < blocks_.size() && k >= sizes_[whole]) k -= sizes_[whole++];
    if (whole != 0) {
      const auto n = static_cast<std::ptrdiff_t>(whole);
      blocks_.erase(blocks_.begin(), blocks_.begin() + n);
      lasts_.erase(lasts_.begin(), lasts_.begin() + n);
      sizes_.erase(sizes_.begin(), sizes_.begin() + n);
    }
    if (k != 0) {
      std::vector<uint64_t>& v = blocks_.front();
      v.erase(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k));
      sizes_.front() -= static_cast<uint32_t>(k);
    }
  }
  // Every value, in order, after those already in `out`.
  void appendTo(std::vector<uint64_t>& out) const {
    for (const std::vector<uint64_t>& v : blocks_) out.insert(out.end(), v.begin(), v.end());
  }
  void assign(const std::vector<uint64_t>& sorted) {
    blocks_.clear(), lasts_.clear(), sizes_.clear();
    size_ = sorted.size();
    for (size_t i = 0; i < sorted.size(); i += kBlock) {
      const size_t n = std::min(kBlock, sorted.size() - i);
      blocks_.emplace_back(sorted.begin() + static_cast<std::ptrdiff_t>(i),
                           sorted.begin() + static_cast<std::ptrdiff_t>(i + n));
      lasts_.push_back(blocks_.back().back()), sizes_.push_back(static_cast<uint32_t>(n));
    }
  }

 private:
  size_t firstBlockEndingAfter(uint64_t t) const {
    // The usual case: after every value (requests in time order).
    if (lasts_.empty() || lasts_.back() <= t) return lasts_.size();
    return upperBound(lasts_.data(), lasts_.size(), t);
  }

  std::vector<std::vector<uint64_t>> blocks_;  // each sorted and not empty
  std::vector<uint64_t> lasts_;                // each block's last value
  std::vector<uint32_t> sizes_;                // each block's size
  size_t size_ = 0;
};

// At least as many holds as are in progress at a time, found in one read: per bucket of
// 2^bucketShift ps, the holds that overlap the bucket (a hold in progress at t overlaps t's
// bucket). Behind decoupled CUs an L2 channel's pool of 256 MSHRs keeps about 1,900 holds
// (they reach far past the current time) and fewer than 256 are in progress at almost every
// request's time; the bound answers those requests without ranking the time among the holds'
// starts and ends. The buckets form a ring from the current time's; a hold longer than
// `longestSpan` buckets, or reaching past the ring, counts at every time until it ends.
class HoldOverlapBound {
 public:
  struct Shape {
    unsigned bucketShift = 14;  // 16.4 ns: a few holds start and end in a bucket
    uint32_t buckets = 4096;    // a power of two: 67 us ahead of the current time
    uint32_t longestSpan = 256;
  };
  explicit HoldOverlapBound(const Shape& shape)
      : shift_(shape.bucketShift),
        longestSpan_(std::max<uint32_t>(1, shape.longestSpan)),
        counts_(powerOfTwoAtLeast(shape.buckets), 0) {}

  // No time before `now` is asked about again: the buckets before now's are reused.
  void advance(uint64_t now) {
    const uint64_t bucket = now >> shift_;
    if (bucket > base_) {
      if (bucket - base_ >= counts_.size()) {
        std::fill(counts_.begin(), counts_.end(), 0);
      } else {
        for (uint64_t b = base_; b < bucket; ++b) counts_[b & mask()] = 0;
      }
      base_ = bucket;
    }
    if (farSoonestEnd_ <= now) {  // holds counted at every time that have ended
      farEnds_.erase(std::remove_if(farEnds_.begin(), farEnds_.end(),
                                    [now](uint64_t end) { return end <= now; }),
                     farEnds_.end());
      farSoonestEnd_ =
          farEnds_.empty() ? UINT64_MAX : *std::min_element(farEnds_.begin(), farEnds_.end());
    }
  }
  // A hold over [from, until), until > from.
  void add(uint64_t from, uint64_t until) {
    const uint64_t first = std::max(from >> shift_, base_), last = (until - 1) >> shift_;
    if (last < first) return;  // ended before the current time's bucket: never asked about
    if (last - first >= longestSpan_ || last - base_ >= counts_.size()) {
      farEnds_.push_back(until);
      farSoonestEnd_ = std::min(farSoonestEnd_, until);
      return;
    }
    // The buckets from first to last are one run of the ring or two (it wraps): each run is
    // counted four buckets at a time. An L2 channel's holds behind decoupled CUs span many
    // buckets (a miss's round trip and its queueing at the DRAM).
    const size_t start = static_cast<size_t>(first & mask()), count = last - first + 1;
    const size_t run = std::min(count, counts_.size() - start);
    countOnce(&counts_[start], run);
    countOnce(&counts_[0], count - run);
  }
  // At least the holds in progress at t (t at or after the `now` last advanced to).
  uint64_t atLeastInProgress(uint64_t t) const {
    const uint64_t bucket = t >> shift_;
    if (bucket - base_ >= counts_.size()) return UINT64_MAX;  // past the ring: no bound
    return counts_[bucket & mask()] + farEnds_.size();
  }

 private:
  static size_t powerOfTwoAtLeast(uint32_t n) {
    size_t p = 2;
    while (p < n) p *= 2;
    return p;
  }
  uint64_t mask() const { return counts_.size() - 1; }
  // Adds one to each of the n counts from p on.
  static void countOnce(uint32_t* p, size_t n) {
    size_t i = 0;
#if defined(__SSE2__)
    const __m128i one = _mm_set1_epi32(1);
    for (; i + 4 <= n; i += 4) {
      __m128i* q = reinterpret_cast<__m128i*>(p + i);
      _mm_storeu_si128(q, _mm_add_epi32(_mm_loadu_si128(q), one));
    }
#endif
    for (; i < n; ++i) ++p[i];
  }
  unsigned shift_;
  uint32_t longestSpan_;
  std::vector<uint32_t> counts_;  // bucket b at b & mask(), for b from base_ on
  uint64_t base_ = 0;
  std::vector<uint64_t> farEnds_;  // the ends of the holds counted at every time
  uint64_t farSoonestEnd_ = UINT64_MAX;
};

// A vector used as a queue, its entries before `head` dropped: once the dropped ones are most
// of it (and at least 64), they are erased in one move, which keeps the front from being erased
// entry by entry.
template <class T>
void eraseDroppedFront(std::vector<T>& v, size_t& head) {
  if (head >= 64 && head * 2 >= v.size()) {
    v.erase(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(head));
    head = 0;
  }
}

// The holds a pool answering in time order has made, kept only for a change to counting: in
// the order they were made, as 32-bit picosecond offsets from a base, and the ended ones dropped
// from the front as new ones come. A CU's vector L1 pool makes one per miss and keeps hundreds
// when DRAM is saturated (its misses end far past the current time). Behind 60 CUs each CU's
// records are cold again at its next quantum: kept as full times and swept now and then, they
// made a 60-CU pointer chase miss the host's last level 2.91 M times, 2.11 M kept this way
// (valgrind cachegrind, 2 MiB last level).
class RecentHolds {
 public:
  // Records [from, until), from the current time `now` on (the same to every count at a time
  // from now on: no time before is asked about); false (nothing recorded) if the holds kept
  // and this one span more than 2^32 ps (4.3 ms): the pool counts instead.
  [[gnu::always_inline]] bool add(uint64_t from, uint64_t until, uint64_t now) {
    // Holds at the front that ended are forgotten once per current time: every hold added at
    // one current time ends after it.
    if (now != droppedAt_) dropEndedAtFront(now);
    from = std::max(from, now);
    if (until <= from) return true;  // ended: counts at no time asked about
    if (from < base_ || until - base_ > UINT32_MAX) {
      if (!rebase(from, until, now)) return false;
    }
    holds_.push_back({static_cast<uint32_t>(from - base_), static_cast<uint32_t>(until - base_)});
    return true;
  }
  // Calls f(start, end) for every hold kept that ends after `now`.
  template <class F>
  void forEachEndingAfter(uint64_t now, F f) const {
    for (size_t i = head_; i < holds_.size(); ++i) {
      const uint64_t start = base_ + holds_[i].start, end = base_ + holds_[i].end;
      if (end > now) f(start, end);
    }
  }
  void clear() {
    holds_.clear(), holds_.shrink_to_fit();
    head_ = 0;
    droppedAt_ = UINT64_MAX;
  }

 private:
  struct Hold {
    uint32_t start, end;  // ps after base_
  };
  // Holds are made in time order, and most end in about the order they started: the front is
  // where the ended ones are. One that ended behind a longer one waits for it to end.
  [[gnu::noinline]] void dropEndedAtFront(uint64_t now) {
    droppedAt_ = now;
    if (now <= base_) return;  // every hold ends after base_
    const uint64_t ended = std::min<uint64_t>(now - base_, UINT32_MAX);
    while (head_ < holds_.size() && holds_[head_].end <= ended) ++head_;
    if (head_ == holds_.size()) {  // none kept: offsets from the current time
      holds_.clear(), head_ = 0;
      base_ = now;
      return;
    }
    eraseDroppedFront(holds_, head_);
  }
  // A new base, when the holds kept no longer fit their offsets (rare: after 4.3 ms, or a hold
  // ending that long after the current time). The ended ones go, and a start before `now`
  // becomes `now` (the same to every count at a time from now on, and no time before is asked
  // about): the base is then the earliest start, and false means a hold ends more than
  // 4.3 ms after it.
  [[gnu::noinline]] bool rebase(uint64_t from, uint64_t until, uint64_t now) {
    uint64_t lowest = from, highest = until;  // from >= now
    for (size_t i = head_; i < holds_.size(); ++i) {
      const uint64_t end = base_ + holds_[i].end;
      if (end <= now) continue;
      lowest = std::min(lowest, std::max(base_ + holds_[i].start, now));
      highest = std::max(highest, end);
    }
    if (highest - lowest > UINT32_MAX) return false;  // kept as they are, for the change
    size_t kept = 0;
    for (size_t i = head_; i < holds_.size(); ++i) {
      const uint64_t start = std::max(base_ + holds_[i].start, now), end = base_ + holds_[i].end;
      if (end > now)
        holds_[kept++] =
            Hold{static_cast<uint32_t>(start - lowest), static_cast<uint32_t>(end - lowest)};
    }
    holds_.resize(kept), head_ = 0;
    base_ = lowest;
    return true;
  }
  std::vector<Hold> holds_;  // from head_ on
  size_t head_ = 0;
  uint64_t base_ = 0;
  uint64_t droppedAt_ = UINT64_MAX;  // the current time ended holds were last dropped at
};

class ServerPool {
 public:
  using Interval = CalendarInterval;

  explicit ServerPool(unsigned servers, const HoldOverlapBound::Shape& boundShape = {})
      : servers_(std::max(1u, servers)), boundShape_(boundShape) {
    freeAt_.assign(servers_, 0);  // a heap (all equal)
  }

  // The earliest time at or after `at` at which fewer than N holds are in progress (the
  // current SystemC time is `now`, at >= now).
  sc_core::sc_time acquire(const sc_core::sc_time& at, const sc_core::sc_time& now) {
    const uint64_t t = at.value();
    if (inOrder_ && t < latestArrival_) startCounting(now.value());
    latestArrival_ = std::max(latestArrival_, t);
    if (inOrder_) {
      // Every server frees at its free time and stays free (nothing was booked after it).
      const uint64_t first = freeAt_.front();
      offered_ = first <= t ? t : first;
      offerPending_ = true;
      return first <= t ? at : timeFromValue(first);
    }
    prune(now.value());
    const uint64_t start = firstUnsaturated(t);
    return start == t ? at : timeFromValue(start);
  }

  // A hold over [from, until): the request that acquired `from` (usually) is in progress.
  void hold(const sc_core::sc_time& from, const sc_core::sc_time& until,
            const sc_core::sc_time& now) {
    const uint64_t f = from.value(), u = until.value();
    const bool offered = offerPending_ && f == offered_;
    offerPending_ = false;
    if (u <= f) return;
    if (inOrder_ && !offered) startCounting(now.value());
    // Kept for the change to counting; a hold the compact records cannot take changes now.
    if (inOrder_ && !recent_.add(f, u, now.value())) startCounting(now.value());
    if (inOrder_) {
      // The server that frees first takes it (free by `from`, the start the pool offered).
      std::pop_heap(freeAt_.begin(), freeAt_.end(), std::greater<>());
      freeAt_.back() = u;
      std::push_heap(freeAt_.begin(), freeAt_.end(), std::greater<>());
      return;
    }
    prune(now.value());
    addHold(f, u, now.value());
  }

 private:
  // --- Counting unsorted ---
  // The holds in holds_, unsorted; those ended by `now` go now and then.
  void recordHold(uint64_t from, uint64_t until, uint64_t now) {
    holds_.push_back({from, until});
    if (holds_.size() >= dropAt_) {
      dropEndedHolds(now);
      dropEndedHoldsLater();
    }
  }
  // The ended holds go next when holds_ has grown to twice its size now: dropping costs a
  // pass over them, paid once per as many holds added.
  void dropEndedHoldsLater() { dropAt_ = 2 * holds_.size() + 64; }
  void dropEndedHolds(uint64_t now) {
    holds_.erase(std::remove_if(holds_.begin(), holds_.end(),
                                [now](const Interval& h) { return h.end <= now; }),
                 holds_.end());
  }
  // Requests stopped coming in time order: the holds in progress become the counted ones.
  void startCounting(uint64_t now) {
    inOrder_ = false;
    recent_.forEachEndingAfter(now, [this](uint64_t start, uint64_t end) {
      holds_.push_back({start, end});
    });
    recent_.clear();
    dropEndedHoldsLater();
    bound_.emplace(boundShape_);
    bound_->advance(now);
    for (const Interval& h : holds_) bound_->add(h.start, h.end);
    freeAt_.clear();
    freeAt_.shrink_to_fit();
  }

  // --- Counting ---
  // The number of holds in progress at t is the starts at or before t less the ends at or
  // before t. The bound (bound_) answers most requests; the starts and ends answer the rest,
  // kept one of two ways:
  // - unsorted (holds_, as in time order: appending costs nothing), counted hold by hold:
  //   while the bound's answer is rarely not enough (an L2 channel behind 60 CUs: a few
  //   requests in a thousand);
  // - sorted (SortedTimes: ranked, and walked to the first time fewer than N are in
  //   progress), from a request that finds N or more in progress on, until as many requests
  //   in a row as there are holds found fewer (a saturated pool asks often).
  // Sorted, the holds that ended by `now` are dropped with as many of the earliest starts:
  // those are at or before `now` too, so the difference stays the same for every t >= now, and
  // no request asks about an earlier time. Unsorted, ended holds go now and then.
  void prune(uint64_t now) {
    bound_->advance(now);
    if (sorted_ && ends_.size() != 0 && ends_.front() <= now) {
      const size_t ended = ends_.countAtOrBefore(now);
      ends_.dropFront(ended);
      starts_.dropFront(ended);
    }
    if (saturatedHead_ < saturated_.size() && saturated_[saturatedHead_].end <= now) {
      while (saturatedHead_ < saturated_.size() && saturated_[saturatedHead_].end <= now)
        ++saturatedHead_;
      eraseDroppedFront(saturated_, saturatedHead_);
    }
  }
  // The first time at or after t at which fewer than N holds are in progress. Saturated
  // times found once stay saturated (a hold only adds to the holds in progress, and those that
  // ended go only before the current time), so they are kept and jumped over next time.
  uint64_t firstUnsaturated(uint64_t t) {
    for (;;) {
      t = pastKnownSaturated(t);
      if (bound_->atLeastInProgress(t) < servers_) return unsaturated(t);
      if (!sorted_) {
        if (unsortedInProgress(t) < servers_) return t;
        sort();
      }
      size_t started, ended;
      SortedTimes::Cursor start = starts_.firstAfter(t, started);
      SortedTimes::Cursor end = ends_.firstAfter(t, ended);
      size_t inProgress = started - ended;
      if (inProgress < servers_) return unsaturated(t);
      unsaturatedInARow_ = 0;
      // Walk the starts and ends from t until fewer than N are in progress.
      const uint64_t from = t;
      while (inProgress >= servers_) {
        // An end remains: N or more are in progress.
        t = starts_.atEnd(start) ? ends_.at(end) : std::min(starts_.at(start), ends_.at(end));
        while (!ends_.atEnd(end) && ends_.at(end) == t) ends_.advance(end), --inProgress;
        while (!starts_.atEnd(start) && starts_.at(start) == t)
          starts_.advance(start), ++inProgress;
      }
      addSaturated(from, t);
    }
  }
  // A request found fewer than N in progress at t; sorted holds go back to unsorted after as
  // many such requests in a row as there are holds (sorting them again costs about as much as
  // inserting that many).
  uint64_t unsaturated(uint64_t t) {
    if (sorted_ && ++unsaturatedInARow_ >= std::max<size_t>(256, ends_.size())) unsort();
    return t;
  }
  // The end of the known saturated interval holding t (t if none does).
  uint64_t pastKnownSaturated(uint64_t t) const {
    const Interval* begin = saturated_.data() + saturatedHead_;
    const Interval* end = saturated_.data() + saturated_.size();
    if (begin == end) return t;
    const Interval& last = *(end - 1);
    if (t >= last.start) return t < last.end ? last.end : t;
    const Interval* after = vgpu::firstAfter<&Interval::start>(begin, end, t);
    if (after != begin && (after - 1)->end > t) return (after - 1)->end;
    return t;
  }
  void addHold(uint64_t from, uint64_t until, uint64_t now) {
    bound_->add(from, until);
    if (sorted_) {
      starts_.insert(from);
      ends_.insert(until);
      return;
    }
    recordHold(from, until, now);
  }
  // Unsorted: the holds in progress at t.
  size_t unsortedInProgress(uint64_t t) const {
    size_t inProgress = 0;
    for (const Interval& h : holds_) inProgress += h.start <= t && t < h.end ? 1 : 0;
    return inProgress;
  }
  void sort() {
    std::vector<uint64_t> starts, ends;
    for (const Interval& h : holds_) starts.push_back(h.start), ends.push_back(h.end);
    std::sort(starts.begin(), starts.end());
    std::sort(ends.begin(), ends.end());
    starts_.assign(starts);
    ends_.assign(ends);
    holds_.clear();
    sorted_ = true;
    unsaturatedInARow_ = 0;
  }
  void unsort() {
    // The i-th start with the i-th end, in sorted order: there are as many of each (they are
    // dropped in pairs), and the i-th start is at or before the i-th end (true of any set of
    // holds, and kept by adding a hold or by dropping ended ones with as many earliest
    // starts). An end at or before t then has its start there too, so the pairs in progress at
    // every t are what the starts and ends count.
    std::vector<uint64_t> starts, ends;
    starts_.appendTo(starts);
    ends_.appendTo(ends);
    for (size_t i = 0; i < starts.size(); ++i) holds_.push_back({starts[i], ends[i]});
    starts_.assign({}), ends_.assign({});
    dropEndedHoldsLater();
    sorted_ = false;
  }
  // saturated_ = saturated_ ∪ [start, end), touching intervals merged.
  void addSaturated(uint64_t start, uint64_t end) {
    std::vector<Interval>& list = saturated_;
    if (list.size() == saturatedHead_ || start > list.back().end) {
      list.push_back({start, end});
      return;
    }
    Interval& last = list.back();
    if (start >= last.start) {
      last.end = std::max(last.end, end);
      return;
    }
    // The first interval ending at or after `start`: the new one merges with it and with
    // those after it that start by `end`.
    auto first =
        std::lower_bound(list.begin() + static_cast<std::ptrdiff_t>(saturatedHead_), list.end(),
                         start, [](const Interval& i, uint64_t v) { return i.end < v; });
    if (first->start > end) {
      list.insert(first, Interval{start, end});
      return;
    }
    first->start = std::min(first->start, start);
    first->end = std::max(first->end, end);
    auto next = first + 1, merged = next;
    while (merged != list.end() && merged->start <= first->end) {
      first->end = std::max(first->end, merged->end);
      ++merged;
    }
    list.erase(next, merged);
  }

  unsigned servers_;
  bool inOrder_ = true;
  uint64_t latestArrival_ = 0;
  // The start offered by the last acquire, for its hold.
  uint64_t offered_ = 0;
  bool offerPending_ = false;
  // In time order: the servers' free times (a min-heap), and the holds still in progress or
  // to come. Counting unsorted: the holds since the oldest still in progress.
  std::vector<uint64_t> freeAt_;
  RecentHolds recent_;
  std::vector<Interval> holds_;
  size_t dropAt_ = 64;  // the size of holds_ at which the ended ones go
  // Counting: the starts and ends of the holds in progress, sorted or not; the bound on them;
  // the saturated times, disjoint and sorted, from saturatedHead_ on.
  bool sorted_ = false;
  SortedTimes starts_, ends_;
  size_t unsaturatedInARow_ = 0;  // sorted: requests in a row that found fewer than N
  HoldOverlapBound::Shape boundShape_;
  std::optional<HoldOverlapBound> bound_;  // made on the change to counting
  std::vector<Interval> saturated_;
  size_t saturatedHead_ = 0;
};

}  // namespace vgpu
