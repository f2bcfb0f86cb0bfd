// Compiled for gfx906 with -cl-denorms-are-zero (tests/differential/CMakeLists.txt): clang-15
// then writes FLOAT_DENORM_MODE_32 = 0 (flush f32 denormal sources and results) into the kernel
// descriptor, and the model must flush. PoCL builds the same source without the option.
#pragma OPENCL FP_CONTRACT OFF
__kernel void f32_ftz(__global const float* a, __global const float* b, __global float* out) {
  size_t i = get_global_id(0);
  float x = a[i], y = b[i];
  out[2 * i] = x * y;
  out[2 * i + 1] = x + y;
}
