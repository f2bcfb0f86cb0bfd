// Acceptance kernel 1: float vector add; n need not be a multiple of the block size.
#include <hip/hip_runtime.h>

extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
