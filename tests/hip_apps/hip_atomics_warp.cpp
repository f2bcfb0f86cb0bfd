// Atomics, warp shuffles and ballots through Debian's HIP runtime on the simulated GPU (HIP
// programming guide, "Atomic functions" and "Warp cross-lane functions"; a wavefront is 64
// lanes on GCN). Atomics: atomicAdd (int and float), atomicCAS, atomicMax, atomicMin,
// atomicExch and atomicInc, on global memory and on shared memory. Warp functions: __shfl,
// __shfl_xor, __shfl_down, __ballot, __any, __all, __popcll. Each result is compared with the
// same computation on the CPU; the last line is a checksum of them all.
#include <algorithm>
#include <vector>

#include "HipCheck.h"

constexpr int kBlocks = 4, kThreads = 256, kN = kBlocks * kThreads;

// Results, global: [0] add, [1] cas-built sum, [2] max, [3] min, [4] exch count, [5] inc;
// shared: the same six per block, added into [6..11] by thread 0 of each block.
__global__ void atomics(const int* in, int* g, float* gf, unsigned* ginc, int* exchSeen) {
  __shared__ int s[6];
  __shared__ float sf;
  __shared__ unsigned sinc;
  const int t = threadIdx.x, i = blockIdx.x * blockDim.x + t, v = in[i];
  if (t == 0) {
    s[0] = 0, s[1] = 0, s[2] = -1000000, s[3] = 1000000, s[4] = -1, s[5] = 0;
    sf = 0.0f, sinc = 0;
  }
  __syncthreads();
  atomicAdd(&g[0], v);
  atomicAdd(gf, 0.25f * static_cast<float>(v & 7));  // quarters: every partial sum exact
  int old = g[1], assumed;
  do {
    assumed = old;
    old = atomicCAS(&g[1], assumed, assumed + v);
  } while (old != assumed);
  atomicMax(&g[2], v);
  atomicMin(&g[3], v);
  exchSeen[i] = atomicExch(&g[4], i);  // every old value but one is another thread's index
  atomicInc(ginc, 99u);                // wraps to 0 after 99 (HIP: ((old >= val) ? 0 : old+1))
  atomicAdd(&s[0], v);
  int sold = s[1], sassumed;
  do {
    sassumed = sold;
    sold = atomicCAS(&s[1], sassumed, sassumed + v);
  } while (sold != sassumed);
  atomicMax(&s[2], v);
  atomicMin(&s[3], v);
  atomicExch(&s[4], t);
  atomicAdd(&sf, 0.5f * static_cast<float>(v & 3));
  atomicInc(&sinc, 49u);
  __syncthreads();
  if (t == 0) {
    atomicAdd(&g[6], s[0]);
    atomicAdd(&g[7], s[1]);
    atomicMax(&g[8], s[2]);
    atomicMin(&g[9], s[3]);
    atomicAdd(&g[10], (s[4] >= 0 && s[4] < kThreads) ? 1 : 0);
    atomicAdd(&g[11], static_cast<int>(sinc));
    atomicAdd(gf + 1, sf);
  }
}

// Per lane: __shfl from lane (l*5+3)%64, __shfl_xor with mask 9, a __shfl_down tree sum, and
// per wave the ballot of odd values, __any (value > 900), __all (value >= 0), __popcll.
__global__ void warpOps(const int* in, int* shfl, int* shflXor, int* waveSum,
                        unsigned long long* ballots, int* anyAll, int* popc) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % 64;
  const int w = i / 64, v = in[i];
  shfl[i] = __shfl(v, (lane * 5 + 3) % 64);
  shflXor[i] = __shfl_xor(v, 9);
  int sum = v;
  for (int d = 32; d > 0; d /= 2) sum += __shfl_down(sum, d);
  const unsigned long long b = __ballot(v & 1);
  const int any = __any(v > 900), all = __all(v >= 0);
  if (lane == 0) {
    waveSum[w] = sum;
    ballots[w] = b;
    anyAll[w] = any * 2 + all;
    popc[w] = __popcll(b);
  }
}

