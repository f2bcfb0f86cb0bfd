// Every generator of Debian's rocRAND 5.3 (rocrand.h: XORWOW, MRG32K3A, MTGP32, PHILOX4_32_10,
// SOBOL32, SOBOL64, and the two defaults) through its public API on the GPU, checked on the
// CPU: Philox4x32-10 and both Sobol generators bit-exact against this file's own
// implementations, the others statistically with the bounds stated below, and every pseudo-
// random generator for repeatability (same seed: same output; another seed: another output).
#include <rocrand/rocrand.h>
#include <rocrand/rocrand_sobol32_precomputed.h>  // the direction numbers rocRAND ships

#include <algorithm>

#include "RocmCheck.h"

using namespace rocmcheck;

namespace {

Digest gDigest;

// ---- Sobol ------------------------------------------------------------------------------
// Direction numbers from the primitive polynomials and initial numbers m_1..m_s of S. Joe and
// F. Y. Kuo, "Constructing Sobol sequences with better two-dimensional projections", SIAM J.
// Sci. Comput. 30 (2008), file new-joe-kuo-6.21201, dimensions 2..10 (dimension 1 is the van
// der Corput sequence, every m_k = 1); V_k = m_k << (32 - k) and, beyond the initial numbers,
// V_k = V_{k-s} ^ (V_{k-s} >> s) ^ XOR over j < s with bit a_j of a set of V_{k-j} (Bratley and
// Fox, ACM TOMS 14 (1988), algorithm 659).
struct JoeKuo {
  unsigned s, a;
  unsigned m[5];
};
const JoeKuo kJoeKuo[] = {
    {1, 0, {1}},
    {2, 1, {1, 3}},
    {3, 1, {1, 3, 1}},
    {3, 2, {1, 1, 1}},
    {4, 1, {1, 1, 3, 3}},
    {4, 4, {1, 3, 5, 13}},
    {5, 2, {1, 1, 5, 5, 17}},
    {5, 4, {1, 1, 5, 5, 5}},
    {5, 7, {1, 1, 7, 11, 19}},
};
constexpr unsigned kOwnDimensions = 10;

std::vector<uint32_t> ownDirections(unsigned dimension) {
  std::vector<uint32_t> v(32);
  if (dimension == 0) {
    for (unsigned k = 0; k < 32; ++k) v[k] = 1u << (31 - k);
    return v;
  }
  const JoeKuo& p = kJoeKuo[dimension - 1];
  for (unsigned k = 0; k < p.s; ++k) v[k] = p.m[k] << (31 - k);
  for (unsigned k = p.s; k < 32; ++k) {
    v[k] = v[k - p.s] ^ (v[k - p.s] >> p.s);
    for (unsigned j = 1; j < p.s; ++j)
      if ((p.a >> (p.s - 1 - j)) & 1) v[k] ^= v[k - j];
  }
  return v;
}

// Point `index` of a dimension: the XOR of the direction numbers selected by the bits of the
// Gray code of the index (Antonov and Saleev's ordering, which rocRAND uses).
uint32_t sobolPoint(const uint32_t* directions, uint64_t index) {
  const uint64_t gray = index ^ (index >> 1);
  uint32_t x = 0;
  for (unsigned k = 0; k < 32; ++k)
    if ((gray >> k) & 1) x ^= directions[k];
  return x;
}

// Dimension d of rocRAND's table (32 numbers per dimension).
const uint32_t* shippedDirections(unsigned d) {
  return &h_sobol32_direction_vectors[d * 32];
}

// ---- statistics ----------------------------------------------------------------------------
// n uniform samples in (0, 1]: mean within 5 standard errors of 1/2 (SE = sqrt(1/12 / n)),
// sample variance within 5 standard errors of 1/12 (SE = sqrt((1/80 - 1/144) / n), the fourth
// central moment of U(0,1) being 1/80), and Pearson's chi-square over 16 equal bins below 50
// (15 degrees of freedom: P(chi2 > 50) is about 1e-5).
void checkUniform(const std::vector<float>& u, const std::string& name) {
  const double n = static_cast<double>(u.size());
  bool inRange = std::all_of(u.begin(), u.end(), [](float x) { return x > 0.0f && x <= 1.0f; });
  check(inRange, name + ": uniform values outside (0, 1]");
  const Moments m = moments(u);
  const double chi = chiSquare(u, 16);
  check(std::fabs(m.mean - 0.5) < 5 * std::sqrt(1.0 / 12 / n),
        name + ": uniform mean " + std::to_string(m.mean));
  check(std::fabs(m.variance - 1.0 / 12) < 5 * std::sqrt((1.0 / 80 - 1.0 / 144) / n),
        name + ": uniform variance " + std::to_string(m.variance));
  check(chi < 50, name + ": uniform chi-square(16 bins) " + std::to_string(chi));
  std::printf("  %s uniform: mean %.5f variance %.5f chi2(15 dof) %.1f\n", name.c_str(), m.mean,
              m.variance, chi);
}

// n normal samples N(0, 1): mean within 5/sqrt(n), variance within 5 sqrt(2/n) of 1, and the
// chi-square over 16 equiprobable bins of Phi(x) below 50 as above.
void checkNormal(const std::vector<float>& z, const std::string& name) {
  const double n = static_cast<double>(z.size());
  const Moments m = moments(z);
  std::vector<double> p(z.size());
  for (size_t i = 0; i < z.size(); ++i) p[i] = normalCdf(z[i]);
  const double chi = chiSquare(p, 16);
  check(std::fabs(m.mean) < 5 / std::sqrt(n), name + ": normal mean " + std::to_string(m.mean));
  check(std::fabs(m.variance - 1) < 5 * std::sqrt(2 / n),
        name + ": normal variance " + std::to_string(m.variance));
  check(chi < 50, name + ": normal chi-square(16 bins) " + std::to_string(chi));
  std::printf("  %s normal: mean %.5f variance %.5f chi2(15 dof) %.1f\n", name.c_str(), m.mean,
              m.variance, chi);
}

rocrand_generator create(rocrand_rng_type type, uint64_t seed, bool pseudo = true) {
  rocrand_generator g = nullptr;
  LIB_OK(rocrand_create_generator(&g, type));
  if (pseudo) LIB_OK(rocrand_set_seed(g, seed));
  return g;
}

std::vector<uint32_t> generateUint(rocrand_generator g, size_t n) {
  unsigned int* d = nullptr;
  HIP_OK(hipMalloc(&d, n * 4));
  LIB_OK(rocrand_generate(g, d, n));
  std::vector<uint32_t> h = toHost(d, n);
  HIP_OK(hipFree(d));
  gDigest.add(h);
  return h;
}

std::vector<float> generateUniform(rocrand_generator g, size_t n) {
  float* d = nullptr;
  HIP_OK(hipMalloc(&d, n * 4));
  LIB_OK(rocrand_generate_uniform(g, d, n));
  std::vector<float> h = toHost(d, n);
  HIP_OK(hipFree(d));
  gDigest.add(h);
  return h;
}

std::vector<float> generateNormal(rocrand_generator g, size_t n, float mean, float stddev) {
  float* d = nullptr;
  HIP_OK(hipMalloc(&d, n * 4));
  LIB_OK(rocrand_generate_normal(g, d, n, mean, stddev));
  std::vector<float> h = toHost(d, n);
  HIP_OK(hipFree(d));
  gDigest.add(h);
  return h;
}

size_t countEqual(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
  size_t same = 0;
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) same += a[i] == b[i];
  return same;
}

