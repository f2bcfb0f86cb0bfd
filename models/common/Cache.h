// A cache level as a TLM interconnect component: any number of upstream initiators bind to
// `socket`, `memory` binds to the next level. It may be split into address-interleaved
// channels (L2 has 16), each with its own tags, port bandwidth and miss registers (MSHRs).
// Timing comes from reservations (common/Reservation.h) on those resources, starting at the
// request's annotated time. Tags (CacheTags) decide hits; the data of every access is still
// forwarded downstream to DRAM, which holds the only copy. That keeps
// every level coherent by construction and lets DRAM report a memory violation for any access,
// hit or miss. Accesses that hit carry a MemoryRoleExtension (ServedAbove) downstream: the lower
// levels pass the data but neither count nor time them. An initiator that moved the data itself
// through DMI (role DataMoved) spares every level the forwarding.
#pragma once

#include <array>
#include <string>

#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>
#include <tlm>

#include "activity/ActivitySampler.h"
#include "common/CacheTags.h"
#include "common/Divisor.h"
#include "common/DmiRegions.h"
#include "common/MemoryExtensions.h"
#include "common/PlatformConfig.h"
#include "common/Reservation.h"
#include "common/ServerPool.h"

namespace vgpu {

namespace trace {
class CacheProbe;
}

class Cache : public sc_core::sc_module {
 public:
  enum class WritePolicy {
    WriteThroughNoAllocate,  // vector L1, scalar cache: stores go straight on
    WriteBackAllocate,       // L2: stores allocate and are absorbed (timing only)
  };

  tlm_utils::multi_passthrough_target_socket<Cache> socket;
  tlm_utils::simple_initiator_socket<Cache> memory;

  Cache(sc_core::sc_module_name name, const CacheConfig& config, sc_core::sc_time clockPeriod,
        WritePolicy policy);
  ~Cache() override;

  uint64_t hits = 0, misses = 0, reads = 0, writes = 0, atomics = 0, writebacks = 0;
  uint64_t bytesIn = 0;  // bytes requested of this level (reads and writes)
  // Bytes this level moved to or from the next one (misses, write-throughs, atomics,
  // write-backs): for L2, the kernel's DRAM traffic (host copies reach DRAM directly).
  uint64_t bytesDownstream = 0;
  // The VCD and timeline (models/trace), set by the GPU when tracing; null: off.
  trace::CacheProbe* traceProbe = nullptr;
  // Time series of bytesIn and bytesDownstream for the report (vgpu-sim --report).
  void attachActivity(ActivitySampler* sampler, ActivitySampler::Channel bytes,
                      ActivitySampler::Channel downstreamBytes) {
    activity_ = sampler;
    bytesChannel_ = bytes;
    downstreamChannel_ = downstreamBytes;
  }
  // A write-back cache absorbs stores only inside [base, base + bytes) (the GPU: device
  // memory); elsewhere (system memory, which the host reads directly) stores go straight on.
  void setWriteBackRange(uint64_t base, uint64_t bytes) {
    writeBackBase_ = base;
    writeBackBytes_ = bytes;
  }
  // Cycles the busiest channel's port was occupied (bandwidth utilisation).
  uint64_t portBusyCycles() const;
  // Drops every tag (an acquire fence's invalidation, command processor): the next accesses
  // miss. No data is lost: DRAM holds the only copy.
  void invalidateAll() {
    for (auto& c : channels_) c.tags.invalidateAll();
  }

 private:
  struct Channel {
    CacheTags tags;
    BusyUntil port;
    ServerPool mshrs;
  };
  void b_transport(int id, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned int transport_dbg(int id, tlm::tlm_generic_payload& trans);
  bool get_direct_mem_ptr(int id, tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);
  void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end);
  // Forwards for data only (no downstream timing or statistics); `marked`: the transaction
  // already carries the ServedAbove role.
  void forwardServed(tlm::tlm_generic_payload& trans, bool marked);
  // Moves the data of such an access through DMI instead; false if no DMI region holds it (or
  // it is not a plain read or write of all its bytes).
  bool serveDirect(tlm::tlm_generic_payload& trans);
  // Sends a timing-only write of an evicted dirty line downstream, starting at `at` (the
  // current SystemC time is `now`).
  void writeBack(uint64_t address, const sc_core::sc_time& at, const sc_core::sc_time& now);
  Channel& channelOf(uint64_t address);
  uint64_t channelLocal(uint64_t address) const;
  uint64_t globalAddress(uint64_t local, size_t channel) const;

  CacheConfig config_;
  WritePolicy policy_;
  uint64_t writeBackBase_ = 0, writeBackBytes_ = ~uint64_t{0};
  sc_core::sc_time period_;
  sc_core::sc_time hitLatency_;
  Divisor lineSize_, interleave_, channelCount_, portBytes_;
  // The port's transfer time by cycles (the usual transactions take a few).
  std::array<sc_core::sc_time, 17> transferTimes_{};
  std::vector<Channel> channels_;
  MemoryRoleExtension servedAbove_{MemoryRoleExtension::Role::ServedAbove};
  DmiRegions dmi_;  // granted by `memory`, for the data of accesses served here
  ActivitySampler* activity_ = nullptr;
  ActivitySampler::Channel bytesChannel_ = 0, downstreamChannel_ = 0;
  MemoryRoleExtension timingOnly_{MemoryRoleExtension::Role::TimingOnly};
  tlm::tlm_generic_payload writeBackPayload_;
  uint8_t writeBackData_[128] = {};
};

}  // namespace vgpu
