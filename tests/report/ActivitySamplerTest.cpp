// The activity sampler's bucket arithmetic: the width starts at one cycle and doubles to keep a
// run within kMaxBuckets; spans split exactly over buckets; samples before the start are not
// recorded; the result does not depend on the order samples arrive in.
#include "activity/ActivitySampler.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

namespace vgpu {
namespace {

uint64_t total(const ActivitySampler& s, ActivitySampler::Channel c) {
  const auto v = s.values(c);
  return std::accumulate(v.begin(), v.end(), uint64_t{0});
}

TEST(ActivitySampler, BucketsStartOneCycleWide) {
  ActivitySampler s;
  const auto c = s.channel("x");
  s.start(100);
  s.add(c, 100, 1);
  s.add(c, 105, 2);
  EXPECT_EQ(s.bucketCycles(), 1u);
  EXPECT_EQ(s.originCycle(), 100u);
  EXPECT_EQ(s.bucketCount(), 6u);
  EXPECT_EQ(s.endCycle(), 106u);
  EXPECT_EQ(s.values(c), (std::vector<uint64_t>{1, 0, 0, 0, 0, 2}));
}

TEST(ActivitySampler, ChannelsAreFoundByName) {
  ActivitySampler s;
  const auto a = s.channel("a"), b = s.channel("b");
  EXPECT_NE(a, b);
  EXPECT_EQ(s.channel("a"), a);
  EXPECT_EQ(s.channelNames(), (std::vector<std::string>{"a", "b"}));
}

TEST(ActivitySampler, NothingIsRecordedBeforeTheStart) {
  ActivitySampler s;
  const auto c = s.channel("x");
  s.add(c, 5, 7);
  s.addSpan(c, 0, 10, 1);
  s.start(50);
  EXPECT_EQ(s.bucketCount(), 0u);
  s.start(60);  // the first start counts
  EXPECT_EQ(s.originCycle(), 50u);
  s.add(c, 40, 3);  // before the origin: counted in the first bucket
  EXPECT_EQ(s.values(c), (std::vector<uint64_t>{3}));
}

TEST(ActivitySampler, WidensByMergingPairsOfBuckets) {
  ActivitySampler s;
  const auto c = s.channel("x");
  s.start(0);
  for (uint64_t cycle = 0; cycle < ActivitySampler::kMaxBuckets; ++cycle) s.add(c, cycle, cycle);
  EXPECT_EQ(s.bucketCycles(), 1u);
  EXPECT_EQ(s.bucketCount(), ActivitySampler::kMaxBuckets);
  s.add(c, ActivitySampler::kMaxBuckets, 1);  // one past: width 2
  EXPECT_EQ(s.bucketCycles(), 2u);
  EXPECT_EQ(s.bucketCount(), ActivitySampler::kMaxBuckets / 2 + 1);
  const auto v = s.values(c);
  EXPECT_EQ(v[0], 0u + 1u);
  EXPECT_EQ(v[10], 20u + 21u);
  EXPECT_EQ(v.back(), 1u);
  EXPECT_EQ(total(s, c), uint64_t{999} * 1000 / 2 + 1);
}

TEST(ActivitySampler, ALongRunStaysWithinTheBucketLimit) {
  ActivitySampler s;
  const auto c = s.channel("x");
  s.start(1000);
  s.add(c, 1000 + 1000000000ull, 1);
  // The smallest power of two w with 10^9 / w < 1000 is 2^20.
  EXPECT_EQ(s.bucketCycles(), uint64_t{1} << 20);
  EXPECT_LE(s.bucketCount(), ActivitySampler::kMaxBuckets);
  EXPECT_EQ(s.bucketCount(), 1000000000ull / (1 << 20) + 1);
  EXPECT_EQ(total(s, c), 1u);
}

TEST(ActivitySampler, SpansSplitExactlyOverBuckets) {
  ActivitySampler s;
  const auto c = s.channel("x"), marker = s.channel("m");
  s.start(0);
  s.add(marker, 3999, 1);  // widens to 4-cycle buckets (3999 / 4 = 999)
  ASSERT_EQ(s.bucketCycles(), 4u);
  s.addSpan(c, 3, 11, 2);  // cycle 3 | 4..7 | 8..10
  const auto v = s.values(c);
  EXPECT_EQ(v[0], 2u);
  EXPECT_EQ(v[1], 8u);
  EXPECT_EQ(v[2], 6u);
  EXPECT_EQ(total(s, c), 16u);
  s.addSpan(c, 20, 20, 5);  // empty
  s.addSpan(c, 20, 30, 0);  // nothing per cycle
  EXPECT_EQ(total(s, c), 16u);
}

TEST(ActivitySampler, TheOrderOfSamplesDoesNotMatter) {
  struct Sample {
    bool span;
    uint64_t from, to, amount;
  };
  std::mt19937_64 random(6);
  std::vector<Sample> samples;
  for (int i = 0; i < 5000; ++i) {
    const uint64_t from = 500 + random() % 300000;
    samples.push_back({i % 3 == 0, from, from + random() % 5000, 1 + random() % 64});
  }
  auto record = [](const std::vector<Sample>& order) {
    ActivitySampler s;
    const auto c = s.channel("x");
    s.start(500);
    for (const Sample& x : order)
      x.span ? s.addSpan(c, x.from, x.to, x.amount) : s.add(c, x.from, x.amount);
    return std::make_pair(s.bucketCycles(), s.values(c));
  };
  const auto forward = record(samples);
  std::shuffle(samples.begin(), samples.end(), random);
  EXPECT_EQ(record(samples), forward);
  std::reverse(samples.begin(), samples.end());
  EXPECT_EQ(record(samples), forward);
  EXPECT_LE(forward.second.size(), ActivitySampler::kMaxBuckets);
}

}  // namespace
}  // namespace vgpu
