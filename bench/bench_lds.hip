// LDS microbenchmarks (docs/timing-validation.md, issue 4 items 2 and 3).
// The reads and writes are inline assembly so the compiler emits exactly ds_read_b32 /
// ds_read_b128 / ds_write_b32 / ds_write_b128 (it would otherwise merge neighbouring accesses
// into read2/write2); the s_waitcnt that the compiler cannot infer for inline assembly is
// written out after each group of 16.
#include <hip/hip_runtime.h>

typedef float float4v __attribute__((ext_vector_type(4)));

// 16 ds_read_b32 from addr + j*128 bytes (j = 0..15): the offset adds whole rows of 32 banks,
// so every read has the lane pattern of addr.
#define DS16_B32(v, addr)                                                                        \
  asm volatile(                                                                                  \
      "ds_read_b32 %0, %16 offset:0\n ds_read_b32 %1, %16 offset:128\n"                          \
      "ds_read_b32 %2, %16 offset:256\n ds_read_b32 %3, %16 offset:384\n"                        \
      "ds_read_b32 %4, %16 offset:512\n ds_read_b32 %5, %16 offset:640\n"                        \
      "ds_read_b32 %6, %16 offset:768\n ds_read_b32 %7, %16 offset:896\n"                        \
      "ds_read_b32 %8, %16 offset:1024\n ds_read_b32 %9, %16 offset:1152\n"                      \
      "ds_read_b32 %10, %16 offset:1280\n ds_read_b32 %11, %16 offset:1408\n"                    \
      "ds_read_b32 %12, %16 offset:1536\n ds_read_b32 %13, %16 offset:1664\n"                    \
      "ds_read_b32 %14, %16 offset:1792\n ds_read_b32 %15, %16 offset:1920\n"                    \
      "s_waitcnt lgkmcnt(0)"                                                                     \
      : "=&v"(v[0]), "=&v"(v[1]), "=&v"(v[2]), "=&v"(v[3]), "=&v"(v[4]), "=&v"(v[5]),           \
        "=&v"(v[6]), "=&v"(v[7]), "=&v"(v[8]), "=&v"(v[9]), "=&v"(v[10]), "=&v"(v[11]),         \
        "=&v"(v[12]), "=&v"(v[13]), "=&v"(v[14]), "=&v"(v[15])                                  \
      : "v"(addr)                                                                                \
      : "memory")

