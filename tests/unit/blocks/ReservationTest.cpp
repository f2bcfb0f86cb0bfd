// The reservation calendar (models/common/Reservation.h): first fit at or after the arrival,
// gaps filled by late arrivals (temporal decoupling), merging, and the MSHR slot pool.
#include <gtest/gtest.h>
#include <algorithm>
#include <iterator>
#include <random>
#include <systemc>
#include <vector>

#include "TlmTester.h"
#include "common/Reservation.h"

namespace vgpu {
namespace {

using test::cycles;

TEST(Reservation, BackToBackRequestsQueue) {
  BusyUntil r;
  EXPECT_EQ(r.reserve(cycles(0), cycles(4)), cycles(0));
  EXPECT_EQ(r.reserve(cycles(0), cycles(4)), cycles(4));
  EXPECT_EQ(r.reserve(cycles(2), cycles(1)), cycles(8));
  EXPECT_EQ(r.freeAt(), cycles(9));
  EXPECT_EQ(r.busyTime(), cycles(9));
}

TEST(Reservation, LateArrivalFillsAnEarlierGap) {
  // An initiator running ahead reserved [900, 910); one lagging behind arrives at 100 and must
  // not queue behind the future reservation.
  BusyUntil r;
  EXPECT_EQ(r.reserve(cycles(900), cycles(10)), cycles(900));
  EXPECT_EQ(r.reserve(cycles(100), cycles(10)), cycles(100));
  EXPECT_EQ(r.reserve(cycles(895), cycles(10)), cycles(910));  // does not fit before 900
  EXPECT_EQ(r.reserve(cycles(880), cycles(10)), cycles(880));  // fits exactly before 900
  EXPECT_TRUE(r.isFreeAt(cycles(50)));
  EXPECT_FALSE(r.isFreeAt(cycles(905)));
}

TEST(Reservation, SlotPoolUsesAFreeSlotOrTheFirstToFree) {
  SlotPool mshrs(2);
  auto [s0, i0] = mshrs.acquire(cycles(0));
  EXPECT_EQ(s0, cycles(0));
  mshrs.hold(i0, s0, cycles(100));
  auto [s1, i1] = mshrs.acquire(cycles(0));
  EXPECT_EQ(s1, cycles(0));
  EXPECT_NE(i1, i0);
  mshrs.hold(i1, s1, cycles(50));
  auto [s2, i2] = mshrs.acquire(cycles(10));  // both busy: the one free at 50
  EXPECT_EQ(s2, cycles(50));
  EXPECT_EQ(i2, i1);
}

TEST(Reservation, ZeroOccupancyReservesNothing) {
  BusyUntil r;
  EXPECT_EQ(r.reserve(cycles(5), cycles(0)), cycles(5));
  EXPECT_EQ(r.freeAt(), cycles(0));
  EXPECT_EQ(r.reserve(cycles(0), cycles(10)), cycles(0));
  EXPECT_EQ(r.reserve(cycles(3), cycles(0)), cycles(10));  // inside the reservation: after it
  EXPECT_EQ(r.reserve(cycles(10), cycles(0)), cycles(10));
  EXPECT_EQ(r.freeAt(), cycles(10));
}

TEST(Reservation, SlotPoolFillsAGapOfAnEarlierSlot) {
  // Temporal decoupling: slot 0 was reserved late in time first, so a lagging request finds it
  // free in its gap, and the lowest free slot wins over a higher slot that is also free.
  SlotPool mshrs(4);
  mshrs.hold(0, cycles(500), cycles(600));
  mshrs.hold(1, cycles(0), cycles(1000));
  EXPECT_EQ(mshrs.acquire(cycles(100)), std::make_pair(cycles(100), size_t{0}));
  EXPECT_EQ(mshrs.acquire(cycles(550)), std::make_pair(cycles(550), size_t{2}));
  mshrs.hold(2, cycles(0), cycles(700));
  mshrs.hold(3, cycles(0), cycles(800));
  EXPECT_EQ(mshrs.acquire(cycles(550)), std::make_pair(cycles(600), size_t{0}));
  mshrs.hold(0, cycles(0), cycles(500));  // slot 0 busy from 0 to 600 now
  EXPECT_EQ(mshrs.acquire(cycles(10)), std::make_pair(cycles(600), size_t{0}));
}

TEST(Reservation, SlotPoolSkipsASlotBusyInAGapBeforeItsLastReservation) {
  // Slot 0's last reservation starts after the request, but an earlier one covers it.
  SlotPool mshrs(4);
  mshrs.hold(0, cycles(0), cycles(10));
  mshrs.hold(0, cycles(20), cycles(30));
  mshrs.hold(1, cycles(0), cycles(8));
  EXPECT_EQ(mshrs.acquire(cycles(5)), std::make_pair(cycles(5), size_t{2}));
  EXPECT_EQ(mshrs.acquire(cycles(12)), std::make_pair(cycles(12), size_t{0}));  // in the gap
}

TEST(Reservation, SlotPoolOfOneSlotAndOfANonPowerOfTwo) {
  SlotPool one(1);
  EXPECT_EQ(one.acquire(cycles(3)), std::make_pair(cycles(3), size_t{0}));
  one.hold(0, cycles(3), cycles(9));
  EXPECT_EQ(one.acquire(cycles(4)), std::make_pair(cycles(9), size_t{0}));
  EXPECT_EQ(one.acquire(cycles(1)), std::make_pair(cycles(1), size_t{0}));
  SlotPool three(3);
  for (size_t s = 0; s < 3; ++s) three.hold(s, cycles(0), cycles(10 + 5 * (2 - s)));
  EXPECT_EQ(three.acquire(cycles(5)), std::make_pair(cycles(10), size_t{2}));
}

// The calendar and slot pool as first written (a plain first-fit search and a scan of every
// slot): the reference the faster ones must agree with, request for request.
class ReferenceCalendar {
 public:
  sc_core::sc_time reserve(const sc_core::sc_time& at, const sc_core::sc_time& occupancy,
                           const sc_core::sc_time& now) {
    busy_ += occupancy;
    while (!intervals_.empty() && intervals_.front().second <= now)
      intervals_.erase(intervals_.begin());
    sc_core::sc_time start = at;
    auto it =
        std::upper_bound(intervals_.begin(), intervals_.end(), start,
                         [](const sc_core::sc_time& v, const Interval& i) { return v < i.first; });
    if (it != intervals_.begin() && std::prev(it)->second > start) start = std::prev(it)->second;
    for (int gaps = 0; it != intervals_.end() && it->first < start + occupancy; ++it) {
      start = std::max(start, it->second);
      if (++gaps == 256) {  // BusyUntil's bound on the gaps searched
        start = std::max(start, freeAt());
        break;
      }
    }
    if (occupancy == sc_core::SC_ZERO_TIME) return start;
    const sc_core::sc_time end = start + occupancy;
    auto next =
        std::lower_bound(intervals_.begin(), intervals_.end(), start,
                         [](const Interval& i, const sc_core::sc_time& v) { return i.first < v; });
    sc_core::sc_time mergedEnd = end;
    if (next != intervals_.end() && next->first == end) {
      mergedEnd = next->second;
      next = intervals_.erase(next);
    }
    if (next != intervals_.begin() && std::prev(next)->second == start) {
      std::prev(next)->second = mergedEnd;
      return start;
    }
    intervals_.insert(next, Interval(start, mergedEnd));
    return start;
  }
  sc_core::sc_time freeAt() const {
    return intervals_.empty() ? sc_core::SC_ZERO_TIME : intervals_.back().second;
  }
  bool isFreeAt(const sc_core::sc_time& at) const {
    for (const Interval& i : intervals_)
      if (i.first <= at && at < i.second) return false;
    return true;
  }
  const sc_core::sc_time& busyTime() const { return busy_; }
  // When the run of touching reservations that covers `at` ends (`at` if none covers it).
  sc_core::sc_time busyRunEnd(const sc_core::sc_time& at) const {
    sc_core::sc_time t = at;
    for (const Interval& i : intervals_)
      if (i.first <= t && t < i.second) t = i.second;
    return t;
  }

