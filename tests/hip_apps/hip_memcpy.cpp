// Copies and fills through Debian's HIP runtime on the simulated GPU (HIP API reference,
// "Memory Management"): hipMemcpy in every direction (host to device, device to host, device to
// device, host to host, and hipMemcpyDefault, which infers the direction from the pointers)
// at odd sizes and odd byte offsets; hipMemset, hipMemsetD32 and hipMemsetAsync; hipMemcpy2D
// and hipMemset2D between rows of different pitches. Every result is
// compared with the same operation done on the CPU; the last line is a checksum of them all.
#include <cstring>
#include <vector>

#include "HipCheck.h"

namespace {

std::vector<unsigned char> pattern(size_t bytes, unsigned seed) {
  std::vector<unsigned char> v(bytes);
  unsigned x = seed;
  for (auto& b : v) {
    x = x * 1664525u + 1013904223u;  // Numerical Recipes' LCG
    b = static_cast<unsigned char>(x >> 24);
  }
  return v;
}

}  // namespace

int main() {
  Failures f;
  Checksum sum;
  const size_t bytes = 12345;  // odd, not a multiple of any copy granule
  const std::vector<unsigned char> src = pattern(bytes, 1);
  unsigned char *devA = nullptr, *devB = nullptr;
  CHECK(hipMalloc(&devA, bytes + 64));
  CHECK(hipMalloc(&devB, bytes + 64));

  // Round trip through two device buffers at odd offsets; each piece lands where the CPU's
  // memcpy of the same pieces puts it.
  struct Piece {
    size_t from, to, n;
  };
  const Piece pieces[] = {{0, 0, 1}, {1, 3, 7}, {13, 5, 1000}, {1017, 1029, 4097}, {5555, 7, 3}};
  std::vector<unsigned char> expectA(bytes + 64, 0), expectB(bytes + 64, 0);
  CHECK(hipMemset(devA, 0, bytes + 64));
  CHECK(hipMemset(devB, 0, bytes + 64));
  for (const Piece& p : pieces) {
    CHECK(hipMemcpy(devA + p.to, src.data() + p.from, p.n, hipMemcpyHostToDevice));
    std::memcpy(expectA.data() + p.to, src.data() + p.from, p.n);
  }
  CHECK(hipMemcpy(devB + 11, devA + 3, bytes - 3, hipMemcpyDeviceToDevice));
  std::memcpy(expectB.data() + 11, expectA.data() + 3, bytes - 3);
  std::vector<unsigned char> gotA(bytes + 64), gotB(bytes + 64);
  CHECK(hipMemcpy(gotA.data(), devA, bytes + 64, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(gotB.data() + 1, devB + 1, bytes + 63, hipMemcpyDeviceToHost));
  gotB[0] = 0;
  f.expect(gotA == expectA, "host to device pieces at odd offsets, read back");
  f.expect(gotB == expectB, "device to device at odd offsets (+3 -> +11)");
  sum.add(gotA.data(), gotA.size());
  sum.add(gotB.data(), gotB.size());
  std::printf("H2D/D2D/D2H odd sizes and offsets %s\n",
              gotA == expectA && gotB == expectB ? "ok" : "WRONG");

  // Host to host, and hipMemcpyDefault in all four directions.
  std::vector<unsigned char> h2h(bytes, 0);
  CHECK(hipMemcpy(h2h.data() + 1, src.data() + 2, bytes - 2, hipMemcpyHostToHost));
  bool h2hOk = h2h[0] == 0 && std::memcmp(h2h.data() + 1, src.data() + 2, bytes - 2) == 0;
  f.expect(h2hOk, "hipMemcpyHostToHost");
  const std::vector<unsigned char> src2 = pattern(bytes, 2);
  std::vector<unsigned char> viaDefault(bytes, 0), hostCopy(bytes, 0);
  CHECK(hipMemcpy(devA + 5, src2.data(), bytes - 5, hipMemcpyDefault));           // H2D
  CHECK(hipMemcpy(devB + 9, devA + 5, bytes - 9, hipMemcpyDefault));              // D2D
  CHECK(hipMemcpy(viaDefault.data(), devB + 9, bytes - 9, hipMemcpyDefault));     // D2H
  CHECK(hipMemcpy(hostCopy.data(), viaDefault.data(), bytes, hipMemcpyDefault));  // H2H
  bool defaultOk = std::memcmp(hostCopy.data(), src2.data(), bytes - 9) == 0;
  for (size_t i = bytes - 9; i < bytes; ++i) defaultOk = defaultOk && hostCopy[i] == 0;
  f.expect(defaultOk, "hipMemcpyDefault in all four directions");
  sum.add(h2h.data(), h2h.size());
  sum.add(hostCopy.data(), hostCopy.size());
  std::printf("H2H and hipMemcpyDefault %s\n", h2hOk && defaultOk ? "ok" : "WRONG");

  // Fills: hipMemset bytes at an odd offset and length, hipMemsetD32 words, hipMemsetAsync on a
  // stream of its own.
  CHECK(hipMemset(devA, 0x11, bytes + 64));
  CHECK(hipMemset(devA + 3, 0xa5, 1001));
  std::vector<unsigned char> expectFill(bytes + 64, 0x11);
  std::memset(expectFill.data() + 3, 0xa5, 1001);
  CHECK(hipMemsetD32(reinterpret_cast<hipDeviceptr_t>(devA + 2048), 0xdeadbeef, 333));
  for (size_t i = 0; i < 333; ++i) {
    const unsigned w = 0xdeadbeef;
    std::memcpy(expectFill.data() + 2048 + 4 * i, &w, 4);
  }
  hipStream_t stream;
  CHECK(hipStreamCreate(&stream));
  CHECK(hipMemsetAsync(devA + 5001, 0x3c, 4099, stream));
  std::memset(expectFill.data() + 5001, 0x3c, 4099);
  CHECK(hipStreamSynchronize(stream));
  std::vector<unsigned char> gotFill(bytes + 64);
  CHECK(hipMemcpy(gotFill.data(), devA, bytes + 64, hipMemcpyDeviceToHost));
  f.expect(gotFill == expectFill, "hipMemset / hipMemsetD32 / hipMemsetAsync");
  sum.add(gotFill.data(), gotFill.size());
  std::printf("hipMemset, hipMemsetD32, hipMemsetAsync %s\n",
              gotFill == expectFill ? "ok" : "WRONG");
  CHECK(hipStreamDestroy(stream));

  // 2D: 37 rows of 75 bytes from host rows 80 bytes apart into device rows 128 bytes apart, a
  // sub-rectangle (rows 3.., columns 7..) back into host rows 50 bytes apart, and device to
  // device into rows 96 bytes apart (cleared by hipMemset2D first), read back whole. The pitched
  // allocations are plain hipMalloc: hipMallocPitch is tested by hip_malloc_pitch.cpp.
  const size_t width = 75, height = 37, hostPitch = 80, pitch = 128, pitch2 = 96;
  const std::vector<unsigned char> image = pattern(hostPitch * height, 3);
  unsigned char *pitched = nullptr, *pitched2 = nullptr;
  CHECK(hipMalloc(&pitched, pitch * height));
  CHECK(hipMalloc(&pitched2, pitch2 * height));
  CHECK(hipMemcpy2D(pitched, pitch, image.data(), hostPitch, width, height, hipMemcpyHostToDevice));
  const size_t subWidth = 41, subHeight = 30, outPitch = 50;
  std::vector<unsigned char> out(outPitch * subHeight, 0xee), expectOut(outPitch * subHeight, 0xee);
  CHECK(hipMemcpy2D(out.data(), outPitch, pitched + 3 * pitch + 7, pitch, subWidth, subHeight,
                    hipMemcpyDeviceToHost));
  for (size_t r = 0; r < subHeight; ++r)
    std::memcpy(expectOut.data() + r * outPitch, image.data() + (r + 3) * hostPitch + 7, subWidth);
  CHECK(hipMemset2D(pitched2, pitch2, 0x5a, pitch2, height));
  CHECK(hipMemcpy2D(pitched2, pitch2, pitched, pitch, width, height, hipMemcpyDeviceToDevice));
  std::vector<unsigned char> back(pitch2 * height), expectBack(pitch2 * height, 0x5a);
  CHECK(hipMemcpy(back.data(), pitched2, pitch2 * height, hipMemcpyDeviceToHost));
  for (size_t r = 0; r < height; ++r)
    std::memcpy(expectBack.data() + r * pitch2, image.data() + r * hostPitch, width);
  f.expect(out == expectOut, "hipMemcpy2D sub-rectangle device to host");
  f.expect(back == expectBack, "hipMemset2D and hipMemcpy2D device to device");
  sum.add(out.data(), out.size());
  sum.add(back.data(), back.size());
  std::printf("hipMemcpy2D and hipMemset2D %s\n",
              out == expectOut && back == expectBack ? "ok" : "WRONG");

  CHECK(hipFree(devA));
  CHECK(hipFree(devB));
  CHECK(hipFree(pitched));
  CHECK(hipFree(pitched2));
  std::printf("checksum %016llx\n", sum.value());
  return f.count == 0 ? 0 : 1;
}
