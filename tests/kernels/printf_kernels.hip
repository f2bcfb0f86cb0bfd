// printf in a HIP kernel: device-side printf goes through the hostcall buffer (the
// hidden_hostcall_buffer argument, AMDGPUUsage).
#include <hip/hip_runtime.h>

extern "C" __global__ void hip_printf(const int* in) {
  if (threadIdx.x == 0) printf("block %d has %d\n", static_cast<int>(blockIdx.x), in[blockIdx.x]);
}