 private:
  using Interval = std::pair<sc_core::sc_time, sc_core::sc_time>;
  std::vector<Interval> intervals_;
  sc_core::sc_time busy_ = sc_core::SC_ZERO_TIME;
};

class ReferenceSlotPool {
 public:
  explicit ReferenceSlotPool(unsigned slots) : slots_(slots) {}
  std::pair<sc_core::sc_time, size_t> acquire(const sc_core::sc_time& at) const {
    outOfOrder_ = outOfOrder_ || at < latest_;
    latest_ = std::max(latest_, at);
    size_t best = 0;
    sc_core::sc_time bestStart = sc_core::sc_max_time();
    for (size_t i = 0; i < slots_.size(); ++i) {
      if (slots_[i].freeAt() <= at || slots_[i].isFreeAt(at)) return {at, i};
      if (slots_[i].freeAt() < bestStart) bestStart = slots_[i].freeAt(), best = i;
    }
    if (!outOfOrder_) return {bestStart, best};
    // Once requests came out of time order: the first moment after `at` at which some slot is
    // free (the earliest end of the busy run covering `at`), and the lowest slot free then.
    sc_core::sc_time freed = sc_core::sc_max_time();
    for (const ReferenceCalendar& slot : slots_) freed = std::min(freed, slot.busyRunEnd(at));
    for (size_t i = 0; i < slots_.size(); ++i)
      if (slots_[i].isFreeAt(freed)) return {freed, i};
    return {bestStart, best};
  }
  void hold(size_t slot, const sc_core::sc_time& from, const sc_core::sc_time& until,
            const sc_core::sc_time& now) {
    if (until > from) slots_[slot].reserve(from, until - from, now);
  }

