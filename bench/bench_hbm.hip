// HBM stream microbenchmarks (docs/timing-validation.md, issue 4 item 1).
// Grid-stride loops over float4 (global_load_dwordx4 / global_store_dwordx4); each thread keeps
// several loads in flight (unrolled by 4) so the memory system, not latency, limits the rate.
#include <hip/hip_runtime.h>

// Read: sum every element; one float per thread is written so the loads stay live.
extern "C" __global__ void __launch_bounds__(256) stream_read(const float4* __restrict__ in,
                                                              float* __restrict__ out,
                                                              unsigned n4) {
  const unsigned stride = gridDim.x * blockDim.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 a = {0, 0, 0, 0}, b = a, c = a, d = a;
  for (; i + 3 * stride < n4; i += 4 * stride) {
    const float4 x = in[i], y = in[i + stride], z = in[i + 2 * stride], w = in[i + 3 * stride];
    a.x += x.x; a.y += x.y; a.z += x.z; a.w += x.w;
    b.x += y.x; b.y += y.y; b.z += y.z; b.w += y.w;
    c.x += z.x; c.y += z.y; c.z += z.z; c.w += z.w;
    d.x += w.x; d.y += w.y; d.z += w.z; d.w += w.w;
  }
  for (; i < n4; i += stride) {
    const float4 x = in[i];
    a.x += x.x; a.y += x.y; a.z += x.z; a.w += x.w;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] =
      a.x + a.y + a.z + a.w + b.x + b.y + b.z + b.w + c.x + c.y + c.z + c.w + d.x + d.y + d.z + d.w;
}

// Copy: out[i] = in[i].
extern "C" __global__ void __launch_bounds__(256) stream_copy(const float4* __restrict__ in,
                                                              float4* __restrict__ out,
                                                              unsigned n4) {
  const unsigned stride = gridDim.x * blockDim.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  for (; i + 3 * stride < n4; i += 4 * stride) {
    const float4 x = in[i], y = in[i + stride], z = in[i + 2 * stride], w = in[i + 3 * stride];
    out[i] = x;
    out[i + stride] = y;
    out[i + 2 * stride] = z;
    out[i + 3 * stride] = w;
  }
  for (; i < n4; i += stride) out[i] = in[i];
}
