#include "DiffHarness.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <limits>
#include <random>
#include <sstream>
#include <stdexcept>

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include "RunVariant.h"
#include "platforms/Platform.h"
#include "runtime/ImageBuilder.h"

namespace vgpu::diff {

size_t elemSize(Elem e) {
  switch (e) {
    case Elem::I8:
    case Elem::U8:
      return 1;
    case Elem::I16:
    case Elem::U16:
    case Elem::F16:
      return 2;
    case Elem::I32:
    case Elem::U32:
    case Elem::F32:
      return 4;
    default:
      return 8;
  }
}

// --- inputs -----------------------------------------------------------------------------------

std::vector<float> floatEdges() {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float dmin = std::numeric_limits<float>::denorm_min();
  const float fmin = std::numeric_limits<float>::min(), fmax = std::numeric_limits<float>::max();
  return {0.0f,          -0.0f,
          1.0f,          -1.0f,
          dmin,          -dmin,
          fmin - dmin,   -(fmin - dmin),
          fmin,          -fmin,
          fmax,          -fmax,
          inf,           -inf,
          nan,           -nan,
          0.5f,          -0.5f,
          1.5f,          -1.5f,
          2.5f,          -2.5f,
          3.5f,
          0.49999997f,  // largest float below 0.5
          8388607.5f,    8388608.5f - 1.0f,
          16777216.0f,  // ties around 2^23, 2^24
          16777215.0f,   2147483520.0f,
          2147483648.0f, -2147483648.0f,
          4294967040.0f, 4294967296.0f,
          127.5f,        128.0f,
          -128.5f,       -129.0f,
          255.5f,        256.0f,
          32767.5f,      -32768.5f,
          65535.5f,      1e-30f,
          3.14159265f,   -2.71828183f,
          1e30f,         1.17549421e-38f,
          100.0f,        88.7f,
          -103.9f,       1e-8f};
}

std::vector<double> doubleEdges() {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double dmin = std::numeric_limits<double>::denorm_min();
  const double fmin = std::numeric_limits<double>::min(), fmax = std::numeric_limits<double>::max();
  return {0.0,
          -0.0,
          1.0,
          -1.0,
          dmin,
          -dmin,
          fmin - dmin,
          fmin,
          -fmin,
          fmax,
          -fmax,
          inf,
          -inf,
          nan,
          0.5,
          -0.5,
          1.5,
          2.5,
          -2.5,
          0.49999999999999994,
          4503599627370495.5,
          9007199254740993.0,
          2147483647.5,
          -2147483648.5,
          2147483648.0,
          9.2233720368547758e18,
          -9.2233720368547758e18,
          1.8446744073709552e19,
          3.4028235677973366e38,
          3.4028235677973362e38,
          1.401298464324817e-45,
          7.006492321624085e-46,
          1e-300,
          3.141592653589793,
          -2.718281828459045,
          1e300,
          709.7,
          -745.1,
          100.0,
          1e-8};
}

namespace {
template <typename F, typename U>
std::vector<F> mixedInputs(const std::vector<F>& edges, size_t n, uint32_t seed) {
  std::mt19937_64 g(seed);
  std::vector<F> v(edges.begin(), edges.begin() + std::min(n, edges.size()));
  std::uniform_real_distribution<F> small(-100, 100);
  while (v.size() < n) {
    F x;
    switch (v.size() % 4) {
      case 0: {  // any bit pattern: every exponent, denormals, inf and NaN included
        U bits = static_cast<U>(g());
        std::memcpy(&x, &bits, sizeof x);
        // NaNs are made quiet: what an operation does with a signalling NaN is up to the
        // implementation in OpenCL (quieted on AMD in IEEE mode, passed through by others).
        if (std::isnan(x)) bits |= U{1} << (std::numeric_limits<F>::digits - 2);
        std::memcpy(&x, &bits, sizeof x);
        break;
      }
      case 1:
        x = small(g);
        break;
      case 2:
        x = std::round(small(g) * 4) / 4 + F(0.5) * (g() & 1);
        break;  // halves: ties
      default:
        x = std::ldexp(small(g), static_cast<int>(g() % 60) - 30);
        break;
    }
    v.push_back(x);
  }
  return v;
}
template <typename F>
std::vector<F> rangeInputs(const std::vector<F>& edges, size_t n, uint32_t seed, F lo, F hi,
                           bool withEdges) {
  std::mt19937_64 g(seed);
  std::vector<F> v;
  if (withEdges) v.assign(edges.begin(), edges.begin() + std::min(n, edges.size()));
  std::uniform_real_distribution<F> u(std::log(lo), std::log(hi));
  while (v.size() < n) v.push_back(std::exp(u(g)));
  return v;
}
}  // namespace

std::vector<float> floatInputs(size_t n, uint32_t seed) {
  return mixedInputs<float, uint32_t>(floatEdges(), n, seed);
}
std::vector<double> doubleInputs(size_t n, uint32_t seed) {
  return mixedInputs<double, uint64_t>(doubleEdges(), n, seed);
}
std::vector<float> floatRange(size_t n, uint32_t seed, float lo, float hi, bool edges) {
  return rangeInputs(floatEdges(), n, seed, lo, hi, edges);
}
std::vector<double> doubleRange(size_t n, uint32_t seed, double lo, double hi, bool edges) {
  return rangeInputs(doubleEdges(), n, seed, lo, hi, edges);
}

template <typename T>
std::vector<T> intInputs(size_t n, uint32_t seed) {
  using L = std::numeric_limits<T>;
  std::vector<T> v = {0,
                      1,
                      static_cast<T>(-1),
                      L::min(),
                      L::max(),
                      static_cast<T>(L::min() + 1),
                      static_cast<T>(L::max() - 1),
                      2,
                      3,
                      7,
                      static_cast<T>(-7)};
  for (int b = 1; b < L::digits; b += 3) {
    v.push_back(static_cast<T>(T(1) << b));
    v.push_back(static_cast<T>((T(1) << b) - 1));
    v.push_back(static_cast<T>(-(T(1) << b)));
  }
  std::mt19937_64 g(seed);
  while (v.size() < n) {
    const uint64_t r = g();
    // Alternately any bits, small magnitudes and values near a random power of two.
    switch (v.size() % 3) {
      case 0:
        v.push_back(static_cast<T>(r));
        break;
      case 1:
        v.push_back(static_cast<T>(static_cast<int64_t>(r % 2001) - 1000));
        break;
      default:
        v.push_back(static_cast<T>((uint64_t{1} << (r % (8 * sizeof(T)))) + (r >> 60) - 8));
    }
  }
  v.resize(n);
  return v;
}
template std::vector<int8_t> intInputs<int8_t>(size_t, uint32_t);
template std::vector<uint8_t> intInputs<uint8_t>(size_t, uint32_t);
template std::vector<int16_t> intInputs<int16_t>(size_t, uint32_t);
template std::vector<uint16_t> intInputs<uint16_t>(size_t, uint32_t);
template std::vector<int32_t> intInputs<int32_t>(size_t, uint32_t);
template std::vector<uint32_t> intInputs<uint32_t>(size_t, uint32_t);
template std::vector<int64_t> intInputs<int64_t>(size_t, uint32_t);
template std::vector<uint64_t> intInputs<uint64_t>(size_t, uint32_t);

// --- images -----------------------------------------------------------------------------------

size_t imageChannels(const ImageSpec& s) {
  switch (s.clOrder) {
    case CL_RG:
    case CL_RA:
      return 2;
    case CL_RGBA:
    case CL_BGRA:
    case CL_ARGB:
      return 4;
    default:
      return 1;
  }
}

size_t imageTexelCount(const ImageSpec& s) {
  switch (s.clMemType) {
    case CL_MEM_OBJECT_IMAGE1D:
      return s.width;
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
      return size_t{s.width} * s.arraySize;
    case CL_MEM_OBJECT_IMAGE3D:
      return size_t{s.width} * s.height * s.depth;
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
      return size_t{s.width} * s.height * s.arraySize;
    default:
      return size_t{s.width} * s.height;
  }
}

Elem imageElem(const ImageSpec& s) {
  switch (s.clType) {
    case CL_SNORM_INT8:
    case CL_SIGNED_INT8:
      return Elem::I8;
    case CL_UNORM_INT8:
    case CL_UNSIGNED_INT8:
      return Elem::U8;
    case CL_SNORM_INT16:
    case CL_SIGNED_INT16:
      return Elem::I16;
    case CL_UNORM_INT16:
    case CL_UNSIGNED_INT16:
      return Elem::U16;
    case CL_HALF_FLOAT:
      return Elem::F16;
    case CL_SIGNED_INT32:
      return Elem::I32;
    case CL_UNSIGNED_INT32:
      return Elem::U32;
    default:
      return Elem::F32;
  }
}

Arg imageOutput(const std::string& name, const ImageSpec& spec) {
  Arg a;
  a.name = name;
  a.isBuffer = false;
  a.isImage = true;
  a.image = spec;
  a.elem = imageElem(spec);
  a.checked = true;
  a.bytes.assign(imageTexelCount(spec) * imageChannels(spec) * elemSize(a.elem), 0xA5);
  return a;
}

Arg samplerArg(const std::string& name, const SamplerSpec& spec) {
  Arg a;
  a.name = name;
  a.isBuffer = false;
  a.isSampler = true;
  a.sampler = spec;
  return a;
}

namespace {
// OpenCL's channel orders, types and image object types as hsa_ext_image.h numbers them (the
// image builder's input).
image::ImageDescription hsaImageDescription(const ImageSpec& s) {
  image::ImageDescription d;
  switch (s.clMemType) {
    case CL_MEM_OBJECT_IMAGE1D:
      d.geometry = image::k1d;
      break;
    case CL_MEM_OBJECT_IMAGE2D:
      d.geometry = image::k2d;
      break;
    case CL_MEM_OBJECT_IMAGE3D:
      d.geometry = image::k3d;
      break;
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
      d.geometry = image::k1dArray;
      break;
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
      d.geometry = image::k2dArray;
      break;
    default:
      throw std::runtime_error("image type " + std::to_string(s.clMemType));
  }
  d.width = s.width;
  d.height = s.height;
  d.depth = s.clMemType == CL_MEM_OBJECT_IMAGE3D ? s.depth : 0;
  d.arraySize = s.arraySize;
  static const std::pair<uint32_t, uint32_t> kOrders[] = {
      {CL_A, 0},    {CL_R, 1},     {CL_RG, 3},         {CL_RA, 5},        {CL_RGBA, 8},
      {CL_BGRA, 9}, {CL_ARGB, 10}, {CL_INTENSITY, 16}, {CL_LUMINANCE, 17}};
  static const std::pair<uint32_t, uint32_t> kTypes[] = {
      {CL_SNORM_INT8, 0},      {CL_SNORM_INT16, 1},    {CL_UNORM_INT8, 2},
      {CL_UNORM_INT16, 3},     {CL_SIGNED_INT8, 8},    {CL_SIGNED_INT16, 9},
      {CL_SIGNED_INT32, 10},   {CL_UNSIGNED_INT8, 11}, {CL_UNSIGNED_INT16, 12},
      {CL_UNSIGNED_INT32, 13}, {CL_HALF_FLOAT, 14},    {CL_FLOAT, 15}};
  d.channelOrder = d.channelType = ~0u;
  for (auto [cl, hsa] : kOrders)
    if (cl == s.clOrder) d.channelOrder = hsa;
  for (auto [cl, hsa] : kTypes)
    if (cl == s.clType) d.channelType = hsa;
  return d;
}

image::SamplerDescription hsaSamplerDescription(const SamplerSpec& s) {
  image::SamplerDescription d;
  d.coordinateMode = s.normalized ? 1 : 0;
  d.filterMode = s.clFilter == CL_FILTER_LINEAR ? 1 : 0;
  switch (s.clAddressing) {
    case CL_ADDRESS_CLAMP_TO_EDGE:
      d.addressingMode = 1;
      break;
    case CL_ADDRESS_CLAMP:
      d.addressingMode = 2;
      break;
    case CL_ADDRESS_REPEAT:
      d.addressingMode = 3;
      break;
    case CL_ADDRESS_MIRRORED_REPEAT:
      d.addressingMode = 4;
      break;
    default:
      d.addressingMode = 0;
      break;  // CL_ADDRESS_NONE
  }
  return d;
}
}  // namespace

// --- PoCL -------------------------------------------------------------------------------------

std::string clSourceDir() {
  return VGPU_DIFF_CL_DIR;
}
std::string codeObjectDir() {
  return VGPU_DIFF_KERNEL_DIR;
}

namespace {
void check(cl_int err, const char* what) {
  if (err != CL_SUCCESS)
    throw std::runtime_error(std::string("OpenCL ") + what + " failed: " + std::to_string(err));
}
std::string readFile(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw std::runtime_error("cannot read " + path);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}
}  // namespace

Buffers runOnPocl(const DiffCase& c) {
  // PoCL's single-threaded CPU device: workgroups run one after another, deterministically.
  ::setenv("POCL_DEVICES", "basic", 1);
  // PoCL caches compiled kernels; keep that cache in the build tree (unless the user set one).
  ::setenv("POCL_CACHE_DIR", VGPU_DIFF_POCL_CACHE, 0);
  cl_uint count = 0;
  check(clGetPlatformIDs(0, nullptr, &count), "clGetPlatformIDs (is pocl-opencl-icd installed?)");
  std::vector<cl_platform_id> platforms(count);
  check(clGetPlatformIDs(count, platforms.data(), nullptr), "clGetPlatformIDs");
  cl_platform_id pocl = nullptr;
  for (auto p : platforms) {
    char name[256] = {};
    clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name - 1, name, nullptr);
    if (std::string(name).find("Portable Computing Language") != std::string::npos) pocl = p;
  }
  if (!pocl) throw std::runtime_error("PoCL platform not found (install pocl-opencl-icd)");
  cl_device_id dev;
  check(clGetDeviceIDs(pocl, CL_DEVICE_TYPE_CPU, 1, &dev, nullptr), "clGetDeviceIDs");
  cl_int err;
  cl_context ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
  check(err, "clCreateContext");
  cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
  check(err, "clCreateCommandQueue");
  const std::string src = readFile(clSourceDir() + "/" + c.program + ".cl");
  const char* text = src.c_str();
  cl_program prog = clCreateProgramWithSource(ctx, 1, &text, nullptr, &err);
  check(err, "clCreateProgramWithSource");
  if (clBuildProgram(prog, 1, &dev, "-cl-std=CL1.2", nullptr, nullptr) != CL_SUCCESS) {
    size_t len = 0;
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, nullptr, &len);
    std::string log(len, '\0');
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, len, log.data(), nullptr);
    throw std::runtime_error("PoCL could not build " + c.program + ".cl:\n" + log);
  }
  cl_kernel k = clCreateKernel(prog, c.kernel.c_str(), &err);
  check(err, "clCreateKernel");
  std::vector<cl_mem> mems(c.args.size(), nullptr);
  std::vector<cl_sampler> samplers;
  std::vector<std::array<size_t, 3>> regions(c.args.size());
  for (size_t i = 0; i < c.args.size(); ++i) {
    const Arg& a = c.args[i];
    if (a.isImage) {
      const ImageSpec& s = a.image;
      const cl_image_format format{s.clOrder, s.clType};
      cl_image_desc desc{};
      desc.image_type = s.clMemType;
      desc.image_width = s.width;
      desc.image_height = s.height;
      desc.image_depth = s.depth;
      desc.image_array_size = s.arraySize;
      mems[i] = clCreateImage(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &format, &desc,
                              const_cast<uint8_t*>(a.bytes.data()), &err);
      check(err, "clCreateImage");
      check(clSetKernelArg(k, static_cast<cl_uint>(i), sizeof(cl_mem), &mems[i]), "clSetKernelArg");
      const bool is1dArray = s.clMemType == CL_MEM_OBJECT_IMAGE1D_ARRAY;
      const bool is2dArray = s.clMemType == CL_MEM_OBJECT_IMAGE2D_ARRAY;
      regions[i] = {s.width,
                    is1dArray                                ? s.arraySize
                    : (s.clMemType == CL_MEM_OBJECT_IMAGE1D) ? 1
                                                             : s.height,
                    is2dArray                              ? s.arraySize
                    : s.clMemType == CL_MEM_OBJECT_IMAGE3D ? s.depth
                                                           : 1};
    } else if (a.isSampler) {
      cl_sampler smp = clCreateSampler(ctx, a.sampler.normalized ? CL_TRUE : CL_FALSE,
                                       a.sampler.clAddressing, a.sampler.clFilter, &err);
      check(err, "clCreateSampler");
      samplers.push_back(smp);
      check(clSetKernelArg(k, static_cast<cl_uint>(i), sizeof(cl_sampler), &samplers.back()),
            "clSetKernelArg");
    } else if (a.isBuffer) {
      mems[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, a.bytes.size(),
                               const_cast<uint8_t*>(a.bytes.data()), &err);
      check(err, "clCreateBuffer");
      check(clSetKernelArg(k, static_cast<cl_uint>(i), sizeof(cl_mem), &mems[i]), "clSetKernelArg");
    } else {
      check(clSetKernelArg(k, static_cast<cl_uint>(i), a.bytes.size(), a.bytes.data()),
            "clSetKernelArg");
    }
  }
  const size_t global[3] = {c.global.x, c.global.y, c.global.z};
  const size_t local[3] = {c.local.x, c.local.y, c.local.z};
  const size_t offset[3] = {c.offset[0], c.offset[1], c.offset[2]};
  // The same number of dimensions as the model's AQL packet (get_work_dim must agree).
  const cl_uint dims = c.global.z > 1 || c.local.z > 1   ? 3
                       : c.global.y > 1 || c.local.y > 1 ? 2
                                                         : 1;
  check(clEnqueueNDRangeKernel(q, k, dims, offset, global, local, 0, nullptr, nullptr),
        "clEnqueueNDRangeKernel");
  Buffers out(c.args.size());
  for (size_t i = 0; i < c.args.size(); ++i)
    if (c.args[i].isImage) {
      out[i].resize(c.args[i].bytes.size());
      const size_t origin[3] = {0, 0, 0};
      check(clEnqueueReadImage(q, mems[i], CL_TRUE, origin, regions[i].data(), 0, 0, out[i].data(),
                               0, nullptr, nullptr),
            "clEnqueueReadImage");
    } else if (c.args[i].isBuffer) {
      out[i].resize(c.args[i].bytes.size());
      check(clEnqueueReadBuffer(q, mems[i], CL_TRUE, 0, out[i].size(), out[i].data(), 0, nullptr,
                                nullptr),
            "clEnqueueReadBuffer");
    }
  check(clFinish(q), "clFinish");
  for (auto m : mems)
    if (m) clReleaseMemObject(m);
  for (auto smp : samplers) clReleaseSampler(smp);
  clReleaseKernel(k);
  clReleaseProgram(prog);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  return out;
}

