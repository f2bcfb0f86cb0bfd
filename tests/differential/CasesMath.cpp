// Math builtins (cl/math.cl). Budgets: the OpenCL 1.2 spec's maximum error for the function
// (s7.4, tables 7.1 and 7.2: the AMD side, ocml from ROCm-Device-Libs, is written to meet them)
// plus PoCL's own error: 0.5 ulp for its correctly rounded sqrt and fma, and up to 1 ulp for its
// transcendental functions (PoCL's kernel library is built on SLEEF's 1.0-ulp "u10" variants).
//   sqrt f32: 3 + 0.5 -> 4      rsqrt f32: 2 + 1 -> 3          fma: correctly rounded -> 0
//   exp, exp2, exp10, log, log2, log10: 3 + 1 -> 4                sin, cos: 4 + 1 -> 5
//   pow, pown: 16 + 1 -> 17
//   double: sqrt correctly rounded -> 0; rsqrt 2 + 1 -> 3; exp, log 3 + 1 -> 4;
//           sin, cos 4 + 1 -> 5; pow 16 + 1 -> 17
// Special values (inf, NaN, +-0, negative arguments) must agree exactly: their distance to any
// finite value exceeds every budget.
#include <random>

#include "DiffHarness.h"

namespace vgpu::diff {
namespace {
const uint32_t kItems = 1024;

Arg mathOut(const std::string& name, std::vector<std::string> fields, std::vector<int> ulps,
            bool isDouble) {
  Arg a = isDouble ? output<double>(name, kItems, std::move(fields))
                   : output<float>(name, kItems, std::move(fields));
  a.fieldUlps = std::move(ulps);
  return a;
}

// Edges, then half spread over [-lim, lim] uniformly and half any float.
std::vector<float> around(float lim, uint32_t seed) {
  std::vector<float> v = floatInputs(kItems, seed);
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> u(-lim, lim);
  for (size_t i = 64; i < v.size(); i += 2) v[i] = u(g);
  return v;
}
std::vector<double> aroundD(double lim, uint32_t seed) {
  std::vector<double> v = doubleInputs(kItems, seed);
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> u(-lim, lim);
  for (size_t i = 64; i < v.size(); i += 2) v[i] = u(g);
  return v;
}
}  // namespace

std::vector<DiffCase> mathCases() {
  std::vector<DiffCase> v;
  v.push_back(oneD(
      "math_sqrt_f32", "math", kItems, 256,
      {input("a", floatInputs(kItems, 51)), mathOut("out", {"sqrt", "rsqrt"}, {4, 3}, false)}));
  // sqrt(x) for denormal x: clang-15 lowers llvm.sqrt.f32 to a bare v_sqrt_f32, which ignores
  // denormals (flushes its input: LLVM SIISelLowering lowerFSQRTF32, "Instruction is 1ulp but
  // ignores denormals"; LLVM 17 added the input scaling), so gfx906 returns +-0 where OpenCL
  // (and PoCL) return the root or, for negative denormals, NaN.
  v.back().toolchain = [](const DiffCase& c, Buffers& e) {
    const auto a = valuesOf<float>(c.args[0].bytes);
    auto out = valuesOf<float>(e[1]);
    for (size_t i = 0; i < a.size(); ++i)
      if (std::fpclassify(a[i]) == FP_SUBNORMAL) out[2 * i] = std::copysign(0.0f, a[i]);
    e[1] = bytesOf(out);
  };
  v.push_back(oneD("math_exp_f32", "math", kItems, 256,
                   {input("a", around(100.0f, 52)),
                    mathOut("out", {"exp", "exp2", "exp10"}, {4, 4, 4}, false)}));
  v.push_back(oneD("math_log_f32", "math", kItems, 256,
                   {input("a", floatRange(kItems, 53, 1e-38f, 1e38f, true)),
                    mathOut("out", {"log", "log2", "log10"}, {4, 4, 4}, false)}));
  v.push_back(oneD("math_sincos_f32", "math", kItems, 256,
                   {input("a", around(20.0f, 54)), mathOut("out", {"sin", "cos"}, {5, 5}, false)}));
  v.push_back(oneD("math_pow_f32", "math", kItems, 256,
                   {input("a", floatRange(kItems, 55, 1e-3f, 1e3f, true)),
                    input("b", permuted(around(30.0f, 56), 13)),
                    mathOut("out", {"pow", "pown"}, {17, 17}, false)}));
  v.push_back(oneD(
      "math_fma_f32", "math", kItems, 256,
      {input("a", floatInputs(kItems, 57)), input("b", permuted(floatInputs(kItems, 58), 19)),
       input("c", permuted(floatInputs(kItems, 59), 29)), mathOut("out", {"fma"}, {0}, false)}));
  v.push_back(
      oneD("math_sqrt_fma_f64", "math", kItems, 256,
           {input("a", doubleInputs(kItems, 60)), input("b", permuted(doubleInputs(kItems, 61), 5)),
            input("c", permuted(doubleInputs(kItems, 62), 23)),
            mathOut("out", {"sqrt", "rsqrt", "fma"}, {0, 3, 0}, true)}));
  v.push_back(oneD("math_exp_log_f64", "math", kItems, 256,
                   {input("a", aroundD(700.0, 63)), mathOut("out", {"exp", "log"}, {4, 4}, true)}));
  v.push_back(oneD("math_trig_pow_f64", "math", kItems, 256,
                   {input("a", aroundD(30.0, 64)), input("b", permuted(aroundD(20.0, 65), 31)),
                    mathOut("out", {"sin", "cos", "pow"}, {5, 5, 17}, true)}));
  return v;
}

}  // namespace vgpu::diff
