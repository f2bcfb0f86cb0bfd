#include "rtl_cosim/adapter/RtlLdsBankArbiter.h"

#include <unistd.h>
#include <cmath>
#include <cstdio>
#include <deque>
#include <stdexcept>

#include "Vlds_bank_arbiter.h"
#include "common/Error.h"
#include "verilated.h"
#include "verilated_vcd_c.h"

namespace vgpu::rtl {

using namespace sc_core;

namespace {

// Verilator declares a SystemC model's evaluation (the function its SC_METHOD runs when a pin
// changes) private. An explicit template instantiation may name a private member ([temp.spec]:
// access checking does not apply to the names in it), which hands the adapter a pointer to it.
template <void (Vlds_bank_arbiter::*Eval)()>
struct EvalAccess {
  friend void evaluateModel(Vlds_bank_arbiter& model) { (model.*Eval)(); }
};
template struct EvalAccess<&Vlds_bank_arbiter::eval_step>;
void evaluateModel(Vlds_bank_arbiter& model);

constexpr int kLanes = 64;
// A request serves at most 64 lanes x 8 dwords (2 elements x 4), at least one per cycle;
// anything longer means the RTL lost a request.
constexpr uint32_t kMaxCyclesPerRequest = 64 * 8 + 2;

}  // namespace

struct RtlLdsBankArbiter::Pins {
  PinSignal<bool> clk, rst_n, req_valid, req_ready, req_dual, grant_valid, grant_conflict, done;
  PinSignal<uint32_t> req_width, grant_group, served_slots, bank_active;
  PinSignal<uint64_t> req_lane_mask, served_lanes;
  PinSignal<sc_dt::sc_bv<2048>> req_addr0, req_addr1;
  PinSignal<sc_dt::sc_bv<1024>> bank_slots, bank_dword;
};

// The SystemC side of the pins and the GPU context, declared in the model's VCD through the
// callbacks Verilator's generated tracing code uses.
struct RtlLdsBankArbiter::Trace {
  RtlLdsBankArbiter* owner = nullptr;
  VerilatedVcdC vcd;
  uint32_t code = 0;
  uint64_t periodPs = 1000;
  bool open = false;

  enum Signal : uint32_t {
    kClk,
    kRstN,
    kReqValid,
    kReqReady,
    kReqLaneMask,  // 2 codes
    kReqWidth = kReqLaneMask + 2,
    kReqDual,
    kGrantValid,
    kGrantGroup,
    kGrantConflict,
    kServedSlots,
    kServedLanes,  // 2 codes
    kBankActive = kServedLanes + 2,
    kDone,
    kGpuCycle,  // 2 codes
    kRequest = kGpuCycle + 2,
    kArrivalCycle,  // 2 codes
  };

  static void init(void* self, VerilatedVcd* vcd, uint32_t code) {
    Trace& t = *static_cast<Trace*>(self);
    t.code = code;
    vcd->scopeEscape(' ');
    vcd->pushNamePrefix(std::string(t.owner->name()) + " systemc ");
    vcd->declBit(code + kClk, "clk", false, -1);
    vcd->declBit(code + kRstN, "rst_n", false, -1);
    vcd->declBit(code + kReqValid, "req_valid", false, -1);
    vcd->declBit(code + kReqReady, "req_ready", false, -1);
    vcd->declQuad(code + kReqLaneMask, "req_lane_mask", false, -1, 63, 0);
    vcd->declBus(code + kReqWidth, "req_width", false, -1, 1, 0);
    vcd->declBit(code + kReqDual, "req_dual", false, -1);
    vcd->declBit(code + kGrantValid, "grant_valid", false, -1);
    vcd->declBus(code + kGrantGroup, "grant_group", false, -1, 3, 0);
    vcd->declBit(code + kGrantConflict, "grant_conflict", false, -1);
    vcd->declBus(code + kServedSlots, "served_slots", false, -1, 31, 0);
    vcd->declQuad(code + kServedLanes, "served_lanes", false, -1, 63, 0);
    vcd->declBus(code + kBankActive, "bank_active", false, -1, 31, 0);
    vcd->declBit(code + kDone, "done", false, -1);
    vcd->declQuad(code + kGpuCycle, "gpu_cycle", false, -1, 63, 0);
    vcd->declBus(code + kRequest, "request", false, -1, 31, 0);
    vcd->declQuad(code + kArrivalCycle, "arrival_cycle", false, -1, 63, 0);
    vcd->popNamePrefix();
    vcd->scopeEscape('.');
  }

