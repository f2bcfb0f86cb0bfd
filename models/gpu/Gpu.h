// The whole GPU as one SystemC module: command processor, dispatcher, compute units with their
// LDS and texture paths, scalar/instruction caches per group of CUs, L2 and DRAM, wired with
// TLM-2.0 sockets.
//
// Integration points for a platform:
//   mmioSocket()        target: the register map (cp/MmioRegisters.h)
//   hostMemorySocket()  target: device memory as the host (PCIe BAR) sees it
//   systemMemorySocket() initiator: the GPU's own accesses to system memory (every address
//                       outside device memory: queues, kernargs, signals, pinned buffers);
//                       optional, unbound means no system memory (fabric/DataFabric.h)
//   irq                 interrupt line, high while an enabled interrupt is pending
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>

#include "activity/ActivitySampler.h"
#include "common/BusSockets.h"
#include "common/DebugSymbols.h"
#include "common/DispatchRecord.h"
#include "common/PlatformConfig.h"
#include "common/Statistics.h"
#include "cu/InstructionProfile.h"
#include "isa/Gws.h"
#include "isa/HazardChecker.h"

namespace vgpu {

// The blocks inside (models/<block>/): a platform needs none of their headers.
class CommandProcessor;
class ComputeUnit;
class DataFabric;
class Dispatcher;
class Dram;
class InstructionDecodeCache;
class L2Cache;
class Lds;
class Sqc;
class TexturePath;
namespace trace {
class TraceRecorder;
}

// How the GPU binds one of its internal initiator sockets to a target: directly (the default),
// or through an interposer such as a TLM-2.0 base-protocol checker (tests/vp/). `where` names
// the boundary, e.g. "l2->dram" or "cu3->lds".
using SocketBinder =
    std::function<void(tlm::tlm_initiator_socket<>& from, tlm::tlm_base_target_socket_b<>& to,
                       const std::string& where)>;

class Gpu : public sc_core::sc_module {
 public:
  sc_core::sc_out<bool> irq;

  Gpu(sc_core::sc_module_name name, const PlatformConfig& config, SocketBinder binder = {});
  ~Gpu() override;

  tlm::tlm_target_socket<>& mmioSocket();
  HostMemorySocket& hostMemorySocket();
  SystemMemorySocket& systemMemorySocket();

