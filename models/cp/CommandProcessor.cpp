#include "cp/CommandProcessor.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <sstream>

namespace vgpu {

using namespace sc_core;

namespace {
// Kernel descriptor field offsets (AMDGPUUsage, "Kernel Descriptor").
constexpr uint32_t kKdEntryOffset = 16;
constexpr uint32_t kKdRsrc1 = 48;
constexpr uint32_t kKdRsrc2 = 52;
constexpr uint32_t kKdProperties = 56;
constexpr uint32_t kKdPrivateSegment = 4;
constexpr uint32_t kKdGroupSegment = 0;

template <typename T>
T load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
}  // namespace

CommandProcessor::CommandProcessor(sc_module_name name, const PlatformConfig& config,
                                   Dispatcher& dispatcher, const CodeRegistry& code,
                                   DeviceMemoryMap& memoryMap)
    : sc_module(name),
      mmio("mmio"),
      memory("memory"),
      irq("irq"),
      config_(config),
      dispatcher_(dispatcher),
      code_(code),
      memoryMap_(memoryMap),
      period_(sc_time(config.clockPeriodNs(), SC_NS)) {
  mmio.register_b_transport(this, &CommandProcessor::b_transport);
  mmio.register_transport_dbg(this, &CommandProcessor::transport_dbg);
  SC_THREAD(run);
  SC_METHOD(driveIrq);
  sensitive << irqChanged_;
  dont_initialize();
}

// ---- MMIO ----------------------------------------------------------------------------------

uint32_t CommandProcessor::readRegister(uint32_t offset) const {
  switch (offset) {
    case mmio::kId:
      return mmio::kIdValue;
    case mmio::kVersion:
      return mmio::kVersionValue;
    case mmio::kStatus:
      return status_;
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
    case mmio::kQueueBaseLo:
      return static_cast<uint32_t>(queueBase_);
    case mmio::kQueueBaseHi:
      return static_cast<uint32_t>(queueBase_ >> 32);
    case mmio::kQueueSize:
      return queueSize_;
    case mmio::kQueueEnable:
      return queueEnabled_ ? 1 : 0;
    case mmio::kDoorbellLo:
      return static_cast<uint32_t>(doorbellValue_);
    case mmio::kDoorbellHi:
      return static_cast<uint32_t>(doorbellValue_ >> 32);
    case mmio::kReadIndexLo:
      return static_cast<uint32_t>(readIndex_);
    case mmio::kReadIndexHi:
      return static_cast<uint32_t>(readIndex_ >> 32);
    default:
      return 0;
  }
}

void CommandProcessor::writeRegister(uint32_t offset, uint32_t value) {
  switch (offset) {
    case mmio::kIrqStatus:
      irqStatus_ &= ~value;
      if (irqStatus_ == 0) errorCode_ = mmio::kErrorNone, status_ &= ~mmio::kStatusError;
      updateIrq();
      break;
    case mmio::kIrqEnable:
      irqEnable_ = value;
      updateIrq();
      break;
    case mmio::kQueueBaseLo:
      queueBase_ = (queueBase_ & ~0xffffffffull) | value;
      break;
    case mmio::kQueueBaseHi:
      queueBase_ = (queueBase_ & 0xffffffffull) | (uint64_t{value} << 32);
      break;
    case mmio::kQueueSize:
      queueSize_ = value;
      break;
    case mmio::kQueueEnable:
      queueEnabled_ = value & 1;
      break;
    case mmio::kDoorbellLo:
      doorbellValue_ = (doorbellValue_ & ~0xffffffffull) | value;
      doorbell_.notify(SC_ZERO_TIME);
      break;
    case mmio::kDoorbellHi:
      doorbellValue_ = (doorbellValue_ & 0xffffffffull) | (uint64_t{value} << 32);
      doorbell_.notify(SC_ZERO_TIME);
      break;
    default:
      break;  // read-only or unused: writes are ignored
  }
}

void CommandProcessor::b_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
  const uint64_t addr = trans.get_address();
  const unsigned len = trans.get_data_length();
  delay += period_ * config_.mmioLatencyCycles;
  // Registers are 32-bit: 4-byte accesses, or 8-byte accesses to a LO/HI pair, aligned.
  if ((len != 4 && len != 8) || addr % len != 0) {
    trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  if (addr + len > mmio::kEnd) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  if (trans.get_byte_enable_ptr() != nullptr) {
    trans.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return;
  }
  uint8_t* data = trans.get_data_ptr();
  for (unsigned i = 0; i < len; i += 4) {
    const uint32_t reg = static_cast<uint32_t>(addr + i);
    if (trans.is_read()) {
      const uint32_t v = readRegister(reg);
      std::memcpy(data + i, &v, 4);
    } else if (trans.is_write()) {
      writeRegister(reg, load<uint32_t>(data + i));
    }
  }
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

unsigned int CommandProcessor::transport_dbg(tlm::tlm_generic_payload& trans) {
  // Debuggers may read registers (no side effects); debug writes are refused.
  if (!trans.is_read()) return 0;
  const uint64_t addr = trans.get_address();
  const unsigned len = trans.get_data_length();
  unsigned done = 0;
  for (; done + 4 <= len && addr + done + 4 <= mmio::kEnd; done += 4) {
    const uint32_t v = readRegister(static_cast<uint32_t>(addr + done) & ~3u);
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

void CommandProcessor::raiseError(mmio::ErrorCode code, const std::string& message) {
  if (errorCode_ == mmio::kErrorNone) errorCode_ = code;
  status_ |= mmio::kStatusError;
  irqStatus_ |= mmio::kIrqError;
  lastFault_ = message;
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
    wait(doorbell_);
    status_ |= mmio::kStatusBusy;
    while (queueEnabled_ && queueSize_ != 0 && readIndex_ < doorbellValue_) {
      const uint64_t slot = readIndex_ & (queueSize_ - 1);
      processPacket(queueBase_ + slot * aql::kPacketBytes);
      ++readIndex_;
    }
    status_ &= ~mmio::kStatusBusy;
  }
}

void CommandProcessor::processPacket(uint64_t address) {
  uint8_t raw[aql::kPacketBytes];
  if (!readMemory(address, raw, sizeof raw)) {
    raiseError(mmio::kErrorMemory, "cannot read the AQL packet at its queue slot");
    return;
  }
  const uint16_t header = load<uint16_t>(raw);
  const auto type = static_cast<uint8_t>(header & aql::kHeaderTypeMask);
  switch (type) {
    case aql::kKernelDispatch: {
      aql::KernelDispatchPacket packet;
      std::memcpy(&packet, raw, sizeof packet);
      runKernelDispatch(address, packet);
      break;
    }
    case aql::kBarrierAnd:
    case aql::kBarrierOr: {
      aql::BarrierPacket packet;
      std::memcpy(&packet, raw, sizeof packet);
      if (waitForBarrier(packet, type == aql::kBarrierOr)) completeSignal(packet.completionSignal);
      break;
    }
    default: {
      std::ostringstream os;
      os << "AQL packet with invalid type " << unsigned(type) << " at 0x" << std::hex << address;
      raiseError(mmio::kErrorInvalidPacketType, os.str());
      break;
    }
  }
  // Hand the slot back to the producer: the header becomes INVALID (HSA runtime convention).
  const uint16_t invalid = aql::kInvalid;
  writeMemory(address, &invalid, sizeof invalid);
}

bool CommandProcessor::waitForBarrier(const aql::BarrierPacket& packet, bool any) {
  // Poll the dependency signals; a signal is satisfied when its value is 0.
  while (true) {
    bool allDone = true, anyDone = false, anySignal = false;
    for (uint64_t s : packet.depSignal) {
      if (s == 0) continue;
      anySignal = true;
      int64_t value = 0;
      if (!readMemory(s + aql::kSignalValueOffset, &value, sizeof value)) {
        raiseError(mmio::kErrorMemory, "cannot read a barrier packet's dependency signal");
        return false;
      }
      if (value == 0)
        anyDone = true;
      else
        allDone = false;
    }
    if (!anySignal || (any ? anyDone : allDone)) return true;
    wait(period_ * 100);
  }
}

void CommandProcessor::completeSignal(uint64_t signal) {
  irqStatus_ |= mmio::kIrqPacketDone;
  if (signal != 0) {
    int64_t value = 0;
    if (!readMemory(signal + aql::kSignalValueOffset, &value, sizeof value)) {
      raiseError(mmio::kErrorMemory, "cannot read the completion signal");
      return;
    }
    --value;
    if (!writeMemory(signal + aql::kSignalValueOffset, &value, sizeof value)) {
      raiseError(mmio::kErrorMemory, "cannot write the completion signal");
      return;
    }
  }
  updateIrq();
}

void CommandProcessor::runKernelDispatch(uint64_t address, const aql::KernelDispatchPacket& pk) {
  const std::string name = code_.kernelName(pk.kernelObject);
  const uint32_t dims = pk.setup & 3;
  if (dims < 1 || pk.workgroupSizeX == 0 || pk.workgroupSizeY == 0 || pk.workgroupSizeZ == 0 ||
      pk.gridSizeX == 0 || pk.gridSizeY == 0 || pk.gridSizeZ == 0) {
    raiseError(mmio::kErrorInvalidDimensions,
               "kernel dispatch of '" + name + "' with zero dimensions, grid or workgroup size");
    completeSignal(pk.completionSignal);
    return;
  }
  const uint32_t items = uint32_t{pk.workgroupSizeX} * pk.workgroupSizeY * pk.workgroupSizeZ;
  if (items > 64 * config_.cu.maxWavesPerWorkgroup) {
    raiseError(mmio::kErrorWorkgroupTooLarge,
               "kernel dispatch of '" + name + "' with " + std::to_string(items) +
                   " work-items per workgroup (at most " +
                   std::to_string(64 * config_.cu.maxWavesPerWorkgroup) + ")");
    completeSignal(pk.completionSignal);
    return;
  }
  const isa::Program* program = code_.find(pk.kernelObject);
  uint8_t kd[64];
  if (program == nullptr || !readMemory(pk.kernelObject, kd, sizeof kd)) {
    std::ostringstream os;
    os << "kernel object 0x" << std::hex << pk.kernelObject
       << " is not inside any loaded code object";
    raiseError(mmio::kErrorInvalidCodeObject, os.str());
    completeSignal(pk.completionSignal);
    return;
  }

  KernelDispatch d;
  d.kernelName = name;
  d.program = program;
  d.entryPc = pk.kernelObject + load<int64_t>(kd + kKdEntryOffset);
  d.packetAddress = address;
  d.queueAddress = queueBase_;
  d.kernargAddress = pk.kernargAddress;
  d.dispatchId = nextDispatchId_++;
  d.completionSignal = pk.completionSignal;
  d.gridSize = {pk.gridSizeX, pk.gridSizeY, pk.gridSizeZ};
  d.workgroupSize = {pk.workgroupSizeX, pk.workgroupSizeY, pk.workgroupSizeZ};
  d.dimensions = dims;
  d.computePgmRsrc1 = load<uint32_t>(kd + kKdRsrc1);
  d.computePgmRsrc2 = load<uint32_t>(kd + kKdRsrc2);
  d.kernelCodeProperties = load<uint16_t>(kd + kKdProperties);
  d.groupSegmentBytes = std::max(pk.groupSegmentSize, load<uint32_t>(kd + kKdGroupSegment));
  d.privateSegmentBytes = std::max(pk.privateSegmentSize, load<uint32_t>(kd + kKdPrivateSegment));
  // GFX9 granules: VGPRs in blocks of 4, SGPRs in blocks of 16 (the field counts 8s, even).
  d.vgprsPerWave = ((d.computePgmRsrc1 & 0x3f) + 1) * 4;
  d.sgprsPerWave = (((d.computePgmRsrc1 >> 6) & 0xf) / 2 + 1) * 16;

  if (program->at(d.entryPc) == nullptr) {
    raiseError(mmio::kErrorInvalidCodeObject,
               "kernel '" + name + "': its entry point is not an instruction of its code object");
    completeSignal(pk.completionSignal);
    return;
  }
  if (d.groupSegmentBytes > config_.lds.sizeBytes || d.vgprsPerWave > config_.cu.vgprsPerSimdLane) {
    raiseError(mmio::kErrorResources, "kernel '" + name + "' needs " +
                                          std::to_string(d.groupSegmentBytes) +
                                          " bytes of LDS and " + std::to_string(d.vgprsPerWave) +
                                          " VGPRs per wave: more than a compute unit has");
    completeSignal(pk.completionSignal);
    return;
  }

  // Scratch: one slice per wave slot of the GPU, as the SPI hands out per-wave offsets.
  std::optional<uint64_t> scratch;
  if (d.privateSegmentBytes > 0) {
    d.scratchBytesPerWave = (d.privateSegmentBytes * 64 + 1023) / 1024 * 1024;
    const uint64_t slots =
        uint64_t{config_.computeUnits} * config_.cu.simdsPerCu * config_.cu.waveSlotsPerSimd;
    d.scratchBytes = slots * d.scratchBytesPerWave;
    scratch = memoryMap_.allocate(d.scratchBytes, 4096, "scratch");
    if (!scratch) {
      raiseError(mmio::kErrorResources, "kernel '" + name + "': no device memory for scratch");
      completeSignal(pk.completionSignal);
      return;
    }
    d.scratchBase = *scratch;
  }

  DispatchRecord record;
  record.kernel = name;
  record.startCycle = static_cast<uint64_t>(sc_time_stamp() / period_);
  const uint64_t wgBefore = dispatcher_.workgroupsDispatched;
  const uint64_t wavesBefore = dispatcher_.wavesDispatched;
  const bool ok = dispatcher_.execute(d);
  record.endCycle = static_cast<uint64_t>(sc_time_stamp() / period_);
  record.workgroups = dispatcher_.workgroupsDispatched - wgBefore;
  record.waves = dispatcher_.wavesDispatched - wavesBefore;
  record.faulted = !ok;
  if (scratch && ok) memoryMap_.release(*scratch);  // a faulted dispatch may still have waves
  ++dispatches_;
  if (!ok) raiseError(mmio::kErrorKernelFault, dispatcher_.faultMessage());
  if (onDispatchDone) onDispatchDone(record);
  completeSignal(pk.completionSignal);
}

}  // namespace vgpu
