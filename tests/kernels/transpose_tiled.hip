// Acceptance kernel: out = transpose(in) for a w x h matrix of 32-bit words (w and h multiples
// of 32) through a 32x33 LDS tile (the extra column avoids bank conflicts), workgroups of 32x8
// moving four rows each.
// The compiler batches the tile's reads and writes and waits for them with partial
// s_waitcnt lgkmcnt(N): LDS must return in issue order (Vega ISA guide, 4.4).
#include <hip/hip_runtime.h>

#define TILE 32
#define ROWS 8

extern "C" __global__ void transpose_tiled(const unsigned* in, unsigned* out, int w, int h) {
  __shared__ unsigned tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}
