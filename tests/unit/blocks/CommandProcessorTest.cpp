// The command processor on its own: a tester initiator plays host software (registers,
// doorbells), a DRAM holds the AQL ring, the kernel descriptors and the signals, and a stand-in
// dispatcher records the dispatches the CP hands over and ends them when the test says so.
//
// Expected values are worked out from the documents, not from the model: register offsets and
// bits from docs/register-map.md, the kernel-dispatch and barrier packet layouts from the HSA
// Platform System Architecture Specification 1.2 (section 2.9, "Architected Queuing Language"),
// the kernel descriptor from LLVM AMDGPUUsage ("Kernel Descriptor" for GFX6-GFX9), and the signal
// layout (value at +8, start_ts at +32, end_ts at +40) from ROCm's amd_signal_t as the register
// map cites it. Packets are therefore built byte by byte here, not with the model's structs.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "MappedDeviceMemory.h"
#include "TlmTester.h"
#include "common/DebugSymbols.h"
#include "cp/CommandProcessor.h"
#include "dram/DeviceMemoryMap.h"
#include "dram/Dram.h"
#include "platforms/Platform.h"

namespace vgpu {
namespace {

using sc_core::sc_time;
using sc_core::sc_time_stamp;
using test::cycles;
using test::TesterInitiator;

// Registers (docs/register-map.md).
constexpr uint64_t kId = 0x000, kVersion = 0x004, kStatus = 0x008, kErrorCode = 0x00C,
                   kIrqStatus = 0x010, kIrqEnable = 0x014, kComputeUnits = 0x018,
                   kDispatches = 0x01C, kQueues = 0x020, kQueueStride = 0x024, kQueueErrors = 0x028,
                   kCapabilities = 0x02C, kMemMapBase = 0x030, kMemMapSize = 0x038,
                   kMemMapCommand = 0x040, kMemMapStatus = 0x044, kDeviceMemoryBase = 0x048,
                   kDeviceMemorySize = 0x050, kTimestamp = 0x058, kFaultAddress = 0x060,
                   kFaultStatus = 0x068, kQueuePriorities = 0x06C, kQueueCuMaskIndex = 0x070,
                   kQueueCuMaskData = 0x074;
// Queue q's block is at 0x100 + q * 0x40; offsets in the block.
constexpr uint64_t kQBase = 0x00, kQSize = 0x08, kQEnable = 0x0C, kQDoorbell = 0x10,
                   kQReadIndex = 0x18, kQStatus = 0x20, kQErrorCode = 0x24, kQDispatches = 0x28,
                   kQScratchBase = 0x30, kQScratchSize = 0x38;
constexpr uint64_t queueRegister(uint32_t q, uint64_t offset) {
  return 0x100 + q * 0x40 + offset;
}
// QUEUE_STATUS bits: busy, error (W1C), waiting at a barrier, head header INVALID.
constexpr uint32_t kBusy = 1, kError = 2, kAtBarrier = 4, kAwaitingHeader = 8;

// AQL header (HSA PSA 1.2, table "hsa_packet_header_t"): type [7:0], barrier [8], acquire fence
// scope [10:9], release fence scope [12:11]; types INVALID 1, KERNEL_DISPATCH 2, BARRIER_AND 3,
// BARRIER_OR 5; scopes none 0, agent 1, system 2.
constexpr uint16_t packetHeader(uint16_t type, uint16_t acquire = 0, uint16_t release = 0) {
  return static_cast<uint16_t>(type | (1u << 8) | (acquire << 9) | (release << 11));
}
constexpr uint16_t kTypeInvalid = 1, kTypeDispatch = 2, kTypeBarrierAnd = 3, kTypeBarrierOr = 5;

template <typename T>
void put(uint8_t* bytes, size_t offset, T value) {
  std::memcpy(bytes + offset, &value, sizeof value);
}

// A kernel-dispatch packet's fields (HSA PSA 1.2, "Kernel Dispatch Packet"), at the offsets
// the spec gives them.
struct DispatchPacket {
  uint16_t header = packetHeader(kTypeDispatch);
  uint16_t setup = 1;  // dimensions [1:0]
  uint16_t workgroup[3] = {64, 1, 1};
  uint32_t grid[3] = {64, 1, 1};
  uint32_t privateSegment = 0, groupSegment = 0;
  uint64_t kernelObject = 0, kernarg = 0, completionSignal = 0;

  std::array<uint8_t, 64> bytes() const {
    std::array<uint8_t, 64> b{};
    put(b.data(), 0, header);
    put(b.data(), 2, setup);
    for (int d = 0; d < 3; ++d) put(b.data(), 4 + 2 * d, workgroup[d]);
    for (int d = 0; d < 3; ++d) put(b.data(), 12 + 4 * d, grid[d]);
    put(b.data(), 24, privateSegment);
    put(b.data(), 28, groupSegment);
    put(b.data(), 32, kernelObject);
    put(b.data(), 40, kernarg);
    put(b.data(), 56, completionSignal);
    return b;
  }
};

// A barrier-AND/OR packet (HSA PSA 1.2, "Barrier-AND Packet", "Barrier-OR Packet"): dep_signal
// at 8 + 8 i, completion_signal at 56.
std::array<uint8_t, 64> barrierPacket(uint16_t type, std::array<uint64_t, 5> deps,
                                      uint64_t completion) {
  std::array<uint8_t, 64> b{};
  put(b.data(), 0, packetHeader(type));
  for (int i = 0; i < 5; ++i) put(b.data(), 8 + 8 * i, deps[i]);
  put(b.data(), 56, completion);
  return b;
}

// The kernel descriptor (AMDGPUUsage, "Kernel Descriptor", code object V3+):
// group_segment_fixed_size at 0, private_segment_fixed_size at 4, kernarg_size at 8,
// kernel_code_entry_byte_offset (int64) at 16, compute_pgm_rsrc1 at 48, compute_pgm_rsrc2 at 52,
// kernel_code_properties (uint16) at 56.
struct KernelDescriptor {
  uint32_t groupSegment = 0, privateSegment = 0, kernargSize = 0;
  int64_t entryOffset = 0x100;
  uint32_t rsrc1 = 0, rsrc2 = 0;
  uint16_t properties = 0;
  std::array<uint8_t, 64> bytes() const {
    std::array<uint8_t, 64> b{};
    put(b.data(), 0, groupSegment);
    put(b.data(), 4, privateSegment);
    put(b.data(), 8, kernargSize);
    put(b.data(), 16, entryOffset);
    put(b.data(), 48, rsrc1);
    put(b.data(), 52, rsrc2);
    put(b.data(), 56, properties);
    return b;
  }
};

// The dispatcher as the command processor sees it: records each dispatch and ends it when the
// test calls finish().
class RecordingDispatcher : public DispatcherPort {
 public:
  std::vector<std::shared_ptr<DispatchProgress>> submitted;
  std::vector<sc_time> submittedAt;
  sc_core::sc_event submittedEvent;