 private:
  std::vector<ReferenceCalendar> slots_;
  mutable bool outOfOrder_ = false;
  mutable sc_core::sc_time latest_ = sc_core::SC_ZERO_TIME;
};

// Requests as temporal decoupling delivers them: SystemC time advances, and each request
// arrives at now plus how far its initiator runs ahead (up to a quantum), so arrivals are out
// of time order; occupancies vary, some are zero.
struct DecoupledArrivals {
  std::mt19937_64 random;
  uint64_t nowCycles = 0;
  explicit DecoupledArrivals(uint64_t seed) : random(seed) {}
  sc_core::sc_time now() const { return cycles(static_cast<double>(nowCycles)); }
  sc_core::sc_time next(uint64_t quantum) {
    if (random() % 4 == 0) nowCycles += random() % 20;
    return cycles(static_cast<double>(nowCycles + random() % quantum));
  }
  sc_core::sc_time occupancy(uint64_t longest) {
    return cycles(static_cast<double>(random() % 8 == 0 ? 0 : 1 + random() % longest));
  }
};

TEST(Reservation, CalendarMatchesTheFirstFitSearchUnderDecoupling) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    DecoupledArrivals arrivals(seed);
    BusyUntil calendar;
    ReferenceCalendar reference;
    // Short quanta make requests mostly arrive in order (the fast path), long ones fragment
    // the calendar past the bounded gap search.
    const uint64_t quantum = seed % 2 ? 8 : 2000;
    for (int n = 0; n < 5000; ++n) {
      const sc_core::sc_time at = arrivals.next(quantum);
      const sc_core::sc_time occupancy = arrivals.occupancy(seed % 3 ? 4 : 60);
      ASSERT_EQ(calendar.reserve(at, occupancy, arrivals.now()),
                reference.reserve(at, occupancy, arrivals.now()))
          << "seed " << seed << " request " << n;
      ASSERT_EQ(calendar.freeAt(), reference.freeAt());
      const sc_core::sc_time probe = arrivals.next(quantum);
      ASSERT_EQ(calendar.isFreeAt(probe), reference.isFreeAt(probe));
    }
    EXPECT_EQ(calendar.busyTime(), reference.busyTime());
  }
}

