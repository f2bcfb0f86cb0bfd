// Integer arithmetic at 8, 16, 32 and 64 bits: wrap-around (done in unsigned types, since signed
// overflow is undefined), OpenCL's masked shifts, and the integer builtins.
#define OUT(k) out[i * K + (k)]

#define K 20
__kernel void int32_ops(__global const int* a, __global const int* b, __global int* out) {
  size_t i = get_global_id(0);
  int x = a[i], y = b[i];
  uint ux = (uint)x, uy = (uint)y;
  OUT(0) = (int)(ux + uy);
  OUT(1) = (int)(ux - uy);
  OUT(2) = (int)(ux * uy);
  OUT(3) = mul_hi(x, y);
  OUT(4) = x << y;  // OpenCL: the shift count is taken modulo 32
  OUT(5) = x >> y;
  OUT(6) = rotate(x, y);
  OUT(7) = clz(x);
  OUT(8) = popcount(x);
  OUT(9) = (int)abs(x);
  OUT(10) = (int)abs_diff(x, y);
  OUT(11) = add_sat(x, y);
  OUT(12) = sub_sat(x, y);
  OUT(13) = hadd(x, y);
  OUT(14) = rhadd(x, y);
  OUT(15) = min(x, y) ^ (int)((uint)max(x, y) * 3u);
  OUT(16) = clamp(x, min(y, 0), max(y, 0));
  OUT(17) = mad24((x << 16) >> 16, (y << 16) >> 16, x >> 2);  // no overflow
  OUT(18) = mad_hi(x, y, y) ^ bitselect(x, y, 0x0ff0f00f);
  OUT(19) = (x < y) + 2 * (x == y) + 4 * (x >= 0) + 8 * (int)((uint)x > (uint)y) + (x ? 16 : 0);
}
#undef K

#define K 16
__kernel void uint32_ops(__global const uint* a, __global const uint* b, __global uint* out) {
  size_t i = get_global_id(0);
  uint x = a[i], y = b[i];
  OUT(0) = x * y + (x ^ y);
  OUT(1) = mul_hi(x, y);
  OUT(2) = x >> y;
  OUT(3) = rotate(x, y);
  OUT(4) = add_sat(x, y);
  OUT(5) = sub_sat(x, y);
  OUT(6) = hadd(x, y);
  OUT(7) = rhadd(x, y);
  OUT(8) = abs_diff(x, y);
  OUT(9) = min(x, y) + 5 * max(x, y);
  OUT(10) = mul24(x & 0xffffff, y & 0xffffff);
  OUT(11) = mad24(x & 0xffffff, y & 0xffffff, x);
  OUT(12) = (uint)(upsample((ushort)x, (ushort)y) >> 3);
  OUT(13) = (x >> 7) & 0x1ff;  // bit-field extract
  OUT(14) = (x & ~(0xffu << 9)) | ((y & 0xffu) << 9);  // bit-field insert
  OUT(15) = (uint)(((ulong)x << 32 | y) >> (y & 31));   // funnel shift
}
#undef K

#define K 14
__kernel void int16_ops(__global const short* a, __global const short* b, __global short* out) {
  size_t i = get_global_id(0);
  short x = a[i], y = b[i];
  ushort ux = (ushort)x, uy = (ushort)y;
  OUT(0) = (short)(ux + uy);
  OUT(1) = (short)(ux * uy);
  OUT(2) = mul_hi(x, y);
  OUT(3) = (short)(x << (y & 15));
  OUT(4) = x >> (y & 15);
  OUT(5) = (short)(ux >> (uy & 15));
  OUT(6) = rotate(x, y);
  OUT(7) = clz(x);
  OUT(8) = popcount(x);
  OUT(9) = add_sat(x, y);
  OUT(10) = sub_sat(x, y);
  OUT(11) = (short)add_sat(ux, uy);
  OUT(12) = rhadd(x, y);
  OUT(13) = max(x, y) - min(x, y);
}
#undef K

#define K 14
__kernel void int8_ops(__global const char* a, __global const char* b, __global char* out) {
  size_t i = get_global_id(0);
  char x = a[i], y = b[i];
  uchar ux = (uchar)x, uy = (uchar)y;
  OUT(0) = (char)(ux + uy);
  OUT(1) = (char)(ux * uy);
  OUT(2) = mul_hi(x, y);
  OUT(3) = (char)mul_hi(ux, uy);
  OUT(4) = x >> (y & 7);
  OUT(5) = rotate(x, y);
  OUT(6) = clz(x);
  OUT(7) = popcount(x);
  OUT(8) = add_sat(x, y);
  OUT(9) = sub_sat(x, y);
  OUT(10) = (char)sub_sat(ux, uy);
  OUT(11) = hadd(x, y);
  OUT(12) = (char)abs(x);
  OUT(13) = (char)abs_diff(x, y);
}
#undef K

#define K 18
__kernel void int64_ops(__global const long* a, __global const long* b, __global long* out) {
  size_t i = get_global_id(0);
  long x = a[i], y = b[i];
  ulong ux = (ulong)x, uy = (ulong)y;
  OUT(0) = (long)(ux + uy);
  OUT(1) = (long)(ux - uy);
  OUT(2) = (long)(ux * uy);
  OUT(3) = mul_hi(x, y);
  OUT(4) = (long)mul_hi(ux, uy);
  OUT(5) = x << y;  // modulo 64
  OUT(6) = x >> y;
  OUT(7) = (long)(ux >> uy);
  OUT(8) = rotate(x, y);
  OUT(9) = clz(x);
  OUT(10) = popcount(x);
  OUT(11) = add_sat(x, y);
  OUT(12) = sub_sat(x, y);
  OUT(13) = (long)abs(x);
  OUT(14) = hadd(x, y) ^ rhadd(ux, uy);
  OUT(15) = min(x, y) ^ (long)max(ux, uy);
  OUT(16) = (x < y) + 2 * (ux < uy) + 4 * (x == y);
  OUT(17) = (long)((ulong)((long)(int)x * (long)(int)y) + (ulong)(uint)x * (ulong)(uint)(y >> 32));
}
#undef K
