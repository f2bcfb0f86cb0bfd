// The compute unit's memory port on its own (cu/MemoryPort.h): a tester module owns the three
// initiator sockets a CU has and drives TimedMemoryPort or DirectMemoryPort from its thread. The
// vector and scalar sockets reach a stand-in memory of 4 KiB at kBase that answers whole-wave
// requests after kLatency cycles and grants DMI over its first half only; the LDS socket
// reaches a real LDS block (default LdsConfig: 20-cycle latency, 64 B/clk ports).
//
// Expected values: the bytes the test wrote into the stand-in; delays from the stand-in's
// latency and, for the LDS write of a load into the LDS, from the LDS port model the LdsConfig
// documents (rocprofiler-compute: a 64-wide store of 4 B per lane holds its port 8 cycles).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "TlmTester.h"
#include "common/MemoryExtensions.h"
#include "cu/MemoryPort.h"
#include "isa/Memory.h"
#include "lds/Lds.h"

namespace vgpu {
namespace {

using sc_core::sc_time;
using test::cycles;

constexpr uint64_t kBase = 0x100000000, kBytes = 4096, kDmiBytes = 2048;
constexpr uint32_t kLatency = 100;

// Whole-wave vector requests and plain scalar reads on 4 KiB; an element outside it faults as
// the texture path reports it (the request names the first refused byte).
class StandInMemory : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<StandInMemory> vector{"vector"}, scalar{"scalar"};
  std::vector<uint8_t> bytes = std::vector<uint8_t>(kBytes);
  unsigned transactions = 0;

  explicit StandInMemory(sc_core::sc_module_name name) : sc_module(name) {
    vector.register_b_transport(this, &StandInMemory::transport);
    scalar.register_b_transport(this, &StandInMemory::transport);
    vector.register_get_direct_mem_ptr(this, &StandInMemory::grant);
    scalar.register_get_direct_mem_ptr(this, &StandInMemory::grant);
  }

 private:
  void transport(tlm::tlm_generic_payload& p, sc_time& delay) {
    ++transactions;
    delay += cycles(kLatency);
    auto* ext = p.get_extension<WaveAccessExtension>();
    if (ext == nullptr) {  // a scalar block
      const uint64_t a = p.get_address();
      if (a < kBase || a + p.get_data_length() > kBase + kBytes) {
        p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return;
      }
      std::memcpy(p.get_data_ptr(), &bytes[a - kBase], p.get_data_length());
      p.set_response_status(tlm::TLM_OK_RESPONSE);
      return;
    }
    isa::MemRequest& r = *ext->request;
    for (uint64_t k = r.laneMask; k != 0; k &= k - 1) {
      const int l = __builtin_ctzll(k);
      const uint64_t a = r.address(l, 0);
      if (a < kBase || a + r.elementBytes > kBase + kBytes) {
        r.faulted = true;
        r.faultAddress = a < kBase ? a : std::max(a, kBase + kBytes);
        p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return;
      }
      if (r.op == isa::MemOp::Load)
        std::memcpy(r.element(l, 0), &bytes[a - kBase], r.elementBytes);
      else
        std::memcpy(&bytes[a - kBase], r.element(l, 0), r.elementBytes);
    }
    p.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  bool grant(tlm::tlm_generic_payload& p, tlm::tlm_dmi& d) {
    if (p.get_address() < kBase || p.get_address() >= kBase + kDmiBytes) return false;
    d.set_start_address(kBase);
    d.set_end_address(kBase + kDmiBytes - 1);
    d.set_dmi_ptr(bytes.data());
    d.allow_read_write();
    return true;
  }
};

// Owns the sockets, as a compute unit does, and runs the test body in its thread.
class PortTester : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<PortTester> lds{"lds"}, vector{"vector"}, scalar{"scalar"};
  std::function<void()> body;
  SC_HAS_PROCESS(PortTester);
  explicit PortTester(sc_core::sc_module_name name) : sc_module(name) { SC_THREAD(run); }
  MemoryPort::Sockets sockets() { return {lds, vector, scalar}; }

