// Shared by the programs in tests/rocm: failure counting, a digest of every GPU result (the
// wrapper compares digests across platforms and modes), CPU Philox4x32-10 and statistics.
#pragma once

#include <hip/hip_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace rocmcheck {

inline int& failures() {
  static int n = 0;
  return n;
}

// Prints the first few failures of one check in full and counts all of them.
inline bool check(bool ok, const std::string& what) {
  if (!ok) {
    if (failures() < 40) std::printf("FAIL: %s\n", what.c_str());
    ++failures();
  }
  return ok;
}

#define HIP_OK(call)                                                                     \
  do {                                                                                   \
    hipError_t e_ = (call);                                                              \
    if (e_ != hipSuccess) {                                                              \
      std::printf("FAIL: %s = %s at line %d\n", #call, hipGetErrorString(e_), __LINE__); \
      std::exit(1);                                                                      \
    }                                                                                    \
  } while (0)

// A library call that must return status 0 (rocRAND, hipRAND, rocSPARSE, hipSPARSE success).
#define LIB_OK(call)                                                                \
  do {                                                                              \
    int s_ = static_cast<int>(call);                                                \
    if (s_ != 0) {                                                                  \
      std::printf("FAIL: %s returned status %d at line %d\n", #call, s_, __LINE__); \
      std::exit(1);                                                                 \
    }                                                                               \
  } while (0)

// FNV-1a (64 bit) over the bytes of every result the GPU produced, in program order.
class Digest {
 public:
  void add(const void* data, size_t bytes) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < bytes; ++i) h_ = (h_ ^ p[i]) * 0x100000001b3ULL;
  }
  template <class T>
  void add(const std::vector<T>& v) {
    add(v.data(), v.size() * sizeof(T));
  }
  uint64_t value() const { return h_; }

 private:
  uint64_t h_ = 0xcbf29ce484222325ULL;
};

// One line per section, "digest NAME HEX", compared across platforms and modes by
// tests/rocm/run-on-model.sh and compare-digests.sh.
inline void printDigest(const char* name, const Digest& d) {
  std::printf("digest %s %016llx\n", name, static_cast<unsigned long long>(d.value()));
}

template <class T>
std::vector<T> toHost(const T* device, size_t n) {
  std::vector<T> h(n);
  HIP_OK(hipMemcpy(h.data(), device, n * sizeof(T), hipMemcpyDeviceToHost));
  return h;
}

template <class T>
T* toDevice(const std::vector<T>& h) {
  T* d = nullptr;
  HIP_OK(hipMalloc(&d, std::max<size_t>(1, h.size()) * sizeof(T)));
  if (!h.empty()) HIP_OK(hipMemcpy(d, h.data(), h.size() * sizeof(T), hipMemcpyHostToDevice));
  return d;
}

// Philox4x32-10, J. K. Salmon, M. A. Moraes, R. O. Dror, D. E. Shaw, "Parallel Random Numbers:
// As Easy as 1, 2, 3", SC'11: a 128-bit counter and a 64-bit key; each of the 10 rounds
// multiplies words 0 and 2 by the multipliers, mixes the high halves with words 1 and 3 and
// the key, and permutes; the key is bumped by the Weyl constants between rounds.
struct Philox4x32 {
  uint32_t ctr[4];
  uint32_t key[2];
};

inline void philoxRound(uint32_t c[4], const uint32_t k[2]) {
  const uint64_t p0 = uint64_t{0xD2511F53u} * c[0];
  const uint64_t p1 = uint64_t{0xCD9E8D57u} * c[2];
  const uint32_t hi0 = static_cast<uint32_t>(p0 >> 32), lo0 = static_cast<uint32_t>(p0);
  const uint32_t hi1 = static_cast<uint32_t>(p1 >> 32), lo1 = static_cast<uint32_t>(p1);
  const uint32_t out[4] = {hi1 ^ c[1] ^ k[0], lo1, hi0 ^ c[3] ^ k[1], lo0};
  std::memcpy(c, out, sizeof out);
}

