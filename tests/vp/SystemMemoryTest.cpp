// The GPU as a bus master on system memory (fabric/DataFabric.h): kernels read and write
// buffers in system memory, the command processor takes its queue, packets and kernargs from
// system memory and completes a signal there (atomically, with its start and end times), an
// access outside every memory faults with the full report, and system-memory accesses cross
// the system link with its latency. Every transaction to system memory passes a base-protocol
// checker.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "CheckedSystem.h"
#include "KernelCases.h"
#include "RegisterAccess.h"
#include "common/Error.h"
#include "cp/MmioRegisters.h"
#include "loader/CodeObject.h"
#include "platforms/Platform.h"

namespace vgpu::test {
namespace {

using namespace sc_core;

constexpr uint32_t kN = 1024;  // work-items, whole workgroups of 64

std::vector<float> inputs(uint32_t seed) {
  std::vector<float> v(kN);
  for (uint32_t i = 0; i < kN; ++i) v[i] = static_cast<float>((i * 7 + seed) % 101) - 50.0f;
  return v;
}

class SystemMemoryAccess : public ::testing::TestWithParam<bool> {  // functional mode?
 protected:
  PlatformConfig config() const {
    PlatformConfig c = loadPlatform("tiny");
    c.computeUnits = 2;
    c.functionalMode = GetParam();
    return c;
  }
};

void expectNoViolations(const CheckedSystem& sys) {
  for (const ProtocolChecker* c : sys.checkers())
    for (const std::string& v : c->violations()) ADD_FAILURE() << v;
  for (const std::string& v : sys.systemMemoryChecker.violations()) ADD_FAILURE() << v;
}

// vector_add with a, b and c in system memory: the host writes and reads them in its own
// memory, the kernel reaches them through the GPU's system-memory socket.
TEST_P(SystemMemoryAccess, KernelReadsAndWritesBuffersInSystemMemory) {
  CheckedSystem sys(config());
  const std::vector<float> a = inputs(1), b = inputs(2);
  sys.run([&](Runtime& rt) {
    const Module& m = rt.loadModule(kernelDir() + "/vector_add.co");
    const uint64_t sa = Simulation::kSystemMemoryBase + 0x10000, sb = sa + 0x10000,
                   sc = sb + 0x10000;
    std::memcpy(sys.systemMemory.hostPointer(sa, kN * 4), a.data(), kN * 4);
    std::memcpy(sys.systemMemory.hostPointer(sb, kN * 4), b.data(), kN * 4);
    rt.launch(rt.kernel(m, "vector_add"), {{kN, 1, 1}, {64, 1, 1}},
              {KernelArg::pointer(sa), KernelArg::pointer(sb), KernelArg::pointer(sc),
               KernelArg::value<int32_t>(kN)});
    rt.synchronize();
    const float* c = reinterpret_cast<const float*>(sys.systemMemory.hostPointer(sc, kN * 4));
    for (uint32_t i = 0; i < kN; ++i) ASSERT_EQ(c[i], a[i] + b[i]) << i;
  });
  if (!GetParam()) {  // timing: every element crossed the link, 2 x 4 KiB read, 4 KiB written
    EXPECT_GE(sys.gpu.statistics().value("system_link.bytes_read"), 2u * kN * 4);
    EXPECT_GE(sys.gpu.statistics().value("system_link.bytes_written"), kN * 4u);
  }  // (functional mode moves the data through DMI, past the link's counters)
  EXPECT_EQ(sys.gpu.statistics().value("system_link.errors"), 0u);
  EXPECT_GT(sys.systemMemoryChecker.transports + sys.systemMemoryChecker.dmiRequests, 0u);
  expectNoViolations(sys);
}

// The queue's ring, the packet, the kernargs and the completion signal in system memory, as
// HSA runtimes place them; the code and the data buffers in device memory.
TEST_P(SystemMemoryAccess, QueueKernargsAndCompletionSignalInSystemMemory) {
  CheckedSystem sys(config());
  const std::vector<float> a = inputs(3), b = inputs(4);
  sys.run([&](Runtime& rt) {
    const Module& m = rt.loadModule(kernelDir() + "/vector_add.co");
    const Kernel k = rt.kernel(m, "vector_add");
    const uint64_t da = rt.malloc(kN * 4), db = rt.malloc(kN * 4), dc = rt.malloc(kN * 4);
    rt.copyToDevice(da, a.data(), kN * 4);
    rt.copyToDevice(db, b.data(), kN * 4);

    SystemMemory& host = sys.systemMemory;
    const uint64_t ring = Simulation::kSystemMemoryBase + 0x100000;  // 4 packets
    const uint64_t kernarg = ring + 0x1000, signal = ring + 0x2000;
    std::vector<uint8_t> args(k.info->kernargSegmentSize, 0);
    std::memcpy(args.data() + 0, &da, 8);
    std::memcpy(args.data() + 8, &db, 8);
    std::memcpy(args.data() + 16, &dc, 8);
    std::memcpy(args.data() + 24, &kN, 4);
    std::memcpy(host.hostPointer(kernarg, args.size()), args.data(), args.size());
    const int64_t one = 1;  // amd_signal_t: kind at 0, value at 8, start_ts/end_ts at 32/40
    std::memcpy(host.hostPointer(signal + 8, 8), &one, 8);

    aql::KernelDispatchPacket p{};
    p.setup = 1;
    p.workgroupSizeX = 64, p.workgroupSizeY = p.workgroupSizeZ = 1;
    p.gridSizeX = kN, p.gridSizeY = p.gridSizeZ = 1;
    p.kernelObject = k.descriptorAddress;
    p.kernargAddress = kernarg;
    p.completionSignal = signal;
    p.header = static_cast<uint16_t>(aql::kKernelDispatch | (1u << aql::kHeaderBarrierBit) |
                                     (aql::kScopeSystem << aql::kHeaderAcquireShift) |
                                     (aql::kScopeSystem << aql::kHeaderReleaseShift));
    std::memcpy(host.hostPointer(ring, sizeof p), &p, sizeof p);

    const uint32_t queue = mmio::kQueues - 1;
    auto& mmio = sys.mmioChecker;
    mmioWrite(mmio, mmio::queueRegister(queue, mmio::kQBaseLo), static_cast<uint32_t>(ring));
    mmioWrite(mmio, mmio::queueRegister(queue, mmio::kQBaseHi), static_cast<uint32_t>(ring >> 32));
    mmioWrite(mmio, mmio::queueRegister(queue, mmio::kQSize), 4);
    mmioWrite(mmio, mmio::queueRegister(queue, mmio::kQEnable), 1);
    const uint64_t rungAt = static_cast<uint64_t>(sc_time_stamp() / sc_time(1, SC_NS));
    mmioWrite(mmio, mmio::queueRegister(queue, mmio::kQDoorbellLo), 1);

    // The host polls its own memory, as an HSA runtime's signal wait does.
    int64_t value = 1;
    for (int polls = 0; polls < 100000 && value != 0; ++polls) {
      wait(sc_time(100, SC_NS));
      std::memcpy(&value, host.hostPointer(signal + 8, 8), 8);
    }
    const uint64_t seenAt = static_cast<uint64_t>(sc_time_stamp() / sc_time(1, SC_NS));
    ASSERT_EQ(value, 0) << sys.gpu.debugQueueFault(queue);
    EXPECT_EQ(sys.gpu.debugQueueFault(queue), "");
    uint64_t start = 0, end = 0;
    std::memcpy(&start, host.hostPointer(signal + 32, 8), 8);
    std::memcpy(&end, host.hostPointer(signal + 40, 8), 8);
    EXPECT_GE(start, rungAt);
    EXPECT_GT(end, start);
    EXPECT_LE(end, seenAt);
    // The packet slot was handed back: its header is INVALID again.
    uint16_t header = 0;
    std::memcpy(&header, host.hostPointer(ring, 2), 2);
    EXPECT_EQ(header, aql::kInvalid);

    std::vector<float> c(kN);
    rt.copyFromDevice(c.data(), dc, kN * 4);
    for (uint32_t i = 0; i < kN; ++i) ASSERT_EQ(c[i], a[i] + b[i]) << i;
  });
  EXPECT_GT(sys.gpu.statistics().value("system_link.atomics"), 0u);  // the signal's decrement
  expectNoViolations(sys);
}

// A store to an address in neither device nor system memory stops the kernel with the fault
// report naming the address; the system memory never sees it.
TEST_P(SystemMemoryAccess, AccessOutsideEveryMemoryFaults) {
  CheckedSystem sys(config());
  std::string fault;
  sys.run([&](Runtime& rt) {
    const Module& m = rt.loadModule(kernelDir() + "/vector_add.co");
    const uint64_t sa = Simulation::kSystemMemoryBase + 0x10000;
    const uint64_t nowhere = 0x4000'0000;  // 1 GiB: below system memory
    try {
      rt.launch(rt.kernel(m, "vector_add"), {{kN, 1, 1}, {64, 1, 1}},
                {KernelArg::pointer(sa), KernelArg::pointer(sa), KernelArg::pointer(nowhere),
                 KernelArg::value<int32_t>(kN)});
      rt.synchronize();
    } catch (const KernelFault& e) {
      fault = e.what();
    }
  });
  // Some lane's address in the 4 KiB c would have been, and why nothing answered it.
  EXPECT_NE(fault.find("access to 0x40000"), std::string::npos) << fault;
  EXPECT_NE(fault.find("outside device memory and outside every system memory"), std::string::npos)
      << fault;
  EXPECT_GT(sys.gpu.statistics().value("system_link.errors"), 0u);
  expectNoViolations(sys);
}

// Kernel, barrier, kernel, barrier, ... in one ring in system memory, one doorbell for all,
// as ROCclr submits a launch and its synchronization marker. In functional mode the command
// processor then starts each dispatch in the delta cycle its predecessor ended in, while the
// compute unit is synchronizing its local time: the new workgroups must still run (a lost
// notification once left them waiting for ever).
TEST_P(SystemMemoryAccess, BackToBackDispatchesFromASystemMemoryRingAllRun) {
  CheckedSystem sys(config());
  constexpr uint32_t kLaunches = 6;
  const std::vector<float> a = inputs(7), b = inputs(8);
  sys.run([&](Runtime& rt) {
    const Module& m = rt.loadModule(kernelDir() + "/vector_add.co");
    const Kernel k = rt.kernel(m, "vector_add");
    const uint64_t da = rt.malloc(kN * 4), db = rt.malloc(kN * 4), dc = rt.malloc(kN * 4);
    rt.copyToDevice(da, a.data(), kN * 4);
    rt.copyToDevice(db, b.data(), kN * 4);
    SystemMemory& host = sys.systemMemory;
    const uint64_t ring = Simulation::kSystemMemoryBase + 0x200000;  // 16 packets
    const uint64_t kernarg = ring + 0x1000, signals = ring + 0x2000;
    std::vector<uint8_t> args(k.info->kernargSegmentSize, 0);
    std::memcpy(args.data() + 0, &da, 8);
    std::memcpy(args.data() + 8, &db, 8);
    std::memcpy(args.data() + 16, &dc, 8);
    std::memcpy(args.data() + 24, &kN, 4);
    std::memcpy(host.hostPointer(kernarg, args.size()), args.data(), args.size());
    for (uint32_t i = 0; i < kLaunches; ++i) {
      aql::KernelDispatchPacket p{};
      p.setup = 1;
      p.workgroupSizeX = 64, p.workgroupSizeY = p.workgroupSizeZ = 1;
      p.gridSizeX = kN, p.gridSizeY = p.gridSizeZ = 1;
      p.kernelObject = k.descriptorAddress;
      p.kernargAddress = kernarg;
      p.header = static_cast<uint16_t>(aql::kKernelDispatch | (1u << aql::kHeaderBarrierBit) |
                                       (aql::kScopeAgent << aql::kHeaderAcquireShift) |
                                       (aql::kScopeAgent << aql::kHeaderReleaseShift));
      std::memcpy(host.hostPointer(ring + 2 * i * 64, 64), &p, 64);
      aql::BarrierPacket marker{};
      const int64_t one = 1;
      std::memcpy(host.hostPointer(signals + i * 64 + 8, 8), &one, 8);
      marker.completionSignal = signals + i * 64;
      marker.header = static_cast<uint16_t>(aql::kBarrierAnd | (1u << aql::kHeaderBarrierBit) |
                                            (aql::kScopeSystem << aql::kHeaderAcquireShift) |
                                            (aql::kScopeSystem << aql::kHeaderReleaseShift));
      std::memcpy(host.hostPointer(ring + (2 * i + 1) * 64, 64), &marker, 64);
    }
    const uint32_t queue = mmio::kQueues - 2;
    auto& mmio = sys.mmioChecker;
    mmioWrite(mmio, mmio::queueRegister(queue, mmio::kQBaseLo), static_cast<uint32_t>(ring));
    mmioWrite(mmio, mmio::queueRegister(queue, mmio::kQBaseHi), static_cast<uint32_t>(ring >> 32));
    mmioWrite(mmio, mmio::queueRegister(queue, mmio::kQSize), 16);
    mmioWrite(mmio, mmio::queueRegister(queue, mmio::kQEnable), 1);
    mmioWrite(mmio, mmio::queueRegister(queue, mmio::kQDoorbellLo), 2 * kLaunches);
    const uint64_t last = signals + (kLaunches - 1) * 64 + 8;
    int64_t value = 1;
    for (int polls = 0; polls < 100000 && value != 0; ++polls) {
      wait(sc_time(100, SC_NS));
      std::memcpy(&value, host.hostPointer(last, 8), 8);
    }
    ASSERT_EQ(value, 0) << "the last marker never completed";
    std::vector<float> c(kN);
    rt.copyFromDevice(c.data(), dc, kN * 4);
    for (uint32_t i = 0; i < kN; ++i) ASSERT_EQ(c[i], a[i] + b[i]) << i;
  });
  EXPECT_EQ(sys.gpu.dispatches().size(), kLaunches);
  expectNoViolations(sys);
}

// Two producers on one queue (HSA_QUEUE_TYPE_MULTI): the second publishes its packet and rings
// the doorbell while the first has not written its packet's header yet. The packet processor
// waits at the INVALID header (no error), and both packets run, in order, once the first
// producer writes its header and rings the doorbell.
TEST_P(SystemMemoryAccess, AnUnpublishedPacketWaitsForItsProducer) {
  CheckedSystem sys(config());
  const std::vector<float> a = inputs(9), b = inputs(10);
  sys.run([&](Runtime& rt) {
    const Module& m = rt.loadModule(kernelDir() + "/vector_add.co");
    const Kernel k = rt.kernel(m, "vector_add");
    const uint64_t da = rt.malloc(kN * 4), db = rt.malloc(kN * 4), dc = rt.malloc(kN * 4);
    const uint64_t dd = rt.malloc(kN * 4);
    rt.copyToDevice(da, a.data(), kN * 4);
    rt.copyToDevice(db, b.data(), kN * 4);
    SystemMemory& host = sys.systemMemory;
    const uint64_t ring = Simulation::kSystemMemoryBase + 0x300000;  // 4 packets
    const uint64_t kernargs = ring + 0x1000, signals = ring + 0x2000;
    const uint16_t dispatchHeader =
        static_cast<uint16_t>(aql::kKernelDispatch | (1u << aql::kHeaderBarrierBit) |
                              (aql::kScopeSystem << aql::kHeaderAcquireShift) |
                              (aql::kScopeSystem << aql::kHeaderReleaseShift));
    // Packet 0 computes c = a + b, packet 1 d = a + b; each with its completion signal.
    for (uint32_t i = 0; i < 2; ++i) {
      const uint64_t out = i == 0 ? dc : dd;
      std::vector<uint8_t> args(k.info->kernargSegmentSize, 0);
      std::memcpy(args.data() + 0, &da, 8);
      std::memcpy(args.data() + 8, &db, 8);
      std::memcpy(args.data() + 16, &out, 8);
      std::memcpy(args.data() + 24, &kN, 4);
      std::memcpy(host.hostPointer(kernargs + i * 256, args.size()), args.data(), args.size());
      const int64_t one = 1;
      std::memcpy(host.hostPointer(signals + i * 64 + 8, 8), &one, 8);
      aql::KernelDispatchPacket p{};
      p.header = i == 0 ? uint16_t{aql::kInvalid} : dispatchHeader;  // producer 1 is late
      p.setup = 1;
      p.workgroupSizeX = 64, p.workgroupSizeY = p.workgroupSizeZ = 1;
      p.gridSizeX = kN, p.gridSizeY = p.gridSizeZ = 1;
      p.kernelObject = k.descriptorAddress;
      p.kernargAddress = kernargs + i * 256;
      p.completionSignal = signals + i * 64;
      std::memcpy(host.hostPointer(ring + i * 64, 64), &p, 64);
    }
    const uint32_t queue = mmio::kQueues - 3;
    auto& mmio = sys.mmioChecker;
    mmioWrite(mmio, mmio::queueRegister(queue, mmio::kQBaseLo), static_cast<uint32_t>(ring));
    mmioWrite(mmio, mmio::queueRegister(queue, mmio::kQBaseHi), static_cast<uint32_t>(ring >> 32));
    mmioWrite(mmio, mmio::queueRegister(queue, mmio::kQSize), 4);
    mmioWrite(mmio, mmio::queueRegister(queue, mmio::kQEnable), 1);
    mmioWrite(mmio, mmio::queueRegister(queue, mmio::kQDoorbellLo), 2);  // producer 2's doorbell
    auto value = [&](uint32_t i) {
      int64_t v = 0;
      std::memcpy(&v, host.hostPointer(signals + i * 64 + 8, 8), 8);
      return v;
    };
    wait(sc_time(20, SC_US));
    EXPECT_EQ(value(0), 1);
    EXPECT_EQ(value(1), 1) << "packet 1 ran before packet 0 was published";
    const uint32_t status = mmioRead(mmio, mmio::queueRegister(queue, mmio::kQStatus));
    EXPECT_TRUE(status & mmio::kQueueAwaitingHeader) << status;
    EXPECT_FALSE(status & mmio::kQueueError) << sys.gpu.debugQueueFault(queue);
    EXPECT_EQ(mmioRead(mmio, mmio::queueRegister(queue, mmio::kQReadIndexLo)), 0u);

    // Producer 1 publishes its header, then rings the doorbell with what it has written.
    std::memcpy(host.hostPointer(ring, 2), &dispatchHeader, 2);
    mmioWrite(mmio, mmio::queueRegister(queue, mmio::kQDoorbellLo), 1);
    for (int polls = 0; polls < 100000 && value(1) != 0; ++polls) wait(sc_time(100, SC_NS));
    EXPECT_EQ(value(0), 0);
    EXPECT_EQ(value(1), 0);
    EXPECT_EQ(mmioRead(mmio, mmio::queueRegister(queue, mmio::kQReadIndexLo)), 2u);
    EXPECT_EQ(sys.gpu.debugQueueFault(queue), "");
    std::vector<float> c(kN), d(kN);
    rt.copyFromDevice(c.data(), dc, kN * 4);
    rt.copyFromDevice(d.data(), dd, kN * 4);
    for (uint32_t i = 0; i < kN; ++i) {
      ASSERT_EQ(c[i], a[i] + b[i]) << i;
      ASSERT_EQ(d[i], a[i] + b[i]) << i;
    }
  });
  expectNoViolations(sys);
}

INSTANTIATE_TEST_SUITE_P(Modes, SystemMemoryAccess, ::testing::Values(true, false),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "Functional" : "Timing";
                         });

// In timing mode a kernel that reads its inputs from system memory takes longer than the same
// kernel on device memory, by at least the link latency (platform system_link.latency) less
// what a DRAM access costs (controller latency + tRCD + tCL: the longest a device-memory miss
// can save; the plain system memory here answers at once). Both runs find their code in the
// instruction cache and their data in no cache.
TEST(SystemMemoryTiming, SystemMemoryInputsCostTheLinkLatency) {
  PlatformConfig config = loadPlatform("tiny");
  config.computeUnits = 2;
  CheckedSystem sys(config);
  const std::vector<float> a = inputs(5), b = inputs(6);
  sys.run([&](Runtime& rt) {
    const Module& m = rt.loadModule(kernelDir() + "/vector_add.co");
    const Kernel k = rt.kernel(m, "vector_add");
    const uint64_t dc = rt.malloc(kN * 4);
    const uint64_t sa = Simulation::kSystemMemoryBase, sb = sa + 0x10000;
    std::memcpy(sys.systemMemory.hostPointer(sa, kN * 4), a.data(), kN * 4);
    std::memcpy(sys.systemMemory.hostPointer(sb, kN * 4), b.data(), kN * 4);
    std::vector<std::pair<uint64_t, uint64_t>> inputsAt;
    for (int warmUpThenMeasured = 0; warmUpThenMeasured < 2; ++warmUpThenMeasured) {
      const uint64_t da = rt.malloc(kN * 4), db = rt.malloc(kN * 4);
      rt.copyToDevice(da, a.data(), kN * 4);
      rt.copyToDevice(db, b.data(), kN * 4);
      inputsAt.emplace_back(da, db);
    }
    inputsAt.emplace_back(sa, sb);
    for (auto [x, y] : inputsAt) {
      rt.launch(k, {{kN, 1, 1}, {64, 1, 1}},
                {KernelArg::pointer(x), KernelArg::pointer(y), KernelArg::pointer(dc),
                 KernelArg::value<int32_t>(kN)});
      rt.synchronize();
    }
  });
  const auto& d = sys.gpu.dispatches();
  ASSERT_EQ(d.size(), 3u);
  const uint64_t device = d[1].endCycle - d[1].startCycle;
  const uint64_t system = d[2].endCycle - d[2].startCycle;
  const double cyclesPerNs = config.clockMHz / 1000.0;
  const double dramNs = config.dram.controllerLatencyNs + config.dram.tRCDns + config.dram.tCLns;
  EXPECT_GE(static_cast<double>(system),
            static_cast<double>(device) + (config.systemLink.latencyNs - dramNs) * cyclesPerNs)
      << "device " << device << " cycles, system " << system;
  expectNoViolations(sys);
}

}  // namespace
}  // namespace vgpu::test
