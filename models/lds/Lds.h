// The local data share of one compute unit: 64 KiB shared by the workgroups resident on the CU,
// each in its own allocation. Serves whole-wave DS requests (WaveAccessExtension) from its CU;
// the bank arbiter decides how long each takes.
#pragma once

#include <memory>
#include <vector>

#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

#include "activity/ActivitySampler.h"
#include "common/PlatformConfig.h"
#include "common/Reservation.h"
#include "lds/LdsBankArbiter.h"

namespace vgpu {

namespace trace {
class LdsProbe;
}

class Lds : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Lds> socket;

  Lds(sc_core::sc_module_name name, const LdsConfig& config, sc_core::sc_time clockPeriod,
      std::unique_ptr<LdsBankArbiter> arbiter);

  ~Lds() override;

  uint8_t* storage() { return storage_; }
  // The VCD and timeline (models/trace), set by the GPU when tracing; null: off.
  trace::LdsProbe* traceProbe = nullptr;

  uint64_t accesses = 0, bankCycles = 0, conflictCycles = 0, outOfRangeLanes = 0;
  uint64_t portCycles = 0;  // cycles the accesses held their SIMD pair's port
  uint64_t bytesMoved = 0;  // bytes the active lanes read or wrote
  // Instructions by conflict degree: bank cycles / conflict-free bank cycles, rounded up
  // (1: no conflict, 32: every lane of a half-wave in one bank), in the bins named below.
  static constexpr unsigned kConflictDegreeBins = 7;
  static constexpr const char* kConflictDegreeBinNames[kConflictDegreeBins] = {
      "1", "2", "3_4", "5_8", "9_16", "17_31", "32_up"};
  uint64_t conflictDegree[kConflictDegreeBins] = {};
  // Time series of bytes and conflict cycles for the report (vgpu-sim --report).
  void attachActivity(ActivitySampler* sampler, ActivitySampler::Channel bytesChannel,
                      ActivitySampler::Channel conflictChannel) {
    activity_ = sampler;
    bytesChannel_ = bytesChannel;
    conflictChannel_ = conflictChannel;
  }

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned int transport_dbg(tlm::tlm_generic_payload& trans);

  LdsConfig config_;
  sc_core::sc_time period_;
  std::unique_ptr<LdsBankArbiter> arbiter_;
  // Anonymous memory (zero pages that cost nothing until touched): a GPU of 60 CUs whose
  // kernels use little or no LDS does not zero and page in 60 x 64 KiB at start-up.
  uint8_t* storage_ = nullptr;
  uint64_t storageBytes_ = 0;
  BusyUntil banks_;  // the 32 banks move 128 B per cycle between them
  // One port per pair of SIMDs (config_.simdsPerPort): an access holds its port while its
  // addresses and store data come in and its data goes back (see Lds.cpp, portTransferCycles).
  std::vector<BusyUntil> ports_;
  ActivitySampler* activity_ = nullptr;
  ActivitySampler::Channel bytesChannel_ = 0, conflictChannel_ = 0;
};

}  // namespace vgpu
