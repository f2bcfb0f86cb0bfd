// Every atomic operation, on global and local memory, 32 and 64 bits. Each workgroup has its own
// counters, so that after a barrier one work-item can read their final values with an atomic.
// Results that depend on the order of the work-items (the old values returned by xchg and inc)
// are compared as multisets; final values do not depend on the order.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
#define NC 12
#define WG 256

// The operations, on counters `c` (global or local) of type T: shared by the four kernels.
#define ATOMIC_BODY(c, x, l, ADD, SUB, XCHG, INC, DEC, MIN, MAX, AND, OR, XOR, CMPXCHG, T) \
  ADD(&c[0], x);                                                                           \
  SUB(&c[1], x);                                                                           \
  xret[i] = XCHG(&c[2], (T)i);                                                             \
  iret[i] = INC(&c[3]);                                                                    \
  DEC(&c[4]);                                                                              \
  MIN(&c[5], x);                                                                           \
  MAX(&c[6], x);                                                                           \
  AND(&c[7], ~((T)1 << (l % 61)) | (x & 1));                                               \
  OR(&c[8], (T)1 << ((l * 7) % 63));                                                       \
  XOR(&c[9], x);                                                                           \
  { /* a compare-and-swap loop: c[10] += x * 3 */                                          \
    T old = c[10], seen;                                                                   \
    while ((seen = CMPXCHG(&c[10], old, (T)((ulong)old + (ulong)x * 3))) != old) old = seen; \
  }                                                                                        \
  CMPXCHG(&c[11], (T)0, (T)(l + 1)); /* only the first item to get there succeeds */       \
  MAX(&c[11], (T)0);

#define FINISH(c, T)                                                         \
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);                        \
  if (l == 0) {                                                              \
    for (int k = 0; k < NC; ++k) final[g * NC + k] = ATOMIC_OR(&c[k], (T)0);  \
    xret[get_global_size(0) + g] = final[g * NC + 2];                         \
    final[g * NC + 11] = final[g * NC + 11] != 0; /* which item won varies */ \
    final[g * NC + 2] = final[g * NC + 2] / WG == g; /* the last xchg: any of g's */ \
  }

#define ATOMIC_OR atomic_or
__kernel void atomics_global_i32(__global const int* in, __global int* counters,
                                 __global int* xret, __global int* iret, __global int* final) {
  size_t i = get_global_id(0);
  int l = (int)get_local_id(0), g = (int)get_group_id(0), x = in[i];
  __global int* c = counters + g * NC;
  ATOMIC_BODY(c, x, l, atomic_add, atomic_sub, atomic_xchg, atomic_inc, atomic_dec, atomic_min,
              atomic_max, atomic_and, atomic_or, atomic_xor, atomic_cmpxchg, int)
  FINISH(c, int)
}

__kernel void atomics_global_u32(__global const uint* in, __global uint* counters,
                                 __global uint* xret, __global uint* iret, __global uint* final) {
  size_t i = get_global_id(0);
  int l = (int)get_local_id(0), g = (int)get_group_id(0);
  uint x = in[i];
  __global uint* c = counters + g * NC;
  ATOMIC_BODY(c, x, l, atomic_add, atomic_sub, atomic_xchg, atomic_inc, atomic_dec, atomic_min,
              atomic_max, atomic_and, atomic_or, atomic_xor, atomic_cmpxchg, uint)
  FINISH(c, uint)
}

__kernel void atomics_local_i32(__global const int* in, __global const int* init,
                                __global int* xret, __global int* iret, __global int* final) {
  __local int c[NC];
  size_t i = get_global_id(0);
  int l = (int)get_local_id(0), g = (int)get_group_id(0), x = in[i];
  if (l < NC) c[l] = init[g * NC + l];
  barrier(CLK_LOCAL_MEM_FENCE);
  ATOMIC_BODY(c, x, l, atomic_add, atomic_sub, atomic_xchg, atomic_inc, atomic_dec, atomic_min,
              atomic_max, atomic_and, atomic_or, atomic_xor, atomic_cmpxchg, int)
  FINISH(c, int)
}

