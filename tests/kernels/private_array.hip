// Acceptance kernel 7: a private array indexed by a runtime value, which forces scratch memory.
#include <hip/hip_runtime.h>

extern "C" __global__ void private_array(const int* index, int* out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  int table[64];
  for (int k = 0; k < 64; ++k) table[k] = k * t + 3;
  int sum = 0;
  for (int r = 0; r < 4; ++r) sum += table[(index[t] + 17 * r) & 63];
  out[t] = sum;
}