// --- vgpu -------------------------------------------------------------------------------------

Buffers runOnVgpu(const DiffCase& c, const std::string& platform, const std::string& codeObject,
                  const std::string& kernel) {
  return runOnVgpu(c, test::withRunVariant(loadPlatform(platform)), codeObject, kernel);
}

Buffers runOnVgpu(const DiffCase& c, const PlatformConfig& platform, const std::string& codeObject,
                  const std::string& kernel) {
  Simulation sim(platform);
  Buffers out(c.args.size());
  sim.run([&](Runtime& rt) {
    const Module& m = rt.loadModule(codeObject);
    const Kernel k = rt.kernel(m, kernel);
    std::vector<KernelArg> args;
    std::vector<uint64_t> addr(c.args.size(), 0);
    std::vector<image::ImagePlan> plans(c.args.size());
    for (size_t i = 0; i < c.args.size(); ++i) {
      const Arg& a = c.args[i];
      if (a.isImage) {
        // The texels in the linear layout, then the image object (T# and metadata) that the
        // kernel argument points to.
        image::ImagePlan& plan = plans[i];
        if (image::BuildResult r = image::planImage(hsaImageDescription(a.image), plan); !r)
          throw std::runtime_error("image " + a.name + ": " + r.message);
        std::vector<uint8_t> linear(plan.dataBytes, 0);
        image::packedToLinear(plan, a.bytes.data(), linear.data());
        addr[i] = rt.malloc(plan.dataBytes);
        rt.copyToDevice(addr[i], linear.data(), linear.size());
        std::array<uint32_t, image::kImageObjectBytes / 4> object;
        if (image::BuildResult r = image::imageObject(plan, addr[i], object); !r)
          throw std::runtime_error("image " + a.name + ": " + r.message);
        const uint64_t objectAddress = rt.malloc(sizeof object);
        rt.copyToDevice(objectAddress, object.data(), sizeof object);
        args.push_back(KernelArg::pointer(objectAddress));
      } else if (a.isSampler) {
        std::array<uint32_t, 4> words;
        if (image::BuildResult r = image::samplerWords(hsaSamplerDescription(a.sampler), words); !r)
          throw std::runtime_error("sampler " + a.name + ": " + r.message);
        const uint64_t samplerAddress = rt.malloc(sizeof words);
        rt.copyToDevice(samplerAddress, words.data(), sizeof words);
        args.push_back(KernelArg::pointer(samplerAddress));
      } else if (a.isBuffer) {
        addr[i] = rt.malloc(a.bytes.size());
        rt.copyToDevice(addr[i], a.bytes.data(), a.bytes.size());
        args.push_back(KernelArg::pointer(addr[i]));
      } else {
        KernelArg s;
        s.bytes = a.bytes;
        args.push_back(s);
      }
    }
    LaunchConfig cfg;
    cfg.grid = c.global;
    cfg.block = c.local;
    cfg.globalOffset = c.offset;
    rt.launch(k, cfg, args);
    rt.synchronize();
    for (size_t i = 0; i < c.args.size(); ++i)
      if (c.args[i].isImage) {
        std::vector<uint8_t> linear(plans[i].dataBytes);
        rt.copyFromDevice(linear.data(), addr[i], linear.size());
        out[i].resize(c.args[i].bytes.size());
        image::linearToPacked(plans[i], linear.data(), out[i].data());
      } else if (c.args[i].isBuffer) {
        out[i].resize(c.args[i].bytes.size());
        rt.copyFromDevice(out[i].data(), addr[i], out[i].size());
      }
  });
  return out;
}

