// Arguments of every scalar kind OpenCL C allows in a kernel (bool is not one), and __local
// pointer arguments next to the kernel's own __local array (vgpu-sim --arg local:BYTES).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

// Work-item 0 writes every argument, converted to float, to out[0..7].
kernel void cl_scalars(char c, uchar uc, short s, ushort us, half h, int i, uint u, float f,
                       global float* out) {
  if (get_global_id(0) == 0) {
    out[0] = c;
    out[1] = uc;
    out[2] = s;
    out[3] = us;
    out[4] = (float)h;
    out[5] = i;
    out[6] = u;
    out[7] = f;
  }
}

// out[i] = 100 * in[i] + in[reversed within the workgroup] + 10 * in[i], through the kernel's
// own LDS array and two __local arguments: any overlap between the three changes the sums.
kernel void local_args(global const int* in, global int* out, local int* a, local short* b) {
  local int fixed[64];
  const size_t l = get_local_id(0), n = get_local_size(0), g = get_group_id(0) * n;
  fixed[l] = 100 * in[g + l];
  a[l] = in[g + l];
  b[l] = (short)(10 * in[g + l]);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g + l] = fixed[l] + a[n - 1 - l] + b[l];
}
