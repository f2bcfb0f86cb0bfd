// The kernel of hip_module_reload.cpp, built twice: as module 1 and module 2 (-DMODULE=1, 2).
#include <hip/hip_runtime.h>

__device__ int loaded;  // where the module's globals were placed

extern "C" __global__ void fill(int* out) {
  out[threadIdx.x] = MODULE * 1000 + static_cast<int>(threadIdx.x);
  loaded = MODULE;
}
