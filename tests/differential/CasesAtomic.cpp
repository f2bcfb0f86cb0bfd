// Atomics (cl/atomics.cl): 4 workgroups of 256 work-items, each group on its own counters.
// Final values are compared exactly; the old values returned by xchg and inc (which depend on
// the order in which work-items reach the counter) as multisets.
#include <limits>

#include "DiffHarness.h"

namespace vgpu::diff {
namespace {
const uint32_t kItems = 1024, kGroup = 256, kGroups = kItems / kGroup, kCounters = 12;

// Initial counters per group: add, sub, xchg, inc, dec, min, max, and, or, xor, cas-add, cas-once.
template <typename T>
std::vector<T> initialCounters() {
  using L = std::numeric_limits<T>;
  std::vector<T> c;
  for (uint32_t g = 0; g < kGroups; ++g) {
    const T base = static_cast<T>(1000 * g);
    c.insert(c.end(),
             {base, static_cast<T>(base - 5), T(7), static_cast<T>(L::max() - 100), T(100),
              g == 3 ? L::min() : L::max(), g == 2 ? L::max() : L::min(), static_cast<T>(-1), T(0),
              static_cast<T>(0x5a5a5a5a5a5a5a5aull), static_cast<T>(g), T(0)});
  }
  return c;
}

template <typename T>
DiffCase atomicCase(const std::string& name, bool local, uint32_t seed) {
  Arg xret = output<T>("xchg_old", kItems + kGroups);
  xret.multiset = true;
  Arg iret = output<T>("inc_old", kItems);
  iret.multiset = true;
  Arg counters = input("counters", initialCounters<T>());
  if (local) counters.name = "init";
  DiffCase c = oneD(name, "atomics", kItems, kGroup,
                    {input("in", intInputs<T>(kItems, seed)), counters, xret, iret,
                     output<T>("final", kGroups,
                               {"add", "sub", "xchg", "inc", "dec", "min", "max", "and", "or",
                                "xor", "cas_loop_add", "cas_once"})});
  static_assert(kCounters == 12);
  return c;
}
}  // namespace

std::vector<DiffCase> atomicCases() {
  std::vector<DiffCase> v;
  v.push_back(atomicCase<int32_t>("atomics_global_i32", false, 81));
  v.back().platforms = {"tiny", "vega20"};
  v.push_back(atomicCase<uint32_t>("atomics_global_u32", false, 82));
  v.push_back(atomicCase<int32_t>("atomics_local_i32", true, 83));
  v.back().platforms = {"tiny", "vega20"};
  v.push_back(atomicCase<uint32_t>("atomics_local_u32", true, 84));
  v.push_back(atomicCase<int64_t>("atomics_global_i64", false, 85));
  v.push_back(atomicCase<uint64_t>("atomics_global_u64", false, 86));
  v.push_back(atomicCase<int64_t>("atomics_local_i64", true, 87));
  {
    std::vector<float> in = floatRange(kItems, 88, 1e-3f, 1e6f, false);
    for (size_t i = 0; i < in.size(); i += 3) in[i] = -in[i];
    in[5] = -0.0f;
    in[77] = std::numeric_limits<float>::infinity();
    in[300] = std::numeric_limits<float>::denorm_min();
    Arg xret = output<float>("xchg_old", 2 * kItems + 2 * kGroups);
    xret.multiset = true;
    std::vector<int32_t> maxbits(2 * kGroups, -1);  // -1: a NaN, replaced by the kernel
    for (uint32_t g = 0; g < kGroups; ++g) {
      float start = -5.0f + 1e5f * static_cast<float>(g);
      std::memcpy(&maxbits[g], &start, 4);
    }
    v.push_back(oneD("atomics_float", "atomics", kItems, kGroup,
                     {input("in", in), input("cell", std::vector<float>{1.5f, -2.0f, 0.0f, 9.0f}),
                      xret, inout("maxbits", maxbits)}));
  }
  return v;
}

}  // namespace vgpu::diff