 private:
  void run() { body(); }
};

struct PortBench {
  StandInMemory memory{"memory"};
  Lds ldsBlock{"lds_block", LdsConfig{}, cycles(1), std::make_unique<CppLdsBankArbiter>()};
  PortTester tester{"tester"};
  PortBench() {
    tester.vector.bind(memory.vector);
    tester.scalar.bind(memory.scalar);
    tester.lds.bind(ldsBlock.socket);
    for (size_t i = 0; i < kBytes; i += 4) {
      const uint32_t v = 0x1000 + static_cast<uint32_t>(i / 4);
      std::memcpy(&memory.bytes[i], &v, 4);
    }
  }
};

// A dword load of every lane, lane l at `start` + 4 l.
std::unique_ptr<isa::MemRequest> waveLoad(uint64_t start) {
  auto r = std::make_unique<isa::MemRequest>();
  r->space = isa::MemSpace::Vector;
  r->op = isa::MemOp::Load;
  r->laneMask = ~0ull;
  r->elementBytes = 4;
  for (int l = 0; l < 64; ++l) r->address(l, 0) = start + 4 * static_cast<uint64_t>(l);
  return r;
}
uint32_t lane32(const isa::MemRequest& r, int l) {
  uint32_t v;
  std::memcpy(&v, r.element(l, 0), 4);
  return v;
}

TEST(MemoryPort, DirectPortMovesWhatDmiCoversWithoutATransaction) {
  PortBench b;
  b.tester.body = [&] {
    DirectMemoryPort port(b.tester.sockets());
    auto r = waveLoad(kBase + 256);
    const sc_time delay = port.access(*r, WaveAccessExtension{}, sc_core::SC_ZERO_TIME);
    EXPECT_FALSE(r->faulted);
    EXPECT_EQ(delay, sc_core::SC_ZERO_TIME);
    for (int l = 0; l < 64; ++l) EXPECT_EQ(lane32(*r, l), 0x1000u + 64 + l) << "lane " << l;
  };
  sc_core::sc_start();
  EXPECT_EQ(b.memory.transactions, 0u);
}

TEST(MemoryPort, DirectPortSendsWhatDmiDoesNotCoverAsATransaction) {
  PortBench b;
  b.tester.body = [&] {
    DirectMemoryPort port(b.tester.sockets());
    auto r = waveLoad(kBase + kDmiBytes);  // the second half: no DMI
    const sc_time delay = port.access(*r, WaveAccessExtension{}, sc_core::SC_ZERO_TIME);
    EXPECT_FALSE(r->faulted);
    EXPECT_EQ(delay, cycles(kLatency));
    for (int l = 0; l < 64; ++l) EXPECT_EQ(lane32(*r, l), 0x1000u + 512 + l) << "lane " << l;
  };
  sc_core::sc_start();
  EXPECT_EQ(b.memory.transactions, 1u);
}

TEST(MemoryPort, TimedPortSendsEveryRequestAndReturnsTheMemorysDelay) {
  PortBench b;
  b.tester.body = [&] {
    TimedMemoryPort port(b.tester.sockets());
    auto r = waveLoad(kBase);  // DMI would cover it: the timed port does not ask
    const sc_time delay = port.access(*r, WaveAccessExtension{}, cycles(7));
    EXPECT_EQ(delay, cycles(kLatency));  // counted from the local time it left at
    for (int l = 0; l < 64; ++l) EXPECT_EQ(lane32(*r, l), 0x1000u + l) << "lane " << l;
  };
  sc_core::sc_start();
  EXPECT_EQ(b.memory.transactions, 1u);
}

TEST(MemoryPort, BothPortsReportTheFirstRefusedByte) {
  PortBench b;
  b.tester.body = [&] {
    TimedMemoryPort timed(b.tester.sockets());
    DirectMemoryPort direct(b.tester.sockets());
    for (MemoryPort* port : {static_cast<MemoryPort*>(&timed), static_cast<MemoryPort*>(&direct)}) {
      auto r = waveLoad(kBase + kBytes - 128);  // lanes 32.. past the end
      port->access(*r, WaveAccessExtension{}, sc_core::SC_ZERO_TIME);
      EXPECT_TRUE(r->faulted);
      EXPECT_EQ(r->faultAddress, kBase + kBytes);
    }
    // A scalar block starting inside and running out: the error names its start (no
    // refused-address extension from this memory).
    auto s = std::make_unique<isa::MemRequest>();
    s->space = isa::MemSpace::Scalar;
    s->op = isa::MemOp::Load;
    s->laneMask = 1;
    s->elementBytes = 16;
    s->address(0, 0) = kBase + kBytes - 8;
    timed.access(*s, WaveAccessExtension{}, sc_core::SC_ZERO_TIME);
    EXPECT_TRUE(s->faulted);
    EXPECT_EQ(s->faultAddress, kBase + kBytes - 8);
  };
  sc_core::sc_start();
}

TEST(MemoryPort, LoadIntoLdsIsWrittenByTheLdsBlockAfterItsDataReturns) {
  PortBench b;
  b.tester.body = [&] {
    TimedMemoryPort port(b.tester.sockets());
    auto r = waveLoad(kBase + 64);
    // What the ISA sets for `global_load_dword ... lds` with M0[15:0] = 0x100: the data goes to
    // the workgroup's LDS from offset 0x100, lane l's dword at 0x100 + 4 l (Vega ISA guide 8.1).
    r->writeback.kind = isa::kWbLds;
    r->writeback.reg = 0x100;
    r->writeback.lanes = ~0ull;
    WaveAccessExtension source;
    source.ldsBase = 0x2000;  // the workgroup's allocation in the LDS
    source.ldsSize = 0x400;
    const sc_time delay = port.access(*r, source, sc_core::SC_ZERO_TIME);
    // The data after kLatency; then the LDS write holds its port for 64 lanes x (4 address + 4
    // data bytes) / 64 B per cycle = 8 cycles (the banks need 2) and is done 20 cycles later.
    EXPECT_EQ(delay, cycles(kLatency + 8 + 20));
    EXPECT_EQ(r->writeback.kind, 0) << "the registers have nothing left to receive";
    for (int l = 0; l < 64; ++l) {
      uint32_t v;
      std::memcpy(&v, b.ldsBlock.storage() + 0x2000 + 0x100 + 4 * l, 4);
      EXPECT_EQ(v, 0x1000u + 16 + l) << "lane " << l;
    }
  };
  sc_core::sc_start();
  EXPECT_EQ(b.ldsBlock.accesses, 1u);
}

TEST(MemoryPort, StoreFromLdsReadsItsDataThroughTheLdsBlockFirst) {
  PortBench b;
  b.tester.body = [&] {
    TimedMemoryPort port(b.tester.sockets());
    // What the ISA sends for `buffer_store_lds_dword` with M0[15:0] + offset = 0x40: lane l's
    // dword from LDS offset 0x40 + 4 l of the workgroup's allocation, to kBase + 4 l.
    for (int l = 0; l < 64; ++l) {
      const uint32_t v = 0xa000 + l;
      std::memcpy(b.ldsBlock.storage() + 0x1000 + 0x40 + 4 * l, &v, 4);
    }
    auto r = waveLoad(kBase);
    r->op = isa::MemOp::Store;
    r->ldsData = 0x40;
    WaveAccessExtension source;
    source.ldsBase = 0x1000;
    source.ldsSize = 0x100;  // lanes 48.. are past the allocation's end: they store 0
    const sc_time delay = port.access(*r, source, sc_core::SC_ZERO_TIME);
    // The LDS read holds its port 4 cycles for the addresses and 4 for the data (64 lanes x 4 B
    // at 64 B per cycle each way), is back 20 cycles later; then the store's kLatency.
    EXPECT_EQ(delay, cycles(8 + 20 + kLatency));
    for (int l = 0; l < 64; ++l) {
      uint32_t v;
      std::memcpy(&v, &b.memory.bytes[4 * l], 4);
      EXPECT_EQ(v, l < 48 ? 0xa000u + l : 0u) << "lane " << l;
    }
  };
  sc_core::sc_start();
  EXPECT_EQ(b.ldsBlock.accesses, 1u);
  EXPECT_EQ(b.ldsBlock.outOfRangeLanes, 16u);
}

TEST(MemoryPort, LoadIntoLdsDropsDwordsPastTheAllocation) {
  PortBench b;
  b.tester.body = [&] {
    DirectMemoryPort port(b.tester.sockets());
    auto r = waveLoad(kBase);
    r->writeback.kind = isa::kWbLds;
    r->writeback.reg = 0x3f0;  // 4 dwords fit below the allocation's end at 0x400
    r->writeback.lanes = ~0ull;
    WaveAccessExtension source;
    source.ldsBase = 0;
    source.ldsSize = 0x400;
    port.access(*r, source, sc_core::SC_ZERO_TIME);
    for (int l = 0; l < 4; ++l) {
      uint32_t v;
      std::memcpy(&v, b.ldsBlock.storage() + 0x3f0 + 4 * l, 4);
      EXPECT_EQ(v, 0x1000u + l) << "lane " << l;
    }
    for (uint32_t a = 0x400; a < 0x500; ++a)
      EXPECT_EQ(b.ldsBlock.storage()[a], 0) << "byte " << a << " is outside the allocation";
  };
  sc_core::sc_start();
  EXPECT_EQ(b.ldsBlock.outOfRangeLanes, 60u);
}

}  // namespace
}  // namespace vgpu