  template <bool kFull>
  static void dump(void* self, VerilatedVcd::Buffer* buffer) {
    const Trace& t = *static_cast<const Trace*>(self);
    const Pins& p = *t.owner->pins_;
    uint32_t* old = buffer->oldp(t.code);
    auto bit = [&](uint32_t s, bool v) {
      if (kFull)
        buffer->fullBit(old + s, v);
      else
        buffer->chgBit(old + s, v);
    };
    auto bus = [&](uint32_t s, uint32_t v, int bits) {
      if (kFull)
        buffer->fullIData(old + s, v, bits);
      else
        buffer->chgIData(old + s, v, bits);
    };
    auto quad = [&](uint32_t s, uint64_t v) {
      if (kFull)
        buffer->fullQData(old + s, v, 64);
      else
        buffer->chgQData(old + s, v, 64);
    };
    bit(kClk, p.clk.read());
    bit(kRstN, p.rst_n.read());
    bit(kReqValid, p.req_valid.read());
    bit(kReqReady, p.req_ready.read());
    quad(kReqLaneMask, p.req_lane_mask.read());
    bus(kReqWidth, p.req_width.read(), 2);
    bit(kReqDual, p.req_dual.read());
    bit(kGrantValid, p.grant_valid.read());
    bus(kGrantGroup, p.grant_group.read(), 4);
    bit(kGrantConflict, p.grant_conflict.read());
    bus(kServedSlots, p.served_slots.read(), 32);
    quad(kServedLanes, p.served_lanes.read());
    bus(kBankActive, p.bank_active.read(), 32);
    bit(kDone, p.done.read());
    quad(kGpuCycle, t.owner->cycle_);
    bus(kRequest, static_cast<uint32_t>(t.owner->requests_), 32);
    quad(kArrivalCycle, t.owner->arrivalCycle_);
  }

