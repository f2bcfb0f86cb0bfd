// Acceptance kernel 4: C = A * B for square n x n matrices with 16x16 LDS tiles (2D grid and block).
// n must be a multiple of 16.
#include <hip/hip_runtime.h>

#define TILE 16

extern "C" __global__ void matmul_tiled(const float* a, const float* b, float* c, int n) {
  __shared__ float tileA[TILE][TILE];
  __shared__ float tileB[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float sum = 0.0f;
  for (int t = 0; t < n / TILE; ++t) {
    tileA[ty][tx] = a[row * n + t * TILE + tx];
    tileB[ty][tx] = b[(t * TILE + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k) sum += tileA[ty][k] * tileB[k][tx];
    __syncthreads();
  }
  c[row * n + col] = sum;
}
