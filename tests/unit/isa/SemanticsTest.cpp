// VALU/SALU semantics: programs assembled by llvm-mc-15, run on the test wave runner, checked
// against values computed here.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "WaveRunner.h"

namespace vgpu::isa::test {
namespace {

float asFloat(uint32_t v) {
  float f;
  std::memcpy(&f, &v, 4);
  return f;
}
uint32_t bitsOf(float f) {
  uint32_t v;
  std::memcpy(&v, &f, 4);
  return v;
}
double asDouble(uint32_t lo, uint32_t hi) {
  const uint64_t b = lo | (static_cast<uint64_t>(hi) << 32);
  double d;
  std::memcpy(&d, &b, 8);
  return d;
}

TEST(IntegerAlu, LaneResultsMatchReference) {
  WaveRunner r("int_alu");
  for (int l = 0; l < 64; ++l) {
    r.v(0, l) = static_cast<uint32_t>(l);
    r.v(8, l) = static_cast<uint32_t>(l);
    r.v(9, l) = 0xffffffffu;
  }
  r.s(2) = 0x10001;
  r.s(3) = 0x80000000u;
  r.s(33) = 0x40004;
  const StepResult res = r.run();
  ASSERT_EQ(res.kind, StepKind::EndProgram) << res.fault;
  for (int l = 0; l < 64; ++l) {
    const uint32_t u = static_cast<uint32_t>(l);
    SCOPED_TRACE(l);
    EXPECT_EQ(r.v(2, l), u - 1);
    EXPECT_EQ(r.v(3, l), l >= 1 ? 1u : 0u);
    EXPECT_EQ(r.v(4, l), u * 0x10001u);
    EXPECT_EQ(r.v(5, l), static_cast<uint32_t>((static_cast<uint64_t>(u) * 0x80000000u) >> 32));
    const unsigned __int128 mad =
        static_cast<unsigned __int128>(static_cast<uint64_t>(u) * 0x80000000ull) +
        (0xffffffff00000000ull | u);
    EXPECT_EQ(r.v(6, l), static_cast<uint32_t>(mad));
    EXPECT_EQ(r.v(7, l), static_cast<uint32_t>(mad >> 32));
    EXPECT_EQ(r.v(10, l), (u << 2) + 5);
    EXPECT_EQ(r.v(11, l), (u << 4) | 3);
    EXPECT_EQ(r.v(12, l), u + u + 0x10001u);
    EXPECT_EQ(r.v(13, l), 0u - u);
    EXPECT_EQ(r.v(14, l), static_cast<uint32_t>(-l >> 1));
    const uint64_t wide = (static_cast<uint64_t>(0xffffffffu) << 32 | u);  // v1 = -1 (v[0:1])
    EXPECT_EQ(r.v(16, l), static_cast<uint32_t>(wide << 33));
    EXPECT_EQ(r.v(17, l), static_cast<uint32_t>((wide << 33) >> 32));
    EXPECT_EQ(r.v(18, l), static_cast<uint32_t>((wide << 33) >> 4));
    EXPECT_EQ(r.v(20, l), l == 0 ? 0xffffffffu : static_cast<uint32_t>(__builtin_clz(u)));
    EXPECT_EQ(r.v(21, l), l < 32 ? u : 7u);
    EXPECT_EQ(r.v(22, l), (-l >> 1) < -4 ? 2u : 1u);
    EXPECT_EQ(r.v(23, l), std::min(9u, u));
    EXPECT_EQ(r.v(24, l), 0x100u | u);
    EXPECT_EQ(r.v(25, l), u & 3);
    EXPECT_EQ(r.v(26, l), u - 64);
    EXPECT_EQ(r.v(27, l), u);  // mbcnt(-1) = lane id
    EXPECT_EQ(r.v(28, l), ((0x100u | u) >> 4) & 0x3f);
    EXPECT_EQ(r.v(29, l),
              static_cast<uint32_t>(((static_cast<uint64_t>(u) << 32) | (0x100u | u)) >> 8));
  }
  EXPECT_EQ(r.s(20), 5u);  // readfirstlane of lane 0
  EXPECT_EQ(r.s(22), 0xfffffffeu);
  EXPECT_EQ(r.s(23), 0x80000000u);  // 0x7fffffff + 1 + carry(0)
  EXPECT_EQ(static_cast<int32_t>(r.s(24)), -4);
  EXPECT_EQ(static_cast<int32_t>(r.s(25)), 12);
  const uint64_t s23 = (static_cast<uint64_t>(0x80000000u) << 32 | 0x10001u) << 8;
  EXPECT_EQ(r.s(26), static_cast<uint32_t>(s23));
  EXPECT_EQ(r.s(27), static_cast<uint32_t>(s23 >> 32));
  EXPECT_EQ(static_cast<int32_t>(r.s(28)), -2);
  EXPECT_EQ(r.s(30), 0xcu);
  EXPECT_EQ(r.s(31), 0xffff8000u);
  EXPECT_EQ(r.s(32), 0x10001u);
}

TEST(IntegerAlu, ExecMaskLeavesInactiveLanes) {
  WaveRunner r("int_alu");
  r.wave.exec = 0x00000000ffff0000ull;
  for (int l = 0; l < 64; ++l) {
    r.v(0, l) = static_cast<uint32_t>(l);
    r.v(10, l) = 0xdeadbeef;
  }
  r.s(2) = 1;
  ASSERT_EQ(r.run().kind, StepKind::EndProgram);
  for (int l = 0; l < 64; ++l) {
    const bool on = l >= 16 && l < 32;
    EXPECT_EQ(r.v(10, l), on ? static_cast<uint32_t>(l * 4 + 5) : 0xdeadbeefu) << l;
  }
  // v_readfirstlane reads the first active lane.
  EXPECT_EQ(r.s(20), 16u * 4 + 5);
}

TEST(FloatAlu, ModifiersConstantsAndDivision) {
  WaveRunner r("float_alu");
  for (int l = 0; l < 64; ++l) {
    r.v(0, l) = static_cast<uint32_t>(l);
    r.v(4, l) = bitsOf(-2.0f);
    r.v(30, l) = 0x3e00u | (0xc000u << 16);  // halves (1.5, -2.0)
  }
  const StepResult res = r.run();
  ASSERT_EQ(res.kind, StepKind::EndProgram) << res.fault;
  for (int l = 0; l < 64; ++l) {
    SCOPED_TRACE(l);
    const float x = static_cast<float>(l);
    EXPECT_EQ(asFloat(r.v(1, l)), x);
    EXPECT_EQ(asFloat(r.v(2, l)), x + 0.5f);
    EXPECT_EQ(asFloat(r.v(3, l)), -x * 2.0f);
    EXPECT_EQ(asFloat(r.v(5, l)), 1.0f);  // x + 1 >= 1: clamped
    EXPECT_EQ(asFloat(r.v(6, l)), x * 2.0f);
    EXPECT_EQ(asFloat(r.v(7, l)), 1.0f + x * x);
    EXPECT_EQ(asFloat(r.v(8, l)), x * 8.0f);
    EXPECT_FLOAT_EQ(asFloat(r.v(9, l)), 1.0f / (1.0f + x * x));
    EXPECT_EQ(r.v(10, l), static_cast<uint32_t>(l * 8));
    EXPECT_FLOAT_EQ(asFloat(r.v(11, l)), std::fma(x, 0.15915494f, -1.0f));
    EXPECT_EQ(asDouble(r.v(14, l), r.v(15, l)), x + 0.5);
    EXPECT_EQ(asDouble(r.v(16, l), r.v(17, l)), (x + 0.5) * -4.0);
    EXPECT_EQ(asFloat(r.v(18, l)), std::max(10.0f, x));
    EXPECT_EQ(asFloat(r.v(21, l)), x + 2.0f);  // exact in f16 for small integers
    EXPECT_EQ(asFloat(r.v(22, l)), l < 8 ? 1.0f : 0.0f);
    EXPECT_FLOAT_EQ(asFloat(r.v(28, l)), x / (1.0f + x * x));
    EXPECT_EQ(r.v(29, l), 0x4200u | (0xc400u << 16));  // (3.0, -4.0)
    // op_sel:[1,0]: low = hi(a) * lo(b) = -2 * 1.5 = -3; op_sel_hi:[0,1]: high = lo(a) * hi(b) = -3
    EXPECT_EQ(r.v(31, l), 0xc200u | (0xc200u << 16));
  }
}

}  // namespace
}  // namespace vgpu::isa::test
