#include "gpu/Gpu.h"

#include <string>

#include "common/Error.h"
#include "cp/CommandProcessor.h"
#include "cu/ComputeUnit.h"
#include "cu/InstructionDecodeCache.h"
#include "dispatcher/Dispatcher.h"
#include "dram/Dram.h"
#include "fabric/DataFabric.h"
#include "l2/L2Cache.h"
#include "lds/Lds.h"
#include "sqc/Sqc.h"
#include "tc/TexturePath.h"
#include "trace/Probes.h"
#include "trace/TraceRecorder.h"
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

void Gpu::bind(tlm::tlm_initiator_socket<>& from, tlm::tlm_base_target_socket_b<>& to,
               const std::string& where) {
  if (binder_)
    binder_(from, to, where);
  else
    from.bind(to);
}

Gpu::Gpu(sc_module_name name, const PlatformConfig& config, SocketBinder binder)
    : sc_module(name),
      irq("irq"),
      config_(config),
      period_(config.clockPeriodNs(), SC_NS),
      binder_(std::move(binder)) {
  // Temporal decoupling: each CU runs ahead of SystemC time by at most one quantum.
  tlm::tlm_global_quantum::instance().set(period_ * static_cast<double>(config.quantumCycles));

  // Functional mode: every memory block moves data without tags, reservations or latency.
  if (config_.functionalMode) {
    config_.dram.timed = config_.l2.timed = config_.lds.timed = false;
    config_.vectorL1.timed = config_.scalarCache.timed = config_.instructionCache.timed = false;
    config_.systemLink.timed = false;
  }
  dram_ = std::make_unique<Dram>("dram", config_.dram, period_);
  // Below L2, the data fabric sends device addresses to DRAM and the rest over the system link.
  fabric_ = std::make_unique<DataFabric>("fabric", config_.systemLink, DeviceMemoryMap::kBase,
                                         config_.dram.sizeBytes);
  bind(fabric_->deviceMemory, dram_->socket, "fabric->dram");
  l2_ = std::make_unique<L2Cache>("l2", config_.l2, period_);
  l2_->setWriteBackRange(DeviceMemoryMap::kBase, config_.dram.sizeBytes);
  bind(l2_->memory, fabric_->socket, "l2->fabric");

  // Decoded instructions, read from DRAM when waves first reach them; DRAM reports writes to
  // the pages decoded from.
  decoded_ =
      std::make_unique<InstructionDecodeCache>("decoded_instructions", config_.target, *dram_);
  bind(decoded_->memory, dram_->socket, "decoded_instructions->dram");

  dispatcher_ = std::make_unique<Dispatcher>("dispatcher", config);
  cp_ = std::make_unique<CommandProcessor>("cp", config, *dispatcher_, symbols_,
                                           DeviceMemoryMap::kBase, config_.dram.sizeBytes);
  cp_->mapDeviceMemory = [this](uint64_t base, uint64_t bytes) { return dram_->map(base, bytes); };
  cp_->unmapDeviceMemory = [this](uint64_t base) { return dram_->unmap(base); };
  bind(cp_->memory, l2_->socket, "cp->l2");
  cp_->irq.bind(irq);
  cp_->onDispatchDone = [this](const DispatchRecord& r) { dispatches_.push_back(r); };
  // Acquire fences (agent and system scope alike on GFX9: LLVM AMDGPUUsage, memory model
  // GFX6-GFX9, "buffer_wbinvl1_vol" for acquire at agent/system scope) invalidate the vector L1s;
  // the CP's acquire also drops the scalar caches' lines (kernargs and constants written by the
  // host). L2 is the coherence point for both scopes and stays; see docs/register-map.md.
  cp_->onAcquireFence = [this](aql::FenceScope) {
    for (auto& tc : tcs_) tc->vectorL1.invalidateAll();
    for (auto& sqc : sqcs_) sqc->scalarCache.invalidateAll();
  };

  const uint32_t groups = (config.computeUnits + config.cusPerSqc - 1) / config.cusPerSqc;
  for (uint32_t g = 0; g < groups; ++g) {
    sqcs_.push_back(std::make_unique<Sqc>(("sqc" + std::to_string(g)).c_str(), config_, period_));
    bind(sqcs_.back()->scalarCache.memory, l2_->socket, "sqc" + std::to_string(g) + ".scalar->l2");
    bind(sqcs_.back()->instructionCache.memory, l2_->socket,
         "sqc" + std::to_string(g) + ".instruction->l2");
  }

  std::vector<ComputeUnitPort*> cuPointers;
  gds_.assign(config_.lds.gdsSizeBytes, 0);
  for (uint32_t i = 0; i < config.computeUnits; ++i) {
    const std::string n = std::to_string(i);
    cus_.push_back(std::make_unique<ComputeUnit>(("cu" + n).c_str(), i, config, *dispatcher_));
    lds_.push_back(std::make_unique<Lds>(("lds" + n).c_str(), config_.lds, period_,
                                         makeLdsBankArbiter(config, i, period_)));
    tcs_.push_back(std::make_unique<TexturePath>(("tc" + n).c_str(), config_.vectorL1, period_));
    ComputeUnit& cu = *cus_.back();
    bind(cu.ldsSocket, lds_.back()->socket, "cu" + n + "->lds");
    cu.attachLdsStorage(lds_.back()->storage());
    cu.attachDecodeCache(decoded_.get());
    cu.attachGds(gds_.data(), static_cast<uint32_t>(gds_.size()));
    cu.attachGws(&gws_, &gwsChanged_);
    cu.attachDeviceWrites(&lastMemoryWriteCycle_);
    bind(cu.vectorMemorySocket, tcs_.back()->socket, "cu" + n + "->tc");
    bind(tcs_.back()->vectorL1.memory, l2_->socket, "tc" + n + ".vector_l1->l2");
    Sqc& sqc = *sqcs_[i / config.cusPerSqc];
    bind(cu.scalarMemorySocket, sqc.scalarCache.socket, "cu" + n + "->scalar_cache");
    bind(cu.instructionSocket, sqc.instructionCache.socket, "cu" + n + "->instruction_cache");
    cuPointers.push_back(&cu);
  }
  dispatcher_->attach(cuPointers);
  registerStatistics();
  if (config_.trace.enabled()) attachTraces();
}

