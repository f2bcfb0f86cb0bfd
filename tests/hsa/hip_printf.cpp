// Device printf through Debian's HIP runtime on vgpu: the host-call buffer and the listener
// thread waiting on a signal that device code changes.
#include <hip/hip_runtime.h>

#include <cstdio>

__global__ void hello(int value) {
  if (threadIdx.x == 0) printf("hello from the GPU: %d\n", value);
}

int main() {
  hipLaunchKernelGGL(hello, dim3(1), dim3(64), 0, 0, 42);
  if (hipDeviceSynchronize() != hipSuccess) return 1;
  std::printf("synchronized\n");
  return 0;
}
