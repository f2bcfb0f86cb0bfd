// One compute unit on its own: the test thread plays the dispatcher (it writes a wave's initial
// registers and launches the workgroup), a DRAM holds the code that the decode cache reads, and
// stand-in targets answer the CU's sockets: the instruction cache records the lines fetched, a
// small memory answers the vector (texture path) and scalar (scalar cache) accesses and records
// them, and the LDS must not be used. A stand-in listener records what the CU reports.
//
// The kernels are hand-assembled; their encodings are llvm-mc-15's
// (`llvm-mc-15 -arch=amdgcn -mcpu=gfx906 -show-encoding`), quoted next to each instruction.
// Expected results follow from the instructions' definitions (Vega ISA reference guide), the
// resource limits from the tiny platform (platforms/tiny.json: 4 SIMDs of 10 wave slots, 256
// VGPRs per lane and 800 SGPRs per SIMD, 64 KiB of LDS, 4 instruction prefetch lines).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <tlm_utils/simple_target_socket.h>

#include "MappedDeviceMemory.h"
#include "TlmTester.h"
#include "common/MemoryExtensions.h"
#include "cu/ComputeUnit.h"
#include "cu/InstructionDecodeCache.h"
#include "dram/Dram.h"
#include "platforms/Platform.h"

namespace vgpu {
namespace {

using sc_core::sc_time;
using sc_core::sc_time_stamp;
using test::cycles;

// global_store_dword of (3 x work-item ID + 5) to out[ID], out read from the kernarg segment.
const std::vector<uint8_t> kStoreKernel = {
    0x00, 0x01, 0x06, 0xc0, 0x00, 0x00, 0x00, 0x00,  // s_load_dwordx2 s[4:5], s[0:1], 0x0
    0x82, 0x00, 0x02, 0x24,                          // v_lshlrev_b32_e32 v1, 2, v0
    0x02, 0x00, 0xc3, 0xd1, 0x00, 0x07, 0x15, 0x02,  // v_mad_u32_u24 v2, v0, 3, 5
    0x7f, 0xc0, 0x8c, 0xbf,                          // s_waitcnt lgkmcnt(0)
    0x00, 0x80, 0x70, 0xdc, 0x01, 0x02, 0x04, 0x00,  // global_store_dword v1, v2, s[4:5]
    0x00, 0x00, 0x81, 0xbf,                          // s_endpgm
};
// Uses a scalar load's destination without s_waitcnt: reads the register before the data came.
const std::vector<uint8_t> kNoWaitKernel = {
    0x80, 0x01, 0x02, 0xc0, 0x08, 0x00, 0x00, 0x00,  // s_load_dword s6, s[0:1], 0x8
    0x06, 0x02, 0x04, 0x7e,                          // v_mov_b32_e32 v2, s6
    0x82, 0x00, 0x02, 0x24,                          // v_lshlrev_b32_e32 v1, 2, v0
    0x00, 0x80, 0x70, 0xdc, 0x01, 0x02, 0x04, 0x00,  // global_store_dword v1, v2, s[4:5]
    0x00, 0x00, 0x81, 0xbf,                          // s_endpgm
};
// Wave 0 (s7 = 0) sleeps 5 x 64 cycles before the barrier (Vega ISA guide, S_SLEEP: about
// 64 x SIMM16[2:0] clocks); every wave stores its work-item IDs after it, at s[4:5].
const std::vector<uint8_t> kBarrierKernel = {
    0x07, 0x80, 0x06, 0xbf,                          // s_cmp_eq_u32 s7, 0
    0x01, 0x00, 0x84, 0xbf,                          // s_cbranch_scc0 BAR (1 instruction on)
    0x05, 0x00, 0x8e, 0xbf,                          // s_sleep 5
    0x00, 0x00, 0x8a, 0xbf,                          // BAR: s_barrier
    0x82, 0x00, 0x02, 0x24,                          // v_lshlrev_b32_e32 v1, 2, v0
    0x00, 0x80, 0x70, 0xdc, 0x01, 0x00, 0x04, 0x00,  // global_store_dword v1, v0, s[4:5]
    0x00, 0x00, 0x81, 0xbf,                          // s_endpgm
};
const std::vector<uint8_t> kEndKernel = {0x00, 0x00, 0x81, 0xbf};  // s_endpgm

// A target that records each transaction's address, length and arrival time (SystemC time plus
// the initiator's annotated local offset) and adds a fixed latency.
struct Access {
  uint64_t address = 0;
  uint32_t length = 0;
  bool write = false;
  sc_time at;
  std::shared_ptr<isa::MemRequest> request;  // a copy of a vector access's request
};

// A small memory answering the vector path (whole-wave requests, as the texture path gets
// them) and the scalar path (plain transactions); addresses outside it are refused.
class StandInMemory : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<StandInMemory> vector{"vector"}, scalar{"scalar"};
  std::vector<Access> vectorAccesses, scalarAccesses;

