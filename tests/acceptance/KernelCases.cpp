#include "KernelCases.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <random>
#include <sstream>

#include "platforms/Platform.h"

namespace vgpu::test {

namespace {

template <typename T>
std::vector<uint8_t> bytesOf(const std::vector<T>& v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}
template <typename T>
std::vector<T> valuesOf(const std::vector<uint8_t>& b) {
  std::vector<T> v(b.size() / sizeof(T));
  std::memcpy(v.data(), b.data(), v.size() * sizeof(T));
  return v;
}
template <typename T>
CaseArg buffer(const std::vector<T>& v, bool checked = false) {
  CaseArg a;
  a.bytes = bytesOf(v);
  a.checked = checked;
  return a;
}
template <typename T>
CaseArg scalar(T v, const char* kind) {
  CaseArg a;
  a.isBuffer = false;
  a.bytes.resize(sizeof v);
  std::memcpy(a.bytes.data(), &v, sizeof v);
  a.cliKind = kind;
  std::ostringstream os;
  os.precision(17);
  os << v;
  a.cliValue = os.str();
  return a;
}
std::vector<float> randomFloats(size_t n, uint32_t seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> d(-4.0f, 4.0f);
  std::vector<float> v(n);
  for (auto& x : v) x = d(g);
  return v;
}

KernelCase vectorAdd(const std::string& name, const std::string& file) {
  KernelCase c;
  c.name = name;
  c.codeObject = file;
  c.kernel = "vector_add";
  const int n = 1000;  // not a multiple of the block size
  c.launch.grid = {1024, 1, 1};
  c.launch.block = {256, 1, 1};
  c.args = {buffer(randomFloats(n, 1)), buffer(randomFloats(n, 2)),
            buffer(std::vector<float>(n + 24, -1.0f), true), scalar<int32_t>(n, "i32")};
  c.reference = [n](const std::vector<CaseArg>& in, std::vector<std::vector<uint8_t>>& out) {
    auto a = valuesOf<float>(in[0].bytes), b = valuesOf<float>(in[1].bytes);
    auto r = valuesOf<float>(in[2].bytes);
    for (int i = 0; i < n; ++i) r[i] = a[i] + b[i];
    out[2] = bytesOf(r);
  };
  c.isFloatOutput = true;
  return c;
}

KernelCase saxpy() {
  KernelCase c;
  c.name = "saxpy";
  c.codeObject = "saxpy.co";
  c.kernel = "saxpy";
  const int n = 777;
  c.launch.grid = {896, 1, 1};
  c.launch.block = {128, 1, 1};
  c.args = {scalar(2.5f, "f32"), buffer(randomFloats(n, 3)), buffer(randomFloats(n, 4), true),
            scalar<int32_t>(n, "i32")};
  c.reference = [n](const std::vector<CaseArg>& in, std::vector<std::vector<uint8_t>>& out) {
    float a;
    std::memcpy(&a, in[0].bytes.data(), 4);
    auto x = valuesOf<float>(in[1].bytes), y = valuesOf<float>(in[2].bytes);
    for (int i = 0; i < n; ++i) y[i] = std::fma(a, x[i], y[i]);
    out[2] = bytesOf(y);
  };
  c.isFloatOutput = true;
  c.ulps = 1;  // the compiler may or may not contract a * x + y into an fma
  return c;
}

KernelCase blockReduce(const std::string& name, const std::string& file) {
  KernelCase c;
  c.name = name;
  c.codeObject = file;
  c.kernel = "block_reduce";
  const int n = 2000, blocks = 8;
  c.launch.grid = {256 * blocks, 1, 1};
  c.launch.block = {256, 1, 1};
  c.args = {buffer(randomFloats(n, 5)), buffer(std::vector<float>(blocks, 0.0f), true),
            scalar<int32_t>(n, "i32")};
  c.reference = [=](const std::vector<CaseArg>& in, std::vector<std::vector<uint8_t>>& out) {
    auto x = valuesOf<float>(in[0].bytes);
    std::vector<float> sums(blocks);
    for (int b = 0; b < blocks; ++b) {
      // The kernel's tree order, so the float result is exact.
      float p[256];
      for (int t = 0; t < 256; ++t) p[t] = b * 256 + t < n ? x[b * 256 + t] : 0.0f;
      for (int s = 128; s > 0; s >>= 1)
        for (int t = 0; t < s; ++t) p[t] += p[t + s];
      sums[b] = p[0];
    }
    out[1] = bytesOf(sums);
  };
  c.isFloatOutput = true;
  return c;
}

KernelCase matmul(const std::string& name, const std::string& file, int n) {
  KernelCase c;
  c.name = name;
  c.codeObject = file;
  c.kernel = "matmul_tiled";
  c.launch.grid = {static_cast<uint32_t>(n), static_cast<uint32_t>(n), 1};
  c.launch.block = {16, 16, 1};
  c.args = {buffer(randomFloats(n * n, 6)), buffer(randomFloats(n * n, 7)),
            buffer(std::vector<float>(n * n, 0.0f), true), scalar<int32_t>(n, "i32")};
  c.reference = [n](const std::vector<CaseArg>& in, std::vector<std::vector<uint8_t>>& out) {
    auto a = valuesOf<float>(in[0].bytes), b = valuesOf<float>(in[1].bytes);
    std::vector<float> r(n * n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        float s = 0;
        for (int k = 0; k < n; ++k) s = std::fma(a[i * n + k], b[k * n + j], s);
        r[i * n + j] = s;
      }
    out[2] = bytesOf(r);
  };
  c.isFloatOutput = true;
  c.ulps = 4;  // the compiler may contract some products and not others
  return c;
}

KernelCase histogram() {
  KernelCase c;
  c.name = "histogram";
  c.codeObject = "histogram.co";
  c.kernel = "histogram";
  const int n = 10000;
  std::mt19937 g(8);
  std::vector<uint8_t> data(n);
  for (auto& d : data) d = static_cast<uint8_t>(g() % 256 < 200 ? g() % 256 : 7);  // skewed
  c.launch.grid = {256 * 6, 1, 1};
  c.launch.block = {256, 1, 1};
  c.args = {buffer(data), buffer(std::vector<uint32_t>(256, 0), true), scalar<int32_t>(n, "i32")};
  c.reference = [n](const std::vector<CaseArg>& in, std::vector<std::vector<uint8_t>>& out) {
    std::vector<uint32_t> bins(256, 0);
    for (int i = 0; i < n; ++i) ++bins[in[0].bytes[i]];
    out[1] = bytesOf(bins);
  };
  return c;
}

KernelCase collatz() {
  KernelCase c;
  c.name = "collatz_3d";
  c.codeObject = "collatz.co";
  c.kernel = "collatz";
  const int n = 250;
  std::vector<uint32_t> start(n);
  for (int i = 0; i < n; ++i) start[i] = static_cast<uint32_t>(i * 37 + 1);
  // 3D grid and block: 8x8x4 work-items in 4x4x4 workgroups.
  c.launch.grid = {8, 8, 4};
  c.launch.block = {4, 4, 4};
  c.args = {buffer(start), buffer(std::vector<uint32_t>(256, 0), true),
            buffer(std::vector<uint32_t>(256, 9), true), scalar<int32_t>(n, "i32")};
  c.reference = [n](const std::vector<CaseArg>& in, std::vector<std::vector<uint8_t>>& out) {
    auto s = valuesOf<uint32_t>(in[0].bytes);
    auto steps = valuesOf<uint32_t>(in[1].bytes), cls = valuesOf<uint32_t>(in[2].bytes);
    for (int i = 0; i < n; ++i) {
      uint64_t v = s[i];
      uint32_t count = 0;
      while (v != 1 && v != 0) {
        v = (v & 1) ? 3 * v + 1 : v >> 1;
        ++count;
      }
      steps[i] = count;
      cls[i] = count < 10 ? (count & 1) : count < 100 ? (s[i] % 3 == 0 ? 2 : 3) : 4;
    }
    out[1] = bytesOf(steps);
    out[2] = bytesOf(cls);
  };
  return c;
}

KernelCase privateArray() {
  KernelCase c;
  c.name = "private_array";
  c.codeObject = "private_array.co";
  c.kernel = "private_array";
  const int n = 300;
  std::vector<int32_t> index(n);
  for (int i = 0; i < n; ++i) index[i] = (i * 7919) % 1000;
  c.launch.grid = {320, 1, 1};
  c.launch.block = {64, 1, 1};
  c.args = {buffer(index), buffer(std::vector<int32_t>(n, 0), true), scalar<int32_t>(n, "i32")};
  c.reference = [n](const std::vector<CaseArg>& in, std::vector<std::vector<uint8_t>>& out) {
    auto idx = valuesOf<int32_t>(in[0].bytes);
    std::vector<int32_t> r(n);
    for (int t = 0; t < n; ++t) {
      int sum = 0;
      for (int k = 0; k < 4; ++k) sum += ((idx[t] + 17 * k) & 63) * t + 3;
      r[t] = sum;
    }
    out[1] = bytesOf(r);
  };
  return c;
}

// private_vec4.cl compiled with flat scratch: each work-item's int4 table[16] lives in scratch
// (scratch_store_dwordx4 / scratch_load_dwordx4), rows read back by a runtime index.
KernelCase privateVec4FlatScratch() {
  KernelCase c;
  c.name = "private_vec4_flat_scratch";
  c.codeObject = "private_vec4_flat_scratch.co";
  c.kernel = "private_vec4";
  const int n = 300;
  std::vector<int32_t> index(n);
  for (int i = 0; i < n; ++i) index[i] = (i * 7919) % 1000;
  c.launch.grid = {320, 1, 1};
  c.launch.block = {64, 1, 1};
  c.args = {buffer(index), buffer(std::vector<int32_t>(n, 0), true), scalar<int32_t>(n, "i32")};
  c.reference = [n](const std::vector<CaseArg>& in, std::vector<std::vector<uint8_t>>& out) {
    auto idx = valuesOf<int32_t>(in[0].bytes);
    std::vector<int32_t> r(n);
    for (int t = 0; t < n; ++t) {
      auto row = [t](int k) { return std::array<int32_t, 4>{k * t + 1, k + t, k ^ t, k - t}; };
      const auto a = row(idx[t] & 15), b = row((idx[t] + 5) & 15);
      r[t] = a[0] * 3 + a[1] * 5 + a[2] * 7 + a[3] * 11 + b[0] - b[3];
    }
    out[1] = bytesOf(r);
  };
  return c;
}

KernelCase offsetScale(const std::string& name, const std::string& file) {
  KernelCase c;
  c.name = name;
  c.codeObject = file;
  c.kernel = "offset_scale";
  const int size = 512, offset = 100, items = 256;
  c.launch.grid = {items, 1, 1};
  c.launch.block = {64, 1, 1};
  c.launch.globalOffset = {offset, 0, 0};
  c.args = {buffer(randomFloats(size, 9)), buffer(std::vector<float>(size, 0.0f), true),
            scalar(0.75f, "f32")};
  c.reference = [=](const std::vector<CaseArg>& in, std::vector<std::vector<uint8_t>>& out) {
    auto x = valuesOf<float>(in[0].bytes);
    auto r = valuesOf<float>(in[1].bytes);
    float scale;
    std::memcpy(&scale, in[2].bytes.data(), 4);
    for (int g = offset; g < offset + items; ++g)
      r[g] = std::fma(x[g], scale, static_cast<float>(g));
    out[1] = bytesOf(r);
  };
  c.isFloatOutput = true;
  c.ulps = 1;
  return c;
}

int64_t ulpDistance(float a, float b) {
  int32_t ia, ib;
  std::memcpy(&ia, &a, 4);
  std::memcpy(&ib, &b, 4);
  if (ia < 0) ia = INT32_MIN - ia;
  if (ib < 0) ib = INT32_MIN - ib;
  return std::llabs(int64_t{ia} - ib);
}

// The 5-point stencil on an n x n image, clamped at the border.
KernelCase stencil2d(const std::string& name, const std::string& file, int n) {
  KernelCase c;
  c.name = name;
  c.codeObject = file;
  c.kernel = "stencil2d";
  c.launch.grid = {static_cast<uint32_t>(n), static_cast<uint32_t>(n), 1};
  c.launch.block = {16, 16, 1};
  const float coefficient = 0.2f;
  c.args = {buffer(randomFloats(static_cast<size_t>(n) * n, 11)),
            buffer(std::vector<float>(static_cast<size_t>(n) * n, 0.0f), true),
            scalar<int32_t>(n, "i32"), scalar<int32_t>(n, "i32"), scalar(coefficient, "f32")};
  c.reference = [n, coefficient](const std::vector<CaseArg>& in,
                                 std::vector<std::vector<uint8_t>>& out) {
    auto x = valuesOf<float>(in[0].bytes);
    auto at = [&](int i, int j) {
      i = std::clamp(i, 0, n - 1);
      j = std::clamp(j, 0, n - 1);
      return x[static_cast<size_t>(j) * n + i];
    };
    std::vector<float> r(static_cast<size_t>(n) * n);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        // The source's order of additions, and the two fused multiply-adds hipcc -O2 contracts
        // `center + c * (sum - 4 * center)` into (v_fmac_f32 twice): the result is exact.
        const float center = at(i, j);
        const float sum = ((at(i, j - 1) + at(i, j + 1)) + at(i - 1, j)) + at(i + 1, j);
        r[static_cast<size_t>(j) * n + i] =
            std::fma(coefficient, std::fma(-4.0f, center, sum), center);
      }
    out[1] = bytesOf(r);
  };
  c.isFloatOutput = true;
  return c;
}

// out = transpose(in) for a w x h matrix of words.
KernelCase transpose(int w, int h) {
  KernelCase c;
  c.name = "transpose_" + std::to_string(w) + "x" + std::to_string(h);
  c.codeObject = "transpose_tiled.co";
  c.kernel = "transpose_tiled";
  c.launch.grid = {static_cast<uint32_t>(w), static_cast<uint32_t>(h) / 4, 1};  // 4 rows each
  c.launch.block = {32, 8, 1};
  std::vector<uint32_t> in(static_cast<size_t>(w) * h);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<uint32_t>(i * 2654435761u);
  c.args = {buffer(in), buffer(std::vector<uint32_t>(in.size(), 0xdeadbeefu), true),
            scalar<int32_t>(w, "i32"), scalar<int32_t>(h, "i32")};
  c.reference = [w, h](const std::vector<CaseArg>& in, std::vector<std::vector<uint8_t>>& out) {
    auto x = valuesOf<uint32_t>(in[0].bytes);
    std::vector<uint32_t> r(x.size());
    for (int y = 0; y < h; ++y)
      for (int i = 0; i < w; ++i)
        r[static_cast<size_t>(i) * h + y] = x[static_cast<size_t>(y) * w + i];
    out[1] = bytesOf(r);
  };
  return c;
}

}  // namespace

