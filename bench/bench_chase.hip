// Pointer-chase latency (docs/timing-validation.md, issue 4 item 5). One wave follows a chain
// of byte offsets: next = *(buf + current). The load is global_load_dword with the buffer base
// in SGPRs and the 32-bit offset in a VGPR, so each step is one dependent load, its s_waitcnt
// and no address arithmetic. The footprint and order of the chain (vector L1 hit, L2 hit,
// DRAM) are set by the input file that scripts/bench-timing writes.
#include <hip/hip_runtime.h>

extern "C" __global__ void __launch_bounds__(64) pointer_chase(const unsigned* __restrict__ buf,
                                                               unsigned* __restrict__ out,
                                                               int steps, unsigned lane_step) {
  // Run with one wave and lane_step 0: every lane follows the same chain (one line per step);
  // the lane term only keeps the compiler from turning the chase into scalar loads. With many
  // waves and lane_step a slot, every work-item starts at its own slot (scripts/bench-speed):
  // no two lanes of any wave meet a line at the same step, so the lines each load touches are
  // the same however the waves are spread over the CUs.
  unsigned p = (blockIdx.x * blockDim.x + threadIdx.x) * lane_step;
  const char* base = reinterpret_cast<const char*>(buf);
  for (int i = 0; i < steps; ++i) p = *reinterpret_cast<const unsigned*>(base + p);
  if (threadIdx.x == 0) out[0] = p;
}
