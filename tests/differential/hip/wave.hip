// Wave-level HIP operations on gfx906 (64-lane waves): shuffles, votes, warp reductions and the
// wrapping atomicInc/atomicDec. The CPU references are in HipTest.cpp.
#include <hip/hip_runtime.h>

// Shuffles with every width and a data-dependent source lane; blocks of 256 (4 waves).
extern "C" __global__ void wave_shfl(const int* in, const int* src, int* out, double* dout) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = in[i], s = src[i];
  int* o = out + 8 * i;
  o[0] = __shfl(v, s & 63);
  o[1] = __shfl(v, s & 15, 16);
  o[2] = __shfl_xor(v, s & 63);
  o[3] = __shfl_xor(v, 5, 8);
  o[4] = __shfl_down(v, s & 63);
  o[5] = __shfl_down(v, 3, 32);
  o[6] = __shfl_up(v, s & 63);
  o[7] = __shfl_up(v, 1, 4);
  dout[i] = __shfl_xor(static_cast<double>(v) * 0.5, 17) + __shfl(static_cast<float>(v), 63 - (s & 63));
}

// Votes: full waves, then inside a branch that only some lanes take.
extern "C" __global__ void wave_vote(const int* in, unsigned long long* ballots, int* flags) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = in[i];
  unsigned long long* b = ballots + 3 * i;
  int* f = flags + 6 * i;
  b[0] = __ballot(v > 0);
  f[0] = __any(v == 12345);
  f[1] = __all(v != 0);
  f[2] = __popcll(__ballot(v & 1));
  b[1] = 0;
  f[3] = f[4] = -1;
  if (v % 3 != 0) {  // divergent: only the active lanes vote
    b[1] = __ballot(v & 2);
    f[3] = __any(v < -1000);
    f[4] = __all(v > -100000);
  }
  b[2] = __ballot(1);
  f[5] = __popcll(b[0] ^ b[1]) + static_cast<int>(__lane_id());
}

// Warp reductions: a sum with __shfl_down (lane 0 holds it), a max with a __shfl_xor butterfly
// (every lane holds it), a float sum in the same tree order, and an inclusive scan with __shfl_up.
extern "C" __global__ void wave_reduce(const int* in, const float* fin, int* sums, int* maxes,
                                       float* fsums, int* scans) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int s = in[i], m = in[i], x = in[i];
  float f = fin[i];
  for (int off = 32; off > 0; off >>= 1) {
    s += __shfl_down(s, off);
    f += __shfl_down(f, off);
  }
  for (int mask = 1; mask < 64; mask <<= 1) m = max(m, __shfl_xor(m, mask));
  for (int off = 1; off < 64; off <<= 1) {
    const int y = __shfl_up(x, off);
    if ((threadIdx.x & 63) >= off) x += y;
  }
  if ((threadIdx.x & 63) == 0) {
    sums[i / 64] = s;
    fsums[i / 64] = f;
  }
  maxes[i] = m;
  scans[i] = x;
}

// atomicInc / atomicDec wrap at the given limit (global_atomic_inc/dec), atomicCAS, atomicExch,
// and atomicAdd on floats and doubles, where only integer-valued sums are exact in any order.
extern "C" __global__ void wave_atomics(unsigned* counters, unsigned* incOld, unsigned* decOld,
                                        float* fsum, double* dsum, unsigned long long* cas) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  incOld[i] = atomicInc(&counters[0], 100u);
  decOld[i] = atomicDec(&counters[1], 37u);
  atomicAdd(fsum, static_cast<float>(i % 7));
  atomicAdd(dsum, static_cast<double>(i) * 0.25);
  unsigned long long old = cas[0], seen;
  while ((seen = atomicCAS(&cas[0], old, old + i)) != old) old = seen;
  atomicMax(&cas[1], static_cast<unsigned long long>(i) * 0x100000001ull);
  atomicExch(&counters[2], 5u);
}
