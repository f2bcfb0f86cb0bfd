// The workgroup dispatcher (SPI): hands the workgroups of a kernel dispatch to compute units
// in order, each to the next CU (round-robin) with room for it (wave slots, VGPRs, SGPRs, LDS),
// writes every wave's initial registers, and waits for them to finish.
#pragma once

#include <string>
#include <vector>

#include <systemc>

#include "common/PlatformConfig.h"
#include "cu/ComputeUnit.h"
#include "dispatcher/KernelDispatch.h"

namespace vgpu {

class Dispatcher : public sc_core::sc_module, public ComputeUnitListener {
 public:
  Dispatcher(sc_core::sc_module_name name, const PlatformConfig& config);

  void attach(const std::vector<ComputeUnit*>& cus);

  // Runs the dispatch to completion; call from an SC_THREAD (the command processor's).
  // Returns false if a wave faulted; faultMessage() says why.
  bool execute(const KernelDispatch& dispatch);
  const std::string& faultMessage() const { return fault_; }

  // ComputeUnitListener
  void workgroupFinished(uint32_t cuId) override;
  void kernelFaulted(const std::string& message) override;

  uint64_t workgroupsDispatched = 0, wavesDispatched = 0;

 private:
  PlatformConfig config_;
  std::vector<ComputeUnit*> cus_;
  uint32_t nextCu_ = 0;
  uint64_t outstanding_ = 0;
  bool faulted_ = false;
  std::string fault_;
  sc_core::sc_event changed_;
};

}  // namespace vgpu
