// hipMallocPitch through Debian's HIP runtime on the simulated GPU (HIP API reference,
// "Memory Management": the pitch is at least the width in bytes, and rows start pitch bytes
// apart), with hipMemcpy2D into and out of the pitched allocation, compared with the CPU's copy.
#include <cstring>
#include <vector>

#include "HipCheck.h"

int main() {
  const size_t width = 75, height = 37, hostPitch = 80;
  std::vector<unsigned char> image(hostPitch * height);
  for (size_t i = 0; i < image.size(); ++i) image[i] = static_cast<unsigned char>(i * 13 + 1);
  unsigned char* pitched = nullptr;
  size_t pitch = 0;
  CHECK(hipMallocPitch(reinterpret_cast<void**>(&pitched), &pitch, width, height));
  std::printf("pitch %s\n", pitch >= width ? "ok" : "WRONG");
  CHECK(hipMemcpy2D(pitched, pitch, image.data(), hostPitch, width, height, hipMemcpyHostToDevice));
  std::vector<unsigned char> back(width * height), expect(width * height);
  CHECK(hipMemcpy2D(back.data(), width, pitched, pitch, width, height, hipMemcpyDeviceToHost));
  for (size_t r = 0; r < height; ++r)
    std::memcpy(expect.data() + r * width, image.data() + r * hostPitch, width);
  std::printf("hipMallocPitch + hipMemcpy2D round trip %s\n", back == expect ? "ok" : "WRONG");
  CHECK(hipFree(pitched));
  return pitch >= width && back == expect ? 0 : 1;
}