  const PlatformConfig& config() const { return config_; }
  const Statistics& statistics() const { return stats_; }
  const std::vector<DispatchRecord>& dispatches() const { return dispatches_; }
  uint64_t waveInstructions() const;
  // Dispatches taken from a queue and not yet complete, and the event notified when one is
  // taken (progress reporting: models/activity/ProgressMeter).
  size_t activeDispatches() const;
  const sc_core::sc_event& dispatchSubmittedEvent() const;
  // Debug interface: the full report of queue `queue`'s fault (wave, PC, encoding, disassembly),
  // "" if it has none. Host software learns of a fault through QUEUE_STATUS/QUEUE_ERROR
  // (docs/register-map.md); this text is what a debugger attached to the model would show.
  const std::string& debugQueueFault(uint32_t queue) const;
  // The TIMESTAMP register's value now (ns of simulated time; docs/register-map.md), for
  // platform blocks beside the GPU that stamp signals on the same clock (a DMA engine).
  static uint64_t timestampNow();
  // Debug interface: what host software knows about the code it loaded, for reports only (fault
  // messages, statistics, hazard findings). The GPU runs kernels without it, from their kernel
  // descriptors and code in device memory; a kernel never named is reported by its descriptor
  // address. `descriptor`: the kernel descriptor's device address (the AQL packet's
  // kernel_object); a code object loaded at [base, base + bytes) makes reports give addresses
  // in it as offsets from `base`, as `vgpu-sim disasm` and llvm-objdump print them.
  void debugNameKernel(uint64_t descriptor, std::string name) {
    symbols_.nameKernel(descriptor, std::move(name));
  }
  void debugCodeObjectLoaded(uint64_t base, uint64_t bytes) {
    symbols_.codeObjectLoaded(base, bytes);
  }
  void debugCodeObjectUnloaded(uint64_t base) { symbols_.codeObjectUnloaded(base); }
  // Turns on the time series of the report (vgpu-sim --report): call before the simulation
  // starts. Channels: "cuN.active_waves" (wave-cycles), "wave_instructions", "stall.REASON"
  // (wave-cycles), "lds.bytes", "lds.conflict_cycles", "vector_l1.bytes", "l2.bytes",
  // "vector_l1.bytes_to_l2", "dram.bytes" (what L2 moved to and from DRAM).
  ActivitySampler& enableActivitySampling();
  // Null unless enableActivitySampling() was called.
  const ActivitySampler* activity() const { return activity_.get(); }
  // Turns on the hazard checker (vgpu-sim --check-hazards): every instruction a wave issues
  // from then on is checked for missing software-inserted wait states (isa/HazardChecker.h).
  isa::HazardChecker& enableHazardChecks();
  // Null unless enableHazardChecks() was called.
  const isa::HazardChecker* hazardChecker() const { return hazards_.get(); }
  // The checker's findings with their code-object offsets filled in (empty when it is off).
  std::vector<isa::HazardFinding> hazardFindings() const;
  // Turns on the per-instruction profile (vgpu-sim --profile-instructions): issues and stall
  // cycles per instruction address (cu/InstructionProfile.h); reports show the `rows` hottest.
  // Call before the simulation starts.
  InstructionProfile& enableInstructionProfile(uint32_t rows);
  // Null unless enableInstructionProfile() was called.
  const InstructionProfile* instructionProfile() const { return profile_.get(); }
  // `address` as an offset in the code object host software loaded it with (what `vgpu-sim
  // disasm` and llvm-objdump print); the address itself when no code object holds it.
  uint64_t codeObjectOffset(uint64_t address) const {
    return address - symbols_.codeObjectBase(address);
  }
  // Whether this build has the RTL LDS arbiter (lds.arbiter "rtl"; CMake option VGPU_RTL_COSIM).
  static bool rtlLdsArbiterBuilt();
  // Completes the model-activity VCD and the timeline (config.trace; models/trace): call once
  // after the simulation (Simulation::run does). Without it, no trace file is left behind.
  void finishTraces();
  // After finishTraces(): a message for each trace whose window was asked for and kept no
  // activity, naming the window and the cycles the kernels ran in (empty: nothing to warn).
  std::vector<std::string> emptyTraceWindows() const;

 private:
  void registerStatistics();
  void attachTraces();

  void bind(tlm::tlm_initiator_socket<>& from, tlm::tlm_base_target_socket_b<>& to,
            const std::string& where);

  PlatformConfig config_;
  sc_core::sc_time period_;
  SocketBinder binder_;
  DebugSymbols symbols_;
  Statistics stats_;
  std::vector<DispatchRecord> dispatches_;
  std::unique_ptr<ActivitySampler> activity_;
  std::unique_ptr<isa::HazardChecker> hazards_;
  std::unique_ptr<InstructionProfile> profile_;
  std::unique_ptr<trace::TraceRecorder> trace_;  // null unless config.trace asks for a file

  std::unique_ptr<Dram> dram_;
  std::unique_ptr<DataFabric> fabric_;
  std::unique_ptr<L2Cache> l2_;
  std::unique_ptr<InstructionDecodeCache> decoded_;
  std::unique_ptr<Dispatcher> dispatcher_;
  std::unique_ptr<CommandProcessor> cp_;
  std::vector<std::unique_ptr<Sqc>> sqcs_;
  std::vector<std::unique_ptr<ComputeUnit>> cus_;
  std::vector<std::unique_ptr<Lds>> lds_;
  std::vector<uint8_t> gds_;  // the global data share: one for the device, shared by every CU
  // The global wave sync resources (ds_gws_*), device-wide like the GDS, and the event a CU
  // notifies when one of its waves changed one.
  isa::GwsState gws_;
  sc_core::sc_event gwsChanged_;
  // When a wave last changed memory, on any CU (ComputeUnit::attachDeviceWrites).
  uint64_t lastMemoryWriteCycle_ = 0;
  std::vector<std::unique_ptr<TexturePath>> tcs_;
};

}  // namespace vgpu
