// Host memory the GPU reaches directly, through Debian's HIP runtime on vgpu: hipHostMalloc
// (the fine-grained system pool), hipHostRegister (hsa_amd_memory_lock_to_pool), a stream of
// its own with asynchronous copies, and a large pageable copy. Exits non-zero on a wrong result.
// No hipHostUnregister: HIP 5.2's removes the registered range from its map twice when the GPU
// address of locked memory equals its host address, as it does on vgpu, and aborts.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <vector>

#include "../hip_apps/HipCheck.h"  // CHECK: a failed HIP call ends the program

__global__ void twice(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2 * in[i];
}

int main() {
  const int n = 1024;
  int *hostIn = nullptr, *hostOut = nullptr;
  CHECK(hipHostMalloc(&hostIn, n * sizeof(int)));
  CHECK(hipHostMalloc(&hostOut, n * sizeof(int)));
  for (int i = 0; i < n; ++i) hostIn[i] = i, hostOut[i] = -1;
  // The kernel reads and writes host memory directly.
  hipLaunchKernelGGL(twice, dim3(n / 256), dim3(256), 0, 0, hostIn, hostOut, n);
  CHECK(hipDeviceSynchronize());
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += hostOut[i] != 2 * i;
  std::printf("hipHostMalloc: %d wrong\n", wrong);

  std::vector<int> registered(n, 5), result(n, 0);
  CHECK(hipHostRegister(registered.data(), n * sizeof(int), hipHostRegisterDefault));
  int* device = nullptr;
  CHECK(hipMalloc(&device, n * sizeof(int)));
  hipStream_t stream;
  CHECK(hipStreamCreate(&stream));
  CHECK(hipMemcpyAsync(device, registered.data(), n * sizeof(int), hipMemcpyHostToDevice, stream));
  hipLaunchKernelGGL(twice, dim3(n / 256), dim3(256), 0, stream, device, device, n);
  CHECK(hipMemcpyAsync(registered.data(), device, n * sizeof(int), hipMemcpyDeviceToHost, stream));
  CHECK(hipStreamSynchronize(stream));
  int wrongRegistered = 0;
  for (int v : registered) wrongRegistered += v != 10;
  std::printf("hipHostRegister + stream: %d wrong\n", wrongRegistered);

  // 16 MiB pageable: staged or pinned by ROCclr in pieces.
  const size_t big = 4u << 20;
  std::vector<int> a(big), b(big, 0);
  for (size_t i = 0; i < big; ++i) a[i] = int(i * 3);
  int* bigDevice = nullptr;
  CHECK(hipMalloc(&bigDevice, big * sizeof(int)));
  CHECK(hipMemcpy(bigDevice, a.data(), big * sizeof(int), hipMemcpyHostToDevice));
  CHECK(hipMemcpy(b.data(), bigDevice, big * sizeof(int), hipMemcpyDeviceToHost));
  std::printf("16 MiB round trip %s\n", a == b ? "equal" : "DIFFERENT");

  CHECK(hipStreamDestroy(stream));
  CHECK(hipFree(device));
  CHECK(hipFree(bigDevice));
  CHECK(hipHostFree(hostIn));
  CHECK(hipHostFree(hostOut));
  return wrong == 0 && wrongRegistered == 0 && a == b ? 0 : 1;
}
