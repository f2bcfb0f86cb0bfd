// A HIP surface object over a hipArray (HIP API reference, "Surface Object Management"):
// hipMallocArray, hipMemcpy2DToArray in, a kernel that reads one
// array with surf2Dread and writes another with surf2Dwrite (a 3 x 3 box sum of float2 texels,
// clamped at the edges), hipMemcpy2DFromArray out, compared with the same computed on the CPU.
// The texels are multiples of 1/4 below 2^10, so every sum is exact in either order. float2,
// not int2: Debian's HIP 5.2 converts what surf2Dread loads with a float-to-int conversion
// (__hipMapFrom), which turns an integer image's texels into 0 on any GPU.
#include <vector>

#include "HipCheck.h"

__global__ void boxSum(hipSurfaceObject_t in, hipSurfaceObject_t out, int width, int height) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  float2 sum = make_float2(0.0f, 0.0f);
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      const int sx = min(max(x + dx, 0), width - 1), sy = min(max(y + dy, 0), height - 1);
      float2 v;
      surf2Dread(&v, in, sx * static_cast<int>(sizeof(float2)), sy);
      sum.x += v.x;
      sum.y += v.y;
    }
  surf2Dwrite(sum, out, x * static_cast<int>(sizeof(float2)), y);
}

int main() {
  const int width = 37, height = 21;
  std::vector<float2> host(width * height);
  for (int i = 0; i < width * height; ++i)
    host[i] = make_float2((i * 7 % 1000) / 4.0f - 100.0f, ((i * 31) % 1000) / 4.0f);

  const hipChannelFormatDesc desc = hipCreateChannelDesc<float2>();
  hipArray_t inArray = nullptr, outArray = nullptr;
  // Default flags: Debian's HIP 5.2 refuses hipArraySurfaceLoadStore with hipErrorNotSupported
  // (hipamd src/hip_memory.cpp, ihipArrayCreate), and its surface objects work on any array.
  CHECK(hipMallocArray(&inArray, &desc, width, height, hipArrayDefault));
  CHECK(hipMallocArray(&outArray, &desc, width, height, hipArrayDefault));
  CHECK(hipMemcpy2DToArray(inArray, 0, 0, host.data(), width * sizeof(float2),
                           width * sizeof(float2), height, hipMemcpyHostToDevice));

  hipResourceDesc res{};
  res.resType = hipResourceTypeArray;
  res.res.array.array = inArray;
  hipSurfaceObject_t in = 0, out = 0;
  CHECK(hipCreateSurfaceObject(&in, &res));
  res.res.array.array = outArray;
  CHECK(hipCreateSurfaceObject(&out, &res));

  const dim3 block(16, 8), grid((width + 15) / 16, (height + 7) / 8);
  hipLaunchKernelGGL(boxSum, grid, block, 0, 0, in, out, width, height);
  CHECK(hipGetLastError());
  std::vector<float2> result(width * height);
  CHECK(hipMemcpy2DFromArray(result.data(), width * sizeof(float2), outArray, 0, 0,
                             width * sizeof(float2), height, hipMemcpyDeviceToHost));

  int wrong = 0;
  Checksum sum;
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      float ex = 0, ey = 0;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          const int sx = std::min(std::max(x + dx, 0), width - 1);
          const int sy = std::min(std::max(y + dy, 0), height - 1);
          ex += host[sy * width + sx].x;
          ey += host[sy * width + sx].y;
        }
      const float2 got = result[y * width + x];
      if (got.x != ex || got.y != ey) {
        if (wrong++ < 5)
          std::printf("(%d, %d): got (%g, %g), expected (%g, %g)\n", x, y, got.x, got.y, ex, ey);
      }
      sum.add(&got, sizeof got);
    }
  std::printf("surface box sum: %d of %d texels wrong, checksum %016llx\n", wrong, width * height,
              sum.value());
  CHECK(hipDestroySurfaceObject(in));
  CHECK(hipDestroySurfaceObject(out));
  CHECK(hipFreeArray(inArray));
  CHECK(hipFreeArray(outArray));
  return wrong == 0 ? 0 : 1;
}
