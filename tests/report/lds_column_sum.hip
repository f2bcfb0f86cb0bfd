// A kernel for the report tests with a known LDS bank-conflict pattern. Each workgroup of 256
// work-items stages a 32x32 tile of floats in LDS row by row (conflict-free: consecutive lanes,
// consecutive dwords), waits at a barrier, and then each work-item sums four entries of one
// column. Column element (c, r) is dword c * 32 + r, in bank r: the 32 lanes of a half-wave read
// 32 different dwords of one bank, a 32-way conflict on every column read.
#include <hip/hip_runtime.h>

extern "C" __global__ void lds_column_sum(const float* in, float* out) {
  __shared__ float tile[32 * 32];
  const float* src = in + blockIdx.x * 1024;
  for (int i = threadIdx.x; i < 1024; i += blockDim.x) tile[i] = src[i];
  __syncthreads();
  const int column = threadIdx.x % 32, firstRow = threadIdx.x / 32 * 4;
  float sum = 0.0f;
  for (int r = firstRow; r < firstRow + 4; ++r) sum += tile[column * 32 + r];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}
