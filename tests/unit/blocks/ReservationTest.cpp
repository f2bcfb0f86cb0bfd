// The reservation calendar (models/common/Reservation.h): first fit at or after the arrival,
// gaps filled by late arrivals (temporal decoupling), merging, and the MSHR slot pool.
#include <gtest/gtest.h>
#include <systemc>

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

}  // namespace
}  // namespace vgpu
