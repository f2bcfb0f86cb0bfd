#include "cp/CommandProcessor.h"

#include <algorithm>
#include <cstring>
#include <sstream>

#include "common/Hex.h"
#include "common/MemoryExtensions.h"
#include "trace/Probes.h"

namespace vgpu {

using namespace sc_core;

namespace {
// Kernel descriptor field offsets (AMDGPUUsage, "Kernel Descriptor").
constexpr uint32_t kKdGroupSegment = 0;
constexpr uint32_t kKdPrivateSegment = 4;
constexpr uint32_t kKdEntryOffset = 16;
constexpr uint32_t kKdRsrc1 = 48;
constexpr uint32_t kKdRsrc2 = 52;
constexpr uint32_t kKdProperties = 56;

// How often a barrier packet re-reads its dependency signals. The host may set a signal by a
// plain memory write, which the model cannot observe, so the CP polls (as the hardware's
// packet processor re-checks a waiting barrier).
constexpr uint32_t kBarrierPollCycles = 100;

template <typename T>
T load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

}  // namespace

CommandProcessor::CommandProcessor(sc_module_name name, const PlatformConfig& config,
                                   DispatcherPort& dispatcher, const DebugSymbols& symbols,
                                   uint64_t deviceMemoryBase, uint64_t deviceMemoryBytes)
    : sc_module(name),
      mmio("mmio"),
      memory("memory"),
      irq("irq"),
      config_(config),
      dispatcher_(dispatcher),
      symbols_(symbols),
      deviceMemoryBase_(deviceMemoryBase),
      deviceMemoryBytes_(deviceMemoryBytes),
      period_(sc_time(config.clockPeriodNs(), SC_NS)) {
  mmio.register_b_transport(this, &CommandProcessor::b_transport);
  mmio.register_transport_dbg(this, &CommandProcessor::transport_dbg);
  SC_THREAD(run);
  SC_METHOD(driveIrq);
  sensitive << irqChanged_;
  dont_initialize();
}

// ---- MMIO ----------------------------------------------------------------------------------

bool CommandProcessor::busy() const {
  return std::any_of(queues_.begin(), queues_.end(), [](const Queue& q) {
    return q.unconsumed() || q.state != Queue::State::Idle;
  });
}

uint32_t CommandProcessor::readQueueRegister(const Queue& q, uint32_t offset) const {
  switch (offset) {
    case mmio::kQBaseLo:
      return static_cast<uint32_t>(q.base);
    case mmio::kQBaseHi:
      return static_cast<uint32_t>(q.base >> 32);
    case mmio::kQSize:
      return q.size;
    case mmio::kQEnable:
      return q.enabled ? 1 : 0;
    case mmio::kQDoorbellLo:
      return static_cast<uint32_t>(q.doorbell);
    case mmio::kQDoorbellHi:
      return static_cast<uint32_t>(q.doorbell >> 32);
    case mmio::kQReadIndexLo:
      return static_cast<uint32_t>(q.readIndex);
    case mmio::kQReadIndexHi:
      return static_cast<uint32_t>(q.readIndex >> 32);
    case mmio::kQStatus:
      return (q.unconsumed() || q.state != Queue::State::Idle ? uint32_t{mmio::kQueueBusy} : 0u) |
             (q.errorCode != mmio::kErrorNone ? uint32_t{mmio::kQueueError} : 0u) |
             (q.state == Queue::State::Barrier ? uint32_t{mmio::kQueueBarrier} : 0u) |
             (q.awaitingHeader ? uint32_t{mmio::kQueueAwaitingHeader} : 0u);
    case mmio::kQErrorCode:
      return q.errorCode;
    case mmio::kQDispatches:
      return q.dispatches;
    case mmio::kQScratchBaseLo:
      return static_cast<uint32_t>(q.scratchBase);
    case mmio::kQScratchBaseHi:
      return static_cast<uint32_t>(q.scratchBase >> 32);
    case mmio::kQScratchSizeLo:
      return static_cast<uint32_t>(q.scratchBytes);
    case mmio::kQScratchSizeHi:
      return static_cast<uint32_t>(q.scratchBytes >> 32);
    default:
      return 0;
  }
}

uint32_t CommandProcessor::readRegister(uint32_t offset) const {
  if (offset >= mmio::kQueueBlockBase)
    return readQueueRegister(queues_[(offset - mmio::kQueueBlockBase) / mmio::kQueueStride],
                             (offset - mmio::kQueueBlockBase) % mmio::kQueueStride);
  switch (offset) {
    case mmio::kId:
      return mmio::kIdValue;
    case mmio::kVersion:
      return mmio::kVersionValue;
    case mmio::kStatus:
      return status_ | (busy() ? uint32_t{mmio::kStatusBusy} : 0u);
    case mmio::kErrorCode:
      return errorCode_;
    case mmio::kIrqStatus:
      return irqStatus_;
    case mmio::kIrqEnable:
      return irqEnable_;
    case mmio::kComputeUnits:
      return config_.computeUnits;
    case mmio::kDispatches:
      return dispatches_;
    case mmio::kQueueCount:
      return mmio::kQueues;
    case mmio::kQueueStrideReg:
      return mmio::kQueueStride;
    case mmio::kQueueErrors: {
      uint32_t bits = 0;
      for (uint32_t q = 0; q < mmio::kQueues; ++q)
        if (queues_[q].errorCode != mmio::kErrorNone) bits |= 1u << q;
      return bits;
    }
    case mmio::kCapabilities:
      return mmio::kCapKernelDispatch | mmio::kCapBarrierAnd | mmio::kCapBarrierOr |
             mmio::kCapFences | mmio::kCapConcurrentDispatch | mmio::kCapSystemMemory |
             mmio::kCapHostMemoryMap | mmio::kCapFaultAddress | mmio::kCapQueuePriorities |
             mmio::kCapQueueCuMasks;
    case mmio::kQueuePriorities:
      return queuePriorities_;
    case mmio::kQueueCuMaskIndex:
      return cuMaskIndex_;
    case mmio::kQueueCuMaskData:
      return selectedCuMaskWord();
    case mmio::kMemMapBaseLo:
      return static_cast<uint32_t>(memMapBase_);
    case mmio::kMemMapBaseHi:
      return static_cast<uint32_t>(memMapBase_ >> 32);
    case mmio::kMemMapSizeLo:
      return static_cast<uint32_t>(memMapSize_);
    case mmio::kMemMapSizeHi:
      return static_cast<uint32_t>(memMapSize_ >> 32);
    case mmio::kMemMapStatus:
      return memMapStatus_;
    case mmio::kDeviceMemoryBaseLo:
      return static_cast<uint32_t>(deviceMemoryBase_);
    case mmio::kDeviceMemoryBaseHi:
      return static_cast<uint32_t>(deviceMemoryBase_ >> 32);
    case mmio::kDeviceMemorySizeLo:
      return static_cast<uint32_t>(deviceMemoryBytes_);
    case mmio::kDeviceMemorySizeHi:
      return static_cast<uint32_t>(deviceMemoryBytes_ >> 32);
    case mmio::kFaultAddressLo:
      return static_cast<uint32_t>(faultAddress_);
    case mmio::kFaultAddressHi:
      return static_cast<uint32_t>(faultAddress_ >> 32);
    case mmio::kFaultStatus:
      return faultStatus_;
    case mmio::kTimestampLo: {
      const uint64_t now = timestampNow();
      timestampHi_ = static_cast<uint32_t>(now >> 32);
      return static_cast<uint32_t>(now);
    }
    case mmio::kTimestampHi:
      return timestampHi_;
    default:
      return 0;
  }
}

void CommandProcessor::writeQueueRegister(Queue& q, uint32_t offset, uint32_t value) {
  switch (offset) {
    case mmio::kQBaseLo:
      q.base = (q.base & ~0xffffffffull) | value;
      break;
    case mmio::kQBaseHi:
      q.base = (q.base & 0xffffffffull) | (uint64_t{value} << 32);
      break;
    case mmio::kQSize:
      q.size = value;
      break;
    case mmio::kQEnable:
      if ((value & 1) && !q.enabled && q.state == Queue::State::Idle) {
        q.doorbell = q.published = q.readIndex = 0;
        q.awaitingHeader = q.halted = false;
      }
      q.enabled = value & 1;
      doorbell_.notify(SC_ZERO_TIME);
      break;
    case mmio::kQDoorbellLo:
      q.doorbell = (q.doorbell & ~0xffffffffull) | value;
      q.published = std::max(q.published, q.doorbell);
      q.awaitingHeader = false;  // look at the head packet again
      doorbell_.notify(SC_ZERO_TIME);
      break;
    case mmio::kQDoorbellHi:
      q.doorbell = (q.doorbell & 0xffffffffull) | (uint64_t{value} << 32);
      q.published = std::max(q.published, q.doorbell);
      q.awaitingHeader = false;
      doorbell_.notify(SC_ZERO_TIME);
      break;
    case mmio::kQStatus:
      if (value & mmio::kQueueError) {
        q.errorCode = mmio::kErrorNone;
        q.halted = false;  // a queue stopped by a kernel fault goes on
        doorbell_.notify(SC_ZERO_TIME);
      }
      break;
    case mmio::kQScratchBaseLo:
      q.scratchBase = (q.scratchBase & ~0xffffffffull) | value;
      break;
    case mmio::kQScratchBaseHi:
      q.scratchBase = (q.scratchBase & 0xffffffffull) | (uint64_t{value} << 32);
      break;
    case mmio::kQScratchSizeLo:
      q.scratchBytes = (q.scratchBytes & ~0xffffffffull) | value;
      break;
    case mmio::kQScratchSizeHi:
      q.scratchBytes = (q.scratchBytes & 0xffffffffull) | (uint64_t{value} << 32);
      break;
    default:
      break;  // read-only or unused: writes are ignored
  }
}

void CommandProcessor::writeRegister(uint32_t offset, uint32_t value) {
  if (offset >= mmio::kQueueBlockBase) {
    writeQueueRegister(queues_[(offset - mmio::kQueueBlockBase) / mmio::kQueueStride],
                       (offset - mmio::kQueueBlockBase) % mmio::kQueueStride, value);
    return;
  }
  switch (offset) {
    case mmio::kIrqStatus:
      irqStatus_ &= ~value;
      if (irqStatus_ == 0) {
        errorCode_ = mmio::kErrorNone;
        status_ &= ~mmio::kStatusError;
        faultAddress_ = 0;
        faultStatus_ = 0;
      }
      updateIrq();
      break;
    case mmio::kIrqEnable:
      irqEnable_ = value;
      updateIrq();
      break;
    case mmio::kQueuePriorities:
      queuePriorities_ = value & 0xffff;
      break;
    case mmio::kQueueCuMaskIndex:
      cuMaskIndex_ = value & mmio::cuMaskIndex(7, 31);
      break;
    case mmio::kQueueCuMaskData:
      selectedCuMaskWord() = value;
      break;
    case mmio::kMemMapBaseLo:
      memMapBase_ = (memMapBase_ & ~0xffffffffull) | value;
      break;
    case mmio::kMemMapBaseHi:
      memMapBase_ = (memMapBase_ & 0xffffffffull) | (uint64_t{value} << 32);
      break;
    case mmio::kMemMapSizeLo:
      memMapSize_ = (memMapSize_ & ~0xffffffffull) | value;
      break;
    case mmio::kMemMapSizeHi:
      memMapSize_ = (memMapSize_ & 0xffffffffull) | (uint64_t{value} << 32);
      break;
    case mmio::kMemMapCommand: {
      bool done = false;
      if (value == mmio::kMemMapMap && mapDeviceMemory)
        done = mapDeviceMemory(memMapBase_, memMapSize_);
      else if (value == mmio::kMemMapUnmap && unmapDeviceMemory)
        done = unmapDeviceMemory(memMapBase_);
      memMapStatus_ = done ? 0 : 1;
      break;
    }
    default:
      break;  // read-only or unused: writes are ignored
  }
}

void CommandProcessor::b_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
  const uint64_t addr = trans.get_address();
  const unsigned len = trans.get_data_length();
  delay += period_ * config_.mmioLatencyCycles;
  if (addr >= mmio::kEnd || len > mmio::kEnd - addr) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  // Registers are 32-bit: 4-byte accesses, or 8-byte accesses to a LO/HI pair, aligned.
  if ((len != 4 && len != 8) || addr % len != 0 || trans.get_streaming_width() < len ||
      trans.get_data_ptr() == nullptr) {
    trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  if (trans.get_byte_enable_ptr() != nullptr) {
    trans.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return;
  }
  if (trans.get_command() == tlm::TLM_IGNORE_COMMAND) {
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  uint8_t* data = trans.get_data_ptr();
  for (unsigned i = 0; i < len; i += 4) {
    const uint32_t reg = static_cast<uint32_t>(addr + i);
    if (trans.is_read()) {
      const uint32_t v = readRegister(reg);
      std::memcpy(data + i, &v, 4);
    } else {
      writeRegister(reg, load<uint32_t>(data + i));
    }
  }
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

unsigned int CommandProcessor::transport_dbg(tlm::tlm_generic_payload& trans) {
  // Debuggers may read registers (no side effects, whole aligned registers only); debug writes
  // are refused (they would ring doorbells and clear interrupts behind the host's back).
  if (!trans.is_read()) return 0;
  const uint64_t addr = trans.get_address();
  const unsigned len = trans.get_data_length();
  if (addr % 4 != 0) return 0;
  unsigned done = 0;
  for (; done + 4 <= len && addr + done + 4 <= mmio::kEnd; done += 4) {
    const uint32_t v = readRegister(static_cast<uint32_t>(addr + done));
    std::memcpy(trans.get_data_ptr() + done, &v, 4);
  }
  return done;
}

// Register writes arrive in the caller's thread (the host's) and packet completions in the
// CP's: one method drives the line so the signal has a single driver.
void CommandProcessor::updateIrq() {
  irqChanged_.notify(SC_ZERO_TIME);
}

void CommandProcessor::driveIrq() {
  irq.write((irqStatus_ & irqEnable_) != 0);
}

void CommandProcessor::raiseError(uint32_t q, mmio::ErrorCode code, const std::string& message,
                                  std::optional<uint64_t> refusedAddress) {
  if (errorCode_ == mmio::kErrorNone) errorCode_ = code;
  if (refusedAddress && !(faultStatus_ & mmio::kFaultValid)) {
    faultAddress_ = *refusedAddress;
    faultStatus_ = mmio::kFaultValid | q << mmio::kFaultQueueShift;
  }
  if (queues_[q].errorCode == mmio::kErrorNone) queues_[q].errorCode = code;
  status_ |= mmio::kStatusError;
  irqStatus_ |= mmio::kIrqError;
  lastFault_ = message;
  queues_[q].fault = message;
  updateIrq();
}

// ---- memory --------------------------------------------------------------------------------

bool CommandProcessor::readMemory(uint64_t address, void* data, uint32_t bytes) {
  tlm::tlm_generic_payload p;
  p.set_command(tlm::TLM_READ_COMMAND);
  p.set_address(address);
  p.set_data_ptr(static_cast<uint8_t*>(data));
  p.set_data_length(bytes);
  p.set_streaming_width(bytes);
  p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_time delay = SC_ZERO_TIME;
  memory->b_transport(p, delay);
  wait(delay);
  return p.is_response_ok();
}

bool CommandProcessor::writeMemory(uint64_t address, const void* data, uint32_t bytes) {
  tlm::tlm_generic_payload p;
  p.set_command(tlm::TLM_WRITE_COMMAND);
  p.set_address(address);
  p.set_data_ptr(static_cast<uint8_t*>(const_cast<void*>(data)));
  p.set_data_length(bytes);
  p.set_streaming_width(bytes);
  p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_time delay = SC_ZERO_TIME;
  memory->b_transport(p, delay);
  wait(delay);
  return p.is_response_ok();
}

// ---- packet processing ---------------------------------------------------------------------

void CommandProcessor::run() {
  while (true) {
    // Passes over the queues, one step each, while any step did something: higher priorities
    // first (QUEUE_PRIORITIES), equal ones in round-robin order.
    bool progressed = true;
    while (progressed) {
      progressed = false;
      for (uint32_t level = mmio::kPriorityHigh + 1; level-- > 0;)
        for (uint32_t i = 0; i < mmio::kQueues; ++i) {
          const uint32_t q = (nextQueue_ + i) % mmio::kQueues;
          if (priorityOf(q) == level && serve(q)) progressed = true;
        }
      nextQueue_ = (nextQueue_ + 1) % mmio::kQueues;
    }
    // Nothing to do until a doorbell, a dispatch ending, or a waiting barrier's next poll.
    std::optional<sc_time> poll;
    for (const Queue& q : queues_)
      if (q.state == Queue::State::Barrier && (!poll || q.nextPoll < *poll)) poll = q.nextPoll;
    if (poll)
      wait(std::max(*poll - sc_time_stamp(), period_), doorbell_ | dispatcher_.finishedEvent());
    else
      wait(doorbell_ | dispatcher_.finishedEvent());
  }
}

bool CommandProcessor::serve(uint32_t q) {
  Queue& queue = queues_[q];
  switch (queue.state) {
    case Queue::State::Running:
      if (!queue.running->done) return false;
      finishDispatch(q);
      return true;
    case Queue::State::Barrier:
      if (sc_time_stamp() < queue.nextPoll) return false;
      if (!pollBarrier(q)) queue.nextPoll = sc_time_stamp() + period_ * kBarrierPollCycles;
      return true;  // the poll took time: look at the other queues again
    case Queue::State::Idle:
      if (!queue.hasWork()) return false;
      startPacket(q);
      return true;
  }
  return false;
}

void CommandProcessor::startPacket(uint32_t q) {
  Queue& queue = queues_[q];
  const uint64_t slot = queue.readIndex & (queue.size - 1);
  queue.packetAddress = queue.base + slot * aql::kPacketBytes;
  queue.packetStart = sc_time_stamp();
  const std::string where = "queue " + std::to_string(q) + " packet " +
                            std::to_string(queue.readIndex) + " at " + hex(queue.packetAddress);
  uint8_t raw[aql::kPacketBytes];
  if ((queue.size & (queue.size - 1)) != 0) {
    raiseError(q, mmio::kErrorQueueSetup,
               "queue " + std::to_string(q) + ": QUEUE_SIZE " + std::to_string(queue.size) +
                   " is not a power of two");
    ++queue.readIndex;
    return;
  }
  if (!readMemory(queue.packetAddress, raw, sizeof raw)) {
    raiseError(q, mmio::kErrorMemory, where + ": cannot read the AQL packet (outside memory)");
    ++queue.readIndex;
    return;
  }
  const uint16_t header = load<uint16_t>(raw);
  const auto type = static_cast<uint8_t>(header & aql::kHeaderTypeMask);
  const auto acquire = static_cast<aql::FenceScope>((header >> aql::kHeaderAcquireShift) & 3);
  const auto release = static_cast<aql::FenceScope>((header >> aql::kHeaderReleaseShift) & 3);
  if (type == aql::kInvalid) {
    // Not published yet: with several producers on one queue (HSA_QUEUE_TYPE_MULTI) a later
    // packet's doorbell may come before this one's header. The packet processor waits for the
    // header (the AQL rules of the HSA Platform System Architecture Specification 1.2,
    // chapter 2: the producer writes the header last, then rings the doorbell), and looks
    // again at the next doorbell write.
    queue.awaitingHeader = true;
    return;
  }
  if (type != aql::kKernelDispatch && type != aql::kBarrierAnd && type != aql::kBarrierOr) {
    // The layout of other types is unknown here: no completion signal to decrement.
    raiseError(q, mmio::kErrorInvalidPacketType,
               where + ": AQL packet with invalid type " + std::to_string(type));
    retirePacket(q, 0);
    return;
  }
  // Every AQL packet type the CP runs keeps its completion signal at offset 56.
  const uint64_t completion = load<uint64_t>(raw + 56);
  if (acquire > aql::kScopeSystem || release > aql::kScopeSystem) {
    raiseError(q, mmio::kErrorInvalidHeader,
               where + ": reserved fence scope 3 in the header " + hex(header));
    retirePacket(q, completion);
    return;
  }
  if (acquire != aql::kScopeNone && onAcquireFence) onAcquireFence(acquire);
  queue.completionSignal = completion;
  if (type == aql::kKernelDispatch) {
    aql::KernelDispatchPacket packet;
    std::memcpy(&packet, raw, sizeof packet);
    startKernelDispatch(q, packet);
  } else {
    std::memcpy(&queue.barrier, raw, sizeof queue.barrier);
    queue.barrierAny = type == aql::kBarrierOr;
    queue.state = Queue::State::Barrier;
    if (traceProbe)
      traceProbe->queueState(q, sc_time_stamp(), trace::CommandProcessorProbe::QueueState::Barrier);
    queue.nextPoll = sc_time_stamp();
  }
}

bool CommandProcessor::pollBarrier(uint32_t q) {
  Queue& queue = queues_[q];
  // A dependency is satisfied when its signal's value is 0; null handles are ignored. AND waits
  // for all of them, OR for any (with no signal at all, both complete at once).
  bool allDone = true, anyDone = false, anySignal = false;
  for (uint64_t s : queue.barrier.depSignal) {
    if (s == 0) continue;
    anySignal = true;
    int64_t value = 0;
    if (!readMemory(s + aql::kSignalValueOffset, &value, sizeof value)) {
      raiseError(q, mmio::kErrorMemory,
                 "queue " + std::to_string(q) + ": barrier packet at " + hex(queue.packetAddress) +
                     ": cannot read its dependency signal at " + hex(s));
      queue.state = Queue::State::Idle;
      retirePacket(q, queue.completionSignal);
      return true;
    }
    if (value == 0)
      anyDone = true;
    else
      allDone = false;
  }
  if (anySignal && !(queue.barrierAny ? anyDone : allDone)) return false;
  queue.state = Queue::State::Idle;
  retirePacket(q, queue.completionSignal);
  return true;
}

void CommandProcessor::completeSignal(uint32_t q, uint64_t signal) {
  if (signal == 0) return;
  // The packet's times first, so that a host woken by the new value finds them.
  const uint64_t times[2] = {toTimestamp(queues_[q].packetStart),
                             std::max(queues_[q].record.packetEndNs, timestampNow())};
  queues_[q].record.packetEndNs = times[1];
  if (!writeMemory(signal + aql::kSignalStartTimestampOffset, times, sizeof times)) {
    raiseError(q, mmio::kErrorMemory, "cannot write the completion signal at " + hex(signal));
    return;
  }
  // One atomic decrement at the memory: host threads may touch the signal at the same time.
  tlm::tlm_generic_payload p;
  AtomicExtension atomic;
  atomic.op = isa::AtomicOp::Sub;
  atomic.returnsData = false;
  int64_t one = 1;
  p.set_command(tlm::TLM_WRITE_COMMAND);
  p.set_address(signal + aql::kSignalValueOffset);
  p.set_data_ptr(reinterpret_cast<uint8_t*>(&one));
  p.set_data_length(sizeof one);
  p.set_streaming_width(sizeof one);
  p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  p.set_extension(&atomic);
  sc_time delay = SC_ZERO_TIME;
  memory->b_transport(p, delay);
  p.clear_extension(&atomic);
  wait(delay);
  if (!p.is_response_ok())
    raiseError(q, mmio::kErrorMemory, "cannot decrement the completion signal at " + hex(signal));
}

void CommandProcessor::retirePacket(uint32_t q, uint64_t completionSignal) {
  Queue& queue = queues_[q];
  // Hand the slot back to the producer: the header becomes INVALID (HSA runtime convention),
  // and READ_INDEX counts the packet as consumed.
  const uint16_t invalid = aql::kInvalid;
  writeMemory(queue.packetAddress, &invalid, sizeof invalid);
  ++queue.readIndex;
  completeSignal(q, completionSignal);
  // The interrupt comes last: a host woken by it finds READ_INDEX and the signal up to date.
  irqStatus_ |= mmio::kIrqPacketDone;
  updateIrq();
}

void CommandProcessor::startKernelDispatch(uint32_t q, const aql::KernelDispatchPacket& pk) {
  Queue& queue = queues_[q];
  const std::string name = symbols_.kernelName(pk.kernelObject);
  const uint32_t dims = pk.setup & 3;
  auto reject = [&](mmio::ErrorCode code, const std::string& message) {
    raiseError(q, code, message);
    retirePacket(q, pk.completionSignal);
  };
  if (dims < 1 || pk.workgroupSizeX == 0 || pk.workgroupSizeY == 0 || pk.workgroupSizeZ == 0 ||
      pk.gridSizeX == 0 || pk.gridSizeY == 0 || pk.gridSizeZ == 0) {
    return reject(mmio::kErrorInvalidDimensions,
                  "kernel dispatch of '" + name + "' with zero dimensions, grid or workgroup size");
  }
  const uint32_t items = uint32_t{pk.workgroupSizeX} * pk.workgroupSizeY * pk.workgroupSizeZ;
  if (items > 64 * config_.cu.maxWavesPerWorkgroup) {
    return reject(mmio::kErrorWorkgroupTooLarge,
                  "kernel dispatch of '" + name + "' with " + std::to_string(items) +
                      " work-items per workgroup (at most " +
                      std::to_string(64 * config_.cu.maxWavesPerWorkgroup) + ")");
  }
  // The kernel descriptor, 64 bytes at kernel_object (AMDGPUUsage, "Kernel Descriptor"), read
  // from memory as the packet processor does: whatever host software wrote there runs.
  uint8_t kd[64];
  if (!readMemory(pk.kernelObject, kd, sizeof kd)) {
    return reject(mmio::kErrorInvalidCodeObject,
                  "kernel object " + hex(pk.kernelObject) +
                      ": cannot read its 64-byte kernel descriptor (outside device memory)");
  }
  auto d = std::make_shared<KernelDispatch>();
  d->kernelName = name;
  d->codeObjectBase = symbols_.codeObjectBase(pk.kernelObject);
  d->entryPc = pk.kernelObject + load<int64_t>(kd + kKdEntryOffset);
  d->packetAddress = queue.packetAddress;
  d->queueAddress = queue.base;
  d->kernargAddress = pk.kernargAddress;
  d->dispatchId = nextDispatchId_++;
  d->completionSignal = pk.completionSignal;
  d->gridSize = {pk.gridSizeX, pk.gridSizeY, pk.gridSizeZ};
  d->workgroupSize = {pk.workgroupSizeX, pk.workgroupSizeY, pk.workgroupSizeZ};
  d->dimensions = dims;
  d->computePgmRsrc1 = load<uint32_t>(kd + kKdRsrc1);
  d->computePgmRsrc2 = load<uint32_t>(kd + kKdRsrc2);
  d->kernelCodeProperties = load<uint16_t>(kd + kKdProperties);
  d->groupSegmentBytes = std::max(pk.groupSegmentSize, load<uint32_t>(kd + kKdGroupSegment));
  d->privateSegmentBytes = std::max(pk.privateSegmentSize, load<uint32_t>(kd + kKdPrivateSegment));
  // GFX9 granules: VGPRs in blocks of 4, SGPRs in blocks of 16 (the field counts 8s, even).
  d->vgprsPerWave = ((d->computePgmRsrc1 & 0x3f) + 1) * 4;
  d->sgprsPerWave = (((d->computePgmRsrc1 >> 6) & 0xf) / 2 + 1) * 16;

  // The code itself is fetched and decoded when the waves reach it (InstructionDecodeCache).
  // Refused here, before any wave starts: an entry point that is not 256-byte aligned or lies
  // in the descriptor itself (AMDGPUUsage, "Kernel Descriptor": kernel_code_entry_byte_offset
  // leads to the kernel's first instruction, which must be 256-byte aligned), or outside
  // device memory.
  const std::string entry = "kernel '" + name + "': its entry point " + hex(d->entryPc) +
                            " (kernel descriptor " + hex(pk.kernelObject) +
                            " plus kernel_code_entry_byte_offset)";
  if (d->entryPc % 256 != 0 ||
      (d->entryPc + 4 > pk.kernelObject && d->entryPc < pk.kernelObject + 64))
    return reject(mmio::kErrorInvalidCodeObject,
                  entry +
                      " is not a kernel's first instruction (not 256-byte aligned, or inside "
                      "the descriptor): kernel_object does not point at a kernel descriptor");
  // The queue's CU mask, as far as the GPU has CUs; none enabled, and no workgroup could start.
  const auto& mask = cuMasks_[q];
  bool anyCu = false, allCus = true;
  for (uint32_t cu = 0; cu < config_.computeUnits; ++cu) {
    const bool on = (mask[cu / 32] >> (cu % 32)) & 1;
    anyCu |= on, allCus &= on;
  }
  if (!anyCu)
    return reject(mmio::kErrorResources,
                  "kernel '" + name + "': queue " + std::to_string(q) +
                      "'s CU mask (QUEUE_CU_MASK_DATA) enables none of the GPU's " +
                      std::to_string(config_.computeUnits) + " compute units");
  if (!allCus) d->cuMask.assign(mask.begin(), mask.begin() + (config_.computeUnits + 31) / 32);
  if (d->groupSegmentBytes > config_.lds.sizeBytes ||
      d->vgprsPerWave > config_.cu.vgprsPerSimdLane) {
    return reject(mmio::kErrorResources,
                  "kernel '" + name + "' needs " + std::to_string(d->groupSegmentBytes) +
                      " bytes of LDS and " + std::to_string(d->vgprsPerWave) +
                      " VGPRs per wave: more than a compute unit has");
  }

  // Scratch: one slice per wave slot of the GPU, as the SPI hands out per-wave offsets, in the
  // memory host software gave the queue (QUEUE_SCRATCH; an HSA runtime sizes it from the
  // private segment sizes of what it dispatches).
  if (d->privateSegmentBytes > 0) {
    d->scratchBytesPerWave = (d->privateSegmentBytes * 64 + 1023) / 1024 * 1024;
    const uint64_t slots =
        uint64_t{config_.computeUnits} * config_.cu.simdsPerCu * config_.cu.waveSlotsPerSimd;
    d->scratchBytes = slots * d->scratchBytesPerWave;
    if (queue.scratchBytes < d->scratchBytes)
      return reject(mmio::kErrorResources,
                    "kernel '" + name + "' needs " + std::to_string(d->scratchBytes) +
                        " bytes of scratch (private segment " +
                        std::to_string(d->privateSegmentBytes) + " bytes x 64 lanes, rounded to " +
                        std::to_string(d->scratchBytesPerWave) + " per wave, x " +
                        std::to_string(slots) + " wave slots); queue " + std::to_string(q) +
                        " has " + std::to_string(queue.scratchBytes) +
                        " (QUEUE_SCRATCH_SIZE, set by host software)");
    d->scratchBase = queue.scratchBase;
  }

  queue.record = DispatchRecord();
  queue.record.kernel = name;
  queue.record.queue = q;
  queue.record.startCycle = static_cast<uint64_t>(sc_time_stamp() / period_);
  static_assert(KernelDispatch::kHighestPriority == mmio::kPriorityHigh);
  d->priority = priorityOf(q);
  d->queue = q;
  queue.running = dispatcher_.submit(std::move(d));
  queue.state = Queue::State::Running;
  if (traceProbe) traceProbe->kernelStarted(q, queue.record.startCycle);
}

void CommandProcessor::finishDispatch(uint32_t q) {
  Queue& queue = queues_[q];
  const DispatchProgress& p = *queue.running;
  queue.record.endCycle = static_cast<uint64_t>(p.endTime / period_);
  queue.record.workgroups = p.workgroups;
  queue.record.waves = p.waves;
  queue.record.faulted = p.faulted;
  if (traceProbe)
    traceProbe->kernelEnded(q, queue.record.kernel, queue.record.startCycle, queue.record.endCycle,
                            p.workgroups, p.waves, p.faulted);
  ++dispatches_;
  ++queue.dispatches;
  // The record is complete when the packet is: the end is what its signal's end_ts says. It goes
  // out before the packet's retirement, whose memory writes wait, and before a fault's error:
  // host software that sees the fault may end the simulation then (Runtime throws KernelFault),
  // and the statistics still show how far the kernel got.
  queue.record.packetStartNs = toTimestamp(queue.packetStart);
  queue.record.packetEndNs = timestampNow();
  if (onDispatchDone) onDispatchDone(queue.record);
  if (p.faulted) {
    raiseError(q, mmio::kErrorKernelFault, p.fault, p.faultAddress);
    queue.halted = true;  // the packets behind it wait until host software saw the fault
  }
  // Release fence: nothing to write back in this model (docs/register-map.md, "Fences").
  queue.running.reset();
  queue.state = Queue::State::Idle;
  retirePacket(q, queue.completionSignal);
}

}  // namespace vgpu
