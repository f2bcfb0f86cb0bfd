// The command processor: serves several HSA AQL user-mode queues in device memory round-robin
// when the host rings their doorbells over MMIO. Kernel dispatches go to the dispatcher, where
// dispatches of different queues run at the same time and share the compute units;
// barrier-AND/OR packets hold their queue (only theirs) until their dependency signals are
// satisfied. Completion signals are decremented, the interrupt line is raised on completion and
// on errors; a malformed packet sets its queue's error status and the other queues go on.
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

#include "common/DebugSymbols.h"
#include "common/DispatchRecord.h"
#include "common/PlatformConfig.h"
#include "cp/Aql.h"
#include "cp/MmioRegisters.h"
#include "dispatcher/Dispatcher.h"

namespace vgpu {

namespace trace {
class CommandProcessorProbe;
}

class CommandProcessor : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<CommandProcessor> mmio;       // host -> registers
  tlm_utils::simple_initiator_socket<CommandProcessor> memory;  // packets, kernargs, signals
  sc_core::sc_out<bool> irq;

  SC_HAS_PROCESS(CommandProcessor);
  CommandProcessor(sc_core::sc_module_name name, const PlatformConfig& config,
                   DispatcherPort& dispatcher, const DebugSymbols& symbols,
                   uint64_t deviceMemoryBase, uint64_t deviceMemoryBytes);

  // The MEM_MAP command register: map or unmap a device-memory range (the GPU sets them to
  // the DRAM's). Return false when the range is refused.
  std::function<bool(uint64_t base, uint64_t bytes)> mapDeviceMemory;
  std::function<bool(uint64_t base)> unmapDeviceMemory;

  // Called after each dispatch completes (statistics gathering).
  std::function<void(const DispatchRecord&)> onDispatchDone;
  // Called for a packet's acquire fence of agent or system scope, before the packet runs: the
  // GPU invalidates the caches that may hold stale lines (see docs/register-map.md).
  std::function<void(aql::FenceScope)> onAcquireFence;
  // The message of the most recent error (any queue), and of queue q's most recent one.
  const std::string& lastFault() const { return lastFault_; }
  // The VCD and timeline (models/trace), set by the GPU when tracing; null: off.
  trace::CommandProcessorProbe* traceProbe = nullptr;
  const std::string& queueFault(uint32_t queue) const { return queues_.at(queue).fault; }
  // The timestamp counter (TIMESTAMP register, signals' start_ts/end_ts): simulated ns.
  static uint64_t toTimestamp(const sc_core::sc_time& t) {
    return static_cast<uint64_t>(t / sc_core::sc_time(1, sc_core::SC_NS));
  }
  static uint64_t timestampNow() { return toTimestamp(sc_core::sc_time_stamp()); }