TEST(Reservation, CalendarMatchesTheFirstFitSearchWithABacklogFarAhead) {
  // A memory behind decoupled initiators whose requests wait far past the current time (as
  // behind a saturated DRAM): thousands of short intervals with gaps, while lagging requests
  // land just after the current time. Inserts and merges then happen near both ends of a long
  // calendar and in its middle, and the dropped intervals in front are reused and compacted.
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    DecoupledArrivals arrivals(seed);
    BusyUntil calendar;
    ReferenceCalendar reference;
    const uint64_t window = seed % 2 ? 10000 : 3000;
    size_t longest = 0;
    for (int n = 0; n < 30000; ++n) {
      ++arrivals.nowCycles;
      const uint64_t kind = arrivals.random() % 8;
      sc_core::sc_time at;
      if (kind < 3)  // lagging: near the front
        at = cycles(static_cast<double>(arrivals.nowCycles + arrivals.random() % 32));
      else if (kind < 7)  // anywhere in the window
        at = cycles(static_cast<double>(arrivals.nowCycles + arrivals.random() % window));
      else  // at or just after the end of the last reservation
        at = std::max(arrivals.now(), calendar.freeAt()) +
             cycles(static_cast<double>(arrivals.random() % 2));
      const sc_core::sc_time occupancy = cycles(static_cast<double>(1 + arrivals.random() % 2));
      ASSERT_EQ(calendar.reserve(at, occupancy, arrivals.now()),
                reference.reserve(at, occupancy, arrivals.now()))
          << "seed " << seed << " request " << n;
      ASSERT_EQ(calendar.freeAt(), reference.freeAt());
      const sc_core::sc_time probe =
          cycles(static_cast<double>(arrivals.nowCycles + arrivals.random() % window));
      ASSERT_EQ(calendar.isFreeAt(probe), reference.isFreeAt(probe));
      const auto [begin, end] = calendar.reservations();
      longest = std::max(longest, static_cast<size_t>(end - begin));
    }
    EXPECT_EQ(calendar.busyTime(), reference.busyTime());
    EXPECT_GT(longest, 300u) << "seed " << seed;  // the calendar did grow long
  }
}

TEST(Reservation, SlotPoolMatchesTheScanOfEverySlotUnderDecoupling) {
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    DecoupledArrivals arrivals(seed);
    const unsigned slots = seed % 3 == 0 ? 5 : seed % 3 == 1 ? 16 : 64;
    SlotPool pool(slots);
    ReferenceSlotPool reference(slots);
    const uint64_t quantum = seed % 2 ? 50 : 1000;
    for (int n = 0; n < 4000; ++n) {
      const sc_core::sc_time at = arrivals.next(quantum);
      const auto got = pool.acquire(at);
      ASSERT_EQ(got, reference.acquire(at)) << "seed " << seed << " request " << n;
      // A miss holds its slot from the start it got for its latency; sometimes a slot other
      // than the one offered is held (the pool must not rely on acquire-then-hold).
      const size_t slot = arrivals.random() % 16 == 0 ? arrivals.random() % slots : got.second;
      const sc_core::sc_time until = got.first + arrivals.occupancy(400);
      pool.hold(slot, got.first, until, arrivals.now());
      reference.hold(slot, got.first, until, arrivals.now());
    }
  }
}

TEST(Reservation, SlotPoolMatchesTheScanInTimeOrder) {
  // Requests in time order, but reservations that leave gaps (a slot held later than offered,
  // or another slot than offered), so a slot's last reservation may start after a request
  // that an earlier one covers.
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    DecoupledArrivals arrivals(seed);
    const unsigned slots = seed % 2 ? 16 : 5;
    SlotPool pool(slots);
    ReferenceSlotPool reference(slots);
    for (int n = 0; n < 4000; ++n) {
      const sc_core::sc_time at = arrivals.next(1);
      const auto got = pool.acquire(at);
      ASSERT_EQ(got, reference.acquire(at)) << "seed " << seed << " request " << n;
      const bool other = arrivals.random() % 4 == 0;
      const size_t slot = other ? arrivals.random() % slots : got.second;
      const sc_core::sc_time from = got.first + (other ? arrivals.occupancy(200) : cycles(0));
      const sc_core::sc_time until = from + arrivals.occupancy(100);
      pool.hold(slot, from, until, arrivals.now());
      reference.hold(slot, from, until, arrivals.now());
    }
  }
}

TEST(Reservation, SlotPoolMatchesTheScanWhenRequestsTurnOutOfOrder) {
  // In time order (one initiator) the pool answers from the last reservations alone; from the
  // first request out of order on, from the all-busy intersections it then builds.
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    DecoupledArrivals arrivals(seed);
    const unsigned slots = seed % 2 ? 64 : 7;
    SlotPool pool(slots);
    ReferenceSlotPool reference(slots);
    for (int n = 0; n < 6000; ++n) {
      const uint64_t quantum = n < 3000 ? 1 : 800;  // in time order, then decoupled
      const sc_core::sc_time at = arrivals.next(quantum);
      const auto got = pool.acquire(at);
      ASSERT_EQ(got, reference.acquire(at)) << "seed " << seed << " request " << n;
      const sc_core::sc_time until = got.first + arrivals.occupancy(300);
      pool.hold(got.second, got.first, until, arrivals.now());
      reference.hold(got.second, got.first, until, arrivals.now());
    }
  }
}

}  // namespace
}  // namespace vgpu
