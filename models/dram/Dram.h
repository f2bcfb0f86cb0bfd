// Device memory (HBM2 on Vega): the backing store of the whole GPU and the last level of the
// memory hierarchy. Timing: channels interleaved by address, banks with an open row each
// (row hit: tCL; closed: tRCD + tCL; conflict: tRP + tRCD + tCL, not before tRAS), then the
// channel's data bus for the burst, whose rate gives the platform's peak bandwidth. Any number of
// initiators bind to `socket` (the data fabric below L2, the decoded-instruction cache, the host
// port). Accesses outside every range host software mapped get TLM_ADDRESS_ERROR_RESPONSE.
#pragma once

#include <tlm_utils/multi_passthrough_target_socket.h>
#include <array>
#include <map>
#include <vector>

#include <systemc>
#include <tlm>

#include "common/Divisor.h"
#include "common/MemoryExtensions.h"
#include "common/PlatformConfig.h"
#include "common/Reservation.h"
#include "common/WatchedPages.h"
#include "dram/BackingStore.h"
#include "dram/DeviceMemoryMap.h"

namespace vgpu {

namespace trace {
class DramProbe;
}

class Dram : public sc_core::sc_module, public PageWatcher {
 public:
  tlm_utils::multi_passthrough_target_socket<Dram> socket;

  Dram(sc_core::sc_module_name name, const DramConfig& config, sc_core::sc_time clockPeriod);

  BackingStore& store() { return store_; }
  // Host software mapped or unmapped a range for the GPU (the MEM_MAP registers,
  // docs/register-map.md): accesses outside every mapped range are refused. unmap() revokes
  // any DMI pointer into the range. false: refused (see DeviceMemoryMap::map/unmap).
  bool map(uint64_t base, uint64_t bytes) { return map_.map(base, bytes); }
  bool unmap(uint64_t base);
  uint64_t bytesMapped() const { return map_.bytesMapped(); }
  // Watches a page for `listener` (common/WatchedPages.h): revokes DMI over it now, grants
  // none there until it is written, and then tells the listener. One listener per page.
  void watchPage(uint64_t page, PageWriteListener& listener) override;

  uint64_t reads = 0, writes = 0, atomics = 0, bytesRead = 0, bytesWritten = 0, addressErrors = 0;
  uint64_t rowHits = 0, rowMisses = 0, rowConflicts = 0, writebacks = 0;
  // The VCD and timeline (models/trace), set by the GPU when tracing; null: off.
  trace::DramProbe* traceProbe = nullptr;
  // Cycles the busiest channel's data bus was occupied.
  uint64_t busiestChannelBusyCycles() const;

 private:
  void b_transport(int id, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned int transport_dbg(int id, tlm::tlm_generic_payload& trans);
  bool get_direct_mem_ptr(int id, tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);
  // Executes the payload on the store; returns false (and sets the response) on error.
  // A debug access (transport_dbg) uses only command, address, data and length, may touch
  // unallocated memory and is not counted; an access already served by a cache is not counted.
  // `atomic`: the transaction's AtomicExtension (null: none, or a debug access).
  enum class Mode { Normal, ServedAbove, Debug };
  bool access(tlm::tlm_generic_payload& trans, Mode mode, AtomicExtension* atomic);

  // When an access of `bytes` at `address` arriving at `at` completes (HBM2 timing: bank
  // activate/precharge by row-buffer state, then the channel's data bus); `now` is the current
  // SystemC time.
  sc_core::sc_time schedule(uint64_t address, uint64_t bytes, const sc_core::sc_time& at,
                            const sc_core::sc_time& now);
  // How long the channel's data bus takes for `bytes`. Accesses come in a few sizes: each
  // size's time is converted from nanoseconds once.
  sc_core::sc_time burstTime(uint64_t bytes) {
    if (bytes < burstTimes_.size() && burstKnown_[bytes]) return burstTimes_[bytes];
    return unknownBurstTime(bytes);
  }
  sc_core::sc_time unknownBurstTime(uint64_t bytes);
  // A write to [address, address + bytes) happened: reports the watched pages it touched.
  void noteWrite(uint64_t address, uint64_t bytes) {
    if (!watched_.empty()) reportWatchedWrite(address, bytes);
  }
  void reportWatchedWrite(uint64_t address, uint64_t bytes);

  struct Bank {
    int64_t openRow = -1;
    sc_core::sc_time activatedAt = sc_core::SC_ZERO_TIME;
    BusyUntil commands;
  };
  struct Channel {
    std::vector<Bank> banks;
    BusyUntil bus;
  };

  DramConfig config_;
  sc_core::sc_time period_;
  sc_core::sc_time latency_;  // controller latency, also the DMI latency hint
  sc_core::sc_time tRCD_, tCL_, tRP_, tRAS_, tCCD_;
  double nsPerByte_;                                // one channel's data bus
  std::array<sc_core::sc_time, 257> burstTimes_{};  // burstTime() by size, once known
  std::array<bool, 257> burstKnown_{};
  // The address map's divisions (see schedule()).
  Divisor interleave_, channelCount_, chunksPerRow_, bankCount_;
  std::vector<Channel> channels_;
  DeviceMemoryMap map_;
  BackingStore store_;
  std::map<uint64_t, PageWriteListener*> watched_;  // by page number
};

}  // namespace vgpu
