// __smid() through Debian's HIP runtime on vgpu's vega20 (60 CUs): HIP computes it from the
// wave's HW_ID register as SE_ID << 4 | CU_ID (amd_device_functions.h). One workgroup of one
// wave for each CU: the dispatcher places workgroups round robin over the CUs with room, so on
// an idle GPU the 60 land on 60 different CUs and every CU answers once: 60 different values,
// each a CU 0..14 of a shader engine 0..3 (Vega 20 has 4 engines of 16 CUs, AMD "Vega"
// whitepaper; the MI50 enables 15 of each). Exits non-zero otherwise.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <set>
#include <vector>

#include "../hip_apps/HipCheck.h"  // CHECK: a failed HIP call ends the program

__global__ void whereAmI(unsigned* out) {
  if (threadIdx.x == 0) out[blockIdx.x] = __smid();
}

int main() {
  hipDeviceProp_t props;
  CHECK(hipGetDeviceProperties(&props, 0));
  const int cus = props.multiProcessorCount;
  unsigned* d = nullptr;
  CHECK(hipMalloc(&d, cus * sizeof(unsigned)));
  whereAmI<<<cus, 64>>>(d);
  CHECK(hipDeviceSynchronize());
  std::vector<unsigned> smid(cus);
  CHECK(hipMemcpy(smid.data(), d, cus * sizeof(unsigned), hipMemcpyDeviceToHost));
  std::set<unsigned> distinct(smid.begin(), smid.end());
  int bad = 0;
  for (unsigned s : distinct)
    if ((s & 15) >= 15 || (s >> 4) >= 4) {
      std::printf("__smid() %u is not a CU 0..14 of an engine 0..3\n", s);
      ++bad;
    }
  std::printf("%d CUs, %zu different __smid() values\n", cus, distinct.size());
  if (cus != 60 || static_cast<int>(distinct.size()) != cus || bad != 0) {
    std::printf("FAILED\n");
    return 1;
  }
  std::printf("ok\n");
  return 0;
}
