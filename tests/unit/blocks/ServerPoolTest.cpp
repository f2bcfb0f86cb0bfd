// The MSHR pool (models/common/ServerPool.h): a request starts at the first time, at or after
// its arrival, at which fewer than N holds are in progress. Hand-worked cases for each way the
// pool answers, and a comparison, request for request, with that definition evaluated
// directly over every hold made.
#include <gtest/gtest.h>
#include <algorithm>
#include <cstdint>
#include <iterator>
#include <random>
#include <set>
#include <systemc>
#include <utility>
#include <vector>

#include "TlmTester.h"
#include "common/ServerPool.h"

namespace vgpu {
namespace {

using sc_core::sc_time;
using test::cycles;

const sc_time kStart = sc_core::SC_ZERO_TIME;

TEST(ServerPool, InTimeOrderARequestStartsOnArrivalOrWhenTheFirstHoldEnds) {
  ServerPool mshrs(2);
  EXPECT_EQ(mshrs.acquire(cycles(0), kStart), cycles(0));
  mshrs.hold(cycles(0), cycles(100), kStart);
  EXPECT_EQ(mshrs.acquire(cycles(0), kStart), cycles(0));
  mshrs.hold(cycles(0), cycles(50), kStart);
  // Both in progress at 10: the one ending at 50 frees first.
  EXPECT_EQ(mshrs.acquire(cycles(10), kStart), cycles(50));
  mshrs.hold(cycles(50), cycles(80), kStart);
  // At 60, [0, 100) and [50, 80) are in progress; one ends at 80.
  EXPECT_EQ(mshrs.acquire(cycles(60), kStart), cycles(80));
  mshrs.hold(cycles(80), cycles(90), kStart);
  EXPECT_EQ(mshrs.acquire(cycles(120), kStart), cycles(120));
}

TEST(ServerPool, ALaggingRequestCountsOnlyTheHoldsInProgressAtItsTime) {
  // An initiator running ahead holds [500, 600), a lagging one [0, 1000). Two MSHRs: at 100
  // only one hold is in progress, at 550 both are, until the first ends at 600.
  ServerPool mshrs(2);
  mshrs.hold(cycles(500), cycles(600), kStart);
  mshrs.hold(cycles(0), cycles(1000), kStart);
  EXPECT_EQ(mshrs.acquire(cycles(100), kStart), cycles(100));
  EXPECT_EQ(mshrs.acquire(cycles(550), kStart), cycles(600));
  EXPECT_EQ(mshrs.acquire(cycles(1200), kStart), cycles(1200));
}

TEST(ServerPool, ARequestArrivingOutOfOrderAfterTimeOrderSeesTheEarlierHolds) {
  // In time order first (the heap of free times), then a request before the latest one: the
  // holds made so far are counted from then on.
  ServerPool mshrs(2);
  mshrs.hold(mshrs.acquire(cycles(0), kStart), cycles(40), kStart);
  mshrs.hold(mshrs.acquire(cycles(10), kStart), cycles(30), kStart);
  EXPECT_EQ(mshrs.acquire(cycles(20), kStart), cycles(30));
  mshrs.hold(cycles(30), cycles(70), kStart);
  // Out of order: at 5 only [0, 40) is in progress.
  EXPECT_EQ(mshrs.acquire(cycles(5), kStart), cycles(5));
  // At 35, [0, 40) and [30, 70) are: free when the first ends.
  EXPECT_EQ(mshrs.acquire(cycles(35), kStart), cycles(40));
}

TEST(ServerPool, SaturatedTimesFoundOnceGrowWithLaterHolds) {
  ServerPool one(1);
  one.hold(cycles(0), cycles(10), kStart);
  one.hold(cycles(10), cycles(20), kStart);
  EXPECT_EQ(one.acquire(cycles(5), kStart), cycles(20));
  one.hold(cycles(25), cycles(30), kStart);
  EXPECT_EQ(one.acquire(cycles(5), kStart), cycles(20));  // free in [20, 25)
  one.hold(cycles(20), cycles(25), kStart);
  EXPECT_EQ(one.acquire(cycles(5), kStart), cycles(30));
  EXPECT_EQ(one.acquire(cycles(22), kStart), cycles(30));
  EXPECT_EQ(one.acquire(cycles(30), kStart), cycles(30));
}

TEST(ServerPool, HoldsBeyondTheServersWaitUntilFewerThanNAreInProgress) {
  // Two holds overlapping on one server (an initiator running ahead booked the second): a
  // request at 60 waits for both, not for the first end.
  ServerPool one(1);
  one.hold(cycles(0), cycles(100), kStart);
  one.hold(cycles(50), cycles(150), kStart);
  EXPECT_EQ(one.acquire(cycles(60), kStart), cycles(150));
  EXPECT_EQ(one.acquire(cycles(40), kStart), cycles(150));
}

TEST(ServerPool, HoldsThatEndedBeforeTheCurrentTimeNoLongerCount) {
  ServerPool one(1);
  one.hold(cycles(0), cycles(10), kStart);
  EXPECT_EQ(one.acquire(cycles(5), kStart), cycles(10));
  EXPECT_EQ(one.acquire(cycles(20), cycles(15)), cycles(20));
  one.hold(cycles(20), cycles(20), cycles(15));  // an empty hold holds nothing
  EXPECT_EQ(one.acquire(cycles(20), cycles(15)), cycles(20));
}

// The definition evaluated directly: every hold ever made, counted at each candidate time (the
// request's arrival, then each end after it, as only an end lowers the count).
class CountingReference {
 public:
  explicit CountingReference(unsigned servers) : servers_(servers) {}
  // Holds that ended by `now` cover no time a request can ask about (at >= now).
  uint64_t acquire(uint64_t at, uint64_t now) {
    holds_.erase(std::remove_if(holds_.begin(), holds_.end(),
                                [now](const auto& h) { return h.second <= now; }),
                 holds_.end());
    uint64_t t = at;
    for (;;) {
      size_t inProgress = 0;
      uint64_t nextEnd = UINT64_MAX;
      for (const auto& [start, end] : holds_) {
        if (start <= t && t < end) ++inProgress;
        if (end > t) nextEnd = std::min(nextEnd, end);
      }
      if (inProgress < servers_) return t;
      t = nextEnd;
    }
  }
  void hold(uint64_t from, uint64_t until) {
    if (until > from) holds_.emplace_back(from, until);
  }

