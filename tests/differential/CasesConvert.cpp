// Conversions (cl/convert.cl): every result is exact (the spec requires conversions correctly
// rounded in the named mode, saturation to the destination range and NaN -> 0 when saturating),
// so integers and floats are compared bit-exact.
#include <cmath>
#include <limits>
#include <optional>

#include "DiffHarness.h"

namespace vgpu::diff {
namespace {
const uint32_t kItems = 1024;

// convert_T_sat(NaN): OpenCL requires 0; clang-15 with ROCm-Device-Libs clamps first with
// fmax/fmin (v_med3_f32 or v_max/v_min, where a NaN operand loses) and then converts, so the
// gfx906 code returns the clamp's lower bound (T's minimum; 0 for unsigned T). `lows` holds that
// bound per field (nullopt: the field is not a saturating conversion).
template <typename In, typename Out>
void saturatedNaNs(const DiffCase& c, Buffers& expected,
                   const std::vector<std::optional<Out>>& lows) {
  const auto a = valuesOf<In>(c.args[0].bytes);
  auto out = valuesOf<Out>(expected[1]);
  for (size_t i = 0; i < a.size(); ++i)
    if (std::isnan(a[i]))
      for (size_t f = 0; f < lows.size(); ++f)
        if (lows[f]) out[i * lows.size() + f] = *lows[f];
  expected[1] = bytesOf(out);
}
}  // namespace

std::vector<DiffCase> convertCases() {
  std::vector<DiffCase> v;
  v.push_back(oneD("cvt_f32_to_int_sat", "convert", kItems, 256,
                   {input("a", floatInputs(kItems, 71)),
                    output<int32_t>("out", kItems,
                                    {"char_sat", "char_sat_rte", "char_sat_rtp", "char_sat_rtn",
                                     "uchar_sat", "uchar_sat_rte", "short_sat_rte", "short_sat_rtn",
                                     "ushort_sat_rtp", "ushort_sat", "int_sat", "int_sat_rte",
                                     "int_sat_rtp", "int_sat_rtn", "uint_sat", "uint_sat_rte"})}));
  v.back().platforms = {"tiny", "vega20"};
  v.back().toolchain = [](const DiffCase& c, Buffers& e) {
    const int32_t i8 = -128, i16 = -32768, i32 = std::numeric_limits<int32_t>::min();
    saturatedNaNs<float, int32_t>(c, e,
                                  {i8, i8, i8, i8, 0, 0, i16, i16, 0, 0, i32, i32, i32, i32, 0, 0});
  };
  {
    // Integers just above 2^24 and 2^53 are not representable: ties and near-ties.
    std::vector<int32_t> a = {16777217,   16777219,        -16777217,  16777215,   33554435,
                              2147483647, -2147483647 - 1, 2147483584, 2147483585, 2147483520};
    for (auto x : intInputs<int32_t>(kItems, 72)) a.push_back(x);
    a.resize(kItems);
    std::vector<int64_t> b = {9007199254740993LL,
                              9007199254740995LL,
                              16777217,
                              -16777219,
                              0x7fffffffffffffffLL,
                              (-0x7fffffffffffffffLL - 1),
                              0x7fffff8000000000LL,
                              0x7fffff8000000001LL,
                              -1,
                              0x0000008000008001LL};
    for (auto x : intInputs<int64_t>(kItems, 73)) b.push_back(x);
    b.resize(kItems);
    v.push_back(oneD("cvt_int_to_f32", "convert", kItems, 256,
                     {input("a", a), input("b", b),
                      output<float>("out", kItems,
                                    {"i32", "i32_rtz", "i32_rtp", "i32_rtn", "u32", "u32_rtz",
                                     "i64", "i64_rtz", "i64_rtp", "i64_rtn", "u64", "u64_rtp"})}));
  }
  v.push_back(oneD("cvt_int_narrow_sat", "convert", kItems, 256,
                   {input("a", intInputs<int64_t>(kItems, 74)),
                    output<int64_t>("out", kItems,
                                    {"i32>char", "i32>uchar", "i32>short", "i32>ushort", "i32>uint",
                                     "i64>int", "i64>uint", "i64>short", "i64>uchar", "i64>ulong",
                                     "u64>long", "u64>int", "char<>uchar", "short<>ushort"})}));
  v.push_back(oneD(
      "cvt_f64", "convert", kItems, 256,
      {input("a", doubleInputs(kItems, 75)),
       output<double>("out", kItems,
                      {"float", "float_rtz", "float_rtp", "float_rtn", "int_sat", "int_sat_rte",
                       "uint_sat_rtp", "char_sat_rtn", "long_sat", "ulong_sat_rte", "long_sat_rtz",
                       "via_float", "from_i64", "from_u64"})}));
  v.back().toolchain = [](const DiffCase& c, Buffers& e) {
    const double i32 = -2147483648.0, i64 = -9223372036854775808.0;
    const std::nullopt_t no = std::nullopt;
    saturatedNaNs<double, double>(
        c, e, {no, no, no, no, i32, i32, 0.0, -128.0, i64, 0.0, i64, no, no, no});
  };
  {
    std::vector<float> a = {9.2233720e18f,  -9.2233720e18f, 1.8446744e19f, 9.2233715e18f,
                            -9.2233725e18f, 1.8446743e19f,  4294967296.0f, 65535.9f};
    for (float f : floatInputs(kItems, 76)) a.push_back(f);
    a.resize(kItems);
    v.push_back(oneD("cvt_f32_to_i64", "convert", kItems, 256,
                     {input("a", a), output<int64_t>("out", kItems,
                                                     {"long_sat", "long_sat_rte", "long_sat_rtp",
                                                      "long_sat_rtn", "ulong_sat", "ulong_sat_rte",
                                                      "double_bits", "ushort_int_rtz"})}));
    v.back().toolchain = [](const DiffCase& c, Buffers& e) {
      const int64_t i64 = std::numeric_limits<int64_t>::min();
      // Field 7 packs ushort_sat (0) above int_sat (INT_MIN, as 32 bits).
      saturatedNaNs<float, int64_t>(c, e, {i64, i64, i64, i64, 0, 0, std::nullopt, 0x80000000LL});
    };
  }
  return v;
}

}  // namespace vgpu::diff
