// Texture fetch rate (docs/timing-validation.md, issue 17): each wave samples a small 2D image of
// 32-bit texels (RGBA8 UNORM) that stays in the vector L1, `iters` x 8 image_sample per wave.
// The filter (point or bilinear) is the sampler's: the same kernel runs with the two S#s that
// scripts/bench-timing writes. image_sample is inline assembly so the loop issues exactly it,
// 8 in a row, with the s_waitcnt the compiler cannot infer written out after the group.
#include <hip/hip_runtime.h>

typedef float float4v __attribute__((ext_vector_type(4)));
typedef float float2v __attribute__((ext_vector_type(2)));
typedef unsigned uint8v __attribute__((ext_vector_type(8)));
typedef unsigned uint4v __attribute__((ext_vector_type(4)));

// `desc`: the T# (8 dwords) with BASE_ADDRESS 0, then the S# (4 dwords). The image's address is
// known only at run time, so the kernel puts it in BASE_ADDRESS (T# bits 0-39: the byte address
// / 256; Vega ISA reference guide, section 8.2.1 "Image Resource"): `image` must be 256-byte
// aligned. `width` x `height` texels, each wave samples 16 x 4 of them per image_sample.
extern "C" __global__ void __launch_bounds__(256)
    tex_sample(const unsigned* __restrict__ desc, const unsigned* __restrict__ image,
               float* __restrict__ out, int iters, int width, int height) {
  uint8v t;
  uint4v s;
#pragma unroll
  for (int i = 0; i < 8; ++i) t[i] = desc[i];
#pragma unroll
  for (int i = 0; i < 4; ++i) s[i] = desc[8 + i];
  const unsigned long long base = reinterpret_cast<unsigned long long>(image);
  t[0] = static_cast<unsigned>(base >> 8);
  t[1] = (t[1] & ~0xffu) | static_cast<unsigned>((base >> 40) & 0xff);
  // Uniform values, but the "s" constraint needs them in SGPRs explicitly.
#pragma unroll
  for (int i = 0; i < 8; ++i) t[i] = __builtin_amdgcn_readfirstlane(t[i]);
#pragma unroll
  for (int i = 0; i < 4; ++i) s[i] = __builtin_amdgcn_readfirstlane(s[i]);

  // A wave is 16 quads of 2 x 2 pixels, 8 quads across and 2 down: a 16 x 4 texel block, one
  // texel per lane (derivatives of one texel: LOD 0). Texel coordinate x + 0.75: the point
  // filter picks texel x, the bilinear one blends x and x + 1 (weights 3/4 and 1/4, none zero),
  // and the same in y. Sample j of a group moves the block across the image; every wave
  // starts elsewhere, so the waves' samples spread over the whole (small) image.
  const unsigned lane = threadIdx.x & 63, wave = threadIdx.x >> 6;
  const unsigned quad = lane >> 2;
  const float px = float(2 * (quad & 7) + (lane & 1)) + 0.75f;
  const float py = float(2 * (quad >> 3) + ((lane >> 1) & 1)) + 0.75f;
  const float iw = 1.0f / float(width), ih = 1.0f / float(height);
  float2v c[8];
#pragma unroll
  for (int j = 0; j < 8; ++j) {
    const unsigned bx = 16 * ((j + wave + blockIdx.x) & 3), by = 4 * ((j / 4 + wave) & 7);
    c[j] = float2v{(px + float(bx)) * iw, (py + float(by)) * ih};
  }
  float4v acc = {0, 0, 0, 0};
  float4v v[8];
  for (int it = 0; it < iters; ++it) {
    asm volatile(
        "image_sample %0, %8, %16, %17 dmask:0xf\n image_sample %1, %9, %16, %17 dmask:0xf\n"
        "image_sample %2, %10, %16, %17 dmask:0xf\n image_sample %3, %11, %16, %17 dmask:0xf\n"
        "image_sample %4, %12, %16, %17 dmask:0xf\n image_sample %5, %13, %16, %17 dmask:0xf\n"
        "image_sample %6, %14, %16, %17 dmask:0xf\n image_sample %7, %15, %16, %17 dmask:0xf\n"
        "s_waitcnt vmcnt(0)"
        : "=&v"(v[0]), "=&v"(v[1]), "=&v"(v[2]), "=&v"(v[3]), "=&v"(v[4]), "=&v"(v[5]), "=&v"(v[6]),
          "=&v"(v[7])
        : "v"(c[0]), "v"(c[1]), "v"(c[2]), "v"(c[3]), "v"(c[4]), "v"(c[5]), "v"(c[6]), "v"(c[7]),
          "s"(t), "s"(s)
        : "memory");
#pragma unroll
    for (int j = 0; j < 8; ++j) acc += v[j];
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc.x + acc.y + acc.z + acc.w;
}