 private:
  unsigned servers_;
  std::vector<std::pair<uint64_t, uint64_t>> holds_;
};

// Arrivals as temporal decoupling delivers them: the current time advances now and then, and a
// request arrives up to `quantum` cycles after it (quantum 1: in time order).
// `asOffered`: every hold starts when the pool offered (else now and then later, or empty).
void compareWithTheDefinition(uint64_t seed, unsigned servers, int requests, uint64_t quantumBefore,
                              uint64_t quantumAfter, int change, bool asOffered,
                              const HoldOverlapBound::Shape& boundShape = {}, int quietPhases = 0) {
  std::mt19937_64 random(seed);
  ServerPool pool(servers, boundShape);
  CountingReference reference(servers);
  uint64_t now = 0, latest = 0;
  for (int n = 0; n < requests; ++n) {
    if (random() % 4 == 0) now += random() % 20;
    const uint64_t quantum = n < change ? quantumBefore : quantumAfter;
    // In time order each arrival is at or after the previous one.
    uint64_t at = now + random() % quantum;
    if (quantum == 1) at = latest = std::max(latest, at);
    const sc_time got =
        pool.acquire(cycles(static_cast<double>(at)), cycles(static_cast<double>(now)));
    const uint64_t expected = reference.acquire(at, now);
    ASSERT_EQ(got, cycles(static_cast<double>(expected)))
        << "seed " << seed << " servers " << servers << " request " << n;
    // A miss holds its MSHR from the start it got for its latency; now and then a hold is
    // later than offered (the pool must not rely on being asked first), or empty.
    const uint64_t kind = asOffered ? 2 : random() % 16;
    const uint64_t from = expected + (kind == 0 ? random() % (10 * servers) : 0);
    // Holds of 2 N cycles on average, now and then one of 5 N, against an arrival every 2.5
    // cycles: the servers are busy about 80 % of the time, saturated now and then, and the
    // queue does not grow without end.
    uint64_t longest = kind == 3 ? 10 * servers : 4 * servers;
    // Quiet phases (every other run of `quietPhases` requests): short holds, far from N.
    if (quietPhases != 0 && n / quietPhases % 2 == 1) longest = std::max<uint64_t>(1, servers / 4);
    const uint64_t until = kind == 1 ? from : from + 1 + random() % longest;
    pool.hold(cycles(static_cast<double>(from)), cycles(static_cast<double>(until)),
              cycles(static_cast<double>(now)));
    reference.hold(from, until);
  }
}

TEST(ServerPool, MatchesTheCountOfHoldsInProgressInTimeOrder) {
  for (uint64_t seed = 1; seed <= 6; ++seed)
    compareWithTheDefinition(seed, seed % 2 ? 16 : 5, 3000, 1, 1, 0, seed <= 3);
}

TEST(ServerPool, MatchesTheCountOfHoldsInProgressUnderDecoupling) {
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    const unsigned servers = seed % 4 == 0 ? 1 : seed % 4 == 1 ? 5 : seed % 4 == 2 ? 16 : 64;
    compareWithTheDefinition(seed, servers, 3000, seed % 2 ? 50 : 1000, seed % 2 ? 50 : 1000, 0,
                             false);
  }
}

TEST(ServerPool, MatchesTheCountOfHoldsInProgressWhenRequestsTurnOutOfOrder) {
  for (uint64_t seed = 1; seed <= 6; ++seed)
    compareWithTheDefinition(seed, seed % 2 ? 64 : 7, 4000, 1, 800, 2000, seed <= 3);
}

TEST(ServerPool, MatchesTheCountOfHoldsInProgressWithFineOrSmallOverlapBounds) {
  // The same comparison with the bound on the holds in progress made fine (1 ns buckets: it
  // answers most requests) or small (4 ns buckets, a ring of 16 and spans of at most 4: most
  // holds reach past the ring or exceed the span and count at every time until they end, and
  // the ring wraps every 66 ns).
  const HoldOverlapBound::Shape fine{10, 1024, 256}, small{12, 16, 4};
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    const unsigned servers = seed % 4 == 0 ? 1 : seed % 4 == 1 ? 5 : seed % 4 == 2 ? 16 : 64;
    const HoldOverlapBound::Shape& shape = seed % 2 ? fine : small;
    compareWithTheDefinition(seed, servers, 3000, 50, 1000, 1500, false, shape);
  }
  // Saturated and quiet phases in turn: the pool sorts its holds for the first and leaves them
  // unsorted again in the second, many times over; with arrivals up to 1,000 cycles ahead,
  // many holds are still to come when it does, and must be paired again with their ends.
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    compareWithTheDefinition(seed, seed % 2 ? 16 : 64, 12000, 200, 200, 0, false, fine, 1000);
    compareWithTheDefinition(seed, seed % 2 ? 16 : 64, 12000, 1000, 1000, 0, false, fine, 600);
  }
}

