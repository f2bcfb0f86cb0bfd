// The local data share of one compute unit: 64 KiB shared by the workgroups resident on the CU,
// each in its own allocation. Serves whole-wave DS requests (WaveAccessExtension) from its CU;
// the bank arbiter decides how long each takes.
#pragma once

#include <memory>
#include <vector>

#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

#include "common/PlatformConfig.h"
#include "common/Reservation.h"
#include "lds/LdsBankArbiter.h"

namespace vgpu {

class Lds : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Lds> socket;

  Lds(sc_core::sc_module_name name, const LdsConfig& config, sc_core::sc_time clockPeriod,
      std::unique_ptr<LdsBankArbiter> arbiter);

  uint8_t* storage() { return storage_.data(); }

  uint64_t accesses = 0, bankCycles = 0, conflictCycles = 0, outOfRangeLanes = 0;

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned int transport_dbg(tlm::tlm_generic_payload& trans);

  LdsConfig config_;
  sc_core::sc_time period_;
  std::unique_ptr<LdsBankArbiter> arbiter_;
  std::vector<uint8_t> storage_;
  BusyUntil banks_;  // the 32 banks move 128 B per cycle between them
};

}  // namespace vgpu
