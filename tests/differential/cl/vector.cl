// Vector types: float4, char4, short2, int3, long2, double2, uchar16; swizzles, vload/vstore
// at unaligned offsets, component-wise builtins and comparisons.
#pragma OPENCL FP_CONTRACT OFF
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void vec_float4(__global const float* a, __global const float4* b, __global float4* out,
                         __global int4* masks) {
  size_t i = get_global_id(0);
  float4 x = vload4(0, a + i * 4 + 1);  // unaligned: starts one float into a float4
  float4 y = b[i];
  out[4 * i + 0] = x + y * (float4)(1.0f, -2.0f, 0.5f, 3.0f);
  out[4 * i + 1] = fmin(x, y.wzyx) - fabs(y.s1032);
  out[4 * i + 2] = (float4)(x.xy * y.zw, floor(x.zw));
  out[4 * i + 3] = select(x, y, x < y);
  masks[i] = (x < y) ^ (x == y) * 2;
  vstore4(x.yzwx, 0, (__global float*)(out + 4 * get_global_size(0)) + i * 4);
}

__kernel void vec_char4(__global const char4* a, __global const char4* b, __global char4* out,
                        __global short4* wide) {
  size_t i = get_global_id(0);
  char4 x = a[i], y = b[i];
  out[6 * i + 0] = add_sat(x, y);
  out[6 * i + 1] = sub_sat(x, y.wzyx);
  out[6 * i + 2] = as_char4(as_uchar4(x) * as_uchar4(y));
  out[6 * i + 3] = hadd(x, y) ^ rotate(x, y);
  out[6 * i + 4] = convert_char4_sat(convert_int4(x) * 3 - convert_int4(y));
  out[6 * i + 5] = as_char4(abs(x)) + (x > y);
  wide[i] = upsample(x, as_uchar4(y));
}

__kernel void vec_short2(__global const short2* a, __global const short2* b,
                         __global const float2* f, __global short2* out) {
  size_t i = get_global_id(0);
  short2 x = a[i], y = b[i];
  out[6 * i + 0] = mad_sat(x, y, x);
  out[6 * i + 1] = mul_hi(x, y);
  out[6 * i + 2] = add_sat(x, y.yx);
  out[6 * i + 3] = as_short2(abs_diff(x, y));
  out[6 * i + 4] = convert_short2_sat_rte(f[i] * 300.0f);
  out[6 * i + 5] = as_short2(as_uint(x) + as_uint(y)) ^ (short2)(x.y, (short)(y.x >> 3));
}

__kernel void vec_mixed(__global const int* a, __global const long2* b, __global const double2* d,
                        __global const uchar16* u, __global int* o3, __global long2* ol,
                        __global double2* od, __global uchar16* ou) {
  size_t i = get_global_id(0);
  int3 v = vload3(i, a);
  int3 r = as_int3(as_uint3(v.zxy) * 3u + as_uint3(v > 0) - as_uint3(v.yyx));
  vstore3(r, i, o3);
  long2 x = b[i];
  ol[i] = as_long2(as_ulong2(x.yx) * 5ul + as_ulong2(x >> 3) +
                   as_ulong2((long2)(x.x < x.y, popcount(x.y))));
  double2 y = d[i];
  od[i] = y * y.yx + (double2)(1.0, -1.0);
  uchar16 w = u[i];
  ou[i] = shuffle(w, (uchar16)(15, 3, 3, 0, 1, 2, 14, 13, 7, 7, 8, 9, 10, 12, 11, 4)) +
          (uchar16)(w.odd, w.even) + (uchar16)(w.hi, w.lo);
}
