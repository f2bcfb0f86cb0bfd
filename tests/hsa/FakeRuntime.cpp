// The GPU of a test-only libhsa-runtime64.so.1 (tests/hsa/fake-rocr/): a FakeGpuPort with MI50
// figures written out here (platforms/vega20.json), so that Debian's HIP runtime can be run over
// the real HSA API without the model: device queries, allocations and DMA copies work, kernels
// and barrier packets never complete.
#include "FakeGpuPort.h"
#include "runtime/hsa/HsaRuntime.h"

namespace vgpu::hsa {

std::unique_ptr<GpuPort> defaultGpuPort() {
  PlatformConfig p;
  p.name = "vega20";
  p.description = "AMD Radeon Instinct MI50 (Vega 20, gfx906): fake GPU for HSA runtime tests";
  p.processor = "gfx906";
  p.computeUnits = 60;
  p.clockMHz = 1725;
  p.dram.sizeBytes = 16ull << 30;
  return std::make_unique<test::FakeGpuPort>(p);
}

}  // namespace vgpu::hsa
