// Memory shapes: structs of mixed widths (byte and short loads and stores), packed structs,
// neighbouring byte stores, private arrays indexed at run time, and 64-bit pointers.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// 32 bytes, natural alignment: the same layout on x86-64 and amdgcn (checked by the host).
typedef struct {
  char c;
  uchar uc;
  short s;
  ushort us;
  short pad;  // explicit, so that every byte of a stored record is defined
  int i;
  float f;
  long l;
  double d;
} Rec;

__kernel void struct_mixed(__global const Rec* in, __global Rec* out) {
  size_t i = get_global_id(0);
  Rec r = in[i];
  Rec o;
  o.c = (char)(r.c + r.uc);
  o.uc = (uchar)(r.uc ^ (uchar)r.s);
  o.s = (short)(r.s * 3 - r.us);
  o.us = (ushort)(r.us + (ushort)r.i);
  o.pad = (short)i;
  o.i = r.i ^ (int)r.l;
  o.f = r.f * 2.0f;
  o.l = (long)((ulong)r.l + (ulong)r.c);
  o.d = r.d + (double)r.f;
  out[i] = o;
  // Field stores into a second record: only these bytes change.
  __global Rec* p = out + get_global_size(0) + i;
  p->uc = (uchar)r.c;
  p->us = (ushort)r.s;
  p->f = (float)r.i;
}

// 15 bytes, packed: every multi-byte field is misaligned somewhere in the array.
typedef struct __attribute__((packed)) {
  char a;
  int b;
  short c;
  long d;
} Packed;

__kernel void struct_packed(__global const Packed* in, __global Packed* out) {
  size_t i = get_global_id(0);
  Packed p = in[i];
  __global Packed* q = out + (get_global_size(0) - 1 - i);
  q->a = (char)(p.a ^ 0x11);
  q->b = (int)((uint)p.b + (uint)p.c);
  q->c = (short)(p.c >> 1);
  q->d = (long)((ulong)p.d ^ (ulong)p.b);
}

// Neighbouring work-items store single bytes and shorts into the same dwords.
__kernel void byte_stores(__global const uchar* a, __global uchar* bytes, __global short* shorts,
                          __global uchar* odd) {
  size_t i = get_global_id(0);
  uchar x = a[i];
  bytes[i] = (uchar)(x * 3 + 1);
  shorts[i] = (short)(x << 7) - (short)i;
  if (i & 1) odd[i] = x;  // every other byte: the bytes in between must keep their contents
  vstore2((uchar2)(x, (uchar)i), 0, odd + 2 * get_global_size(0) + 2 * i + 1);  // misaligned
}

// Per-work-item arrays indexed at run time (scratch memory, or indexed registers).
__kernel void private_sort(__global const int* in, __global int* out, __global int* picks) {
  size_t i = get_global_id(0);
  int v[16];
  for (int k = 0; k < 16; ++k) v[k] = in[i * 16 + k];
  for (int k = 1; k < 16; ++k) {  // insertion sort
    int x = v[k], j = k - 1;
    while (j >= 0 && v[j] > x) {
      v[j + 1] = v[j];
      --j;
    }
    v[j + 1] = x;
  }
  for (int k = 0; k < 16; ++k) out[i * 16 + k] = v[k];
  picks[i] = v[in[i * 16] & 15] ^ v[(in[i * 16 + 1] >> 4) & 15];
}

__kernel void private_mixed(__global const uint* in, __global long* out) {
  size_t i = get_global_id(0);
  char c[37];
  short s[19];
  double d[9];
  uint x = in[i];
  for (int k = 0; k < 37; ++k) c[k] = (char)(x >> (k % 29));
  for (int k = 0; k < 19; ++k) s[k] = (short)(x * (uint)k);
  for (int k = 0; k < 9; ++k) d[k] = (double)(x >> k) * 0.25;
  for (int k = 0; k < 8; ++k) {  // data-dependent reads and writes
    uint j = (x >> (3 * k)) & 0xff;
    c[j % 37] ^= (char)s[j % 19];
    s[(j * 5) % 19] += c[(j + 1) % 37];
    d[j % 9] += (double)s[j % 19];
  }
  ulong acc = 0;
  for (int k = 0; k < 37; ++k) acc = acc * 3 + (ulong)c[k];
  for (int k = 0; k < 19; ++k) acc ^= (ulong)s[k] << (k * 3 % 48);
  out[2 * i] = (long)acc;
  out[2 * i + 1] = (long)(d[x % 9] * 16.0) + (long)d[(x >> 5) % 9];
}

// 64-bit pointers: arithmetic with 64-bit offsets, selects between buffers, pointers stored to
// and loaded from global memory, differences, and a pointer-chasing walk.
__kernel void ptr64(__global const int* a, __global const int* b, __global const long* offs,
                    __global ulong* slots, __global long* out) {
  size_t i = get_global_id(0), n = get_global_size(0);
  long off = offs[i];  // within [0, n)
  __global const int* p = ((off & 1) ? a : b) + off;
  __global const int* q = a + (long)n - 1 - off;
  __global const int* __global* slot = (__global const int* __global*)slots + i;
  *slot = (off & 2) ? p : q;  // a 64-bit pointer through memory
  __global const int* r = *slot;
  out[4 * i + 0] = *p + *q;
  out[4 * i + 1] = (long)(q - a) - (long)(p - ((off & 1) ? a : b));
  out[4 * i + 2] = *r + (r == p) * 1000 + ((off & 1) && p < q) * 100000;  // p, q both in a
  out[4 * i + 3] = (long)((ulong)(size_t)(a + off) - (ulong)(size_t)a);
  // Pointer values differ between devices: keep the offset within r's own buffer.
  slots[i] = (ulong)(r - (((off & 2) && !(off & 1)) ? b : a));
}

typedef struct {
  int next;
  int value;
} Node;

__kernel void ptr_chase(__global const Node* nodes, __global const int* starts,
                        __global long* out) {
  size_t i = get_global_id(0);
  __global const Node* p = nodes + starts[i];
  ulong sum = 0;
  int hops = 0;
  while (p->next >= 0 && hops < 40) {  // data-dependent trip count: divergent lanes
    sum = sum * 7 + (ulong)p->value;
    p = nodes + p->next;
    ++hops;
  }
  out[i] = (long)(sum * 64 + (ulong)hops);
}
