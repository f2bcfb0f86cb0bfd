// The whole GPU as one SystemC module: command processor, dispatcher, compute units with their
// LDS and texture paths, scalar/instruction caches per group of CUs, L2 and DRAM, wired with
// TLM-2.0 sockets as DESIGN.md draws them.
//
// Integration points for a platform:
//   mmioSocket()        target: the register map (cp/MmioRegisters.h)
//   hostMemorySocket()  target: device memory as the host (PCIe BAR) sees it
//   irq                 interrupt line, high while an enabled interrupt is pending
#pragma once

#include <memory>
#include <vector>

#include <systemc>
#include <tlm>

#include "common/PlatformConfig.h"
#include "common/Statistics.h"
#include "cp/CodeRegistry.h"
#include "cp/CommandProcessor.h"
#include "cu/ComputeUnit.h"
#include "dispatcher/Dispatcher.h"
#include "dram/Dram.h"
#include "l2/L2Cache.h"
#include "lds/Lds.h"
#include "sqc/Sqc.h"
#include "tc/TexturePath.h"

namespace vgpu {

class Gpu : public sc_core::sc_module {
 public:
  sc_core::sc_out<bool> irq;

  Gpu(sc_core::sc_module_name name, const PlatformConfig& config);
  ~Gpu() override;

  tlm::tlm_target_socket<>& mmioSocket() { return cp_->mmio; }
  tlm_utils::multi_passthrough_target_socket<Dram>& hostMemorySocket() { return dram_->socket; }

  const PlatformConfig& config() const { return config_; }
  Dram& dram() { return *dram_; }
  CodeRegistry& code() { return code_; }
  CommandProcessor& commandProcessor() { return *cp_; }
  const Statistics& statistics() const { return stats_; }
  const std::vector<DispatchRecord>& dispatches() const { return dispatches_; }
  uint64_t waveInstructions() const;
  // Whether this build has the RTL LDS arbiter (lds.arbiter "rtl"; CMake option VGPU_RTL_COSIM).
  static bool rtlLdsArbiterBuilt();

 private:
  void registerStatistics();

  PlatformConfig config_;
  sc_core::sc_time period_;
  CodeRegistry code_;
  Statistics stats_;
  std::vector<DispatchRecord> dispatches_;

  std::unique_ptr<Dram> dram_;
  std::unique_ptr<L2Cache> l2_;
  std::unique_ptr<Dispatcher> dispatcher_;
  std::unique_ptr<CommandProcessor> cp_;
  std::vector<std::unique_ptr<Sqc>> sqcs_;
  std::vector<std::unique_ptr<ComputeUnit>> cus_;
  std::vector<std::unique_ptr<Lds>> lds_;
  std::vector<std::unique_ptr<TexturePath>> tcs_;
};

}  // namespace vgpu
