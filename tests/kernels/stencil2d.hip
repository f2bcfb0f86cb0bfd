// Acceptance kernel: a 5-point stencil over a w x h float image with a 16x16 LDS tile and a
// one-cell halo (2D grid and block, 16x16). hipcc -O2 reads the tile with a mix of ds_read2_b32
// and ds_read_b32 and waits with a partial s_waitcnt lgkmcnt(N) before reusing the first
// read's registers: correct only if LDS returns in issue order (Vega ISA guide, 4.4), the
// kernel that exposed timing mode's LDS reordering (issue 19).
#include <hip/hip_runtime.h>

#define TILE 16

extern "C" __global__ void stencil2d(const float* in, float* out, int w, int h, float c) {
  __shared__ float tile[TILE + 2][TILE + 2];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x = blockIdx.x * TILE + tx, y = blockIdx.y * TILE + ty;
  auto at = [&](int xx, int yy) {  // clamped to the image: the border repeats
    xx = xx < 0 ? 0 : (xx >= w ? w - 1 : xx);
    yy = yy < 0 ? 0 : (yy >= h ? h - 1 : yy);
    return in[yy * w + xx];
  };
  tile[ty + 1][tx + 1] = at(x, y);
  if (tx == 0) tile[ty + 1][0] = at(x - 1, y);
  if (tx == TILE - 1) tile[ty + 1][TILE + 1] = at(x + 1, y);
  if (ty == 0) tile[0][tx + 1] = at(x, y - 1);
  if (ty == TILE - 1) tile[TILE + 1][tx + 1] = at(x, y + 1);
  __syncthreads();
  if (x < w && y < h) {
    const float center = tile[ty + 1][tx + 1];
    const float sum = tile[ty][tx + 1] + tile[ty + 2][tx + 1] + tile[ty + 1][tx] + tile[ty + 1][tx + 2];
    out[y * w + x] = center + c * (sum - 4.0f * center);
  }
}
