// Basic float and double arithmetic, rounding, classification and half-precision storage.
// FP_CONTRACT OFF: a * b + c stays two correctly rounded operations on both devices.
#pragma OPENCL FP_CONTRACT OFF
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define OUT(k) out[i * K + (k)]

#define K 10
__kernel void f32_arith(__global const float* a, __global const float* b, __global const float* c,
                        __global float* out) {
  size_t i = get_global_id(0);
  float x = a[i], y = b[i], z = c[i];
  OUT(0) = x + y;
  OUT(1) = x - y;
  OUT(2) = x * y;
  OUT(3) = x / y;
  OUT(4) = x * y + z;
  OUT(5) = fmin(x, y);
  OUT(6) = fmax(x, y);
  OUT(7) = -fabs(x) + copysign(z, y);
  OUT(8) = 1.0f / x;
  OUT(9) = fdim(x, y);
}
#undef K

#define K 12
__kernel void f32_round(__global const float* a, __global const float* b, __global float* out) {
  size_t i = get_global_id(0);
  float x = a[i], y = b[i];
  int e;
  OUT(0) = floor(x);
  OUT(1) = ceil(x);
  OUT(2) = trunc(x);
  OUT(3) = rint(x);
  OUT(4) = round(x);
  OUT(5) = ldexp(x, (int)(as_uint(y) % 80) - 40);
  OUT(6) = frexp(x, &e);
  OUT(7) = (float)e;
  OUT(8) = (float)ilogb(x);
  OUT(9) = fmod(x, y);
  OUT(10) = nextafter(x, y);
  OUT(11) = logb(x);
}
#undef K

#define K 12
__kernel void f32_classify(__global const float* a, __global const float* b, __global int* out) {
  size_t i = get_global_id(0);
  float x = a[i], y = b[i];
  OUT(0) = isnan(x);
  OUT(1) = isinf(x);
  OUT(2) = isfinite(x);
  OUT(3) = isnormal(x);
  OUT(4) = signbit(x);
  OUT(5) = isequal(x, y) + 2 * isnotequal(x, y);
  OUT(6) = isless(x, y) + 2 * islessequal(x, y);
  OUT(7) = isgreater(x, y) + 2 * isgreaterequal(x, y);
  OUT(8) = islessgreater(x, y) + 2 * isunordered(x, y) + 4 * isordered(x, y);
  OUT(9) = (x < y) + 2 * (x <= y) + 4 * (x == y) + 8 * (x != y) + 16 * (x > y) + 32 * (x >= y);
  OUT(10) = as_int(select(x, y, as_int(x) < as_int(y)));
  OUT(11) = as_int(x > y ? x : y) ^ as_int(bitselect(x, y, as_float(0x807fff00)));
}
#undef K

#define K 11
__kernel void f64_arith(__global const double* a, __global const double* b,
                        __global const double* c, __global double* out) {
  size_t i = get_global_id(0);
  double x = a[i], y = b[i], z = c[i];
  OUT(0) = x + y;
  OUT(1) = x - y;
  OUT(2) = x * y;
  OUT(3) = x / y;
  OUT(4) = x * y + z;
  OUT(5) = fma(x, y, z);
  OUT(6) = fmin(x, y);
  OUT(7) = fmax(x, y);
  OUT(8) = sqrt(x);
  OUT(9) = -fabs(x) + copysign(z, y);
  OUT(10) = 1.0 / x;
}
#undef K

#define K 11
__kernel void f64_round(__global const double* a, __global const double* b, __global double* out) {
  size_t i = get_global_id(0);
  double x = a[i], y = b[i];
  int e;
  OUT(0) = floor(x);
  OUT(1) = ceil(x);
  OUT(2) = trunc(x);
  OUT(3) = rint(x);
  OUT(4) = round(x);
  OUT(5) = ldexp(x, (int)(as_ulong(y) % 200) - 100);
  OUT(6) = frexp(x, &e);
  OUT(7) = (double)e;
  OUT(8) = (double)ilogb(x);
  OUT(9) = fmod(x, y);
  OUT(10) = (double)(isnan(x) + 2 * isinf(x) + 4 * signbit(x) + 8 * (x < y) + 16 * isnormal(x));
}
#undef K

#define K 6
// Half precision as a storage format (core OpenCL C: no cl_khr_fp16 needed): every rounding
// mode of float -> half, and half -> float of every kind of half (denormals, inf, NaN).
__kernel void f16_storage(__global const float* a, __global const ushort* h, __global ushort* out,
                          __global float* wide) {
  size_t i = get_global_id(0);
  __global half* o = (__global half*)out;
  vstore_half(a[i], i * K + 0, o);
  vstore_half_rte(a[i], i * K + 1, o);
  vstore_half_rtz(a[i], i * K + 2, o);
  vstore_half_rtp(a[i], i * K + 3, o);
  vstore_half_rtn(a[i], i * K + 4, o);
  vstore_half_rte((float)(i & 7) - 3.5f, i * K + 5, o);
  wide[i] = vload_half(i, (__global const half*)h);
}
#undef K
