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
    // 1.0f / x: clang-15 lowers it to llvm.amdgcn.fdiv.fast (s = |x| > 2^96 ? 2^-32 : 1;
    // s * v_rcp_f32(x * s)), and v_rcp_f32 does not support denormals (LLVM SIISelLowering
    // lowerFastUnsafeFDIV comment): a denormal x is flushed to +-0 and the result is +-inf.
    v.back().toolchain = [](const DiffCase& c, Buffers& e) {
      const auto a = valuesOf<float>(c.args[0].bytes);
      auto out = valuesOf<float>(e[3]);
      for (size_t i = 0; i < a.size(); ++i) {
        float& recip = out[i * 10 + 8];
        if (std::fpclassify(a[i]) == FP_SUBNORMAL)
          recip = std::copysign(std::numeric_limits<float>::infinity(), a[i]);
      }
      e[3] = bytesOf(out);
    };
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
  {
    // cl/ftz.cl, built with -cl-denorms-are-zero: the kernel descriptor's FLOAT_DENORM_MODE_32
    // is 0, so gfx906 flushes f32 denormal sources and results to zero of the same sign (MODE
    // FP_DENORM; the option allows it, OpenCL 1.2 s5.6.4.2). PoCL builds without the option and
    // keeps denormals: the elements where a source or the result is denormal are rewritten to
    // the flushed computation. First items: a denormal source, a denormal result from normal
    // sources, a negative denormal, a sum that is denormal.
    std::vector<float> a = {0x1p-149f, 0x1p-126f, -0x1p-140f, 0x1.8p-126f, 0x1p-126f};
    std::vector<float> b = {0x1p100f, 0.5f, 1.0f, -0x1p-126f, 0x1p-149f};
    for (float f : floatInputs(kItems, 51)) a.push_back(f);
    for (float f : permuted(floatInputs(kItems, 52), 13)) b.push_back(f);
    a.resize(kItems);
    b.resize(kItems);
    v.push_back(oneD("f32_ftz", "ftz", kItems, 256,
                     {input("a", a), input("b", b), output<float>("out", kItems, {"mul", "add"})}));
    v.back().toolchain = [](const DiffCase& c, Buffers& e) {
      const auto x = valuesOf<float>(c.args[0].bytes), y = valuesOf<float>(c.args[1].bytes);
      auto out = valuesOf<float>(e[2]);
      const auto denormal = [](float f) { return std::fpclassify(f) == FP_SUBNORMAL; };
      const auto ftz = [&](float f) { return denormal(f) ? std::copysign(0.0f, f) : f; };
      for (size_t i = 0; i < x.size(); ++i) {
        const bool in = denormal(x[i]) || denormal(y[i]);
        if (in || denormal(out[2 * i])) out[2 * i] = ftz(ftz(x[i]) * ftz(y[i]));
        if (in || denormal(out[2 * i + 1])) out[2 * i + 1] = ftz(ftz(x[i]) + ftz(y[i]));
      }
      e[2] = bytesOf(out);
    };
  }
  return v;
}

}  // namespace vgpu::diff
