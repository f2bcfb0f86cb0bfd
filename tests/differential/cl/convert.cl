// Conversions: saturation and the four rounding modes (convert_T_sat_rXX), between every width.
// Results are widened to int/long/float/double so that one output buffer holds them all.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define OUT(k) out[i * K + (k)]

#define K 16
__kernel void cvt_f32_to_int_sat(__global const float* a, __global int* out) {
  size_t i = get_global_id(0);
  float x = a[i];
  OUT(0) = convert_char_sat(x);
  OUT(1) = convert_char_sat_rte(x);
  OUT(2) = convert_char_sat_rtp(x);
  OUT(3) = convert_char_sat_rtn(x);
  OUT(4) = convert_uchar_sat(x);
  OUT(5) = convert_uchar_sat_rte(x);
  OUT(6) = convert_short_sat_rte(x);
  OUT(7) = convert_short_sat_rtn(x);
  OUT(8) = convert_ushort_sat_rtp(x);
  OUT(9) = convert_ushort_sat(x);
  OUT(10) = convert_int_sat(x);
  OUT(11) = convert_int_sat_rte(x);
  OUT(12) = convert_int_sat_rtp(x);
  OUT(13) = convert_int_sat_rtn(x);
  OUT(14) = (int)convert_uint_sat(x);
  OUT(15) = (int)convert_uint_sat_rte(x);
}
#undef K

#define K 12
__kernel void cvt_int_to_f32(__global const int* a, __global const long* b, __global float* out) {
  size_t i = get_global_id(0);
  int x = a[i];
  long y = b[i];
  OUT(0) = convert_float(x);
  OUT(1) = convert_float_rtz(x);
  OUT(2) = convert_float_rtp(x);
  OUT(3) = convert_float_rtn(x);
  OUT(4) = convert_float((uint)x);
  OUT(5) = convert_float_rtz((uint)x);
  OUT(6) = convert_float(y);
  OUT(7) = convert_float_rtz(y);
  OUT(8) = convert_float_rtp(y);
  OUT(9) = convert_float_rtn(y);
  OUT(10) = convert_float((ulong)y);
  OUT(11) = convert_float_rtp((ulong)y);
}
#undef K

#define K 14
__kernel void cvt_int_narrow_sat(__global const long* a, __global long* out) {
  size_t i = get_global_id(0);
  long x = a[i];
  int w = (int)x;
  OUT(0) = convert_char_sat(w);
  OUT(1) = convert_uchar_sat(w);
  OUT(2) = convert_short_sat(w);
  OUT(3) = convert_ushort_sat(w);
  OUT(4) = convert_uint_sat(w);
  OUT(5) = convert_int_sat(x);
  OUT(6) = convert_uint_sat(x);
  OUT(7) = convert_short_sat(x);
  OUT(8) = convert_uchar_sat(x);
  OUT(9) = (long)convert_ulong_sat(x);
  OUT(10) = convert_long_sat((ulong)x);
  OUT(11) = convert_int_sat((ulong)x);
  OUT(12) = convert_uchar_sat((char)x) + 1000 * convert_char_sat((uchar)x);
  OUT(13) = convert_ushort_sat((short)x) + 100000 * (long)convert_short_sat((ushort)x);
}
#undef K

#define K 14
__kernel void cvt_f64(__global const double* a, __global double* out) {
  size_t i = get_global_id(0);
  double x = a[i];
  OUT(0) = convert_float(x);
  OUT(1) = convert_float_rtz(x);
  OUT(2) = convert_float_rtp(x);
  OUT(3) = convert_float_rtn(x);
  OUT(4) = convert_int_sat(x);
  OUT(5) = convert_int_sat_rte(x);
  OUT(6) = convert_uint_sat_rtp(x);
  OUT(7) = convert_char_sat_rtn(x);
  OUT(8) = (double)convert_long_sat(x);
  OUT(9) = (double)convert_ulong_sat_rte(x);
  OUT(10) = convert_double(convert_long_sat_rtz(x));
  OUT(11) = convert_double((float)x);
  OUT(12) = convert_double(as_long(x) >> 3);
  OUT(13) = convert_double(as_ulong(x));
}
#undef K

#define K 8
// float -> 64-bit integers, and the exact widening float -> double.
__kernel void cvt_f32_to_i64(__global const float* a, __global long* out) {
  size_t i = get_global_id(0);
  float x = a[i];
  OUT(0) = convert_long_sat(x);
  OUT(1) = convert_long_sat_rte(x);
  OUT(2) = convert_long_sat_rtp(x);
  OUT(3) = convert_long_sat_rtn(x);
  OUT(4) = (long)convert_ulong_sat(x);
  OUT(5) = (long)convert_ulong_sat_rte(x);
  OUT(6) = as_long(convert_double(x));
  OUT(7) = (long)convert_ushort_sat_rtz(x) << 32 | (uint)convert_int_sat_rtz(x);
}
#undef K
