#include "activity/RunSummary.h"

#include "activity/ActivitySampler.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>

namespace vgpu {

namespace {

template <typename T>
T get(const nlohmann::json& j, const char* key, T otherwise) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return otherwise;
  try {
    return it->get<T>();
  } catch (const nlohmann::json::exception&) {
    return otherwise;
  }
}

// "cu12.stall_barrier_cycles" -> ("cu", "stall_barrier_cycles"); "l2.hits" -> ("l2", "hits"):
// blocks with one instance per CU or per CU group carry their number, which is dropped.
bool splitCounter(const std::string& name, std::string& kind, std::string& rest) {
  const size_t dot = name.find('.');
  if (dot == std::string::npos) return false;
  kind = name.substr(0, dot);
  rest = name.substr(dot + 1);
  for (const char* numbered : {"cu", "lds", "tc", "sqc"}) {
    const size_t n = std::char_traits<char>::length(numbered);
    if (kind.size() > n && kind.compare(0, n, numbered) == 0 &&
        std::all_of(kind.begin() + static_cast<long>(n), kind.end(),
                    [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)) != 0; })) {
      kind = numbered;
      break;
    }
  }
  return true;
}

struct Counters {
  // kind -> rest -> sum over instances
  std::map<std::string, std::map<std::string, uint64_t>> sums;
  uint64_t of(const std::string& kind, const std::string& rest) const {
    const auto k = sums.find(kind);
    if (k == sums.end()) return 0;
    const auto r = k->second.find(rest);
    return r == k->second.end() ? 0 : r->second;
  }
};

Counters readCounters(const nlohmann::json& stats) {
  Counters c;
  const auto it = stats.find("counters");
  if (it == stats.end() || !it->is_object()) return c;
  std::string kind, rest;
  for (const auto& [name, value] : it->items())
    if (value.is_number_unsigned() && splitCounter(name, kind, rest))
      c.sums[kind][rest] += value.get<uint64_t>();
  return c;
}

std::string percent(double fraction) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * fraction);
  return buf;
}

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

}  // namespace