int main() {
  Failures f;
  Checksum sum;
  std::vector<int> in(kN);
  for (int i = 0; i < kN; ++i) in[i] = (i * 7919) % 1009 - (i % 3 == 0 ? 1000 : 0);
  int *dIn, *g, *exchSeen;
  float* gf;
  unsigned* ginc;
  CHECK(hipMalloc(&dIn, kN * sizeof(int)));
  CHECK(hipMalloc(&g, 12 * sizeof(int)));
  CHECK(hipMalloc(&gf, 2 * sizeof(float)));
  CHECK(hipMalloc(&ginc, sizeof(unsigned)));
  CHECK(hipMalloc(&exchSeen, kN * sizeof(int)));
  CHECK(hipMemcpy(dIn, in.data(), kN * sizeof(int), hipMemcpyHostToDevice));
  const int g0[12] = {0, 0, -1000000, 1000000, -1, 0, 0, 0, -1000000, 1000000, 0, 0};
  const float gf0[2] = {0, 0};
  CHECK(hipMemcpy(g, g0, sizeof g0, hipMemcpyHostToDevice));
  CHECK(hipMemcpy(gf, gf0, sizeof gf0, hipMemcpyHostToDevice));
  CHECK(hipMemset(ginc, 0, sizeof(unsigned)));
  hipLaunchKernelGGL(atomics, dim3(kBlocks), dim3(kThreads), 0, 0, dIn, g, gf, ginc, exchSeen);
  CHECK(hipGetLastError());
  int gr[12];
  float gfr[2];
  unsigned incr;
  std::vector<int> seen(kN);
  CHECK(hipMemcpy(gr, g, sizeof gr, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(gfr, gf, sizeof gfr, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(&incr, ginc, sizeof incr, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(seen.data(), exchSeen, kN * sizeof(int), hipMemcpyDeviceToHost));

  long long total = 0;
  int mx = -1000000, mn = 1000000;
  float qsum = 0, hsum = 0;
  long long sincTotal = 0;
  for (int i = 0; i < kN; ++i) {
    total += in[i], mx = std::max(mx, in[i]), mn = std::min(mn, in[i]);
    qsum += 0.25f * float(in[i] & 7), hsum += 0.5f * float(in[i] & 3);
  }
  sincTotal = kBlocks * (kThreads % 50);  // 256 increments wrapping at 49: 256 mod 50 per block
  // atomicExch: the old values are -1 once and every index but the last writer's once.
  std::vector<int> sortedSeen = seen;
  std::sort(sortedSeen.begin(), sortedSeen.end());
  bool exchOk = sortedSeen[0] == -1;
  for (int k = 1; k < kN && exchOk; ++k) exchOk = sortedSeen[k] > sortedSeen[k - 1];
  exchOk = exchOk && gr[4] >= 0 && gr[4] < kN &&
           !std::binary_search(sortedSeen.begin(), sortedSeen.end(), gr[4]);
  const bool globalOk = gr[0] == total && gr[1] == total && gr[2] == mx && gr[3] == mn && exchOk &&
                        incr == unsigned(kN % 100) && gfr[0] == qsum;
  const bool sharedOk = gr[6] == total && gr[7] == total && gr[8] == mx && gr[9] == mn &&
                        gr[10] == kBlocks && gr[11] == sincTotal && gfr[1] == hsum;
  f.expect(globalOk, "global atomics");
  f.expect(sharedOk, "shared-memory atomics");
  // The exchange order is the hardware's: only its invariants enter the checksum.
  const int deterministic[] = {gr[0], gr[1], gr[2],  gr[3],  gr[6],    gr[7],
                               gr[8], gr[9], gr[10], gr[11], int(incr)};
  sum.add(deterministic, sizeof deterministic);
  sum.add(gfr, sizeof gfr);
  std::printf("atomics global %s, shared %s\n", globalOk ? "ok" : "WRONG",
              sharedOk ? "ok" : "WRONG");

  // Warp functions.
  const int waves = kN / 64;
  int *dShfl, *dXor, *dSum, *dAnyAll, *dPopc;
  unsigned long long* dBallot;
  CHECK(hipMalloc(&dShfl, kN * sizeof(int)));
  CHECK(hipMalloc(&dXor, kN * sizeof(int)));
  CHECK(hipMalloc(&dSum, waves * sizeof(int)));
  CHECK(hipMalloc(&dAnyAll, waves * sizeof(int)));
  CHECK(hipMalloc(&dPopc, waves * sizeof(int)));
  CHECK(hipMalloc(&dBallot, waves * sizeof(unsigned long long)));
  std::vector<int> win(kN);
  for (int i = 0; i < kN; ++i) win[i] = (i * 37) % 1000;
  for (int i = 0; i < 64; ++i) win[2 * 64 + i] = 2 * i;  // wave 2: all even, none > 900
  win[5 * 64 + 17] = -3;                                 // wave 5: not all >= 0
  CHECK(hipMemcpy(dIn, win.data(), kN * sizeof(int), hipMemcpyHostToDevice));
  hipLaunchKernelGGL(warpOps, dim3(kBlocks), dim3(kThreads), 0, 0, dIn, dShfl, dXor, dSum, dBallot,
                     dAnyAll, dPopc);
  CHECK(hipGetLastError());
  std::vector<int> shfl(kN), xr(kN), wsum(waves), anyAll(waves), popc(waves);
  std::vector<unsigned long long> ballot(waves);
  CHECK(hipMemcpy(shfl.data(), dShfl, kN * sizeof(int), hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(xr.data(), dXor, kN * sizeof(int), hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(wsum.data(), dSum, waves * sizeof(int), hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(anyAll.data(), dAnyAll, waves * sizeof(int), hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(popc.data(), dPopc, waves * sizeof(int), hipMemcpyDeviceToHost));
  CHECK(
      hipMemcpy(ballot.data(), dBallot, waves * sizeof(unsigned long long), hipMemcpyDeviceToHost));
  bool warpOk = true;
  for (int i = 0; i < kN; ++i) {
    const int base = i / 64 * 64, lane = i % 64;
    warpOk =
        warpOk && shfl[i] == win[base + (lane * 5 + 3) % 64] && xr[i] == win[base + (lane ^ 9)];
  }
  for (int w = 0; w < waves; ++w) {
    int s = 0, any = 0, all = 1;
    unsigned long long b = 0;
    for (int l = 0; l < 64; ++l) {
      const int v = win[w * 64 + l];
      s += v, any |= v > 900, all &= v >= 0;
      if (v & 1) b |= 1ull << l;
    }
    warpOk = warpOk && wsum[w] == s && ballot[w] == b && anyAll[w] == any * 2 + all &&
             popc[w] == __builtin_popcountll(b);
  }
  f.expect(warpOk, "warp shuffles and ballots");
  f.expect(anyAll[2] == 1 && (anyAll[5] & 1) == 0 && ballot[2] == 0, "the chosen waves' votes");
  sum.add(shfl.data(), kN * sizeof(int));
  sum.add(xr.data(), kN * sizeof(int));
  sum.add(wsum.data(), waves * sizeof(int));
  sum.add(ballot.data(), waves * sizeof(unsigned long long));
  sum.add(anyAll.data(), waves * sizeof(int));
  sum.add(popc.data(), waves * sizeof(int));
  std::printf("warp __shfl/__shfl_xor/__shfl_down/__ballot/__any/__all/__popcll %s\n",
              warpOk ? "ok" : "WRONG");
  for (void* p : {static_cast<void*>(dIn), static_cast<void*>(g), static_cast<void*>(gf),
                  static_cast<void*>(ginc), static_cast<void*>(exchSeen), static_cast<void*>(dShfl),
                  static_cast<void*>(dXor), static_cast<void*>(dSum), static_cast<void*>(dAnyAll),
                  static_cast<void*>(dPopc), static_cast<void*>(dBallot)})
    CHECK(hipFree(p));
  std::printf("checksum %016llx\n", sum.value());
  return f.count == 0 ? 0 : 1;
}