  StandInMemory(sc_core::sc_module_name name, uint64_t base, uint32_t bytes, uint32_t vectorLatency,
                uint32_t scalarLatency)
      : sc_module(name),
        base_(base),
        bytes_(bytes, 0),
        vectorLatency_(vectorLatency),
        scalarLatency_(scalarLatency) {
    vector.register_b_transport(this, &StandInMemory::vectorTransport);
    scalar.register_b_transport(this, &StandInMemory::scalarTransport);
  }
  uint8_t* at(uint64_t address) { return &bytes_.at(address - base_); }
  uint32_t read32(uint64_t address) {
    uint32_t v;
    std::memcpy(&v, at(address), 4);
    return v;
  }
  bool inside(uint64_t address, uint32_t n) const {
    return address >= base_ && address + n <= base_ + bytes_.size();
  }

 private:
  void vectorTransport(tlm::tlm_generic_payload& p, sc_time& delay) {
    auto* ext = p.get_extension<WaveAccessExtension>();
    ASSERT_NE(ext, nullptr);
    isa::MemRequest& r = *ext->request;
    vectorAccesses.push_back({p.get_address(), p.get_data_length(), p.is_write(),
                              sc_time_stamp() + delay, std::make_shared<isa::MemRequest>(r)});
    delay += cycles(vectorLatency_);
    if (r.op == isa::MemOp::Atomic) {
      p.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
      return;
    }
    for (int lane = 0; lane < 64; ++lane) {
      if (!((r.laneMask >> lane) & 1)) continue;
      for (int e = 0; e < r.elementsPerLane; ++e) {
        const uint32_t n = r.laneBytes[lane] ? r.laneBytes[lane] : r.elementBytes;
        if (!inside(r.address(lane, e), n)) {
          r.faulted = true;
          r.faultAddress = r.address(lane, e);
          p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
          return;
        }
      }
    }
    for (int lane = 0; lane < 64; ++lane) {
      if (!((r.laneMask >> lane) & 1)) continue;
      for (int e = 0; e < r.elementsPerLane; ++e) {
        const uint32_t n = r.laneBytes[lane] ? r.laneBytes[lane] : r.elementBytes;
        if (r.op == isa::MemOp::Store)
          std::memcpy(at(r.address(lane, e)), r.element(lane, e), n);
        else
          std::memcpy(r.element(lane, e), at(r.address(lane, e)), n);
      }
    }
    p.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  void scalarTransport(tlm::tlm_generic_payload& p, sc_time& delay) {
    scalarAccesses.push_back(
        {p.get_address(), p.get_data_length(), p.is_write(), sc_time_stamp() + delay, nullptr});
    delay += cycles(scalarLatency_);
    if (!inside(p.get_address(), p.get_data_length()) || p.get_extension<AtomicExtension>()) {
      p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    if (p.is_read())
      std::memcpy(p.get_data_ptr(), at(p.get_address()), p.get_data_length());
    else
      std::memcpy(at(p.get_address()), p.get_data_ptr(), p.get_data_length());
    p.set_response_status(tlm::TLM_OK_RESPONSE);
  }

  uint64_t base_;
  std::vector<uint8_t> bytes_;
  uint32_t vectorLatency_, scalarLatency_;
};

// The instruction cache and the LDS as the CU's sockets see them: record and answer.
class RecordingTarget : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<RecordingTarget> socket{"socket"};
  std::vector<Access> accesses;
  // Per transaction: whether it carried the DataMoved role, and its data pointer.
  struct Carried {
    bool dataMoved;
    const unsigned char* data;
  };
  std::vector<Carried> carried;
  // When not empty: bytes from dmiStart on, over which the target grants read-only DMI (an
  // instruction memory that allows it); otherwise it denies DMI.
  uint64_t dmiStart = 0;
  std::vector<uint8_t> dmiBytes;
  RecordingTarget(sc_core::sc_module_name name, uint32_t latency)
      : sc_module(name), latency_(latency) {
    socket.register_b_transport(this, &RecordingTarget::transport);
    socket.register_get_direct_mem_ptr(this, &RecordingTarget::directMemory);
  }

 private:
  void transport(tlm::tlm_generic_payload& p, sc_time& delay) {
    accesses.push_back(
        {p.get_address(), p.get_data_length(), p.is_write(), sc_time_stamp() + delay, nullptr});
    const auto* role = p.get_extension<MemoryRoleExtension>();
    carried.push_back(
        {role != nullptr && role->role == MemoryRoleExtension::Role::DataMoved, p.get_data_ptr()});
    delay += cycles(latency_);
    p.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  bool directMemory(tlm::tlm_generic_payload& p, tlm::tlm_dmi& dmi) {
    const uint64_t a = p.get_address();
    if (dmiBytes.empty() || a < dmiStart || a >= dmiStart + dmiBytes.size()) {
      dmi.set_start_address(a);
      dmi.set_end_address(a);
      return false;
    }
    dmi.set_dmi_ptr(dmiBytes.data());
    dmi.set_start_address(dmiStart);
    dmi.set_end_address(dmiStart + dmiBytes.size() - 1);
    dmi.allow_read();
    return true;
  }
  uint32_t latency_;
};

class RecordingListener : public ComputeUnitListener {
 public:
  struct Finished {
    uint32_t cu;
    const KernelDispatch* dispatch;
  };
  std::vector<Finished> finished;
  std::vector<std::string> faults;
  std::vector<std::optional<uint64_t>> refusedAddresses;
  void workgroupFinished(uint32_t cuId, const KernelDispatch* d) override {
    finished.push_back({cuId, d});
  }
  void kernelFaulted(uint32_t, const KernelDispatch*, const WaveFault& fault) override {
    faults.push_back(fault.message);
    refusedAddresses.push_back(fault.refusedAddress);
  }
};

PlatformConfig platform() {
  PlatformConfig c = loadPlatform("tiny");
  c.clockMHz = 1000;  // 1 ns cycles, as the stand-ins' latencies
  return c;
}

constexpr uint64_t kData = 0x200000000;  // the stand-in memory (kernargs at +0, out at +0x100)
constexpr uint32_t kVectorLatency = 100, kScalarLatency = 50, kFetchLatency = 4;

struct CuBench {
  PlatformConfig config = platform();
  Dram dram{"dram", test::fixedLatencyDram(16ull << 20, 10), cycles(1)};
  InstructionDecodeCache decoded{"decoded", isa::GfxTarget::Gfx906, dram};
  RecordingListener listener;
  ComputeUnit cu{"cu", 0, config, listener};
  StandInMemory memory{"memory", kData, 0x1000, kVectorLatency, kScalarLatency};
  RecordingTarget instructionCache{"instruction_cache", kFetchLatency};
  RecordingTarget lds{"lds", 20};
  test::TestThread dispatcher{"dispatcher"};
  KernelDispatch dispatch;
  uint64_t code = 0;  // 4 KiB, 256-byte aligned

  explicit CuBench(const std::vector<uint8_t>& kernel) {
    decoded.memory.bind(dram.socket);
    cu.instructionSocket.bind(instructionCache.socket);
    cu.vectorMemorySocket.bind(memory.vector);
    cu.scalarMemorySocket.bind(memory.scalar);
    cu.ldsSocket.bind(lds.socket);
    cu.attachDecodeCache(&decoded);
    code = test::mapDeviceMemory(dram, 4096, 4096);
    dram.store().write(code, kernel.data(), kernel.size());
    dispatch.kernelName = "test_kernel";
    dispatch.entryPc = code;
  }
  // The wave state the dispatcher would write: PC at the entry, every lane on, v0 = lane.
  std::unique_ptr<isa::WaveState> wave(uint32_t vgprs) const {
    auto s = std::make_unique<isa::WaveState>();
    s->resizeVgprs(vgprs);
    s->pc = dispatch.entryPc;
    s->exec = ~0ull;
    for (uint32_t lane = 0; lane < 64; ++lane) s->v(0)[lane] = lane;
    return s;
  }
  // findSlots, then launch there when it fits; `placement` gets the slots.
  bool place(const WorkgroupResources& r, std::vector<uint32_t>* placement = nullptr,
             const std::function<void(isa::WaveState&)>& init = {}) {
    std::vector<uint32_t> slots;
    if (!cu.findSlots(r, slots)) return false;
    EXPECT_EQ(slots.size(), r.waves);
    WorkgroupLaunch g;
    g.dispatch = &dispatch;
    g.resources = r;
    for (uint32_t s : slots) {
      auto state = wave(r.vgprsPerWave);
      if (init) init(*state);
      WorkgroupLaunch::WaveLaunch launched;
      launched.slot = s;
      launched.state = std::move(state);
      g.waves.push_back(std::move(launched));
    }
    cu.launch(g);
    if (placement) *placement = slots;
    return true;
  }
  void putKernarg(uint32_t offset, uint64_t value) {
    std::memcpy(memory.at(kData + offset), &value, 8);
  }
};

WorkgroupResources oneWave(uint32_t vgprs = 4, uint32_t sgprs = 16, uint32_t lds = 0) {
  return {1, vgprs, sgprs, lds};
}

TEST(ComputeUnitBlock, KernelFromMemoryStoresItsResultThroughTheVectorPath) {
  CuBench b(kStoreKernel);
  const uint64_t out = kData + 0x100;
  b.putKernarg(0, out);
  b.dispatcher.body([&] {
    ASSERT_TRUE(b.place(oneWave(), nullptr, [](isa::WaveState& s) {
      s.sgpr[0] = static_cast<uint32_t>(kData);  // kernarg segment pointer in s[0:1]
      s.sgpr[1] = static_cast<uint32_t>(kData >> 32);
    }));
    sc_core::wait(cycles(2000));
  });
  test::simulate();
  for (uint32_t i = 0; i < 64; ++i) EXPECT_EQ(b.memory.read32(out + 4 * i), 3 * i + 5) << i;
  // One scalar load of the 8-byte pointer, then one whole-wave store of 64 dwords.
  ASSERT_EQ(b.memory.scalarAccesses.size(), 1u);
  EXPECT_EQ(b.memory.scalarAccesses[0].address, kData);
  EXPECT_EQ(b.memory.scalarAccesses[0].length, 8u);
  EXPECT_FALSE(b.memory.scalarAccesses[0].write);
  ASSERT_EQ(b.memory.vectorAccesses.size(), 1u);
  const Access& st = b.memory.vectorAccesses[0];
  EXPECT_TRUE(st.write);
  EXPECT_EQ(st.request->op, isa::MemOp::Store);
  EXPECT_EQ(st.request->laneMask, ~0ull);
  EXPECT_EQ(st.request->elementBytes, 4u);
  for (int lane = 0; lane < 64; ++lane) EXPECT_EQ(st.request->address(lane, 0), out + 4 * lane);
  // s_waitcnt lgkmcnt(0): the store leaves only after the pointer arrived.
  EXPECT_GE(st.at, b.memory.scalarAccesses[0].at + cycles(kScalarLatency));
  // Instruction fetch: the entry's 64-byte line, and the 4 lines after it (prefetch); the
  // 36-byte kernel needs no other.
  ASSERT_EQ(b.instructionCache.accesses.size(), 5u);
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(b.instructionCache.accesses[i].address, b.code + 64 * i);
    EXPECT_EQ(b.instructionCache.accesses[i].length, 64u);
    EXPECT_FALSE(b.instructionCache.accesses[i].write);
    // This instruction memory grants no DMI: each line travels with its transaction.
    EXPECT_FALSE(b.instructionCache.carried[i].dataMoved) << i;
  }
  EXPECT_TRUE(b.lds.accesses.empty());
  ASSERT_EQ(b.listener.finished.size(), 1u);
  EXPECT_EQ(b.listener.finished[0].cu, 0u);
  EXPECT_EQ(b.listener.finished[0].dispatch, &b.dispatch);
  EXPECT_TRUE(b.listener.faults.empty());
  EXPECT_TRUE(b.cu.idle());
  EXPECT_EQ(b.cu.waveInstructions, 6u);
  EXPECT_EQ(b.cu.wavesLaunched, 1u);
  EXPECT_EQ(b.cu.workgroupsFinished, 1u);
}

// An instruction memory that grants DMI over the code: the fetches are the same transactions,
// timed and counted below, but they say their initiator has the bytes (the DataMoved role) and
// point at the memory's own bytes of each line, so no cache below moves the line for them.
TEST(ComputeUnitBlock, FetchesOverDmiCarryTheDataMovedRoleAndPointAtTheMemorysBytes) {
  CuBench b(kStoreKernel);
  b.instructionCache.dmiStart = b.code;
  b.instructionCache.dmiBytes.assign(4096, 0);
  std::copy(kStoreKernel.begin(), kStoreKernel.end(), b.instructionCache.dmiBytes.begin());
  const uint64_t out = kData + 0x100;
  b.putKernarg(0, out);
  b.dispatcher.body([&] {
    ASSERT_TRUE(b.place(oneWave(), nullptr, [](isa::WaveState& s) {
      s.sgpr[0] = static_cast<uint32_t>(kData);
      s.sgpr[1] = static_cast<uint32_t>(kData >> 32);
    }));
    sc_core::wait(cycles(2000));
  });
  test::simulate();
  for (uint32_t i = 0; i < 64; ++i) EXPECT_EQ(b.memory.read32(out + 4 * i), 3 * i + 5) << i;
  ASSERT_EQ(b.instructionCache.accesses.size(), 5u);
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(b.instructionCache.accesses[i].address, b.code + 64 * i);
    EXPECT_EQ(b.instructionCache.accesses[i].length, 64u);
    EXPECT_TRUE(b.instructionCache.carried[i].dataMoved) << i;
    EXPECT_EQ(b.instructionCache.carried[i].data, b.instructionCache.dmiBytes.data() + 64 * i) << i;
  }
  EXPECT_TRUE(b.listener.faults.empty());
}

TEST(ComputeUnitBlock, ScalarDataReachesTheRegisterOnlyWhenTheResponseArrives) {
  CuBench b(kNoWaitKernel);
  const uint64_t out = kData + 0x100;
  b.putKernarg(8, 0x1234);
  b.dispatcher.body([&] {
    ASSERT_TRUE(b.place(oneWave(), nullptr, [&](isa::WaveState& s) {
      s.sgpr[0] = static_cast<uint32_t>(kData);
      s.sgpr[1] = static_cast<uint32_t>(kData >> 32);
      s.sgpr[4] = static_cast<uint32_t>(out);
      s.sgpr[5] = static_cast<uint32_t>(out >> 32);
      s.sgpr[6] = 0xdead;  // what s6 holds before the load's data arrives
    }));
    sc_core::wait(cycles(2000));
  });
  test::simulate();
  // v_mov_b32 issues a few cycles after s_load_dword, well within its 50-cycle latency.
  for (uint32_t i = 0; i < 64; ++i) EXPECT_EQ(b.memory.read32(out + 4 * i), 0xdeadu) << i;
  ASSERT_EQ(b.listener.finished.size(), 1u);
}

TEST(ComputeUnitBlock, BarrierHoldsEveryWaveOfTheWorkgroupUntilTheLastArrives) {
  CuBench b(kBarrierKernel);
  sc_time launched;
  b.dispatcher.body([&] {
    uint32_t index = 0;
    launched = sc_time_stamp();
    ASSERT_TRUE(b.place({2, 4, 16, 0}, nullptr, [&](isa::WaveState& s) {
      const uint64_t out = kData + 0x100 + 0x100 * index;  // each wave its own 64 dwords
      s.sgpr[4] = static_cast<uint32_t>(out);
      s.sgpr[5] = static_cast<uint32_t>(out >> 32);
      s.sgpr[7] = index++;
    }));
    sc_core::wait(cycles(2000));
  });
  test::simulate();
  ASSERT_EQ(b.memory.vectorAccesses.size(), 2u);
  for (const Access& a : b.memory.vectorAccesses)  // neither wave passed before the sleeper
    EXPECT_GE(a.at, launched + cycles(5 * 64)) << "store to " << a.address;
  for (uint32_t w = 0; w < 2; ++w)
    for (uint32_t i = 0; i < 64; ++i)
      EXPECT_EQ(b.memory.read32(kData + 0x100 * (w + 1) + 4 * i), i);
  EXPECT_EQ(b.cu.barrierWaits, 2u);
  ASSERT_EQ(b.listener.finished.size(), 1u);  // one workgroup, reported once
}

TEST(ComputeUnitBlock, RefusedStoreFaultsTheKernelAndHaltsTheCu) {
  CuBench b(kStoreKernel);
  b.putKernarg(0, 0x10);  // an address the memory does not answer for
  b.dispatcher.body([&] {
    ASSERT_TRUE(b.place(oneWave(), nullptr, [](isa::WaveState& s) {
      s.sgpr[0] = static_cast<uint32_t>(kData);
      s.sgpr[1] = static_cast<uint32_t>(kData >> 32);
    }));
    sc_core::wait(cycles(2000));
    std::vector<uint32_t> slots;
    EXPECT_FALSE(b.cu.findSlots(oneWave(), slots));  // halted
  });
  test::simulate();
  ASSERT_EQ(b.listener.faults.size(), 1u);
  EXPECT_NE(b.listener.faults[0].find("memory violation"), std::string::npos)
      << b.listener.faults[0];
  EXPECT_NE(b.listener.faults[0].find("0x10"), std::string::npos) << b.listener.faults[0];
  // Lane 0 stores to the kernarg's address: the first byte refused.
  EXPECT_EQ(b.listener.refusedAddresses[0], std::optional<uint64_t>{0x10});
  EXPECT_NE(b.listener.faults[0].find("global_store_dword"), std::string::npos)
      << b.listener.faults[0];
  EXPECT_TRUE(b.listener.finished.empty());
}

TEST(ComputeUnitBlock, WavesSpreadOverTheSimdsUntilTheirVgprsAreTaken) {
  CuBench b(kEndKernel);
  b.dispatcher.body([&] {
    // 16 waves of 64 VGPRs: 4 per SIMD use each SIMD's 256.
    std::vector<uint32_t> slots;
    ASSERT_TRUE(b.place({16, 64, 16, 0}, &slots));
    ASSERT_EQ(slots.size(), 16u);
    for (uint32_t w = 0; w < 16; ++w)  // SIMD w % 4 (10 slots each), its next free slot
      EXPECT_EQ(slots[w], (w % 4) * 10 + w / 4) << "wave " << w;
    EXPECT_FALSE(b.cu.findSlots(oneWave(4), slots));  // no VGPRs left on any SIMD
    sc_core::wait(cycles(1000));                      // the waves end
    EXPECT_TRUE(b.cu.idle());
    EXPECT_TRUE(b.cu.findSlots({16, 64, 16, 0}, slots));
  });
  test::simulate();
  ASSERT_EQ(b.listener.finished.size(), 1u);
}

TEST(ComputeUnitBlock, SgprsAndWaveSlotsLimitTheWavesPerSimd) {
  CuBench b(kEndKernel);
  b.dispatcher.body([&] {
    // 112 SGPRs per wave: 7 waves per SIMD (784 of 800).
    for (int i = 0; i < 28; ++i) ASSERT_TRUE(b.place(oneWave(4, 112))) << i;
    std::vector<uint32_t> slots;
    EXPECT_FALSE(b.cu.findSlots(oneWave(4, 112), slots));
    // 16 more fit on each SIMD exactly (800).
    for (int i = 0; i < 4; ++i) ASSERT_TRUE(b.place(oneWave(4, 16))) << i;
    EXPECT_FALSE(b.cu.findSlots(oneWave(4, 16), slots));
    sc_core::wait(cycles(1000));
    EXPECT_TRUE(b.cu.idle());
    // 40 wave slots: 40 single waves fit, the 41st does not.
    for (int i = 0; i < 40; ++i) ASSERT_TRUE(b.place(oneWave(4, 16))) << i;
    EXPECT_FALSE(b.cu.findSlots(oneWave(4, 16), slots));
    sc_core::wait(cycles(1000));
  });
  test::simulate();
  EXPECT_EQ(b.listener.finished.size(), 28u + 4u + 40u);
}

TEST(ComputeUnitBlock, LdsAllocationsFitInTheCusLds) {
  CuBench b(kEndKernel);
  b.dispatcher.body([&] {
    std::vector<uint32_t> slots;
    ASSERT_TRUE(b.place(oneWave(4, 16, 40 << 10)));
    EXPECT_FALSE(b.cu.findSlots(oneWave(4, 16, 32 << 10), slots));  // 24 KiB left
    ASSERT_TRUE(b.place(oneWave(4, 16, 24 << 10)));
    EXPECT_FALSE(b.cu.findSlots(oneWave(4, 16, 512), slots));  // full
    EXPECT_TRUE(b.cu.findSlots(oneWave(4, 16, 0), slots));     // a workgroup without LDS fits
    sc_core::wait(cycles(1000));
    EXPECT_TRUE(b.cu.findSlots(oneWave(4, 16, 64 << 10), slots));
  });
  test::simulate();
  EXPECT_EQ(b.listener.finished.size(), 2u);
}

}  // namespace
}  // namespace vgpu