  std::shared_ptr<DispatchProgress> submit(std::shared_ptr<const KernelDispatch> d) override {
    auto p = std::make_shared<DispatchProgress>();
    p->dispatch = std::move(d);
    submitted.push_back(p);
    submittedAt.push_back(sc_time_stamp());
    submittedEvent.notify(sc_core::SC_ZERO_TIME);
    return p;
  }
  const sc_core::sc_event& finishedEvent() const override { return finished_; }

  void finish(size_t i, bool faulted = false, const std::string& fault = {},
              std::optional<uint64_t> refusedAddress = std::nullopt) {
    DispatchProgress& p = *submitted.at(i);
    p.done = true;
    p.faulted = faulted;
    p.fault = fault;
    p.faultAddress = refusedAddress;
    p.endTime = sc_time_stamp();
    finished_.notify(sc_core::SC_ZERO_TIME);
  }

 private:
  sc_core::sc_event finished_;
};

// The tiny platform with a 1 GHz clock, so that cycles, ns and TIMESTAMP units coincide.
PlatformConfig platform() {
  PlatformConfig c = loadPlatform("tiny");
  c.clockMHz = 1000;
  return c;
}

constexpr uint64_t kDramBytes = 64ull << 20;
constexpr uint32_t kDramLatency = 10;

struct CpBench {
  PlatformConfig config = platform();
  Dram dram{"dram", test::fixedLatencyDram(kDramBytes, kDramLatency), cycles(1)};
  RecordingDispatcher dispatcher;
  DebugSymbols symbols;
  CommandProcessor cp{"cp", config, dispatcher, symbols, DeviceMemoryMap::kBase, kDramBytes};
  TesterInitiator host{"host"};
  sc_core::sc_signal<bool> irq{"irq"};
  // One 64 KiB allocation: rings at +0 (queue q at q * 0x400), kernel descriptors at +0x4000
  // (code 0x100 after each), kernargs at +0x6000, signals at +0x8000 (64 bytes each).
  uint64_t base = 0;

  CpBench() {
    host.socket.bind(cp.mmio);
    cp.memory.bind(dram.socket);
    cp.irq.bind(irq);
    base = test::mapDeviceMemory(dram, 0x10000, 0x1000);
  }
  uint64_t ring(uint32_t q) const { return base + q * 0x400; }
  uint64_t kernelObject(uint32_t i = 0) const { return base + 0x4000 + i * 0x200; }
  uint64_t kernarg() const { return base + 0x6000; }
  uint64_t signal(uint32_t i) const { return base + 0x8000 + i * 64; }

  // Memory, as host software sees it (the bench's backdoor into DRAM: no simulated time).
  void poke(uint64_t addr, const void* data, size_t n) {
    dram.store().write(addr, static_cast<const uint8_t*>(data), n);
  }
  template <typename T>
  T peek(uint64_t addr) {
    T v{};
    dram.store().read(addr, reinterpret_cast<uint8_t*>(&v), sizeof v);
    return v;
  }
  void setSignal(uint64_t signal, int64_t value) { poke(signal + 8, &value, 8); }
  int64_t signalValue(uint64_t signal) { return peek<int64_t>(signal + 8); }
  // HSA publication: the body first, then the 16-bit header.
  void writePacket(uint32_t q, uint32_t slot, const std::array<uint8_t, 64>& p) {
    poke(ring(q) + slot * 64 + 2, p.data() + 2, 62);
    poke(ring(q) + slot * 64, p.data(), 2);
  }
  void writeDescriptor(uint64_t kernelObject, const KernelDescriptor& kd) {
    const auto b = kd.bytes();
    poke(kernelObject, b.data(), b.size());
  }

  // Registers, through the MMIO socket.
  uint32_t reg(uint64_t offset) { return host.read32(offset); }
  void setReg(uint64_t offset, uint32_t v) { host.write32(offset, v); }
  uint64_t reg64(uint64_t offset) {
    uint64_t v = 0;
    EXPECT_TRUE(host.read(offset, &v, 8).ok());
    return v;
  }
  void setReg64(uint64_t offset, uint64_t v) { EXPECT_TRUE(host.write(offset, &v, 8).ok()); }
  void enableQueue(uint32_t q, uint32_t size = 4) {
    setReg64(queueRegister(q, kQBase), ring(q));
    setReg(queueRegister(q, kQSize), size);
    setReg(queueRegister(q, kQEnable), 1);
  }
  void ring(uint32_t q, uint32_t writeIndex) { setReg(queueRegister(q, kQDoorbell), writeIndex); }

  // A valid dispatch of the kernel at kernelObject(i) with completion signal `signal`.
  DispatchPacket dispatchOf(uint32_t i, uint64_t signal) {
    writeDescriptor(kernelObject(i), KernelDescriptor{});
    DispatchPacket p;
    p.kernelObject = kernelObject(i);
    p.kernarg = kernarg();
    p.completionSignal = signal;
    return p;
  }

