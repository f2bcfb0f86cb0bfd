// FMA throughput (docs/timing-validation.md, issue 4 item 4): 8 independent accumulator chains
// per lane, `iters` x 8 x 8 fused multiply-adds (v_fmac_f32 / v_fma_f64) per lane.
#include <hip/hip_runtime.h>

__device__ inline float fma_(float x, float a, float b) { return __builtin_fmaf(x, a, b); }
__device__ inline double fma_(double x, double a, double b) { return __builtin_fma(x, a, b); }

template <typename T>
__device__ void fma_loop(T* out, T a, T b, int iters) {
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  T x0 = T(tid), x1 = x0 + T(1), x2 = x0 + T(2), x3 = x0 + T(3), x4 = x0 + T(4),
    x5 = x0 + T(5), x6 = x0 + T(6), x7 = x0 + T(7);
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int k = 0; k < 8; ++k) {
      x0 = fma_(x0, a, b); x1 = fma_(x1, a, b);
      x2 = fma_(x2, a, b); x3 = fma_(x3, a, b);
      x4 = fma_(x4, a, b); x5 = fma_(x5, a, b);
      x6 = fma_(x6, a, b); x7 = fma_(x7, a, b);
    }
  }
  out[tid] = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;
}

extern "C" __global__ void __launch_bounds__(1024) fma_f32(float* out, float a, float b,
                                                          int iters) {
  fma_loop<float>(out, a, b, iters);
}

extern "C" __global__ void __launch_bounds__(1024) fma_f64(double* out, double a, double b,
                                                          int iters) {
  fma_loop<double>(out, a, b, iters);
}
