// Local memory and barriers: workgroups of 256 work-items (4 waves), so that every exchange
// crosses waves and needs the barrier.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define WG 256

// Tree reductions (a fixed order, so the float sum is exact on both devices).
__kernel void local_reduce(__global const int* a, __global const float* b, __global int* isum,
                           __global float* fsum, __global int* imax) {
  __local int si[WG], sm[WG];
  __local float sf[WG];
  size_t l = get_local_id(0), g = get_group_id(0);
  si[l] = a[get_global_id(0)];
  sm[l] = a[get_global_id(0)];
  sf[l] = b[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = WG / 2; s > 0; s >>= 1) {
    if (l < s) {
      si[l] = (int)((uint)si[l] + (uint)si[l + s]);
      sm[l] = max(sm[l], sm[l + s]);
      sf[l] += sf[l + s];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) {
    isum[g] = si[0];
    fsum[g] = sf[0];
    imax[g] = sm[0];
  }
}

// Hillis-Steele inclusive scan (double buffered), and an exclusive scan of 64-bit values.
__kernel void local_scan(__global const uint* a, __global uint* incl, __global ulong* excl) {
  __local uint buf[2][WG];
  __local ulong wide[WG];
  size_t l = get_local_id(0), i = get_global_id(0);
  int p = 0;
  buf[0][l] = a[i];
  wide[l] = (ulong)a[i] << 20;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = 1; s < WG; s <<= 1) {
    buf[p ^ 1][l] = l >= s ? buf[p][l] + buf[p][l - s] : buf[p][l];
    p ^= 1;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  incl[i] = buf[p][l];
  if (l == 0) {
    ulong run = 0;
    for (int k = 0; k < WG; ++k) {
      ulong v = wide[k];
      wide[k] = run;
      run += v;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  excl[i] = wide[l];
}

// 2D: a 16x16 tile transposed through local memory (padded rows), on a 64x48 matrix.
__kernel void local_transpose(__global const float* in, __global float* out, int w, int h) {
  __local float tile[16][17];
  int x = (int)get_global_id(0), y = (int)get_global_id(1);
  int lx = (int)get_local_id(0), ly = (int)get_local_id(1);
  tile[ly][lx] = in[y * w + x];
  barrier(CLK_LOCAL_MEM_FENCE);
  int ox = (int)get_group_id(1) * 16 + lx, oy = (int)get_group_id(0) * 16 + ly;
  out[oy * h + ox] = tile[lx][ly];
}

// Byte and short local arrays (ds_write_b8/b16, ds_read_u8/i8/u16/i16) read by neighbours
// after a barrier, and local doubles.
__kernel void local_bytes(__global const int* a, __global int* out) {
  __local char c[WG];
  __local uchar uc[WG];
  __local short s[WG];
  __local ushort us[WG];
  __local double d[WG];
  size_t l = get_local_id(0), i = get_global_id(0);
  int x = a[i];
  c[l] = (char)x;
  uc[WG - 1 - l] = (uchar)(x >> 8);
  s[l] = (short)(x >> 4);
  us[(l * 7) % WG] = (ushort)(x >> 16);
  d[l] = (double)x * 0.5;
  barrier(CLK_LOCAL_MEM_FENCE);
  size_t n = (l + 65) % WG;
  out[4 * i + 0] = c[n] + (int)uc[n] * 1000;
  out[4 * i + 1] = s[n];
  out[4 * i + 2] = us[n];
  out[4 * i + 3] = (int)(d[n] + d[WG - 1 - l]);
  barrier(CLK_LOCAL_MEM_FENCE);
  // Second phase: neighbours overwrite single bytes of the same dwords.
  c[n] = (char)(c[n] ^ 0x5a);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[4 * i + 0] ^= (int)c[l] << 20;
}

// Several barrier phases with a data-dependent shuffle and a rotating offset per phase.
__kernel void local_phases(__global const uint* a, __global uint* out) {
  __local uint v[WG];
  size_t l = get_local_id(0);
  uint x = a[get_global_id(0)];
  for (int phase = 0; phase < 6; ++phase) {
    v[l] = x;
    barrier(CLK_LOCAL_MEM_FENCE);
    x = x * 31u + v[(l + 37u * (uint)phase + (x & 3u)) % WG];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = x;
}