// In time order the pool keeps its holds as 32-bit picosecond offsets (4.3 ms) from a base,
// for a change to counting. Requests in time order for 8 ms: short holds keep the servers
// busy and, every 3,000 requests, one of 1.5 ms starts, so holds are in progress at every
// time and the base must move on while some are (it cannot wait for none to be kept). At
// request `longHoldAt` (-1: none) a hold of 5 ms, which no offset holds: the pool must count
// from then on (at 6 ms, the hold is still in progress when the arrivals turn out of order).
// The arrivals then turn out of order (up to 20 us ahead) for 2 ms. Every answer, before and
// after, against the definition. (Loads checked to keep the queue short, which the
// definition's cost needs: waits of at most about 11 us.)
void compareOverMilliseconds(uint64_t seed, unsigned servers, int longHoldAt) {
  std::mt19937_64 random(seed);
  ServerPool pool(servers);
  CountingReference reference(servers);
  const uint64_t us = 1000000;  // ps
  uint64_t now = 0, latest = 0;
  for (int n = 0; n < 20000; ++n) {
    if (random() % 2 == 0) now += random() % (2 * us);  // a request every 0.5 us on average
    uint64_t at = now + random() % (20 * us);
    if (n < 16000) at = latest = std::max(latest, at);  // in time order
    const sc_time got = pool.acquire(sc_time::from_value(at), sc_time::from_value(now));
    const uint64_t expected = reference.acquire(at, now);
    ASSERT_EQ(got.value(), expected) << "seed " << seed << " request " << n;
    uint64_t length = 1 + random() % (servers * 400000);  // 0.2 N us on average
    if (n % 3000 == 700) length = 1500 * us;
    if (n == longHoldAt) length = 5000 * us;
    pool.hold(sc_time::from_value(expected), sc_time::from_value(expected + length),
              sc_time::from_value(now));
    reference.hold(expected, expected + length);
  }
}

