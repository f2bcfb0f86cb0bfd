// An example virtual platform around the vgpu GPU model, built against the installed package:
//
//   host CPU --bus--+--> router --+--> system memory      0x0000'0000 .. 64 MiB
//                   |             +--> GPU MMIO registers  0x4000'0000 .. 4 KiB
//                   (docs/register-map.md)
//   GPU (bus master)+             +--> GPU device memory   0x1'0000'0000 .. (1:1 device addresses)
//      ^
//      +------- irq -------------- host CPU
//
// The host program drives the GPU with loads and stores only (GpuDriver.h): no vgpu runtime
// and no C++ reference into the GPU. It loads the code objects into device memory with plain
// stores, keeps its AQL queue, kernel arguments and completion signals in system memory, which
// the GPU reaches through the same router, and runs vector_add on arrays it leaves in system
// memory and a tiled matrix multiply on arrays it copies to device memory; then it checks the
// results on the CPU.
//
//   host_platform [--platform NAME|FILE.json] VECTOR_ADD.co MATMUL_TILED.co
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <systemc>

#include "GpuDriver.h"
#include "HostCpu.h"
#include "Router.h"
#include "SystemMemory.h"
#include "dram/DeviceMemoryMap.h"
#include "gpu/Gpu.h"
#include "platforms/Platform.h"

namespace {

constexpr uint64_t kSystemMemoryBytes = 64ull << 20;
constexpr uint64_t kGpuMmioBase = 0x4000'0000;
constexpr uint64_t kGpuMmioBytes = 0x1000;

struct Options {
  std::string platform = "vega20";
  std::string vectorAdd, matmul;
};

// Where the host program keeps its arrays in system memory.
constexpr uint64_t kA = 0x10'0000, kB = 0x20'0000, kC = 0x30'0000;
// And where its GPU driver keeps the queue, kernel arguments and signals.
constexpr uint64_t kDriverMemory = 0x100'0000, kDriverMemoryBytes = 16ull << 20;

std::vector<float> randomFloats(size_t n, uint32_t seed) {
  std::vector<float> v(n);
  for (auto& x : v) {
    seed = seed * 1664525u + 1013904223u;  // Numerical Recipes' LCG: reproducible inputs
    x = static_cast<float>(seed >> 8) / static_cast<float>(1u << 24) * 8.0f - 4.0f;
  }
  return v;
}

// The host's arrays as bytes, for kernel arguments.
template <typename T>
void append(std::vector<uint8_t>& bytes, T value) {
  const auto* p = reinterpret_cast<const uint8_t*>(&value);
  bytes.insert(bytes.end(), p, p + sizeof value);
}

std::vector<float> loadArray(HostCpu& cpu, uint64_t address, size_t n) {
  std::vector<float> v(n);
  cpu.load(address, v.data(), static_cast<unsigned>(n * 4));
  return v;
}

// vector_add straight on system memory: the kernel reads a and b and writes c where the host
// keeps them (as HIP kernels read and write pinned host memory).
bool runVectorAdd(HostCpu& cpu, GpuDriver& gpu, const std::string& codeObject) {
  const int n = 1000;
  cpu.store(kA, randomFloats(n, 1).data(), n * 4);
  cpu.store(kB, randomFloats(n, 2).data(), n * 4);
  const GpuDriver::Kernel k = gpu.load(codeObject, "vector_add");
  std::vector<uint8_t> args;
  append(args, kA), append(args, kB), append(args, kC), append<int32_t>(args, n);
  gpu.run(k, 1024, 1, 256, 1, args);
  const auto x = loadArray(cpu, kA, n), y = loadArray(cpu, kB, n), z = loadArray(cpu, kC, n);
  for (int i = 0; i < n; ++i)
    if (z[i] != x[i] + y[i]) {
      std::printf("vector_add: element %d is %g, expected %g\n", i, z[i], x[i] + y[i]);
      return false;
    }
  std::printf("vector_add: %d elements in system memory match the CPU\n", n);
  return true;
}

// The tiled matmul on device memory: the host copies its arrays there through the GPU's BAR
// and back.
bool runMatmul(HostCpu& cpu, GpuDriver& gpu, const std::string& codeObject) {
  const int n = 64;
  const unsigned bytes = n * n * 4;
  const std::vector<float> x = randomFloats(n * n, 6), y = randomFloats(n * n, 7);
  const GpuDriver::Kernel k = gpu.load(codeObject, "matmul_tiled");
  const uint64_t a = gpu.allocateDevice(bytes), b = gpu.allocateDevice(bytes);
  const uint64_t c = gpu.allocateDevice(bytes);
  cpu.store(a, x.data(), bytes);
  cpu.store(b, y.data(), bytes);
  std::vector<uint8_t> args;
  append(args, a), append(args, b), append(args, c), append<int32_t>(args, n);
  gpu.run(k, 64, 64, 16, 16, args);
  const auto z = loadArray(cpu, c, n * n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0, magnitude = 0;
      for (int kk = 0; kk < n; ++kk) {
        s += double(x[i * n + kk]) * y[kk * n + j];
        magnitude += std::fabs(double(x[i * n + kk]) * y[kk * n + j]);
      }
      // Float accumulation in the kernel's order: within a few ulps of the sum's magnitude.
      if (std::fabs(z[i * n + j] - s) > 1e-6 * magnitude + 1e-6) {
        std::printf("matmul_tiled: c[%d][%d] is %g, expected %g\n", i, j, z[i * n + j], s);
        return false;
      }
    }
  std::printf("matmul_tiled: %dx%d in device memory matches the CPU\n", n, n);
  return true;
}

struct Platform : sc_core::sc_module {
  vgpu::Gpu gpu;
  SystemMemory memory;
  Router router;
  HostCpu cpu;
  sc_core::sc_signal<bool> irq;

