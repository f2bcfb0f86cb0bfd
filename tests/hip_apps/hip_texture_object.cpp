// A HIP texture object over a hipArray (HIP API reference, "Texture Management"):
// hipMallocArray, hipMemcpy2DToArray, hipCreateTextureObject with point and with linear
// filtering (unnormalized coordinates, clamp addressing), read by tex2D in a kernel, compared
// with the same sampling computed on the CPU (point: the texel under the coordinate; linear: the
// bilinear weights of the four nearest texel centres, within 2/256 of the [0, 1] range, 1/256
// per filtered axis: the texture unit keeps 8 fractional bits of each weight).
#include <cmath>
#include <vector>

#include "HipCheck.h"

__global__ void sample(hipTextureObject_t tex, const float2* coords, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float>(tex, coords[i].x, coords[i].y);
}

int main() {
  const int width = 19, height = 11, n = 256;
  std::vector<float> texels(width * height);
  for (int i = 0; i < width * height; ++i) texels[i] = static_cast<float>((i * 37) % 101) / 100;
  std::vector<float2> coords(n);
  for (int i = 0; i < n; ++i)  // inside and outside the image, away from texel edges
    coords[i] = make_float2(-2.0f + (i * 7 % 23) + 0.3f + 0.05f * (i % 7),
                            -2.0f + (i * 5 % 15) + 0.35f + 0.05f * (i % 5));

  const hipChannelFormatDesc desc = hipCreateChannelDesc<float>();
  hipArray_t array = nullptr;
  CHECK(hipMallocArray(&array, &desc, width, height, hipArrayDefault));
  CHECK(hipMemcpy2DToArray(array, 0, 0, texels.data(), width * sizeof(float), width * sizeof(float),
                           height, hipMemcpyHostToDevice));
  float2* dCoords = nullptr;
  float* dOut = nullptr;
  CHECK(hipMalloc(&dCoords, n * sizeof(float2)));
  CHECK(hipMalloc(&dOut, n * sizeof(float)));
  CHECK(hipMemcpy(dCoords, coords.data(), n * sizeof(float2), hipMemcpyHostToDevice));

  auto texel = [&](int x, int y) {  // clamp to edge
    x = std::min(std::max(x, 0), width - 1);
    y = std::min(std::max(y, 0), height - 1);
    return texels[y * width + x];
  };
  int wrong = 0;
  Checksum sum;
  for (hipTextureFilterMode filter : {hipFilterModePoint, hipFilterModeLinear}) {
    hipResourceDesc res{};
    res.resType = hipResourceTypeArray;
    res.res.array.array = array;
    hipTextureDesc td{};
    td.addressMode[0] = td.addressMode[1] = hipAddressModeClamp;
    td.filterMode = filter;
    td.readMode = hipReadModeElementType;
    td.normalizedCoords = 0;
    hipTextureObject_t tex = 0;
    CHECK(hipCreateTextureObject(&tex, &res, &td, nullptr));
    hipLaunchKernelGGL(sample, dim3(n / 64), dim3(64), 0, 0, tex, dCoords, dOut, n);
    CHECK(hipGetLastError());
    std::vector<float> out(n);
    CHECK(hipMemcpy(out.data(), dOut, n * sizeof(float), hipMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
      const float u = coords[i].x, v = coords[i].y;
      float expect;
      if (filter == hipFilterModePoint) {
        expect = texel(static_cast<int>(std::floor(u)), static_cast<int>(std::floor(v)));
      } else {
        const float x = u - 0.5f, y = v - 0.5f;
        const int x0 = static_cast<int>(std::floor(x)), y0 = static_cast<int>(std::floor(y));
        const float a = x - x0, b = y - y0;
        expect = (1 - a) * (1 - b) * texel(x0, y0) + a * (1 - b) * texel(x0 + 1, y0) +
                 (1 - a) * b * texel(x0, y0 + 1) + a * b * texel(x0 + 1, y0 + 1);
      }
      const float tolerance = filter == hipFilterModePoint ? 0.0f : 2.0f / 256;
      if (!(std::fabs(out[i] - expect) <= tolerance) && wrong++ < 5)
        std::printf("%s (%g, %g): got %.7g, expected %.7g\n",
                    filter == hipFilterModePoint ? "point" : "linear", u, v, out[i], expect);
      // The checksum covers the point samples only: linear ones may differ in the last bits.
      if (filter == hipFilterModePoint) sum.add(&out[i], sizeof(float));
    }
    CHECK(hipDestroyTextureObject(tex));
  }
  std::printf("texture tex2D point and linear: %d of %d samples wrong, checksum %016llx\n", wrong,
              2 * n, sum.value());
  CHECK(hipFree(dCoords));
  CHECK(hipFree(dOut));
  CHECK(hipFreeArray(array));
  return wrong == 0 ? 0 : 1;
}