template <class T>
void expectEqual(const std::vector<T>& got, const std::vector<T>& want, const std::string& name) {
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < want.size(); ++i)
    if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0 && bad++ == 0) first = i;
  std::string where;
  if (bad != 0) {
    char buf[128];
    uint32_t g = 0, w = 0;
    std::memcpy(&g, &got[first], 4);
    std::memcpy(&w, &want[first], 4);
    std::snprintf(buf, sizeof buf, " (first at %zu: got bits %08x, expected %08x)", first, g, w);
    where = buf;
  }
  check(bad == 0, name + ": " + std::to_string(bad) + " of " + std::to_string(want.size()) +
                      " values differ from the CPU" + where);
}

// ---- the generators ------------------------------------------------------------------------

void philoxSelfTest() {
  // Known answers of Philox4x32-10 published with Random123 (D. E. Shaw Research,
  // examples/kat_vectors): counter, key -> output.
  struct Kat {
    uint32_t ctr[4], key[2], out[4];
  } kats[] = {
      {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
      {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
       {0xffffffff, 0xffffffff},
       {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
      {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
       {0xa4093822, 0x299f31d0},
       {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
  };
  for (const Kat& k : kats) {
    uint32_t out[4];
    philox4x32_10(k.ctr, k.key, out);
    check(std::memcmp(out, k.out, sizeof out) == 0, "CPU Philox4x32-10 known-answer vector");
  }
}

void philox() {
  std::printf("PHILOX4_32_10\n");
  philoxSelfTest();
  const uint64_t seed = 0x0123456789abcdefULL;  // both key words non-zero
  rocrand_generator g = create(ROCRAND_RNG_PSEUDO_PHILOX4_32_10, seed);
  // 10001 words (a tail shorter than 4), then 3001 more continuing the stream, then 999 into a
  // buffer one word past 16-byte alignment (the generate kernel's head path).
  expectEqual(generateUint(g, 10001), philoxStream(seed, 0, 10001), "philox words 0..10000");
  expectEqual(generateUint(g, 3001), philoxStream(seed, 10001, 3001), "philox words 10001..13001");
  {
    unsigned int* d = nullptr;
    HIP_OK(hipMalloc(&d, 1000 * 4));
    LIB_OK(rocrand_generate(g, d + 1, 999));
    std::vector<uint32_t> h = toHost(d + 1, 999);
    gDigest.add(h);
    expectEqual(h, philoxStream(seed, 13002, 999), "philox words 13002.. (unaligned buffer)");
    HIP_OK(hipFree(d));
  }
  // An offset that is not a multiple of 4 (rocrand_set_offset: words skipped).
  LIB_OK(rocrand_set_offset(g, 1001));
  expectEqual(generateUint(g, 5000), philoxStream(seed, 1001, 5000), "philox offset 1001");
  LIB_OK(rocrand_destroy_generator(g));

  // Uniform floats: one rounding of (v + 1) * 2^-32, bit-exact.
  const uint64_t seed2 = 0xfedcba9876543210ULL;
  const size_t n = 65536;
  g = create(ROCRAND_RNG_PSEUDO_PHILOX4_32_10, seed2);
  std::vector<float> u = generateUniform(g, n);
  std::vector<uint32_t> words = philoxStream(seed2, 0, n);
  std::vector<float> want(n);
  for (size_t i = 0; i < n; ++i) want[i] = uniformFloat(words[i]);
  expectEqual(u, want, "philox uniform floats");
  checkUniform(u, "philox");
  // Normals: Box-Muller on consecutive word pairs (x, y): r = sqrt(-2 ln u(x)),
  // angle = 2 pi u(y), outputs r sin(angle), r cos(angle) (rocRAND 5.3, rocrand_normal.h,
  // box_muller), scaled by the standard deviation and shifted by the mean. The GPU evaluates
  // log/sin/cos in single precision with fast intrinsics; the CPU here in double: each value
  // must be within 2e-4 (1 + |z|) standard deviations of the CPU's.
  const float mean = 1.5f, stddev = 2.0f;
  std::vector<float> z = generateNormal(g, n, mean, stddev);
  words = philoxStream(seed2, n, n);  // the stream continues after the uniforms
  size_t far = 0;
  double worst = 0;
  std::vector<float> standard(n);
  for (size_t i = 0; i + 1 < n; i += 2) {
    const double r = std::sqrt(-2.0 * std::log((words[i] + 1.0) * std::ldexp(1.0, -32)));
    const double angle = 2 * M_PI * ((words[i + 1] + 1.0) * std::ldexp(1.0, -32));
    const double ref[2] = {r * std::sin(angle), r * std::cos(angle)};
    for (int j = 0; j < 2; ++j) {
      const double got = (z[i + j] - mean) / stddev;
      standard[i + j] = static_cast<float>(got);
      const double err = std::fabs(got - ref[j]);
      worst = std::max(worst, err / (1 + std::fabs(ref[j])));
      if (err > 2e-4 * (1 + std::fabs(ref[j]))) ++far;
    }
  }
  check(far == 0, "philox normals: " + std::to_string(far) + " differ from CPU Box-Muller");
  std::printf("  philox normal vs CPU Box-Muller: worst |error| / (1 + |z|) = %.2e\n", worst);
  checkNormal(standard, "philox");
  LIB_OK(rocrand_destroy_generator(g));
}

void sobol32() {
  std::printf("SOBOL32\n");
  // rocRAND's shipped direction numbers are Joe and Kuo's for the dimensions derived here.
  for (unsigned d = 0; d < kOwnDimensions; ++d) {
    std::vector<uint32_t> own = ownDirections(d);
    check(std::equal(own.begin(), own.end(), shippedDirections(d)),
          "rocRAND's direction numbers of dimension " + std::to_string(d + 1) +
              " differ from Joe-Kuo's");
  }
  // Output layout: all N points of dimension 1, then dimension 2, ... (rocrand.h,
  // rocrand_generate: "for quasi-random generators ... n must be a multiple of dimensions").
  const unsigned dims = kOwnDimensions, points = 1000;
  rocrand_generator g = create(ROCRAND_RNG_QUASI_SOBOL32, 0, false);
  LIB_OK(rocrand_set_quasi_random_generator_dimensions(g, dims));
  for (unsigned call = 0; call < 2; ++call) {  // the second call continues at point 1000
    std::vector<uint32_t> got = generateUint(g, dims * points), want(dims * points);
    for (unsigned d = 0; d < dims; ++d) {
      std::vector<uint32_t> v = ownDirections(d);
      for (unsigned i = 0; i < points; ++i)
        want[d * points + i] = sobolPoint(v.data(), call * points + i);
    }
    expectEqual(got, want, "sobol32 points, call " + std::to_string(call + 1));
  }
  LIB_OK(rocrand_destroy_generator(g));
  // Uniform floats from an offset of 5 points, 777 points (not a power of two).
  g = create(ROCRAND_RNG_QUASI_SOBOL32, 0, false);
  LIB_OK(rocrand_set_quasi_random_generator_dimensions(g, dims));
  LIB_OK(rocrand_set_offset(g, 5));
  {
    std::vector<float> got = generateUniform(g, dims * 777), want(dims * 777);
    for (unsigned d = 0; d < dims; ++d) {
      std::vector<uint32_t> v = ownDirections(d);
      for (unsigned i = 0; i < 777; ++i)
        want[d * 777 + i] = uniformFloat(sobolPoint(v.data(), 5 + i));
    }
    expectEqual(got, want, "sobol32 uniform floats from offset 5");
  }
  LIB_OK(rocrand_destroy_generator(g));
  // Many dimensions (one block row each), with the shipped table beyond dimension 10.
  const unsigned many = 300, few = 64;
  g = create(ROCRAND_RNG_QUASI_SOBOL32, 0, false);
  LIB_OK(rocrand_set_quasi_random_generator_dimensions(g, many));
  {
    std::vector<uint32_t> got = generateUint(g, many * few), want(many * few);
    for (unsigned d = 0; d < many; ++d)
      for (unsigned i = 0; i < few; ++i) want[d * few + i] = sobolPoint(shippedDirections(d), i);
    expectEqual(got, want, "sobol32 points of 300 dimensions");
  }
  LIB_OK(rocrand_destroy_generator(g));
}

void sobol64() {
  std::printf("SOBOL64\n");
  // Joe and Kuo's 64-bit direction numbers are m_k << (64 - k): for the first 32 bits of the
  // index their low 32 bits are zero, so point i (i < 2^32) is the 32-bit point << 32.
  // rocrand_generate gives its high 32 bits; the double uniform is 2^-53 + (x >> 11) 2^-53
  // (rocRAND 5.3, rocrand_uniform.h, uniform_distribution_double(unsigned long long)).
  const unsigned dims = kOwnDimensions, points = 1000;
  rocrand_generator g = create(ROCRAND_RNG_QUASI_SOBOL64, 0, false);
  LIB_OK(rocrand_set_quasi_random_generator_dimensions(g, dims));
  std::vector<uint32_t> got = generateUint(g, dims * points), want(dims * points);
  for (unsigned d = 0; d < dims; ++d) {
    std::vector<uint32_t> v = ownDirections(d);
    for (unsigned i = 0; i < points; ++i) want[d * points + i] = sobolPoint(v.data(), i);
  }
  expectEqual(got, want, "sobol64 points (high 32 bits)");
  LIB_OK(rocrand_destroy_generator(g));

  g = create(ROCRAND_RNG_QUASI_SOBOL64, 0, false);
  LIB_OK(rocrand_set_quasi_random_generator_dimensions(g, dims));
  LIB_OK(rocrand_set_offset(g, 3));
  double* d = nullptr;
  HIP_OK(hipMalloc(&d, dims * points * sizeof(double)));
  LIB_OK(rocrand_generate_uniform_double(g, d, dims * points));
  std::vector<double> u = toHost(d, dims * points), wantU(dims * points);
  gDigest.add(u);
  for (unsigned dim = 0; dim < dims; ++dim) {
    std::vector<uint32_t> v = ownDirections(dim);
    for (unsigned i = 0; i < points; ++i)
      wantU[dim * points + i] =
          std::ldexp(1.0, -53) + std::ldexp(static_cast<double>(sobolPoint(v.data(), 3 + i)), -32);
  }
  size_t bad = 0;
  for (size_t i = 0; i < u.size(); ++i) bad += std::memcmp(&u[i], &wantU[i], 8) != 0;
  check(bad == 0, "sobol64 uniform doubles from offset 3: " + std::to_string(bad) + " differ");
  HIP_OK(hipFree(d));
  LIB_OK(rocrand_destroy_generator(g));
}

// A pseudo-random generator checked statistically: uniform and normal floats, and its 32-bit
// output repeatable for one seed and different for another (at most 0.1% of the words equal by
// chance: the expected fraction is 2^-32 per word).
// The second generator is of type `againType`: for XORWOW, PSEUDO_DEFAULT, which is XORWOW
// (rocRAND 5.3, library/src/rocrand.cpp, rocrand_create_generator; this saves one engine
// initialisation, XORWOW's being the slowest kernel here).
void pseudo(rocrand_rng_type type, const char* name, rocrand_rng_type againType) {
  std::printf("%s\n", name);
  const size_t n = 65536;
  Timer t;
  rocrand_generator g = create(type, 1234);
  std::vector<uint32_t> first = generateUint(g, n);
  checkUniform(generateUniform(g, n), name);
  std::vector<float> z = generateNormal(g, n, 0.0f, 1.0f);
  checkNormal(z, name);
  LIB_OK(rocrand_destroy_generator(g));
  g = create(againType, 1234);
  std::vector<uint32_t> again = generateUint(g, n);
  check(countEqual(first, again) == n, std::string(name) +
                                           (againType != type ? " and the default generator" : "") +
                                           ": same seed, different output");
  LIB_OK(rocrand_set_seed(g, 4321));
  std::vector<uint32_t> other = generateUint(g, n);
  check(countEqual(first, other) < n / 1000, std::string(name) + ": another seed, same output");
  LIB_OK(rocrand_destroy_generator(g));
  std::printf("  %s: %.1f s\n", name, t.seconds());
}

}  // namespace

int main() {
  Timer total;
  printDevice();
  philox();
  printDigest("philox", gDigest);
  sobol32();
  printDigest("sobol32", gDigest);
  sobol64();
  printDigest("sobol64", gDigest);
  pseudo(ROCRAND_RNG_PSEUDO_PHILOX4_32_10, "PHILOX4_32_10 (statistics)",
         ROCRAND_RNG_PSEUDO_PHILOX4_32_10);
  pseudo(ROCRAND_RNG_PSEUDO_MRG32K3A, "MRG32K3A", ROCRAND_RNG_PSEUDO_MRG32K3A);
  printDigest("mrg32k3a", gDigest);
  pseudo(ROCRAND_RNG_PSEUDO_MTGP32, "MTGP32", ROCRAND_RNG_PSEUDO_MTGP32);
  printDigest("mtgp32", gDigest);
  pseudo(ROCRAND_RNG_PSEUDO_XORWOW, "XORWOW", ROCRAND_RNG_PSEUDO_DEFAULT);
  printDigest("xorwow", gDigest);
  {
    // QUASI_DEFAULT is a Sobol32 generator (library/src/rocrand.cpp, as above): its first
    // points of dimension 1 are exact.
    rocrand_generator g = create(ROCRAND_RNG_QUASI_DEFAULT, 0, false);
    std::vector<uint32_t> got = generateUint(g, 1024), want(1024);
    std::vector<uint32_t> v = ownDirections(0);
    for (unsigned i = 0; i < 1024; ++i) want[i] = sobolPoint(v.data(), i);
    expectEqual(got, want, "QUASI_DEFAULT points");
    LIB_OK(rocrand_destroy_generator(g));
  }
  printDigest("all", gDigest);
  std::printf("rocrand_generators: %d failure(s), host time %.1f s\n", failures(), total.seconds());
  return failures() == 0 ? 0 : 1;
}
