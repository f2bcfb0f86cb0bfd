#include "lds/Lds.h"

#include <algorithm>
#include <cstring>

#include "common/MemoryExtensions.h"
#include "isa/Atomics.h"

namespace vgpu {

using namespace sc_core;

namespace {
// One lane's element. Fixed sizes compile to plain moves; a memcpy of a run-time size became
// `rep movs`, whose start-up cost dominated LDS-heavy kernels.
inline void copyElement(uint8_t* dst, const uint8_t* src, uint32_t bytes) {
  switch (bytes) {
    case 4:
      std::memcpy(dst, src, 4);
      break;
    case 8:
      std::memcpy(dst, src, 8);
      break;
    case 16:
      std::memcpy(dst, src, 16);
      break;
    default:
      std::memcpy(dst, src, bytes);
      break;
  }
}
}  // namespace

Lds::Lds(sc_module_name name, const LdsConfig& config, sc_time clockPeriod,
         std::unique_ptr<LdsBankArbiter> arbiter)
    : sc_module(name),
      socket("socket"),
      config_(config),
      period_(clockPeriod),
      arbiter_(std::move(arbiter)),
      storage_(config.sizeBytes, 0) {
  socket.register_b_transport(this, &Lds::b_transport);
  socket.register_transport_dbg(this, &Lds::transport_dbg);
}

void Lds::b_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
  auto* ext = trans.get_extension<WaveAccessExtension>();
  if (ext == nullptr || ext->request == nullptr) {
    // The LDS only understands whole-wave DS requests from its compute unit.
    trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  isa::MemRequest& req = *ext->request;
  const uint32_t bytes = req.elementBytes;
  ++accesses;

  LdsBankRequest bankReq;
  bankReq.laneMask = req.laneMask;
  bankReq.dwordsPerElement = static_cast<uint8_t>((bytes + 3) / 4);
  bankReq.elementsPerLane = req.elementsPerLane;
  bankReq.cycle = static_cast<uint64_t>((sc_time_stamp() + delay) / period_);

  // Lanes in ascending order: for stores to the same address the highest lane wins, and
  // atomics from lanes of one wave are applied in lane order.
  for (int lane = 0; lane < 64; ++lane) {
    if (!((req.laneMask >> lane) & 1)) continue;
    for (int e = 0; e < req.elementsPerLane; ++e) {
      const uint64_t offset = req.addr[lane][e];
      bankReq.addr[lane][e] = static_cast<uint32_t>(ext->ldsBase + offset);
      uint8_t* data = req.element(lane, e);
      // Outside the workgroup's allocation: reads return zero and writes are dropped, as the
      // hardware's LDS range check does.
      if (offset >= ext->ldsSize || bytes > ext->ldsSize - offset ||
          ext->ldsBase + offset + bytes > storage_.size()) {
        ++outOfRangeLanes;
        if (req.op != isa::MemOp::Store) std::memset(data, 0, bytes);
        continue;
      }
      uint8_t* mem = storage_.data() + ext->ldsBase + offset;
      switch (req.op) {
        case isa::MemOp::Load:
          copyElement(data, mem, bytes);
          break;
        case isa::MemOp::Store:
          copyElement(mem, data, bytes);
          break;
        case isa::MemOp::Atomic: {
          uint8_t old[16];
          isa::applyAtomic(req.atomic, bytes, mem, data, req.cmpElement(lane, e), old);
          std::memcpy(data, old, bytes);
          break;
        }
      }
    }
  }

  if (!config_.timed) {  // functional mode: no bank arbitration
    delay += period_;
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  const LdsBankSchedule sched = arbiter_->schedule(bankReq);
  bankCycles += sched.cycles;
  conflictCycles += sched.conflictCycles;
  // The banks are busy for the schedule's cycles; the data returns after the pipeline latency.
  const sc_time start = banks_.reserve(sc_time_stamp() + delay, period_ * sched.cycles);
  delay = start + period_ * (config_.latencyCycles + sched.cycles) - sc_time_stamp();
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

unsigned int Lds::transport_dbg(tlm::tlm_generic_payload& trans) {
  // Debug view of the raw LDS array (byte addresses 0 .. size-1).
  const uint64_t addr = trans.get_address();
  const unsigned len = trans.get_data_length();
  if (addr >= storage_.size()) return 0;
  const unsigned n = static_cast<unsigned>(std::min<uint64_t>(len, storage_.size() - addr));
  if (trans.is_read())
    std::memcpy(trans.get_data_ptr(), storage_.data() + addr, n);
  else if (trans.is_write())
    std::memcpy(storage_.data() + addr, trans.get_data_ptr(), n);
  return n;
}

}  // namespace vgpu
