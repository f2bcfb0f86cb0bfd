#include "platforms/Platform.h"

#include <cctype>
#include <cmath>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <utility>

#include <nlohmann/json.hpp>

#include "common/CacheTags.h"
#include "common/Error.h"

namespace vgpu {

// Generated at build time from platforms/*.json (see platforms/CMakeLists.txt).
extern const std::map<std::string, std::string>& builtinPlatformJson();

namespace {

using nlohmann::json;

class Reader {
 public:
  Reader(const json& object, std::string path, const std::string& origin)
      : object_(object), path_(std::move(path)), origin_(origin) {
    if (!object_.is_object()) fail("must be a JSON object");
  }

  // Reads a numeric parameter if present: a number or {"value": number, "unit", "source"}.
  template <typename T>
  void number(const char* key, T& out) {
    seen_.insert(key);
    auto it = object_.find(key);
    if (it == object_.end()) return;
    const json* v = &*it;
    if (v->is_object()) {
      for (auto& [k, _] : v->items())
        if (k != "value" && k != "unit" && k != "source")
          fail(std::string(key) + " has an unknown field '" + k + "'");
      auto value = v->find("value");
      if (value == v->end()) fail(std::string(key) + " has no \"value\"");
      v = &*value;
    }
    if (!v->is_number()) fail(std::string(key) + " must be a number");
    const double d = v->get<double>();
    if (d < 0 || (std::is_integral_v<T> && d != std::floor(d)))
      fail(std::string(key) + " must be a non-negative " +
           (std::is_integral_v<T> ? "integer" : "number"));
    // 2^digits, not max(): max() of a 64-bit type rounds up to 2^64 as a double, and converting
    // 2^64 back is undefined.
    if (std::is_integral_v<T> ? d >= std::ldexp(1.0, std::numeric_limits<T>::digits)
                              : d > static_cast<double>(std::numeric_limits<T>::max()))
      fail(std::string(key) + " is too large (at most " +
           std::to_string(std::numeric_limits<T>::max()) + ")");
    out = static_cast<T>(d);
  }
  void string(const char* key, std::string& out) {
    seen_.insert(key);
    auto it = object_.find(key);
    if (it == object_.end()) return;
    if (!it->is_string()) fail(std::string(key) + " must be a string");
    out = it->get<std::string>();
  }
  void section(const char* key, const std::function<void(Reader&)>& body) {
    seen_.insert(key);
    auto it = object_.find(key);
    if (it == object_.end()) return;
    Reader r(*it, path_ + key + ".", origin_);
    body(r);
    r.finish();
  }
  // Unknown keys are errors: a misspelt parameter must not silently keep its default.
  void finish() {
    for (auto& [k, _] : object_.items())
      if (!seen_.count(k)) fail("unknown parameter '" + k + "'");
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(origin_ + ": " + (path_.empty() ? "" : path_) + what);
  }

