// Pitched copies through Debian's HIP runtime on vgpu: hipMemcpy2D between pageable host memory
// and a hipMallocPitch allocation both ways, between two pitched device allocations, from
// pinned host memory on a stream (hipMemcpy2DAsync), and a box of a hipMalloc3D allocation
// (hipMemcpy3D). ROCclr hands rectangles to the HSA runtime's DMA engine
// (hsa_amd_memory_async_copy_rect) or to its blit kernels; either way every byte is checked
// against the box worked out on the CPU. Exits non-zero on a wrong result.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <vector>

#include "../hip_apps/HipCheck.h"  // CHECK: a failed HIP call ends the program

namespace {
unsigned char pattern(size_t i) {
  return static_cast<unsigned char>(i * 131 + 17);
}
}  // namespace

int main() {
  int failures = 0;
  // A 37 x 100-byte picture in a host buffer of pitch 120, into a pitched device allocation,
  // back out to a host buffer of pitch 104, and device to device.
  const size_t width = 100, height = 37, hostPitch = 120, backPitch = 104;
  std::vector<unsigned char> host(hostPitch * height), back(backPitch * height, 0xcc);
  for (size_t i = 0; i < host.size(); ++i) host[i] = pattern(i);
  unsigned char *dev = nullptr, *dev2 = nullptr;
  size_t pitch = 0, pitch2 = 0;
  CHECK(hipMallocPitch(reinterpret_cast<void**>(&dev), &pitch, width, height));
  CHECK(hipMallocPitch(reinterpret_cast<void**>(&dev2), &pitch2, width, height));
  CHECK(hipMemcpy2D(dev, pitch, host.data(), hostPitch, width, height, hipMemcpyHostToDevice));
  CHECK(hipMemcpy2D(dev2, pitch2, dev, pitch, width, height, hipMemcpyDeviceToDevice));
  CHECK(hipMemcpy2D(back.data(), backPitch, dev2, pitch2, width, height, hipMemcpyDeviceToHost));
  int wrong = 0;
  for (size_t y = 0; y < height; ++y)
    for (size_t x = 0; x < backPitch; ++x)
      wrong += back[y * backPitch + x] != (x < width ? host[y * hostPitch + x] : 0xcc);
  std::printf("hipMemcpy2D host -> device -> device -> host: %d wrong\n", wrong);
  failures += wrong != 0;

  // Pinned host memory on a stream: rows 5..24, bytes 12..75 of the device picture.
  unsigned char* pinned = nullptr;
  const size_t boxW = 64, boxH = 20, pinnedPitch = 80;
  CHECK(hipHostMalloc(reinterpret_cast<void**>(&pinned), pinnedPitch * boxH));
  for (size_t i = 0; i < pinnedPitch * boxH; ++i) pinned[i] = 0xab;
  hipStream_t stream;
  CHECK(hipStreamCreate(&stream));
  CHECK(hipMemcpy2DAsync(pinned, pinnedPitch, dev + 5 * pitch + 12, pitch, boxW, boxH,
                         hipMemcpyDeviceToHost, stream));
  CHECK(hipStreamSynchronize(stream));
  wrong = 0;
  for (size_t y = 0; y < boxH; ++y)
    for (size_t x = 0; x < pinnedPitch; ++x)
      wrong +=
          pinned[y * pinnedPitch + x] != (x < boxW ? host[(y + 5) * hostPitch + x + 12] : 0xab);
  std::printf("hipMemcpy2DAsync device -> pinned host: %d wrong\n", wrong);
  failures += wrong != 0;

  // A 3D box: 24 x 6 x 3 bytes from (4, 2, 1) of a 40 x 10 x 5 host volume to (8, 1, 0) of a
  // hipMalloc3D allocation of 48 x 12 x 4, then the whole allocation back.
  const size_t vw = 40, vh = 10, vd = 5;
  std::vector<unsigned char> volume(vw * vh * vd);
  for (size_t i = 0; i < volume.size(); ++i) volume[i] = pattern(i + 7);
  hipPitchedPtr devVolume;
  const hipExtent extent = make_hipExtent(48, 12, 4);
  CHECK(hipMalloc3D(&devVolume, extent));
  CHECK(hipMemset(devVolume.ptr, 0x5e, devVolume.pitch * 12 * 4));
  hipMemcpy3DParms in = {};
  in.srcPtr = make_hipPitchedPtr(volume.data(), vw, vw, vh);
  in.srcPos = make_hipPos(4, 2, 1);
  in.dstPtr = devVolume;
  in.dstPos = make_hipPos(8, 1, 0);
  in.extent = make_hipExtent(24, 6, 3);
  in.kind = hipMemcpyHostToDevice;
  CHECK(hipMemcpy3D(&in));
  std::vector<unsigned char> out(devVolume.pitch * 12 * 4);
  CHECK(hipMemcpy(out.data(), devVolume.ptr, out.size(), hipMemcpyDeviceToHost));
  wrong = 0;
  for (size_t z = 0; z < 4; ++z)
    for (size_t y = 0; y < 12; ++y)
      for (size_t x = 0; x < 48; ++x) {
        const bool inside = x >= 8 && x < 8 + 24 && y >= 1 && y < 1 + 6 && z < 3;
        const unsigned char want =
            inside ? volume[(z + 1) * vw * vh + (y - 1 + 2) * vw + (x - 8 + 4)] : 0x5e;
        wrong += out[z * devVolume.pitch * 12 + y * devVolume.pitch + x] != want;
      }
  std::printf("hipMemcpy3D host -> device: %d wrong (pitch %zu)\n", wrong, devVolume.pitch);
  failures += wrong != 0;
  return failures;
}
