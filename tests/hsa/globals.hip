// A kernel with device globals, for the HSA runtime's executable tests: the runtime must offer
// the kernel (scale.kd) and the variables (hipMemcpyToSymbol finds them by name).
#include <hip/hip_runtime.h>

__device__ int counter;
__device__ float table[100];
__constant__ float factor[4] = {1.0f, 2.0f, 3.0f, 4.0f};

extern "C" __global__ void scale(float* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    data[i] = data[i] * factor[i % 4] + table[i % 100];
    atomicAdd(&counter, 1);
  }
}