std::string kernelDir() {
  return VGPU_KERNEL_DIR;
}

std::vector<KernelCase> allKernelCases() {
  return {vectorAdd("vector_add", "vector_add.co"),
          saxpy(),
          blockReduce("block_reduce", "block_reduce.co"),
          matmul("matmul_64", "matmul_tiled.co", 64),
          matmul("matmul_128", "matmul_tiled.co", 128),
          matmul("matmul_256", "matmul_tiled.co", 256),
          histogram(),
          collatz(),
          privateArray(),
          privateVec4FlatScratch(),
          offsetScale("offset_scale", "offset_scale.co"),
          vectorAdd("vector_add_v5", "vector_add_v5.co"),
          matmul("matmul_v5_64", "matmul_tiled_v5.co", 64),
          offsetScale("offset_scale_v5", "offset_scale_v5.co"),
          vectorAdd("vector_add_gfx900", "vector_add_gfx900.co"),
          blockReduce("block_reduce_gfx900", "block_reduce_gfx900.co"),
          stencil2d("stencil2d_256", "stencil2d.co", 256),
          stencil2d("stencil2d_512", "stencil2d.co", 512),
          stencil2d("stencil2d_1024", "stencil2d.co", 1024),
          stencil2d("stencil2d_gfx900_512", "stencil2d_gfx900.co", 512),
          transpose(256, 256),
          transpose(512, 128)};
}