inline void philox4x32_10(const uint32_t counter[4], const uint32_t key[2], uint32_t out[4]) {
  uint32_t c[4] = {counter[0], counter[1], counter[2], counter[3]};
  uint32_t k[2] = {key[0], key[1]};
  for (int round = 0; round < 10; ++round) {
    if (round > 0) k[0] += 0x9E3779B9u, k[1] += 0xBB67AE85u;
    philoxRound(c, k);
  }
  std::memcpy(out, c, sizeof c);
}

// The 32-bit words rocRAND's (and hipRAND's) PHILOX4_32_10 generator outputs: word i of the
// stream is word i % 4 of Philox4x32-10(counter = i / 4 as a 128-bit little-endian number,
// key = {seed & 0xffffffff, seed >> 32}), the stream starting at the generator's offset.
// The mapping is rocRAND's (rocRAND 5.3, library/include/rocrand/rocrand_philox4x32_10.h:
// philox4x32_10_engine(seed, subsequence, offset) sets key.x/key.y to the low/high halves of
// the seed and the counter to 0, then discards `offset` words; library/src/rng/philox4x32_10.hpp:
// the host generator starts its engine at (seed, subsequence 0, offset) and its generate kernel
// gives thread t words 4t..4t+3 and then leaps by the grid's size, so that output element i is
// stream word offset + i; https://github.com/ROCm/rocRAND, tag rocm-5.3.3).
inline std::vector<uint32_t> philoxStream(uint64_t seed, uint64_t first, size_t count) {
  std::vector<uint32_t> words(count);
  const uint32_t key[2] = {static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)};
  uint64_t block = ~uint64_t{0};
  uint32_t out[4] = {};
  for (size_t i = 0; i < count; ++i) {
    const uint64_t w = first + i;
    if (w / 4 != block) {
      block = w / 4;
      const uint32_t ctr[4] = {static_cast<uint32_t>(block), static_cast<uint32_t>(block >> 32), 0,
                               0};
      philox4x32_10(ctr, key, out);
    }
    words[i] = out[w % 4];
  }
  return words;
}

// rocRAND's float uniform mapping of a 32-bit word, (v + 1) * 2^-32 in (0, 1] (rocRAND's
// documentation of rocrand_generate_uniform: "uniformly distributed ... between 0.0f and 1.0f,
// excluding 0.0f and including 1.0f"; the product by 2^-32 is exact, so one rounding).
inline float uniformFloat(uint32_t v) {
  const float scale = std::ldexp(1.0f, -32);
  return static_cast<float>(v) * scale + scale;
}

// Statistics over n samples; the bounds used are stated where they are checked.
struct Moments {
  double mean = 0, variance = 0;
};
template <class T>
Moments moments(const std::vector<T>& v) {
  Moments m;
  for (T x : v) m.mean += static_cast<double>(x);
  m.mean /= static_cast<double>(v.size());
  for (T x : v) m.variance += (static_cast<double>(x) - m.mean) * (static_cast<double>(x) - m.mean);
  m.variance /= static_cast<double>(v.size() - 1);
  return m;
}

// Pearson's chi-square statistic of values in [0, 1) counted in `bins` equal bins.
template <class T>
double chiSquare(const std::vector<T>& u, int bins) {
  std::vector<double> count(bins, 0.0);
  for (T x : u) {
    int b = static_cast<int>(static_cast<double>(x) * bins);
    if (b < 0) b = 0;
    if (b >= bins) b = bins - 1;
    count[b] += 1;
  }
  const double expected = static_cast<double>(u.size()) / bins;
  double chi = 0;
  for (double c : count) chi += (c - expected) * (c - expected) / expected;
  return chi;
}

inline double normalCdf(double x) {
  return 0.5 * std::erfc(-x / std::sqrt(2.0));
}

// The device the program runs on (on the simulated GPU: the platform's processor; ROCclr picks
// the libraries' code objects for it).
inline void printDevice() {
  hipDeviceProp_t p;
  HIP_OK(hipGetDeviceProperties(&p, 0));
  std::printf("device: %s (%s), %d compute units\n", p.name, p.gcnArchName, p.multiProcessorCount);
}

class Timer {
 public:
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace rocmcheck
