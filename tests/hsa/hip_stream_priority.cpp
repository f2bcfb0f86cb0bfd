// Streams with priorities through Debian's HIP runtime on vgpu: hipStreamCreateWithPriority at
// the greatest and least priority hipDeviceGetStreamPriorityRange gives (ROCclr gives each such
// stream a queue of its own and sets its priority, hsa_amd_queue_set_priority), a kernel on
// each, both checked. Exits non-zero on a wrong result or a failed call.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <vector>

#include "../hip_apps/HipCheck.h"  // CHECK: a failed HIP call ends the program

__global__ void scale(const int* in, int* out, int factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = factor * in[i];
}

int main() {
  int least = 0, greatest = 0;
  CHECK(hipDeviceGetStreamPriorityRange(&least, &greatest));
  std::printf("stream priorities: least %d, greatest %d\n", least, greatest);
  hipStream_t low, high;
  CHECK(hipStreamCreateWithPriority(&low, hipStreamDefault, least));
  CHECK(hipStreamCreateWithPriority(&high, hipStreamNonBlocking, greatest));
  int priority = 0;
  CHECK(hipStreamGetPriority(high, &priority));
  const int n = 4096;
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[i] = i - 100;
  int *dIn, *dLow, *dHigh;
  CHECK(hipMalloc(&dIn, n * sizeof(int)));
  CHECK(hipMalloc(&dLow, n * sizeof(int)));
  CHECK(hipMalloc(&dHigh, n * sizeof(int)));
  CHECK(hipMemcpy(dIn, in.data(), n * sizeof(int), hipMemcpyHostToDevice));
  hipLaunchKernelGGL(scale, dim3(n / 256), dim3(256), 0, low, dIn, dLow, 3, n);
  hipLaunchKernelGGL(scale, dim3(n / 256), dim3(256), 0, high, dIn, dHigh, 5, n);
  CHECK(hipStreamSynchronize(low));
  CHECK(hipStreamSynchronize(high));
  std::vector<int> outLow(n), outHigh(n);
  CHECK(hipMemcpy(outLow.data(), dLow, n * sizeof(int), hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(outHigh.data(), dHigh, n * sizeof(int), hipMemcpyDeviceToHost));
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += outLow[i] != 3 * in[i] || outHigh[i] != 5 * in[i];
  std::printf("kernels on a low and a high priority stream (priority %d): %d wrong\n", priority,
              wrong);
  CHECK(hipStreamDestroy(low));
  CHECK(hipStreamDestroy(high));
  return wrong != 0;
}