__kernel void atomics_local_u32(__global const uint* in, __global const uint* init,
                                __global uint* xret, __global uint* iret, __global uint* final) {
  __local uint c[NC];
  size_t i = get_global_id(0);
  int l = (int)get_local_id(0), g = (int)get_group_id(0);
  uint x = in[i];
  if (l < NC) c[l] = init[g * NC + l];
  barrier(CLK_LOCAL_MEM_FENCE);
  ATOMIC_BODY(c, x, l, atomic_add, atomic_sub, atomic_xchg, atomic_inc, atomic_dec, atomic_min,
              atomic_max, atomic_and, atomic_or, atomic_xor, atomic_cmpxchg, uint)
  FINISH(c, uint)
}
#undef ATOMIC_OR

#define ATOMIC_OR atom_or
__kernel void atomics_global_i64(__global const long* in, __global long* counters,
                                 __global long* xret, __global long* iret, __global long* final) {
  size_t i = get_global_id(0);
  int l = (int)get_local_id(0), g = (int)get_group_id(0);
  long x = in[i];
  __global long* c = counters + g * NC;
  ATOMIC_BODY(c, x, l, atom_add, atom_sub, atom_xchg, atom_inc, atom_dec, atom_min, atom_max,
              atom_and, atom_or, atom_xor, atom_cmpxchg, long)
  FINISH(c, long)
}

__kernel void atomics_global_u64(__global const ulong* in, __global ulong* counters,
                                 __global ulong* xret, __global ulong* iret,
                                 __global ulong* final) {
  size_t i = get_global_id(0);
  int l = (int)get_local_id(0), g = (int)get_group_id(0);
  ulong x = in[i];
  __global ulong* c = counters + g * NC;
  ATOMIC_BODY(c, x, l, atom_add, atom_sub, atom_xchg, atom_inc, atom_dec, atom_min, atom_max,
              atom_and, atom_or, atom_xor, atom_cmpxchg, ulong)
  FINISH(c, ulong)
}

__kernel void atomics_local_i64(__global const long* in, __global const long* init,
                                __global long* xret, __global long* iret, __global long* final) {
  __local long c[NC];
  size_t i = get_global_id(0);
  int l = (int)get_local_id(0), g = (int)get_group_id(0);
  long x = in[i];
  if (l < NC) c[l] = init[g * NC + l];
  barrier(CLK_LOCAL_MEM_FENCE);
  ATOMIC_BODY(c, x, l, atom_add, atom_sub, atom_xchg, atom_inc, atom_dec, atom_min, atom_max,
              atom_and, atom_or, atom_xor, atom_cmpxchg, long)
  FINISH(c, long)
}
#undef ATOMIC_OR

// atomic_xchg on floats, and a float maximum built from atomic_cmpxchg on the bits (the result
// does not depend on the order, unlike a float sum).
__kernel void atomics_float(__global const float* in, __global float* cell, __global float* xret,
                            __global int* maxbits) {
  __local float lc;
  __local int lmax;
  size_t i = get_global_id(0);
  int l = (int)get_local_id(0), g = (int)get_group_id(0);
  float x = in[i];
  if (l == 0) {
    lc = -1.0f;
    lmax = as_int(-INFINITY);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  xret[2 * i] = atomic_xchg(&cell[g], x);
  xret[2 * i + 1] = atomic_xchg(&lc, x + 1.0f);
  int old = maxbits[g];
  while (as_float(old) < x) {
    int seen = atomic_cmpxchg(&maxbits[g], old, as_int(x));
    if (seen == old) break;
    old = seen;
  }
  int lold = lmax;
  while (as_float(lold) < x) {
    int seen = atomic_cmpxchg(&lmax, lold, as_int(x));
    if (seen == lold) break;
    lold = seen;
  }
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  if (l == 0) {
    xret[2 * get_global_size(0) + 2 * g] = atomic_xchg(&cell[g], 0.0f);
    xret[2 * get_global_size(0) + 2 * g + 1] = lc;
    maxbits[get_num_groups(0) + g] = lmax;
  }
}