 private:
  struct Queue {
    uint64_t base = 0, doorbell = 0, readIndex = 0;
    uint32_t size = 0;
    bool enabled = false;
    uint32_t errorCode = mmio::kErrorNone;
    uint32_t dispatches = 0;
    std::string fault;
    enum class State { Idle, Barrier, Running } state = State::Idle;
    // The head packet while it is a barrier waiting or a dispatch running.
    uint64_t packetAddress = 0;
    uint64_t completionSignal = 0;
    aql::BarrierPacket barrier{};
    bool barrierAny = false;
    sc_core::sc_time nextPoll;
    std::shared_ptr<DispatchProgress> running;
    DispatchRecord record;
    uint64_t scratchBase = 0, scratchBytes = 0;  // QUEUE_SCRATCH, given by host software
    sc_core::sc_time packetStart;  // when the head packet began (its signal's start_ts)
    // The head packet's header was INVALID when last read: its producer has not published it
    // yet (HSA: the header is written last), so the queue waits for the next doorbell write.
    bool awaitingHeader = false;
    // The highest doorbell value written since the queue was enabled: with several producers
    // their doorbell writes may come out of order, and packets up to the highest are published.
    uint64_t published = 0;
    // A kernel of this queue faulted: like a GPU's queue after an exception, it processes no
    // more packets until host software clears its error (QUEUE_STATUS bit 1).
    bool halted = false;
    bool hasWork() const { return unconsumed() && !awaitingHeader && !halted; }
    // QUEUE_STATUS busy (docs/register-map.md): packets up to the doorbell not yet consumed,
    // also while the queue waits for a header or for host software to clear a fault.
    bool unconsumed() const { return enabled && size != 0 && readIndex < published; }
  };

  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned int transport_dbg(tlm::tlm_generic_payload& trans);
  uint32_t readRegister(uint32_t offset) const;
  void writeRegister(uint32_t offset, uint32_t value);
  uint32_t readQueueRegister(const Queue& q, uint32_t offset) const;
  void writeQueueRegister(Queue& q, uint32_t offset, uint32_t value);
  void run();
  // One step of queue q's work; returns true if it did anything (state change or time spent).
  bool serve(uint32_t q);
  void startPacket(uint32_t q);
  void startKernelDispatch(uint32_t q, const aql::KernelDispatchPacket& packet);
  bool pollBarrier(uint32_t q);  // true when satisfied (or failed); the packet is then retired
  void finishDispatch(uint32_t q);
  // Ends the head packet: header back to INVALID, READ_INDEX, completion signal (if any), and
  // the interrupt.
  void retirePacket(uint32_t q, uint64_t completionSignal);
  // Writes the packet's start and end times into the signal (amd_signal_t start_ts/end_ts,
  // ROCm's amd_hsa_signal.h, in TIMESTAMP units) and decrements its value.
  void completeSignal(uint32_t q, uint64_t signal);
  // `refusedAddress`: a memory violation's first refused byte (FAULT_ADDRESS).
  void raiseError(uint32_t q, mmio::ErrorCode code, const std::string& message,
                  std::optional<uint64_t> refusedAddress = std::nullopt);
  void updateIrq();
  void driveIrq();
  bool readMemory(uint64_t address, void* data, uint32_t bytes);
  bool writeMemory(uint64_t address, const void* data, uint32_t bytes);
  bool busy() const;

  PlatformConfig config_;
  DispatcherPort& dispatcher_;
  const DebugSymbols& symbols_;  // kernel names for messages (host-given)
  uint64_t deviceMemoryBase_, deviceMemoryBytes_;
  uint64_t memMapBase_ = 0, memMapSize_ = 0;
  uint32_t memMapStatus_ = 0;
  mutable uint32_t timestampHi_ = 0;  // latched by a read of TIMESTAMP_LO
  sc_core::sc_time period_;
  sc_core::sc_event doorbell_;
  sc_core::sc_event irqChanged_;

  uint32_t status_ = 0, errorCode_ = 0, irqStatus_ = 0, irqEnable_ = 0;
  uint64_t faultAddress_ = 0;  // FAULT_ADDRESS, valid while faultStatus_ has kFaultValid
  uint32_t faultStatus_ = 0;
  uint32_t dispatches_ = 0;
  std::array<Queue, mmio::kQueues> queues_;
  uint32_t nextQueue_ = 0;                                  // round-robin position
  uint32_t queuePriorities_ = mmio::kQueuePrioritiesReset;  // QUEUE_PRIORITIES
  // QUEUE_CU_MASK_DATA of every queue and word, and QUEUE_CU_MASK_INDEX.
  std::array<std::array<uint32_t, mmio::kCuMaskWords>, mmio::kQueues> cuMasks_ = [] {
    std::array<std::array<uint32_t, mmio::kCuMaskWords>, mmio::kQueues> all{};
    for (auto& words : all) words.fill(~0u);
    return all;
  }();
  uint32_t cuMaskIndex_ = 0;
  // The word QUEUE_CU_MASK_INDEX selects (QUEUE_CU_MASK_DATA).
  uint32_t& selectedCuMaskWord() { return cuMasks_[(cuMaskIndex_ >> 8) & 7][cuMaskIndex_ & 31]; }
  uint32_t selectedCuMaskWord() const {
    return const_cast<CommandProcessor*>(this)->selectedCuMaskWord();
  }
  uint32_t priorityOf(uint32_t q) const {
    const uint32_t p = (queuePriorities_ >> (2 * q)) & 3;
    return p > mmio::kPriorityHigh ? uint32_t{mmio::kPriorityHigh} : p;
  }
  uint64_t nextDispatchId_ = 0;
  std::string lastFault_;
};

}  // namespace vgpu