// Each of the block's waves reads `iters` x 16 times with lane address lane*stride dwords (the
// stride sweep) or lane*4 bytes (stride 1: the bandwidth test). 16 KiB of LDS per block.
extern "C" __global__ void __launch_bounds__(256) lds_read_b32(float* __restrict__ out,
                                                               unsigned stride, int iters) {
  __shared__ float s[4096];
  const unsigned lane = threadIdx.x & 63;
  for (unsigned i = threadIdx.x; i < 4096; i += blockDim.x) s[i] = float(i);
  __syncthreads();
  // Byte address in the LDS; lane*stride stays below 2048 dwords for stride <= 32, and the
  // 16 offsets add at most 1920 bytes, so with the mask everything stays inside the 16 KiB.
  const unsigned addr =
      static_cast<unsigned>(reinterpret_cast<size_t>(&s[(lane * stride) & 2047]));
  float acc = 0.f;
  float v[16];
  for (int it = 0; it < iters; ++it) {
    DS16_B32(v, addr);
#pragma unroll
    for (int j = 0; j < 16; ++j) acc += v[j];
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// Same with ds_read_b128: lane address lane*16 bytes (no conflicts), 16 reads 1 KiB apart.
extern "C" __global__ void __launch_bounds__(256) lds_read_b128(float* __restrict__ out,
                                                                int iters) {
  __shared__ float4v s[1024 + 64];
  const unsigned lane = threadIdx.x & 63;
  for (unsigned i = threadIdx.x; i < 1024 + 64; i += blockDim.x) s[i] = float4v{1, 2, 3, 4};
  __syncthreads();
  const unsigned addr = static_cast<unsigned>(reinterpret_cast<size_t>(&s[lane]));
  float4v acc = {0, 0, 0, 0};
  float4v v[16];
  for (int it = 0; it < iters; ++it) {
    asm volatile(
        "ds_read_b128 %0, %16 offset:0\n ds_read_b128 %1, %16 offset:1024\n"
        "ds_read_b128 %2, %16 offset:2048\n ds_read_b128 %3, %16 offset:3072\n"
        "ds_read_b128 %4, %16 offset:4096\n ds_read_b128 %5, %16 offset:5120\n"
        "ds_read_b128 %6, %16 offset:6144\n ds_read_b128 %7, %16 offset:7168\n"
        "ds_read_b128 %8, %16 offset:8192\n ds_read_b128 %9, %16 offset:9216\n"
        "ds_read_b128 %10, %16 offset:10240\n ds_read_b128 %11, %16 offset:11264\n"
        "ds_read_b128 %12, %16 offset:12288\n ds_read_b128 %13, %16 offset:13312\n"
        "ds_read_b128 %14, %16 offset:14336\n ds_read_b128 %15, %16 offset:15360\n"
        "s_waitcnt lgkmcnt(0)"
        : "=&v"(v[0]), "=&v"(v[1]), "=&v"(v[2]), "=&v"(v[3]), "=&v"(v[4]), "=&v"(v[5]),
          "=&v"(v[6]), "=&v"(v[7]), "=&v"(v[8]), "=&v"(v[9]), "=&v"(v[10]), "=&v"(v[11]),
          "=&v"(v[12]), "=&v"(v[13]), "=&v"(v[14]), "=&v"(v[15])
        : "v"(addr)
        : "memory");
#pragma unroll
    for (int j = 0; j < 16; ++j) acc += v[j];
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc.x + acc.y + acc.z + acc.w;
}

// Stores: each wave writes `iters` x 16 times, lane address lane*4 bytes (b32) or lane*16
// bytes (b128), 16 writes 128 B (b32) or 1 KiB (b128) apart: conflict-free, so the port that
// carries addresses and data into the LDS is what limits them.
extern "C" __global__ void __launch_bounds__(256) lds_write_b32(float* __restrict__ out,
                                                                int iters) {
  __shared__ float s[4096];
  const unsigned lane = threadIdx.x & 63;
  const unsigned addr = static_cast<unsigned>(reinterpret_cast<size_t>(&s[lane]));
  const float v = float(threadIdx.x);
  for (int it = 0; it < iters; ++it)
    asm volatile(
        "ds_write_b32 %0, %1 offset:0\n ds_write_b32 %0, %1 offset:128\n"
        "ds_write_b32 %0, %1 offset:256\n ds_write_b32 %0, %1 offset:384\n"
        "ds_write_b32 %0, %1 offset:512\n ds_write_b32 %0, %1 offset:640\n"
        "ds_write_b32 %0, %1 offset:768\n ds_write_b32 %0, %1 offset:896\n"
        "ds_write_b32 %0, %1 offset:1024\n ds_write_b32 %0, %1 offset:1152\n"
        "ds_write_b32 %0, %1 offset:1280\n ds_write_b32 %0, %1 offset:1408\n"
        "ds_write_b32 %0, %1 offset:1536\n ds_write_b32 %0, %1 offset:1664\n"
        "ds_write_b32 %0, %1 offset:1792\n ds_write_b32 %0, %1 offset:1920\n"
        "s_waitcnt lgkmcnt(0)"
        :
        : "v"(addr), "v"(v)
        : "memory");
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[(threadIdx.x * 7) & 4095];
}

extern "C" __global__ void __launch_bounds__(256) lds_write_b128(float* __restrict__ out,
                                                                 int iters) {
  __shared__ float4v s[1024 + 64];
  const unsigned lane = threadIdx.x & 63;
  const unsigned addr = static_cast<unsigned>(reinterpret_cast<size_t>(&s[lane]));
  const float f = float(threadIdx.x);
  const float4v v = {f, f + 1, f + 2, f + 3};
  for (int it = 0; it < iters; ++it)
    asm volatile(
        "ds_write_b128 %0, %1 offset:0\n ds_write_b128 %0, %1 offset:1024\n"
        "ds_write_b128 %0, %1 offset:2048\n ds_write_b128 %0, %1 offset:3072\n"
        "ds_write_b128 %0, %1 offset:4096\n ds_write_b128 %0, %1 offset:5120\n"
        "ds_write_b128 %0, %1 offset:6144\n ds_write_b128 %0, %1 offset:7168\n"
        "ds_write_b128 %0, %1 offset:8192\n ds_write_b128 %0, %1 offset:9216\n"
        "ds_write_b128 %0, %1 offset:10240\n ds_write_b128 %0, %1 offset:11264\n"
        "ds_write_b128 %0, %1 offset:12288\n ds_write_b128 %0, %1 offset:13312\n"
        "ds_write_b128 %0, %1 offset:14336\n ds_write_b128 %0, %1 offset:15360\n"
        "s_waitcnt lgkmcnt(0)"
        :
        : "v"(addr), "v"(v)
        : "memory");
  __syncthreads();
  const float4v r = s[(threadIdx.x * 7) & 1023];
  out[blockIdx.x * blockDim.x + threadIdx.x] = r.x + r.y + r.z + r.w;
}
