// The walkthrough kernel of README's "Debugging timing": sums of the rows of 64x64 tiles through
// the LDS. Each workgroup is one wave: it copies its tile into the LDS row by row (lane = column,
// conflict-free), then each lane sums one row. Unpadded, the 32 lanes of a half-wave read
// addresses 64 floats apart, all in one bank: a 32-way bank conflict on every read. One float of
// padding per row spreads them over all 32 banks.
#include <hip/hip_runtime.h>

#define N 64

template <int kPad>
__device__ void rowSums(const float* in, float* out) {
  __shared__ float tile[N][N + kPad];
  const int lane = threadIdx.x;
  const float* block = in + blockIdx.x * N * N;
  for (int row = 0; row < N; ++row) tile[row][lane] = block[row * N + lane];
  __syncthreads();
  float sum = 0.0f;
  for (int col = 0; col < N; ++col) sum += tile[lane][col];
  out[blockIdx.x * N + lane] = sum;
}

// in: blocks x 64 x 64 floats; out: blocks x 64 row sums. Launch with --block 64.
extern "C" __global__ void row_sums(const float* in, float* out) {
  rowSums<0>(in, out);
}

extern "C" __global__ void row_sums_padded(const float* in, float* out) {
  rowSums<1>(in, out);
}