  // Waits (in steps of 10 cycles, up to `limit` cycles) until `done` holds.
  bool waitUntil(const std::function<bool()>& done, double limit = 10000) {
    const sc_time end = sc_time_stamp() + cycles(limit);
    while (!done()) {
      if (sc_time_stamp() >= end) return false;
      sc_core::wait(cycles(10));
    }
    return true;
  }
  uint32_t readIndex(uint32_t q) { return reg(queueRegister(q, kQReadIndex)); }
};

TEST(CommandProcessorBlock, RegistersReadAsTheRegisterMapSays) {
  CpBench b;
  b.host.body([&](TesterInitiator& h) {
    EXPECT_EQ(b.reg(kId), 0x55504756u);  // "VGPU"
    EXPECT_EQ(b.reg(kVersion), 0x00030003u);
    EXPECT_EQ(b.reg(kComputeUnits), 1u);  // tiny.json: compute_units 1
    EXPECT_EQ(b.reg(kQueues), 8u);
    EXPECT_EQ(b.reg(kQueueStride), 0x40u);
    EXPECT_EQ(b.reg(kCapabilities), 0x3ffu);      // bits 0..9
    EXPECT_EQ(b.reg(kQueuePriorities), 0x5555u);  // every queue normal (1)
    b.setReg(kQueuePriorities, 0xfffe1234u);      // 16 bits: 2 per queue
    EXPECT_EQ(b.reg(kQueuePriorities), 0x1234u);
    b.setReg(kQueuePriorities, 0x5555u);
    // QUEUE_CU_MASK: INDEX keeps queue (10:8) and word (4:0); every word starts all ones, and a
    // write reaches only the selected word of the selected queue.
    EXPECT_EQ(b.reg(kQueueCuMaskIndex), 0u);
    EXPECT_EQ(b.reg(kQueueCuMaskData), 0xffffffffu);
    b.setReg(kQueueCuMaskIndex, 0xffffffffu);
    EXPECT_EQ(b.reg(kQueueCuMaskIndex), 0x71fu);
    b.setReg(kQueueCuMaskIndex, 3u << 8 | 1);
    b.setReg(kQueueCuMaskData, 0xa5u);
    EXPECT_EQ(b.reg(kQueueCuMaskData), 0xa5u);
    b.setReg(kQueueCuMaskIndex, 3u << 8 | 0);
    EXPECT_EQ(b.reg(kQueueCuMaskData), 0xffffffffu);
    b.setReg(kQueueCuMaskIndex, 2u << 8 | 1);
    EXPECT_EQ(b.reg(kQueueCuMaskData), 0xffffffffu);
    b.setReg(kQueueCuMaskIndex, 3u << 8 | 1);
    b.setReg(kQueueCuMaskData, 0xffffffffu);
    EXPECT_EQ(b.reg64(kDeviceMemoryBase), 0x100000000ull);
    EXPECT_EQ(b.reg64(kDeviceMemorySize), kDramBytes);
    EXPECT_EQ(b.reg(kStatus), 0u);
    // A LO/HI pair written with one 8-byte access reads back per half.
    b.setReg64(queueRegister(5, kQBase), 0x123456789abcdef0ull);
    EXPECT_EQ(b.reg(queueRegister(5, kQBase)), 0x9abcdef0u);
    EXPECT_EQ(b.reg(queueRegister(5, kQBase) + 4), 0x12345678u);
    // Read-only registers ignore writes.
    b.setReg(kId, 0);
    b.setReg(kComputeUnits, 7);
    EXPECT_EQ(b.reg(kId), 0x55504756u);
    EXPECT_EQ(b.reg(kComputeUnits), 1u);
    // TIMESTAMP is simulated time in ns (the 8-byte read sees both halves at once).
    sc_core::wait(cycles(1000) - sc_time_stamp());
    EXPECT_EQ(b.reg64(kTimestamp), 1000u);

    // Access rules: 4 bytes or 8 to a LO/HI pair, aligned, no byte enables, below 0x300.
    uint8_t bytes[8] = {};
    EXPECT_EQ(h.read(kId, bytes, 2).status, tlm::TLM_BURST_ERROR_RESPONSE);
    EXPECT_EQ(h.read(kVersion + 2, bytes, 4).status, tlm::TLM_BURST_ERROR_RESPONSE);
    EXPECT_EQ(h.read(kVersion, bytes, 8).status, tlm::TLM_BURST_ERROR_RESPONSE);  // 4-aligned
    EXPECT_EQ(h.read(0x300, bytes, 4).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(h.read(0x2f8, bytes, 8).status, tlm::TLM_OK_RESPONSE);  // the last pair
    const uint8_t enables[4] = {0xff, 0xff, 0, 0};
    EXPECT_EQ(h.access(tlm::TLM_READ_COMMAND, kId, bytes, 4, enables, 4).status,
              tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    // Debuggers read without side effects; their writes are refused.
    uint32_t id = 0;
    EXPECT_EQ(h.debug(tlm::TLM_READ_COMMAND, kId, &id, 4), 4u);
    EXPECT_EQ(id, 0x55504756u);
    uint32_t enable = 3;
    EXPECT_EQ(h.debug(tlm::TLM_WRITE_COMMAND, kIrqEnable, &enable, 4), 0u);
    EXPECT_EQ(b.reg(kIrqEnable), 0u);
  });
  test::simulate();
}

TEST(CommandProcessorBlock, MemMapCommandHandsTheRangeInBaseAndSizeToTheMemory) {
  CpBench b;
  std::vector<std::pair<uint64_t, uint64_t>> mapped;
  std::vector<uint64_t> unmapped;
  b.cp.mapDeviceMemory = [&](uint64_t base, uint64_t bytes) {
    mapped.emplace_back(base, bytes);
    return bytes != 0;  // the memory refuses an empty range
  };
  b.cp.unmapDeviceMemory = [&](uint64_t base) {
    unmapped.push_back(base);
    return true;
  };
  b.host.body([&](TesterInitiator&) {
    b.setReg64(kMemMapBase, 0x100200000ull);
    b.setReg64(kMemMapSize, 0x30000);
    b.setReg(kMemMapCommand, 1);
    EXPECT_EQ(b.reg(kMemMapStatus), 0u);
    b.setReg64(kMemMapSize, 0);
    b.setReg(kMemMapCommand, 1);
    EXPECT_EQ(b.reg(kMemMapStatus), 1u);  // refused
    b.setReg(kMemMapCommand, 2);
    EXPECT_EQ(b.reg(kMemMapStatus), 0u);
  });
  test::simulate();
  ASSERT_EQ(mapped.size(), 2u);
  EXPECT_EQ(mapped[0], std::make_pair(uint64_t{0x100200000}, uint64_t{0x30000}));
  EXPECT_EQ(mapped[1], std::make_pair(uint64_t{0x100200000}, uint64_t{0}));
  EXPECT_EQ(unmapped, std::vector<uint64_t>{0x100200000});
}

TEST(CommandProcessorBlock, KernelDispatchReachesTheDispatcherAsPacketAndDescriptorSay) {
  CpBench b;
  std::vector<std::pair<int, size_t>> fences;  // (scope, dispatches submitted before it)
  b.cp.onAcquireFence = [&](aql::FenceScope s) {
    fences.emplace_back(static_cast<int>(s), b.dispatcher.submitted.size());
  };
  KernelDescriptor kd;
  kd.groupSegment = 1024;
  kd.kernargSize = 16;
  kd.entryOffset = 0x100;
  // GRANULATED_WORKITEM_VGPR_COUNT 9 (40 VGPRs: (9 + 1) x 4), GRANULATED_WAVEFRONT_SGPR_COUNT 3
  // (GFX9: roundup(sgprs, 16) / 8 - 1, so 32 SGPRs), FLOAT_DENORM_MODE_16_64 3, DX10_CLAMP,
  // IEEE_MODE.
  kd.rsrc1 = 9 | (3 << 6) | (3 << 18) | (1 << 21) | (1 << 23);
  // USER_SGPR_COUNT 6, ENABLE_SGPR_WORKGROUP_ID_X and _Y, ENABLE_VGPR_WORKITEM_ID 1.
  kd.rsrc2 = (6 << 1) | (1 << 7) | (1 << 8) | (1 << 11);
  kd.properties = (1 << 1) | (1 << 3);  // dispatch pointer, kernarg segment pointer
  DispatchPacket p;
  p.header = packetHeader(kTypeDispatch, 2, 2);  // system-scope acquire and release
  p.setup = 2;
  p.workgroup[0] = 64, p.workgroup[1] = 2, p.workgroup[2] = 1;
  p.grid[0] = 100, p.grid[1] = 6, p.grid[2] = 1;
  p.groupSegment = 2048;  // the kernel's 1024 plus 1024 of dynamic LDS
  p.kernelObject = b.kernelObject();
  p.kernarg = b.kernarg();
  p.completionSignal = b.signal(0);
  b.symbols.nameKernel(b.kernelObject(), "saxpy");
  b.symbols.codeObjectLoaded(b.kernelObject() - 0x1000, 0x2000);

  b.host.body([&](TesterInitiator&) {
    b.writeDescriptor(b.kernelObject(), kd);
    b.setSignal(b.signal(0), 1);
    b.writePacket(0, 0, p.bytes());
    b.enableQueue(0);
    b.setReg(kIrqEnable, 3);
    const sc_time rung = sc_time_stamp();
    b.ring(0, 1);
    if (b.dispatcher.submitted.empty()) sc_core::wait(b.dispatcher.submittedEvent);
    ASSERT_EQ(b.dispatcher.submitted.size(), 1u);
    const KernelDispatch& d = *b.dispatcher.submitted[0]->dispatch;
    EXPECT_EQ(d.kernelName, "saxpy");
    EXPECT_EQ(d.codeObjectBase, b.kernelObject() - 0x1000);
    EXPECT_EQ(d.entryPc, b.kernelObject() + 0x100);
    EXPECT_EQ(d.packetAddress, b.ring(0));
    EXPECT_EQ(d.queueAddress, b.ring(0));
    EXPECT_EQ(d.kernargAddress, b.kernarg());
    EXPECT_EQ(d.completionSignal, b.signal(0));
    EXPECT_EQ(d.gridSize, (std::array<uint32_t, 3>{100, 6, 1}));
    EXPECT_EQ(d.workgroupSize, (std::array<uint32_t, 3>{64, 2, 1}));
    EXPECT_EQ(d.dimensions, 2u);
    EXPECT_EQ(d.computePgmRsrc1, kd.rsrc1);
    EXPECT_EQ(d.computePgmRsrc2, kd.rsrc2);
    EXPECT_EQ(d.kernelCodeProperties, kd.properties);
    EXPECT_EQ(d.groupSegmentBytes, 2048u);  // the packet's size, which includes the fixed part
    EXPECT_EQ(d.privateSegmentBytes, 0u);
    EXPECT_EQ(d.vgprsPerWave, 40u);
    EXPECT_EQ(d.sgprsPerWave, 32u);
    EXPECT_EQ(d.scratchBytes, 0u);
    // The acquire fence came before the dispatch.
    EXPECT_EQ(fences, (std::vector<std::pair<int, size_t>>{{2, 0}}));

    // Running: busy, nothing consumed or signalled yet.
    sc_core::wait(cycles(500));
    EXPECT_EQ(b.reg(queueRegister(0, kQStatus)), kBusy);
    EXPECT_EQ(b.reg(kStatus) & 1, 1u);
    EXPECT_EQ(b.readIndex(0), 0u);
    EXPECT_EQ(b.signalValue(b.signal(0)), 1);
    EXPECT_FALSE(b.irq.read());

    const sc_time ended = sc_time_stamp();
    b.dispatcher.finish(0);
    sc_core::wait(b.irq.posedge_event());
    const sc_time woken = sc_time_stamp();
    // A host woken by the interrupt finds everything up to date (register map, "Completion").
    EXPECT_EQ(b.readIndex(0), 1u);
    EXPECT_EQ(b.peek<uint16_t>(b.ring(0)), kTypeInvalid);  // the slot handed back
    EXPECT_EQ(b.signalValue(b.signal(0)), 0);
    const uint64_t start = b.peek<uint64_t>(b.signal(0) + 32);
    const uint64_t end = b.peek<uint64_t>(b.signal(0) + 40);
    EXPECT_GE(start, static_cast<uint64_t>(rung / cycles(1)));
    EXPECT_LE(start, static_cast<uint64_t>(b.dispatcher.submittedAt[0] / cycles(1)));
    EXPECT_GE(end, static_cast<uint64_t>(ended / cycles(1)));
    EXPECT_LE(end, static_cast<uint64_t>(woken / cycles(1)));
    EXPECT_EQ(b.reg(kIrqStatus), 1u);  // a packet completed
    EXPECT_EQ(b.reg(kDispatches), 1u);
    EXPECT_EQ(b.reg(queueRegister(0, kQDispatches)), 1u);
    EXPECT_EQ(b.reg(queueRegister(0, kQStatus)), 0u);
    EXPECT_EQ(b.reg(kStatus), 0u);
    // W1C: writing 0 clears nothing, writing the bit clears it and drops the line.
    b.setReg(kIrqStatus, 0);
    EXPECT_EQ(b.reg(kIrqStatus), 1u);
    EXPECT_TRUE(b.irq.read());
    b.setReg(kIrqStatus, 1);
    EXPECT_EQ(b.reg(kIrqStatus), 0u);
    EXPECT_FALSE(b.irq.read());
  });
  test::simulate();
}

TEST(CommandProcessorBlock, ScratchSlicesFollowThePrivateSegmentAndQueueScratch) {
  CpBench b;
  b.host.body([&](TesterInitiator&) {
    b.enableQueue(0);
    DispatchPacket p = b.dispatchOf(0, b.signal(0));
    p.privateSegment = 20;
    b.setSignal(b.signal(0), 1);
    b.writePacket(0, 0, p.bytes());
    // round_up(20 x 64, 1 KiB) = 2048 per wave slot, x 1 CU x 4 SIMDs x 10 slots (tiny.json).
    const uint64_t needed = 2048 * 40;
    b.setReg64(queueRegister(0, kQScratchBase), b.base + 0x9000);
    b.setReg64(queueRegister(0, kQScratchSize), needed - 1);
    b.ring(0, 1);
    ASSERT_TRUE(b.waitUntil([&] { return b.readIndex(0) == 1; }));
    EXPECT_EQ(b.reg(queueRegister(0, kQErrorCode)), 7u);  // resources
    EXPECT_EQ(b.signalValue(b.signal(0)), 0);
    EXPECT_TRUE(b.dispatcher.submitted.empty());
    b.setReg(queueRegister(0, kQStatus), kError);

    b.setReg64(queueRegister(0, kQScratchSize), needed);
    b.writePacket(0, 1, p.bytes());
    b.ring(0, 2);
    ASSERT_TRUE(b.waitUntil([&] { return !b.dispatcher.submitted.empty(); }));
    const KernelDispatch& d = *b.dispatcher.submitted[0]->dispatch;
    EXPECT_EQ(d.privateSegmentBytes, 20u);
    EXPECT_EQ(d.scratchBytesPerWave, 2048u);
    EXPECT_EQ(d.scratchBytes, needed);
    EXPECT_EQ(d.scratchBase, b.base + 0x9000);
    EXPECT_EQ(b.reg(queueRegister(0, kQErrorCode)), 0u);
  });
  test::simulate();
}

TEST(CommandProcessorBlock, BarrierAndWaitsForEveryDependencySignal) {
  CpBench b;
  b.host.body([&](TesterInitiator&) {
    b.enableQueue(0);
    b.setSignal(b.signal(1), 1);  // dependency A: not yet
    b.setSignal(b.signal(2), 0);  // dependency B: satisfied
    b.setSignal(b.signal(0), 1);  // the barrier's completion signal
    b.setSignal(b.signal(3), 1);  // the dispatch behind it
    b.writePacket(0, 0,
                  barrierPacket(kTypeBarrierAnd, {b.signal(1), 0, b.signal(2), 0, 0}, b.signal(0)));
    b.writePacket(0, 1, b.dispatchOf(0, b.signal(3)).bytes());
    b.ring(0, 2);
    sc_core::wait(cycles(2000));
    EXPECT_EQ(b.reg(queueRegister(0, kQStatus)), kBusy | kAtBarrier);
    EXPECT_EQ(b.readIndex(0), 0u);
    EXPECT_EQ(b.signalValue(b.signal(0)), 1);
    EXPECT_TRUE(b.dispatcher.submitted.empty());  // held behind the barrier

    // The host sets A by a plain store: the CP sees it at its next poll (every 100 cycles),
    // then retires the barrier and starts the dispatch (a few 10-cycle memory accesses each).
    const sc_time set = sc_time_stamp();
    b.setSignal(b.signal(1), 0);
    ASSERT_TRUE(b.waitUntil([&] { return !b.dispatcher.submitted.empty(); }, 1000));
    EXPECT_GT(b.dispatcher.submittedAt[0], set);
    EXPECT_LE(b.dispatcher.submittedAt[0], set + cycles(100 + 10 * kDramLatency));
    EXPECT_EQ(b.readIndex(0), 1u);
    EXPECT_EQ(b.signalValue(b.signal(0)), 0);
    EXPECT_EQ(b.peek<uint16_t>(b.ring(0)), kTypeInvalid);
    EXPECT_EQ(b.reg(queueRegister(0, kQStatus)), kBusy);  // the dispatch runs
  });
  test::simulate();
}

TEST(CommandProcessorBlock, BarrierOrWaitsForAnyDependencySignal) {
  CpBench b;
  b.host.body([&](TesterInitiator&) {
    b.enableQueue(0);
    b.setSignal(b.signal(1), 1);
    b.setSignal(b.signal(2), 2);
    b.setSignal(b.signal(0), 1);
    b.setSignal(b.signal(3), 1);
    b.writePacket(0, 0,
                  barrierPacket(kTypeBarrierOr, {0, b.signal(1), 0, 0, b.signal(2)}, b.signal(0)));
    // With no dependency at all a barrier completes at once.
    b.writePacket(0, 1, barrierPacket(kTypeBarrierAnd, {0, 0, 0, 0, 0}, b.signal(3)));
    b.ring(0, 2);
    sc_core::wait(cycles(2000));
    EXPECT_EQ(b.reg(queueRegister(0, kQStatus)), kBusy | kAtBarrier);
    EXPECT_EQ(b.readIndex(0), 0u);
    b.setSignal(b.signal(2), 0);  // one of the two
    ASSERT_TRUE(b.waitUntil([&] { return b.readIndex(0) == 2; }, 1000));
    EXPECT_EQ(b.signalValue(b.signal(0)), 0);
    EXPECT_EQ(b.signalValue(b.signal(3)), 0);
    EXPECT_EQ(b.reg(queueRegister(0, kQStatus)), 0u);
  });
  test::simulate();
}

TEST(CommandProcessorBlock, PacketWithInvalidHeaderWaitsForItsHeaderAndTheNextDoorbell) {
  CpBench b;
  b.host.body([&](TesterInitiator&) {
    b.enableQueue(0);
    b.setSignal(b.signal(0), 1);
    DispatchPacket p = b.dispatchOf(0, b.signal(0));
    p.header = packetHeader(kTypeInvalid);  // the body is written, the header not yet
    b.writePacket(0, 0, p.bytes());
    b.ring(0, 1);
    sc_core::wait(cycles(1000));
    EXPECT_EQ(b.reg(queueRegister(0, kQStatus)), kBusy | kAwaitingHeader);
    EXPECT_EQ(b.reg(queueRegister(0, kQErrorCode)), 0u);  // not an error
    EXPECT_EQ(b.readIndex(0), 0u);
    EXPECT_TRUE(b.dispatcher.submitted.empty());
    // The header alone is not looked at until a doorbell write.
    const uint16_t published = packetHeader(kTypeDispatch);
    b.poke(b.ring(0), &published, 2);
    sc_core::wait(cycles(1000));
    EXPECT_TRUE(b.dispatcher.submitted.empty());
    b.ring(0, 1);  // the same write index again
    ASSERT_TRUE(b.waitUntil([&] { return !b.dispatcher.submitted.empty(); }, 1000));
    EXPECT_EQ(b.reg(queueRegister(0, kQStatus)), kBusy);
    b.dispatcher.finish(0);
    ASSERT_TRUE(b.waitUntil([&] { return b.readIndex(0) == 1; }, 1000));
    EXPECT_EQ(b.signalValue(b.signal(0)), 0);
  });
  test::simulate();
}

TEST(CommandProcessorBlock, InvalidPacketTypeSetsErrorRegistersAndTheQueueGoesOn) {
  CpBench b;
  constexpr uint32_t q = 3;
  b.host.body([&](TesterInitiator&) {
    b.enableQueue(q);
    b.setReg(kIrqEnable, 2);  // errors only
    b.setSignal(b.signal(0), 1);
    b.setSignal(b.signal(1), 1);
    DispatchPacket bad = b.dispatchOf(0, b.signal(0));
    bad.header = packetHeader(0);  // vendor-specific: not a type the CP runs
    b.writePacket(q, 0, bad.bytes());
    b.writePacket(q, 1, b.dispatchOf(0, b.signal(1)).bytes());
    b.ring(q, 2);
    ASSERT_TRUE(b.waitUntil([&] { return !b.dispatcher.submitted.empty(); }, 1000));
    EXPECT_EQ(b.readIndex(q), 1u);
    // The packet's layout is unknown: its "completion signal" is left alone.
    EXPECT_EQ(b.signalValue(b.signal(0)), 1);
    EXPECT_EQ(b.reg(queueRegister(q, kQStatus)), kBusy | kError);
    EXPECT_EQ(b.reg(queueRegister(q, kQErrorCode)), 1u);
    EXPECT_EQ(b.reg(kQueueErrors), 1u << q);
    EXPECT_EQ(b.reg(kStatus), 3u);  // busy, error
    EXPECT_EQ(b.reg(kErrorCode), 1u);
    EXPECT_EQ(b.reg(kIrqStatus) & 2, 2u);
    EXPECT_TRUE(b.irq.read());
    EXPECT_NE(b.cp.queueFault(q).find("invalid type 0"), std::string::npos) << b.cp.queueFault(q);

    // The queue's error bit is W1C; the global ERROR_CODE and STATUS error bit stay until
    // IRQ_STATUS is cleared.
    b.setReg(queueRegister(q, kQStatus), kBusy);  // not the error bit: nothing happens
    EXPECT_EQ(b.reg(queueRegister(q, kQErrorCode)), 1u);
    b.setReg(queueRegister(q, kQStatus), kError);
    EXPECT_EQ(b.reg(queueRegister(q, kQStatus)), kBusy);
    EXPECT_EQ(b.reg(queueRegister(q, kQErrorCode)), 0u);
    EXPECT_EQ(b.reg(kQueueErrors), 0u);
    EXPECT_EQ(b.reg(kErrorCode), 1u);
    b.setReg(kIrqStatus, b.reg(kIrqStatus));
    EXPECT_EQ(b.reg(kIrqStatus), 0u);
    EXPECT_EQ(b.reg(kErrorCode), 0u);
    EXPECT_EQ(b.reg(kStatus), 1u);  // busy: the dispatch still runs
    EXPECT_FALSE(b.irq.read());
    b.dispatcher.finish(0);
    ASSERT_TRUE(b.waitUntil([&] { return b.readIndex(q) == 2; }, 1000));
    EXPECT_EQ(b.signalValue(b.signal(1)), 0);
  });
  test::simulate();
}

TEST(CommandProcessorBlock, MalformedPacketsAreRefusedWithTheirErrorCodes) {
  CpBench b;
  struct Case {
    const char* what;
    std::function<void(DispatchPacket&)> spoil;
    uint32_t code;  // docs/register-map.md, "Error codes"
  };
  KernelDescriptor misaligned;
  misaligned.entryOffset = 0x104;  // not 256-byte aligned
  b.writeDescriptor(b.kernelObject(1), misaligned);
  KernelDescriptor inside;
  inside.entryOffset = 0;  // the entry point is the descriptor itself
  b.writeDescriptor(b.kernelObject(2), inside);
  KernelDescriptor wide;
  wide.rsrc1 = 63;  // (63 + 1) x 4 = 256 VGPRs: fits (256 per lane)
  b.writeDescriptor(b.kernelObject(3), wide);
  const std::vector<Case> cases = {
      {"zero dimensions", [](DispatchPacket& p) { p.setup = 0; }, 2},
      {"zero grid size", [](DispatchPacket& p) { p.grid[2] = 0; }, 2},
      {"zero workgroup size", [](DispatchPacket& p) { p.workgroup[1] = 0; }, 2},
      {"1025 work-items", [](DispatchPacket& p) { p.workgroup[0] = 1025; }, 3},
      {"2048 work-items (32 x 32 x 2)",
       [](DispatchPacket& p) { p.workgroup[0] = 32, p.workgroup[1] = 32, p.workgroup[2] = 2; }, 3},
      {"kernel object in no memory", [](DispatchPacket& p) { p.kernelObject = 0x1000; }, 4},
      {"entry not 256-byte aligned", [&](DispatchPacket& p) { p.kernelObject = b.kernelObject(1); },
       4},
      {"entry inside the descriptor",
       [&](DispatchPacket& p) { p.kernelObject = b.kernelObject(2); }, 4},
      {"more LDS than a CU has", [](DispatchPacket& p) { p.groupSegment = 65536 + 4; }, 7},
      {"private segment without scratch", [](DispatchPacket& p) { p.privateSegment = 4; }, 7},
      {"reserved acquire scope 3",
       [](DispatchPacket& p) { p.header = packetHeader(kTypeDispatch, 3, 0); }, 8},
      {"reserved release scope 3",
       [](DispatchPacket& p) { p.header = packetHeader(kTypeDispatch, 0, 3); }, 8},
  };
  b.host.body([&](TesterInitiator&) {
    b.enableQueue(0, 16);
    uint32_t index = 0;
    for (const Case& c : cases) {
      SCOPED_TRACE(c.what);
      b.setSignal(b.signal(index), 1);
      DispatchPacket p = b.dispatchOf(0, b.signal(index));
      c.spoil(p);
      b.writePacket(0, index, p.bytes());
      b.ring(0, ++index);
      ASSERT_TRUE(b.waitUntil([&] { return b.readIndex(0) == index; }, 1000));
      EXPECT_EQ(b.reg(queueRegister(0, kQErrorCode)), c.code);
      EXPECT_EQ(b.signalValue(b.signal(index - 1)), 0);  // waiters do not hang
      EXPECT_TRUE(b.dispatcher.submitted.empty());
      b.setReg(queueRegister(0, kQStatus), kError);
    }
    // Limits themselves are accepted: 1024 work-items, 256 VGPRs, 64 KiB of LDS.
    DispatchPacket ok = b.dispatchOf(0, 0);
    ok.workgroup[0] = 16, ok.workgroup[1] = 16, ok.workgroup[2] = 4;
    ok.groupSegment = 65536;
    b.writeDescriptor(b.kernelObject(3), wide);
    ok.kernelObject = b.kernelObject(3);
    b.writePacket(0, index, ok.bytes());
    b.ring(0, ++index);
    ASSERT_TRUE(b.waitUntil([&] { return !b.dispatcher.submitted.empty(); }, 1000));
    EXPECT_EQ(b.dispatcher.submitted[0]->dispatch->vgprsPerWave, 256u);
    EXPECT_EQ(b.reg(queueRegister(0, kQErrorCode)), 0u);
  });
  test::simulate();
}

// tiny has one CU. A queue whose CU mask leaves it out can never start a workgroup: its
// dispatch is refused with code 7 (docs/register-map.md); a mask that keeps CU 0 (whatever it
// says of CUs the GPU does not have) lets the dispatch use every CU there is.
TEST(CommandProcessorBlock, ADispatchGoesWhereItsQueuesCuMaskAllows) {
  CpBench b;
  b.host.body([&](TesterInitiator&) {
    b.enableQueue(1);
    b.enableQueue(2);
    b.setReg(kQueueCuMaskIndex, 1u << 8);
    b.setReg(kQueueCuMaskData, 0xfffffffeu);  // every CU but CU 0
    b.setReg(kQueueCuMaskIndex, 2u << 8);
    b.setReg(kQueueCuMaskData, 0x3u);  // CU 0 and a CU 1 tiny does not have
    b.setSignal(b.signal(0), 1);
    b.writePacket(1, 0, b.dispatchOf(0, b.signal(0)).bytes());
    b.ring(1, 1);
    ASSERT_TRUE(b.waitUntil([&] { return b.readIndex(1) == 1; }, 1000));
    EXPECT_EQ(b.reg(queueRegister(1, kQErrorCode)), 7u);
    EXPECT_EQ(b.signalValue(b.signal(0)), 0);
    EXPECT_TRUE(b.dispatcher.submitted.empty());
    EXPECT_NE(b.cp.lastFault().find("CU mask (QUEUE_CU_MASK_DATA) enables none of the GPU's 1 "
                                    "compute units"),
              std::string::npos)
        << b.cp.lastFault();
    b.writePacket(2, 0, b.dispatchOf(0, 0).bytes());
    b.ring(2, 1);
    ASSERT_TRUE(b.waitUntil([&] { return !b.dispatcher.submitted.empty(); }, 1000));
    EXPECT_EQ(b.reg(queueRegister(2, kQErrorCode)), 0u);
    const KernelDispatch& d = *b.dispatcher.submitted[0]->dispatch;
    EXPECT_TRUE(d.cuMask.empty());  // every CU
    EXPECT_TRUE(d.mayUse(0));
    EXPECT_EQ(d.queue, 2u);
  });
  test::simulate();
}

TEST(CommandProcessorBlock, QueueSizeNotAPowerOfTwoIsRefused) {
  CpBench b;
  b.host.body([&](TesterInitiator&) {
    b.setSignal(b.signal(0), 1);
    b.writePacket(1, 0, b.dispatchOf(0, b.signal(0)).bytes());
    b.enableQueue(1, 3);
    b.ring(1, 1);
    ASSERT_TRUE(b.waitUntil([&] { return b.readIndex(1) == 1; }, 1000));
    EXPECT_EQ(b.reg(queueRegister(1, kQErrorCode)), 9u);
    EXPECT_TRUE(b.dispatcher.submitted.empty());
  });
  test::simulate();
}

TEST(CommandProcessorBlock, KernelFaultRetiresThePacketAndHaltsTheQueueUntilCleared) {
  CpBench b;
  b.host.body([&](TesterInitiator&) {
    b.enableQueue(0);
    b.setSignal(b.signal(0), 1);
    b.setSignal(b.signal(1), 1);
    b.writePacket(0, 0, b.dispatchOf(0, b.signal(0)).bytes());
    b.writePacket(0, 1, b.dispatchOf(0, b.signal(1)).bytes());
    b.ring(0, 2);
    ASSERT_TRUE(b.waitUntil([&] { return b.dispatcher.submitted.size() == 1; }, 1000));
    b.dispatcher.finish(0, true, "wave 3 faulted: memory violation");
    ASSERT_TRUE(b.waitUntil([&] { return b.readIndex(0) == 1; }, 1000));
    EXPECT_EQ(b.signalValue(b.signal(0)), 0);
    EXPECT_EQ(b.reg(queueRegister(0, kQErrorCode)), 6u);
    EXPECT_EQ(b.reg(kErrorCode), 6u);
    EXPECT_EQ(b.cp.queueFault(0), "wave 3 faulted: memory violation");
    EXPECT_EQ(b.cp.lastFault(), "wave 3 faulted: memory violation");
    EXPECT_EQ(b.reg(queueRegister(0, kQDispatches)), 1u);
    // Halted: the next packet waits although its doorbell was rung.
    sc_core::wait(cycles(2000));
    EXPECT_EQ(b.dispatcher.submitted.size(), 1u);
    EXPECT_EQ(b.readIndex(0), 1u);
    EXPECT_EQ(b.reg(queueRegister(0, kQStatus)), kBusy | kError);  // packet 1 is unconsumed
    EXPECT_EQ(b.signalValue(b.signal(1)), 1);
    // Host software saw the fault and clears it: the queue goes on.
    b.setReg(queueRegister(0, kQStatus), kError);
    ASSERT_TRUE(b.waitUntil([&] { return b.dispatcher.submitted.size() == 2; }, 1000));
    b.dispatcher.finish(1);
    ASSERT_TRUE(b.waitUntil([&] { return b.readIndex(0) == 2; }, 1000));
    EXPECT_EQ(b.signalValue(b.signal(1)), 0);
    EXPECT_EQ(b.reg(queueRegister(0, kQErrorCode)), 0u);
  });
  test::simulate();
}

// docs/register-map.md: QUEUE_STATUS bit 0 is "busy (packets up to the doorbell not yet
// consumed)" and STATUS bit 0 "busy (some queue has packets not yet consumed)": that includes a
// queue waiting for an unpublished header and one halted after a kernel fault.
// FAULT_ADDRESS / FAULT_STATUS (docs/register-map.md): the first memory violation since
// IRQ_STATUS was cleared, with the queue it came from; a later one does not overwrite it.
TEST(CommandProcessorBlock, FirstMemoryViolationAddressStaysInFaultAddressUntilIrqStatusIsCleared) {
  CpBench b;
  b.host.body([&](TesterInitiator&) {
    EXPECT_EQ(b.reg(kFaultStatus), 0u);
    b.enableQueue(3);
    b.enableQueue(5);
    b.writePacket(3, 0, b.dispatchOf(3, 0).bytes());
    b.ring(3, 1);
    ASSERT_TRUE(b.waitUntil([&] { return b.dispatcher.submitted.size() == 1; }, 1000));
    b.dispatcher.finish(0, true, "memory violation", 0x1'2345'6789ull);
    ASSERT_TRUE(b.waitUntil([&] { return b.readIndex(3) == 1; }, 1000));
    EXPECT_EQ(b.reg64(kFaultAddress), 0x1'2345'6789ull);
    EXPECT_EQ(b.reg(kFaultStatus), 1u | 3u << 8);  // valid, queue 3
    // A second violation (queue 5) before host software clears IRQ_STATUS: the first stays.
    b.writePacket(5, 0, b.dispatchOf(5, 0).bytes());
    b.ring(5, 1);
    ASSERT_TRUE(b.waitUntil([&] { return b.dispatcher.submitted.size() == 2; }, 1000));
    b.dispatcher.finish(1, true, "memory violation", 0x2'0000'0000ull);
    ASSERT_TRUE(b.waitUntil([&] { return b.readIndex(5) == 1; }, 1000));
    EXPECT_EQ(b.reg64(kFaultAddress), 0x1'2345'6789ull);
    EXPECT_EQ(b.reg(kFaultStatus), 1u | 3u << 8);
    // Clearing every IRQ_STATUS bit clears them, with ERROR_CODE.
    b.setReg(kIrqStatus, 3);
    EXPECT_EQ(b.reg(kErrorCode), 0u);
    EXPECT_EQ(b.reg(kFaultStatus), 0u);
    EXPECT_EQ(b.reg64(kFaultAddress), 0u);
    // A fault that is not a memory violation leaves them invalid.
    b.setReg(queueRegister(3, kQStatus), kError);
    b.writePacket(3, 1, b.dispatchOf(3, 0).bytes());
    b.ring(3, 2);
    ASSERT_TRUE(b.waitUntil([&] { return b.dispatcher.submitted.size() == 3; }, 1000));
    b.dispatcher.finish(2, true, "illegal instruction");
    ASSERT_TRUE(b.waitUntil([&] { return b.readIndex(3) == 2; }, 1000));
    EXPECT_EQ(b.reg(kErrorCode), 6u);
    EXPECT_EQ(b.reg(kFaultStatus), 0u);
  });
  test::simulate();
}

TEST(CommandProcessorBlock, QueueIsBusyWhilePacketsUpToTheDoorbellAreUnconsumed) {
  CpBench b;
  b.host.body([&](TesterInitiator&) {
    b.enableQueue(0);
    b.enableQueue(1);
    // Queue 0: a packet whose header is not published yet.
    DispatchPacket unpublished = b.dispatchOf(0, 0);
    unpublished.header = packetHeader(kTypeInvalid);
    b.writePacket(0, 0, unpublished.bytes());
    b.ring(0, 1);
    sc_core::wait(cycles(1000));
    EXPECT_EQ(b.readIndex(0), 0u);
    EXPECT_EQ(b.reg(queueRegister(0, kQStatus)), kBusy | kAwaitingHeader);
    EXPECT_EQ(b.reg(kStatus) & kBusy, kBusy);
    // Queue 1: halted by a kernel fault with a second packet behind it.
    b.writePacket(1, 0, b.dispatchOf(1, 0).bytes());
    b.writePacket(1, 1, b.dispatchOf(1, 0).bytes());
    b.ring(1, 2);
    ASSERT_TRUE(b.waitUntil([&] { return b.dispatcher.submitted.size() == 1; }, 1000));
    b.dispatcher.finish(0, true, "fault");
    ASSERT_TRUE(b.waitUntil([&] { return b.readIndex(1) == 1; }, 1000));
    EXPECT_EQ(b.reg(queueRegister(1, kQStatus)), kBusy | kError);
  });
  test::simulate();
}

TEST(CommandProcessorBlock, PacketsUpToTheHighestDoorbellValueRunWhateverTheOrderOfWrites) {
  CpBench b;
  std::vector<int> fences;
  b.cp.onAcquireFence = [&](aql::FenceScope s) { fences.push_back(static_cast<int>(s)); };
  b.host.body([&](TesterInitiator&) {
    b.enableQueue(0);
    // Two producers: the second's doorbell (2) comes before the first's (1). Acquire scopes
    // none, then agent: the fence hook runs for the second only.
    DispatchPacket first = b.dispatchOf(0, b.signal(0));
    DispatchPacket second = b.dispatchOf(0, b.signal(1));
    second.header = packetHeader(kTypeDispatch, 1, 0);
    b.setSignal(b.signal(0), 1);
    b.setSignal(b.signal(1), 1);
    b.writePacket(0, 0, first.bytes());
    b.writePacket(0, 1, second.bytes());
    b.ring(0, 2);
    b.ring(0, 1);
    EXPECT_EQ(b.reg(queueRegister(0, kQDoorbell)), 1u);  // reads back the last write
    ASSERT_TRUE(b.waitUntil([&] { return b.dispatcher.submitted.size() == 1; }, 1000));
    b.dispatcher.finish(0);
    ASSERT_TRUE(b.waitUntil([&] { return b.dispatcher.submitted.size() == 2; }, 1000));
    b.dispatcher.finish(1);
    ASSERT_TRUE(b.waitUntil([&] { return b.readIndex(0) == 2; }, 1000));
    EXPECT_EQ(b.dispatcher.submitted[1]->dispatch->packetAddress, b.ring(0) + 64);
    EXPECT_EQ(b.signalValue(b.signal(0)), 0);
    EXPECT_EQ(b.signalValue(b.signal(1)), 0);
    EXPECT_EQ(fences, std::vector<int>{1});
    // Enabling a disabled, idle queue starts it afresh: read and write indices 0.
    b.setReg(queueRegister(0, kQEnable), 0);
    b.setReg(queueRegister(0, kQEnable), 1);
    EXPECT_EQ(b.readIndex(0), 0u);
    EXPECT_EQ(b.reg(queueRegister(0, kQDoorbell)), 0u);
  });
  test::simulate();
}

TEST(CommandProcessorBlock, QueuesRunConcurrentlyAndCompleteIndependently) {
  CpBench b;
  b.host.body([&](TesterInitiator&) {
    for (uint32_t q : {0u, 6u}) {
      b.enableQueue(q);
      b.setSignal(b.signal(q), 1);
      b.writePacket(q, 0, b.dispatchOf(q, b.signal(q)).bytes());
    }
    b.ring(0, 1);
    b.ring(6, 1);
    ASSERT_TRUE(b.waitUntil([&] { return b.dispatcher.submitted.size() == 2; }, 1000));
    const KernelDispatch* of[8] = {};
    for (const auto& p : b.dispatcher.submitted)
      of[p->dispatch->queueAddress == b.ring(0) ? 0 : 6] = p->dispatch.get();
    ASSERT_NE(of[0], nullptr);
    ASSERT_NE(of[6], nullptr);
    EXPECT_EQ(of[6]->packetAddress, b.ring(6));
    EXPECT_EQ(of[6]->entryPc, b.kernelObject(6) + 0x100);
    // Queue 6's kernel ends first: its packet completes while queue 0's still runs.
    b.dispatcher.finish(b.dispatcher.submitted[0]->dispatch.get() == of[6] ? 0 : 1);
    ASSERT_TRUE(b.waitUntil([&] { return b.readIndex(6) == 1; }, 1000));
    EXPECT_EQ(b.signalValue(b.signal(6)), 0);
    EXPECT_EQ(b.readIndex(0), 0u);
    EXPECT_EQ(b.signalValue(b.signal(0)), 1);
    EXPECT_EQ(b.reg(queueRegister(0, kQStatus)), kBusy);
    EXPECT_EQ(b.reg(queueRegister(6, kQStatus)), 0u);
    EXPECT_EQ(b.reg(kDispatches), 1u);
  });
  test::simulate();
}

// Queues 1, 3 and 6 each run a first kernel and have a second packet waiting behind it; the
// three first kernels end in the same instant, and the command processor then takes the three
// second packets in the order of QUEUE_PRIORITIES (2 bits per queue: 0 low, 1 normal, 2 high).
// Returns the queues of the second packets in the order they reached the dispatcher, and the
// priorities the dispatches carried.
std::pair<std::vector<uint32_t>, std::vector<uint32_t>> secondPacketOrder(uint32_t priorities) {
  std::pair<std::vector<uint32_t>, std::vector<uint32_t>> result;
  CpBench b;
  b.host.body([&](TesterInitiator&) {
    b.setReg(kQueuePriorities, priorities);
    EXPECT_EQ(b.reg(kQueuePriorities), priorities);
    for (uint32_t q : {1u, 3u, 6u}) {
      b.enableQueue(q);
      b.setSignal(b.signal(q), 2);
      b.writePacket(q, 0, b.dispatchOf(q, b.signal(q)).bytes());
      b.writePacket(q, 1, b.dispatchOf(q, b.signal(q)).bytes());
      b.ring(q, 1);
    }
    ASSERT_TRUE(b.waitUntil([&] { return b.dispatcher.submitted.size() == 3; }, 1000));
    for (uint32_t q : {1u, 3u, 6u}) b.ring(q, 2);
    for (size_t i = 0; i < 3; ++i) b.dispatcher.finish(i);
    ASSERT_TRUE(b.waitUntil([&] { return b.dispatcher.submitted.size() == 6; }, 1000));
    for (size_t i = 3; i < 6; ++i) {
      const KernelDispatch& d = *b.dispatcher.submitted[i]->dispatch;
      for (uint32_t q : {1u, 3u, 6u})
        if (d.queueAddress == b.ring(q)) result.first.push_back(q);
      result.second.push_back(d.priority);
    }
    for (size_t i = 3; i < 6; ++i) b.dispatcher.finish(i);
    ASSERT_TRUE(b.waitUntil([&] { return b.readIndex(1) == 2 && b.readIndex(6) == 2; }, 1000));
  });
  test::simulate();
  return result;
}

TEST(CommandProcessorBlock, HigherPriorityQueuesAreServedFirst) {
  // 0x5555 (all normal) with queue 1 (bits 3:2) low and queue 6 (bits 13:12) high.
  const auto [queues, priorities] = secondPacketOrder(0x6551);
  EXPECT_EQ(queues, (std::vector<uint32_t>{6, 3, 1}));
  EXPECT_EQ(priorities, (std::vector<uint32_t>{2, 1, 0}));
}

TEST(CommandProcessorBlock, PrioritiesNotQueueNumbersDecideTheOrder) {
  // The other way round: queue 1 high (bits 3:2 = 10), queue 6 low (bits 13:12 = 00).
  const auto [queues, priorities] = secondPacketOrder(0x4559);
  EXPECT_EQ(queues, (std::vector<uint32_t>{1, 3, 6}));
  EXPECT_EQ(priorities, (std::vector<uint32_t>{2, 1, 0}));
}

}  // namespace
}  // namespace vgpu
