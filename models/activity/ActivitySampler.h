// Time series of model activity for the HTML report (vgpu-sim --report): blocks add counts at
// the cycle they happen into fixed-width cycle buckets, e.g. bytes an L2 channel moved or the
// waves resident on a CU. Off unless the GPU is asked for it (Gpu::enableActivitySampling):
// a block holds a null pointer then, and each hook costs one test of it.
//
// Blocks run temporally decoupled, each at its own local time (SystemC time plus its offset),
// so samples arrive out of time order; a bucket is a sum, so the order does not matter. The
// bucket width is the smallest power of two that keeps the run within kMaxBuckets buckets: it
// starts at one cycle and doubles (adjacent buckets merged) when a sample lands past the last
// bucket. The result depends only on the samples, never on their order: deterministic.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace vgpu {

class ActivitySampler {
 public:
  static constexpr uint64_t kMaxBuckets = 1000;
  using Channel = uint32_t;

  // The channel named `name` ("cu3.active_waves", "l2.bytes", ...), created on first use.
  Channel channel(const std::string& name);
  const std::vector<std::string>& channelNames() const { return names_; }

  // The timeline starts at GPU cycle `cycle` (the first dispatch); later calls change nothing.
  // Samples taken before the start (host set-up traffic) are not recorded.
  void start(uint64_t cycle) {
    if (started_) return;
    started_ = true;
    origin_ = cycle;
  }
  bool started() const { return started_; }

  // `amount` at GPU cycle `cycle`.
  void add(Channel c, uint64_t cycle, uint64_t amount) {
    if (!started_) return;
    const uint64_t offset = cycle > origin_ ? cycle - origin_ : 0;
    if ((offset >> shift_) >= kMaxBuckets) widen(offset);
    values_[c][offset >> shift_] += amount;
    end_ = std::max(end_, offset + 1);
  }

  // `perCycle` in every cycle of [from, to), split over the buckets the span covers (e.g. the
  // waves resident on a CU while it advances, or one wave's stall).
  void addSpan(Channel c, uint64_t from, uint64_t to, uint64_t perCycle) {
    if (!started_ || perCycle == 0) return;
    from = from > origin_ ? from - origin_ : 0;
    to = to > origin_ ? to - origin_ : 0;
    if (to <= from) return;
    if (((to - 1) >> shift_) >= kMaxBuckets) widen(to - 1);
    std::vector<uint64_t>& v = values_[c];
    for (uint64_t b = from >> shift_, last = (to - 1) >> shift_; b <= last; ++b) {
      const uint64_t lo = std::max(from, b << shift_), hi = std::min(to, (b + 1) << shift_);
      v[b] += (hi - lo) * perCycle;
    }
    end_ = std::max(end_, to);
  }

  // The GPU cycle bucket 0 starts at, the width of a bucket, and how many buckets the samples
  // reach (each channel's values() has that many).
  uint64_t originCycle() const { return origin_; }
  uint64_t bucketCycles() const { return uint64_t{1} << shift_; }
  uint64_t bucketCount() const { return (end_ + bucketCycles() - 1) >> shift_; }
  // One past the latest cycle sampled.
  uint64_t endCycle() const { return origin_ + end_; }
  std::vector<uint64_t> values(Channel c) const;

 private:
  // Doubles the bucket width until `offset` fits, merging pairs of buckets.
  void widen(uint64_t offset) {
    while ((offset >> shift_) >= kMaxBuckets) {
      for (auto& v : values_) {
        for (uint64_t b = 0; b < kMaxBuckets / 2; ++b) v[b] = v[2 * b] + v[2 * b + 1];
        std::fill(v.begin() + kMaxBuckets / 2, v.end(), 0);
      }
      ++shift_;
    }
  }

  bool started_ = false;
  uint64_t origin_ = 0;
  unsigned shift_ = 0;  // bucket width = 2^shift_ cycles
  uint64_t end_ = 0;    // one past the latest sampled offset from origin_
  std::vector<std::string> names_;
  std::vector<std::vector<uint64_t>> values_;  // per channel, kMaxBuckets each
};

// The channels a compute unit feeds.
struct CuActivityChannels {
  ActivitySampler::Channel activeWaves = 0;  // wave-cycles: waves resident x cycles
  ActivitySampler::Channel instructions = 0;
  ActivitySampler::Channel stallWaitcntVm = 0, stallWaitcntLgkm = 0, stallBarrier = 0,
                           stallFetch = 0, stallIssueConflict = 0, stallValuBusy = 0;
};

}  // namespace vgpu
