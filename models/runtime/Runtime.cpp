#include "runtime/Runtime.h"

#include <algorithm>
#include <exception>
#include <sstream>

#include "common/Apertures.h"
#include "common/DmiRegions.h"
#include "common/Error.h"
#include "cp/Aql.h"
#include "cp/MmioRegisters.h"
#include "gpu/Gpu.h"
#include "loader/KernelListing.h"

namespace vgpu {

using namespace sc_core;

namespace {
constexpr uint64_t kCopyChunk = 4096;

// Dimensions of a launch: the highest one with more than one work-item (AQL setup field).
uint32_t dimensions(const LaunchConfig& c) {
  return c.grid.z > 1 || c.block.z > 1 ? 3 : (c.grid.y > 1 || c.block.y > 1 ? 2 : 1);
}

}  // namespace

Runtime::Runtime(HostPort& port, Gpu& gpu) : port_(port), gpu_(gpu) {}

Runtime::~Runtime() = default;

// ---- MMIO and memory -----------------------------------------------------------------------

void Runtime::mmioAccess(tlm::tlm_command command, uint32_t reg, void* data, unsigned bytes) {
  tlm::tlm_generic_payload p;
  p.set_command(command);
  p.set_address(reg);
  p.set_data_ptr(static_cast<uint8_t*>(data));
  p.set_data_length(bytes);
  p.set_streaming_width(bytes);
  p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_time delay = SC_ZERO_TIME;
  port_.mmio->b_transport(p, delay);
  wait(delay);
  if (!p.is_response_ok())
    throw std::runtime_error(std::string("MMIO ") +
                             (command == tlm::TLM_READ_COMMAND ? "read" : "write") +
                             " refused: " + p.get_response_string());
}

void Runtime::mmioWrite(uint32_t reg, uint32_t value) {
  mmioAccess(tlm::TLM_WRITE_COMMAND, reg, &value, 4);
}

void Runtime::mmioWrite64(uint32_t loRegister, uint64_t value) {
  mmioAccess(tlm::TLM_WRITE_COMMAND, loRegister, &value, 8);
}

uint32_t Runtime::mmioRead(uint32_t reg) {
  uint32_t value = 0;
  mmioAccess(tlm::TLM_READ_COMMAND, reg, &value, 4);
  return value;
}

namespace {

// Functional mode: host copies go straight to device memory through the DMI regions the memory
// grants (there is no memory timing to model). `move(host, done, n)` moves bytes [done,
// done + n) of the copy at host memory `host`. Returns how many bytes from the start it moved:
// it stops where DMI is refused, and the caller's transactions do the rest (and report errors).
template <class Move>
uint64_t moveDirect(tlm_utils::simple_initiator_socket<HostPort>& socket, tlm::tlm_command cmd,
                    uint64_t address, uint64_t bytes, Move move) {
  uint64_t done = 0;
  while (done < bytes) {
    tlm::tlm_generic_payload p;
    p.set_command(cmd);
    p.set_address(address + done);
    tlm::tlm_dmi dmi;
    if (!socket->get_direct_mem_ptr(p, dmi) || dmi.get_dmi_ptr() == nullptr ||
        !dmiAllows(dmi, cmd) || address + done < dmi.get_start_address() ||
        address + done > dmi.get_end_address())
      break;
    const uint64_t n =
        std::min<uint64_t>(bytes - done, dmi.get_end_address() - (address + done) + 1);
    move(dmi.get_dmi_ptr() + (address + done - dmi.get_start_address()), done, n);
    done += n;
  }
  return done;
}

}  // namespace

void Runtime::transfer(tlm::tlm_command cmd, uint64_t address, uint8_t* data, uint64_t bytes) {
  sc_time delay = SC_ZERO_TIME;
  if (gpu_.config().functionalMode) {
    const uint64_t moved = moveDirect(port_.memory, cmd, address, bytes,
                                      [&](uint8_t* host, uint64_t done, uint64_t n) {
                                        if (cmd == tlm::TLM_READ_COMMAND)
                                          std::memcpy(data + done, host, n);
                                        else
                                          std::memcpy(host, data + done, n);
                                      });
    address += moved, data += moved, bytes -= moved;
  }
  for (uint64_t done = 0; done < bytes;) {
    const uint64_t n = std::min(kCopyChunk, bytes - done);
    tlm::tlm_generic_payload p;
    p.set_command(cmd);
    p.set_address(address + done);
    p.set_data_ptr(data + done);
    p.set_data_length(static_cast<unsigned>(n));
    p.set_streaming_width(static_cast<unsigned>(n));
    p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    port_.memory->b_transport(p, delay);
    if (!p.is_response_ok()) {
      std::ostringstream os;
      os << "host " << (cmd == tlm::TLM_READ_COMMAND ? "read from" : "write to")
         << " device address 0x" << std::hex << address + done << " failed ("
         << p.get_response_string() << "): outside every allocation";
      throw InputError(os.str());
    }
    done += n;
  }
  wait(delay);
}

DeviceMemoryAllocator& Runtime::allocator() {
  if (!allocator_) {
    auto pair = [&](uint32_t lo, uint32_t hi) {
      return uint64_t{mmioRead(lo)} | uint64_t{mmioRead(hi)} << 32;
    };
    const uint64_t base = pair(mmio::kDeviceMemoryBaseLo, mmio::kDeviceMemoryBaseHi);
    const uint64_t size = pair(mmio::kDeviceMemorySizeLo, mmio::kDeviceMemorySizeHi);
    allocator_ = std::make_unique<DeviceMemoryAllocator>(size, base);
  }
  return *allocator_;
}

uint64_t Runtime::malloc(uint64_t bytes) {
  DeviceMemoryAllocator& a = allocator();
  const auto base = a.allocate(bytes, 256, "buffer");
  if (!base) {
    throw InputError("out of device memory: cannot allocate " + std::to_string(bytes) + " bytes (" +
                     std::to_string(a.bytesAllocated()) + " of " + std::to_string(a.capacity()) +
                     " in use)");
  }
  mapDeviceMemory(*base, a.find(*base)->size);
  return *base;
}

// The GPU learns of a range through its MEM_MAP registers, as from a driver's page tables.
void Runtime::mapDeviceMemory(uint64_t base, uint64_t bytes) {
  mmioWrite64(mmio::kMemMapBaseLo, base);
  mmioWrite64(mmio::kMemMapSizeLo, bytes);
  mmioWrite(mmio::kMemMapCommand, mmio::kMemMapMap);
  if (mmioRead(mmio::kMemMapStatus) != 0)
    throw std::logic_error("the GPU refused to map device memory the allocator handed out");
}

void Runtime::unmapDeviceMemory(uint64_t base) {
  mmioWrite64(mmio::kMemMapBaseLo, base);
  mmioWrite(mmio::kMemMapCommand, mmio::kMemMapUnmap);
}

uint64_t Runtime::mallocGuarded(uint64_t bytes, uint64_t guardBytes, bool exact) {
  if (guardBytes % 256 != 0)
    throw std::logic_error("mallocGuarded: the guard must be a multiple of 256 bytes");
  DeviceMemoryAllocator& a = allocator();
  const uint64_t rounded = allocationBytes(bytes);
  const auto base = a.allocate(rounded + 2 * guardBytes, 256, "guarded buffer");
  if (!base) {
    throw InputError("out of device memory: cannot allocate " + std::to_string(bytes) +
                     " bytes with " + std::to_string(guardBytes) + "-byte guards (" +
                     std::to_string(a.bytesAllocated()) + " of " + std::to_string(a.capacity()) +
                     " in use)");
  }
  const uint64_t buffer = *base + guardBytes;
  guarded_[buffer] = *base;
  // Nothing to map for an empty exact buffer: every access to it faults.
  const uint64_t mapped = exact ? bytes : std::max<uint64_t>(rounded, 256);
  if (mapped != 0) mapDeviceMemory(buffer, mapped);
  return buffer;
}

void Runtime::free(uint64_t deviceAddress) {
  DeviceMemoryAllocator& a = allocator();
  if (auto g = guarded_.find(deviceAddress); g != guarded_.end()) {
    // Unmapping an empty exact buffer (never mapped) is refused harmlessly.
    unmapDeviceMemory(deviceAddress);
    a.release(g->second);
    guarded_.erase(g);
    return;
  }
  const DeviceMemoryAllocator::Allocation* allocation = a.find(deviceAddress);
  if (allocation == nullptr || allocation->base != deviceAddress) return;
  unmapDeviceMemory(deviceAddress);
  a.release(deviceAddress);
}

void Runtime::ensureScratch(QueueState& q, uint64_t bytes) {
  if (bytes <= q.scratchBytes) return;
  // Dispatches already queued may still use the old memory: it is freed at the next
  // synchronize, with the kernargs.
  if (q.scratchBytes != 0) q.transientAllocations.push_back(q.scratchBase);
  q.scratchBase = malloc(bytes);
  q.scratchBytes = bytes;
  mmioWrite64(mmio::queueRegister(q.index, mmio::kQScratchBaseLo), q.scratchBase);
  mmioWrite64(mmio::queueRegister(q.index, mmio::kQScratchSizeLo), q.scratchBytes);
}

void Runtime::copyToDevice(uint64_t dst, const void* src, uint64_t bytes) {
  transfer(tlm::TLM_WRITE_COMMAND, dst, static_cast<uint8_t*>(const_cast<void*>(src)), bytes);
}

void Runtime::copyFromDevice(void* dst, uint64_t src, uint64_t bytes) {
  transfer(tlm::TLM_READ_COMMAND, src, static_cast<uint8_t*>(dst), bytes);
}

void Runtime::memset(uint64_t dst, uint8_t value, uint64_t bytes) {
  if (gpu_.config().functionalMode) {
    const uint64_t moved =
        moveDirect(port_.memory, tlm::TLM_WRITE_COMMAND, dst, bytes,
                   [&](uint8_t* host, uint64_t, uint64_t n) { std::memset(host, value, n); });
    if (moved == bytes) {
      wait(SC_ZERO_TIME);  // as the transactions' (zero) delay
      return;
    }
    dst += moved, bytes -= moved;
  }
  std::vector<uint8_t> fill(std::min(bytes, kCopyChunk * 16), value);
  for (uint64_t done = 0; done < bytes;) {
    const uint64_t n = std::min<uint64_t>(fill.size(), bytes - done);
    copyToDevice(dst + done, fill.data(), n);
    done += n;
  }
}

// ---- code objects --------------------------------------------------------------------------

const Module& Runtime::loadModule(const std::string& path) {
  return loadModule(loader::CodeObject::loadFile(path), path);
}

const Module& Runtime::loadModule(loader::CodeObject object, const std::string& name) {
  const std::string processor = object.processor();
  const std::string platformProcessor = gpu_.config().processor;
  if (processor != platformProcessor &&
      !(platformProcessor == "gfx906" && processor == "gfx900")) {  // gfx906 runs gfx900 code
    throw InputError(name + ": the code object is for " + processor + " but platform '" +
                     gpu_.config().name + "' is a " + platformProcessor);
  }
  auto m = std::make_unique<Module>();
  m->path = name;
  m->object = std::move(object);
  m->base = malloc(std::max<uint64_t>(m->object.image().size(), 256));
  // Relocations (R_AMDGPU_RELATIVE64 for globals holding addresses, ...) against the base.
  const std::vector<uint8_t> image = m->object.relocatedImage(m->base);
  copyToDevice(m->base, image.data(), image.size());

  // The GPU fetches and decodes the code from device memory when waves run it. What only the
  // host knows, the kernels' names and where the code object lies, goes to the GPU's debug
  // interface for its reports.
  gpu_.debugCodeObjectLoaded(m->base, image.size());
  for (const auto& k : m->object.kernels())
    gpu_.debugNameKernel(m->base + k.descriptorAddress, k.name);
  modules_.push_back(std::move(m));
  return *modules_.back();
}

void Runtime::enableHazardChecks() {
  gpu_.enableHazardChecks();
}

std::vector<isa::HazardFinding> Runtime::hazardFindings() const {
  return gpu_.hazardFindings();
}

Kernel Runtime::kernel(const Module& module, const std::string& name) const {
  const loader::KernelInfo* info = module.object.findKernel(name);
  if (info == nullptr) {
    std::ostringstream os;
    os << module.path << ": no kernel named '" << name << "'; it has:\n"
       << loader::describeKernels(module.object);
    throw InputError(os.str());
  }
  return Kernel{&module, info, module.base + info->descriptorAddress};
}

// ---- launch ----------------------------------------------------------------------------------

Runtime::QueueState& Runtime::queueState(Queue queue) {
  if (queues_.empty()) queues_.push_back(QueueState{});  // the default queue, set up lazily
  for (QueueState& q : queues_)
    if (q.index == queue.index) {
      if (q.base == 0) setupQueue(q, 64);
      return q;
    }
  throw InputError("AQL queue " + std::to_string(queue.index) +
                   " was not created by this runtime (createQueue)");
}

void Runtime::setupQueue(QueueState& q, uint32_t packets) {
  if (packets == 0 || (packets & (packets - 1)) != 0)
    throw InputError("an AQL queue holds a power of two packets, not " + std::to_string(packets));
  q.packets = packets;
  q.base = malloc(uint64_t{packets} * aql::kPacketBytes);
  // Every slot starts INVALID so the command processor never takes a half-written packet.
  std::vector<uint8_t> ring(uint64_t{packets} * aql::kPacketBytes, 0);
  for (uint32_t i = 0; i < packets; ++i) ring[i * aql::kPacketBytes] = aql::kInvalid;
  copyToDevice(q.base, ring.data(), ring.size());
  mmioWrite(mmio::queueRegister(q.index, mmio::kQEnable), 0);
  mmioWrite(mmio::queueRegister(q.index, mmio::kQBaseLo), static_cast<uint32_t>(q.base));
  mmioWrite(mmio::queueRegister(q.index, mmio::kQBaseHi), static_cast<uint32_t>(q.base >> 32));
  mmioWrite(mmio::queueRegister(q.index, mmio::kQSize), packets);
  mmioWrite(mmio::queueRegister(q.index, mmio::kQEnable), 1);  // read and write index 0
  mmioWrite(mmio::kIrqEnable, mmio::kIrqPacketDone | mmio::kIrqError);
}

Queue Runtime::createQueue(uint32_t packets) {
  if (queues_.empty()) queues_.push_back(QueueState{});
  const uint32_t available = queueCount();
  const uint32_t index = static_cast<uint32_t>(queues_.size());
  if (index >= available) {
    throw InputError("no free AQL queue: the GPU has " + std::to_string(available) +
                     " (queue 0 is the default queue)");
  }
  QueueState q;
  q.index = index;
  setupQueue(q, packets);
  queues_.push_back(std::move(q));
  return Queue{index};
}

uint32_t Runtime::queueCount() {
  return mmioRead(mmio::kQueueCount);
}

uint64_t Runtime::readIndex(const QueueState& q) {
  const uint32_t lo = mmioRead(mmio::queueRegister(q.index, mmio::kQReadIndexLo));
  const uint32_t hi = mmioRead(mmio::queueRegister(q.index, mmio::kQReadIndexHi));
  return uint64_t{hi} << 32 | lo;
}

void Runtime::waitForInterrupt() {
  if (!port_.irq.read()) wait(port_.irq.value_changed_event());
  mmioWrite(mmio::kIrqStatus, mmio::kIrqPacketDone);
}

void Runtime::checkQueueError(const QueueState& q) {
  const uint32_t status = mmioRead(mmio::queueRegister(q.index, mmio::kQStatus));
  if (!(status & mmio::kQueueError)) return;
  const uint32_t code = mmioRead(mmio::queueRegister(q.index, mmio::kQErrorCode));
  // Read before IRQ_STATUS is cleared, which clears them too; another queue's fault is not ours.
  const uint32_t faultStatus = mmioRead(mmio::kFaultStatus);
  std::optional<uint64_t> refused;
  if ((faultStatus & mmio::kFaultValid) && faultStatus >> mmio::kFaultQueueShift == q.index)
    refused = uint64_t{mmioRead(mmio::kFaultAddressHi)} << 32 | mmioRead(mmio::kFaultAddressLo);
  mmioWrite(mmio::queueRegister(q.index, mmio::kQStatus), mmio::kQueueError);
  mmioWrite(mmio::kIrqStatus, mmio::kIrqError | mmio::kIrqPacketDone);
  const std::string message = gpu_.debugQueueFault(q.index);
  if (code == mmio::kErrorKernelFault) throw KernelFault(message, refused);
  throw InputError("the GPU rejected the dispatch: " + message);
}

void Runtime::submitPacket(QueueState& q, const void* packet, uint16_t header) {
  // Wait for a free slot: the CP hands slots back as it consumes packets.
  while (q.writeIndex - q.knownReadIndex >= q.packets) {
    q.knownReadIndex = readIndex(q);
    if (q.writeIndex - q.knownReadIndex < q.packets) break;
    checkQueueError(q);
    waitForInterrupt();
  }
  const uint64_t slot = q.base + (q.writeIndex % q.packets) * aql::kPacketBytes;
  copyToDevice(slot + 2, static_cast<const uint8_t*>(packet) + 2, aql::kPacketBytes - 2);
  copyToDevice(slot, &header, sizeof header);
  ++q.writeIndex;
  mmioWrite(mmio::queueRegister(q.index, mmio::kQDoorbellLo), static_cast<uint32_t>(q.writeIndex));
  if (q.writeIndex >> 32)
    mmioWrite(mmio::queueRegister(q.index, mmio::kQDoorbellHi),
              static_cast<uint32_t>(q.writeIndex >> 32));
}

Signal Runtime::createSignal(int64_t value) {
  const Signal s{malloc(aql::kSignalBytes)};
  memset(s.address, 0, aql::kSignalBytes);
  setSignal(s, value);
  return s;
}

void Runtime::destroySignal(Signal signal) {
  if (signal) free(signal.address);
}

int64_t Runtime::signalValue(Signal signal) {
  int64_t value = 0;
  copyFromDevice(&value, signal.address + aql::kSignalValueOffset, sizeof value);
  return value;
}

void Runtime::setSignal(Signal signal, int64_t value) {
  copyToDevice(signal.address + aql::kSignalValueOffset, &value, sizeof value);
}

void Runtime::waitSignal(Signal signal, int64_t atMost) {
  while (signalValue(signal) > atMost) waitForInterrupt();
}

void Runtime::barrier(Queue queue, BarrierKind kind, const std::vector<Signal>& dependencies,
                      Signal completion) {
  aql::BarrierPacket p{};
  if (dependencies.size() > 5)
    throw InputError("a barrier packet has at most 5 dependency signals, " +
                     std::to_string(dependencies.size()) + " given");
  for (size_t i = 0; i < dependencies.size(); ++i) p.depSignal[i] = dependencies[i].address;
  p.completionSignal = completion.address;
  const uint16_t header = (kind == BarrierKind::And ? aql::kBarrierAnd : aql::kBarrierOr) |
                          (1u << aql::kHeaderBarrierBit) |
                          (aql::kScopeSystem << aql::kHeaderAcquireShift) |
                          (aql::kScopeSystem << aql::kHeaderReleaseShift);
  submitPacket(queueState(queue), &p, header);
}

std::vector<uint8_t> Runtime::buildKernarg(const Kernel& k, const LaunchConfig& c,
                                           const std::vector<KernelArg>& args,
                                           uint64_t queueBase) const {
  const loader::KernelInfo& info = *k.info;
  const auto explicitArgs = info.explicitArgs();
  if (args.size() != explicitArgs.size()) {
    std::ostringstream os;
    os << "kernel '" << info.name << "' takes " << explicitArgs.size() << " argument"
       << (explicitArgs.size() == 1 ? "" : "s") << ", " << args.size() << " given:\n"
       << loader::describeArgs(info);
    throw InputError(os.str());
  }
  uint32_t size = info.kernargSegmentSize;
  for (const auto& a : info.args) size = std::max(size, a.offset + a.size);
  std::vector<uint8_t> buf(std::max<uint32_t>(size, 16), 0);

  for (size_t i = 0; i < args.size(); ++i) {
    const loader::KernelArg& meta = explicitArgs[i];
    const bool wantsPointer = meta.takesPointer();
    const std::string argName = meta.name.empty() ? "#" + std::to_string(i) : "'" + meta.name + "'";
    if (wantsPointer != (args[i].kind == KernelArg::Kind::Pointer)) {
      throw InputError("kernel '" + info.name + "' argument " + std::to_string(i) + " (" + argName +
                       ") is " + (wantsPointer ? "a buffer pointer" : "a by-value scalar") +
                       " but a " + (wantsPointer ? "scalar" : "buffer") + " was given");
    }
    if (args[i].bytes.size() != meta.size) {
      throw InputError("kernel '" + info.name + "' argument " + std::to_string(i) + " (" + argName +
                       ") is " + std::to_string(meta.size) + " bytes but " +
                       std::to_string(args[i].bytes.size()) + " were given");
    }
    std::memcpy(&buf[meta.offset], args[i].bytes.data(), meta.size);
  }

  const uint32_t grid[3] = {c.grid.x, c.grid.y, c.grid.z};
  const uint32_t block[3] = {c.block.x, c.block.y, c.block.z};
  auto put = [&](const loader::KernelArg& a, uint64_t v) {
    std::memcpy(&buf[a.offset], &v, std::min<uint32_t>(a.size, 8));
  };
  const uint32_t dims = dimensions(c);
  for (const auto& a : info.args) {
    const std::string& v = a.valueKind;
    const int axis = v.empty() ? -1
                               : (v.back() == 'x'   ? 0
                                  : v.back() == 'y' ? 1
                                  : v.back() == 'z' ? 2
                                                    : -1);
    if (v.rfind("hidden_global_offset_", 0) == 0 && axis >= 0)
      put(a, c.globalOffset[axis]);
    else if (v.rfind("hidden_block_count_", 0) == 0 && axis >= 0)
      put(a, grid[axis] / block[axis]);
    else if (v.rfind("hidden_group_size_", 0) == 0 && axis >= 0)
      put(a, block[axis]);
    else if (v.rfind("hidden_remainder_", 0) == 0 && axis >= 0)
      put(a, grid[axis] % block[axis]);
    else if (v == "hidden_grid_dims")
      put(a, dims);
    else if (v == "hidden_private_base")
      put(a, kPrivateApertureBase >> 32);
    else if (v == "hidden_shared_base")
      put(a, kSharedApertureBase >> 32);
    else if (v == "hidden_queue_ptr")
      put(a, queueBase);
    else if (v == "hidden_dynamic_lds_size")
      put(a, c.dynamicLdsBytes);
    // Everything else hidden (printf/hostcall buffers, default queue, completion action,
    // multigrid sync, heap) stays null: the model offers no host services to kernels.
  }
  return buf;
}

void Runtime::launch(const Kernel& k, const LaunchConfig& c, const std::vector<KernelArg>& args) {
  launch(Queue{0}, k, c, args);
}

void Runtime::launch(Queue queue, const Kernel& k, const LaunchConfig& c,
                     const std::vector<KernelArg>& args, Signal completion) {
  const loader::KernelInfo& info = *k.info;
  const uint64_t items = uint64_t{c.block.x} * c.block.y * c.block.z;
  if (c.block.x == 0 || c.block.y == 0 || c.block.z == 0 || items > 1024) {
    throw InputError("workgroup size " + std::to_string(c.block.x) + "x" +
                     std::to_string(c.block.y) + "x" + std::to_string(c.block.z) +
                     " is invalid: each dimension must be at least 1 and the product at most 1024");
  }
  if (info.maxFlatWorkgroupSize != 0 && items > info.maxFlatWorkgroupSize) {
    throw InputError("kernel '" + info.name + "' allows at most " +
                     std::to_string(info.maxFlatWorkgroupSize) + " work-items per workgroup, " +
                     std::to_string(items) + " requested");
  }
  if (c.grid.x == 0 || c.grid.y == 0 || c.grid.z == 0) {
    throw InputError("grid size must be at least 1 in every dimension");
  }
  const uint64_t lds = uint64_t{info.groupSegmentFixedSize} + c.dynamicLdsBytes;
  if (lds > gpu_.config().lds.sizeBytes) {
    throw InputError("kernel '" + info.name + "' needs " + std::to_string(lds) +
                     " bytes of LDS (with dynamic LDS); a compute unit has " +
                     std::to_string(gpu_.config().lds.sizeBytes));
  }
  if (c.acquireFence > aql::kScopeSystem || c.releaseFence > aql::kScopeSystem)
    throw InputError("fence scopes are none (0), agent (1) or system (2)");
  QueueState& q = queueState(queue);
  if (info.privateSegmentFixedSize > 0) {
    // The command processor's scratch layout: each wave slot of the GPU gets the private
    // segment of 64 lanes, rounded up to 1 KiB.
    const PlatformConfig& pc = gpu_.config();
    const uint64_t perWave = (uint64_t{info.privateSegmentFixedSize} * 64 + 1023) / 1024 * 1024;
    ensureScratch(
        q, perWave * mmioRead(mmio::kComputeUnits) * pc.cu.simdsPerCu * pc.cu.waveSlotsPerSimd);
  }
  const std::vector<uint8_t> kernarg = buildKernarg(k, c, args, q.base);
  const uint64_t kernargAddress = malloc(kernarg.size());
  copyToDevice(kernargAddress, kernarg.data(), kernarg.size());
  q.transientAllocations.push_back(kernargAddress);

  aql::KernelDispatchPacket p{};
  p.setup = static_cast<uint16_t>(dimensions(c));
  p.workgroupSizeX = static_cast<uint16_t>(c.block.x);
  p.workgroupSizeY = static_cast<uint16_t>(c.block.y);
  p.workgroupSizeZ = static_cast<uint16_t>(c.block.z);
  p.gridSizeX = c.grid.x;
  p.gridSizeY = c.grid.y;
  p.gridSizeZ = c.grid.z;
  p.privateSegmentSize = info.privateSegmentFixedSize;
  p.groupSegmentSize = static_cast<uint32_t>(lds);
  p.kernelObject = k.descriptorAddress;
  p.kernargAddress = kernargAddress;
  p.completionSignal = completion.address;
  const uint16_t header = aql::kKernelDispatch | (1u << aql::kHeaderBarrierBit) |
                          (c.acquireFence << aql::kHeaderAcquireShift) |
                          (c.releaseFence << aql::kHeaderReleaseShift);
  submitPacket(q, &p, header);
}

void Runtime::synchronize() {
  for (QueueState& q : queues_)
    if (q.base != 0) synchronize(Queue{q.index});
}

void Runtime::synchronize(Queue queue) {
  QueueState& q = queueState(queue);
  while (true) {
    // READ_INDEX first: the CP raises a dispatch's error before it retires the packet, so once
    // the index shows the packet consumed its error shows too. (Checked the other way round, a
    // fault raised while the index was being read went unseen.)
    const bool consumed = readIndex(q) >= q.writeIndex;
    checkQueueError(q);
    if (consumed) break;
    waitForInterrupt();  // sleep until the GPU interrupts (a completion or an error)
  }
  for (uint64_t a : q.transientAllocations) free(a);
  q.transientAllocations.clear();
}

// ---- Simulation -------------------------------------------------------------------------------

struct Simulation::Top : sc_module {
  Gpu gpu;
  HostPort host;
  SystemMemory systemMemory;  // what the GPU reaches outside device memory
  sc_signal<bool> irq;
  std::function<void(Runtime&)> program;
  std::exception_ptr error;
  bool finished = false;

