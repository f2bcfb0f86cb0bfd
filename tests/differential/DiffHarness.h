// Differential testing of vgpu against PoCL: the same OpenCL C kernel, compiled by clang-15 for
// gfx906 (run on the model) and by PoCL for the host CPU (the reference), gets the same inputs;
// the outputs are compared element by element (integers bit-exact, floats within a per-output
// ULP budget, atomics' order-dependent results as multisets).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "runtime/Runtime.h"

namespace vgpu::diff {

// F16: half-precision bits; compared bit-exact except that any NaN equals any NaN.
enum class Elem { I8, U8, I16, U16, I32, U32, I64, U64, F16, F32, F64 };

template <typename T>
constexpr Elem elemOf() {
  if constexpr (std::is_same_v<T, float>) return Elem::F32;
  if constexpr (std::is_same_v<T, double>) return Elem::F64;
  if constexpr (std::is_signed_v<T>)
    return sizeof(T) == 1   ? Elem::I8
           : sizeof(T) == 2 ? Elem::I16
           : sizeof(T) == 4 ? Elem::I32
                            : Elem::I64;
  return sizeof(T) == 1   ? Elem::U8
         : sizeof(T) == 2 ? Elem::U16
         : sizeof(T) == 4 ? Elem::U32
                          : Elem::U64;
}
size_t elemSize(Elem e);

// An image argument (OpenCL cl_image_format / cl_image_desc values, from CL/cl.h).
struct ImageSpec {
  uint32_t clOrder = 0;    // CL_R, CL_RG, CL_RGBA, CL_BGRA, ...
  uint32_t clType = 0;     // CL_UNORM_INT8, CL_FLOAT, ...
  uint32_t clMemType = 0;  // CL_MEM_OBJECT_IMAGE1D, _IMAGE2D, _IMAGE3D, _IMAGE1D_ARRAY, ...
  uint32_t width = 1, height = 1, depth = 1, arraySize = 1;
};
// A sampler argument (clCreateSampler's parameters).
struct SamplerSpec {
  bool normalized = false;
  uint32_t clAddressing = 0;  // CL_ADDRESS_NONE, _CLAMP_TO_EDGE, _CLAMP, _REPEAT, _MIRRORED_REPEAT
  uint32_t clFilter = 0;      // CL_FILTER_NEAREST, CL_FILTER_LINEAR
};
// Texels of an image (tightly packed, x fastest), and its element type for comparisons.
size_t imageTexelCount(const ImageSpec& s);
size_t imageChannels(const ImageSpec& s);
Elem imageElem(const ImageSpec& s);

// One explicit kernel argument: a global buffer, a scalar, an image or a sampler, in
// kernel-signature order. An image's `bytes` are its texels, tightly packed (x fastest, then y,
// then slice), in the channel type's element (UNORM_INT8: U8, HALF_FLOAT: F16, ...).
struct Arg {
  std::string name;
  bool isBuffer = true;
  bool isImage = false;
  ImageSpec image;
  bool isSampler = false;
  SamplerSpec sampler;
  // Floats: also equal when at most this far apart (filtered image reads; 0: ULPs only).
  float absTolerance = 0;
  Elem elem = Elem::U32;
  std::vector<uint8_t> bytes;  // initial contents (buffer) or the value (scalar)
  bool checked = false;        // compared after the run
  // Several results per work-item: element e is result fields[e % K] of item e / K.
  std::vector<std::string> fields;
  std::vector<int> fieldUlps;  // floats: budget per field (else `ulps` for all)
  int ulps = 0;                // floats: allowed distance in units in the last place
  bool multiset = false;       // order-dependent results (atomics): compared sorted
};

using Buffers = std::vector<std::vector<uint8_t>>;  // every argument's bytes after a run

struct DiffCase {
  std::string name;     // test name
  std::string program;  // tests/differential/cl/PROGRAM.cl, compiled to PROGRAM.co
  std::string kernel;
  Dim3 global, local;
  std::array<uint64_t, 3> offset{0, 0, 0};
  std::vector<Arg> args;
  std::vector<std::string> platforms{"tiny"};
  // Documented deviations of clang-15/ROCm-Device-Libs from the OpenCL spec, which PoCL does not
  // share, and of PoCL from the spec: rewrites PoCL's results into what the compiled gfx906 code
  // computes on hardware (each case says why). The deviating elements are still checked, against
  // that value.
  std::function<void(const DiffCase&, Buffers&)> toolchain;
};

// --- building cases ---------------------------------------------------------------------------
template <typename T>
std::vector<uint8_t> bytesOf(const std::vector<T>& v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  if (!b.empty()) std::memcpy(b.data(), v.data(), b.size());
  return b;
}
template <typename T>
std::vector<T> valuesOf(const std::vector<uint8_t>& b) {
  std::vector<T> v(b.size() / sizeof(T));
  if (!v.empty()) std::memcpy(v.data(), b.data(), v.size() * sizeof(T));
  return v;
}
template <typename T>
Arg input(const std::string& name, const std::vector<T>& v) {
  Arg a;
  a.name = name;
  a.elem = elemOf<T>();
  a.bytes = bytesOf(v);
  return a;
}
// An output of `items` x fields.size() elements (or `items` when no fields), pre-filled with a
// pattern that no kernel writes, so elements a kernel forgets are caught as well.
template <typename T>
Arg output(const std::string& name, size_t items, std::vector<std::string> fields = {},
           int ulps = 0) {
  Arg a;
  a.name = name;
  a.elem = elemOf<T>();
  a.checked = true;
  a.fields = std::move(fields);
  a.ulps = ulps;
  const size_t n = items * (a.fields.empty() ? 1 : a.fields.size());
  a.bytes.assign(n * sizeof(T), 0xA5);
  return a;
}
template <typename T>
Arg inout(const std::string& name, const std::vector<T>& v, int ulps = 0) {
  Arg a = input(name, v);
  a.checked = true;
  a.ulps = ulps;
  return a;
}
template <typename T>
Arg scalar(const std::string& name, T v) {
  Arg a;
  a.name = name;
  a.isBuffer = false;
  a.elem = elemOf<T>();
  a.bytes.resize(sizeof v);
  std::memcpy(a.bytes.data(), &v, sizeof v);
  return a;
}

// Images and samplers: an input image holding `texels` (packed, as above), an output image
// (pre-filled with a pattern, read back and compared), a sampler.
template <typename T>
Arg imageInput(const std::string& name, const ImageSpec& spec, const std::vector<T>& texels) {
  Arg a = input(name, texels);
  a.isBuffer = false;
  a.isImage = true;
  a.image = spec;
  a.elem = imageElem(spec);
  return a;
}
Arg imageOutput(const std::string& name, const ImageSpec& spec);
Arg samplerArg(const std::string& name, const SamplerSpec& spec);

// Deterministic inputs: the edge values of the type first, then values from a fixed seed.
std::vector<float> floatInputs(size_t n, uint32_t seed);    // edges, random bits, ties, small
std::vector<double> doubleInputs(size_t n, uint32_t seed);  // same for double
std::vector<float> floatEdges();
// `v` with its first 64 elements (the edge values) reversed and rotated by `k`, so that two
// inputs built from the same edges pair different edge values.
template <typename T>
std::vector<T> permuted(std::vector<T> v, size_t k) {
  const size_t e = std::min<size_t>(64, v.size());
  std::reverse(v.begin(), v.begin() + e);
  std::rotate(v.begin(), v.begin() + k % e, v.begin() + e);
  return v;
}
std::vector<double> doubleEdges();
template <typename T>
std::vector<T> intInputs(size_t n, uint32_t seed);  // MIN, MAX, 0, +-1, powers of two, random
// Positive floats spread over [lo, hi] on a log scale (plus the edges when `edges`).
std::vector<float> floatRange(size_t n, uint32_t seed, float lo, float hi, bool edges);
std::vector<double> doubleRange(size_t n, uint32_t seed, double lo, double hi, bool edges);

// --- running and comparing --------------------------------------------------------------------

std::string clSourceDir();
std::string codeObjectDir();
// PoCL's CPU device ("basic", pinned by POCL_DEVICES): the reference. Throws on OpenCL errors.
Buffers runOnPocl(const DiffCase& c);
// The model, through vgpu::Runtime. Throws KernelFault / InputError from the model.
Buffers runOnVgpu(const DiffCase& c, const std::string& platform, const std::string& codeObject,
                  const std::string& kernel);
// The same on a platform the caller configured (tests/perturb: modes and latency perturbation).
Buffers runOnVgpu(const DiffCase& c, const PlatformConfig& platform, const std::string& codeObject,
                  const std::string& kernel);
// "" when every checked output agrees; else the first mismatch (argument, item, field, both
// values, the inputs of that item) and the number of differing elements.
std::string compare(const DiffCase& c, const Buffers& expected, const Buffers& actual,
                    const std::string& reference = "PoCL");
// Distance between two floats in representable values (-0 and +0 are 1 apart; NaN == NaN).
int64_t ulpDistance(float a, float b);
int64_t ulpDistance(double a, double b);

// Every OpenCL C case (CasesInteger.cpp, CasesFloat.cpp, ...).
std::vector<DiffCase> allCases();
std::vector<DiffCase> integerCases();
std::vector<DiffCase> floatCases();
std::vector<DiffCase> mathCases();
std::vector<DiffCase> convertCases();
std::vector<DiffCase> atomicCases();
std::vector<DiffCase> memoryCases();
std::vector<DiffCase> imageCases();
DiffCase findCase(const std::string& name);
// A 1D case: `items` work-items in workgroups of `block`.
DiffCase oneD(const std::string& name, const std::string& program, uint32_t items, uint32_t block,
              std::vector<Arg> args);

}  // namespace vgpu::diff
