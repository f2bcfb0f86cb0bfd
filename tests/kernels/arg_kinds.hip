// HIP arguments of the small scalar types (vgpu-sim --arg i8: u8: i16: u16: f16: bool:), and a
// kernel with an extern __shared__ array, whose LDS the launch gives (--dynamic-lds).
#include <hip/hip_runtime.h>

// Thread 0 writes every argument, converted to float, to out[0..5].
extern "C" __global__ void hip_scalars(signed char c, unsigned char uc, short s, unsigned short us,
                                       _Float16 h, bool b, float* out) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    out[0] = c;
    out[1] = uc;
    out[2] = s;
    out[3] = us;
    out[4] = static_cast<float>(h);
    out[5] = b ? 1.0f : 0.0f;
  }
}

// Reverses each workgroup's elements through dynamic shared memory (blockDim.x ints).
extern "C" __global__ void dyn_shared(const int* in, int* out) {
  extern __shared__ int tile[];
  const int l = threadIdx.x, n = blockDim.x, g = blockIdx.x * n;
  tile[l] = in[g + l];
  __syncthreads();
  out[g + l] = tile[n - 1 - l];
}