KernelCase kernelCase(const std::string& name) {
  for (auto& c : allKernelCases())
    if (c.name == name) return c;
  throw std::runtime_error("no kernel case " + name);
}

std::vector<KernelArg> uploadArgs(Runtime& rt, const KernelCase& c,
                                  std::vector<uint64_t>& buffers) {
  std::vector<KernelArg> args;
  buffers.assign(c.args.size(), 0);
  for (size_t i = 0; i < c.args.size(); ++i) {
    if (c.args[i].isBuffer) {
      buffers[i] = rt.malloc(c.args[i].bytes.size());
      rt.copyToDevice(buffers[i], c.args[i].bytes.data(), c.args[i].bytes.size());
      args.push_back(KernelArg::pointer(buffers[i]));
    } else {
      KernelArg a;
      a.bytes = c.args[i].bytes;
      args.push_back(a);
    }
  }
  return args;
}

std::vector<std::vector<uint8_t>> runThroughRuntime(const KernelCase& c,
                                                    const std::string& platform) {
  return runThroughRuntime(c, loadPlatform(platform));
}

std::vector<std::vector<uint8_t>> runThroughRuntime(const KernelCase& c,
                                                    const PlatformConfig& platform) {
  Simulation sim(platform);
  std::vector<std::vector<uint8_t>> out(c.args.size());
  sim.run([&](Runtime& rt) {
    const Module& m = rt.loadModule(kernelDir() + "/" + c.codeObject);
    const Kernel k = rt.kernel(m, c.kernel);
    std::vector<uint64_t> buffers;
    rt.launch(k, c.launch, uploadArgs(rt, c, buffers));
    rt.synchronize();
    for (size_t i = 0; i < c.args.size(); ++i)
      if (c.args[i].isBuffer) {
        out[i].resize(c.args[i].bytes.size());
        rt.copyFromDevice(out[i].data(), buffers[i], out[i].size());
      }
  });
  return out;
}

