// Image kernels (cl/images.cl) against PoCL's images: sampler-less reads, writes, queries and
// sampled reads, over 8/16/32-bit, normalized, integer and float channel types, the orders R,
// A, RGBA, BGRA and ARGB (PoCL 3.1 has no RG images), and 1D, 2D, 3D, 1D-array and 2D-array images.
// Sizes are odd, so rows are padded in the linear layout (256-byte row pitch) and nothing lines up
// by accident.
//
// Budgets (OpenCL 1.2, 8.3.1.1 and 8.3.2): a normalized integer read as float may be 1.5 ulp
// from the exact quotient (2 here; PoCL divides correctly rounded); integer, float and half reads
// and every write are exact (with two documented deviations of PoCL below). Linear filtering:
// within 1/256 of the [0, 1] texel range per filtered axis (1D 1/256, 2D 2/256, 3D 3/256): the
// texture unit keeps 8 fractional bits of each axis' weight (D3D11's subtexel precision, which
// the model follows), PoCL computes the weights in float: docs/image-runtime.md.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

#include "DiffHarness.h"

namespace vgpu::diff {
namespace {

ImageSpec spec(uint32_t memType, uint32_t order, uint32_t type, uint32_t w, uint32_t h = 1,
               uint32_t d = 1, uint32_t layers = 1) {
  ImageSpec s;
  s.clMemType = memType;
  s.clOrder = order;
  s.clType = type;
  s.width = w;
  s.height = h;
  s.depth = d;
  s.arraySize = layers;
  return s;
}

// Random texels of the image's element type (every bit pattern for integers; for floats values
// in [0, 1) when `unitFloats`, else in [-100, 100) with some exact edge values; halves finite).
std::vector<uint8_t> texels(const ImageSpec& s, uint32_t seed, bool unitFloats = false) {
  const Elem e = imageElem(s);
  const size_t n = imageTexelCount(s) * imageChannels(s);
  std::mt19937 g(seed);
  std::vector<uint8_t> bytes(n * elemSize(e));
  if (e == Elem::F32) {
    std::uniform_real_distribution<float> u(unitFloats ? 0.0f : -100.0f,
                                            unitFloats ? 1.0f : 100.0f);
    std::vector<float> v(n);
    for (auto& x : v) x = u(g);
    if (!unitFloats) {
      const float edges[] = {0.0f, -0.0f, 1.0f, -1.0f, 1e-40f, 3.4e38f, -3.4e38f, 0.5f};
      for (size_t i = 0; i < std::size(edges) && i < n; ++i) v[i * 3 % n] = edges[i];
    }
    std::memcpy(bytes.data(), v.data(), bytes.size());
  } else if (e == Elem::F16) {
    std::vector<uint16_t> v(n);
    for (auto& h : v) {
      h = static_cast<uint16_t>(g());
      if ((h & 0x7c00) == 0x7c00) h &= 0xbfff;                  // no inf/NaN: a finite half instead
      if (unitFloats) h = static_cast<uint16_t>(g() % 0x3c00);  // [0, 1)
    }
    std::memcpy(bytes.data(), v.data(), bytes.size());
  } else {
    for (auto& b : bytes) b = static_cast<uint8_t>(g());
  }
  return bytes;
}

template <typename T>
Arg imageOf(const std::string& name, const ImageSpec& s, const std::vector<uint8_t>& bytes) {
  Arg a = imageInput(name, s, valuesOf<T>(bytes));
  a.bytes = bytes;
  return a;
}
Arg imageIn(const ImageSpec& s, uint32_t seed, bool unitFloats = false) {
  return imageOf<uint8_t>("img", s, texels(s, seed, unitFloats));
}

DiffCase grid(const std::string& name, const std::string& kernel, Dim3 global, Dim3 local,
              std::vector<Arg> args) {
  DiffCase c;
  c.name = name;
  c.kernel = kernel;
  c.program = "images";
  c.global = global;
  c.local = local;
  c.args = std::move(args);
  return c;
}

const std::vector<std::string> kRgba = {"r", "g", "b", "a"};

// OpenCL 1.2, 6.12.14.7: a CL_R image reads as (r, 0, 0, 1), for read_imagei/ui as well (the
// hardware: DST_SEL_W = 1, an integer one for integer formats). PoCL 3.1 returns alpha 0 from
// integer R images (it passes the float case, 1.0); its alpha is set to 1 here. The output is
// argument 1, four 32-bit fields per texel.
void integerAlphaIsOne(const DiffCase&, Buffers& pocl) {
  auto& out = pocl[1];
  for (size_t texel = 0; texel + 16 <= out.size(); texel += 16) {
    const uint32_t one = 1;
    std::memcpy(&out[texel + 12], &one, 4);
  }
}

// --- sampler-less reads ------------------------------------------------------------------------

void readCases(std::vector<DiffCase>& v) {
  struct R2 {
    const char* name;
    const char* kernel;
    uint32_t order, type;
    int ulps;
  };
  const R2 reads2d[] = {
      {"img_read_2d_f_rgba_unorm8", "img_read_2d_f", CL_RGBA, CL_UNORM_INT8, 2},
      {"img_read_2d_f_rgba_snorm8", "img_read_2d_f", CL_RGBA, CL_SNORM_INT8, 2},
      {"img_read_2d_f_a_unorm16", "img_read_2d_f", CL_A, CL_UNORM_INT16, 2},
      {"img_read_2d_f_rgba_snorm16", "img_read_2d_f", CL_RGBA, CL_SNORM_INT16, 2},
      {"img_read_2d_f_rgba_half", "img_read_2d_f", CL_RGBA, CL_HALF_FLOAT, 0},
      {"img_read_2d_f_r_float", "img_read_2d_f", CL_R, CL_FLOAT, 0},
      {"img_read_2d_f_bgra_unorm8", "img_read_2d_f", CL_BGRA, CL_UNORM_INT8, 2},
      {"img_read_2d_i_rgba_sint8", "img_read_2d_i", CL_RGBA, CL_SIGNED_INT8, 0},
      {"img_read_2d_i_argb_sint8", "img_read_2d_i", CL_ARGB, CL_SIGNED_INT8, 0},
      {"img_read_2d_i_r_sint32", "img_read_2d_i", CL_R, CL_SIGNED_INT32, 0},
      {"img_read_2d_ui_rgba_uint8", "img_read_2d_ui", CL_RGBA, CL_UNSIGNED_INT8, 0},
      {"img_read_2d_ui_r_uint16", "img_read_2d_ui", CL_R, CL_UNSIGNED_INT16, 0},
      {"img_read_2d_ui_rgba_uint32", "img_read_2d_ui", CL_RGBA, CL_UNSIGNED_INT32, 0},
  };
  uint32_t seed = 500;
  for (const R2& r : reads2d) {
    const ImageSpec s = spec(CL_MEM_OBJECT_IMAGE2D, r.order, r.type, 13, 7);
    Arg out = std::string(r.kernel) == "img_read_2d_f"   ? output<float>("out", 13 * 7, kRgba)
              : std::string(r.kernel) == "img_read_2d_i" ? output<int32_t>("out", 13 * 7, kRgba)
                                                         : output<uint32_t>("out", 13 * 7, kRgba);
    out.ulps = r.ulps;
    v.push_back(grid(r.name, r.kernel, {13, 7, 1}, {13, 7, 1}, {imageIn(s, seed++), out}));
    if (r.order == CL_R && std::string(r.kernel) != "img_read_2d_f")
      v.back().toolchain = integerAlphaIsOne;
  }
  {
    const ImageSpec s = spec(CL_MEM_OBJECT_IMAGE1D, CL_RGBA, CL_FLOAT, 300);
    v.push_back(grid("img_read_1d_f_rgba_float", "img_read_1d_f", {300, 1, 1}, {60, 1, 1},
                     {imageIn(s, seed++), output<float>("out", 300, kRgba)}));
  }
  {
    const ImageSpec s = spec(CL_MEM_OBJECT_IMAGE3D, CL_RGBA, CL_UNORM_INT8, 9, 5, 4);
    Arg out = output<float>("out", 9 * 5 * 4, kRgba);
    out.ulps = 2;
    v.push_back(grid("img_read_3d_f_rgba_unorm8", "img_read_3d_f", {9, 5, 4}, {9, 5, 1},
                     {imageIn(s, seed++), out}));
  }
  {
    const ImageSpec s = spec(CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_RGBA, CL_SIGNED_INT16, 40, 1, 1, 3);
    v.push_back(grid("img_read_1darray_i_rgba_sint16", "img_read_1darray_i", {40, 3, 1}, {40, 1, 1},
                     {imageIn(s, seed++), output<int32_t>("out", 40 * 3, kRgba)}));
  }
  {
    const ImageSpec s = spec(CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_RGBA, CL_UNSIGNED_INT16, 7, 5, 1, 3);
    v.push_back(grid("img_read_2darray_ui_rgba_uint16", "img_read_2darray_ui", {7, 5, 3}, {7, 5, 1},
                     {imageIn(s, seed++), output<uint32_t>("out", 7 * 5 * 3, kRgba)}));
  }
}

// The texture unit converts floats to SNORM as D3D10+ does (models/isa/BufferFormat.cpp):
// clamp to [-1, 1], scale by 2^(n-1) - 1, round; so -1 and below store -(2^(n-1) - 1). OpenCL
// 1.2 (8.3.1.1) gives convert_short_sat_rte(f * 32767), which PoCL follows and which stores -32768
// for f < -1 - 1/65534: those elements of PoCL's 16-bit SNORM image (argument 1) become -32767.
void snorm16MostNegativeIsMinusOne(const DiffCase&, Buffers& pocl) {
  auto& img = pocl[1];
  for (size_t i = 0; i + 2 <= img.size(); i += 2) {
    int16_t v;
    std::memcpy(&v, &img[i], 2);
    if (v == -32768) {
      v = -32767;
      std::memcpy(&img[i], &v, 2);
    }
  }
}

// --- writes ------------------------------------------------------------------------------------

// Values to write: for normalized targets around and beyond [-1, 1] (saturation), with the
// exact ends; for integers every bit pattern (the conversion saturates); floats anything finite.
std::vector<float> writeFloats(size_t n, uint32_t seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> u(-1.25f, 1.25f);
  std::vector<float> v(n);
  for (auto& x : v) x = u(g);
  const float edges[] = {0.0f, 1.0f, -1.0f, 0.5f, -0.5f, 2.0f, -2.0f, 1e-20f, 100.0f, -0.0f};
  for (size_t i = 0; i < std::size(edges) && i < n; ++i) v[i * 5 % n] = edges[i];
  return v;
}

void writeCases(std::vector<DiffCase>& v) {
  struct W2 {
    const char* name;
    const char* kernel;
    uint32_t order, type;
  };
  const W2 writes2d[] = {
      {"img_write_2d_f_rgba_unorm8", "img_write_2d_f", CL_RGBA, CL_UNORM_INT8},
      {"img_write_2d_f_bgra_unorm8", "img_write_2d_f", CL_BGRA, CL_UNORM_INT8},
      {"img_write_2d_f_rgba_snorm16", "img_write_2d_f", CL_RGBA, CL_SNORM_INT16},
      {"img_write_2d_f_rgba_half", "img_write_2d_f", CL_RGBA, CL_HALF_FLOAT},
      {"img_write_2d_f_rgba_float", "img_write_2d_f", CL_RGBA, CL_FLOAT},
      {"img_write_2d_i_rgba_sint8", "img_write_2d_i", CL_RGBA, CL_SIGNED_INT8},
      {"img_write_2d_ui_r_uint16", "img_write_2d_ui", CL_R, CL_UNSIGNED_INT16},
      {"img_write_2d_ui_rgba_uint32", "img_write_2d_ui", CL_RGBA, CL_UNSIGNED_INT32},
  };
  uint32_t seed = 600;
  const uint32_t w = 11, h = 6;
  for (const W2& r : writes2d) {
    const ImageSpec s = spec(CL_MEM_OBJECT_IMAGE2D, r.order, r.type, w, h);
    const std::string k = r.kernel;
    Arg in = k == "img_write_2d_f"   ? input("in", writeFloats(4 * w * h, seed))
             : k == "img_write_2d_i" ? input("in", intInputs<int32_t>(4 * w * h, seed))
                                     : input("in", intInputs<uint32_t>(4 * w * h, seed));
    ++seed;
    v.push_back(grid(r.name, r.kernel, {w, h, 1}, {w, h, 1}, {in, imageOutput("img", s)}));
    if (r.type == CL_SNORM_INT16) v.back().toolchain = snorm16MostNegativeIsMinusOne;
  }
  {
    const ImageSpec s = spec(CL_MEM_OBJECT_IMAGE1D, CL_R, CL_UNORM_INT16, 200);
    v.push_back(grid("img_write_1d_f_r_unorm16", "img_write_1d_f", {200, 1, 1}, {50, 1, 1},
                     {input("in", writeFloats(4 * 200, seed++)), imageOutput("img", s)}));
  }
  {
    const ImageSpec s = spec(CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_RGBA, CL_UNSIGNED_INT8, 33, 1, 1, 4);
    v.push_back(
        grid("img_write_1darray_ui_rgba_uint8", "img_write_1darray_ui", {33, 4, 1}, {33, 1, 1},
             {input("in", intInputs<uint32_t>(4 * 33 * 4, seed++)), imageOutput("img", s)}));
  }
  {
    const ImageSpec s = spec(CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_RGBA, CL_FLOAT, 5, 3, 1, 2);
    std::vector<float> in(4 * 5 * 3 * 2);
    std::mt19937 g(seed++);
    std::uniform_real_distribution<float> u(-1e6f, 1e6f);
    for (auto& x : in) x = u(g);
    v.push_back(grid("img_write_2darray_f_rgba_float", "img_write_2darray_f", {5, 3, 2}, {5, 3, 1},
                     {input("in", in), imageOutput("img", s)}));
  }
  {
    const ImageSpec s = spec(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_UNORM_INT8, 17, 9);
    v.push_back(grid("img_copy_mirror_2d_rgba_unorm8", "img_copy_mirror_2d", {17, 9, 1}, {17, 9, 1},
                     {imageOf<uint8_t>("src", s, texels(s, seed++)), imageOutput("dst", s)}));
  }
}

// --- queries -----------------------------------------------------------------------------------

void queryCases(std::vector<DiffCase>& v) {
  {
    const ImageSpec s = spec(CL_MEM_OBJECT_IMAGE2D, CL_BGRA, CL_UNORM_INT8, 123, 45);
    v.push_back(
        grid("img_query_2d_bgra_unorm8", "img_query_2d", {1, 1, 1}, {1, 1, 1},
             {imageIn(s, 700), output<int32_t>("out", 1, {"width", "height", "type", "order"})}));
  }
  {
    const ImageSpec s = spec(CL_MEM_OBJECT_IMAGE2D, CL_A, CL_SIGNED_INT16, 1000, 3);
    v.push_back(
        grid("img_query_2d_a_sint16", "img_query_2d", {1, 1, 1}, {1, 1, 1},
             {imageIn(s, 701), output<int32_t>("out", 1, {"width", "height", "type", "order"})}));
  }
  {
    const ImageSpec s = spec(CL_MEM_OBJECT_IMAGE3D, CL_R, CL_HALF_FLOAT, 31, 17, 6);
    v.push_back(grid("img_query_3d_r_half", "img_query_3d", {1, 1, 1}, {1, 1, 1},
                     {imageIn(s, 702),
                      output<int32_t>("out", 1, {"width", "height", "depth", "type", "order"})}));
  }
  {
    const ImageSpec s = spec(CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_RGBA, CL_UNSIGNED_INT32, 9, 4, 1, 5);
    v.push_back(grid("img_query_2darray_rgba_uint32", "img_query_2darray", {1, 1, 1}, {1, 1, 1},
                     {imageIn(s, 703),
                      output<int32_t>("out", 1, {"width", "height", "layers", "type", "order"})}));
  }
}

// --- sampled reads -----------------------------------------------------------------------------

// Coordinates away from texel boundaries (a quarter texel at least), so nearest filtering picks
// the same texel whatever the rounding of u * size; from `lo` to `hi` texels (outside [0, size)
// for the addressing modes), normalized by `size` when `normalized`.
std::vector<float> coords(size_t n, uint32_t seed, float lo, float hi, float size,
                          bool normalized) {
  std::mt19937 g(seed);
  std::uniform_int_distribution<int> texel(static_cast<int>(std::floor(lo)),
                                           static_cast<int>(std::ceil(hi)) - 1);
  std::uniform_real_distribution<float> offset(0.25f, 0.75f);
  std::vector<float> v(n);
  for (auto& x : v) {
    x = static_cast<float>(texel(g)) + offset(g);
    if (normalized) x /= size;
  }
  return v;
}

// Interleaves per-dimension coordinates into float2/float4 vectors (unused lanes 0).
std::vector<float> interleave(const std::vector<std::vector<float>>& dims, size_t lanes) {
  const size_t n = dims[0].size();
  std::vector<float> v(n * lanes, 0.0f);
  for (size_t i = 0; i < n; ++i)
    for (size_t d = 0; d < dims.size(); ++d) v[i * lanes + d] = dims[d][i];
  return v;
}

// PoCL 3.1 (lib/kernel/read_image.cl, nonrepeat_filter) scales the whole coordinate by
// (width, height, array size) for normalized samplers, so it normalizes the layer of a 2D array as
// well and reads layer clamp(floor(3 * l + 0.5), 0, 2) of a 3-layer image. OpenCL 1.2 (8.2, "the
// array index is computed as clamp(rint(l), 0, layers - 1)") never normalizes it; ROCm-Device-Libs
// passes rint(l) to image_sample and the texture unit rounds and clamps it (docs/images.md), so
// gfx906 reads layer clamp(rint(l), 0, 2). Where the two layers differ and PoCL's value is exactly
// the texel of its normalized layer, the value is replaced with the texel of the specified layer,
// read on the CPU from the case's input image (nearest, clamp to edge: texel (clamp(floor(u * w)),
// clamp(floor(v * h))), the texel PoCL addressed too). Any other PoCL value is left to the
// comparison. Arguments: 0 the image (RGBA float, x fastest), 2 the float4 coordinates, 3 out.
void poclNormalizesArrayLayer(const DiffCase& c, Buffers& pocl) {
  const ImageSpec& s = c.args[0].image;
  const std::vector<float> texel = valuesOf<float>(c.args[0].bytes);
  const std::vector<float> coord = valuesOf<float>(c.args[2].bytes);
  std::vector<float> out = valuesOf<float>(pocl[3]);
  const int w = static_cast<int>(s.width), h = static_cast<int>(s.height),
            layers = static_cast<int>(s.arraySize);
  auto clampTo = [](float f, int n) { return std::min(std::max(static_cast<int>(f), 0), n - 1); };
  for (size_t i = 0; i * 4 < out.size() && i * 4 + 3 < coord.size(); ++i) {
    const int x = clampTo(std::floor(coord[4 * i] * static_cast<float>(w)), w);
    const int y = clampTo(std::floor(coord[4 * i + 1] * static_cast<float>(h)), h);
    const float l = coord[4 * i + 2];
    const int specified = clampTo(std::rint(l), layers);
    const int normalized = clampTo(std::floor(l * static_cast<float>(layers) + 0.5f), layers);
    if (specified == normalized) continue;
    const float* wrong = &texel[4 * ((static_cast<size_t>(normalized) * h + y) * w + x)];
    const float* right = &texel[4 * ((static_cast<size_t>(specified) * h + y) * w + x)];
    if (std::memcmp(&out[4 * i], wrong, 16) == 0) std::memcpy(&out[4 * i], right, 16);
  }
  std::memcpy(pocl[3].data(), out.data(), pocl[3].size());
}

void sampleCases(std::vector<DiffCase>& v) {
  const size_t n = 256;
  struct S2 {
    const char* name;
    bool normalized;
    uint32_t addressing, filter;
    float lo, hi;  // coordinate range in texels
  };
  const float w = 13, h = 7;
  const S2 samples2d[] = {
      {"samp_2d_f_nearest_unnorm_edge", false, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST, -4, 17},
      {"samp_2d_f_nearest_unnorm_border", false, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, -4, 17},
      {"samp_2d_f_nearest_norm_repeat", true, CL_ADDRESS_REPEAT, CL_FILTER_NEAREST, -26, 39},
      {"samp_2d_f_nearest_norm_mirrored", true, CL_ADDRESS_MIRRORED_REPEAT, CL_FILTER_NEAREST, -26,
       39},
      {"samp_2d_f_nearest_norm_none", true, CL_ADDRESS_NONE, CL_FILTER_NEAREST, 0, 7},
      {"samp_2d_f_linear_unnorm_edge", false, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR, -4, 17},
      {"samp_2d_f_linear_norm_border", true, CL_ADDRESS_CLAMP, CL_FILTER_LINEAR, -4, 17},
      {"samp_2d_f_linear_norm_repeat", true, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR, -26, 39},
  };
  uint32_t seed = 800;
  for (const S2& c : samples2d) {
    const ImageSpec s = spec(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_UNORM_INT8, 13, 7);
    const bool linear = c.filter == CL_FILTER_LINEAR;
    // y stays in the same relative range as x.
    const std::vector<float> xy =
        interleave({coords(n, seed, c.lo, c.hi, w, c.normalized),
                    coords(n, seed + 1, c.lo * h / w, c.hi * h / w, h, c.normalized)},
                   2);
    seed += 2;
    Arg out = output<float>("out", n, kRgba, 2);
    if (linear) out.absTolerance = 2.0f / 256;  // two filtered axes
    v.push_back(grid(c.name, "samp_2d_f", {n, 1, 1}, {64, 1, 1},
                     {imageIn(s, seed++), samplerArg("smp", {c.normalized, c.addressing, c.filter}),
                      input("coord", xy), out}));
  }
  {
    const ImageSpec s = spec(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_UNSIGNED_INT8, 13, 7);
    const std::vector<float> xy =
        interleave({coords(n, seed, -3, 16, w, false), coords(n, seed + 1, -3, 10, h, false)}, 2);
    seed += 2;
    v.push_back(grid("samp_2d_ui_nearest_unnorm_edge", "samp_2d_ui", {n, 1, 1}, {64, 1, 1},
                     {imageIn(s, seed++),
                      samplerArg("smp", {false, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST}),
                      input("coord", xy), output<uint32_t>("out", n, kRgba)}));
  }
  {
    const ImageSpec s = spec(CL_MEM_OBJECT_IMAGE1D, CL_R, CL_FLOAT, 50);
    Arg out = output<float>("out", n, kRgba);
    out.absTolerance = 1.0f / 256;
    v.push_back(grid("samp_1d_f_linear_norm_mirrored", "samp_1d_f", {n, 1, 1}, {64, 1, 1},
                     {imageIn(s, seed, true),
                      samplerArg("smp", {true, CL_ADDRESS_MIRRORED_REPEAT, CL_FILTER_LINEAR}),
                      input("coord", coords(n, seed + 1, -60, 110, 50, true)), out}));
    seed += 2;
  }
  {
    const ImageSpec s = spec(CL_MEM_OBJECT_IMAGE3D, CL_RGBA, CL_HALF_FLOAT, 6, 5, 4);
    const std::vector<float> xyz =
        interleave({coords(n, seed, -2, 8, 6, true), coords(n, seed + 1, -2, 7, 5, true),
                    coords(n, seed + 2, -2, 6, 4, true)},
                   4);
    seed += 3;
    Arg out = output<float>("out", n, kRgba);
    out.absTolerance = 3.0f / 256;  // three filtered axes
    v.push_back(grid("samp_3d_f_linear_norm_edge", "samp_3d_f", {n, 1, 1}, {64, 1, 1},
                     {imageIn(s, seed++, true),
                      samplerArg("smp", {true, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR}),
                      input("coord", xyz), out}));
  }
  {
    // The layer coordinate is never normalized and rounds to the nearest layer: kept a quarter
    // away from the halves.
    const ImageSpec s = spec(CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_RGBA, CL_FLOAT, 8, 6, 1, 3);
    std::vector<float> layer = coords(n, seed + 2, -1, 4, 1, false);
    for (auto& l : layer) l = std::floor(l) + (l - std::floor(l) < 0.5f ? 0.2f : 0.8f) - 0.5f;
    const std::vector<float> xyz = interleave(
        {coords(n, seed, -2, 10, 8, true), coords(n, seed + 1, -2, 8, 6, true), layer}, 4);
    seed += 3;
    v.push_back(grid(
        "samp_2darray_f_nearest_norm_edge", "samp_2darray_f", {n, 1, 1}, {64, 1, 1},
        {imageIn(s, seed++), samplerArg("smp", {true, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST}),
         input("coord", xyz), output<float>("out", n, kRgba)}));
    v.back().toolchain = poclNormalizesArrayLayer;
  }
  {
    const ImageSpec s = spec(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_SIGNED_INT16, 9, 9);
    std::mt19937 g(seed++);
    std::uniform_int_distribution<int32_t> c(-5, 13);
    std::vector<int32_t> xy(2 * n);
    for (auto& x : xy) x = c(g);
    v.push_back(grid("samp_2d_const_sampler_int_coords", "samp_2d_const_int_coords", {n, 1, 1},
                     {64, 1, 1},
                     {imageIn(s, seed++), input("coord", xy), output<int32_t>("out", n, kRgba)}));
  }
}

}  // namespace

std::vector<DiffCase> imageCases() {
  std::vector<DiffCase> v;
  readCases(v);
  writeCases(v);
  queryCases(v);
  sampleCases(v);
  return v;
}

}  // namespace vgpu::diff
