// HIP kernels (hip/wave.hip, hip/half_double.hip) against CPU references written for 64-lane
// waves: __shfl/__shfl_xor/__shfl_down/__shfl_up follow HIP's definitions on ds_bpermute (the
// source lane is the index modulo 64), votes see only the active lanes, __half2 results are
// correctly rounded half operations, doubles are correctly rounded IEEE operations.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "DiffHarness.h"

namespace vgpu::diff {
namespace {

const uint32_t kItems = 512, kBlock = 256;

Buffers run(const DiffCase& c, const std::string& platform, const std::string& program) {
  return runOnVgpu(c, platform, codeObjectDir() + "/" + program + ".co", c.kernel);
}
// Expected buffers start as the initial contents (what the kernel leaves alone).
Buffers initial(const DiffCase& c) {
  Buffers b;
  for (const auto& a : c.args) b.push_back(a.isBuffer ? a.bytes : std::vector<uint8_t>{});
  return b;
}
std::vector<int32_t> moderateInts(size_t n, uint32_t seed) {
  std::mt19937 g(seed);
  std::vector<int32_t> v(n);
  for (auto& x : v) x = static_cast<int32_t>(g() % 2000001) - 1000000;
  return v;
}

// --- shuffles ---
int bpermute(const int32_t* wave, int index) {
  return wave[index & 63];
}
int shfl(int self, int src, int width) {
  return src + (self & ~(width - 1));
}
int shflUp(int self, int d, int width) {
  const int index = self - d;
  return index < (self & ~(width - 1)) ? self : index;
}
int shflDown(int self, int d, int width) {
  return (self & (width - 1)) + d >= width ? self : self + d;
}
int shflXor(int self, int mask, int width) {
  const int index = self ^ mask;
  return index >= ((self + width) & ~(width - 1)) ? self : index;
}

void shuffleTest(const std::string& platform) {
  auto in = moderateInts(kItems, 201);
  in[3] = std::numeric_limits<int32_t>::min();
  in[70] = std::numeric_limits<int32_t>::max();
  const auto src = intInputs<int32_t>(kItems, 202);
  DiffCase c = oneD(
      "wave_shfl", "wave", kItems, kBlock,
      {input("in", in), input("src", src),
       output<int32_t>("out", kItems,
                       {"shfl", "shfl_w16", "xor", "xor5_w8", "down", "down3_w32", "up", "up1_w4"}),
       output<double>("dout", kItems)});
  Buffers want = initial(c);
  std::vector<int32_t> out(8 * kItems);
  std::vector<double> dout(kItems);
  for (uint32_t i = 0; i < kItems; ++i) {
    const int lane = static_cast<int>(i % 64), s = src[i];
    const int32_t* w = &in[i - lane];
    int32_t* o = &out[8 * i];
    o[0] = bpermute(w, shfl(lane, s & 63, 64));
    o[1] = bpermute(w, shfl(lane, s & 15, 16));
    o[2] = bpermute(w, shflXor(lane, s & 63, 64));
    o[3] = bpermute(w, shflXor(lane, 5, 8));
    o[4] = bpermute(w, shflDown(lane, s & 63, 64));
    o[5] = bpermute(w, shflDown(lane, 3, 32));
    o[6] = bpermute(w, shflUp(lane, s & 63, 64));
    o[7] = bpermute(w, shflUp(lane, 1, 4));
    dout[i] = static_cast<double>(w[lane ^ 17]) * 0.5 +
              static_cast<double>(static_cast<float>(w[63 - (s & 63)]));
  }
  want[2] = bytesOf(out);
  want[3] = bytesOf(dout);
  {
    const std::string report = compare(c, want, run(c, platform, "wave"), "CPU reference");
    EXPECT_TRUE(report.empty()) << report;
  }
}

TEST(HipWave, ShufflesOnTiny) {
  shuffleTest("tiny");
}
TEST(HipWave, ShufflesOnVega20) {
  shuffleTest("vega20");
}

TEST(HipWave, BallotAnyAllPopcll) {
  auto in = moderateInts(kItems, 203);
  for (uint32_t i = 0; i < kItems; i += 97) in[i] = 12345;  // __any true in some waves only
  for (uint32_t i = 128; i < 192; ++i) in[i] = static_cast<int32_t>(i);  // a wave of positives
  DiffCase c = oneD("wave_vote", "wave", kItems, kBlock,
                    {input("in", in),
                     output<uint64_t>("ballots", kItems, {"ballot_gt0", "ballot_div", "ballot_1"}),
                     output<int32_t>("flags", kItems,
                                     {"any", "all", "popc", "any_div", "all_div", "popc_lane"})});
  std::vector<uint64_t> ballots(3 * kItems);
  std::vector<int32_t> flags(6 * kItems);
  for (uint32_t base = 0; base < kItems; base += 64) {
    uint64_t gt0 = 0, odd = 0, div = 0;
    bool any = false, all = true, anyDiv = false, allDiv = true;
    for (int l = 0; l < 64; ++l) {
      const int32_t v = in[base + l];
      gt0 |= uint64_t{v > 0} << l;
      odd |= uint64_t{(v & 1) != 0} << l;
      any |= v == 12345;
      all &= v != 0;
      if (v % 3 != 0) {
        div |= uint64_t{(v & 2) != 0} << l;
        anyDiv |= v < -1000;
        allDiv &= v > -100000;
      }
    }
    for (int l = 0; l < 64; ++l) {
      const uint32_t i = base + l;
      const bool active = in[i] % 3 != 0;
      ballots[3 * i] = gt0;
      ballots[3 * i + 1] = active ? div : 0;
      ballots[3 * i + 2] = ~uint64_t{0};
      flags[6 * i] = any, flags[6 * i + 1] = all, flags[6 * i + 2] = __builtin_popcountll(odd);
      flags[6 * i + 3] = active ? anyDiv : -1;
      flags[6 * i + 4] = active ? allDiv : -1;
      flags[6 * i + 5] = __builtin_popcountll(gt0 ^ ballots[3 * i + 1]) + l;
    }
  }
  Buffers want = initial(c);
  want[1] = bytesOf(ballots);
  want[2] = bytesOf(flags);
  {
    const std::string report = compare(c, want, run(c, "tiny", "wave"), "CPU reference");
    EXPECT_TRUE(report.empty()) << report;
  }
}

TEST(HipWave, WarpReductionsAndScan) {
  const auto in = moderateInts(kItems, 204);
  std::vector<float> fin(kItems);
  std::mt19937 g(205);
  for (auto& f : fin) f = std::ldexp(static_cast<float>(g() % 100000), -static_cast<int>(g() % 20));
  const uint32_t waves = kItems / 64;
  DiffCase c = oneD("wave_reduce", "wave", kItems, kBlock,
                    {input("in", in), input("fin", fin), output<int32_t>("sums", waves),
                     output<int32_t>("maxes", kItems), output<float>("fsums", waves),
                     output<int32_t>("scans", kItems)});
  std::vector<int32_t> sums(waves), maxes(kItems), scans(kItems);
  std::vector<float> fsums(waves);
  for (uint32_t w = 0; w < waves; ++w) {
    std::vector<uint32_t> s(64);
    std::vector<float> f(64);
    std::vector<int32_t> m(64), x(64);
    for (int l = 0; l < 64; ++l) s[l] = in[w * 64 + l], f[l] = fin[w * 64 + l];
    m.assign(in.begin() + w * 64, in.begin() + w * 64 + 64);
    x = m;
    for (int off = 32; off > 0; off >>= 1) {  // every lane, as the wave computes it
      auto s0 = s;
      auto f0 = f;
      for (int l = 0; l < 64; ++l) {
        s[l] = s0[l] + s0[shflDown(l, off, 64)];
        f[l] = f0[l] + f0[shflDown(l, off, 64)];
      }
    }
    for (int mask = 1; mask < 64; mask <<= 1) {
      auto m0 = m;
      for (int l = 0; l < 64; ++l) m[l] = std::max(m0[l], m0[shflXor(l, mask, 64)]);
    }
    for (int off = 1; off < 64; off <<= 1) {
      auto x0 = x;
      for (int l = off; l < 64; ++l) x[l] = x0[l] + x0[shflUp(l, off, 64)];
    }
    sums[w] = static_cast<int32_t>(s[0]);
    fsums[w] = f[0];
    for (int l = 0; l < 64; ++l) maxes[w * 64 + l] = m[l], scans[w * 64 + l] = x[l];
  }
  Buffers want = initial(c);
  want[2] = bytesOf(sums), want[3] = bytesOf(maxes), want[4] = bytesOf(fsums);
  want[5] = bytesOf(scans);
  {
    const std::string report = compare(c, want, run(c, "tiny", "wave"), "CPU reference");
    EXPECT_TRUE(report.empty()) << report;
  }
}

TEST(HipWave, WrappingIncDecCasAndFloatAtomics) {
  const std::vector<uint32_t> counters = {95, 3, 0};
  DiffCase c =
      oneD("wave_atomics", "wave", kItems, kBlock,
           {inout("counters", counters), output<uint32_t>("inc_old", kItems),
            output<uint32_t>("dec_old", kItems), inout("fsum", std::vector<float>{0.5f}),
            inout("dsum", std::vector<double>{1.0}), inout("cas", std::vector<uint64_t>{10, 7})});
  c.args[1].multiset = c.args[2].multiset = true;
  std::vector<uint32_t> inc(kItems), dec(kItems);
  float fsum = 0.5f;
  double dsum = 1.0;
  uint64_t casSum = 10;
  for (uint32_t k = 0; k < kItems; ++k) {
    inc[k] = (95 + k) % 101;           // atomicInc(p, 100): old >= 100 ? 0 : old + 1
    dec[k] = (3 + 38 * 100 - k) % 38;  // atomicDec(p, 37): old == 0 || old > 37 ? 37 : old - 1
    fsum += static_cast<float>(k % 7);
    dsum += k * 0.25;
    casSum += k;
  }
  Buffers want = initial(c);
  want[0] = bytesOf(std::vector<uint32_t>{(95 + kItems) % 101, (3 + 38 * 100 - kItems) % 38, 5});
  want[1] = bytesOf(inc), want[2] = bytesOf(dec);
  want[3] = bytesOf(std::vector<float>{fsum}), want[4] = bytesOf(std::vector<double>{dsum});
  want[5] = bytesOf(std::vector<uint64_t>{casSum, (kItems - 1) * 0x100000001ull});
  {
    const std::string report = compare(c, want, run(c, "tiny", "wave"), "CPU reference");
    EXPECT_TRUE(report.empty()) << report;
  }
}

// --- half and double ---
float halfToFloat(uint16_t h) {
  const int e = (h >> 10) & 31, m = h & 1023;
  const float sign = (h & 0x8000) ? -1.0f : 1.0f;
  if (e == 31) return m ? std::numeric_limits<float>::quiet_NaN() : sign * INFINITY;
  return sign * std::ldexp(static_cast<float>(e ? m + 1024 : m), (e ? e : 1) - 25);
}
// Round to nearest even; exact from a double holding an exact (or innocuously rounded) result.
uint16_t toHalf(double x) {
  if (std::isnan(x)) return 0x7e00;
  const uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  x = std::fabs(x);
  if (x >= 65520.0) return sign | 0x7c00;
  if (x < std::ldexp(1.0, -14))
    return sign | static_cast<uint16_t>(std::nearbyint(std::ldexp(x, 24)));
  int e;
  const double mant = std::frexp(x, &e);  // x = mant * 2^e, mant in [0.5, 1)
  auto m = static_cast<uint32_t>(std::nearbyint(std::ldexp(mant, 11)));  // 1024..2048
  if (m == 2048) m = 1024, ++e;
  if (e + 14 >= 31) return sign | 0x7c00;
  return sign | static_cast<uint16_t>((e + 14) << 10 | (m - 1024));
}

// Two halves per 32-bit word, as a __half2 holds them (low half first).
std::vector<uint32_t> packed(const std::vector<uint16_t>& h) {
  std::vector<uint32_t> v(h.size() / 2);
  for (size_t i = 0; i < v.size(); ++i) v[i] = h[2 * i] | uint32_t{h[2 * i + 1]} << 16;
  return v;
}

TEST(HipHalf2, PackedArithmetic) {
  std::vector<uint16_t> edges = {0x0000, 0x8000, 0x0001, 0x83ff, 0x0400, 0x7bff, 0xfbff, 0x7c00,
                                 0xfc00, 0x7e00, 0x3c00, 0xbc00, 0x3800, 0x3c01, 0x1400, 0x6800};
  auto halves = [&](uint32_t seed, size_t rot) {
    std::vector<uint16_t> v = intInputs<uint16_t>(2 * kItems, seed);
    for (size_t i = 0; i < 48; ++i) v[i] = edges[(i + rot) % edges.size()];
    for (auto& h : v)
      if ((h & 0x7c00) == 0x7c00 && (h & 0x3ff)) h |= 0x200;  // quiet NaNs only
    return v;
  };
  const auto a = halves(211, 0), b = halves(212, 5), cc = halves(213, 11);
  std::vector<std::string> fields;
  for (const char* f : {"add", "sub", "mul", "fma", "neg", "abs", "add_sat", "lt"})
    for (const char* h : {".lo", ".hi"}) fields.push_back(std::string(f) + h);
  Arg out = output<uint16_t>("out", kItems, fields);
  out.elem = Elem::F16;
  DiffCase c = oneD("half2_arith", "half_double", kItems, kBlock,
                    {input("a", packed(a)), input("b", packed(b)), input("c", packed(cc)), out});
  std::vector<uint16_t> want(16 * kItems);
  for (uint32_t i = 0; i < 2 * kItems; ++i) {  // each half of each __half2
    const double x = halfToFloat(a[i]), y = halfToFloat(b[i]), z = halfToFloat(cc[i]);
    uint16_t* o = &want[8 * (i & ~1u) + (i & 1)];
    o[0] = toHalf(x + y), o[2] = toHalf(x - y), o[4] = toHalf(x * y), o[6] = toHalf(x * y + z);
    o[8] = a[i] ^ 0x8000, o[10] = b[i] & 0x7fff;
    const double s = halfToFloat(toHalf(x + y));
    // HIP's __hadd2_sat clamps with compares (v_cmp_nlt/ngt + v_cndmask): NaN and -0 pass.
    o[12] = toHalf(s > 1 ? 1.0 : s < 0 ? 0.0 : s);
    o[14] = x < y ? 0x3c00 : 0;
  }
  Buffers expected = initial(c);
  expected[3] = bytesOf(want);
  {
    const std::string report = compare(c, expected, run(c, "tiny", "half_double"), "CPU reference");
    EXPECT_TRUE(report.empty()) << report;
  }
}

TEST(HipDouble, CorrectlyRoundedOperations) {
  const auto a = doubleInputs(kItems, 221), b = permuted(doubleInputs(kItems, 222), 7),
             cc = permuted(doubleInputs(kItems, 223), 19);
  DiffCase c = oneD("double_ops", "half_double", kItems, kBlock,
                    {input("a", a), input("b", b), input("c", cc),
                     output<double>("out", kItems,
                                    {"add", "mul_add", "fma", "div", "sqrt", "min_max", "horner",
                                     "float_floor_trunc"}),
                     output<int64_t>("ints", kItems, {"clamped", "flags"})});
  // IEEE min/max as v_min_f64/v_max_f64 do it: NaN loses, -0 < +0.
  auto fmin0 = [](double x, double y) {
    return x == 0 && y == 0 ? (std::signbit(x) ? x : y) : std::fmin(x, y);
  };
  auto fmax0 = [](double x, double y) {
    return x == 0 && y == 0 ? (std::signbit(x) ? y : x) : std::fmax(x, y);
  };
  std::vector<double> out(8 * kItems);
  std::vector<int64_t> ints(2 * kItems);
  for (uint32_t i = 0; i < kItems; ++i) {
    const double x = a[i], y = b[i], z = cc[i];
    double* o = &out[8 * i];
    const double prod = x * y;
    o[0] = x + y, o[1] = prod + z, o[2] = std::fma(x, y, z), o[3] = x / y;
    o[4] = std::sqrt(std::fabs(x)), o[5] = fmin0(x, y) - fmax0(y, z);
    double p = 0;
    for (int k = 0; k < 8; ++k) p = std::fma(p, x, k - 3.5);
    o[6] = p;
    o[7] = static_cast<double>(static_cast<float>(x)) + std::floor(y) + std::trunc(z);
    ints[2 * i] = static_cast<int64_t>(fmin0(fmax0(x, -9.0e18), 9.0e18));
    ints[2 * i + 1] = (x < y) | (x == y) << 1 | std::isnan(x) << 2 | std::signbit(z) << 3;
  }
  Buffers expected = initial(c);
  expected[3] = bytesOf(out), expected[4] = bytesOf(ints);
  {
    const std::string report = compare(c, expected, run(c, "tiny", "half_double"), "CPU reference");
    EXPECT_TRUE(report.empty()) << report;
  }
}

}  // namespace
}  // namespace vgpu::diff
