// The data fabric below L2: the device aperture goes to device memory (DRAM); every other
// address is a bus-master access of the GPU to system memory and leaves the GPU through
// `systemMemory` after crossing the system link (PCIe on every modelled board; timing from the
// platform's system_link section: reads and atomics take the latency, a round trip; writes are
// posted and take only the link's time for their bytes). Queues, packets, kernargs, signals and
// pinned buffers that host software keeps in system memory are reached this way, by the command
// processor and by kernels alike.
//
// What lies beyond `systemMemory` is the platform's business (a router, a memory, the process
// memory of vgpu's HSA runtime); it sees base-protocol reads and writes only:
// - atomics become a read-modify-write performed here, on the memory's DMI pointer with host
//   atomic instructions when it grants one (host threads may change the same signal), or as
//   a read and a write transaction otherwise;
// - transactions that exist for timing only (an L2 write-back, data moved through DMI by the
//   initiator) occupy the link but are not forwarded.
// System-memory lines are cached in the GPU's caches like device-memory lines (the coarse-
// grained, non-coherent memory type); the data always comes from and goes to the memory itself
// (common/Cache.h), so host writes are seen at once.
//
// An unbound `systemMemory` socket is allowed: every system-memory access is then refused with
// TLM_ADDRESS_ERROR_RESPONSE, which the GPU reports as a memory fault.
#pragma once

#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>
#include <tlm>

#include "common/BusSockets.h"
#include "common/DmiRegions.h"
#include "common/MemoryExtensions.h"
#include "common/PlatformConfig.h"
#include "common/Reservation.h"

namespace vgpu {

class DataFabric : public sc_core::sc_module, private tlm::tlm_bw_transport_if<> {
 public:
  tlm_utils::multi_passthrough_target_socket<DataFabric> socket;  // L2 channels
  tlm_utils::simple_initiator_socket<DataFabric> deviceMemory;    // DRAM
  SystemMemorySocket systemMemory;                                // out of the GPU

  // Device memory is [deviceBase, deviceBase + deviceBytes).
  DataFabric(sc_core::sc_module_name name, const SystemLinkConfig& link, uint64_t deviceBase,
             uint64_t deviceBytes);

  bool isDeviceAddress(uint64_t address) const {
    return address >= deviceBase_ && address - deviceBase_ < deviceBytes_;
  }

  // System-memory traffic (what crossed the link).
  uint64_t systemReads = 0, systemWrites = 0, systemAtomics = 0;
  uint64_t systemBytesRead = 0, systemBytesWritten = 0, systemErrors = 0;

 private:
  void b_transport(int id, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned int transport_dbg(int id, tlm::tlm_generic_payload& trans);
  bool get_direct_mem_ptr(int id, tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);
  void deviceMemoryInvalidated(sc_dt::uint64 start, sc_dt::uint64 end);
  // tlm_bw_transport_if of `systemMemory`.
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload&, tlm::tlm_phase&,
                                     sc_core::sc_time&) override;
  void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) override;

  void toSystemMemory(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  // Performs trans (an atomic) on system memory; false if the memory refused an access.
  bool systemAtomic(tlm::tlm_generic_payload& trans, AtomicExtension& atomic);
  // When a transaction of `bytes` in direction `toGpu` arriving at `at` is complete (a posted
  // write: when the link has taken its data).
  sc_core::sc_time linkDone(const sc_core::sc_time& at, uint64_t bytes, bool toGpu, bool posted);
  // The system-memory range around `address` (below or above the device aperture).
  void systemRangeAround(uint64_t address, uint64_t& start, uint64_t& end) const;

  SystemLinkConfig link_;
  uint64_t deviceBase_, deviceBytes_;
  sc_core::sc_time latency_;
  double psPerByte_;
  BusyUntil toGpu_, fromGpu_;  // the link's two directions
  DmiRegions systemDmi_;       // for atomics
};

}  // namespace vgpu
