// Value checks for every VOPC compare (v_cmp_*, v_cmpx_*, v_cmp_class_*): each lane compares
// its own pair of inputs, and the 64-bit mask written to VCC (or SDST for VOP3), and to EXEC for
// v_cmpx, is compared with one worked out here from the opcode definitions of the Vega ISA
// reference guide (section 12.8, "VOPC Instructions": lt/eq/le/gt/lg/ge/o/u and their negations
// nge/nlg/ngt/nle/neq/nlt for floats, f/lt/eq/le/gt/ne/ge/t for integers; class masks per
// section 12.8 v_cmp_class_f32). VOP3 forms also apply the neg and abs input modifiers
// (section 12.12, "VOP3 input modifiers").
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>

#include "ValueCheck.h"

namespace vgpu::isa::test {
namespace {

using Pred = std::function<bool(double, double)>;

bool unord(double a, double b) {
  return std::isnan(a) || std::isnan(b);
}

const std::vector<std::pair<std::string, Pred>>& floatPreds() {
  static const std::vector<std::pair<std::string, Pred>> p = {
      {"f", [](double, double) { return false; }},
      {"lt", [](double a, double b) { return a < b; }},
      {"eq", [](double a, double b) { return a == b; }},
      {"le", [](double a, double b) { return a <= b; }},
      {"gt", [](double a, double b) { return a > b; }},
      {"lg", [](double a, double b) { return a < b || a > b; }},
      {"ge", [](double a, double b) { return a >= b; }},
      {"o", [](double a, double b) { return !unord(a, b); }},
      {"u", [](double a, double b) { return unord(a, b); }},
      {"nge", [](double a, double b) { return !(a >= b); }},
      {"nlg", [](double a, double b) { return !(a < b || a > b); }},
      {"ngt", [](double a, double b) { return !(a > b); }},
      {"nle", [](double a, double b) { return !(a <= b); }},
      {"neq", [](double a, double b) { return !(a == b); }},
      {"nlt", [](double a, double b) { return !(a < b); }},
      {"tru", [](double, double) { return true; }},
  };
  return p;
}

const double kNan = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

// Pairs every float type can hold exactly (no denormals: MODE flushes them).
const std::vector<std::pair<double, double>> kFloatPairs = {
    {1, 2},        {2, 1},       {1, 1},   {-0.0, 0.0}, {kNan, 1},   {1, kNan}, {kNan, kNan},
    {-kInf, kInf}, {kInf, kInf}, {-1, -2}, {-2, -1},    {0.5, -0.5}, {-3, 3},   {65504, -kInf},
};

// IEEE half bits of a value above (all exact in binary16).
uint32_t halfBits(double d) {
  if (std::isnan(d)) return 0x7e00;
  const uint32_t sign = std::signbit(d) ? 0x8000 : 0;
  d = std::fabs(d);
  if (std::isinf(d)) return sign | 0x7c00;
  if (d == 0) return sign;
  int e;
  const double m = std::frexp(d, &e);  // d = m * 2^e, m in [0.5, 1)
  const uint32_t mant = static_cast<uint32_t>((m * 2 - 1) * 1024);
  return sign | static_cast<uint32_t>((e - 1 + 15) << 10) | mant;
}

enum class FType { F16, F32, F64 };

// Sets lane l's sources (v0 / v[0:1] and v2 / v[2:3]) to `a` and `b` in the given type; the
// high half of the 16-bit sources holds garbage that the compares must ignore.
void setFloat(Case& c, int lane, FType t, double a, double b) {
  const std::string l = "@" + std::to_string(lane);
  switch (t) {
    case FType::F16:
      c.in.push_back({"v0" + l, 0xdead0000u | halfBits(a)});
      c.in.push_back({"v2" + l, 0xbeef0000u | halfBits(b)});
      break;
    case FType::F32:
      c.in.push_back({"v0" + l, f32(static_cast<float>(a))});
      c.in.push_back({"v2" + l, f32(static_cast<float>(b))});
      break;
    case FType::F64:
      c.in.push_back({"v0" + l, lo(f64(a))});
      c.in.push_back({"v1" + l, hi(f64(a))});
      c.in.push_back({"v2" + l, lo(f64(b))});
      c.in.push_back({"v3" + l, hi(f64(b))});
      break;
  }
}

void addMaskOut(Case& c, const std::string& dst, uint64_t mask, bool cmpx) {
  if (dst == "vcc") {
    c.out.push_back({"vcc", mask});
  } else {
    c.out.push_back({"s10", lo(mask)});
    c.out.push_back({"s11", hi(mask)});
  }
  if (cmpx) c.out.push_back({"exec", mask});
}

TEST(CompareValues, FloatComparesAndCmpxMatchDefinitions) {
  std::vector<Case> cases;
  const std::pair<FType, std::string> types[] = {
      {FType::F16, "f16"}, {FType::F32, "f32"}, {FType::F64, "f64"}};
  for (const auto& [type, suffix] : types) {
    const bool wide = type == FType::F64;
    const std::string s0 = wide ? "v[0:1]" : "v0", s1 = wide ? "v[2:3]" : "v2";
    for (const auto& [name, pred] : floatPreds()) {
      for (const std::string cmp : {"v_cmp_", "v_cmpx_"}) {
        const std::string op = cmp + name + "_" + suffix;
        // e32: plain operands into VCC; e64: -src0 and |src1| into s[10:11].
        for (const bool e64 : {false, true}) {
          Case c;
          c.text = e64 ? op + "_e64 s[10:11], -" + s0 + ", |" + s1 + "|"
                       : op + "_e32 vcc, " + s0 + ", " + s1;
          uint64_t mask = 0;
          for (int l = 0; l < 64; ++l) {
            const auto& [a, b] = kFloatPairs[static_cast<size_t>(l) % kFloatPairs.size()];
            setFloat(c, l, type, a, b);
            const bool bit = e64 ? pred(-a, std::fabs(b)) : pred(a, b);
            mask |= static_cast<uint64_t>(bit) << l;
          }
          addMaskOut(c, e64 ? "s" : "vcc", mask, cmp == "v_cmpx_");
          cases.push_back(c);
        }
      }
    }
  }
  checkCases(cases);
}

TEST(CompareValues, IntegerComparesAndCmpxMatchDefinitions) {
  using IPred = std::function<bool(int64_t, int64_t)>;
  const std::vector<std::pair<std::string, IPred>> preds = {
      {"f", [](int64_t, int64_t) { return false; }},
      {"lt", [](int64_t a, int64_t b) { return a < b; }},
      {"eq", [](int64_t a, int64_t b) { return a == b; }},
      {"le", [](int64_t a, int64_t b) { return a <= b; }},
      {"gt", [](int64_t a, int64_t b) { return a > b; }},
      {"ne", [](int64_t a, int64_t b) { return a != b; }},
      {"ge", [](int64_t a, int64_t b) { return a >= b; }},
      {"t", [](int64_t, int64_t) { return true; }},
  };
  // Raw 64-bit patterns; each type reads its width (16, 32 or 64 bits) as signed or unsigned.
  const std::vector<std::pair<uint64_t, uint64_t>> pairs = {
      {1, 2},
      {2, 1},
      {7, 7},
      {0, 0xffffffffffffffffull},
      {0xffffffffffffffffull, 0},
      {0x8000, 0x7fff},
      {0x80000000, 0x7fffffff},
      {0x8000000000000000ull, 0x7fffffffffffffffull},
      {0x100000005ull, 0x200000005ull},  // equal low dwords, different high dwords
      {0x12340001, 0x56780001},          // equal low halves
      {0xfffe, 0xffff},
      {0, 0},
      {0xffff8000, 0x00000001},
  };
  struct IType {
    std::string suffix;
    int bits;
    bool isSigned;
  };
  const IType types[] = {{"i16", 16, true},  {"u16", 16, false}, {"i32", 32, true},
                         {"u32", 32, false}, {"i64", 64, true},  {"u64", 64, false}};
  auto value = [](uint64_t raw, const IType& t) -> int64_t {
    if (t.bits == 64) return t.isSigned ? static_cast<int64_t>(raw) : static_cast<int64_t>(raw);
    const uint64_t m = raw & ((1ull << t.bits) - 1);
    if (!t.isSigned) return static_cast<int64_t>(m);
    return t.bits == 16 ? static_cast<int16_t>(m) : static_cast<int32_t>(m);
  };
  std::vector<Case> cases;
  for (const IType& t : types) {
    const bool wide = t.bits == 64;
    const std::string s0 = wide ? "v[0:1]" : "v0", s1 = wide ? "v[2:3]" : "v2";
    for (const auto& [name, pred] : preds) {
      for (const std::string cmp : {"v_cmp_", "v_cmpx_"}) {
        const std::string op = cmp + name + "_" + t.suffix;
        for (const bool e64 : {false, true}) {
          Case c;
          c.text =
              e64 ? op + "_e64 s[10:11], " + s0 + ", " + s1 : op + "_e32 vcc, " + s0 + ", " + s1;
          uint64_t mask = 0;
          for (int l = 0; l < 64; ++l) {
            const auto& [a, b] = pairs[static_cast<size_t>(l) % pairs.size()];
            const std::string at = "@" + std::to_string(l);
            c.in.push_back({"v0" + at, lo(a)});
            c.in.push_back({"v1" + at, hi(a)});
            c.in.push_back({"v2" + at, lo(b)});
            c.in.push_back({"v3" + at, hi(b)});
            bool bit;
            if (wide && !t.isSigned)
              bit = name == "f"    ? false
                    : name == "lt" ? a < b
                    : name == "eq" ? a == b
                    : name == "le" ? a <= b
                    : name == "gt" ? a > b
                    : name == "ne" ? a != b
                    : name == "ge" ? a >= b
                                   : true;
            else
              bit = pred(value(a, t), value(b, t));
            mask |= static_cast<uint64_t>(bit) << l;
          }
          addMaskOut(c, e64 ? "s" : "vcc", mask, cmp == "v_cmpx_");
          cases.push_back(c);
        }
      }
    }
  }
  checkCases(cases);
}

// v_cmp_class_*: S1 is a mask of classes (bit 0 signalling NaN, 1 quiet NaN, 2 -inf,
// 3 -normal, 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf); the result is whether
// S0's class is in the mask. Denormals enabled in MODE so that they keep their class.
TEST(CompareValues, ClassComparesMatchDefinitions) {
  struct Sample {
    uint64_t f16, f32, f64;
    int cls;
  };
  const Sample samples[] = {
      {0x7d00, 0x7fa00000, 0x7ff4000000000000ull, 0},  // signalling NaN
      {0x7e00, 0x7fc00000, 0x7ff8000000000000ull, 1},  // quiet NaN
      {0xfc00, 0xff800000, 0xfff0000000000000ull, 2},  // -inf
      {0xc000, 0xc0000000, 0xc000000000000000ull, 3},  // -2
      {0x8001, 0x80000001, 0x8000000000000001ull, 4},  // -denormal
      {0x8000, 0x80000000, 0x8000000000000000ull, 5},  // -0
      {0x0000, 0x00000000, 0x0000000000000000ull, 6},  // +0
      {0x03ff, 0x007fffff, 0x000fffffffffffffull, 7},  // +denormal
      {0x3c00, 0x3f800000, 0x3ff0000000000000ull, 8},  // +1
      {0x7c00, 0x7f800000, 0x7ff0000000000000ull, 9},  // +inf
  };
  std::vector<Case> cases;
  for (const std::string type : {"f16", "f32", "f64"}) {
    const bool wide = type == "f64";
    for (const std::string cmp : {"v_cmp_class_", "v_cmpx_class_"}) {
      for (const bool e64 : {false, true}) {
        Case c;
        c.mode = 0xf0;  // FP32 and FP64/FP16 denormals kept
        const std::string s0 = wide ? "v[0:1]" : "v0";
        c.text = e64 ? cmp + type + "_e64 s[10:11], " + s0 + ", v2"
                     : cmp + type + "_e32 vcc, " + s0 + ", v2";
        uint64_t mask = 0;
        for (int l = 0; l < 64; ++l) {
          const Sample& s = samples[l % 10];
          // Lanes 0-9 test their own class bit, 10-19 every other class, then single bits.
          const uint32_t classes = l < 10   ? 1u << s.cls
                                   : l < 20 ? 0x3ffu & ~(1u << s.cls)
                                            : 1u << (l % 7 + l / 30);
          const uint64_t bits = type == "f16" ? s.f16 : (type == "f32" ? s.f32 : s.f64);
          const std::string at = "@" + std::to_string(l);
          c.in.push_back({"v0" + at, lo(bits)});
          c.in.push_back({"v1" + at, hi(bits)});
          c.in.push_back({"v2" + at, classes});
          mask |= static_cast<uint64_t>((classes >> s.cls) & 1) << l;
        }
        addMaskOut(c, e64 ? "s" : "vcc", mask, cmp == "v_cmpx_class_");
        cases.push_back(c);
      }
    }
  }
  checkCases(cases);
}

}  // namespace
}  // namespace vgpu::isa::test
