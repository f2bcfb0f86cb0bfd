#include "gpu/StatisticsJson.h"

#include "activity/RunSummary.h"
#include "isa/HazardChecker.h"

namespace vgpu {

nlohmann::json gpuStatisticsJson(const PlatformConfig& platform, const Gpu& gpu) {
  nlohmann::json j;
  uint64_t cycles = 0;
  for (const auto& d : gpu.dispatches()) cycles += d.endCycle - d.startCycle;
  j["platform"] = platform.name;
  j["mode"] = platform.functionalMode ? "functional" : "timing";
  j["clock_mhz"] = platform.clockMHz;
  j["compute_units"] = platform.computeUnits;
  j["wave_slots_per_cu"] = platform.cu.simdsPerCu * platform.cu.waveSlotsPerSimd;
  j["cycles"] = cycles;
  // The GPU cycle (SystemC time / clock period) the first dispatch started at: waveform windows
  // (--vcd-window) are in these absolute cycles.
  j["start_cycle"] = gpu.dispatches().empty() ? 0 : gpu.dispatches().front().startCycle;
  j["wave_instructions"] = gpu.statistics().sum("wave_instructions");
  j["workgroups"] = gpu.statistics().value("dispatcher.workgroups");
  j["waves"] = gpu.statistics().value("dispatcher.waves");
  j["counters"] = countersJson(gpu);
  j["dispatches"] = dispatchesJson(gpu);
  // The time series, when they were recorded (--report).
  if (gpu.activity()) j["activity"] = activityJson(*gpu.activity());
  if (gpu.hazardChecker()) j["hazards"] = hazardsJson(gpu);
  if (gpu.instructionProfile()) j["instruction_profile"] = instructionProfileJson(gpu);
  return j;
}

nlohmann::json instructionProfileJson(const Gpu& gpu) {
  const InstructionProfile& profile = *gpu.instructionProfile();
  const std::vector<InstructionProfile::Entry> hottest = profile.hottest();
  nlohmann::json reasons = nlohmann::json::array();
  for (size_t r = 0; r < kStallReasons; ++r)
    reasons.push_back(stallReasonName(static_cast<StallReason>(r)));
  nlohmann::json list = nlohmann::json::array();
  for (size_t i = 0; i < hottest.size() && i < profile.rows(); ++i) {
    const InstructionProfile::Entry& e = hottest[i];
    nlohmann::json stalls = nlohmann::json::object();
    for (size_t r = 0; r < kStallReasons; ++r)
      stalls[stallReasonName(static_cast<StallReason>(r))] = e.stallCycles[r];
    list.push_back({{"kernel", e.kernel},
                    {"pc", e.pc},
                    {"offset", gpu.codeObjectOffset(e.pc)},
                    {"instruction", e.disassembly},
                    {"issued", e.issued},
                    {"stall_cycles", stalls},
                    {"stalled", e.stalled()}});
  }
  return {{"wave_instructions", profile.totalIssued()},
          {"addresses", hottest.size()},
          {"rows", list.size()},
          {"stall_reasons", reasons},
          {"list", list}};
}

nlohmann::json countersJson(const Gpu& gpu) {
  nlohmann::json counters = nlohmann::json::object();
  for (const auto& [name, value] : gpu.statistics().counters()) counters[name] = *value;
  return counters;
}

nlohmann::json dispatchesJson(const Gpu& gpu) {
  nlohmann::json dispatches = nlohmann::json::array();
  for (const auto& d : gpu.dispatches())
    dispatches.push_back({{"kernel", d.kernel},
                          {"queue", d.queue},
                          {"start_cycle", d.startCycle},
                          {"end_cycle", d.endCycle},
                          {"packet_start_ns", d.packetStartNs},
                          {"packet_end_ns", d.packetEndNs},
                          {"workgroups", d.workgroups},
                          {"waves", d.waves},
                          {"faulted", d.faulted}});
  return dispatches;
}

nlohmann::json hazardsJson(const Gpu& gpu) {
  const std::vector<isa::HazardFinding> findings = gpu.hazardFindings();
  nlohmann::json list = nlohmann::json::array();
  uint64_t occurrences = 0;
  auto where = [](uint64_t pc, uint64_t offset, const std::string& text) {
    return nlohmann::json{{"pc", pc}, {"offset", offset}, {"instruction", text}};
  };
  for (const auto& f : findings) {
    occurrences += f.occurrences;
    const isa::HazardRuleInfo& rule = isa::hazardRuleInfo(f.rule);
    list.push_back({{"rule", rule.id},
                    {"description", rule.description},
                    {"required_wait_states", f.required},
                    {"present_wait_states", f.present},
                    {"occurrences", f.occurrences},
                    {"first", where(f.firstPc, f.firstOffset, f.first)},
                    {"second", where(f.secondPc, f.secondOffset, f.second)}});
  }
  return {{"instructions_checked", gpu.hazardChecker()->instructionsChecked()},
          {"findings", findings.size()},
          {"occurrences", occurrences},
          {"list", list}};
}

}  // namespace vgpu
