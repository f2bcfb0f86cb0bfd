// Control flow and work-item functions: divergent branches and loops inside a wave, switch,
// early exit, and every get_* builtin on a 3D range with a global offset.
__kernel void control_divergence(__global const int* a, __global int* out) {
  size_t i = get_global_id(0);
  int x = a[i];
  if (x == 0x7fffffff) return;  // some lanes leave at once; their element keeps the fill pattern
  int r = 0;
  uint u = (uint)x;
  while (u > 1 && r < 300) {  // Collatz-like, data-dependent trip count
    u = (u & 1) ? (u >> 1) * 3 + 2 : u >> 1;
    ++r;
  }
  switch (x & 7) {
    case 0: r += 10; break;
    case 1:
    case 2: r *= 3; break;
    case 5:
      for (int k = 0; k < (x & 31); ++k) {
        if (k == 13) break;
        if (k & 1) continue;
        r += k;
      }
      break;
    default: r = -r;
  }
  if (x < 0) {
    if (x & 0x100) r ^= 0x5555;
    else r += (int)clz(u);
  } else if (x & 0x40) {
    r -= 7;
  }
  out[i] = r;
}

__kernel void workitem_3d(__global uint* out) {
  size_t gx = get_global_id(0) - get_global_offset(0);
  size_t gy = get_global_id(1) - get_global_offset(1);
  size_t gz = get_global_id(2) - get_global_offset(2);
  size_t flat = (gz * get_global_size(1) + gy) * get_global_size(0) + gx;
  __global uint* o = out + flat * 8;
  o[0] = (uint)(get_global_id(0) | get_global_id(1) << 10 | get_global_id(2) << 20);
  o[1] = (uint)(get_local_id(0) | get_local_id(1) << 10 | get_local_id(2) << 20);
  o[2] = (uint)(get_group_id(0) | get_group_id(1) << 10 | get_group_id(2) << 20);
  o[3] = (uint)(get_local_size(0) | get_local_size(1) << 10 | get_local_size(2) << 20);
  o[4] = (uint)(get_num_groups(0) | get_num_groups(1) << 10 | get_num_groups(2) << 20);
  o[5] = (uint)(get_global_size(0) | get_global_size(1) << 10 | get_global_size(2) << 20);
  o[6] = (uint)(get_global_offset(0) | get_global_offset(1) << 10 | get_global_offset(2) << 20);
  size_t lin = (get_local_id(2) * get_local_size(1) + get_local_id(1)) * get_local_size(0);
  o[7] = get_work_dim() | (uint)(lin + get_local_id(0)) << 8;
}
