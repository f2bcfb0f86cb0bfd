#include "gpu/Gpu.h"

#include <string>

#include "common/Error.h"
#ifdef VGPU_RTL_COSIM
#include "rtl_cosim/adapter/RtlLdsBankArbiter.h"
#endif

namespace vgpu {

using namespace sc_core;

namespace {

// The LDS bank-conflict arbiter of compute unit `cu`: C++, or the Verilated RTL (rtl_cosim/).
std::unique_ptr<LdsBankArbiter> makeLdsBankArbiter(const PlatformConfig& config, uint32_t cu,
                                                   sc_time period) {
  if (config.lds.arbiter != "rtl") return std::make_unique<CppLdsBankArbiter>(config.lds.banks);
#ifdef VGPU_RTL_COSIM
  rtl::RtlArbiterOptions o;
  o.banks = config.lds.banks;
  o.bankWidthBytes = config.lds.bankWidthBytes;
  o.clockPeriod = period;
  if (cu == 0) {  // the waveform shows compute unit 0's arbiter
    o.vcdPath = config.lds.arbiterVcdPath;
    o.vcdStartCycle = config.lds.vcdStartCycle;
    o.vcdEndCycle = config.lds.vcdEndCycle;
  }
  return std::make_unique<rtl::RtlLdsBankArbiter>(("lds_arbiter" + std::to_string(cu)).c_str(), o);
#else
  (void)cu, (void)period;
  throw InputError(
      "lds.arbiter \"rtl\": this build has no RTL co-simulation (Verilator was not found when "
      "it was configured, or VGPU_RTL_COSIM is OFF); install verilator (scripts/setup) and "
      "reconfigure, or use the C++ arbiter");
#endif
}

}  // namespace

bool Gpu::rtlLdsArbiterBuilt() {
#ifdef VGPU_RTL_COSIM
  return true;
#else
  return false;
#endif
}

Gpu::Gpu(sc_module_name name, const PlatformConfig& config)
    : sc_module(name), irq("irq"), config_(config), period_(config.clockPeriodNs(), SC_NS) {
  // Temporal decoupling: each CU runs ahead of SystemC time by at most one quantum.
  tlm::tlm_global_quantum::instance().set(period_ * static_cast<double>(config.quantumCycles));

  // Functional mode: every memory block moves data without tags, reservations or latency.
  if (config_.functionalMode) {
    config_.dram.timed = config_.l2.timed = config_.lds.timed = false;
    config_.vectorL1.timed = config_.scalarCache.timed = config_.instructionCache.timed = false;
  }
  dram_ = std::make_unique<Dram>("dram", config_.dram, period_);
  l2_ = std::make_unique<L2Cache>("l2", config_.l2, period_);
  l2_->memory.bind(dram_->socket);

  dispatcher_ = std::make_unique<Dispatcher>("dispatcher", config);
  cp_ = std::make_unique<CommandProcessor>("cp", config, *dispatcher_, code_, dram_->memoryMap());
  cp_->memory.bind(l2_->socket);
  cp_->irq.bind(irq);
  cp_->onDispatchDone = [this](const DispatchRecord& r) { dispatches_.push_back(r); };

  const uint32_t groups = (config.computeUnits + config.cusPerSqc - 1) / config.cusPerSqc;
  for (uint32_t g = 0; g < groups; ++g) {
    sqcs_.push_back(std::make_unique<Sqc>(("sqc" + std::to_string(g)).c_str(), config_, period_));
    sqcs_.back()->scalarCache.memory.bind(l2_->socket);
    sqcs_.back()->instructionCache.memory.bind(l2_->socket);
  }

  std::vector<ComputeUnit*> cuPointers;
  for (uint32_t i = 0; i < config.computeUnits; ++i) {
    const std::string n = std::to_string(i);
    cus_.push_back(std::make_unique<ComputeUnit>(("cu" + n).c_str(), i, config, *dispatcher_));
    lds_.push_back(std::make_unique<Lds>(("lds" + n).c_str(), config_.lds, period_,
                                         makeLdsBankArbiter(config, i, period_)));
    tcs_.push_back(std::make_unique<TexturePath>(("tc" + n).c_str(), config_.vectorL1, period_));
    ComputeUnit& cu = *cus_.back();
    cu.ldsSocket.bind(lds_.back()->socket);
    cu.attachLdsStorage(lds_.back()->storage());
    cu.vectorMemorySocket.bind(tcs_.back()->socket);
    tcs_.back()->vectorL1.memory.bind(l2_->socket);
    Sqc& sqc = *sqcs_[i / config.cusPerSqc];
    cu.scalarMemorySocket.bind(sqc.scalarCache.socket);
    cu.instructionSocket.bind(sqc.instructionCache.socket);
    cuPointers.push_back(&cu);
  }
  dispatcher_->attach(cuPointers);
  registerStatistics();
}

Gpu::~Gpu() = default;

uint64_t Gpu::waveInstructions() const {
  return stats_.sum("wave_instructions");
}

void Gpu::registerStatistics() {
  for (size_t i = 0; i < cus_.size(); ++i) {
    const std::string p = "cu" + std::to_string(i) + ".";
    const ComputeUnit& c = *cus_[i];
    stats_.registerCounter(p + "wave_instructions", &c.waveInstructions);
    stats_.registerCounter(p + "valu_instructions", &c.valuInstructions);
    stats_.registerCounter(p + "salu_instructions", &c.saluInstructions);
    stats_.registerCounter(p + "vmem_instructions", &c.vmemInstructions);
    stats_.registerCounter(p + "smem_instructions", &c.smemInstructions);
    stats_.registerCounter(p + "lds_instructions", &c.ldsInstructions);
    stats_.registerCounter(p + "branch_instructions", &c.branchInstructions);
    stats_.registerCounter(p + "stall_waitcnt_vm_cycles", &c.waitcntVmStallCycles);
    stats_.registerCounter(p + "stall_waitcnt_lgkm_cycles", &c.waitcntLgkmStallCycles);
    stats_.registerCounter(p + "stall_barrier_cycles", &c.barrierStallCycles);
    stats_.registerCounter(p + "stall_fetch_cycles", &c.fetchStallCycles);
    stats_.registerCounter(p + "stall_issue_conflict_cycles", &c.issueConflictCycles);
    stats_.registerCounter(p + "stall_valu_busy_cycles", &c.valuBusyCycles);
    stats_.registerCounter(p + "barrier_waits", &c.barrierWaits);
    stats_.registerCounter(p + "waves", &c.wavesLaunched);
    stats_.registerCounter(p + "workgroups", &c.workgroupsFinished);
    stats_.registerCounter(p + "active_cycles", &c.activeCycles);
    stats_.registerCounter(p + "instruction_fetches", &c.instructionFetches);
    const Lds& l = *lds_[i];
    const std::string lp = "lds" + std::to_string(i) + ".";
    stats_.registerCounter(lp + "accesses", &l.accesses);
    stats_.registerCounter(lp + "bank_cycles", &l.bankCycles);
    stats_.registerCounter(lp + "conflict_cycles", &l.conflictCycles);
    const TexturePath& t = *tcs_[i];
    const std::string tp = "tc" + std::to_string(i) + ".";
    stats_.registerCounter(tp + "instructions", &t.instructions);
    stats_.registerCounter(tp + "line_transactions", &t.lineTransactions);
    stats_.registerCounter(tp + "vector_l1.hits", &t.vectorL1.hits);
    stats_.registerCounter(tp + "vector_l1.misses", &t.vectorL1.misses);
    stats_.registerCounter(tp + "vector_l1.bytes", &t.vectorL1.bytesIn);
  }
  for (size_t g = 0; g < sqcs_.size(); ++g) {
    const std::string p = "sqc" + std::to_string(g) + ".";
    stats_.registerCounter(p + "scalar_cache.hits", &sqcs_[g]->scalarCache.hits);
    stats_.registerCounter(p + "scalar_cache.misses", &sqcs_[g]->scalarCache.misses);
    stats_.registerCounter(p + "instruction_cache.hits", &sqcs_[g]->instructionCache.hits);
    stats_.registerCounter(p + "instruction_cache.misses", &sqcs_[g]->instructionCache.misses);
  }
  stats_.registerCounter("l2.hits", &l2_->hits);
  stats_.registerCounter("l2.misses", &l2_->misses);
  stats_.registerCounter("l2.atomics", &l2_->atomics);
  stats_.registerCounter("l2.bytes", &l2_->bytesIn);
  stats_.registerCounter("l2.writebacks", &l2_->writebacks);
  stats_.registerCounter("dram.row_hits", &dram_->rowHits);
  stats_.registerCounter("dram.row_misses", &dram_->rowMisses);
  stats_.registerCounter("dram.row_conflicts", &dram_->rowConflicts);
  stats_.registerCounter("dram.writebacks", &dram_->writebacks);
  stats_.registerCounter("dram.reads", &dram_->reads);
  stats_.registerCounter("dram.writes", &dram_->writes);
  stats_.registerCounter("dram.bytes_read", &dram_->bytesRead);
  stats_.registerCounter("dram.bytes_written", &dram_->bytesWritten);
  stats_.registerCounter("dram.atomics", &dram_->atomics);
  stats_.registerCounter("dispatcher.workgroups", &dispatcher_->workgroupsDispatched);
  stats_.registerCounter("dispatcher.waves", &dispatcher_->wavesDispatched);
}

}  // namespace vgpu
