// A private array of int4 indexed by a runtime value. Compiled with flat scratch
// (compile-kernel.sh cl-flat-scratch), its rows are written and read with
// scratch_store_dwordx4 / scratch_load_dwordx4: four dwords per lane, each swizzled on its own.
__kernel void private_vec4(__global const int* index, __global int* out, int n) {
  int t = get_global_id(0);
  if (t >= n) return;
  int4 table[16];
  for (int k = 0; k < 16; ++k) table[k] = (int4)(k * t + 1, k + t, k ^ t, k - t);
  int4 a = table[index[t] & 15];
  int4 b = table[(index[t] + 5) & 15];
  out[t] = a.x * 3 + a.y * 5 + a.z * 7 + a.w * 11 + b.x - b.w;
}