void Gpu::attachTraces() {
  trace_ = std::make_unique<trace::TraceRecorder>(config_.trace, period_, config_.clockMHz, name());
  trace::TraceRecorder& r = *trace_;
  cp_->traceProbe = r.make<trace::CommandProcessorProbe>(r.pathOf(*cp_), mmio::kQueues);
  for (size_t i = 0; i < cus_.size(); ++i) {
    // A CU's LDS, texture-address unit and vector L1 share its group of timeline tracks.
    const std::string cu = r.pathOf(*cus_[i]);
    cus_[i]->traceProbe = r.make<trace::CuProbe>(cu, config_.cu.simdsPerCu,
                                                 config_.cu.waveSlotsPerSimd, config_.target);
    lds_[i]->traceProbe = r.make<trace::LdsProbe>(r.pathOf(*lds_[i]), cu, config_.lds.banks);
    tcs_[i]->traceProbe = r.make<trace::TextureAddressProbe>(r.pathOf(*tcs_[i]), cu);
    Cache& l1 = tcs_[i]->vectorL1;
    l1.traceProbe = r.make<trace::CacheProbe>(r.pathOf(l1), cu, config_.vectorL1.channels,
                                              config_.vectorL1.mshrs);
  }
  for (auto& sqc : sqcs_) {
    const std::string group = r.pathOf(*sqc);
    sqc->scalarCache.traceProbe = r.make<trace::CacheProbe>(
        r.pathOf(sqc->scalarCache), group, config_.scalarCache.channels, config_.scalarCache.mshrs);
    sqc->instructionCache.traceProbe = r.make<trace::CacheProbe>(
        r.pathOf(sqc->instructionCache), group, config_.instructionCache.channels,
        config_.instructionCache.mshrs);
  }
  l2_->traceProbe = r.make<trace::CacheProbe>(r.pathOf(*l2_), r.pathOf(*l2_), config_.l2.channels,
                                              config_.l2.mshrsPerChannel);
  dram_->traceProbe = r.make<trace::DramProbe>(r.pathOf(*dram_), config_.dram.channels);
  r.validateScopes();
}

