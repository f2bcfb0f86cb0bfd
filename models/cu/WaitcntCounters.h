// The s_waitcnt counters of one wave, and the order in which the wave sees its memory accesses
// complete. Every timed memory access of a wave passes through here when it is sent and when
// its response is retired, so the hardware's return-order rules live in this one place.
//
// The rules (Vega ISA reference guide, 4.4 "Data Dependency Resolution" and the chapter "Flat
// Memory Instructions"; LLVM's FLATInstructions.td and SIInsertWaitcnts rely on exactly these):
//   VM_CNT   vector memory (MUBUF, MTBUF, MIMG, global, scratch): loads and stores return in
//            the order they were issued, mixed reads and writes included.
//   LGKM_CNT LDS and GDS: each returns in issue order among its own type ("instructions of a
//            given type return in order, but instructions of different types can complete out
//            of order, e.g. GDS and LDS both use LGKM_CNT but can return out of order"). The
//            model keeps LDS and GDS in one queue: in order between them is one of the orders
//            the hardware may produce.
//            SMEM: may return out of order; only s_waitcnt lgkmcnt(0) is a legal wait for it,
//            so the model lets scalar loads complete whenever the scalar cache answers.
//            s_sendmsg: counted and decremented when the message is sent; the model sends
//            messages at issue, so they never count here.
//   FLAT     a FLAT-segment access (not global or scratch) counts on both VM_CNT and LGKM_CNT
//            and is done when both are decremented; it returns in order within the path it
//            took (VM order when the address was global or private memory, LDS order when it
//            fell in the shared aperture).
//   EXP_CNT  exports and GDS data reads out of VGPRs: unused by compute kernels on this model.
//
// A kernel that is correct on silicon waits only on what these rules promise, so it stays
// correct under any latency the memory system annotates: extra latency (the latency
// perturbation of PlatformConfig::perturbLatencySeed) may reorder what the rules leave free and
// nothing else.
#pragma once

#include <algorithm>
#include <cstdint>

#include "isa/MemRequest.h"

namespace vgpu {

class WaitcntCounters {
 public:
  // Counts an access that leaves the wave now and that the memory path answers at cycle
  // `answered`; returns the cycle at which the wave sees it complete (its data in the VGPRs,
  // its counter decremented): `answered`, or later when an earlier access of the same ordered
  // type completes later.
  uint64_t issue(isa::WaitCounter counter, isa::MemSpace space, uint64_t answered) {
    uint64_t completion = answered;
    switch (space) {
      case isa::MemSpace::Vector:
        completion = std::max(completion, lastVectorMemory_);
        lastVectorMemory_ = completion;
        break;
      case isa::MemSpace::Lds:  // LDS, GDS and flat accesses in the shared aperture
        completion = std::max(completion, lastDataShare_);
        lastDataShare_ = completion;
        break;
      case isa::MemSpace::Scalar:  // free to complete out of order
        break;
    }
    count(counter, +1);
    return completion;
  }
  // The access counted under `counter` has completed.
  void retire(isa::WaitCounter counter) { count(counter, -1); }

  // s_waitcnt's condition: every counter at or below its threshold.
  bool satisfied(uint32_t vmAtMost, uint32_t lgkmAtMost, uint32_t expAtMost) const {
    return vm <= vmAtMost && lgkm <= lgkmAtMost && exp <= expAtMost;
  }

  uint32_t vm = 0, lgkm = 0, exp = 0;  // outstanding, per counter

 private:
  void count(isa::WaitCounter counter, int step) {
    switch (counter) {
      case isa::WaitCounter::Vm:
        vm += step;
        break;
      case isa::WaitCounter::Lgkm:
        lgkm += step;
        break;
      case isa::WaitCounter::VmLgkm:
        vm += step;
        lgkm += step;
        break;
      case isa::WaitCounter::Exp:
        exp += step;
        break;
      case isa::WaitCounter::None:
        break;
    }
  }

  // The completion cycles of the latest access of each ordered type (0: none yet).
  uint64_t lastVectorMemory_ = 0, lastDataShare_ = 0;
};

}  // namespace vgpu
