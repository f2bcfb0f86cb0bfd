// The current SystemC time for the hot paths of the memory blocks. sc_time_stamp() returns the
// same value, but through a call into the SystemC library on every access; the current
// simulation context's time is an inline read.
#pragma once

#include <systemc>

namespace vgpu {

inline const sc_core::sc_time& currentTime() {
  return sc_core::sc_get_curr_simcontext()->time_stamp();
}

}  // namespace vgpu