std::string withThousands(uint64_t v) {
  std::string digits = std::to_string(v), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

RunSummary summarizeRun(const nlohmann::json& stats) {
  RunSummary s;
  s.kernel = get<std::string>(stats, "kernel", "");
  s.platform = get<std::string>(stats, "platform", "");
  s.clockMHz = get<double>(stats, "clock_mhz", 0);
  s.computeUnits = get<uint64_t>(stats, "compute_units", 0);
  s.waveSlotsPerCu = get<uint64_t>(stats, "wave_slots_per_cu", 0);
  s.cycles = get<uint64_t>(stats, "cycles", 0);
  s.simulatedSeconds = get<double>(stats, "simulated_seconds", 0);
  s.hostSeconds = get<double>(stats, "host_seconds", 0);
  s.waveInstructions = get<uint64_t>(stats, "wave_instructions", 0);
  s.workgroups = get<uint64_t>(stats, "workgroups", 0);
  s.waves = get<uint64_t>(stats, "waves", 0);
  s.ipc = s.cycles ? double(s.waveInstructions) / double(s.cycles) : 0;
  s.functionalMode = get<std::string>(stats, "mode", "timing") == "functional";

  const Counters c = readCounters(stats);
  if (s.cycles && s.computeUnits)
    s.averageWavesPerCu =
        double(c.of("cu", "resident_wave_cycles")) / double(s.cycles) / double(s.computeUnits);

  if (const auto cu = c.sums.find("cu"); cu != c.sums.end())
    for (const auto& [rest, value] : cu->second) {
      const std::string head = "stall_", tail = "_cycles";
      if (rest.size() <= head.size() + tail.size() || rest.compare(0, head.size(), head) != 0 ||
          rest.compare(rest.size() - tail.size(), tail.size(), tail) != 0)
        continue;
      s.stalls.push_back(
          {rest.substr(head.size(), rest.size() - head.size() - tail.size()), value});
      s.stallWaveCycles += value;
    }
  std::stable_sort(s.stalls.begin(), s.stalls.end(),
                   [](const auto& a, const auto& b) { return a.waveCycles > b.waveCycles; });

  s.caches = {{"vector L1", c.of("tc", "vector_l1.hits"), c.of("tc", "vector_l1.misses")},
              {"L2", c.of("l2", "hits"), c.of("l2", "misses")},
              {"scalar", c.of("sqc", "scalar_cache.hits"), c.of("sqc", "scalar_cache.misses")},
              {"instruction", c.of("sqc", "instruction_cache.hits"),
               c.of("sqc", "instruction_cache.misses")}};

  const double seconds = s.clockMHz > 0 ? double(s.cycles) / (s.clockMHz * 1e6) : 0;
  for (const auto& [level, bytes] :
       std::vector<std::pair<std::string, uint64_t>>{{"LDS", c.of("lds", "bytes")},
                                                     {"vector L1", c.of("tc", "vector_l1.bytes")},
                                                     {"L2", c.of("l2", "bytes")},
                                                     {"DRAM", c.of("l2", "dram_bytes")}}) {
    RunSummary::Traffic t;
    t.level = level;
    t.bytes = bytes;
    t.bytesPerCycle = s.cycles ? double(bytes) / double(s.cycles) : 0;
    t.gigabytesPerSecond = seconds > 0 ? double(bytes) / seconds / 1e9 : 0;
    s.traffic.push_back(t);
  }

  s.ldsInstructions = c.of("lds", "accesses");
  s.ldsBankCycles = c.of("lds", "bank_cycles");
  s.ldsConflictCycles = c.of("lds", "conflict_cycles");
  // Bins "conflict_degree_1", "_3_4", "_32_up": ordered by their first degree.
  std::vector<std::pair<uint64_t, RunSummary::DegreeBin>> bins;
  if (const auto lds = c.sums.find("lds"); lds != c.sums.end())
    for (const auto& [rest, value] : lds->second) {
      const std::string head = "conflict_degree_";
      if (rest.compare(0, head.size(), head) != 0) continue;
      std::string label = rest.substr(head.size());
      const uint64_t first = std::strtoull(label.c_str(), nullptr, 10);
      if (label.size() > 3 && label.compare(label.size() - 3, 3, "_up") == 0)
        label = label.substr(0, label.size() - 3) + "+";
      std::replace(label.begin(), label.end(), '_', '-');
      bins.push_back({first, {label, value}});
    }
  std::sort(bins.begin(), bins.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& b : bins) s.ldsConflictDegrees.push_back(b.second);
  return s;
}

std::string formatRunSummary(const RunSummary& s) {
  std::string out;
  out += "summary: " + withThousands(s.cycles) + " cycles = " + fixed(s.simulatedSeconds * 1e6, 3) +
         " us at " + fixed(s.clockMHz, 0) + " MHz on " + s.platform + " (" +
         std::to_string(s.computeUnits) + " CU" + (s.computeUnits == 1 ? "" : "s") + "); host " +
         fixed(s.hostSeconds, 2) + " s";
  if (s.hostSeconds > 0)
    out += ", " + fixed(double(s.waveInstructions) / s.hostSeconds / 1e6, 2) +
           " M wave-instructions/s";
  out += "\n";

  if (s.functionalMode) {
    // Unit latencies: the cycle count is the model's bookkeeping, not the GPU's time.
    out +=
        "  issue      IPC not meaningful in functional mode (every latency is one cycle; "
        "use --mode timing for cycles, IPC and bandwidth)";
  } else {
    out += "  issue      IPC " + fixed(s.ipc, 2) + " wave-instructions per cycle";
    if (s.computeUnits > 1) out += " (" + fixed(s.ipc / double(s.computeUnits), 3) + " per CU)";
  }
  out += "; occupancy " + fixed(s.averageWavesPerCu, 1);
  if (s.waveSlotsPerCu)
    out += " of " + std::to_string(s.waveSlotsPerCu) + " wave slots per CU (" +
           percent(s.averageWavesPerCu / double(s.waveSlotsPerCu)) + ")";
  else
    out += " waves per CU";
  out += "\n";

  out += "  stalls     ";
  if (s.stallWaveCycles == 0) {
    out += "none";
  } else {
    size_t shown = 0;
    for (const auto& st : s.stalls) {
      if (shown == 3 || st.waveCycles == 0) break;
      out += std::string(shown ? ", " : "") + st.reason + " " +
             percent(double(st.waveCycles) / double(s.stallWaveCycles));
      ++shown;
    }
    out += " of " + withThousands(s.stallWaveCycles) + " wave-cycles";
  }
  out += "\n";

  out += "  hit rates  ";
  for (size_t i = 0; i < s.caches.size(); ++i) {
    const auto& ca = s.caches[i];
    out += std::string(i ? ", " : "") + ca.name + " " +
           (ca.hits + ca.misses ? percent(ca.hitRate()) : std::string("(no accesses)"));
  }
  out += "\n";

  out += "  bandwidth  ";
  for (size_t i = 0; i < s.traffic.size(); ++i)
    out += std::string(i ? ", " : "") + s.traffic[i].level + " " +
           fixed(s.traffic[i].gigabytesPerSecond, 1) + " GB/s";
  out += "\n";

  if (s.ldsInstructions > 0) {
    out += "  LDS        " + withThousands(s.ldsConflictCycles) + " bank-conflict cycles (" +
           percent(s.ldsBankCycles ? double(s.ldsConflictCycles) / double(s.ldsBankCycles) : 0) +
           " of " + withThousands(s.ldsBankCycles) + " bank cycles)";
    if (!s.ldsConflictDegrees.empty()) {
      uint64_t timed = 0;
      for (const auto& b : s.ldsConflictDegrees) timed += b.instructions;
      out += "; " + withThousands(s.ldsConflictDegrees.front().instructions) + " of " +
             withThousands(timed) + " LDS instructions conflict-free";
    }
    out += "\n";
  }
  return out;
}

nlohmann::json activityJson(const ActivitySampler& sampler) {
  nlohmann::json j;
  j["origin_cycle"] = sampler.originCycle();
  j["bucket_cycles"] = sampler.bucketCycles();
  j["buckets"] = sampler.bucketCount();
  j["end_cycle"] = sampler.started() ? sampler.endCycle() : sampler.originCycle();
  nlohmann::json channels = nlohmann::json::object();
  const auto& names = sampler.channelNames();
  for (size_t c = 0; c < names.size(); ++c)
    channels[names[c]] = sampler.values(static_cast<ActivitySampler::Channel>(c));
  j["channels"] = channels;
  return j;
}

nlohmann::json runSummaryJson(const RunSummary& s) {
  nlohmann::json j;
  j["ipc"] = s.ipc;
  j["average_waves_per_cu"] = s.averageWavesPerCu;
  j["wave_slots_per_cu"] = s.waveSlotsPerCu;
  j["stall_wave_cycles"] = s.stallWaveCycles;
  j["stalls"] = nlohmann::json::array();
  for (const auto& st : s.stalls)
    j["stalls"].push_back({{"reason", st.reason}, {"wave_cycles", st.waveCycles}});
  j["caches"] = nlohmann::json::array();
  for (const auto& c : s.caches)
    j["caches"].push_back({{"name", c.name}, {"hits", c.hits}, {"misses", c.misses}});
  j["traffic"] = nlohmann::json::array();
  for (const auto& t : s.traffic)
    j["traffic"].push_back({{"level", t.level},
                            {"bytes", t.bytes},
                            {"bytes_per_cycle", t.bytesPerCycle},
                            {"gigabytes_per_second", t.gigabytesPerSecond}});
  j["lds"] = {{"instructions", s.ldsInstructions},
              {"bank_cycles", s.ldsBankCycles},
              {"conflict_cycles", s.ldsConflictCycles}};
  j["lds"]["conflict_degrees"] = nlohmann::json::array();
  for (const auto& b : s.ldsConflictDegrees)
    j["lds"]["conflict_degrees"].push_back({{"degree", b.label}, {"instructions", b.instructions}});
  return j;
}

}  // namespace vgpu