  // Dumps the current values at `ps` if the GPU cycle is inside the window.
  void sample(uint64_t cycle, uint64_t ps) {
    if (!open || cycle < owner->options_.vcdStartCycle || cycle > owner->options_.vcdEndCycle)
      return;
    vcd.dump(ps);
  }
};

RtlLdsBankArbiter::RtlLdsBankArbiter(sc_module_name name, const RtlArbiterOptions& options)
    : sc_module(name), options_(options), pins_(std::make_unique<Pins>()) {
  if (options_.banks != 32 || options_.bankWidthBytes != 4)
    throw InputError(
        "the RTL LDS arbiter (rtl_cosim/rtl/lds_bank_arbiter.sv) has 32 banks of 4 "
        "bytes; this platform has " +
        std::to_string(options_.banks) + " banks of " + std::to_string(options_.bankWidthBytes) +
        " bytes (use lds.arbiter \"cpp\")");
  if (!options_.vcdPath.empty()) Verilated::traceEverOn(true);  // before the model is built
  rtl_ = std::make_unique<Vlds_bank_arbiter>("rtl");
  Pins& p = *pins_;
  rtl_->clk(p.clk);
  rtl_->rst_n(p.rst_n);
  rtl_->req_valid(p.req_valid);
  rtl_->req_ready(p.req_ready);
  rtl_->req_lane_mask(p.req_lane_mask);
  rtl_->req_width(p.req_width);
  rtl_->req_dual(p.req_dual);
  rtl_->req_addr0(p.req_addr0);
  rtl_->req_addr1(p.req_addr1);
  rtl_->grant_valid(p.grant_valid);
  rtl_->grant_group(p.grant_group);
  rtl_->grant_conflict(p.grant_conflict);
  rtl_->served_slots(p.served_slots);
  rtl_->served_lanes(p.served_lanes);
  rtl_->bank_active(p.bank_active);
  rtl_->bank_slots(p.bank_slots);
  rtl_->bank_dword(p.bank_dword);
  rtl_->done(p.done);
}

RtlLdsBankArbiter::~RtlLdsBankArbiter() {
  if (!trace_ || !trace_->open) return;
  // The waveform streams into PATH.tmp.PID and replaces PATH only once complete (the convention
  // of common/AtomicFile.h): a run that dies leaves no truncated VCD that looks whole.
  trace_->vcd.close();
  const std::string tmp = options_.vcdPath + ".tmp." + std::to_string(::getpid());
  if (std::rename(tmp.c_str(), options_.vcdPath.c_str()) != 0) std::remove(tmp.c_str());
}

void RtlLdsBankArbiter::start_of_simulation() {
  if (options_.vcdPath.empty()) return;
  // The model can only be added to a trace once elaboration is complete.
  trace_ = std::make_unique<Trace>();
  trace_->owner = this;
  trace_->periodPs = static_cast<uint64_t>(std::llround(options_.clockPeriod.to_seconds() * 1e12));
  rtl_->trace(&trace_->vcd, 99);
  VerilatedVcd* vcd = trace_->vcd.spTrace();
  vcd->addInitCb(&Trace::init, trace_.get());
  vcd->addFullCb(&Trace::dump<true>, trace_.get());
  vcd->addChgCb(&Trace::dump<false>, trace_.get());
  trace_->vcd.set_time_unit("1ps");
  trace_->vcd.set_time_resolution("1ps");
  trace_->vcd.open((options_.vcdPath + ".tmp." + std::to_string(::getpid())).c_str());
  if (!trace_->vcd.isOpen())
    throw InputError("--vcd '" + options_.vcdPath + "': cannot open for writing");
  trace_->open = true;
}

void RtlLdsBankArbiter::evaluate() {
  evaluateModel(*rtl_);
}

void RtlLdsBankArbiter::rise() {
  pins_->clk.write(true);
  evaluate();
  if (trace_) trace_->sample(cycle_, cycle_ * trace_->periodPs);
}

void RtlLdsBankArbiter::fall() {
  pins_->clk.write(false);
  evaluate();
  if (trace_) trace_->sample(cycle_, cycle_ * trace_->periodPs + trace_->periodPs / 2);
  ++cycle_;
}

void RtlLdsBankArbiter::resetOnce() {
  if (reset_) return;
  reset_ = true;
  Pins& p = *pins_;
  p.rst_n.write(false);
  p.req_valid.write(false);
  evaluate();
  for (int i = 0; i < 2; ++i) {
    rise();
    if (i == 1) p.rst_n.write(true);
    fall();
  }
  inCycle_ = false;
}

void RtlLdsBankArbiter::drive(const LdsBankRequest& r) {
  if (r.dwordsPerElement < 1 || r.dwordsPerElement > 4 || r.elementsPerLane < 1 ||
      r.elementsPerLane > 2)
    throw std::logic_error("RTL LDS arbiter: unsupported request (" +
                           std::to_string(r.dwordsPerElement) + " dwords x " +
                           std::to_string(r.elementsPerLane) + " elements per lane)");
  Pins& p = *pins_;
  sc_dt::sc_bv<2048> a0, a1;
  for (int lane = 0; lane < kLanes; ++lane) {
    a0.set_word(lane, r.addr[lane][0] / 4);
    a1.set_word(lane, r.elementsPerLane > 1 ? r.addr[lane][1] / 4 : 0u);
  }
  p.req_valid.write(true);
  p.req_lane_mask.write(r.laneMask);
  p.req_width.write(r.dwordsPerElement - 1u);
  p.req_dual.write(r.elementsPerLane > 1);
  p.req_addr0.write(a0);
  p.req_addr1.write(a1);
}

LdsBankSchedule RtlLdsBankArbiter::schedule(const LdsBankRequest& request) {
  resetOnce();
  // Place the request on the RTL's timeline so that its grants start at its arrival cycle, or
  // right after the previous request's last grant if that is later (what Lds reserves for the
  // banks): it is presented one cycle before.
  const uint64_t present = request.cycle > 0 ? request.cycle - 1 : 0;
  if (inCycle_ && present > cycle_) {
    // Leave the previous request's last cycle; one more clock takes the RTL back to idle.
    pins_->req_valid.write(false);
    fall();
    rise();
    if (present > cycle_) {
      fall();
      inCycle_ = false;
    }
  }
  if (!inCycle_ && present > cycle_) cycle_ = present;  // idle cycles are not clocked
  arrivalCycle_ = request.cycle;
  return scheduleStream({request}, {0}).front();
}

std::vector<LdsBankSchedule> RtlLdsBankArbiter::scheduleStream(
    const std::vector<LdsBankRequest>& requests, const std::vector<uint32_t>& gaps) {
  resetOnce();
  Pins& p = *pins_;
  std::vector<LdsBankSchedule> out(requests.size());
  std::deque<size_t> inFlight;  // taken and not done (one, or two around a done cycle)
  size_t next = 0, finished = 0;
  uint32_t idle = gaps.empty() ? 0 : gaps[0];
  uint64_t budget = kMaxCyclesPerRequest * (requests.size() + 1);
  for (uint32_t g : gaps) budget += g;

  // Each iteration is one clock cycle: the rising edge (a request with req_valid && req_ready
  // before it is taken), the cycle's outputs, then the inputs for the next edge, which change
  // at the falling edge on the waveform: the next request when its gap has passed, held until
  // it is taken. Between calls the RTL stays inside the last request's done cycle, so a request
  // that arrives at once follows it without a gap.
  bool skipEdge = inCycle_;
  while (true) {
    if (!skipEdge) {
      const bool taken = p.req_valid.read() && p.req_ready.read();
      if (taken) ++requests_;
      rise();
      if (--budget == 0) throw std::logic_error("RTL LDS arbiter: a request never completed");
      if (taken) {
        inFlight.push_back(next);
        ++next;
        idle = next < gaps.size() ? gaps[next] : 0;
      } else if (idle > 0) {
        --idle;
      }
      if (!inFlight.empty()) {
        LdsBankSchedule& s = out[inFlight.front()];
        if (p.grant_valid.read()) {
          s.servedLanes.push_back(p.served_lanes.read());
          s.servedSlots.push_back(p.served_slots.read());
          ++s.cycles;
          if (p.grant_conflict.read()) ++s.conflictCycles;
        }
        if (p.done.read()) {
          inFlight.pop_front();
          ++finished;
        }
      }
    }
    skipEdge = false;
    inCycle_ = true;
    if (finished == requests.size()) break;
    if (next < requests.size() && idle == 0)
      drive(requests[next]);
    else
      p.req_valid.write(false);
    fall();
    inCycle_ = false;
  }
  return out;
}

}  // namespace vgpu::rtl