TEST(ServerPool, HoldsKeptInTimeOrderCountAfterMillisecondsAndHoldsLongerThanTheirOffsets) {
  for (uint64_t seed = 1; seed <= 2; ++seed) {
    compareOverMilliseconds(seed, seed % 2 ? 5 : 16, -1);
    compareOverMilliseconds(seed, seed % 2 ? 5 : 16, 12000);
  }
}

TEST(ServerPool, RecentHoldsKeepEveryHoldEndingAfterTheCurrentTimeAcrossNewBases) {
  // The compact records directly, against a list of every hold: after each hold, the holds they
  // give back must be those ending after the current time, each starting where the list's does
  // or, if earlier, at the current time (the same at every time a request can ask about).
  // Holds of up to 4 ms among short ones, over 40 ms, move the base many times (one of 3 ms
  // that started long ago fits only from the current time on); now and then one of 5 ms cannot
  // be kept, and the records must say so exactly when the holds ending after the current time,
  // with it, span more than 2^32 ps.
  std::mt19937_64 random(11);
  RecentHolds recent;
  std::vector<std::pair<uint64_t, uint64_t>> all;
  const uint64_t us = 1000000;  // ps
  uint64_t now = 0;
  int refused = 0;
  for (int n = 0; n < 40000; ++n) {
    if (random() % 2 == 0) now += random() % (4 * us);
    const uint64_t from = now + random() % (30 * us);
    const uint64_t kind = random() % 1000;
    const uint64_t length = kind == 0   ? 5000 * us
                            : kind < 4  ? 3000 * us + random() % (1000 * us)
                            : kind < 20 ? random() % (1000 * us) + 1
                                        : random() % (10 * us) + 1;
    // What fits: the holds ending after `now` and this one, starts from `now` on.
    uint64_t lowest = from, highest = from + length;
    for (const auto& [start, end] : all)
      if (end > now)
        lowest = std::min(lowest, std::max(start, now)), highest = std::max(highest, end);
    const bool fits = highest - lowest <= UINT32_MAX;
    ASSERT_EQ(recent.add(from, from + length, now), fits) << "hold " << n;
    if (!fits) {  // the pool counts from here on; these records start again
      ++refused;
      recent.clear();
      all.clear();
      continue;
    }
    all.emplace_back(from, from + length);
    std::vector<std::pair<uint64_t, uint64_t>> got, expected;
    recent.forEachEndingAfter(
        now, [&](uint64_t start, uint64_t end) { got.emplace_back(std::max(start, now), end); });
    for (const auto& [start, end] : all)
      if (end > now) expected.emplace_back(std::max(start, now), end);
    std::sort(got.begin(), got.end());
    std::sort(expected.begin(), expected.end());
    ASSERT_EQ(got, expected) << "hold " << n;
  }
  EXPECT_GT(refused, 10);
}