 private:
  const json& object_;
  std::string path_;
  const std::string& origin_;
  std::set<std::string> seen_;
};

void readCache(Reader& r, CacheConfig& c) {
  r.number("size", c.sizeBytes);
  r.number("line", c.lineBytes);
  r.number("ways", c.ways);
  r.number("hit_latency", c.hitLatencyCycles);
  r.number("bandwidth", c.bytesPerCycle);
  r.number("mshrs", c.mshrs);
}

void check(bool ok, const std::string& origin, const std::string& what) {
  if (!ok) throw InputError(origin + ": " + what);
}

}  // namespace

PlatformConfig parsePlatform(const std::string& text, const std::string& origin) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::exception& e) {  // parse errors, and numbers too large (out_of_range)
    throw InputError(origin + ": not valid JSON (" + e.what() + ")");
  }
  PlatformConfig p;
  Reader r(doc, "", origin);
  r.string("name", p.name);
  r.string("description", p.description);
  r.string("processor", p.processor);
  r.number("compute_units", p.computeUnits);
  r.number("clock", p.clockMHz);
  r.number("cus_per_sqc", p.cusPerSqc);
  r.number("quantum", p.quantumCycles);
  r.number("max_cycles", p.maxCycles);
  r.number("watchdog_cycles", p.watchdogCycles);
  r.number("perturb_latency_seed", p.perturbLatencySeed);
  r.number("mmio_latency", p.mmioLatencyCycles);
  r.section("cu", [&](Reader& s) {
    s.number("simds", p.cu.simdsPerCu);
    s.number("wave_slots_per_simd", p.cu.waveSlotsPerSimd);
    s.number("vgprs_per_simd_lane", p.cu.vgprsPerSimdLane);
    s.number("sgprs_per_simd", p.cu.sgprsPerSimd);
    s.number("valu_cycles", p.cu.valuCycles);
    s.number("fp64_rate_divisor", p.cu.fp64RateDivisor);
    s.number("transcendental_rate_divisor", p.cu.transcendentalRateDivisor);
    s.number("salu_cycles", p.cu.saluCycles);
    s.number("branch_cycles", p.cu.branchCycles);
    s.number("instruction_prefetch_lines", p.cu.instructionPrefetchLines);
  });
  r.section("lds", [&](Reader& s) {
    s.number("size", p.lds.sizeBytes);
    s.number("banks", p.lds.banks);
    s.number("latency", p.lds.latencyCycles);
    s.number("port_bandwidth", p.lds.portBytesPerCycle);
    s.number("simds_per_port", p.lds.simdsPerPort);
    s.number("alloc_granule", p.lds.allocGranuleBytes);
    s.number("gds_size", p.lds.gdsSizeBytes);
    s.string("arbiter", p.lds.arbiter);
  });
  r.section("vector_l1", [&](Reader& s) { readCache(s, p.vectorL1); });
  r.section("scalar_cache", [&](Reader& s) { readCache(s, p.scalarCache); });
  r.section("instruction_cache", [&](Reader& s) { readCache(s, p.instructionCache); });
  r.section("l2", [&](Reader& s) {
    s.number("size", p.l2.sizeBytes);
    s.number("channels", p.l2.channels);
    s.number("line", p.l2.lineBytes);
    s.number("ways", p.l2.ways);
    s.number("hit_latency", p.l2.hitLatencyCycles);
    s.number("bandwidth_per_channel", p.l2.bytesPerCyclePerChannel);
    s.number("mshrs_per_channel", p.l2.mshrsPerChannel);
    s.number("interleave", p.l2.interleaveBytes);
  });
  r.section("dram", [&](Reader& s) {
    s.number("size", p.dram.sizeBytes);
    s.number("channels", p.dram.channels);
    s.number("banks_per_channel", p.dram.banksPerChannel);
    s.number("row", p.dram.rowBytes);
    s.number("interleave", p.dram.interleaveBytes);
    s.number("peak_bandwidth", p.dram.peakBandwidthGBs);
    s.number("tRCD", p.dram.tRCDns);
    s.number("tCL", p.dram.tCLns);
    s.number("tRP", p.dram.tRPns);
    s.number("tRAS", p.dram.tRASns);
    s.number("tCCD", p.dram.tCCDns);
    s.number("controller_latency", p.dram.controllerLatencyNs);
  });
  r.section("system_link", [&](Reader& s) {
    s.number("latency", p.systemLink.latencyNs);
    s.number("bandwidth", p.systemLink.bandwidthGBs);
  });
  r.finish();

  if (p.processor == "gfx906")
    p.target = isa::GfxTarget::Gfx906;
  else if (p.processor == "gfx900")
    p.target = isa::GfxTarget::Gfx900;
  else
    throw InputError(origin + ": processor '" + p.processor +
                     "' is not modelled (gfx906 or gfx900)");
  check(p.computeUnits >= 1 && p.computeUnits <= 1024, origin, "compute_units must be 1..1024");
  check(p.clockMHz > 0, origin, "clock must be positive");
  check(p.cusPerSqc >= 1, origin, "cus_per_sqc must be at least 1");
  check(p.quantumCycles >= 1, origin, "quantum must be at least 1 cycle");
  check(p.cu.simdsPerCu >= 1 && p.cu.waveSlotsPerSimd >= 1, origin,
        "cu needs SIMDs and wave slots");
  check(p.cu.simdsPerCu * p.cu.waveSlotsPerSimd >= p.cu.maxWavesPerWorkgroup, origin,
        "a CU must hold at least 16 waves (one 1024-work-item workgroup)");
  check(p.cu.vgprsPerSimdLane >= 4 && p.cu.sgprsPerSimd >= 16, origin, "register files too small");
  check(p.lds.sizeBytes >= 1024 && p.lds.banks >= 1, origin, "lds too small");
  check(p.lds.allocGranuleBytes >= 4, origin, "lds.alloc_granule must be at least 4");
  check(p.lds.portBytesPerCycle >= 4 && p.lds.simdsPerPort >= 1, origin,
        "lds.port_bandwidth must be at least 4 and lds.simds_per_port at least 1");
  check(p.lds.arbiter == "cpp" || p.lds.arbiter == "rtl", origin,
        "lds.arbiter must be \"cpp\" or \"rtl\" (not \"" + p.lds.arbiter + "\")");
  for (const CacheConfig* c : {&p.vectorL1, &p.scalarCache, &p.instructionCache})
    check(c->lineBytes >= 4 && (c->lineBytes & (c->lineBytes - 1)) == 0 &&
              c->sizeBytes >= c->lineBytes && c->ways >= 1 && c->bytesPerCycle >= 1,
          origin, "cache size/line/ways/bandwidth invalid (line a power of two, size >= line)");
  // The tag arrays keep an 8-bit recency rank per way (models/common/CacheTags.h).
  for (const uint32_t ways :
       {p.vectorL1.ways, p.scalarCache.ways, p.instructionCache.ways, p.l2.ways})
    check(ways <= CacheTags::kMaxWays, origin,
          "cache ways must be at most " + std::to_string(CacheTags::kMaxWays) + " (not " +
              std::to_string(ways) + ")");
  check(p.vectorL1.lineBytes == 64, origin,
        "vector_l1.line must be 64 (the texture path coalesces into 64-byte lines)");
  check(p.l2.lineBytes >= 4 && p.l2.ways >= 1 && p.l2.sizeBytes >= p.l2.lineBytes &&
            p.l2.bytesPerCyclePerChannel >= 1,
        origin, "l2 parameters invalid");
  check(p.dram.sizeBytes >= (16u << 20), origin, "dram.size must be at least 16 MiB");
  check(p.dram.channels >= 1 && p.dram.banksPerChannel >= 1 && p.dram.interleaveBytes >= 1 &&
            p.dram.rowBytes >= p.dram.interleaveBytes && p.dram.peakBandwidthGBs > 0,
        origin, "dram channels/banks/row/interleave/peak_bandwidth invalid");
  check(p.systemLink.latencyNs >= 0 && p.systemLink.bandwidthGBs > 0, origin,
        "system_link latency must be at least 0 and bandwidth positive");
  check(p.l2.channels >= 1 && p.l2.interleaveBytes >= 1 && p.l2.mshrsPerChannel >= 1, origin,
        "l2 channels/interleave/mshrs invalid");
  return p;
}

