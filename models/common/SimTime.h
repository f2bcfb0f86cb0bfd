// The current SystemC time for the hot paths of the memory blocks and compute units.
// sc_time_stamp() returns the same value, but through a call into the SystemC library on every
// access; the current simulation context's time is an inline read.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include <tlm_utils/tlm_quantumkeeper.h>
#include <systemc>

namespace vgpu {

// sc_time::from_value(v), inline. The library's is a call of about 25 host instructions (it
// also marks the time resolution fixed, which any non-zero time made before the simulation
// started already has), and the calendars of a 60-CU run make millions of times from values
// (2 % of a 60-CU pointer chase's host instructions). An sc_time is its value and nothing else.
static_assert(std::is_standard_layout_v<sc_core::sc_time> &&
                  sizeof(sc_core::sc_time) == sizeof(sc_core::sc_time::value_type),
              "sc_time is expected to hold its value only");
inline sc_core::sc_time timeFromValue(uint64_t value) {
  sc_core::sc_time t;
  std::memcpy(static_cast<void*>(&t), &value, sizeof value);
  return t;
}

inline const sc_core::sc_time& currentTime() {
  return sc_core::sc_get_curr_simcontext()->time_stamp();
}

// TLM's quantum keeper, reading the current time as above: an initiator asks need_sync() after
// every step it takes (a compute unit after every cycle it issues in), and the library's version
// calls sc_time_stamp() each time (the calls were 1.3 % of a 60-CU vector_add's host
// instructions; reading the time inline saved half of that).
class QuantumKeeper final : public tlm_utils::tlm_quantumkeeper {
 public:
  bool need_sync() const override { return currentTime() + m_local_time >= m_next_sync_point; }
  sc_core::sc_time get_current_time() const override { return currentTime() + m_local_time; }
  void reset() override {
    m_local_time = sc_core::SC_ZERO_TIME;
    m_next_sync_point = currentTime() + compute_local_quantum();
  }
};

}  // namespace vgpu
