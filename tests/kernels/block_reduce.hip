// Acceptance kernel 3: 256-thread block reduction through LDS with __syncthreads.
#include <hip/hip_runtime.h>

extern "C" __global__ void block_reduce(const float* in, float* out, int n) {
  __shared__ float partial[256];
  int t = threadIdx.x;
  int i = blockIdx.x * 256 + t;
  partial[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int stride = 128; stride > 0; stride >>= 1) {
    if (t < stride) partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = partial[0];
}
