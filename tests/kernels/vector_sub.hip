// vector_add's twin with a different result (c = a - b): the same signature and code layout,
// for the test that overwrites one kernel's code with the other's (tests/vp/CodeFromMemoryTest).
#include <hip/hip_runtime.h>

extern "C" __global__ void vector_sub(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] - b[i];
}
