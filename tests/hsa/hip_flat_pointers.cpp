// Generic (flat) pointers to a work-item's stack and to LDS, through Debian's HIP runtime on
// vgpu. When device code passes the address of a local variable or of __shared__ memory to a
// function it does not inline (a virtual call, a function pointer, a __noinline__ function),
// LLVM turns the private or LDS address into a flat one: on gfx9 it reads the aperture's high
// half from the SH_MEM_BASES hardware register (s_getreg_b32 hwreg(HW_REG_SH_MEM_BASES)) and
// the callee's loads and stores then go through the aperture. Every value is checked against
// the same computation on the CPU; exits non-zero on any difference.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <vector>

#include "../hip_apps/HipCheck.h"  // CHECK: a failed HIP call ends the program

struct Shape {
  __device__ virtual float area() const = 0;
};
struct Square : Shape {
  float side;
  __device__ explicit Square(float s) : side(s) {}
  __device__ float area() const override { return side * side; }
};
struct Triangle : Shape {
  float base, height;
  __device__ Triangle(float b, float h) : base(b), height(h) {}
  __device__ float area() const override { return 0.5f * base * height; }
};

// Fills and sums an array through a pointer the caller took of its own local array.
__device__ __noinline__ int fillAndSum(int* values, int n, int seed) {
  for (int j = 0; j < n; ++j) values[j] = seed * j + (j ^ seed);
  int sum = 0;
  for (int j = n - 1; j >= 0; j -= 3) sum += values[j];
  return sum;
}

// Adds to a word of the workgroup's LDS through a flat pointer.
__device__ __noinline__ void addTo(int* word, int value) {
  atomicAdd(word, value);
}

__device__ __noinline__ int fib(int n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__global__ void flatPointers(float* areas, int* sums, int* groupTotals, int* fibs, int n) {
  __shared__ int total;
  if (threadIdx.x == 0) total = 0;
  __syncthreads();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    Square square(i * 0.5f);
    Triangle triangle(static_cast<float>(i), 3.0f);
    const Shape* shape = (i & 1) ? static_cast<const Shape*>(&square) : &triangle;
    areas[i] = shape->area();
    int local[40];
    sums[i] = fillAndSum(local, 20 + i % 20, i);
    fibs[i] = fib(i % 16);
    addTo(&total, i);
  }
  __syncthreads();
  if (threadIdx.x == 0) groupTotals[blockIdx.x] = total;
}

static int cpuFib(int n) {
  return n < 2 ? n : cpuFib(n - 1) + cpuFib(n - 2);
}

int main() {
  const int n = 1000, block = 128, groups = (n + block - 1) / block;
  float* areas = nullptr;
  int *sums = nullptr, *totals = nullptr, *fibs = nullptr;
  CHECK(hipMalloc(&areas, n * sizeof(float)));
  CHECK(hipMalloc(&sums, n * sizeof(int)));
  CHECK(hipMalloc(&fibs, n * sizeof(int)));
  CHECK(hipMalloc(&totals, groups * sizeof(int)));
  flatPointers<<<groups, block>>>(areas, sums, totals, fibs, n);
  CHECK(hipGetLastError());
  CHECK(hipDeviceSynchronize());
  std::vector<float> a(n);
  std::vector<int> s(n), f(n), t(groups);
  CHECK(hipMemcpy(a.data(), areas, n * sizeof(float), hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(s.data(), sums, n * sizeof(int), hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(f.data(), fibs, n * sizeof(int), hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(t.data(), totals, groups * sizeof(int), hipMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    const float area = (i & 1) ? (i * 0.5f) * (i * 0.5f) : 0.5f * i * 3.0f;
    int values[40], sum = 0;
    const int m = 20 + i % 20;
    for (int j = 0; j < m; ++j) values[j] = i * j + (j ^ i);
    for (int j = m - 1; j >= 0; j -= 3) sum += values[j];
    if (a[i] != area || s[i] != sum || f[i] != cpuFib(i % 16)) {
      if (bad++ < 5)
        std::printf("work-item %d: area %g (want %g), sum %d (want %d), fib %d (want %d)\n", i,
                    a[i], area, s[i], sum, f[i], cpuFib(i % 16));
    }
  }
  for (int g = 0; g < groups; ++g) {
    int want = 0;
    for (int i = g * block; i < n && i < (g + 1) * block; ++i) want += i;
    if (t[g] != want && bad++ < 10)
      std::printf("workgroup %d: LDS total %d (want %d)\n", g, t[g], want);
  }
  std::printf("%s: %d work-items, %d workgroups\n", bad ? "FAILED" : "passed", n, groups);
  return bad ? 1 : 0;
}