void Gpu::finishTraces() {
  if (trace_) trace_->finish();
}

std::vector<std::string> Gpu::emptyTraceWindows() const {
  return trace_ ? trace_->emptyWindowWarnings() : std::vector<std::string>{};
}

Gpu::~Gpu() = default;

tlm::tlm_target_socket<>& Gpu::mmioSocket() {
  return cp_->mmio;
}
HostMemorySocket& Gpu::hostMemorySocket() {
  return dram_->socket;
}
SystemMemorySocket& Gpu::systemMemorySocket() {
  return fabric_->systemMemory;
}
size_t Gpu::activeDispatches() const {
  return dispatcher_->activeDispatches();
}
const sc_core::sc_event& Gpu::dispatchSubmittedEvent() const {
  return dispatcher_->submittedEvent();
}
uint64_t Gpu::timestampNow() {
  return CommandProcessor::timestampNow();
}
const std::string& Gpu::debugQueueFault(uint32_t queue) const {
  return cp_->queueFault(queue);
}

uint64_t Gpu::waveInstructions() const {
  return stats_.sum("wave_instructions");
}

isa::HazardChecker& Gpu::enableHazardChecks() {
  if (!hazards_) {
    hazards_ = std::make_unique<isa::HazardChecker>(config_.target);
    for (auto& cu : cus_) cu->setHazardChecker(hazards_.get());
  }
  return *hazards_;
}

InstructionProfile& Gpu::enableInstructionProfile(uint32_t rows) {
  if (!profile_) {
    profile_ = std::make_unique<InstructionProfile>(config_.target, rows);
    for (auto& cu : cus_) cu->setInstructionProfile(profile_.get());
  }
  return *profile_;
}

std::vector<isa::HazardFinding> Gpu::hazardFindings() const {
  if (!hazards_) return {};
  std::vector<isa::HazardFinding> findings = hazards_->findings();
  // PCs are device addresses; `vgpu-sim disasm` prints offsets in the code object.
  for (auto& f : findings) {
    f.firstOffset = codeObjectOffset(f.firstPc);
    f.secondOffset = codeObjectOffset(f.secondPc);
  }
  return findings;
}

ActivitySampler& Gpu::enableActivitySampling() {
  if (activity_) return *activity_;
  activity_ = std::make_unique<ActivitySampler>();
  ActivitySampler& a = *activity_;
  CuActivityChannels cu;
  cu.instructions = a.channel("wave_instructions");
  cu.stallWaitcntVm = a.channel("stall.waitcnt_vm");
  cu.stallWaitcntLgkm = a.channel("stall.waitcnt_lgkm");
  cu.stallBarrier = a.channel("stall.barrier");
  cu.stallFetch = a.channel("stall.fetch");
  cu.stallIssueConflict = a.channel("stall.issue_conflict");
  cu.stallValuBusy = a.channel("stall.valu_busy");
  const ActivitySampler::Channel ldsBytes = a.channel("lds.bytes");
  const ActivitySampler::Channel ldsConflicts = a.channel("lds.conflict_cycles");
  const ActivitySampler::Channel l1Bytes = a.channel("vector_l1.bytes");
  const ActivitySampler::Channel l2Bytes = a.channel("l2.bytes");
  const ActivitySampler::Channel dramBytes = a.channel("dram.bytes");
  const ActivitySampler::Channel l1ToL2 = a.channel("vector_l1.bytes_to_l2");
  for (size_t i = 0; i < cus_.size(); ++i) {
    cu.activeWaves = a.channel("cu" + std::to_string(i) + ".active_waves");
    cus_[i]->attachActivity(&a, cu);
    lds_[i]->attachActivity(&a, ldsBytes, ldsConflicts);
    tcs_[i]->vectorL1.attachActivity(&a, l1Bytes, l1ToL2);
  }
  l2_->attachActivity(&a, l2Bytes, dramBytes);
  dispatcher_->attachActivity(&a);
  return a;
}

