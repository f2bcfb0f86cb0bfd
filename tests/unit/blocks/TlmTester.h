// Small TLM-2.0 tester modules for the block benches (in the style of the Accellera TLM
// examples and QBox's component tests): an initiator whose thread runs the test body, with
// helpers that build generic payloads, and that records DMI invalidations it receives.
#pragma once

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>
#include <tlm>

#include "common/MemoryExtensions.h"
#include "common/PlatformConfig.h"

namespace vgpu::test {

// The clock every bench uses: 1 ns, so delays in cycles read as nanoseconds.
inline sc_core::sc_time cycles(double n) {
  return sc_core::sc_time(n, sc_core::SC_NS);
}

// A DRAM whose HBM timing reduces to a fixed latency of `latencyCycles` 1 ns cycles: zero
// bank timings, an effectively unlimited bus, and the latency in the controller. The block
// tests check caches and the texture path against a known, constant memory latency.
inline DramConfig fixedLatencyDram(uint64_t sizeBytes, uint32_t latencyCycles) {
  DramConfig c;
  c.sizeBytes = sizeBytes;
  c.channels = 8;
  c.peakBandwidthGBs = 1e12;
  c.tRCDns = c.tCLns = c.tRPns = c.tRASns = c.tCCDns = 0;
  c.controllerLatencyNs = latencyCycles;
  return c;
}

struct Result {
  tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
  sc_core::sc_time delay;           // what the target annotated (starts at zero)
  sc_core::sc_time waitedInTarget;  // SystemC time that passed inside b_transport (LT: none)
  bool dmiAllowed = false;
  bool ok() const { return status == tlm::TLM_OK_RESPONSE; }
};

class TesterInitiator : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<TesterInitiator> socket;
  std::vector<std::pair<uint64_t, uint64_t>> invalidations;  // [start, end] per call

  SC_HAS_PROCESS(TesterInitiator);
  explicit TesterInitiator(sc_core::sc_module_name name) : sc_module(name), socket("socket") {
    socket.register_invalidate_direct_mem_ptr(this, &TesterInitiator::invalidate);
    SC_THREAD(run);
  }

  // The test body, run in this module's thread once the simulation starts.
  void body(std::function<void(TesterInitiator&)> f) { body_ = std::move(f); }

  // `consume`: wait for the annotated delay afterwards (false: the next request leaves at the
  // same time, to test queueing on a busy resource).
  Result transport(tlm::tlm_generic_payload& p, sc_core::sc_time start = sc_core::SC_ZERO_TIME,
                   bool consume = true) {
    Result r;
    r.delay = start;
    p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    p.set_dmi_allowed(false);
    const sc_core::sc_time before = sc_core::sc_time_stamp();
    socket->b_transport(p, r.delay);
    r.waitedInTarget = sc_core::sc_time_stamp() - before;
    r.status = p.get_response_status();
    r.dmiAllowed = p.is_dmi_allowed();
    // Consume the annotated time, as a loosely-timed initiator without a quantum keeper does:
    // the next request starts after this one completed, so tests see each access on its own
    // rather than queued behind the previous one's port or bank occupancy.
    if (consume) sc_core::wait(r.delay);
    return r;
  }
  Result access(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len,
                const uint8_t* be = nullptr, unsigned beLen = 0) {
    tlm::tlm_generic_payload p;
    fill(p, cmd, addr, data, len, be, beLen);
    return transport(p);
  }
  Result read(uint64_t addr, void* data, unsigned len) {
    return access(tlm::TLM_READ_COMMAND, addr, static_cast<uint8_t*>(data), len);
  }
  Result write(uint64_t addr, const void* data, unsigned len) {
    return access(tlm::TLM_WRITE_COMMAND, addr, static_cast<uint8_t*>(const_cast<void*>(data)),
                  len);
  }
  uint32_t read32(uint64_t addr) {
    uint32_t v = 0;
    read(addr, &v, 4);
    return v;
  }
  void write32(uint64_t addr, uint32_t v) { write(addr, &v, 4); }

