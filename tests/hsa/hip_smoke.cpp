// Runs Debian's HIP runtime (ROCclr) over vgpu's HSA runtime: device properties, allocation and
// copies through the DMA engine. Prints what HIP reports; exits non-zero on any error.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <vector>

#include "../hip_apps/HipCheck.h"  // CHECK: a failed HIP call ends the program

int main() {
  int count = 0;
  CHECK(hipGetDeviceCount(&count));
  hipDeviceProp_t p;
  CHECK(hipGetDeviceProperties(&p, 0));
  std::printf("devices=%d name=%s arch=%s CUs=%d memory=%zu clockkHz=%d warp=%d\n", count, p.name,
              p.gcnArchName, p.multiProcessorCount, p.totalGlobalMem, p.clockRate, p.warpSize);
  const size_t n = 1 << 16;
  std::vector<int> in(n), out(n, -1);
  for (size_t i = 0; i < n; ++i) in[i] = int(i * 7);
  int* device = nullptr;
  CHECK(hipMalloc(&device, n * sizeof(int)));
  CHECK(hipMemcpy(device, in.data(), n * sizeof(int), hipMemcpyHostToDevice));
  CHECK(hipMemcpy(out.data(), device, n * sizeof(int), hipMemcpyDeviceToHost));
  CHECK(hipFree(device));
  std::printf("round trip %s\n", in == out ? "equal" : "DIFFERENT");
  return in == out ? 0 : 1;
}