std::string checkAgainstReference(const KernelCase& c,
                                  const std::vector<std::vector<uint8_t>>& out) {
  std::vector<std::vector<uint8_t>> expected(c.args.size());
  c.reference(c.args, expected);
  for (size_t i = 0; i < c.args.size(); ++i) {
    if (!c.args[i].checked) continue;
    if (out[i].size() != expected[i].size())
      return "buffer " + std::to_string(i) + " has the wrong size";
    if (c.isFloatOutput) {
      auto got = valuesOf<float>(out[i]), want = valuesOf<float>(expected[i]);
      for (size_t e = 0; e < got.size(); ++e)
        if (ulpDistance(got[e], want[e]) > c.ulps) {
          std::ostringstream os;
          os.precision(9);
          os << "buffer " << i << " element " << e << ": got " << got[e] << ", expected "
             << want[e];
          return os.str();
        }
    } else {
      auto got = valuesOf<uint32_t>(out[i]), want = valuesOf<uint32_t>(expected[i]);
      for (size_t e = 0; e < got.size(); ++e)
        if (got[e] != want[e]) {
          std::ostringstream os;
          os << "buffer " << i << " element " << e << ": got " << got[e] << ", expected "
             << want[e];
          return os.str();
        }
    }
  }
  return "";
}

}  // namespace vgpu::test
