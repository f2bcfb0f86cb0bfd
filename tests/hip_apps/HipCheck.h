// Shared by the programs of tests/hip_apps (and, for CHECK, those of tests/hsa): a HIP error
// check and the checksum each program prints of its results, so that runs on several platforms
// and modes can be compared.
#pragma once

#include <hip/hip_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

// Any HIP error ends the program (HIP API reference: every call returns a hipError_t).
#define CHECK(call)                                                             \
  do {                                                                          \
    hipError_t e_ = (call);                                                     \
    if (e_ != hipSuccess) {                                                     \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, \
                   hipGetErrorString(e_));                                      \
      std::exit(1);                                                             \
    }                                                                           \
  } while (0)

// FNV-1a, 64 bits (a public-domain hash), over the bytes of every result.
class Checksum {
 public:
  void add(const void* data, size_t bytes) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < bytes; ++i) hash_ = (hash_ ^ p[i]) * 1099511628211ull;
  }
  unsigned long long value() const { return hash_; }

 private:
  unsigned long long hash_ = 1469598103934665603ull;
};

// Counts failed checks; each one is reported on stderr.
struct Failures {
  int count = 0;
  void expect(bool ok, const char* what) {
    if (!ok) {
      ++count;
      std::fprintf(stderr, "WRONG: %s\n", what);
    }
  }
};
