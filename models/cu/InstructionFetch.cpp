// Instruction fetch: the traffic a wave makes in the instruction cache as it moves into new
// 64-byte lines, and the stall when a line is not there in time.
#include "cu/ComputeUnit.h"

#include "cu/ResidentWave.h"
#include "trace/Probes.h"

namespace vgpu {

using namespace sc_core;

void ComputeUnit::fetchNewLine(Wave& w) {
  // A hit (lookup plus one line transfer) is hidden by the instruction buffer.
  const uint64_t kHiddenFetch =
      config_.instructionCache.hitLatencyCycles +
      (64 + config_.instructionCache.bytesPerCycle - 1) / config_.instructionCache.bytesPerCycle;
  // Instructions are decoded once per address (InstructionDecodeCache, which reads their bytes);
  // the fetch models the instruction cache traffic when a wave moves into a new 64-byte line. The
  // wave's instruction buffer holds the lines it prefetched (cu.instruction_prefetch_lines ahead):
  // moving forward into one of them reads nothing; any other line (a branch back, a jump) is read
  // from the instruction cache.
  const uint64_t line = w.s->pc & ~uint64_t{63};
  const bool buffered = w.fetchedLine != kNever && line > w.fetchedLine && line <= w.prefetchedTo;
  w.fetchedLine = line;
  const sc_time local = qk_.get_local_time();
  auto read = [&](uint64_t address) {
    // The bytes themselves are not needed: they are read through DMI where it is granted, and
    // the transaction carries the DataMoved role, so the caches time and count it but do not
    // move the line down from DRAM on every hit (a loop reads its lines again at every branch
    // back). Without DMI (an instruction memory that grants none) the line travels with it.
    uint8_t buffer[64];
    uint8_t* const bytes = fetchDmi_.find(
        address, 64,
        [this](tlm::tlm_generic_payload& p, tlm::tlm_dmi& d) {
          return instructionSocket->get_direct_mem_ptr(p, d);
        },
        DmiRegions::Access::Read);
    tlm::tlm_generic_payload& p =
        fetchPayload_.begin(tlm::TLM_READ_COMMAND, address, bytes ? bytes : buffer, 64);
    if ((bytes != nullptr) != fetchMarkedDataMoved_) {  // the role stays on while DMI serves
      fetchMarkedDataMoved_ = bytes != nullptr;
      if (bytes)
        p.set_extension(&fetchDataMoved_);
      else
        p.clear_extension(&fetchDataMoved_);
    }
    sc_time delay = local;
    instructionSocket->b_transport(p, delay);
    ++instructionFetches;
    return p.is_response_ok() ? delay - local : SC_ZERO_TIME;
  };
  // A buffered line may still be on its way: wait for the prefetches (conservatively, all).
  const sc_time latency =
      buffered ? period_ * static_cast<double>(w.prefetchDoneCycle > now_
                                                   ? w.prefetchDoneCycle - now_ + kHiddenFetch
                                                   : 0)
               : read(line);
  const uint64_t last = line + 64ull * config_.cu.instructionPrefetchLines;
  uint64_t next = buffered ? w.prefetchedTo + 64 : line + 64;
  for (; next <= last; next += 64) {
    const uint64_t done = now_ + static_cast<uint64_t>(read(next) / period_);
    w.prefetchDoneCycle = std::max(w.prefetchDoneCycle, done);
  }
  w.prefetchedTo = std::max(line, next - 64);
  if (config_.functionalMode) return;
  // A hit (lookup plus one line transfer) is hidden by the instruction buffer; a miss, or a
  // hit queued behind other fetches, stalls the wave for the rest.
  const uint64_t hidden = kHiddenFetch;
  const uint64_t cycles = static_cast<uint64_t>(latency / period_);
  if (cycles > hidden) {
    const uint64_t until = now_ + cycles - hidden;
    if (until > w.readyCycle) {
      fetchStallCycles += until - std::max(w.readyCycle, now_);
      if (profile_)
        profile_->stalled(w.s->pc, StallReason::Fetch, until - std::max(w.readyCycle, now_));
      if (activity_)
        activity_->addSpan(activityChannels_.stallFetch, std::max(w.readyCycle, now_), until, 1);
    }
    w.readyCycle = std::max(w.readyCycle, until);
  }
}

}  // namespace vgpu