  SC_HAS_PROCESS(Top);
  Top(sc_module_name name, const PlatformConfig& config)
      : sc_module(name),
        gpu("gpu", config),
        host("host"),
        systemMemory("system_memory", Simulation::kSystemMemoryBase,
                     Simulation::kSystemMemoryBytes),
        irq("irq") {
    host.mmio.bind(gpu.mmioSocket());
    host.memory.bind(gpu.hostMemorySocket());
    gpu.systemMemorySocket().bind(systemMemory.socket);
    gpu.irq.bind(irq);
    host.irq.bind(irq);
    SC_THREAD(hostThread);
  }
  void hostThread() {
    try {
      Runtime runtime(host, gpu);
      if (program) program(runtime);
    } catch (...) {
      error = std::current_exception();
    }
    finished = true;
    sc_stop();
  }
};

Simulation::Simulation(const PlatformConfig& config) {
  // sc_stop() is how a run ends normally: no "simulation stopped by user" notice on stdout.
  sc_report_handler::set_actions("/OSCI/SystemC", SC_INFO, SC_DO_NOTHING);
  top_ = std::make_unique<Top>("system", config);
}

Simulation::~Simulation() = default;

Gpu& Simulation::gpu() {
  return top_->gpu;
}

SystemMemory& Simulation::systemMemory() {
  return top_->systemMemory;
}

double Simulation::simulatedSeconds() const {
  return sc_time_stamp().to_seconds();
}

void Simulation::run(const std::function<void(Runtime&)>& hostProgram) {
  top_->program = hostProgram;
  sc_start();
  // Traces are completed even when the host program failed: a faulted kernel's VCD and
  // timeline are what one looks at next.
  top_->gpu.finishTraces();
  if (top_->error) std::rethrow_exception(top_->error);
  // Out of events with the host still waiting (e.g. for a signal nothing will decrement):
  // report it rather than return as if the program had ended.
  if (!top_->finished)
    throw std::runtime_error("the simulation ran out of events while the host program was waiting");
}

}  // namespace vgpu
