// Basic float/double arithmetic, rounding, classification and half storage (cl/float.cl).
//
// ULP budgets. PoCL's CPU device reports correctly rounded divide and sqrt (clinfo) and IEEE
// denormals; clang-15 compiles OpenCL C for gfx906 with IEEE f32 denormals (gfx9 has fast f32
// denormal support), so denormal inputs and results are not flushed on either side.
// - +, -, *, fma, fmin, fmax, fabs, copysign, fdim, floor/ceil/trunc/rint/round, ldexp, frexp,
//   ilogb, logb, fmod, nextafter: the OpenCL spec (1.2 s7.4, table 7.1) requires them correctly
//   rounded or exact: budget 0. FP_CONTRACT is OFF in float.cl, so a * b + c is two roundings
//   on both devices.
// - float x / y and 1 / x: the spec allows 2.5 ulp; PoCL's result is correctly rounded (0.5 ulp),
//   so the two may differ by up to 3 ulp. Double division is correctly rounded: budget 0.
#include <cmath>
#include <limits>

#include "DiffHarness.h"

namespace vgpu::diff {
namespace {
const uint32_t kItems = 1024;

// round(x) for -0.5 < x <= -0: clang-15 lowers llvm.round on AMDGPU to trunc(x) + select(|x -
// trunc(x)| >= 0.5, copysign(1, x), 0) (v_trunc, v_sub, v_cmp_ge, v_cndmask, v_add), and
// -0 + +0 = +0, so gfx906 returns +0 where OpenCL (and PoCL) return -0.
template <typename F>
void roundOfSmallNegatives(const DiffCase& c, Buffers& expected, size_t field, size_t fields) {
  const auto a = valuesOf<F>(c.args[0].bytes);
  auto out = valuesOf<F>(expected[2]);
  for (size_t i = 0; i < a.size(); ++i)
    if (std::signbit(a[i]) && a[i] > F(-0.5)) out[i * fields + field] = F(0);
  expected[2] = bytesOf(out);
}
}  // namespace

std::vector<DiffCase> floatCases() {
  std::vector<DiffCase> v;
  {
    Arg out = output<float>(
        "out", kItems,
        {"add", "sub", "mul", "div", "mul_add", "fmin", "fmax", "abs_copysign", "recip", "fdim"});
    out.fieldUlps = {0, 0, 0, 3, 0, 0, 0, 0, 3, 0};
    v.push_back(
        oneD("f32_arith", "float", kItems, 256,
             {input("a", floatInputs(kItems, 31)), input("b", permuted(floatInputs(kItems, 32), 5)),
              input("c", permuted(floatInputs(kItems, 33), 17)), out}));
    v.back().platforms = {"tiny", "vega20"};
  }
  v.push_back(
      oneD("f32_round", "float", kItems, 256,
           {input("a", floatInputs(kItems, 34)), input("b", permuted(floatInputs(kItems, 35), 9)),
            output<float>("out", kItems,
                          {"floor", "ceil", "trunc", "rint", "round", "ldexp", "frexp_mant",
                           "frexp_exp", "ilogb", "fmod", "nextafter", "logb"})}));
  v.back().toolchain = [](const DiffCase& c, Buffers& e) {
    roundOfSmallNegatives<float>(c, e, 4, 12);
  };
  v.push_back(oneD(
      "f32_classify", "float", kItems, 256,
      {input("a", floatInputs(kItems, 36)), input("b", permuted(floatInputs(kItems, 37), 3)),
       output<int32_t>("out", kItems,
                       {"isnan", "isinf", "isfinite", "isnormal", "signbit", "eq_ne", "lt_le",
                        "gt_ge", "lg_unord_ord", "operators", "select", "ternary_bitselect"})}));
  v.push_back(
      oneD("f64_arith", "float", kItems, 256,
           {input("a", doubleInputs(kItems, 38)), input("b", permuted(doubleInputs(kItems, 39), 7)),
            input("c", permuted(doubleInputs(kItems, 40), 21)),
            output<double>("out", kItems,
                           {"add", "sub", "mul", "div", "mul_add", "fma", "fmin", "fmax", "sqrt",
                            "abs_copysign", "recip"})}));
  v.push_back(oneD(
      "f64_round", "float", kItems, 256,
      {input("a", doubleInputs(kItems, 41)), input("b", permuted(doubleInputs(kItems, 42), 11)),
       output<double>("out", kItems,
                      {"floor", "ceil", "trunc", "rint", "round", "ldexp", "frexp_mant",
                       "frexp_exp", "ilogb", "fmod", "classify"})}));
  v.back().toolchain = [](const DiffCase& c, Buffers& e) {
    roundOfSmallNegatives<double>(c, e, 4, 11);
  };
  {
    // float -> half around every boundary: the largest half (65504), the overflow tie (65520),
    // half denormals (2^-24 = 5.96e-8) and their ties, ties between normal halves.
    std::vector<float> a = {
        65504.0f,       65519.996f,     65520.0f,      65536.0f,     -65520.0f,    1e-5f,
        5.9604645e-8f,  2.9802322e-8f,  2.9802326e-8f, 8.940697e-8f, 6.097555e-5f, 6.1035156e-5f,
        1.00048828125f, 1.00146484375f, 2049.0f,       2051.0f,      -2049.0f,     0.33333334f};
    for (float f : floatInputs(kItems, 43)) a.push_back(f);
    a.resize(kItems);
    std::vector<uint16_t> h = {0x0000, 0x8000, 0x0001, 0x03ff, 0x0400, 0x7bff, 0x7c00,
                               0xfc00, 0x7e00, 0x7c01, 0xfe01, 0x3c00, 0xbc00, 0x3555};
    for (uint16_t x : intInputs<uint16_t>(kItems, 44)) h.push_back(x);
    h.resize(kItems);
    Arg out = output<uint16_t>("half", kItems, {"default", "rte", "rtz", "rtp", "rtn", "const"});
    out.elem = Elem::F16;
    v.push_back(oneD("f16_storage", "float", kItems, 256,
                     {input("a", a), input("h", h), out, output<float>("wide", kItems)}));
  }
  return v;
}

}  // namespace vgpu::diff