// --- comparing --------------------------------------------------------------------------------

namespace {
template <typename U, typename F>
int64_t ulpDistanceT(F a, F b) {
  if (std::isnan(a) && std::isnan(b)) return 0;
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<int64_t>::max();
  using S = std::make_signed_t<U>;
  auto key = [](F x) {
    U bits;
    std::memcpy(&bits, &x, sizeof x);
    const U mag = bits & (std::numeric_limits<U>::max() >> 1);
    // Monotonic: ..., -denorm_min -> -2, -0 -> -1, +0 -> 0, denorm_min -> 1, ...
    return (bits >> (8 * sizeof(U) - 1)) ? -static_cast<S>(mag) - 1 : static_cast<S>(mag);
  };
  const S ka = key(a), kb = key(b);
  const uint64_t d = ka > kb ? uint64_t(ka) - uint64_t(kb) : uint64_t(kb) - uint64_t(ka);
  return d > uint64_t(std::numeric_limits<int64_t>::max()) ? std::numeric_limits<int64_t>::max()
                                                           : static_cast<int64_t>(d);
}

// Element e of a buffer as text (value and hex bits).
std::string show(Elem t, const uint8_t* p) {
  std::ostringstream os;
  os << std::setprecision(17);
  auto hex = [&](uint64_t bits, int bytes) {
    os << " (0x" << std::hex << std::setw(2 * bytes) << std::setfill('0') << bits << std::dec
       << ")";
  };
  int8_t i8;
  uint8_t u8;
  int16_t i16;
  uint16_t u16;
  int32_t i32;
  uint32_t u32;
  int64_t i64;
  uint64_t u64;
  float f;
  double d;
  switch (t) {
    case Elem::I8:
      std::memcpy(&i8, p, 1), os << int(i8), hex(uint8_t(i8), 1);
      break;
    case Elem::U8:
      std::memcpy(&u8, p, 1), os << int(u8), hex(u8, 1);
      break;
    case Elem::I16:
      std::memcpy(&i16, p, 2), os << i16, hex(uint16_t(i16), 2);
      break;
    case Elem::U16:
      std::memcpy(&u16, p, 2), os << u16, hex(u16, 2);
      break;
    case Elem::F16:
      std::memcpy(&u16, p, 2), os << "half", hex(u16, 2);
      break;
    case Elem::I32:
      std::memcpy(&i32, p, 4), os << i32, hex(uint32_t(i32), 4);
      break;
    case Elem::U32:
      std::memcpy(&u32, p, 4), os << u32, hex(u32, 4);
      break;
    case Elem::I64:
      std::memcpy(&i64, p, 8), os << i64, hex(uint64_t(i64), 8);
      break;
    case Elem::U64:
      std::memcpy(&u64, p, 8), os << u64, hex(u64, 8);
      break;
    case Elem::F32:
      std::memcpy(&f, p, 4), std::memcpy(&u32, p, 4), os << f, hex(u32, 4);
      break;
    case Elem::F64:
      std::memcpy(&d, p, 8), std::memcpy(&u64, p, 8), os << d, hex(u64, 8);
      break;
  }
  return os.str();
}

// Distance between elements: 0 when equal (floats: within ulps or `absTolerance`), else > 0.
int64_t distance(Elem t, const uint8_t* a, const uint8_t* b, float absTolerance = 0) {
  if (t == Elem::F32) {
    float x, y;
    std::memcpy(&x, a, 4), std::memcpy(&y, b, 4);
    if (absTolerance > 0 && std::fabs(x - y) <= absTolerance) return 0;
    return ulpDistanceT<uint32_t>(x, y);
  }
  if (t == Elem::F64) {
    double x, y;
    std::memcpy(&x, a, 8), std::memcpy(&y, b, 8);
    return ulpDistanceT<uint64_t>(x, y);
  }
  if (t == Elem::F16) {
    uint16_t x, y;
    std::memcpy(&x, a, 2), std::memcpy(&y, b, 2);
    auto isNaN = [](uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff) != 0; };
    if (isNaN(x) && isNaN(y)) return 0;  // OpenCL does not specify NaN payloads
  }
  return std::memcmp(a, b, elemSize(t)) == 0 ? 0 : 1;
}