  // An atomic on `data` (4 or 8 bytes): on return `data` holds the old value when returnsData,
  // and `changedMemory` (if given) the target's answer whether memory now holds another value.
  Result atomic(uint64_t addr, isa::AtomicOp op, void* data, unsigned len,
                const void* compare = nullptr, bool returnsData = true,
                bool* changedMemory = nullptr) {
    tlm::tlm_generic_payload p;
    fill(p, tlm::TLM_WRITE_COMMAND, addr, static_cast<uint8_t*>(data), len, nullptr, 0);
    AtomicExtension ext;
    ext.op = op;
    ext.compare = static_cast<const uint8_t*>(compare);
    ext.returnsData = returnsData;
    p.set_extension(&ext);
    const Result r = transport(p);
    p.clear_extension(&ext);
    if (changedMemory) *changedMemory = ext.changedMemory;
    return r;
  }

  unsigned debug(tlm::tlm_command cmd, uint64_t addr, void* data, unsigned len) {
    tlm::tlm_generic_payload p;
    fill(p, cmd, addr, static_cast<uint8_t*>(data), len, nullptr, 0);
    return socket->transport_dbg(p);
  }

  bool dmi(uint64_t addr, tlm::tlm_dmi& out, tlm::tlm_command cmd = tlm::TLM_READ_COMMAND) {
    tlm::tlm_generic_payload p;
    uint8_t dummy = 0;
    fill(p, cmd, addr, &dummy, 1, nullptr, 0);
    out.init();
    return socket->get_direct_mem_ptr(p, out);
  }

  static void fill(tlm::tlm_generic_payload& p, tlm::tlm_command cmd, uint64_t addr, uint8_t* data,
                   unsigned len, const uint8_t* be, unsigned beLen) {
    p.set_command(cmd);
    p.set_address(addr);
    p.set_data_ptr(data);
    p.set_data_length(len);
    p.set_streaming_width(len);
    p.set_byte_enable_ptr(const_cast<uint8_t*>(be));
    p.set_byte_enable_length(beLen);
    p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  }

 private:
  void run() {
    if (body_) body_(*this);
  }
  void invalidate(sc_dt::uint64 start, sc_dt::uint64 end) {
    invalidations.emplace_back(start, end);
  }

  std::function<void(TesterInitiator&)> body_;
};

// A thread that runs a test body, for benches whose block is driven by function calls rather
// than a socket (the command processor submitting to the dispatcher, the dispatcher launching
// workgroups on a compute unit).
class TestThread : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(TestThread);
  explicit TestThread(sc_core::sc_module_name name) : sc_module(name) { SC_THREAD(run); }
  void body(std::function<void()> f) { body_ = std::move(f); }

 private:
  void run() {
    if (body_) body_();
  }
  std::function<void()> body_;
};

// Runs the simulation until every tester thread is done.
inline void simulate() {
  sc_core::sc_start();
}

// A whole-wave request (LDS, texture path) in a payload, as a compute unit sends it.
inline Result sendWave(TesterInitiator& init, isa::MemRequest& req, uint32_t ldsBase = 0,
                       uint32_t ldsSize = 0, bool consume = true, uint32_t simd = 0) {
  WaveAccessExtension ext;
  ext.request = &req;
  ext.simd = simd;
  ext.ldsBase = ldsBase;
  ext.ldsSize = ldsSize;
  tlm::tlm_generic_payload p;
  int first = 0;
  while (first < 63 && !((req.laneMask >> first) & 1)) ++first;
  p.set_command(req.op == isa::MemOp::Load ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
  p.set_address(req.address(first, 0));
  p.set_data_ptr(req.data.data());
  p.set_data_length(req.elementBytes);
  p.set_streaming_width(req.elementBytes);
  p.set_extension(&ext);
  const Result r = init.transport(p, sc_core::SC_ZERO_TIME, consume);
  p.clear_extension(&ext);
  return r;
}

}  // namespace vgpu::test
