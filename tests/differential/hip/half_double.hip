// Packed half-precision (__half2: v_pk_*_f16) and double-precision HIP kernels. FP contraction is
// off where the reference relies on separately rounded operations.
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

extern "C" __global__ void half2_arith(const __half2* a, const __half2* b, const __half2* c,
                                       __half2* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const __half2 x = a[i], y = b[i], z = c[i];
  __half2* o = out + 8 * i;
  o[0] = __hadd2(x, y);
  o[1] = __hsub2(x, y);
  o[2] = __hmul2(x, y);
  o[3] = __hfma2(x, y, z);
  o[4] = __hneg2(x);
  o[5] = __habs2(y);
  o[6] = __hadd2_sat(x, y);
  o[7] = __hlt2(x, y);
}

extern "C" __global__ void double_ops(const double* a, const double* b, const double* c,
                                      double* out, long long* ints) {
#pragma clang fp contract(off)
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const double x = a[i], y = b[i], z = c[i];
  double* o = out + 8 * i;
  o[0] = x + y;
  o[1] = x * y + z;
  o[2] = fma(x, y, z);
  o[3] = x / y;
  o[4] = sqrt(fabs(x));
  o[5] = fmin(x, y) - fmax(y, z);
  double p = 0;  // Horner's rule with fma: a fixed order
  for (int k = 0; k < 8; ++k) p = fma(p, x, static_cast<double>(k) - 3.5);
  o[6] = p;
  o[7] = static_cast<double>(static_cast<float>(x)) + floor(y) + trunc(z);
  ints[2 * i] = static_cast<long long>(fmin(fmax(x, -9.0e18), 9.0e18));
  ints[2 * i + 1] = static_cast<long long>(x < y) | static_cast<long long>(x == y) << 1 |
                    static_cast<long long>(isnan(x)) << 2 | static_cast<long long>(signbit(z)) << 3;
}
