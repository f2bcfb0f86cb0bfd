// The texture path of one compute unit: the texture-address unit turns a wave's vector memory
// instruction (per-lane addresses, from the ISA) into transactions on 64-byte lines, and the
// vector L1 cache (16 KiB, write-through) sits between it and L2. Loads and stores become one
// base-protocol transaction per line touched (byte enables where lanes leave gaps); atomics one
// transaction per lane, executed at the memory.
#pragma once

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

#include "common/Cache.h"
#include "common/PlatformConfig.h"
#include "common/Reservation.h"

namespace vgpu {

namespace trace {
class TextureAddressProbe;
}

class TexturePath : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<TexturePath> socket;  // from the compute unit
  Cache vectorL1;                                       // bind vectorL1.memory to L2

  TexturePath(sc_core::sc_module_name name, const CacheConfig& l1Config,
              sc_core::sc_time clockPeriod);

  uint64_t instructions = 0, lineTransactions = 0, laneAccesses = 0;
  // The VCD and timeline (models/trace), set by the GPU when tracing; null: off.
  trace::TextureAddressProbe* traceProbe = nullptr;

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned int transport_dbg(tlm::tlm_generic_payload& trans);

  tlm_utils::simple_initiator_socket<TexturePath> toL1_;
  sc_core::sc_time period_;
  uint32_t lineBytes_;
  BusyUntil addressUnit_;  // one line (or one atomic lane) per cycle
  bool timed_;
};

}  // namespace vgpu
