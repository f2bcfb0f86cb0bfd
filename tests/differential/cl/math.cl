// Math builtins in float and double. The ULP budgets are in CasesMath.cpp.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define OUT(k) out[i * K + (k)]

#define K 2
__kernel void math_sqrt_f32(__global const float* a, __global float* out) {
  size_t i = get_global_id(0);
  OUT(0) = sqrt(a[i]);
  OUT(1) = rsqrt(a[i]);
}
#undef K

#define K 3
__kernel void math_exp_f32(__global const float* a, __global float* out) {
  size_t i = get_global_id(0);
  OUT(0) = exp(a[i]);
  OUT(1) = exp2(a[i]);
  OUT(2) = exp10(a[i]);
}
__kernel void math_log_f32(__global const float* a, __global float* out) {
  size_t i = get_global_id(0);
  OUT(0) = log(a[i]);
  OUT(1) = log2(a[i]);
  OUT(2) = log10(a[i]);
}
#undef K

#define K 2
__kernel void math_sincos_f32(__global const float* a, __global float* out) {
  size_t i = get_global_id(0);
  OUT(0) = sin(a[i]);
  OUT(1) = cos(a[i]);
}
__kernel void math_pow_f32(__global const float* a, __global const float* b, __global float* out) {
  size_t i = get_global_id(0);
  OUT(0) = pow(a[i], b[i]);
  OUT(1) = pown(a[i], (int)(as_uint(b[i]) % 41) - 20);
}
#undef K

#define K 1
__kernel void math_fma_f32(__global const float* a, __global const float* b,
                           __global const float* c, __global float* out) {
  size_t i = get_global_id(0);
  OUT(0) = fma(a[i], b[i], c[i]);
}
#undef K

#define K 3
__kernel void math_sqrt_fma_f64(__global const double* a, __global const double* b,
                                __global const double* c, __global double* out) {
  size_t i = get_global_id(0);
  OUT(0) = sqrt(a[i]);
  OUT(1) = rsqrt(a[i]);
  OUT(2) = fma(a[i], b[i], c[i]);
}
#undef K

#define K 2
__kernel void math_exp_log_f64(__global const double* a, __global double* out) {
  size_t i = get_global_id(0);
  OUT(0) = exp(a[i]);
  OUT(1) = log(a[i]);
}
#undef K

#define K 3
__kernel void math_trig_pow_f64(__global const double* a, __global const double* b,
                                __global double* out) {
  size_t i = get_global_id(0);
  OUT(0) = sin(a[i]);
  OUT(1) = cos(a[i]);
  OUT(2) = pow(a[i], b[i]);
}
#undef K
