// Integer division and remainder (the compiler expands them into long instruction sequences: the
// GPU has no divide instruction). Inputs exclude division by zero and MIN / -1 (undefined).
#define OUT(k) out[i * K + (k)]
#define K 2

__kernel void div_i32(__global const int* a, __global const int* b, __global int* out) {
  size_t i = get_global_id(0);
  OUT(0) = a[i] / b[i];
  OUT(1) = a[i] % b[i];
}
__kernel void div_u32(__global const uint* a, __global const uint* b, __global uint* out) {
  size_t i = get_global_id(0);
  OUT(0) = a[i] / b[i];
  OUT(1) = a[i] % b[i];
}
__kernel void div_i64(__global const long* a, __global const long* b, __global long* out) {
  size_t i = get_global_id(0);
  OUT(0) = a[i] / b[i];
  OUT(1) = a[i] % b[i];
}
__kernel void div_u64(__global const ulong* a, __global const ulong* b, __global ulong* out) {
  size_t i = get_global_id(0);
  OUT(0) = a[i] / b[i];
  OUT(1) = a[i] % b[i];
}
#undef K

#define K 8
// 16- and 8-bit operands (promoted to int in C, then truncated on the store).
__kernel void div_small(__global const short* a, __global const short* b, __global short* out) {
  size_t i = get_global_id(0);
  short x = a[i], y = b[i];
  char cx = (char)x, cy = (char)(y | 1);
  OUT(0) = x / y;
  OUT(1) = x % y;
  OUT(2) = (short)((ushort)x / (ushort)y);
  OUT(3) = (short)((ushort)x % (ushort)y);
  OUT(4) = cx / cy;
  OUT(5) = cx % cy;
  OUT(6) = (uchar)cx / (uchar)cy;
  OUT(7) = (uchar)cx % (uchar)cy;
}
#undef K

#define K 12
// Division by constants: multiply-high sequences instead of the division expansion.
__kernel void div_const(__global const int* a, __global const long* b, __global long* out) {
  size_t i = get_global_id(0);
  int x = a[i];
  uint ux = (uint)x;
  long y = b[i];
  ulong uy = (ulong)y;
  OUT(0) = x / 7;
  OUT(1) = x % 7;
  OUT(2) = x / -3;
  OUT(3) = ux / 10;
  OUT(4) = ux % 1000;
  OUT(5) = x / 16;
  OUT(6) = x % 16;
  OUT(7) = y / 3;
  OUT(8) = y % 1000000007L;
  OUT(9) = (long)(uy / 10);
  OUT(10) = (long)(uy % 60);
  OUT(11) = y / -64;
}
#undef K
