// Kernel-language features through Debian's HIP runtime on the simulated GPU (HIP programming
// guide, "Kernel language" and "Memory management"): by-value struct arguments of mixed sizes
// and alignments, a template kernel in several instantiations, __constant__ and __device__
// globals through hipMemcpyToSymbol / hipMemcpyFromSymbol / hipGetSymbolAddress, and dynamic
// shared memory (extern __shared__ sized by hipLaunchKernelGGL's sharedMemBytes). Each result is
// compared with the same computation on the CPU; the last line is a checksum of them all.
#include <cstring>
#include <vector>

#include "HipCheck.h"

// Mixed sizes: the kernel-argument layout follows the C++ alignment of each member (AMDGPU
// ABI: by-value aggregates are copied into the kernarg segment with their natural alignment).
struct Mixed {
  char c;
  double d;
  short s;
  int i;
  char tail[3];
};
struct alignas(16) Aligned16 {
  float x, y, z;
  unsigned char tag;
};
struct Small {
  unsigned char a, b;
};

__global__ void structArgs(char c0, Mixed m, Small s, Aligned16 v, long long ll, double* out) {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  out[0] = c0;
  out[1] = m.c;
  out[2] = m.d;
  out[3] = m.s;
  out[4] = m.i;
  out[5] = m.tail[0] + 256 * m.tail[1] + 65536 * m.tail[2];
  out[6] = s.a * 1000 + s.b;
  out[7] = v.x + 10 * v.y + 100 * v.z;
  out[8] = v.tag;
  out[9] = static_cast<double>(ll);
}

template <typename T, int Scale>
__global__ void axpyT(const T* x, T* y, T a, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] * T(Scale) + y[i];
}

template <typename T, int Scale>
bool runAxpy(Checksum& sum, int n, T a) {
  std::vector<T> x(n), y(n), expect(n), got(n);
  for (int i = 0; i < n; ++i)
    x[i] = T(i % 17), y[i] = T(3 * (i % 5)), expect[i] = a * x[i] * T(Scale) + y[i];
  T *dx, *dy;
  CHECK(hipMalloc(&dx, n * sizeof(T)));
  CHECK(hipMalloc(&dy, n * sizeof(T)));
  CHECK(hipMemcpy(dx, x.data(), n * sizeof(T), hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dy, y.data(), n * sizeof(T), hipMemcpyHostToDevice));
  hipLaunchKernelGGL((axpyT<T, Scale>), dim3((n + 127) / 128), dim3(128), 0, 0, dx, dy, a, n);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(got.data(), dy, n * sizeof(T), hipMemcpyDeviceToHost));
  CHECK(hipFree(dx));
  CHECK(hipFree(dy));
  sum.add(got.data(), got.size() * sizeof(T));
  return got == expect;  // small integers: exact in every type used
}

__constant__ int coefficients[8];
__device__ int deviceTable[64];
__device__ float deviceScale;

__global__ void useGlobals(int* out) {
  const int i = threadIdx.x;
  out[i] = coefficients[i % 8] * deviceTable[i] + static_cast<int>(deviceScale);
  deviceTable[i] = i * i;  // read back with hipMemcpyFromSymbol
}

__global__ void viaAddress(int* table, int n) {
  const int i = threadIdx.x;
  if (i < n) table[i] += 1000;
}

// Dynamic shared memory: each block reverses its slice through LDS, then block-sums it.
__global__ void reverseAndSum(const int* in, int* out, int* sums) {
  extern __shared__ int tile[];
  const int t = threadIdx.x, n = blockDim.x, base = blockIdx.x * n;
  tile[t] = in[base + t];
  tile[n + t] = 0;  // a second half: the allocation is 2 * blockDim.x ints
  __syncthreads();
  out[base + t] = tile[n - 1 - t];
  atomicAdd(&tile[n], tile[t]);
  __syncthreads();
  if (t == 0) sums[blockIdx.x] = tile[n];
}

