// Three streams with asynchronous copies, kernels and events through Debian's HIP runtime on
// the simulated GPU (HIP API reference, "Stream Management" and "Event Management"):
// hipStreamCreate x3, hipMemcpyAsync from pinned host memory, a kernel on each stream, an event
// recorded on streams 0 and 1 that streams 1 and 2 wait for (hipStreamWaitEvent) before they
// use its results, hipEventQuery, hipEventSynchronize and hipStreamSynchronize. The dependency
// chain makes every result depend on the order the events enforce; each is compared with the
// CPU's; the last line is a checksum of them all.
#include <vector>

#include "HipCheck.h"

__global__ void scaleAdd(const int* a, const int* b, int* out, int k, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] * k + (b != nullptr ? b[i] : 0);
}

int main() {
  Failures f;
  Checksum sum;
  const int n = 3000;  // not a multiple of the block
  const size_t bytes = n * sizeof(int);
  int *hostIn[3], *hostOut[3];
  for (int s = 0; s < 3; ++s) {
    CHECK(hipHostMalloc(&hostIn[s], bytes));
    CHECK(hipHostMalloc(&hostOut[s], bytes));
    for (int i = 0; i < n; ++i) hostIn[s][i] = (i * (s + 3)) % 257 - 100, hostOut[s][i] = 0;
  }
  int *in[3], *out[3];
  for (int s = 0; s < 3; ++s) {
    CHECK(hipMalloc(&in[s], bytes));
    CHECK(hipMalloc(&out[s], bytes));
  }
  hipStream_t stream[3];
  for (auto& st : stream) CHECK(hipStreamCreate(&st));
  hipEvent_t done0, done1, all;
  CHECK(hipEventCreate(&done0));
  CHECK(hipEventCreate(&done1));
  CHECK(hipEventCreate(&all));
  const dim3 grid((n + 255) / 256), block(256);

  // Stream 0: out0 = in0 * 2.
  CHECK(hipMemcpyAsync(in[0], hostIn[0], bytes, hipMemcpyHostToDevice, stream[0]));
  hipLaunchKernelGGL(scaleAdd, grid, block, 0, stream[0], in[0], nullptr, out[0], 2, n);
  CHECK(hipGetLastError());
  CHECK(hipEventRecord(done0, stream[0]));
  // Stream 1: out1 = in1 * 3 + out0, after done0.
  CHECK(hipMemcpyAsync(in[1], hostIn[1], bytes, hipMemcpyHostToDevice, stream[1]));
  CHECK(hipStreamWaitEvent(stream[1], done0, 0));
  hipLaunchKernelGGL(scaleAdd, grid, block, 0, stream[1], in[1], out[0], out[1], 3, n);
  CHECK(hipGetLastError());
  CHECK(hipEventRecord(done1, stream[1]));
  // Stream 2: out2 = in2 * 5 + out1, after done1 (and so after done0).
  CHECK(hipMemcpyAsync(in[2], hostIn[2], bytes, hipMemcpyHostToDevice, stream[2]));
  CHECK(hipStreamWaitEvent(stream[2], done1, 0));
  hipLaunchKernelGGL(scaleAdd, grid, block, 0, stream[2], in[2], out[1], out[2], 5, n);
  CHECK(hipGetLastError());
  for (int s = 0; s < 3; ++s)
    CHECK(hipMemcpyAsync(hostOut[s], out[s], bytes, hipMemcpyDeviceToHost, stream[s]));
  CHECK(hipEventRecord(all, stream[2]));

  // hipEventQuery is hipSuccess or hipErrorNotReady until the event completes; afterwards
  // hipSuccess.
  const hipError_t early = hipEventQuery(all);
  f.expect(early == hipSuccess || early == hipErrorNotReady, "hipEventQuery before completion");
  CHECK(hipEventSynchronize(all));
  CHECK(hipEventQuery(all));
  CHECK(hipEventQuery(done0));
  CHECK(hipEventQuery(done1));
  for (auto& st : stream) CHECK(hipStreamSynchronize(st));
  CHECK(hipStreamQuery(stream[0]));

  bool ok = true;
  for (int i = 0; i < n; ++i) {
    const int o0 = hostIn[0][i] * 2, o1 = hostIn[1][i] * 3 + o0, o2 = hostIn[2][i] * 5 + o1;
    ok = ok && hostOut[0][i] == o0 && hostOut[1][i] == o1 && hostOut[2][i] == o2;
  }
  f.expect(ok, "three streams ordered by events");
  for (int s = 0; s < 3; ++s) sum.add(hostOut[s], bytes);
  std::printf("3 streams, async copies, hipStreamWaitEvent chain %s\n", ok ? "ok" : "WRONG");

  // A second round on the same streams, each independent, waited for by hipStreamSynchronize.
  for (int s = 0; s < 3; ++s) {
    hipLaunchKernelGGL(scaleAdd, grid, block, 0, stream[s], in[s], in[s], out[s], s + 1, n);
    CHECK(hipGetLastError());
    CHECK(hipMemcpyAsync(hostOut[s], out[s], bytes, hipMemcpyDeviceToHost, stream[s]));
  }
  bool ok2 = true;
  for (int s = 2; s >= 0; --s) {
    CHECK(hipStreamSynchronize(stream[s]));
    for (int i = 0; i < n; ++i) ok2 = ok2 && hostOut[s][i] == hostIn[s][i] * (s + 2);
    sum.add(hostOut[s], bytes);
  }
  f.expect(ok2, "independent streams");
  std::printf("independent streams, hipStreamSynchronize %s\n", ok2 ? "ok" : "WRONG");

  CHECK(hipEventDestroy(done0));
  CHECK(hipEventDestroy(done1));
  CHECK(hipEventDestroy(all));
  for (int s = 0; s < 3; ++s) {
    CHECK(hipStreamDestroy(stream[s]));
    CHECK(hipFree(in[s]));
    CHECK(hipFree(out[s]));
    CHECK(hipHostFree(hostIn[s]));
    CHECK(hipHostFree(hostOut[s]));
  }
  std::printf("checksum %016llx\n", sum.value());
  return f.count == 0 ? 0 : 1;
}
