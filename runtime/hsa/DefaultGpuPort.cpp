// The shared library's GPU: the simulated one (SimulatedGpu.cpp).
#include "runtime/hsa/HsaRuntime.h"

namespace vgpu::hsa {

std::unique_ptr<GpuPort> defaultGpuPort() {
  return openSimulatedGpu();
}

}  // namespace vgpu::hsa
