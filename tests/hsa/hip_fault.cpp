// A kernel that writes where no memory is: the simulated GPU reports the fault, vgpu's HSA
// runtime prints it and calls ROCclr's queue callback with HSA_STATUS_ERROR_EXCEPTION, and
// ROCclr aborts the program, as it does on hardware.
#include <hip/hip_runtime.h>

#include <cstdio>

__global__ void bad(int* p) {
  p[threadIdx.x] = 1;
}

int main() {
  hipLaunchKernelGGL(bad, dim3(1), dim3(64), 0, 0, reinterpret_cast<int*>(0x1000));
  hipError_t e = hipDeviceSynchronize();
  std::printf("synchronized: %s\n", hipGetErrorString(e));
  return 0;
}