int main() {
  Failures f;
  Checksum sum;

  // By-value structs.
  Mixed m{'m', 2.5, -1234, 0x12345678, {1, 2, 3}};
  Small s{7, 9};
  Aligned16 v{1.0f, 2.0f, 3.0f, 200};
  const long long ll = -(1ll << 40) - 5;
  double* dOut;
  CHECK(hipMalloc(&dOut, 10 * sizeof(double)));
  hipLaunchKernelGGL(structArgs, dim3(1), dim3(64), 0, 0, 'z', m, s, v, ll, dOut);
  CHECK(hipGetLastError());
  double out[10];
  CHECK(hipMemcpy(out, dOut, sizeof out, hipMemcpyDeviceToHost));
  const double expectOut[10] = {
      'z',  'm',          2.5, -1234,     0x12345678, 1 + 256 * 2 + 65536 * 3,
      7009, 1 + 20 + 300, 200, double(ll)};
  const bool structsOk = std::memcmp(out, expectOut, sizeof out) == 0;
  f.expect(structsOk, "by-value struct arguments");
  sum.add(out, sizeof out);
  std::printf("struct arguments %s\n", structsOk ? "ok" : "WRONG");
  CHECK(hipFree(dOut));

  // Templates: four instantiations.
  const bool t1 = runAxpy<float, 1>(sum, 1000, 2.0f);
  const bool t2 = runAxpy<double, 3>(sum, 777, -1.0);
  const bool t3 = runAxpy<int, 2>(sum, 513, 5);
  const bool t4 = runAxpy<unsigned short, 1>(sum, 300, 3);
  f.expect(t1 && t2 && t3 && t4, "template instantiations");
  std::printf("templates float/double/int/ushort %s\n", t1 && t2 && t3 && t4 ? "ok" : "WRONG");

  // Symbols.
  const int coef[8] = {1, -2, 3, -4, 5, -6, 7, -8};
  std::vector<int> table(64);
  for (int i = 0; i < 64; ++i) table[i] = 100 + i;
  const float scale = 42.0f;
  CHECK(hipMemcpyToSymbol(HIP_SYMBOL(coefficients), coef, sizeof coef));
  CHECK(hipMemcpyToSymbol(HIP_SYMBOL(deviceTable), table.data() + 1, 63 * sizeof(int),
                          sizeof(int)));  // offset 1
  CHECK(hipMemcpyToSymbol(HIP_SYMBOL(deviceTable), table.data(), sizeof(int), 0));
  CHECK(hipMemcpyToSymbol(HIP_SYMBOL(deviceScale), &scale, sizeof scale));
  int* dInts;
  CHECK(hipMalloc(&dInts, 64 * sizeof(int)));
  hipLaunchKernelGGL(useGlobals, dim3(1), dim3(64), 0, 0, dInts);
  CHECK(hipGetLastError());
  std::vector<int> got(64), expect(64);
  CHECK(hipMemcpy(got.data(), dInts, 64 * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < 64; ++i) expect[i] = coef[i % 8] * table[i] + 42;
  std::vector<int> back(64), expectBack(64);
  CHECK(hipMemcpyFromSymbol(back.data(), HIP_SYMBOL(deviceTable), 64 * sizeof(int)));
  for (int i = 0; i < 64; ++i) expectBack[i] = i * i;
  void* tableAddress = nullptr;
  size_t tableBytes = 0;
  CHECK(hipGetSymbolAddress(&tableAddress, HIP_SYMBOL(deviceTable)));
  CHECK(hipGetSymbolSize(&tableBytes, HIP_SYMBOL(deviceTable)));
  hipLaunchKernelGGL(viaAddress, dim3(1), dim3(64), 0, 0, static_cast<int*>(tableAddress), 64);
  CHECK(hipGetLastError());
  std::vector<int> viaAddr(64), expectViaAddr(64);
  CHECK(hipMemcpy(viaAddr.data(), tableAddress, 64 * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < 64; ++i) expectViaAddr[i] = i * i + 1000;
  int fromSymbolOffset[4];
  CHECK(hipMemcpyFromSymbol(fromSymbolOffset, HIP_SYMBOL(deviceTable), sizeof fromSymbolOffset,
                            10 * sizeof(int)));
  const bool symbolsOk = got == expect && back == expectBack && viaAddr == expectViaAddr &&
                         tableBytes == 64 * sizeof(int) && fromSymbolOffset[0] == 1100 &&
                         fromSymbolOffset[3] == 13 * 13 + 1000;
  f.expect(symbolsOk, "__constant__/__device__ symbols");
  sum.add(got.data(), 64 * sizeof(int));
  sum.add(back.data(), 64 * sizeof(int));
  sum.add(viaAddr.data(), 64 * sizeof(int));
  std::printf("symbols (ToSymbol, FromSymbol, GetSymbolAddress/Size) %s\n",
              symbolsOk ? "ok" : "WRONG");
  CHECK(hipFree(dInts));

  // Dynamic shared memory: 3 blocks of 96 threads, 2 * 96 ints of LDS each.
  const int threads = 96, blocks = 3, n = threads * blocks;
  std::vector<int> in(n), rev(n), sums(blocks), expectRev(n), expectSums(blocks, 0);
  for (int i = 0; i < n; ++i) in[i] = (i * 37) % 101 - 50;
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < threads; ++t) {
      expectRev[b * threads + t] = in[b * threads + threads - 1 - t];
      expectSums[b] += in[b * threads + t];
    }
  int *dIn, *dRev, *dSums;
  CHECK(hipMalloc(&dIn, n * sizeof(int)));
  CHECK(hipMalloc(&dRev, n * sizeof(int)));
  CHECK(hipMalloc(&dSums, blocks * sizeof(int)));
  CHECK(hipMemcpy(dIn, in.data(), n * sizeof(int), hipMemcpyHostToDevice));
  hipLaunchKernelGGL(reverseAndSum, dim3(blocks), dim3(threads), 2 * threads * sizeof(int), 0, dIn,
                     dRev, dSums);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(rev.data(), dRev, n * sizeof(int), hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(sums.data(), dSums, blocks * sizeof(int), hipMemcpyDeviceToHost));
  const bool sharedOk = rev == expectRev && sums == expectSums;
  f.expect(sharedOk, "dynamic shared memory");
  sum.add(rev.data(), n * sizeof(int));
  sum.add(sums.data(), blocks * sizeof(int));
  std::printf("dynamic shared memory %s\n", sharedOk ? "ok" : "WRONG");
  CHECK(hipFree(dIn));
  CHECK(hipFree(dRev));
  CHECK(hipFree(dSums));

  std::printf("checksum %016llx\n", sum.value());
  return f.count == 0 ? 0 : 1;
}
