// Malformed AQL packets, one kind per test: the packet's queue reports the error (QUEUE_STATUS,
// QUEUE_ERROR_CODE, QUEUE_ERRORS), the error interrupt is raised, the queue goes on with its next
// packet, and a kernel on another queue runs to a correct result meanwhile.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <ostream>

#include "CheckedSystem.h"
#include "KernelCases.h"
#include "RegisterAccess.h"
#include "common/Error.h"
#include "cp/MmioRegisters.h"
#include "platforms/Platform.h"

namespace vgpu::test {
namespace {

using namespace sc_core;

constexpr uint32_t kRawQueue = mmio::kQueues - 1;  // driven register by register by the test

// What a malformed-packet case needs to build its packet.
struct Context {
  uint64_t kernelObject = 0;  // a real kernel descriptor (vector_add)
  uint64_t kernarg = 0;       // a real kernarg buffer
  uint64_t completion = 0;    // the malformed packet's completion signal (value 1)
};

struct Case {
  std::string name;
  uint32_t expectedCode;
  bool decrementsCompletion;  // the packet's layout is known, so its signal is decremented
  std::function<void(const Context&, uint8_t* packet)> build;
  uint32_t queueSize = 4;
  friend void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }
};

uint16_t header(uint8_t type, unsigned acquire = aql::kScopeSystem,
                unsigned release = aql::kScopeSystem) {
  return static_cast<uint16_t>(type | (1u << aql::kHeaderBarrierBit) |
                               (acquire << aql::kHeaderAcquireShift) |
                               (release << aql::kHeaderReleaseShift));
}

// A well-formed dispatch of vector_add (64 work-items), for the cases to break one field of.
aql::KernelDispatchPacket dispatch(const Context& c) {
  aql::KernelDispatchPacket p{};
  p.header = header(aql::kKernelDispatch);
  p.setup = 1;
  p.workgroupSizeX = p.workgroupSizeY = p.workgroupSizeZ = 1;
  p.workgroupSizeX = 64;
  p.gridSizeX = 64;
  p.gridSizeY = p.gridSizeZ = 1;
  p.kernelObject = c.kernelObject;
  p.kernargAddress = c.kernarg;
  p.completionSignal = c.completion;
  return p;
}

template <typename F>
std::function<void(const Context&, uint8_t*)> dispatchWith(F change) {
  return [change](const Context& c, uint8_t* raw) {
    aql::KernelDispatchPacket p = dispatch(c);
    change(p);
    std::memcpy(raw, &p, sizeof p);
  };
}

std::function<void(const Context&, uint8_t*)> headerType(uint8_t type) {
  return dispatchWith([type](aql::KernelDispatchPacket& p) { p.header = header(type); });
}

std::vector<Case> cases() {
  using P = aql::KernelDispatchPacket;
  return {
      {"VendorSpecificType", mmio::kErrorInvalidPacketType, false,
       headerType(aql::kVendorSpecific)},
      // (An INVALID header is a packet not yet published, not an error: vp.Queues tests it.)
      {"AgentDispatchType", mmio::kErrorInvalidPacketType, false, headerType(aql::kAgentDispatch)},
      {"UndefinedType", mmio::kErrorInvalidPacketType, false, headerType(9)},
      {"ReservedAcquireScope", mmio::kErrorInvalidHeader, true,
       dispatchWith([](P& p) { p.header = header(aql::kKernelDispatch, 3); })},
      {"ReservedReleaseScope", mmio::kErrorInvalidHeader, true,
       dispatchWith([](P& p) { p.header = header(aql::kKernelDispatch, 1, 3); })},
      {"ZeroDimensions", mmio::kErrorInvalidDimensions, true,
       dispatchWith([](P& p) { p.setup = 0; })},
      {"ZeroGrid", mmio::kErrorInvalidDimensions, true,
       dispatchWith([](P& p) { p.gridSizeY = 0; })},
      {"ZeroWorkgroup", mmio::kErrorInvalidDimensions, true,
       dispatchWith([](P& p) { p.workgroupSizeZ = 0; })},
      {"WorkgroupTooLarge", mmio::kErrorWorkgroupTooLarge, true,
       dispatchWith([](P& p) { p.workgroupSizeX = 2048; })},
      {"CodeAddressOutsideMemory", mmio::kErrorInvalidCodeObject, true,
       dispatchWith([](P& p) { p.kernelObject = 0xdead0000; })},
      {"CodeAddressInsideDataNotCode", mmio::kErrorInvalidCodeObject, true,
       dispatchWith([](P& p) { p.kernelObject = p.kernargAddress; })},
      // (A kernarg address outside memory is not a packet error: the packet processor does
      // not read kernargs, the waves do, and their first s_load faults; see
      // vp.SystemMemoryAccess.AccessOutsideEveryMemoryFaults and reliability.Fault.)
      {"TooMuchLds", mmio::kErrorResources, true,
       dispatchWith([](P& p) { p.groupSegmentSize = 1u << 20; })},
      {"BarrierDependencyOutsideMemory", mmio::kErrorMemory, true,
       [](const Context& c, uint8_t* raw) {
         aql::BarrierPacket b{};
         b.header = header(aql::kBarrierAnd);
         b.depSignal[2] = 0x20;
         b.completionSignal = c.completion;
         std::memcpy(raw, &b, sizeof b);
       }},
      {"QueueSizeNotAPowerOfTwo", mmio::kErrorQueueSetup, false, dispatchWith([](P&) {}), 3},
  };
}

class MalformedPacket : public ::testing::TestWithParam<Case> {};

TEST_P(MalformedPacket, SetsQueueErrorRaisesInterruptAndOtherQueuesGoOn) {
  const Case& kind = GetParam();
  PlatformConfig config = loadPlatform("tiny");
  config.computeUnits = 2;
  CheckedSystem sys(config);
  sys.run([&](Runtime& rt) {
    auto& mmio = sys.mmioChecker;
    const KernelCase vectorAdd = kernelCase("vector_add");
    const Module& m = rt.loadModule(kernelDir() + "/" + vectorAdd.codeObject);
    const Kernel k = rt.kernel(m, vectorAdd.kernel);
    const Queue good = rt.createQueue();

    Context c;
    c.kernelObject = k.descriptorAddress;
    c.kernarg = rt.malloc(256);
    const Signal completion = rt.createSignal(1), follower = rt.createSignal(1);
    c.completion = completion.address;

    // The raw queue: the malformed packet, then a barrier with no dependencies.
    const uint64_t ring = rt.malloc(4 * aql::kPacketBytes);
    uint8_t packets[2][aql::kPacketBytes] = {};
    kind.build(c, packets[0]);
    aql::BarrierPacket next{};
    next.header = header(aql::kBarrierAnd);
    next.completionSignal = follower.address;
    std::memcpy(packets[1], &next, sizeof next);
    rt.copyToDevice(ring, packets, sizeof packets);
    mmioWrite(mmio, mmio::queueRegister(kRawQueue, mmio::kQBaseLo), static_cast<uint32_t>(ring));
    mmioWrite(mmio, mmio::queueRegister(kRawQueue, mmio::kQBaseHi),
              static_cast<uint32_t>(ring >> 32));
    mmioWrite(mmio, mmio::queueRegister(kRawQueue, mmio::kQSize), kind.queueSize);
    mmioWrite(mmio, mmio::queueRegister(kRawQueue, mmio::kQEnable), 1);

    // A kernel on a good queue and the malformed packet at the same time.
    std::vector<uint64_t> buffers;
    rt.launch(good, k, vectorAdd.launch, uploadArgs(rt, vectorAdd, buffers));
    mmioWrite(mmio, mmio::queueRegister(kRawQueue, mmio::kQDoorbellLo), 2);

    // The error interrupt: the line goes high (IRQ_ENABLE has the error bit: the runtime set it).
    // Completions of the good queue raise it too: acknowledge those until the error shows.
    while (!(mmioRead(mmio, mmio::kIrqStatus) & mmio::kIrqError)) {
      if (sys.irq.read())
        mmioWrite(mmio, mmio::kIrqStatus, mmio::kIrqPacketDone);
      else
        wait(sys.irq.posedge_event());
    }
    EXPECT_TRUE(sys.irq.read());
    EXPECT_TRUE(mmioRead(mmio, mmio::queueRegister(kRawQueue, mmio::kQStatus)) & mmio::kQueueError);
    EXPECT_EQ(mmioRead(mmio, mmio::queueRegister(kRawQueue, mmio::kQErrorCode)), kind.expectedCode)
        << sys.gpu.debugQueueFault(kRawQueue);
    EXPECT_EQ(mmioRead(mmio, mmio::kQueueErrors), 1u << kRawQueue);
    EXPECT_TRUE(mmioRead(mmio, mmio::kStatus) & mmio::kStatusError);
    EXPECT_FALSE(sys.gpu.debugQueueFault(kRawQueue).empty());

    // The good queue is unaffected: its kernel completes with the right result.
    rt.synchronize(good);
    std::vector<std::vector<uint8_t>> out(vectorAdd.args.size());
    for (size_t i = 0; i < vectorAdd.args.size(); ++i)
      if (vectorAdd.args[i].isBuffer) {
        out[i].resize(vectorAdd.args[i].bytes.size());
        rt.copyFromDevice(out[i].data(), buffers[i], out[i].size());
      }
    EXPECT_EQ(checkAgainstReference(vectorAdd, out), "");
    EXPECT_FALSE(mmioRead(mmio, mmio::queueRegister(good.index, mmio::kQStatus)) &
                 mmio::kQueueError);

    if (kind.queueSize == 4) {
      // The faulty queue went on with its next packet.
      rt.waitSignal(follower);
      EXPECT_EQ(rt.signalValue(completion), kind.decrementsCompletion ? 0 : 1);
    }
    // Both packets were consumed.
    EXPECT_EQ(mmioRead(mmio, mmio::queueRegister(kRawQueue, mmio::kQReadIndexLo)), 2u);
    // W1C clears the queue's error.
    mmioWrite(mmio, mmio::queueRegister(kRawQueue, mmio::kQStatus), mmio::kQueueError);
    EXPECT_EQ(mmioRead(mmio, mmio::queueRegister(kRawQueue, mmio::kQErrorCode)), 0u);
    EXPECT_EQ(mmioRead(mmio, mmio::kQueueErrors), 0u);
  });
  for (const ProtocolChecker* c : sys.checkers())
    for (const std::string& v : c->violations()) ADD_FAILURE() << v;
}

INSTANTIATE_TEST_SUITE_P(Kinds, MalformedPacket, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return info.param.name;
                         });

// Through the runtime API, a rejected dispatch is an InputError naming the problem.
TEST(MalformedPacketRuntime, RejectedDispatchIsAnInputError) {
  PlatformConfig config = loadPlatform("tiny");
  CheckedSystem sys(config);
  try {
    sys.run([&](Runtime& rt) {
      const KernelCase c = kernelCase("vector_add");
      const Module& m = rt.loadModule(kernelDir() + "/" + c.codeObject);
      Kernel k = rt.kernel(m, c.kernel);
      k.descriptorAddress += 4;  // not a kernel descriptor of the code object's kernels
      std::vector<uint64_t> buffers;
      rt.launch(k, c.launch, uploadArgs(rt, c, buffers));
      rt.synchronize();
    });
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("the GPU rejected the dispatch"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace vgpu::test
