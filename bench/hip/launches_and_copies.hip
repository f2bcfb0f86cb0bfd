// scripts/bench-hip's program: an ordinary HIP program whose host time under `vgpu-sim exec`
// is measured per kernel launch and per MiB copied.
//   launches_and_copies launch N   N launches of vector_add on 64 Ki floats, each synchronized
//   launches_and_copies copy MIB   MIB MiB host to device and back
// Exits non-zero when a result is wrong.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

__global__ void vector_add(const float* a, const float* b, float* c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

#define CHECK(call)                                                                   \
  do {                                                                                \
    hipError_t e = (call);                                                            \
    if (e != hipSuccess) {                                                            \
      std::fprintf(stderr, "%s failed: %s\n", #call, hipGetErrorString(e));           \
      return 1;                                                                       \
    }                                                                                 \
  } while (0)

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: launches_and_copies launch N | copy MIB\n");
    return 2;
  }
  const int count = std::atoi(argv[2]);
  if (std::strcmp(argv[1], "launch") == 0) {
    const int n = 64 * 1024;
    std::vector<float> a(n), b(n), c(n);
    for (int i = 0; i < n; ++i) a[i] = float(i), b[i] = float(2 * i);
    float *da, *db, *dc;
    CHECK(hipMalloc(&da, n * 4));
    CHECK(hipMalloc(&db, n * 4));
    CHECK(hipMalloc(&dc, n * 4));
    CHECK(hipMemcpy(da, a.data(), n * 4, hipMemcpyHostToDevice));
    CHECK(hipMemcpy(db, b.data(), n * 4, hipMemcpyHostToDevice));
    for (int k = 0; k < count; ++k) {
      hipLaunchKernelGGL(vector_add, dim3(n / 256), dim3(256), 0, 0, da, db, dc, n);
      CHECK(hipDeviceSynchronize());
    }
    CHECK(hipMemcpy(c.data(), dc, n * 4, hipMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i)
      if (c[i] != float(3 * i)) return 1;
    return 0;
  }
  if (std::strcmp(argv[1], "copy") == 0) {
    const size_t bytes = size_t(count) << 20;
    std::vector<unsigned char> host(bytes), back(bytes);
    for (size_t i = 0; i < bytes; ++i) host[i] = static_cast<unsigned char>(i * 7 + 3);
    void* device;
    CHECK(hipMalloc(&device, bytes));
    CHECK(hipMemcpy(device, host.data(), bytes, hipMemcpyHostToDevice));
    CHECK(hipMemcpy(back.data(), device, bytes, hipMemcpyDeviceToHost));
    return std::memcmp(host.data(), back.data(), bytes) == 0 ? 0 : 1;
  }
  std::fprintf(stderr, "launches_and_copies: unknown mode '%s'\n", argv[1]);
  return 2;
}
