// The command processor: takes HSA AQL packets from a user-mode queue in device memory when the
// host rings the doorbell over MMIO, runs kernel dispatches through the dispatcher, honours
// barrier-AND/OR packets, decrements completion signals and raises the interrupt line.
#pragma once

#include <string>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

#include "common/PlatformConfig.h"
#include "cp/Aql.h"
#include "cp/CodeRegistry.h"
#include "cp/MmioRegisters.h"
#include "dispatcher/Dispatcher.h"
#include "dram/DeviceMemoryMap.h"

namespace vgpu {

// What one kernel dispatch did, for statistics.
struct DispatchRecord {
  std::string kernel;
  uint64_t startCycle = 0, endCycle = 0;
  uint64_t workgroups = 0, waves = 0;
  bool faulted = false;
};

class CommandProcessor : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<CommandProcessor> mmio;       // host -> registers
  tlm_utils::simple_initiator_socket<CommandProcessor> memory;  // packets, kernargs, signals
  sc_core::sc_out<bool> irq;

  SC_HAS_PROCESS(CommandProcessor);
  CommandProcessor(sc_core::sc_module_name name, const PlatformConfig& config,
                   Dispatcher& dispatcher, const CodeRegistry& code, DeviceMemoryMap& memoryMap);

  // Called after each dispatch completes (statistics gathering).
  std::function<void(const DispatchRecord&)> onDispatchDone;
  const std::string& lastFault() const { return lastFault_; }

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned int transport_dbg(tlm::tlm_generic_payload& trans);
  uint32_t readRegister(uint32_t offset) const;
  void writeRegister(uint32_t offset, uint32_t value);
  void run();
  void processPacket(uint64_t address);
  void runKernelDispatch(uint64_t address, const aql::KernelDispatchPacket& packet);
  bool waitForBarrier(const aql::BarrierPacket& packet, bool any);
  void completeSignal(uint64_t signal);
  void raiseError(mmio::ErrorCode code, const std::string& message);
  void updateIrq();
  void driveIrq();
  bool readMemory(uint64_t address, void* data, uint32_t bytes);
  bool writeMemory(uint64_t address, const void* data, uint32_t bytes);

  PlatformConfig config_;
  Dispatcher& dispatcher_;
  const CodeRegistry& code_;
  DeviceMemoryMap& memoryMap_;
  sc_core::sc_time period_;
  sc_core::sc_event doorbell_;
  sc_core::sc_event irqChanged_;

  uint32_t status_ = 0, errorCode_ = 0, irqStatus_ = 0, irqEnable_ = 0;
  uint32_t dispatches_ = 0;
  uint64_t queueBase_ = 0, doorbellValue_ = 0, readIndex_ = 0;
  uint32_t queueSize_ = 0;
  bool queueEnabled_ = false;
  uint64_t nextDispatchId_ = 0;
  std::string lastFault_;
};

}  // namespace vgpu
