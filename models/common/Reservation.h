// Bandwidth and occupancy by reservation, the loosely-timed way: a request that arrives at
// time T on a resource busy until F starts at max(T, F) and holds it for its occupancy. With
// temporal decoupling requests may arrive out of time order; the error is bounded by the
// quantum, and functional results never depend on it.
#pragma once

#include <algorithm>
#include <vector>

#include <systemc>

namespace vgpu {

// One server: a port, a bus, a bank.
class BusyUntil {
 public:
  // Reserves `occupancy` starting no earlier than `at`; returns the start.
  sc_core::sc_time reserve(const sc_core::sc_time& at, const sc_core::sc_time& occupancy) {
    const sc_core::sc_time start = std::max(at, free_);
    free_ = start + occupancy;
    busy_ += occupancy;
    return start;
  }
  const sc_core::sc_time& freeAt() const { return free_; }
  const sc_core::sc_time& busyTime() const { return busy_; }

 private:
  sc_core::sc_time free_ = sc_core::SC_ZERO_TIME;
  sc_core::sc_time busy_ = sc_core::SC_ZERO_TIME;
};

// N identical servers (miss-status holding registers): a request takes the one free first.
class SlotPool {
 public:
  explicit SlotPool(unsigned slots) : free_(std::max(1u, slots), sc_core::SC_ZERO_TIME) {}
  // The earliest time >= at that a slot is free, and that slot's index.
  std::pair<sc_core::sc_time, size_t> acquire(const sc_core::sc_time& at) const {
    const auto it = std::min_element(free_.begin(), free_.end());
    return {std::max(at, *it), static_cast<size_t>(it - free_.begin())};
  }
  void holdUntil(size_t slot, const sc_core::sc_time& until) { free_[slot] = until; }

 private:
  std::vector<sc_core::sc_time> free_;
};

}  // namespace vgpu
