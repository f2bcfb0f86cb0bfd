// Global wave sync (GWS): 64 device-wide barrier / semaphore resources that the DS
// instructions ds_gws_init, ds_gws_sema_v, ds_gws_sema_br, ds_gws_sema_p,
// ds_gws_sema_release_all and ds_gws_barrier (gds=1 only) operate on (isa/Ds.cpp). One
// GwsState belongs to the device (gpu/Gpu), like the GDS; every compute unit sees it through
// ExecContext::gws. Plain C++: waiting is the compute unit's business (a wave blocked in
// sema_p or at a barrier is parked and polls tryP / barrierPassed when version() changes).
//
// Resource id: (M0[21:16] + the instruction's offset field) % 64 (LLVM
// AMDGPUISelDAGToDAG.cpp, SelectDS_GWS: "The resource id offset is computed as (<isa opaque
// base> + M0[21:16] + offset field) % 64"; the opaque base is 0 in the model).
//
// Counter model (Vega ISA guide 12.13, DS_GWS_*; LLVM IntrinsicsAMDGPU.td: the barrier value
// "is the total number of waves that will wait on this barrier, minus 1"):
//   init        counter = value
//   sema_v      counter += 1
//   sema_br     counter += value
//   sema_p      counter > 0: counter -= 1 and go on; else the wave queues until it is > 0
//   release_all counter = the number of waves queued in sema_p on the resource (all pass)
//   barrier     counter == 0: release every wave queued at the barrier, counter = value (the
//               barrier's own operand, for the next round); else counter -= 1 and queue.
// So after ds_gws_init with N - 1, the N-th wave to arrive releases the N - 1 before it.
#pragma once

#include <array>
#include <cstdint>

namespace vgpu::isa {

class GwsState {
 public:
  static constexpr uint32_t kResources = 64;

  static uint32_t resourceId(uint32_t m0, uint32_t offset) {
    return (((m0 >> 16) & 0x3f) + offset) % kResources;
  }

  void init(uint32_t rid, uint32_t value) { set(rid).counter = value; }
  void semaV(uint32_t rid) { ++set(rid).counter; }
  void semaBr(uint32_t rid, uint32_t value) { set(rid).counter += value; }
  void releaseAll(uint32_t rid) { set(rid).counter = r_[rid].queuedP; }

  // sema_p: true if the wave may go on (the counter was decremented). Otherwise the caller
  // queues the wave (queueP) and calls tryQueuedP whenever version() changed.
  bool tryP(uint32_t rid) {
    if (r_[rid].counter == 0) return false;
    --set(rid).counter;
    return true;
  }
  void queueP(uint32_t rid) { ++set(rid).queuedP; }
  bool tryQueuedP(uint32_t rid) {
    if (!tryP(rid)) return false;
    --r_[rid].queuedP;
    return true;
  }

  // barrier: returns true if this arrival released the barrier (the wave goes on); otherwise
  // the wave waits until barrierPassed(rid, *generation) with the generation returned here.
  bool arriveAtBarrier(uint32_t rid, uint32_t value, uint64_t* generation) {
    Resource& r = set(rid);
    *generation = r.generation;
    if (r.counter == 0) {
      ++r.generation;
      r.counter = value;
      r.queuedBarrier = 0;
      return true;
    }
    --r.counter;
    ++r.queuedBarrier;
    return false;
  }
  bool barrierPassed(uint32_t rid, uint64_t generation) const {
    return r_[rid].generation != generation;
  }

  uint32_t counter(uint32_t rid) const { return r_[rid].counter; }
  uint32_t queuedP(uint32_t rid) const { return r_[rid].queuedP; }
  uint32_t queuedAtBarrier(uint32_t rid) const { return r_[rid].queuedBarrier; }
  // Changes on every update of any resource: waiters re-check only then.
  uint64_t version() const { return version_; }

 private:
  struct Resource {
    uint32_t counter = 0;
    uint32_t queuedP = 0;        // waves waiting in sema_p
    uint32_t queuedBarrier = 0;  // waves waiting at the barrier
    uint64_t generation = 0;     // barrier rounds completed
  };
  Resource& set(uint32_t rid) {
    ++version_;
    return r_[rid];
  }
  std::array<Resource, kResources> r_{};
  uint64_t version_ = 0;
};

}  // namespace vgpu::isa
