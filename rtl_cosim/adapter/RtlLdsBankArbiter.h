// The LDS bank-conflict arbiter as RTL: rtl_cosim/rtl/lds_bank_arbiter.sv, Verilated as a
// SystemC module (Vlds_bank_arbiter), behind the model's LdsBankArbiter interface. Selected with
// the platform key lds.arbiter = "rtl" or `vgpu-sim --lds-arbiter rtl`.
//
// How it keeps time
// -----------------
// schedule() is a plain call from Lds::b_transport, made in the compute unit's SC_THREAD while
// that CU runs ahead of sc_time_stamp() by up to one quantum (temporal decoupling). The CU takes
// the delay the LDS annotates as the access's duration from its own cycle counter and does not
// pass its local time offset, so the arbiter must give its answer without consuming SystemC time
// or yielding:
//   * waiting on a clock in SystemC time would move sc_time_stamp() (by which dispatches start
//     and end) away from the CU's cycle counter, and change every total;
//   * even delta cycles (wait(SC_ZERO_TIME)) would let the dispatcher and the other CUs run in
//     the middle of this CU's quantum, so workgroups would start and L2 requests would be ordered
//     differently than with the C++ arbiter.
// So the adapter clocks the RTL itself, in zero SystemC time: its pins are bound to PinSignal
// channels that update at once, and each clock edge is "write the pins, call the model's
// evaluation (the function the SystemC kernel would call), read the pins". A request is
// presented with req_valid, taken on the next rising edge, and the adapter clocks until done,
// recording served_lanes in every cycle with grant_valid. Those cycles are the schedule; the Lds
// annotates the same delay as with the C++ arbiter, so results and total cycles are identical
// (rtl_cosim/tests checks both).
//
// The RTL's own timeline (for its waveform) is in GPU cycles: a request's grants start at the
// cycle it reaches the LDS (sc_time_stamp() plus the annotated delay, i.e. the start of the CU's
// current quantum; a platform with "quantum": 1 places it exactly), or right after the previous
// request's last grant when that is later: the cycles Lds reserves the banks for. The request is
// presented one cycle before; idle cycles between requests are not clocked.
//
// Waveform: with a VCD path, the model's signals (lds_bank_arbiter.*: ports and internals) and
// the SystemC side of its pins (the "systemc" scope: pins as the adapter drives and samples them,
// plus the GPU cycle, request number and arrival cycle) go to one VCD, for clock edges whose GPU
// cycle is in [vcdStartCycle, vcdEndCycle]. Timescale 1 ps, so times match SystemC's.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "lds/LdsBankArbiter.h"
#include "rtl_cosim/adapter/PinSignal.h"

class Vlds_bank_arbiter;
class VerilatedVcdC;

namespace vgpu::rtl {

struct RtlArbiterOptions {
  uint32_t banks = 32;  // the RTL has 32 banks of 4 bytes; anything else is refused
  uint32_t bankWidthBytes = 4;
  sc_core::sc_time clockPeriod = sc_core::sc_time(1, sc_core::SC_NS);
  std::string vcdPath;  // empty: no waveform
  uint64_t vcdStartCycle = 0, vcdEndCycle = ~uint64_t{0};
};

class RtlLdsBankArbiter : public sc_core::sc_module, public LdsBankArbiter {
 public:
  RtlLdsBankArbiter(sc_core::sc_module_name name, const RtlArbiterOptions& options);
  ~RtlLdsBankArbiter() override;

  LdsBankSchedule schedule(const LdsBankRequest& request) override;

  // Requests back to back through the valid/ready handshake, as a pipelined LDS would present
  // them: request i is presented gaps[i] idle cycles after request i-1 was taken (0: in the
  // cycle right after, while i-1 may still be arbitrated, so it waits with req_valid high until
  // req_ready). One schedule per request. For the equivalence tests.
  std::vector<LdsBankSchedule> scheduleStream(const std::vector<LdsBankRequest>& requests,
                                              const std::vector<uint32_t>& gaps);

  // The cycle the RTL is in (its timeline is in GPU cycles).
  uint64_t cycle() const { return cycle_; }

 private:
  struct Pins;
  struct Trace;

  void start_of_simulation() override;
  void drive(const LdsBankRequest& request);
  void rise();  // rising clock edge: the model evaluates, the waveform samples
  void fall();  // falling edge, after the inputs for the next rising edge were applied
  void evaluate();
  void resetOnce();

  RtlArbiterOptions options_;
  std::unique_ptr<Pins> pins_;
  std::unique_ptr<Vlds_bank_arbiter> rtl_;
  std::unique_ptr<Trace> trace_;
  uint64_t cycle_ = 0;         // GPU cycle of the current clock cycle on the RTL's timeline
  bool reset_ = false;         // reset sequence done
  bool inCycle_ = false;       // between a rising edge and its falling edge (in cycle_)
  uint64_t requests_ = 0;      // requests taken, for the waveform
  uint64_t arrivalCycle_ = 0;  // arrival cycle of the latest request, for the waveform
};

}  // namespace vgpu::rtl