void Gpu::registerStatistics() {
  for (size_t i = 0; i < cus_.size(); ++i) {
    const std::string p = "cu" + std::to_string(i) + ".";
    const ComputeUnit& c = *cus_[i];
    stats_.registerCounter(p + "wave_instructions", &c.waveInstructions);
    stats_.registerCounter(p + "valu_instructions",
                           &c.instructionsByType[static_cast<size_t>(isa::IssueType::Valu)]);
    stats_.registerCounter(p + "salu_instructions",
                           &c.instructionsByType[static_cast<size_t>(isa::IssueType::Salu)]);
    stats_.registerCounter(p + "vmem_instructions",
                           &c.instructionsByType[static_cast<size_t>(isa::IssueType::Vmem)]);
    stats_.registerCounter(p + "smem_instructions",
                           &c.instructionsByType[static_cast<size_t>(isa::IssueType::Smem)]);
    stats_.registerCounter(p + "lds_instructions",
                           &c.instructionsByType[static_cast<size_t>(isa::IssueType::Lds)]);
    stats_.registerCounter(p + "branch_instructions",
                           &c.instructionsByType[static_cast<size_t>(isa::IssueType::Branch)]);
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
    stats_.registerCounter(p + "resident_wave_cycles", &c.residentWaveCycles);
    const Lds& l = *lds_[i];
    const std::string lp = "lds" + std::to_string(i) + ".";
    stats_.registerCounter(lp + "accesses", &l.accesses);
    stats_.registerCounter(lp + "bank_cycles", &l.bankCycles);
    stats_.registerCounter(lp + "conflict_cycles", &l.conflictCycles);
    stats_.registerCounter(lp + "port_cycles", &l.portCycles);
    stats_.registerCounter(lp + "bytes", &l.bytesMoved);
    for (unsigned b = 0; b < Lds::kConflictDegreeBins; ++b)
      stats_.registerCounter(lp + "conflict_degree_" + Lds::kConflictDegreeBinNames[b],
                             &l.conflictDegree[b]);
    const TexturePath& t = *tcs_[i];
    const std::string tp = "tc" + std::to_string(i) + ".";
    stats_.registerCounter(tp + "instructions", &t.instructions);
    stats_.registerCounter(tp + "line_transactions", &t.lineTransactions);
    stats_.registerCounter(tp + "image_instructions", &t.imageInstructions);
    stats_.registerCounter(tp + "image_address_cycles", &t.imageAddressCycles);
    stats_.registerCounter(tp + "filter_cycles", &t.filterCycles);
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
  stats_.registerCounter("l2.dram_bytes", &l2_->bytesDownstream);
  stats_.registerCounter("dram.row_hits", &dram_->rowHits);
  stats_.registerCounter("dram.row_misses", &dram_->rowMisses);
  stats_.registerCounter("dram.row_conflicts", &dram_->rowConflicts);
  stats_.registerCounter("dram.writebacks", &dram_->writebacks);
  stats_.registerCounter("dram.reads", &dram_->reads);
  stats_.registerCounter("dram.writes", &dram_->writes);
  stats_.registerCounter("dram.bytes_read", &dram_->bytesRead);
  stats_.registerCounter("dram.bytes_written", &dram_->bytesWritten);
  stats_.registerCounter("dram.atomics", &dram_->atomics);
  stats_.registerCounter("system_link.reads", &fabric_->systemReads);
  stats_.registerCounter("system_link.writes", &fabric_->systemWrites);
  stats_.registerCounter("system_link.atomics", &fabric_->systemAtomics);
  stats_.registerCounter("system_link.bytes_read", &fabric_->systemBytesRead);
  stats_.registerCounter("system_link.bytes_written", &fabric_->systemBytesWritten);
  stats_.registerCounter("system_link.errors", &fabric_->systemErrors);
  stats_.registerCounter("decoded_instructions.decodes", &decoded_->decodes);
  stats_.registerCounter("decoded_instructions.pages_dropped", &decoded_->pagesDropped);
  stats_.registerCounter("dispatcher.workgroups", &dispatcher_->workgroupsDispatched);
  stats_.registerCounter("dispatcher.waves", &dispatcher_->wavesDispatched);
}

}  // namespace vgpu