  Platform(sc_core::sc_module_name name, const vgpu::PlatformConfig& config,
           HostCpu::Program program)
      : sc_module(name),
        gpu("gpu", config),
        memory("memory", kSystemMemoryBytes, sc_core::sc_time(50, sc_core::SC_NS)),
        router("router"),
        cpu("cpu", std::move(program)),
        irq("irq") {
    cpu.bus.bind(router.fromInitiators);
    gpu.systemMemorySocket().bind(router.fromInitiators);  // the GPU as a bus master
    router.map(memory.socket, 0, kSystemMemoryBytes, 0, "system memory");
    router.map(gpu.mmioSocket(), kGpuMmioBase, kGpuMmioBytes, 0, "GPU registers");
    router.map(gpu.hostMemorySocket(), vgpu::DeviceMemoryMap::kBase, config.dram.sizeBytes,
               vgpu::DeviceMemoryMap::kBase, "GPU device memory");
    gpu.irq.bind(irq);
    cpu.irq.bind(irq);
  }
};

}  // namespace

int sc_main(int argc, char* argv[]) {
  Options o;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--platform" && i + 1 < argc)
      o.platform = argv[++i];
    else if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr, "host_platform: unknown option '%s'\n", a.c_str());
      return 2;
    } else
      files.push_back(a);
  }
  if (files.size() != 2) {
    std::fprintf(
        stderr, "usage: host_platform [--platform NAME|FILE.json] VECTOR_ADD.co MATMUL_TILED.co\n");
    return 2;
  }
  o.vectorAdd = files[0];
  o.matmul = files[1];

  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                          sc_core::SC_DO_NOTHING);
  vgpu::PlatformConfig config;
  try {
    config = vgpu::loadPlatform(o.platform);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "host_platform: %s\n", e.what());
    return 2;
  }
  bool finished = false;
  Platform platform("platform", config, [&](HostCpu& cpu) {
    GpuDriver gpu(cpu, kGpuMmioBase, kDriverMemory, kDriverMemoryBytes);
    const bool ok = runVectorAdd(cpu, gpu, o.vectorAdd) && runMatmul(cpu, gpu, o.matmul);
    finished = true;
    return ok ? 0 : 1;
  });
  sc_core::sc_start();
  if (!finished && platform.cpu.exitCode() != 2) {
    std::fprintf(stderr, "host_platform: the simulation stopped before the host program ended\n");
    return 3;
  }
  std::printf("%llu interrupts taken, %.3f us simulated on %s\n",
              static_cast<unsigned long long>(platform.cpu.interrupts),
              sc_core::sc_time_stamp().to_seconds() * 1e6, config.name.c_str());
  return platform.cpu.exitCode();
}
