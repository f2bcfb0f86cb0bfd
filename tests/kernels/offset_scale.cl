// Acceptance kernel 8 (OpenCL C, clang-15): out[gid] = in[gid] * scale + gid, where get_global_id
// includes the dispatch's global offset. Launched with a non-zero offset, only part of out is written.
__kernel void offset_scale(__global const float* in, __global float* out, float scale) {
  size_t gid = get_global_id(0);
  out[gid] = in[gid] * scale + (float)gid;
}
