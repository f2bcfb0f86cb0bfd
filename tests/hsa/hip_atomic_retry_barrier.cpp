// A workgroup that runs contended atomic retry loops before __syncthreads(), through Debian's
// HIP runtime on vgpu in timing mode. gfx906 has no global float atomic add, so atomicAdd on a
// float is a compare-and-swap loop; with every work-item of the workgroup on one address, each
// wave needs many trips to L2, and the wave that finishes first waits at the barrier for far
// longer than the watchdog allows a wait (the test sets VGPU_WATCHDOG_CYCLES=20000). The other
// waves are working, not stuck: they keep running atomics, so the watchdog must not call it a
// deadlock. The sums and the maximum are checked against the CPU; exits non-zero on a
// difference (a fault report aborts the program in ROCclr).
#include <hip/hip_runtime.h>

#include <cstdio>
#include <vector>

#include "../hip_apps/HipCheck.h"  // CHECK: a failed HIP call ends the program

constexpr int kThreads = 256;  // 4 waves
constexpr int kAddsPerThread = 2;
constexpr unsigned long long kHashFactor = 0x9e3779b97f4a7c15ull;

__global__ void retryThenBarrier(const int* in, float* sum, unsigned long long* largest,
                                 unsigned* afterBarrier) {
  const int t = threadIdx.x;
  for (int k = 0; k < kAddsPerThread; ++k) atomicAdd(sum, 0.25f);  // a CAS loop on gfx906
  // The largest hash, by a 64-bit compare-and-swap loop that retries while it is larger.
  const unsigned long long h = static_cast<unsigned long long>(in[t]) * kHashFactor;
  unsigned long long seen = *largest;
  while (seen < h) {
    const unsigned long long old = atomicCAS(largest, seen, h);
    if (old == seen) break;
    seen = old;
  }
  __syncthreads();
  // Every wave passed the barrier: each work-item counts itself once more.
  atomicAdd(afterBarrier, 1u);
}

int main() {
  std::vector<int> in(kThreads);
  unsigned long long wantLargest = 0;
  for (int t = 0; t < kThreads; ++t) {
    in[t] = static_cast<int>((t * 7919u + 13u) % 100003u);  // distinct, unordered
    const unsigned long long h = static_cast<unsigned long long>(in[t]) * kHashFactor;
    if (h > wantLargest) wantLargest = h;
  }
  int* dIn;
  float* dSum;
  unsigned long long* dLargest;
  unsigned* dAfter;
  CHECK(hipMalloc(&dIn, kThreads * sizeof(int)));
  CHECK(hipMalloc(&dSum, sizeof(float)));
  CHECK(hipMalloc(&dLargest, sizeof(unsigned long long)));
  CHECK(hipMalloc(&dAfter, sizeof(unsigned)));
  CHECK(hipMemcpy(dIn, in.data(), kThreads * sizeof(int), hipMemcpyHostToDevice));
  CHECK(hipMemset(dSum, 0, sizeof(float)));
  CHECK(hipMemset(dLargest, 0, sizeof(unsigned long long)));
  CHECK(hipMemset(dAfter, 0, sizeof(unsigned)));
  hipLaunchKernelGGL(retryThenBarrier, dim3(1), dim3(kThreads), 0, 0, dIn, dSum, dLargest, dAfter);
  CHECK(hipGetLastError());
  float sum = 0;
  unsigned long long largest = 0;
  unsigned after = 0;
  CHECK(hipMemcpy(&sum, dSum, sizeof sum, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(&largest, dLargest, sizeof largest, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(&after, dAfter, sizeof after, hipMemcpyDeviceToHost));
  // 512 adds of 0.25: every partial sum is a multiple of 0.25 below 2^22, so exact.
  const float wantSum = kThreads * kAddsPerThread * 0.25f;
  int failures = 0;
  if (sum != wantSum) {
    std::fprintf(stderr, "float atomicAdd sum %g, want %g\n", sum, wantSum);
    ++failures;
  }
  if (largest != wantLargest) {
    std::fprintf(stderr, "CAS maximum %#llx, want %#llx\n", largest, wantLargest);
    ++failures;
  }
  if (after != kThreads) {
    std::fprintf(stderr, "%u work-items passed the barrier, want %d\n", after, kThreads);
    ++failures;
  }
  CHECK(hipFree(dIn));
  CHECK(hipFree(dSum));
  CHECK(hipFree(dLargest));
  CHECK(hipFree(dAfter));
  if (failures == 0) std::printf("atomic retry loops before a barrier: all right\n");
  return failures == 0 ? 0 : 1;
}
