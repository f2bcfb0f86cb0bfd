// Matrix transpose through LDS, the textbook bank-conflict example: a 32x32 tile is written
// row by row and read column by column. Without padding a column read puts all 32 lanes of a
// half-wave in one bank (32-way conflict); with one float of padding per row they spread over all
// 32 banks. Blocks of 32x8 work-items, each moving four rows of the tile.
#include <hip/hip_runtime.h>

#define TILE 32
#define ROWS 8

template <int kPad>
__device__ void transposeTile(const float* in, float* out, int width, int height) {
  __shared__ float tile[TILE][TILE + kPad];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < width && y + j < height) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < height && y + j < width) out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

// in: height rows of width floats; out: width rows of height floats.
extern "C" __global__ void transpose_lds(const float* in, float* out, int width, int height) {
  transposeTile<0>(in, out, width, height);
}

extern "C" __global__ void transpose_lds_padded(const float* in, float* out, int width,
                                                int height) {
  transposeTile<1>(in, out, width, height);
}