namespace {

// Product names of the built-in platforms: {alias, platform}.
const std::vector<std::pair<std::string, std::string>>& platformAliases() {
  static const std::vector<std::pair<std::string, std::string>> aliases = {
      {"mi50", "vega20"},        {"radeon-instinct-mi50", "vega20"}, {"radeon-vii", "radeon_vii"},
      {"radeon7", "radeon_vii"}, {"radeon-instinct-mi60", "mi60"},   {"vega64", "vega10"},
      {"rx-vega-64", "vega10"},
  };
  return aliases;
}

}  // namespace

std::string resolvePlatformAlias(const std::string& name) {
  std::string lower = name;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const auto& [alias, platform] : platformAliases())
    if (lower == alias) return platform;
  return name;
}

std::vector<PlatformSummary> builtinPlatforms() {
  std::vector<PlatformSummary> out;
  for (const auto& [name, text] : builtinPlatformJson()) {
    const PlatformConfig p = parsePlatform(text, "built-in platform " + name);
    PlatformSummary summary{name, p.description, {}};
    for (const auto& [alias, platform] : platformAliases())
      if (platform == name) summary.aliases.push_back(alias);
    out.push_back(summary);
  }
  return out;
}

PlatformConfig loadPlatform(const std::string& nameOrPath) {
  const bool isFile =
      nameOrPath.find('/') != std::string::npos ||
      (nameOrPath.size() > 5 && nameOrPath.compare(nameOrPath.size() - 5, 5, ".json") == 0);
  if (!isFile) {
    const auto& builtins = builtinPlatformJson();
    auto it = builtins.find(resolvePlatformAlias(nameOrPath));
    if (it == builtins.end()) {
      std::ostringstream os;
      os << "unknown platform '" << nameOrPath << "'; built-in platforms are:";
      for (const auto& [name, _] : builtins) os << " " << name;
      os << "; aliases:";
      for (const auto& [alias, _] : platformAliases()) os << " " << alias;
      os << " (or give a path to a platform .json file)";
      throw InputError(os.str());
    }
    return parsePlatform(it->second, "built-in platform " + nameOrPath);
  }
  std::ifstream in(nameOrPath, std::ios::binary);
  if (!in) throw InputError(nameOrPath + ": cannot open platform file");
  std::ostringstream text;
  text << in.rdbuf();
  return parsePlatform(text.str(), nameOrPath);
}

}  // namespace vgpu
