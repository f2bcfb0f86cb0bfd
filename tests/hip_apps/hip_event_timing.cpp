// hipEventElapsedTime on the simulated GPU, to be compared with the kernel's dispatch record of
// vgpu-sim exec --stats by check-event-timing.cmake.
//
// HIP 5.2 (hipamd src/hip_event.cpp, Event::elapsedTime and Event::time) subtracts the end
// timestamps of the two events' marker commands; ROCclr (device/rocm/rocvirtual.cpp,
// VirtualGPU::submitMarker and Timestamp::checkGpuTime) submits each marker as an AQL
// barrier-AND packet with a completion signal and reads that signal's end_ts through
// hsa_amd_profiling_get_dispatch_time. So for "record b; kernel; record c":
//   elapsed(b, c) = end_ts(c) - end_ts(b)
//                 = [b's signal decrement, after its end_ts] + kernel + [c's own processing].
// The two brackets are what an empty pair "record a; record b" measures:
//   elapsed(a, b) = [a's signal decrement] + [b's own processing].
// A gate kernel holds the queue until every packet is written, so that no packet waits for the
// host and the brackets are the packet processor's alone. The program prints both; the check
// compares elapsed(b, c) - elapsed(a, b) with the kernel's packet_end_ns - packet_start_ns.
#include "HipCheck.h"

__global__ void gate(int* flag) {
  while (__hip_atomic_load(flag, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_SYSTEM) == 0) {
  }
}

__global__ void timedWork(float* x, int n, int iterations) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  for (int k = 0; k < iterations; ++k) v = v * 0.999f + 0.5f;
  x[i] = v;
}

int main() {
  const int n = 2048;
  float* data;
  CHECK(hipMalloc(&data, n * sizeof(float)));
  CHECK(hipMemset(data, 0, n * sizeof(float)));
  int* flag;
  CHECK(hipHostMalloc(&flag, sizeof(int)));
  *flag = 0;
  hipEvent_t a, b, c;
  CHECK(hipEventCreate(&a));
  CHECK(hipEventCreate(&b));
  CHECK(hipEventCreate(&c));
  CHECK(hipDeviceSynchronize());
  hipLaunchKernelGGL(gate, dim3(1), dim3(1), 0, 0, flag);
  CHECK(hipGetLastError());
  CHECK(hipEventRecord(a, 0));
  CHECK(hipEventRecord(b, 0));
  hipLaunchKernelGGL(timedWork, dim3(n / 256), dim3(256), 0, 0, data, n, 50);
  CHECK(hipGetLastError());
  CHECK(hipEventRecord(c, 0));
  __atomic_store_n(flag, 1, __ATOMIC_RELEASE);
  CHECK(hipEventSynchronize(c));
  float empty = 0, kernel = 0;
  CHECK(hipEventElapsedTime(&empty, a, b));
  CHECK(hipEventElapsedTime(&kernel, b, c));
  // ROCclr divides whole nanoseconds by 1e6 into a float (24-bit significand): rounded back to
  // nanoseconds, the figure is exact for anything below about 8 ms.
  std::printf("empty_pair_ns %.0f\n", static_cast<double>(empty) * 1e6);
  std::printf("kernel_pair_ns %.0f\n", static_cast<double>(kernel) * 1e6);
  CHECK(hipFree(data));
  CHECK(hipHostFree(flag));
  return empty > 0 && kernel > empty ? 0 : 1;
}
