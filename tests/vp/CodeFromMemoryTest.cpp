// Code and kernel descriptors come from device memory, as host software left them there: a
// kernel whose code host software overwrites between two launches runs the new code the second
// time, and a code object written into device memory with plain writes (no Runtime::loadModule,
// an AQL packet built by hand) runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

#include "CheckedSystem.h"
#include "KernelCases.h"
#include "RegisterAccess.h"
#include "cp/MmioRegisters.h"
#include "loader/CodeObject.h"
#include "platforms/Platform.h"

namespace vgpu::test {
namespace {

using namespace sc_core;

constexpr uint32_t kN = 256;  // work-items, whole workgroups of 64 (as HIP launches them)

void hostAccess(tlm::tlm_fw_transport_if<>& port, tlm::tlm_command command, uint64_t address,
                void* data, uint32_t bytes) {
  tlm::tlm_generic_payload p;
  p.set_command(command);
  p.set_address(address);
  p.set_data_ptr(static_cast<uint8_t*>(data));
  p.set_data_length(bytes);
  p.set_streaming_width(bytes);
  p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_time delay = SC_ZERO_TIME;
  port.b_transport(p, delay);
  wait(delay);
  ASSERT_TRUE(p.is_response_ok()) << p.get_response_string();
}

void hostWrite(tlm::tlm_fw_transport_if<>& port, uint64_t address, const void* data,
               uint32_t bytes) {
  hostAccess(port, tlm::TLM_WRITE_COMMAND, address, const_cast<void*>(data), bytes);
}

struct Buffers {
  std::vector<float> a, b;
  uint64_t da = 0, db = 0, dc = 0;
};

Buffers upload(Runtime& rt) {
  Buffers x;
  for (uint32_t i = 0; i < kN; ++i) {
    x.a.push_back(static_cast<float>(3 * i + 1));
    x.b.push_back(static_cast<float>(i));
  }
  x.da = rt.malloc(kN * 4), x.db = rt.malloc(kN * 4), x.dc = rt.malloc(kN * 4);
  rt.copyToDevice(x.da, x.a.data(), kN * 4);
  rt.copyToDevice(x.db, x.b.data(), kN * 4);
  return x;
}

std::vector<float> result(Runtime& rt, const Buffers& x) {
  std::vector<float> c(kN);
  rt.copyFromDevice(c.data(), x.dc, kN * 4);
  return c;
}

void launch(Runtime& rt, const Kernel& k, const Buffers& x) {
  rt.launch(k, {{kN, 1, 1}, {64, 1, 1}},
            {KernelArg::pointer(x.da), KernelArg::pointer(x.db), KernelArg::pointer(x.dc),
             KernelArg::value<int32_t>(kN)});
  rt.synchronize();
}

class CodeFromMemory : public ::testing::TestWithParam<bool> {  // functional mode?
 protected:
  PlatformConfig config() const {
    PlatformConfig c = loadPlatform("tiny");
    c.computeUnits = 2;
    c.functionalMode = GetParam();
    return c;
  }
};

TEST_P(CodeFromMemory, OverwrittenCodeRunsOnTheNextLaunch) {
  CheckedSystem sys(config());
  sys.run([&](Runtime& rt) {
    const Module& add = rt.loadModule(kernelDir() + "/vector_add.co");
    const Module& sub = rt.loadModule(kernelDir() + "/vector_sub.co");
    const Kernel kAdd = rt.kernel(add, "vector_add"), kSub = rt.kernel(sub, "vector_sub");
    const Buffers x = upload(rt);

    launch(rt, kAdd, x);
    std::vector<float> c = result(rt, x);
    for (uint32_t i = 0; i < kN; ++i) ASSERT_EQ(c[i], x.a[i] + x.b[i]) << i;

    // vector_sub's code, from its entry point to the end of its text, over vector_add's:
    // through the host's memory socket, as any host software writes device memory.
    const uint64_t subEntry = sub.base + kSub.info->entryAddress;
    const uint64_t subBytes = sub.object.textEnd() - kSub.info->entryAddress;
    const uint64_t addBytes = add.object.textEnd() - kAdd.info->entryAddress;
    ASSERT_LE(subBytes, addBytes) << "the twins' code should have the same length";
    std::vector<uint8_t> code(subBytes);
    rt.copyFromDevice(code.data(), subEntry, code.size());
    rt.copyToDevice(add.base + kAdd.info->entryAddress, code.data(), code.size());

    // The same kernel descriptor (vector_add's) now runs vector_sub's code.
    launch(rt, kAdd, x);
    c = result(rt, x);
    for (uint32_t i = 0; i < kN; ++i) ASSERT_EQ(c[i], x.a[i] - x.b[i]) << i;
    EXPECT_GE(sys.gpu.statistics().value("decoded_instructions.pages_dropped"), 1u);
  });
  for (const ProtocolChecker* c : sys.checkers())
    for (const std::string& v : c->violations()) ADD_FAILURE() << v;
}

TEST_P(CodeFromMemory, CodeObjectWrittenWithPlainWritesRuns) {
  CheckedSystem sys(config());
  sys.run([&](Runtime& rt) {
    // The host's own loader: the code object's image, relocated, into device memory that the
    // host's allocator gave it, by writes through the host memory socket. The GPU is told
    // nothing about it (no names, no ranges): it runs the kernel from the descriptor alone.
    const loader::CodeObject object = loader::CodeObject::loadFile(kernelDir() + "/vector_add.co");
    const loader::KernelInfo* info = object.findKernel("vector_add");
    ASSERT_NE(info, nullptr);
    const uint64_t base = rt.malloc(object.image().size() + 4096);
    const uint64_t loadBase = (base + 4095) / 4096 * 4096;
    const std::vector<uint8_t> image = object.relocatedImage(loadBase);
    hostWrite(sys.memoryChecker, loadBase, image.data(), static_cast<uint32_t>(image.size()));
    const uint64_t descriptor = loadBase + info->descriptorAddress;

    // Kernel arguments: a, b, c, n, then zeroed hidden arguments up to the descriptor's
    // kernarg_segment_size (AMDGPUUsage, "Kernel Descriptor", offset 8).
    uint32_t kernargBytes = 0;
    std::memcpy(&kernargBytes, image.data() + info->descriptorAddress + 8, 4);
    const Buffers x = upload(rt);
    std::vector<uint8_t> kernarg(std::max<uint32_t>(kernargBytes, 32), 0);
    std::memcpy(kernarg.data() + 0, &x.da, 8);
    std::memcpy(kernarg.data() + 8, &x.db, 8);
    std::memcpy(kernarg.data() + 16, &x.dc, 8);
    std::memcpy(kernarg.data() + 24, &kN, 4);
    const uint64_t kernargAddress = rt.malloc(kernarg.size());
    hostWrite(sys.memoryChecker, kernargAddress, kernarg.data(),
              static_cast<uint32_t>(kernarg.size()));

    // One AQL kernel-dispatch packet (HSA Platform System Architecture Specification, "Kernel
    // Dispatch Packet") in a queue of its own, driven register by register.
    const Signal done = rt.createSignal(1);
    aql::KernelDispatchPacket p{};
    p.setup = 1;
    p.workgroupSizeX = 64, p.workgroupSizeY = p.workgroupSizeZ = 1;
    p.gridSizeX = kN, p.gridSizeY = p.gridSizeZ = 1;
    p.kernelObject = descriptor;
    p.kernargAddress = kernargAddress;
    p.completionSignal = done.address;
    p.header = static_cast<uint16_t>(aql::kKernelDispatch | (1u << aql::kHeaderBarrierBit) |
                                     (aql::kScopeSystem << aql::kHeaderAcquireShift) |
                                     (aql::kScopeSystem << aql::kHeaderReleaseShift));
    const uint32_t queue = mmio::kQueues - 1;
    const uint64_t ring = rt.malloc(4 * aql::kPacketBytes);
    hostWrite(sys.memoryChecker, ring, &p, sizeof p);
    auto& mmio = sys.mmioChecker;
    mmioWrite(mmio, mmio::queueRegister(queue, mmio::kQBaseLo), static_cast<uint32_t>(ring));
    mmioWrite(mmio, mmio::queueRegister(queue, mmio::kQBaseHi), static_cast<uint32_t>(ring >> 32));
    mmioWrite(mmio, mmio::queueRegister(queue, mmio::kQSize), 4);
    mmioWrite(mmio, mmio::queueRegister(queue, mmio::kQEnable), 1);
    mmioWrite(mmio, mmio::kIrqEnable, mmio::kIrqPacketDone | mmio::kIrqError);
    mmioWrite(mmio, mmio::queueRegister(queue, mmio::kQDoorbellLo), 1);
    rt.waitSignal(done);

    EXPECT_EQ(sys.gpu.debugQueueFault(queue), "");
    const std::vector<float> c = result(rt, x);
    for (uint32_t i = 0; i < kN; ++i) ASSERT_EQ(c[i], x.a[i] + x.b[i]) << i;
    // Reports name an unnamed kernel by its descriptor's address.
    ASSERT_FALSE(sys.gpu.dispatches().empty());
    char name[64];
    std::snprintf(name, sizeof name, "<kernel descriptor at 0x%llx>",
                  static_cast<unsigned long long>(descriptor));
    EXPECT_EQ(sys.gpu.dispatches().back().kernel, name);
  });
  for (const ProtocolChecker* c : sys.checkers())
    for (const std::string& v : c->violations()) ADD_FAILURE() << v;
}

INSTANTIATE_TEST_SUITE_P(Modes, CodeFromMemory, ::testing::Values(true, false),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "Functional" : "Timing";
                         });

}  // namespace
}  // namespace vgpu::test
