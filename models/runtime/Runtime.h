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
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>
#include <tlm>

#include "common/PlatformConfig.h"
#include "cp/Aql.h"
#include "fabric/SystemMemory.h"
#include "isa/HazardChecker.h"
#include "loader/CodeObject.h"
#include "runtime/DeviceMemoryAllocator.h"

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
  // The packet header's fences (HSA defaults of hipModuleLaunchKernel: system scope both).
  aql::FenceScope acquireFence = aql::kScopeSystem;
  aql::FenceScope releaseFence = aql::kScopeSystem;
};

// One of the GPU's AQL queues (its hardware index). Queue 0 is the runtime's default queue.
struct Queue {
  uint32_t index = 0;
};

// An HSA signal in device memory (amd_signal_t layout: the 64-bit value at offset 8). A null
// signal (address 0) stands for "no signal".
struct Signal {
  uint64_t address = 0;
  explicit operator bool() const { return address != 0; }
};

enum class BarrierKind { And, Or };

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
  // A buffer with `guardBytes` (a multiple of 256) of address space before and after it that is
  // never mapped, so a kernel's access that strays into it faults instead of reaching another
  // allocation. With `exact`, only the `bytes` asked for are mapped (MEM_MAP ranges are
  // byte-exact): an access to any byte outside them faults. Without, the allocation rounded
  // up to 256 bytes is mapped, as malloc maps it. The addresses are the same either way, so a
  // kernel that stays inside its buffers runs identically. free() takes the returned address.
  uint64_t mallocGuarded(uint64_t bytes, uint64_t guardBytes, bool exact);
  // The address space a buffer of `bytes` takes (guards aside): allocations are made in units
  // of 256 bytes.
  static uint64_t allocationBytes(uint64_t bytes) { return (bytes + 255) & ~uint64_t{255}; }
  void free(uint64_t deviceAddress);
  void copyToDevice(uint64_t dst, const void* src, uint64_t bytes);
  void copyFromDevice(void* dst, uint64_t src, uint64_t bytes);
  void memset(uint64_t dst, uint8_t value, uint64_t bytes);

  // Code objects: copied to device memory, relocated, decoded once.
  const Module& loadModule(const std::string& path);
  const Module& loadModule(loader::CodeObject object, const std::string& name);
  // Throws InputError listing the kernels that exist when `name` is not one of them.
  Kernel kernel(const Module& module, const std::string& name) const;

  // Writes an AQL kernel-dispatch packet into the default queue and rings the doorbell; returns
  // at once. Throws InputError when the arguments do not match the kernel's metadata or the
  // sizes are bad.
  void launch(const Kernel& kernel, const LaunchConfig& config, const std::vector<KernelArg>& args);
  // The same on `queue`; the CP decrements `completion` (if given) when the dispatch is done.
  void launch(Queue queue, const Kernel& kernel, const LaunchConfig& config,
              const std::vector<KernelArg>& args, Signal completion = {});
  // Waits until every launched dispatch has completed. Throws KernelFault if one faulted, and
  // InputError if the GPU rejected a packet.
  void synchronize();
  // Waits until every packet written to `queue` has been consumed; throws as synchronize().
  void synchronize(Queue queue);

  // Several queues: each createQueue() takes one more of the GPU's AQL queues (1, 2, ...; the
  // register QUEUES says how many there are); their packets run concurrently with the other
  // queues'. Throws InputError when all are taken.
  Queue createQueue(uint32_t packets = 64);
  uint32_t queueCount();  // the GPU's QUEUES register
  // A barrier-AND (every dependency's value 0) or barrier-OR (any of them 0) packet: the
  // queue's later packets wait for it, other queues do not. At most 5 dependencies.
  void barrier(Queue queue, BarrierKind kind, const std::vector<Signal>& dependencies,
               Signal completion = {});
  // Signals in device memory.
  Signal createSignal(int64_t value);
  void destroySignal(Signal signal);
  int64_t signalValue(Signal signal);
  void setSignal(Signal signal, int64_t value);
  // Sleeps on the interrupt until the signal's value is at most `atMost`.
  void waitSignal(Signal signal, int64_t atMost = 0);

  // Co-verification: from now on, every instruction a wave issues is checked for missing
  // software-inserted wait states (Vega ISA guide 4.5, table 8; isa/HazardChecker.h). Off by
  // default; call before launching. hazardFindings() lists what was found so far (PCs and
  // code-object offsets, both instructions, wait states required and present, how often).
  void enableHazardChecks();
  std::vector<isa::HazardFinding> hazardFindings() const;

  Gpu& gpu() { return gpu_; }

 private:
  struct QueueState {
    uint32_t index = 0;
    uint64_t base = 0;  // 0: not set up yet
    uint32_t packets = 0;
    uint64_t writeIndex = 0;
    uint64_t knownReadIndex = 0;                 // READ_INDEX as last read (it only grows)
    std::vector<uint64_t> transientAllocations;  // kernargs and outgrown scratch in flight
    uint64_t scratchBase = 0, scratchBytes = 0;  // what QUEUE_SCRATCH holds
  };
  // One register access of `bytes` (4, or 8 for a LO/HI pair); throws if refused.
  void mmioAccess(tlm::tlm_command command, uint32_t reg, void* data, unsigned bytes);
  void mmioWrite(uint32_t reg, uint32_t value);
  // A LO/HI register pair in one 8-byte access.
  void mmioWrite64(uint32_t loRegister, uint64_t value);
  // The allocator over the aperture the GPU reports (DEVICE_MEMORY_BASE/SIZE), made at first use.
  DeviceMemoryAllocator& allocator();
  // Gives the queue at least `bytes` of scratch (QUEUE_SCRATCH) before a dispatch needs it.
  void ensureScratch(QueueState& q, uint64_t bytes);
  // MEM_MAP: tells the GPU a range is (no longer) valid device memory.
  void mapDeviceMemory(uint64_t base, uint64_t bytes);
  void unmapDeviceMemory(uint64_t base);
  uint32_t mmioRead(uint32_t reg);
  void transfer(tlm::tlm_command cmd, uint64_t address, uint8_t* data, uint64_t bytes);
  QueueState& queueState(Queue queue);
  void setupQueue(QueueState& q, uint32_t packets);
  uint64_t readIndex(const QueueState& q);
  // Sleeps until the interrupt line is (or was) raised, then acknowledges a packet completion.
  void waitForInterrupt();
  // Throws if the queue reports an error (and clears it).
  void checkQueueError(const QueueState& q);
  // Writes the packet's body, then its header (HSA publication rule), and rings the doorbell.
  void submitPacket(QueueState& q, const void* packet, uint16_t header);
  std::vector<uint8_t> buildKernarg(const Kernel& k, const LaunchConfig& c,
                                    const std::vector<KernelArg>& args, uint64_t queueBase) const;

  HostPort& port_;
  Gpu& gpu_;
  std::unique_ptr<DeviceMemoryAllocator> allocator_;
  std::map<uint64_t, uint64_t> guarded_;  // mallocGuarded: buffer address -> its allocation
  std::vector<std::unique_ptr<Module>> modules_;
  std::vector<QueueState> queues_;  // [0] the default queue, then createQueue()'s
};

// A complete simulated system: the GPU, the host port wired to its MMIO, memory and interrupt,
// and a host thread that runs the given program.
class Simulation {
 public:
  // The system memory the GPU reaches through its system-memory socket: 1 GiB at 2 GiB, below
  // device memory (4 GiB) and far from address 0, so that null pointers still fault.
  static constexpr uint64_t kSystemMemoryBase = 0x8000'0000ull;
  static constexpr uint64_t kSystemMemoryBytes = 1ull << 30;

  explicit Simulation(const PlatformConfig& config);
  ~Simulation();
  // Runs `hostProgram` on the host thread until it returns, then stops the simulation.
  // Exceptions thrown inside it (InputError, KernelFault, ...) are rethrown here.
  // May be called once per process (SystemC allows one simulation).
  void run(const std::function<void(Runtime&)>& hostProgram);
  Gpu& gpu();
  SystemMemory& systemMemory();
  double simulatedSeconds() const;

 private:
  struct Top;
  std::unique_ptr<Top> top_;
};

}  // namespace vgpu
