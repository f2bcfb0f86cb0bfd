// One test per OpenCL C kernel and platform: the kernel runs on PoCL (the reference) and on the
// model, and every checked output must agree (see DiffHarness.h for the comparison rules).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "DiffHarness.h"

namespace vgpu::diff {
namespace {

struct Param {
  std::string name;
  std::string platform;
  friend void PrintTo(const Param& p, std::ostream* os) { *os << p.name << " on " << p.platform; }
};

class Differential : public ::testing::TestWithParam<Param> {};

TEST_P(Differential, MatchesPocl) {
  const DiffCase c = findCase(GetParam().name);
  Buffers expected = runOnPocl(c);
  if (c.toolchain) c.toolchain(c, expected);
  Buffers actual;
  try {
    actual = runOnVgpu(c, GetParam().platform, codeObjectDir() + "/" + c.program + ".co", c.kernel);
  } catch (const std::exception& e) {
    // Image sampling, gather4 and get_lod fault as "not modelled yet" until the texture unit
    // models them: those image cases wait for it, naming the instruction.
    if (c.program == "images" && std::string(e.what()).find("not modelled") != std::string::npos)
      GTEST_SKIP() << c.kernel << " waits for the model's image sampling: " << e.what();
    FAIL() << c.kernel << " did not complete on vgpu: " << e.what();
  }
  {
    const std::string report = compare(c, expected, actual);
    EXPECT_TRUE(report.empty()) << report;
  }
}

std::vector<Param> params() {
  std::vector<Param> p;
  for (const auto& c : allCases())
    for (const auto& platform : c.platforms) p.push_back({c.name, platform});
  return p;
}

INSTANTIATE_TEST_SUITE_P(Cl, Differential, ::testing::ValuesIn(params()),
                         [](const ::testing::TestParamInfo<Param>& info) {
                           return info.param.name + "_on_" + info.param.platform;
                         });

// The comparison must be able to fail: PoCL's own results pass, corrupted ones are reported with
// the argument, the item and both values. Runs on PoCL only, so it does not depend on the model.
TEST(DifferentialSelfCheck, CorruptedOutputsAreReported) {
  const DiffCase c = findCase("int32_ops");
  const Buffers ref = runOnPocl(c);
  ASSERT_EQ(compare(c, ref, ref), "");
  size_t out = 0;
  while (!c.args[out].checked) ++out;
  Buffers bad = ref;
  bad[out][4 * 37] ^= 1;
  const std::string report = compare(c, ref, bad);
  EXPECT_NE(report.find("1 of "), std::string::npos) << report;
  EXPECT_NE(report.find("out["), std::string::npos) << report;
  // A kernel that writes nothing leaves the fill pattern, which PoCL's results never equal.
  Buffers untouched = ref;
  untouched[out] = c.args[out].bytes;
  EXPECT_NE(compare(c, ref, untouched), "");
}

// Order-dependent results: a permutation passes, a changed value does not.
TEST(DifferentialSelfCheck, MultisetsIgnoreOrderOnly) {
  const DiffCase c = findCase("atomics_global_i32");
  const Buffers ref = runOnPocl(c);
  size_t xret = 0;
  while (!c.args[xret].multiset) ++xret;
  Buffers swapped = ref;
  std::swap_ranges(swapped[xret].begin(), swapped[xret].begin() + 4, swapped[xret].begin() + 40);
  ASSERT_NE(swapped[xret], ref[xret]);
  EXPECT_EQ(compare(c, ref, swapped), "");
  Buffers changed = ref;
  changed[xret][8] ^= 2;
  EXPECT_NE(compare(c, ref, changed).find("multiset"), std::string::npos);
}

TEST(DifferentialSelfCheck, FloatBudgetsAndNaNs) {
  EXPECT_EQ(ulpDistance(1.0f, 1.0f), 0);
  EXPECT_EQ(ulpDistance(0.0f, -0.0f), 1);  // the sign of zero counts
  EXPECT_EQ(ulpDistance(1.0f, std::nextafter(1.0f, 2.0f)), 1);
  EXPECT_EQ(ulpDistance(-1.0f, std::nextafter(-1.0f, 0.0f)), 1);
  EXPECT_EQ(ulpDistance(std::nanf(""), -std::nanf("1")), 0);
  EXPECT_GT(ulpDistance(std::nanf(""), 0.0f), 1000000);
  EXPECT_EQ(ulpDistance(std::numeric_limits<double>::denorm_min(), -0.0), 2);
  EXPECT_GT(ulpDistance(1.0, -1.0), int64_t{1} << 62);
}

}  // namespace
}  // namespace vgpu::diff
