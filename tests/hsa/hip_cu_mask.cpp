// A stream restricted to two CUs through Debian's HIP runtime on vgpu's vega20:
// hipExtStreamCreateWithCUMask (ROCclr gives the stream a queue of its own and sets its mask,
// hsa_amd_queue_cu_set_mask) with CUs 5 and 20. Bit i is the model's CU i, which sits at CU
// i % 15 of shader engine i / 15 (60 CUs in 4 engines), so HIP's __smid() (SE_ID << 4 | CU_ID)
// reads 5 and 16 + 5 = 21 there. Every one of 64 workgroups on that stream must report one of
// the two, and both must be used; the same kernel on a stream without a mask uses more CUs than
// two. Exits non-zero otherwise.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <set>
#include <vector>

#include "../hip_apps/HipCheck.h"  // CHECK: a failed HIP call ends the program

__global__ void whereAmI(unsigned* out) {
  if (threadIdx.x == 0) out[blockIdx.x] = __smid();
}

std::set<unsigned> smidsOn(hipStream_t stream, int groups) {
  unsigned* d = nullptr;
  CHECK(hipMalloc(&d, groups * sizeof(unsigned)));
  hipLaunchKernelGGL(whereAmI, dim3(groups), dim3(64), 0, stream, d);
  CHECK(hipStreamSynchronize(stream));
  std::vector<unsigned> h(groups);
  CHECK(hipMemcpy(h.data(), d, groups * sizeof(unsigned), hipMemcpyDeviceToHost));
  CHECK(hipFree(d));
  return std::set<unsigned>(h.begin(), h.end());
}

int main() {
  const uint32_t mask[2] = {1u << 5 | 1u << 20, 0};
  hipStream_t masked, open;
  CHECK(hipExtStreamCreateWithCUMask(&masked, 2, mask));
  CHECK(hipStreamCreate(&open));
  uint32_t readBack[2] = {};
  CHECK(hipExtStreamGetCUMask(masked, 2, readBack));
  const std::set<unsigned> onMasked = smidsOn(masked, 64), onOpen = smidsOn(open, 64);
  std::printf("masked stream: CU mask %08x %08x, __smid()", readBack[1], readBack[0]);
  for (unsigned s : onMasked) std::printf(" %u", s);
  std::printf("; open stream: %zu different __smid() values\n", onOpen.size());
  if (onMasked != std::set<unsigned>{5, 21} || readBack[0] != mask[0] || onOpen.size() <= 2) {
    std::printf("FAILED\n");
    return 1;
  }
  std::printf("ok\n");
  return 0;
}