std::vector<std::vector<uint8_t>> sortedElements(const std::vector<uint8_t>& b, size_t size) {
  std::vector<std::vector<uint8_t>> v;
  for (size_t i = 0; i + size <= b.size(); i += size)
    v.emplace_back(b.begin() + i, b.begin() + i + size);
  std::sort(v.begin(), v.end());
  return v;
}
}  // namespace

int64_t ulpDistance(float a, float b) {
  return ulpDistanceT<uint32_t>(a, b);
}
int64_t ulpDistance(double a, double b) {
  return ulpDistanceT<uint64_t>(a, b);
}

std::string compare(const DiffCase& c, const Buffers& expected, const Buffers& actual,
                    const std::string& reference) {
  std::ostringstream report;
  for (size_t i = 0; i < c.args.size(); ++i) {
    const Arg& a = c.args[i];
    if (!a.checked) continue;
    const size_t size = elemSize(a.elem);
    if (expected[i].size() != a.bytes.size() || actual[i].size() != a.bytes.size())
      return "argument " + a.name + ": wrong size";
    if (a.multiset) {  // order-dependent results: the same values in any order
      if (sortedElements(expected[i], size) != sortedElements(actual[i], size))
        report << a.name << ": the multiset of values differs from the " << reference << "'s\n";
      continue;
    }
    const size_t k = a.fields.empty() ? 1 : a.fields.size();
    const size_t n = a.bytes.size() / size;
    size_t bad = 0, first = 0;
    int64_t worst = 0;
    for (size_t e = 0; e < n; ++e) {
      const int budget = a.fieldUlps.empty() ? a.ulps : a.fieldUlps[e % k];
      const bool isFloat = a.elem == Elem::F32 || a.elem == Elem::F64;
      const int64_t d =
          distance(a.elem, &expected[i][e * size], &actual[i][e * size], a.absTolerance);
      if (d > (isFloat ? budget : 0)) {
        if (bad++ == 0) first = e;
        worst = std::max(worst, d);
      }
    }
    if (bad == 0) continue;
    const bool isFloat = a.elem == Elem::F32 || a.elem == Elem::F64;
    // VGPU_DIFF_VERBOSE=N lists the first N mismatches instead of one.
    const char* env = std::getenv("VGPU_DIFF_VERBOSE");
    const size_t shown = env ? std::max(1, std::atoi(env)) : 1;
    size_t listed = 0;
    for (size_t e = first; e < n && listed < shown; ++e) {
      const int budget = a.fieldUlps.empty() ? a.ulps : a.fieldUlps[e % k];
      if (distance(a.elem, &expected[i][e * size], &actual[i][e * size], a.absTolerance) <=
          (isFloat ? budget : 0))
        continue;
      ++listed;
      const size_t item = e / k;
      report << c.kernel << ": " << a.name << "[" << item << "]";
      if (!a.fields.empty()) report << "." << a.fields[e % k];
      report << ": vgpu " << show(a.elem, &actual[i][e * size]) << ", " << reference << " "
             << show(a.elem, &expected[i][e * size]);
      if (listed == 1) {
        report << "; " << bad << " of " << n << " elements differ";
        if (isFloat) report << " (worst " << worst << " ulp)";
      }
      // The inputs of that work-item: buffers with one element per item, and scalars.
      report << "; inputs:";
      for (const Arg& in : c.args) {
        const size_t s = elemSize(in.elem);
        if (in.isImage || in.isSampler) continue;
        if (!in.isBuffer)
          report << " " << in.name << "=" << show(in.elem, in.bytes.data());
        else if (!in.checked && in.bytes.size() / s == n / k)
          report << " " << in.name << "=" << show(in.elem, &in.bytes[item * s]);
      }
      report << "\n";
    }
  }
  return report.str();
}

std::vector<DiffCase> allCases() {
  std::vector<DiffCase> all;
  for (auto part :
       {integerCases, floatCases, mathCases, convertCases, atomicCases, memoryCases, imageCases})
    for (auto& c : part()) all.push_back(std::move(c));
  return all;
}

DiffCase oneD(const std::string& name, const std::string& program, uint32_t items, uint32_t block,
              std::vector<Arg> args) {
  DiffCase c;
  c.name = c.kernel = name;
  c.program = program;
  c.global = {items, 1, 1};
  c.local = {block, 1, 1};
  c.args = std::move(args);
  return c;
}

DiffCase findCase(const std::string& name) {
  for (auto& c : allCases())
    if (c.name == name) return c;
  throw std::runtime_error("no differential case " + name);
}

}  // namespace vgpu::diff
