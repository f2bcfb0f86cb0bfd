#include "lds/Lds.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstring>
#include <new>

#include "common/MemoryExtensions.h"
#include "common/SimTime.h"
#include "lds/LdsElementRules.h"
#include "trace/Probes.h"

namespace vgpu {

using namespace sc_core;

namespace {
// Cycles an access holds its port: the port between a pair of SIMDs and the LDS moves
// portBytes per cycle in each direction, the input shared by addresses and store data
// (rocprofiler-compute docs, LDS performance model: "a 64-wide store where each lane is sending
// a 4B value takes 8 cycles (50% peak bandwidth) while a 64-wide store where each lane is
// sending a 16B value takes 20 cycles (80% peak bandwidth)"; "only one SIMD per pair may issue
// an LDS instruction at a time"). Model choices where the source is silent: an access holds
// the port for its input and then its output (one instruction of the pair at a time), so a
// wave64 ds_read_b32 takes 4 + 4 cycles and a ds_read_b128 4 + 16; data moves in quarter-waves
// (16 lanes, as the SIMD16 reads and writes VGPRs), skipping quarter-waves without an active
// lane; b8/b16 data travels as dwords; a compare-and-swap sends both operands.
uint32_t portTransferCycles(const isa::MemRequest& req, uint32_t portBytes) {
  uint32_t quarters = 0;
  for (int q = 0; q < 4; ++q) quarters += ((req.laneMask >> (16 * q)) & 0xffff) != 0;
  auto cycles = [&](uint32_t bytesPerLane) {
    return (16 * quarters * bytesPerLane + portBytes - 1) / portBytes;
  };
  const uint32_t laneData = ((req.elementBytes + 3u) / 4u) * 4u * req.elementsPerLane;
  uint32_t in = 4, out = 0;  // bytes per lane: the address, then data
  if (req.crossLane != isa::MemRequest::CrossLane::None) {
    // A lane permute sends an address and a dword and gets a dword back; a swizzle sends only
    // its dword.
    in = req.crossLane == isa::MemRequest::CrossLane::Permute ? 8 : 4;
    return cycles(in) + cycles(4);
  }
  if (req.op == isa::MemOp::Load) out = laneData;
  if (req.op == isa::MemOp::Store) in += laneData;
  if (req.op == isa::MemOp::Atomic) {
    const bool compare =
        req.atomic == isa::AtomicOp::CmpSwap || req.atomic == isa::AtomicOp::FCmpSwap;
    in += compare ? 2 * laneData : laneData;
    if (req.atomicReturnsData) out = laneData;
  }
  return cycles(in) + cycles(out);
}

}  // namespace

Lds::Lds(sc_module_name name, const LdsConfig& config, sc_time clockPeriod,
         std::unique_ptr<LdsBankArbiter> arbiter)
    : sc_module(name),
      socket("socket"),
      config_(config),
      period_(clockPeriod),
      arbiter_(std::move(arbiter)),
      storageBytes_(config.sizeBytes) {
  if (storageBytes_ != 0) {
    void* p = mmap(nullptr, storageBytes_, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    storage_ = static_cast<uint8_t*>(p);
  }
  socket.register_b_transport(this, &Lds::b_transport);
  socket.register_transport_dbg(this, &Lds::transport_dbg);
}

Lds::~Lds() {
  if (storage_ != nullptr) munmap(storage_, storageBytes_);
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
  const sc_time now = currentTime();
  bankReq.cycle = static_cast<uint64_t>((now + delay) / period_);

  // The workgroup's allocation, clipped to the LDS; the element rules (range, lane order,
  // atomics) are LdsElementRules.h, shared with DS instructions done at issue.
  const uint64_t base = ext->ldsBase, storageBytes = storageBytes_;
  const lds::LdsWindow window{
      storage_ + std::min(base, storageBytes),
      base > storageBytes ? 0 : std::min<uint64_t>(ext->ldsSize, storageBytes - base)};
  // A lane permute or swizzle carries its result already and touches no LDS byte; its lanes'
  // addresses are their own crossbar paths, one dword bank each (a conflict-free pass: model
  // choice, the ISA guide gives permutes no bank conflicts).
  if (req.crossLane == isa::MemRequest::CrossLane::None)
    outOfRangeLanes += lds::executeRequest(req, window);
  // The banks see every active lane's address, in range or not.
  for (int e = 0; e < req.elementsPerLane; ++e) {
    const uint64_t* addresses = req.addressesOf(e);
    for (uint64_t lanes = req.laneMask; lanes != 0; lanes &= lanes - 1) {
      const int lane = __builtin_ctzll(lanes);
      bankReq.addr[lane][e] = static_cast<uint32_t>(base + addresses[lane]);
    }
  }

  const uint64_t moved =
      static_cast<uint64_t>(__builtin_popcountll(req.laneMask)) * bytes * req.elementsPerLane;
  bytesMoved += moved;
  if (!config_.timed) {  // functional mode: no bank arbitration
    if (activity_)
      activity_->add(bytesChannel_, static_cast<uint64_t>((now + delay) / period_), moved);
    delay += period_;
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  // The access holds its SIMD pair's port; the banks serve it from when it starts there.
  const uint32_t portTime = portTransferCycles(req, config_.portBytesPerCycle);
  const uint32_t port = ext->simd / std::max(1u, config_.simdsPerPort);
  if (port >= ports_.size()) ports_.resize(port + 1);
  const sc_time portStart = ports_[port].reserve(now + delay, period_ * portTime, now);
  portCycles += portTime;
  bankReq.cycle = static_cast<uint64_t>(portStart / period_);
  // The per-cycle detail only for the trace.
  LdsBankSchedule detail;
  if (traceProbe) {
    detail = arbiter_->schedule(bankReq);
  } else {
    const LdsBankCycles counts = arbiter_->cycles(bankReq);
    detail.cycles = counts.cycles, detail.conflictCycles = counts.conflictCycles;
  }
  const LdsBankSchedule& sched = detail;
  bankCycles += sched.cycles;
  conflictCycles += sched.conflictCycles;
  const uint64_t conflictFree = std::max<uint64_t>(1, sched.cycles - sched.conflictCycles);
  const uint64_t degree = (sched.cycles + conflictFree - 1) / conflictFree;
  ++conflictDegree[degree >= 32 ? 6 : degree <= 1 ? 0 : 64 - __builtin_clzll(degree - 1)];
  // The banks are busy for the schedule's cycles; the data returns after the pipeline latency,
  // once both the banks and the port are done with the access.
  const sc_time start = banks_.reserve(portStart, period_ * sched.cycles, now);
  if (activity_) {
    const uint64_t cycle = static_cast<uint64_t>(start / period_);
    activity_->add(bytesChannel_, cycle, moved);
    activity_->add(conflictChannel_, cycle, sched.conflictCycles);
  }
  if (traceProbe)
    traceProbe->access(
        static_cast<uint64_t>(start / period_), sched.cycles, sched.conflictCycles,
        trace::ldsBankMasks(bankReq, sched,
                            LdsLaneGroups::of(bankReq.dwordsPerElement, bankReq.elementsPerLane),
                            config_.banks));
  const sc_time done = std::max(start + period_ * sched.cycles, portStart + period_ * portTime);
  delay = done + period_ * config_.latencyCycles - now;
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

unsigned int Lds::transport_dbg(tlm::tlm_generic_payload& trans) {
  // Debug view of the raw LDS array (byte addresses 0 .. size-1).
  const uint64_t addr = trans.get_address();
  const unsigned len = trans.get_data_length();
  if (addr >= storageBytes_) return 0;
  const unsigned n = static_cast<unsigned>(std::min<uint64_t>(len, storageBytes_ - addr));
  if (trans.is_read())
    std::memcpy(trans.get_data_ptr(), storage_ + addr, n);
  else if (trans.is_write())
    std::memcpy(storage_ + addr, trans.get_data_ptr(), n);
  return n;
}

}  // namespace vgpu
