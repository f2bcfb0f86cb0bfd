// The host-side API: what a HIP/HSA runtime does for an application, on the simulated GPU.
// Device memory, copies, code objects, kernel launches and waiting all go through the same
// TLM sockets, MMIO registers, AQL queue and completion signals a virtual platform's host
// software would use. Every call must be made from the host thread that Simulation::run
// starts (the host program), because copies and waits consume simulated time.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>
#include <tlm>

#include "common/PlatformConfig.h"
#include "loader/CodeObject.h"

namespace vgpu {

class Gpu;

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
};

struct LaunchConfig {
  Dim3 grid;   // work-items per dimension (AQL/OpenCL convention)
  Dim3 block;  // work-items per workgroup
  uint32_t dynamicLdsBytes = 0;
  std::array<uint64_t, 3> globalOffset{0, 0, 0};  // OpenCL global work offset
};

// One explicit kernel argument's bytes, in metadata order.
struct KernelArg {
  std::vector<uint8_t> bytes;
  enum class Kind { Pointer, Scalar } kind = Kind::Scalar;
  template <typename T>
  static KernelArg value(T v) {
    KernelArg a;
    a.bytes.resize(sizeof v);
    std::memcpy(a.bytes.data(), &v, sizeof v);
    return a;
  }
  static KernelArg pointer(uint64_t deviceAddress) {
    KernelArg a = value(deviceAddress);
    a.kind = Kind::Pointer;
    return a;
  }
};

// A code object loaded into device memory.
struct Module {
  std::string path;
  loader::CodeObject object;
  uint64_t base = 0;  // device address of image offset 0
};

struct Kernel {
  const Module* module = nullptr;
  const loader::KernelInfo* info = nullptr;
  uint64_t descriptorAddress = 0;  // device address of NAME.kd
};

// The host's initiator side: a sc_module with the sockets the host CPU drives.
class HostPort : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<HostPort> mmio;
  tlm_utils::simple_initiator_socket<HostPort> memory;
  sc_core::sc_in<bool> irq;
  explicit HostPort(sc_core::sc_module_name name)
      : sc_module(name), mmio("mmio"), memory("memory"), irq("irq") {}
};

class Runtime {
 public:
  Runtime(HostPort& port, Gpu& gpu);
  ~Runtime();

  // Device memory.
  uint64_t malloc(uint64_t bytes);
  void free(uint64_t deviceAddress);
  void copyToDevice(uint64_t dst, const void* src, uint64_t bytes);
  void copyFromDevice(void* dst, uint64_t src, uint64_t bytes);
  void memset(uint64_t dst, uint8_t value, uint64_t bytes);

  // Code objects: copied to device memory, relocated, decoded once.
  const Module& loadModule(const std::string& path);
  const Module& loadModule(loader::CodeObject object, const std::string& name);
  // Throws InputError listing the kernels that exist when `name` is not one of them.
  Kernel kernel(const Module& module, const std::string& name) const;

  // Writes an AQL kernel-dispatch packet and rings the doorbell; returns at once. Throws
  // InputError when the arguments do not match the kernel's metadata or the sizes are bad.
  void launch(const Kernel& kernel, const LaunchConfig& config, const std::vector<KernelArg>& args);
  // Waits until every launched dispatch has completed. Throws KernelFault if one faulted.
  void synchronize();

  Gpu& gpu() { return gpu_; }

 private:
  void mmioWrite(uint32_t reg, uint32_t value);
  uint32_t mmioRead(uint32_t reg);
  void transfer(tlm::tlm_command cmd, uint64_t address, uint8_t* data, uint64_t bytes);
  void setupQueue();
  std::vector<uint8_t> buildKernarg(const Kernel& k, const LaunchConfig& c,
                                    const std::vector<KernelArg>& args) const;

  HostPort& port_;
  Gpu& gpu_;
  std::vector<std::unique_ptr<Module>> modules_;
  uint64_t queueBase_ = 0, signal_ = 0;
  uint32_t queuePackets_ = 64;
  uint64_t writeIndex_ = 0;
  int64_t launchesInFlight_ = 0;
  std::vector<uint64_t> transientAllocations_;  // kernargs of in-flight launches
};

// A complete simulated system: the GPU, the host port wired to its MMIO, memory and interrupt,
// and a host thread that runs the given program.
class Simulation {
 public:
  explicit Simulation(const PlatformConfig& config);
  ~Simulation();
  // Runs `hostProgram` on the host thread until it returns, then stops the simulation.
  // Exceptions thrown inside it (InputError, KernelFault, ...) are rethrown here.
  // May be called once per process (SystemC allows one simulation).
  void run(const std::function<void(Runtime&)>& hostProgram);
  Gpu& gpu();
  double simulatedSeconds() const;

 private:
  struct Top;
  std::unique_ptr<Top> top_;
};

}  // namespace vgpu