TEST(ServerPool, OverlapBoundIsAtLeastTheHoldsInProgressAndExactOnBucketBoundaries) {
  // The bound against a direct count: never below it. When every hold starts and ends on a
  // bucket boundary within the ring, it is exactly the holds in progress no longer than the
  // span (32 buckets; these are up to 40) plus the longer ones that have not ended by the
  // current time (else a bound that never answered, or that forgot a long hold early, would
  // pass).
  for (const bool aligned : {false, true}) {
    std::mt19937_64 random(aligned ? 7 : 8);
    const unsigned shift = 10;  // 1,024 ps buckets
    HoldOverlapBound bound(HoldOverlapBound::Shape{shift, 64, 32});
    std::vector<std::pair<uint64_t, uint64_t>> holds;
    uint64_t now = 0;
    int exactAnswers = 0;
    for (int n = 0; n < 20000; ++n) {
      if (random() % 8 == 0) {
        now += random() % 3000;
        bound.advance(now);
        // Holds that ended count at no time from now on.
        holds.erase(std::remove_if(holds.begin(), holds.end(),
                                   [now](const auto& h) { return h.second <= now; }),
                    holds.end());
      }
      uint64_t from = now + random() % 20000, length = 1 + random() % 40000;
      if (aligned) {
        from = (now >> shift << shift) + (random() % 20 << shift);
        length = (1 + random() % 40) << shift;
      }
      holds.emplace_back(from, from + length);
      bound.add(from, from + length);
      const uint64_t t = now + random() % 30000;
      uint64_t inProgress = 0, shortInProgress = 0, longNotEnded = 0;
      for (const auto& [start, end] : holds) {
        const bool isLong = end - start > (32u << shift);
        inProgress += start <= t && t < end ? 1 : 0;
        shortInProgress += !isLong && start <= t && t < end ? 1 : 0;
        longNotEnded += isLong && end > now ? 1 : 0;
      }
      const uint64_t atLeast = bound.atLeastInProgress(t);
      ASSERT_GE(atLeast, inProgress) << "request " << n;
      const bool inRing = (t >> shift) - (now >> shift) < 64;
      if (aligned && inRing) {
        ASSERT_EQ(atLeast, shortInProgress + longNotEnded) << "request " << n;
        ++exactAnswers;
      }
    }
    if (aligned) {
      EXPECT_GT(exactAnswers, 10000);
    }
  }
}

TEST(ServerPool, SortedTimesKeepOrderRankAndFrontDropsAcrossBlocks) {
  // The blocked multiset under the pool's counts, against std::multiset: thousands of values
  // (many blocks, splits), duplicates, inserts anywhere, the front dropped, every rank and
  // every value in order.
  std::mt19937_64 random(3);
  SortedTimes times;
  std::multiset<uint64_t> expected;
  for (int n = 0; n < 20000; ++n) {
    const uint64_t kind = random() % 32;
    if (kind == 0 && !expected.empty()) {
      const size_t k = random() % std::min<size_t>(expected.size(), 40) + 1;
      times.dropFront(k);
      expected.erase(expected.begin(), std::next(expected.begin(), static_cast<long>(k)));
    } else {
      const uint64_t x = random() % (kind == 1 ? 8 : 100000);
      times.insert(x);
      expected.insert(x);
    }
    ASSERT_EQ(times.size(), expected.size());
    const uint64_t t = random() % 100000;
    size_t rank = 0;
    const SortedTimes::Cursor after = times.firstAfter(t, rank);
    const auto upper = expected.upper_bound(t);
    ASSERT_EQ(rank, static_cast<size_t>(std::distance(expected.begin(), upper))) << n;
    ASSERT_EQ(times.atEnd(after), upper == expected.end()) << n;
    if (upper != expected.end()) {
      ASSERT_EQ(times.at(after), *upper) << n;
    }
  }
  ASSERT_GT(expected.size(), 4 * SortedTimes::kBlock);
  size_t rank = 0;
  SortedTimes::Cursor c = times.firstAfter(0, rank);
  auto it = expected.upper_bound(0);
  for (; it != expected.end(); ++it, times.advance(c)) ASSERT_EQ(times.at(c), *it);
  EXPECT_TRUE(times.atEnd(c));
}

}  // namespace
}  // namespace vgpu
