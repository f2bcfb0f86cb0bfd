// Acceptance kernel 6: divergent loops. Each thread counts Collatz steps of its own start value
// (lane-dependent trip counts) and classifies the result with nested if/else.
#include <hip/hip_runtime.h>

extern "C" __global__ void collatz(const unsigned int* start, unsigned int* steps, unsigned int* cls,
                                   int n) {
  int i = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x * blockDim.x * blockDim.y * blockDim.z +
          blockIdx.x * blockDim.x * blockDim.y * blockDim.z +
          (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned long long v = start[i];
  unsigned int count = 0;
  while (v != 1 && v != 0) {
    if (v & 1)
      v = 3 * v + 1;
    else
      v >>= 1;
    ++count;
  }
  unsigned int c;
  if (count < 10) {
    c = (count & 1) ? 1 : 0;
  } else if (count < 100) {
    if (start[i] % 3 == 0)
      c = 2;
    else
      c = 3;
  } else {
    c = 4;
  }
  steps[i] = count;
  cls[i] = c;
}
