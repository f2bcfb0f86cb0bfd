// Kernels that reach outside their buffers, for vgpu-sim run --check-memory
// (tests/acceptance/CheckMemoryTest.cpp). OpenCL C: its metadata names the arguments.

// out[i] = 2 * in[i] for i < n. When told, work-item 0 also stores out[storeIndex] and loads
// in[loadIndex] (into out[0]): index n is one element past the end, -1 one before the start.
// Index 0 means "no stray access" (it is inside the buffer anyway).
__kernel void scale_stray(__global const float* in, __global float* out, int n, int storeIndex,
                          int loadIndex) {
  int i = get_global_id(0);
  if (i < n) out[i] = 2.0f * in[i];
  if (i == 0 && storeIndex != 0) out[storeIndex] = 1.0f;
  if (i == 0 && loadIndex != 0) out[0] = in[loadIndex];
}

// The classic mistake: no bounds check, so a grid larger than the buffers reads and writes past
// their ends, whole lines of consecutive lanes at a time.
__kernel void copy_unchecked(__global const float* in, __global float* out) {
  int i = get_global_id(0);
  out[i] = in[i];
}
