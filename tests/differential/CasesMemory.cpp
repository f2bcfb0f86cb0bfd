// Local memory and barriers (cl/local.cl), vector types (cl/vector.cl), structs, byte stores,
// private arrays and 64-bit pointers (cl/memory.cl). All results are exact: integers, and float
// operations that are correctly rounded on both sides in the same order (budget 0).
#include <cmath>
#include <cstddef>
#include <random>

#include "DiffHarness.h"

namespace vgpu::diff {
namespace {

// The OpenCL C struct of memory.cl, with the layout both devices give it.
struct Rec {
  int8_t c;
  uint8_t uc;
  int16_t s;
  uint16_t us;
  int16_t pad;
  int32_t i;
  float f;
  int64_t l;
  double d;
};
static_assert(sizeof(Rec) == 32 && offsetof(Rec, i) == 8 && offsetof(Rec, l) == 16);
// Field names per byte of a record, for mismatch reports.
std::vector<std::string> byteFields(const std::vector<std::pair<std::string, int>>& layout) {
  std::vector<std::string> f;
  for (const auto& [name, size] : layout)
    for (int b = 0; b < size; ++b) f.push_back(name + ".byte" + std::to_string(b));
  return f;
}

std::vector<float> smallFloats(size_t n, uint32_t seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> u(-100.0f, 100.0f);
  std::vector<float> v(n);
  for (auto& x : v) x = u(g);
  return v;
}

void localCases(std::vector<DiffCase>& v) {
  v.push_back(
      oneD("local_reduce", "local", 1024, 256,
           {input("a", intInputs<int32_t>(1024, 91)), input("b", smallFloats(1024, 92)),
            output<int32_t>("isum", 4), output<float>("fsum", 4), output<int32_t>("imax", 4)}));
  v.back().platforms = {"tiny", "vega20"};
  v.push_back(oneD("local_scan", "local", 1024, 256,
                   {input("a", intInputs<uint32_t>(1024, 93)), output<uint32_t>("incl", 1024),
                    output<uint64_t>("excl", 1024)}));
  {
    DiffCase c;
    c.name = c.kernel = "local_transpose";
    c.program = "local";
    c.global = {64, 48, 1};
    c.local = {16, 16, 1};
    c.args = {input("in", smallFloats(64 * 48, 94)), output<float>("out", 64 * 48),
              scalar<int32_t>("w", 64), scalar<int32_t>("h", 48)};
    c.platforms = {"tiny", "vega20"};
    v.push_back(c);
  }
  v.push_back(oneD("local_bytes", "local", 1024, 256,
                   {input("a", intInputs<int32_t>(1024, 95)),
                    output<int32_t>("out", 1024, {"char_uchar", "short", "ushort", "double"})}));
  v.push_back(oneD("local_phases", "local", 1024, 256,
                   {input("a", intInputs<uint32_t>(1024, 96)), output<uint32_t>("out", 1024)}));
}

void vectorCases(std::vector<DiffCase>& v) {
  const uint32_t n = 256;
  {
    std::vector<float> a = smallFloats(4 * n + 4, 101);
    for (size_t i = 0; i < 40; ++i) a[i * 7] = floatEdges()[i];
    v.push_back(oneD("vec_float4", "vector", n, 64,
                     {input("a", a), input("b", permuted(floatInputs(4 * n, 102), 3)),
                      output<float>("out", 4 * 5 * n), output<int32_t>("masks", 4 * n)}));
  }
  v.push_back(
      oneD("vec_char4", "vector", n, 64,
           {input("a", intInputs<int8_t>(4 * n, 103)), input("b", intInputs<int8_t>(4 * n, 104)),
            output<int8_t>("out", n,
                           byteFields({{"add_sat", 4},
                                       {"sub_sat", 4},
                                       {"mul", 4},
                                       {"hadd_rotate", 4},
                                       {"convert_sat", 4},
                                       {"abs_cmp", 4}})),
            output<int16_t>("upsample", 4 * n)}));
  {
    std::vector<float> f = smallFloats(2 * n, 105);
    for (size_t i = 0; i < 16; ++i) f[i * 5] = floatEdges()[i];
    v.push_back(
        oneD("vec_short2", "vector", n, 64,
             {input("a", intInputs<int16_t>(2 * n, 106)),
              input("b", intInputs<int16_t>(2 * n, 107)), input("f", f),
              output<int16_t>("out", n,
                              {"mad_sat.x", "mad_sat.y", "mul_hi.x", "mul_hi.y", "add_sat.x",
                               "add_sat.y", "abs_diff.x", "abs_diff.y", "cvt_sat_rte.x",
                               "cvt_sat_rte.y", "as_add_xor.x", "as_add_xor.y"})}));
    // convert_short2_sat_rte(NaN): the same documented toolchain deviation as the scalar
    // saturating conversions (CasesConvert.cpp): v_med3_f32 with a NaN operand returns the
    // clamp's lower bound, so the gfx906 code gives SHRT_MIN where OpenCL requires 0.
    v.back().toolchain = [](const DiffCase& c, Buffers& e) {
      const auto in = valuesOf<float>(c.args[2].bytes);
      auto out = valuesOf<int16_t>(e[3]);
      for (size_t k = 0; k < in.size(); ++k)
        if (std::isnan(in[k])) out[(k / 2) * 12 + 8 + (k % 2)] = -32768;
      e[3] = bytesOf(out);
    };
  }
  v.push_back(
      oneD("vec_mixed", "vector", n, 64,
           {input("a", intInputs<int32_t>(3 * n, 108)), input("b", intInputs<int64_t>(2 * n, 109)),
            input("d", permuted(doubleInputs(2 * n, 110), 1)),
            input("u", intInputs<uint8_t>(16 * n, 111)), output<int32_t>("int3", 3 * n),
            output<int64_t>("long2", 2 * n), output<double>("double2", 2 * n),
            output<uint8_t>("uchar16", 16 * n)}));
}

void structCases(std::vector<DiffCase>& v) {
  const uint32_t n = 512;
  std::mt19937_64 g(121);
  std::vector<Rec> recs(n);
  for (auto& r : recs) {
    r.c = static_cast<int8_t>(g()), r.uc = static_cast<uint8_t>(g());
    r.s = static_cast<int16_t>(g()), r.us = static_cast<uint16_t>(g());
    r.i = static_cast<int32_t>(g()), r.l = static_cast<int64_t>(g());
    r.f = static_cast<float>(static_cast<int32_t>(g() % 2000000)) / 64.0f;
    r.d = static_cast<double>(static_cast<int64_t>(g() % 2000000000)) / 1024.0;
  }
  std::vector<uint8_t> bytes(n * sizeof(Rec));
  std::memcpy(bytes.data(), recs.data(), bytes.size());
  const auto recFields = byteFields({{"c", 1},
                                     {"uc", 1},
                                     {"s", 2},
                                     {"us", 2},
                                     {"pad", 2},
                                     {"i", 4},
                                     {"f", 4},
                                     {"l", 8},
                                     {"d", 8}});
  v.push_back(oneD("struct_mixed", "memory", n, 64,
                   {input("in", bytes), output<uint8_t>("out", 2 * n, recFields)}));
  std::vector<uint8_t> packed(n * 15);
  for (auto& b : packed) b = static_cast<uint8_t>(g());
  v.push_back(
      oneD("struct_packed", "memory", n, 64,
           {input("in", packed),
            output<uint8_t>("out", n, byteFields({{"a", 1}, {"b", 4}, {"c", 2}, {"d", 8}}))}));
  // 1000 work-items in groups of 40: partial waves, and a byte count that is not a multiple of 4.
  v.push_back(oneD("byte_stores", "memory", 1000, 40,
                   {input("a", intInputs<uint8_t>(1000, 122)), output<uint8_t>("bytes", 1000),
                    output<int16_t>("shorts", 1000), output<uint8_t>("odd", 4 * 1000 + 2)}));
}

void privateAndPointerCases(std::vector<DiffCase>& v) {
  const uint32_t n = 256;
  v.push_back(oneD("private_sort", "memory", n, 64,
                   {input("in", intInputs<int32_t>(16 * n, 131)), output<int32_t>("out", 16 * n),
                    output<int32_t>("picks", n)}));
  v.push_back(oneD("private_mixed", "memory", n, 64,
                   {input("in", intInputs<uint32_t>(n, 132)),
                    output<int64_t>("out", n, {"mixed_arrays", "doubles"})}));
  std::mt19937 g(133);
  const uint32_t m = 512;
  std::vector<int64_t> offs(m);
  for (auto& o : offs) o = g() % m;
  v.push_back(oneD("ptr64", "memory", m, 128,
                   {input("a", intInputs<int32_t>(m, 134)), input("b", intInputs<int32_t>(m, 135)),
                    input("offs", offs), output<uint64_t>("slots", m),
                    output<int64_t>("out", m, {"sum", "diffs", "through_memory", "address"})}));
  std::vector<int32_t> nodes(2 * m), starts(m);
  for (uint32_t k = 0; k < m; ++k) {
    nodes[2 * k] = g() % 16 == 0 ? -1 : static_cast<int32_t>(g() % m);
    nodes[2 * k + 1] = static_cast<int32_t>(g());
    starts[k] = static_cast<int32_t>(g() % m);
  }
  v.push_back(oneD("ptr_chase", "memory", m, 128,
                   {input("nodes", nodes), input("starts", starts), output<int64_t>("out", m)}));
}

}  // namespace

std::vector<DiffCase> memoryCases() {
  std::vector<DiffCase> v;
  localCases(v);
  vectorCases(v);
  structCases(v);
  privateAndPointerCases(v);
  return v;
}

}  // namespace vgpu::diff
