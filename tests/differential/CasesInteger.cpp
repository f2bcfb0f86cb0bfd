// Integer arithmetic, division and control-flow cases (cl/integer.cl, cl/division.cl,
// cl/control.cl). Integers are compared bit-exact.
#include <limits>
#include <random>

#include "DiffHarness.h"

namespace vgpu::diff {
namespace {

const uint32_t kItems = 1024;

// Divisors: never zero, and never -1 where the dividend is the minimum (both are undefined).
template <typename T>
std::vector<T> divisors(const std::vector<T>& a, uint32_t seed) {
  std::vector<T> b = intInputs<T>(a.size(), seed);
  std::mt19937 g(seed);
  for (size_t i = 0; i < b.size(); ++i) {
    if (i % 5 == 1) b[i] = static_cast<T>(static_cast<int>(g() % 19) - 9);  // small divisors
    if (b[i] == 0) b[i] = 3;
    if constexpr (std::is_signed_v<T>)
      if (b[i] == T(-1) && a[i] == std::numeric_limits<T>::min()) b[i] = 1;
  }
  return b;
}

}  // namespace

std::vector<DiffCase> integerCases() {
  std::vector<DiffCase> v;
  const std::vector<std::string> i32 = {
      "add",   "sub",      "mul",   "mul_hi",   "shl",          "ashr",    "rotate",
      "clz",   "popcount", "abs",   "abs_diff", "add_sat",      "sub_sat", "hadd",
      "rhadd", "minmax",   "clamp", "mad24",    "madhi_bitsel", "compare"};
  v.push_back(
      oneD("int32_ops", "integer", kItems, 256,
           {input("a", intInputs<int32_t>(kItems, 1)), input("b", intInputs<int32_t>(kItems, 2)),
            output<int32_t>("out", kItems, i32)}));
  v.back().platforms = {"tiny", "vega20"};
  v.push_back(
      oneD("uint32_ops", "integer", kItems, 256,
           {input("a", intInputs<uint32_t>(kItems, 3)), input("b", intInputs<uint32_t>(kItems, 4)),
            output<uint32_t>(
                "out", kItems,
                {"mul_add", "mul_hi", "shr", "rotate", "add_sat", "sub_sat", "hadd", "rhadd",
                 "abs_diff", "minmax", "mul24", "mad24", "upsample", "bfe", "bfi", "funnel"})}));
  v.push_back(
      oneD("int16_ops", "integer", kItems, 256,
           {input("a", intInputs<int16_t>(kItems, 5)), input("b", intInputs<int16_t>(kItems, 6)),
            output<int16_t>("out", kItems,
                            {"add", "mul", "mul_hi", "shl", "ashr", "lshr", "rotate", "clz",
                             "popcount", "add_sat", "sub_sat", "uadd_sat", "rhadd", "max_min"})}));
  v.push_back(
      oneD("int8_ops", "integer", kItems, 256,
           {input("a", intInputs<int8_t>(kItems, 7)), input("b", intInputs<int8_t>(kItems, 8)),
            output<int8_t>("out", kItems,
                           {"add", "mul", "mul_hi", "umul_hi", "ashr", "rotate", "clz", "popcount",
                            "add_sat", "sub_sat", "usub_sat", "hadd", "abs", "abs_diff"})}));
  v.push_back(
      oneD("int64_ops", "integer", kItems, 256,
           {input("a", intInputs<int64_t>(kItems, 9)), input("b", intInputs<int64_t>(kItems, 10)),
            output<int64_t>("out", kItems,
                            {"add", "sub", "mul", "mul_hi", "umul_hi", "shl", "ashr", "lshr",
                             "rotate", "clz", "popcount", "add_sat", "sub_sat", "abs", "hadd_rhadd",
                             "minmax", "compare", "mul32x32"})}));

  const std::vector<std::string> qr = {"quotient", "remainder"};
  {
    auto a = intInputs<int32_t>(kItems, 11);
    v.push_back(
        oneD("div_i32", "division", kItems, 256,
             {input("a", a), input("b", divisors(a, 12)), output<int32_t>("out", kItems, qr)}));
  }
  {
    auto a = intInputs<uint32_t>(kItems, 13);
    v.push_back(
        oneD("div_u32", "division", kItems, 256,
             {input("a", a), input("b", divisors(a, 14)), output<uint32_t>("out", kItems, qr)}));
  }
  {
    auto a = intInputs<int64_t>(kItems, 15);
    v.push_back(
        oneD("div_i64", "division", kItems, 256,
             {input("a", a), input("b", divisors(a, 16)), output<int64_t>("out", kItems, qr)}));
    v.back().platforms = {"tiny", "vega20"};
  }
  {
    auto a = intInputs<uint64_t>(kItems, 17);
    v.push_back(
        oneD("div_u64", "division", kItems, 256,
             {input("a", a), input("b", divisors(a, 18)), output<uint64_t>("out", kItems, qr)}));
  }
  {
    auto a = intInputs<int16_t>(kItems, 19);
    v.push_back(oneD("div_small", "division", kItems, 256,
                     {input("a", a), input("b", divisors(a, 20)),
                      output<int16_t>("out", kItems,
                                      {"i16_div", "i16_rem", "u16_div", "u16_rem", "i8_div",
                                       "i8_rem", "u8_div", "u8_rem"})}));
  }
  v.push_back(
      oneD("div_const", "division", kItems, 256,
           {input("a", intInputs<int32_t>(kItems, 21)), input("b", intInputs<int64_t>(kItems, 22)),
            output<int64_t>("out", kItems,
                            {"i32/7", "i32%7", "i32/-3", "u32/10", "u32%1000", "i32/16", "i32%16",
                             "i64/3", "i64%1000000007", "u64/10", "u64%60", "i64/-64"})}));

  {
    auto a = intInputs<int32_t>(kItems, 23);
    for (size_t i = 0; i < a.size(); i += 37) a[i] = 0x7fffffff;  // lanes that return at once
    v.push_back(oneD("control_divergence", "control", kItems, 128,
                     {input("a", a), output<int32_t>("out", kItems)}));
  }
  {
    DiffCase c;
    c.name = c.kernel = "workitem_3d";
    c.program = "control";
    c.global = {16, 12, 6};
    c.local = {8, 4, 2};
    c.offset = {5, 3, 1};
    c.args = {output<uint32_t>("out", 16 * 12 * 6,
                               {"global_id", "local_id", "group_id", "local_size", "num_groups",
                                "global_size", "global_offset", "dim_linear_id"})};
    c.platforms = {"tiny", "vega20"};
    v.push_back(c);
  }
  return v;
}

}  // namespace vgpu::diff
