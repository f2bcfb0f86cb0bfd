// Division by a configuration constant (line size, channel count, interleave): a shift and a
// mask when it is a power of two, as it almost always is, else the division. The memory
// blocks split every address this way on their hot paths, where a hardware division costs tens
// of cycles.
#pragma once

#include <cstdint>

namespace vgpu {

class Divisor {
 public:
  explicit Divisor(uint64_t value = 1) : value_(value ? value : 1) {
    if ((value_ & (value_ - 1)) == 0) shift_ = __builtin_ctzll(value_);
  }
  uint64_t value() const { return value_; }
  uint64_t quotient(uint64_t x) const { return shift_ >= 0 ? x >> shift_ : x / value_; }
  uint64_t remainder(uint64_t x) const { return shift_ >= 0 ? x & (value_ - 1) : x % value_; }

 private:
  uint64_t value_;
  int shift_ = -1;  // log2(value_) for a power of two, else -1
};

}  // namespace vgpu
