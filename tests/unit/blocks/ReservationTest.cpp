// The reservation calendar (models/common/Reservation.h): first fit at or after the arrival,
// gaps filled by late arrivals (temporal decoupling), merging.
#include <gtest/gtest.h>
#include <algorithm>
#include <iterator>
#include <random>
#include <systemc>
#include <vector>

#include "TlmTester.h"
#include "common/Reservation.h"

namespace vgpu {

// What the calendar stores, dropped entries included (memory a long run must not grow).
class BusyUntilTestAccess {
 public:
  static size_t storedEntries(const BusyUntil& calendar) { return calendar.intervals_.size(); }
};

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

TEST(Reservation, ZeroOccupancyReservesNothing) {
  BusyUntil r;
  EXPECT_EQ(r.reserve(cycles(5), cycles(0)), cycles(5));
  EXPECT_EQ(r.freeAt(), cycles(0));
  EXPECT_EQ(r.reserve(cycles(0), cycles(10)), cycles(0));
  EXPECT_EQ(r.reserve(cycles(3), cycles(0)), cycles(10));  // inside the reservation: after it
  EXPECT_EQ(r.reserve(cycles(10), cycles(0)), cycles(10));
  EXPECT_EQ(r.freeAt(), cycles(10));
}

// The calendar as first written (a plain first-fit search, every reservation kept apart): the
// reference the faster one must agree with, request for request.
class ReferenceCalendar {
 public:
  sc_core::sc_time reserve(const sc_core::sc_time& at, const sc_core::sc_time& occupancy,
                           const sc_core::sc_time& now) {
    busy_ += occupancy;
    if (occupancy != sc_core::SC_ZERO_TIME) shortest_ = std::min(shortest_, occupancy);
    while (!intervals_.empty() && intervals_.front().second <= now) {
      droppedEnd_ = intervals_.front().second;
      intervals_.erase(intervals_.begin());
    }
    sc_core::sc_time start = at;
    auto it =
        std::upper_bound(intervals_.begin(), intervals_.end(), start,
                         [](const sc_core::sc_time& v, const Interval& i) { return v < i.first; });
    if (it != intervals_.begin() && std::prev(it)->second > start) start = std::prev(it)->second;
    // BusyUntil's bound on the search: after 256 gaps that some request so far could use (at
    // least as long as the shortest occupancy requested), the request goes after the last
    // reservation. Gaps shorter than that are passed without counting.
    for (int gaps = 0; it != intervals_.end() && it->first < start + occupancy; ++it) {
      start = std::max(start, it->second);
      const sc_core::sc_time before =
          it == intervals_.begin() ? droppedEnd_ : std::prev(it)->second;
      if (it->first - before < shortest_) continue;
      if (++gaps == 256) {
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
  size_t entries() const { return intervals_.size(); }

 private:
  using Interval = std::pair<sc_core::sc_time, sc_core::sc_time>;
  std::vector<Interval> intervals_;
  sc_core::sc_time droppedEnd_ = sc_core::SC_ZERO_TIME;  // the last dropped interval's end
  sc_core::sc_time shortest_ = sc_core::sc_max_time();   // the shortest occupancy so far
  sc_core::sc_time busy_ = sc_core::SC_ZERO_TIME;
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

TEST(Reservation, GapsTooShortForAnyRequestAreJoinedAndReopenedForAShorterOne) {
  // A DRAM channel's bus behind decoupled initiators: 2 ns bursts arriving at any picosecond
  // within a window, which leaves gaps of a few hundred picoseconds no burst can use; the
  // calendar joins the bursts around them. Then shorter requests (0.5 ns) and requests that
  // occupy nothing arrive: the joined gaps long enough for them must be found again, and a
  // probe inside a joined gap must see it free.
  using sc_core::SC_PS;
  using sc_core::sc_time;
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    std::mt19937_64 random(seed);
    BusyUntil calendar;
    ReferenceCalendar reference;
    uint64_t nowPs = 0;
    size_t mostEntries = 0, mostReferenceEntries = 0;
    for (int n = 0; n < 40000; ++n) {
      nowPs += random() % 4400;  // the bus about 90 % busy
      const bool shorterPhase = n >= 20000;
      const uint64_t kind = random() % 16;
      uint64_t lengthPs = 2000;
      if (shorterPhase && kind < 4) lengthPs = 500;
      if (shorterPhase && kind == 4) lengthPs = 0;
      const sc_time now(static_cast<double>(nowPs), SC_PS);
      const sc_time at(static_cast<double>(nowPs + random() % 2000000), SC_PS);
      const sc_time occupancy(static_cast<double>(lengthPs), SC_PS);
      ASSERT_EQ(calendar.reserve(at, occupancy, now), reference.reserve(at, occupancy, now))
          << "seed " << seed << " request " << n;
      ASSERT_EQ(calendar.freeAt(), reference.freeAt());
      const sc_time probe(static_cast<double>(nowPs + random() % 2000000), SC_PS);
      ASSERT_EQ(calendar.isFreeAt(probe), reference.isFreeAt(probe))
          << "seed " << seed << " request " << n;
      if (!shorterPhase) {
        const auto [begin, end] = calendar.reservations();
        mostEntries = std::max(mostEntries, static_cast<size_t>(end - begin));
        mostReferenceEntries = std::max(mostReferenceEntries, reference.entries());
      }
    }
    EXPECT_EQ(calendar.busyTime(), reference.busyTime());
    // The joining did happen: with 2 ns bursts only, the calendar kept at most two thirds as
    // many entries as there were reservations apart (about 45 % fewer in these runs).
    EXPECT_GT(mostReferenceEntries, 200u) << "seed " << seed;
    EXPECT_LT(mostEntries * 3, mostReferenceEntries * 2) << "seed " << seed;
  }
}

TEST(Reservation, StorageStaysBoundedWhileTheFirstReservationNeverEnds) {
  // A saturated resource: its first reservation is extended by every late request that fills
  // the gap behind it, so it never ends before the current time and nothing is pruned, while
  // each such request also joins the reservation after the gap (their entries become one) and
  // new reservations queue at the back. The live reservations stay 41; what the calendar
  // stores must stay near that, not grow with every join.
  using sc_core::SC_PS;
  using sc_core::sc_time;
  BusyUntil calendar;
  const sc_time now = sc_core::SC_ZERO_TIME;
  const sc_time burst(10, SC_PS);
  const auto ps = [](uint64_t v) { return sc_time(static_cast<double>(v), SC_PS); };
  // [0, 10), then 40 reservations of 10 ps each 25 ps apart (gaps of 15 ps, long enough).
  uint64_t firstEnd = 10, lastStart = 0;
  ASSERT_EQ(calendar.reserve(ps(0), burst, now), ps(0));
  for (int k = 1; k <= 40; ++k) {
    lastStart = 25 * static_cast<uint64_t>(k);
    ASSERT_EQ(calendar.reserve(ps(lastStart), burst, now), ps(lastStart));
  }
  size_t mostStored = 0;
  for (int n = 0; n < 20000; ++n) {
    // A request at the first reservation's end fills the gap: it starts there, and the
    // first reservation now reaches the end of the one after the gap (15 ps later).
    ASSERT_EQ(calendar.reserve(ps(firstEnd), burst, now), ps(firstEnd)) << "request " << n;
    firstEnd += 25;
    // A new reservation queues at the back, a gap of 15 ps after the last.
    lastStart += 25;
    ASSERT_EQ(calendar.reserve(ps(lastStart), burst, now), ps(lastStart)) << "request " << n;
    const auto [begin, end] = calendar.reservations();
    ASSERT_EQ(end - begin, 41) << "request " << n;
    ASSERT_EQ(begin->start, 0u);
    ASSERT_EQ(begin->end, firstEnd);
    mostStored = std::max(mostStored, BusyUntilTestAccess::storedEntries(calendar));
  }
  EXPECT_LE(mostStored, 200u);
}

}  // namespace
}  // namespace vgpu
