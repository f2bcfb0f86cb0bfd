// A cooperative launch through Debian's HIP runtime on vgpu: hipLaunchCooperativeKernel runs a
// kernel whose 16 workgroups meet at grid-wide barriers (cooperative_groups::this_grid().sync(),
// which hipcc compiles to ds_gws_barrier; ROCclr first runs its GWS-initialising kernel on a
// cooperative queue). Between barriers every work-item reads what work-items of other
// workgroups wrote before the barrier; the results are checked against the CPU. Exits non-zero
// on a wrong result or a failed call.
#include <hip/hip_runtime.h>
// (after hip_runtime.h, whose definitions it uses)
#include <hip/hip_cooperative_groups.h>

#include <cstdio>
#include <vector>

#include "../hip_apps/HipCheck.h"  // CHECK: a failed HIP call ends the program

namespace cg = cooperative_groups;

// Step 1: a[i] = 3 i + 1. Step 2 (after a grid barrier): b[i] = a[(i + 100) % n], written by
// another workgroup. Step 3: every work-item adds b[i] to sum. Step 4 (after another barrier):
// work-item 0 doubles the finished sum into sum[1].
__global__ void exchange(int* a, int* b, int* sum, int n) {
  cg::grid_group grid = cg::this_grid();
  const int i = static_cast<int>(grid.thread_rank());
  if (i < n) a[i] = 3 * i + 1;
  grid.sync();
  if (i < n) {
    b[i] = a[(i + 100) % n];
    atomicAdd(&sum[0], b[i]);
  }
  grid.sync();
  if (i == 0) sum[1] = 2 * sum[0];
}

int main() {
  int cooperative = 0;
  CHECK(hipDeviceGetAttribute(&cooperative, hipDeviceAttributeCooperativeLaunch, 0));
  std::printf("cooperative launch: %d\n", cooperative);
  if (cooperative != 1) return 1;
  int n = 1024;  // 16 workgroups of 64: all resident at once even on one CU
  int *a, *b, *sum;
  CHECK(hipMalloc(&a, n * sizeof(int)));
  CHECK(hipMalloc(&b, n * sizeof(int)));
  CHECK(hipMalloc(&sum, 2 * sizeof(int)));
  CHECK(hipMemset(sum, 0, 2 * sizeof(int)));
  void* args[] = {&a, &b, &sum, &n};
  CHECK(hipLaunchCooperativeKernel(reinterpret_cast<void*>(exchange), dim3(16), dim3(64), args, 0,
                                   0));
  CHECK(hipDeviceSynchronize());
  std::vector<int> gotB(n);
  int gotSum[2];
  CHECK(hipMemcpy(gotB.data(), b, n * sizeof(int), hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(gotSum, sum, sizeof gotSum, hipMemcpyDeviceToHost));
  int wrong = 0;
  long long expectedSum = 0;
  for (int i = 0; i < n; ++i) {
    const int want = 3 * ((i + 100) % n) + 1;
    wrong += gotB[i] != want;
    expectedSum += want;
  }
  wrong += gotSum[0] != expectedSum || gotSum[1] != 2 * expectedSum;
  std::printf("grid-synchronised exchange: %d wrong (sum %d, expected %lld)\n", wrong, gotSum[0],
              expectedSum);
  return wrong != 0;
}
