// The CPU side of the sparse tests in tests/rocm: random CSR matrices with empty rows and a
// long row, y = alpha op(A) x + beta y in double with an error bound, and the comparison; and
// a matrix's copy in device memory (DeviceCsr).
//
// Two kinds of values: small integers (entries in -4..4, vectors in -3..3), for which every
// product and partial sum is an integer below 2^24 and so exact in float whatever the
// summation order: results must equal the CPU's exactly; and uniform reals in (-1, 1), for
// which each result must be within k * 2^-24 * sum |terms| of the CPU's double result, k being
// the number of terms plus 2 (the classical bound for a sum of k floating-point products in
// any order, N. J. Higham, "Accuracy and Stability of Numerical Algorithms", 2nd ed., 3.1).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "RocmCheck.h"

namespace rocmcheck {

struct Csr {
  std::string name;
  int m = 0, n = 0;
  std::vector<int> rowPtr, col;
  std::vector<float> val;
  int nnz() const { return static_cast<int>(col.size()); }
};

// A random m x n matrix: each entry present with probability `density`, rows listed in
// `empty` without entries, row `full` with all n; integer values or reals in (-1, 1).
inline Csr randomCsr(const std::string& name, int m, int n, double density, std::vector<int> empty,
                     int full, bool integers, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::uniform_int_distribution<int> small(-4, 3);
  Csr a;
  a.name = name, a.m = m, a.n = n;
  a.rowPtr.push_back(0);
  for (int i = 0; i < m; ++i) {
    const bool isEmpty = std::find(empty.begin(), empty.end(), i) != empty.end();
    for (int j = 0; j < n && !isEmpty; ++j) {
      if (i != full && unit(rng) >= density) continue;
      a.col.push_back(j);
      if (integers) {
        const int v = small(rng);
        a.val.push_back(static_cast<float>(v >= 0 ? v + 1 : v));  // never 0
      } else {
        a.val.push_back(static_cast<float>(2 * unit(rng) - 1));
      }
    }
    a.rowPtr.push_back(static_cast<int>(a.col.size()));
  }
  return a;
}

// A matrix's arrays in device memory, freed with it.
struct DeviceCsr {
  float* val;
  int *rowPtr, *col;
  explicit DeviceCsr(const Csr& a)
      : val(toDevice(a.val)), rowPtr(toDevice(a.rowPtr)), col(toDevice(a.col)) {}
  ~DeviceCsr() {
    HIP_OK(hipFree(val));
    HIP_OK(hipFree(rowPtr));
    HIP_OK(hipFree(col));
  }
};

inline std::vector<float> randomVector(size_t n, bool integers, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> small(-3, 3);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::vector<float> v(n);
  for (float& x : v) x = integers ? static_cast<float>(small(rng)) : static_cast<float>(unit(rng));
  return v;
}

// y = alpha op(A) x + beta y on the CPU in double, with the error bound of each element.
inline void cpuSpmv(const Csr& a, bool transpose, float alpha, const std::vector<float>& x,
                    float beta, const std::vector<float>& y0, std::vector<double>& y,
                    std::vector<double>& bound) {
  const int rows = transpose ? a.n : a.m;
  y.assign(rows, 0.0);
  std::vector<double> abssum(rows, 0.0), terms(rows, 0.0);
  for (int i = 0; i < a.m; ++i)
    for (int k = a.rowPtr[i]; k < a.rowPtr[i + 1]; ++k) {
      const int r = transpose ? a.col[k] : i, c = transpose ? i : a.col[k];
      const double t = static_cast<double>(alpha) * a.val[k] * x[c];
      y[r] += t, abssum[r] += std::fabs(t), terms[r] += 1;
    }
  bound.resize(rows);
  for (int r = 0; r < rows; ++r) {
    y[r] += static_cast<double>(beta) * y0[r];
    abssum[r] += std::fabs(static_cast<double>(beta) * y0[r]);
    bound[r] = (terms[r] + 2) * std::ldexp(1.0, -24) * abssum[r];
  }
}

// Exact for integer matrices (the bound is then not used), within the bound otherwise.
inline void compare(const std::vector<float>& got, const std::vector<double>& want,
                    const std::vector<double>& bound, bool exact, const std::string& what) {
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    const bool ok =
        exact ? static_cast<double>(got[i]) == want[i] : std::fabs(got[i] - want[i]) <= bound[i];
    if (!ok && bad++ == 0) first = i;
  }
  std::string detail;
  if (bad) {
    char buf[160];
    std::snprintf(buf, sizeof buf, " (first at %zu: got %.9g, expected %.9g)", first, got[first],
                  want[first]);
    detail = buf;
  }
  check(bad == 0, what + ": " + std::to_string(bad) + " of " + std::to_string(want.size()) +
                      " differ" + detail);
}

// One digest line per result, compared across platforms and modes by compare-digests.sh;
// except for real-valued sums that rocSPARSE accumulates with atomic additions from many
// workgroups (transposed csrmv: csrmvt_general_kernel; adaptive csrmv's long rows; coomv's
// segmented reduction), whose rounding depends on the order in which workgroups run, and so on
// the number of compute units, on a GPU as on the model: those are checked against the CPU
// bound in every run and printed, not compared.
template <class T>
inline void keep(const std::string& what, const std::vector<T>& v, bool orderDependent = false) {
  Digest d;
  d.add(v);
  if (orderDependent)
    std::printf("order-dependent %s %016llx\n", what.c_str(),
                static_cast<unsigned long long>(d.value()));
  else
    printDigest(what.c_str(), d);
}
}  // namespace rocmcheck
