// tex1Dfetch over linear device memory (HIP API reference, "Texture Management",
// hipResourceTypeLinear): HIP makes it a 1D buffer image, a V# over the allocation, and the
// kernel reads it with buffer_load_format. Two textures, float4 (RGBA) and float (R) texels,
// read as they are and compared exactly with the CPU's copies. (Debian's HIP 5.2 describes a
// uchar4 texture read as normalized floats as SNORM_INT8, and converts what it loads for
// integer element types with a float-to-int conversion, so neither is checked here.)
#include <cstring>
#include <vector>

#include "HipCheck.h"

__global__ void fetchFloat4(hipTextureObject_t tex, const int* index, float4* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float4>(tex, index[i]);
}

__global__ void fetchFloat(hipTextureObject_t tex, const int* index, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float>(tex, index[i]);
}

int main() {
  const int texels = 1000, n = 512;
  std::vector<float4> f4(texels);
  std::vector<float> f1(texels);
  for (int i = 0; i < texels; ++i) {
    f4[i] = make_float4(i * 0.5f, -i * 0.25f, static_cast<float>(i % 7), 1.0f / (i + 1));
    f1[i] = 3.0f * i - 1000.0f;
  }
  std::vector<int> index(n);
  for (int i = 0; i < n; ++i) index[i] = (i * 37) % texels;

  float4 *dF4 = nullptr, *dOut4 = nullptr;
  float *dF1 = nullptr, *dOut1 = nullptr;
  int* dIndex = nullptr;
  CHECK(hipMalloc(&dF4, texels * sizeof(float4)));
  CHECK(hipMalloc(&dF1, texels * sizeof(float)));
  CHECK(hipMalloc(&dIndex, n * sizeof(int)));
  CHECK(hipMalloc(&dOut4, n * sizeof(float4)));
  CHECK(hipMalloc(&dOut1, n * sizeof(float)));
  CHECK(hipMemcpy(dF4, f4.data(), texels * sizeof(float4), hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dF1, f1.data(), texels * sizeof(float), hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dIndex, index.data(), n * sizeof(int), hipMemcpyHostToDevice));

  auto texture = [](void* data, hipChannelFormatDesc desc, size_t bytes) {
    hipResourceDesc res{};
    res.resType = hipResourceTypeLinear;
    res.res.linear.devPtr = data;
    res.res.linear.desc = desc;
    res.res.linear.sizeInBytes = bytes;
    hipTextureDesc td{};
    td.readMode = hipReadModeElementType;
    hipTextureObject_t tex = 0;
    CHECK(hipCreateTextureObject(&tex, &res, &td, nullptr));
    return tex;
  };
  const hipTextureObject_t tex4 =
      texture(dF4, hipCreateChannelDesc<float4>(), texels * sizeof(float4));
  const hipTextureObject_t tex1 =
      texture(dF1, hipCreateChannelDesc<float>(), texels * sizeof(float));
  hipLaunchKernelGGL(fetchFloat4, dim3(n / 64), dim3(64), 0, 0, tex4, dIndex, dOut4, n);
  hipLaunchKernelGGL(fetchFloat, dim3(n / 64), dim3(64), 0, 0, tex1, dIndex, dOut1, n);
  CHECK(hipGetLastError());
  std::vector<float4> out4(n);
  std::vector<float> out1(n);
  CHECK(hipMemcpy(out4.data(), dOut4, n * sizeof(float4), hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(out1.data(), dOut1, n * sizeof(float), hipMemcpyDeviceToHost));

  int wrong = 0;
  Checksum sum;
  for (int i = 0; i < n; ++i) {
    const int t = index[i];
    if (std::memcmp(&out4[i], &f4[t], sizeof(float4)) != 0 && wrong++ < 5)
      std::printf("float4 texel %d: got (%g, %g, %g, %g), expected (%g, %g, %g, %g)\n", t,
                  out4[i].x, out4[i].y, out4[i].z, out4[i].w, f4[t].x, f4[t].y, f4[t].z, f4[t].w);
    if (out1[i] != f1[t] && wrong++ < 5)
      std::printf("float texel %d: got %g, expected %g\n", t, out1[i], f1[t]);
    sum.add(&out4[i], sizeof(float4));
    sum.add(&out1[i], sizeof(float));
  }
  std::printf("tex1Dfetch float4 and float: %d of %d texels wrong, checksum %016llx\n", wrong,
              2 * n, sum.value());
  CHECK(hipDestroyTextureObject(tex4));
  CHECK(hipDestroyTextureObject(tex1));
  CHECK(hipFree(dF4));
  CHECK(hipFree(dF1));
  CHECK(hipFree(dIndex));
  CHECK(hipFree(dOut4));
  CHECK(hipFree(dOut1));
  return wrong == 0 ? 0 : 1;
}
