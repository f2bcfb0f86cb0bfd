// The model-activity VCD (--vcd) and the timeline (--timeline) through vgpu-sim: the signals a
// user looks for exist, the LDS-conflict signal is high for exactly the cycles the statistics
// count, windows and scopes keep what they say, the timeline is trace-event JSON with one slice
// per executed instruction and flows that link their ends, and tracing changes no result.
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>

#include "CliRunner.h"
#include "StatsJson.h"
#include "VcdReader.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using vgpu::test::readVcd;
using vgpu::test::ScratchDir;
using vgpu::test::shellQuote;
using vgpu::test::slurp;
using vgpu::test::Vcd;

struct Result {
  int exitCode = -1;
  std::string out, err;
  json stats;
};

// Runs vgpu-sim with `args`; --stats goes to DIR/stats.json and is parsed when present.
Result vgpuSim(const ScratchDir& dir, const std::string& args) {
  const std::string stats = dir.file("stats.json");
  fs::remove(stats);
  const vgpu::test::SimResult run =
      vgpu::test::runVgpuSim(args + " --stats " + shellQuote(stats), dir);
  Result r{run.exitCode, run.out, run.err, {}};
  if (fs::exists(stats)) r.stats = json::parse(slurp(stats), nullptr, false);
  return r;
}

// lds_stride2 (trace_kernels.s) on two compute units: 4 workgroups of 2 waves.
constexpr uint64_t kWaves = 8;
constexpr uint64_t kPeriodPs = 580;  // 1725 MHz, rounded to SystemC's 1 ps resolution

std::string stride2Run(const ScratchDir& dir) {
  const std::string platform = dir.file("tiny2.json");
  if (!fs::exists(platform)) std::ofstream(platform) << R"({"name": "tiny2", "compute_units": 2})";
  return "run " + shellQuote(std::string(VGPU_KERNEL_DIR) + "/trace_kernels.co") +
         " lds_stride2 --grid 512 --block 128 --arg zeros:2048 --platform " + shellQuote(platform);
}

using vgpu::test::sumCounters;

// ---- The VCD ------------------------------------------------------------------------------------

TEST(Vcd, HasTheSignalsOfEveryBlock) {
  ScratchDir dir;
  const Result r = vgpuSim(dir, stride2Run(dir) + " --vcd " + shellQuote(dir.file("a.vcd")));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const Vcd v = readVcd(dir.file("a.vcd"));
  EXPECT_EQ(v.timescale, "1ps");
  EXPECT_TRUE(v.monotonic) << "timestamps must increase";
  for (const char* s : {"gpu.cu0.active_waves[5:0]",
                        "gpu.cu1.waves_at_waitcnt[5:0]",
                        "gpu.cu0.waves_at_barrier[5:0]",
                        "gpu.cu0.issue_valu",
                        "gpu.cu0.issue_vmem",
                        "gpu.cu0.issue_scalar",
                        "gpu.cu0.issue_lds",
                        "gpu.cu0.issue_branch",
                        "gpu.cu0.simd0.valu_busy",
                        "gpu.cu1.simd3.valu_busy",
                        "gpu.lds0.bank_busy[31:0]",
                        "gpu.lds0.conflict",
                        "gpu.lds1.busy",
                        "gpu.tc0.ta_busy",
                        "gpu.tc0.vector_l1.hits[7:0]",
                        "gpu.tc0.vector_l1.misses[7:0]",
                        "gpu.tc1.vector_l1.mshrs[6:0]",
                        "gpu.tc0.vector_l1.busy",
                        "gpu.tc0.vector_l1.queue[7:0]",
                        "gpu.sqc0.scalar_cache.hits[7:0]",
                        "gpu.sqc0.instruction_cache.misses[7:0]",
                        "gpu.l2.hits[7:0]",
                        "gpu.l2.misses[7:0]",
                        "gpu.l2.mshrs[10:0]",
                        "gpu.l2.channel00.busy",
                        "gpu.l2.channel15.queue[7:0]",
                        "gpu.dram.channel00.busy",
                        "gpu.dram.channel31.queue[7:0]",
                        "gpu.cp.kernels_running[3:0]",
                        "gpu.cp.kernel_start",
                        "gpu.cp.kernel_end",
                        "gpu.cp.queue0.state[1:0]"})
    EXPECT_TRUE(v.idOf.count(s)) << s << " is not in the VCD";
  // The kernel ran: waves were active, and the kernel markers fired once each.
  EXPECT_TRUE(v.values("gpu.cu0.active_waves[5:0]").count(2));
  EXPECT_EQ(v.highTime("gpu.cp.kernel_start"), kPeriodPs);
  EXPECT_EQ(v.highTime("gpu.cp.kernel_end"), kPeriodPs);
  EXPECT_GT(v.highTime("gpu.dram.channel00.busy") + v.highTime("gpu.dram.channel01.busy"), 0u);
}

// The LDS-conflict signals are high for exactly the cycles --stats counts as conflict cycles:
// 8 waves x 9 DS instructions x 2 cycles for the stride-2 kernel. The banks busy are the even
// ones (dword 2 x lane).
TEST(Vcd, LdsConflictSignalMatchesTheStatistics) {
  ScratchDir dir;
  const Result r = vgpuSim(dir, stride2Run(dir) + " --vcd " + shellQuote(dir.file("a.vcd")));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const uint64_t statsConflicts = sumCounters(r.stats, ".conflict_cycles");
  EXPECT_EQ(statsConflicts, kWaves * 9 * 2);
  const Vcd v = readVcd(dir.file("a.vcd"));
  const uint64_t high = v.highTime("gpu.lds0.conflict") + v.highTime("gpu.lds1.conflict");
  EXPECT_EQ(high % kPeriodPs, 0u);
  EXPECT_EQ(high / kPeriodPs, statsConflicts);
  const uint64_t busy = v.highTime("gpu.lds0.busy") + v.highTime("gpu.lds1.busy");
  EXPECT_EQ(busy / kPeriodPs, sumCounters(r.stats, ".bank_cycles"));
  for (uint64_t banks : v.values("gpu.lds0.bank_busy[31:0]"))
    EXPECT_TRUE(banks == 0 || banks == 0x55555555u) << std::hex << banks;
  EXPECT_TRUE(v.values("gpu.lds0.bank_busy[31:0]").count(0x55555555u));
}

// The walkthrough kernel (README, "Debugging timing"): the 32-way conflicts of the unpadded
// row sums show in the VCD exactly as counted, and padding removes most of them.
TEST(Vcd, WalkthroughKernelConflictsMatchTheStatistics) {
  ScratchDir dir;
  std::vector<float> in(8 * 64 * 64);
  std::mt19937 rng(7);
  for (float& x : in) x = static_cast<float>(rng() % 1000) / 10.0f;
  std::ofstream(dir.file("in.bin"), std::ios::binary)
      .write(reinterpret_cast<const char*>(in.data()), static_cast<std::streamsize>(in.size() * 4));
  auto run = [&](const std::string& kernel) {
    return "run " + shellQuote(std::string(VGPU_KERNEL_DIR) + "/bank_conflicts.co") + " " + kernel +
           " --grid 512 --block 64 --arg file:" + shellQuote(dir.file("in.bin")) +
           " --arg zeros:2048 --platform tiny --vcd " + shellQuote(dir.file(kernel + ".vcd"));
  };
  const Result plain = vgpuSim(dir, run("row_sums"));
  ASSERT_EQ(plain.exitCode, 0) << plain.err;
  const uint64_t conflicts = sumCounters(plain.stats, ".conflict_cycles");
  const Vcd v = readVcd(dir.file("row_sums.vcd"));
  EXPECT_EQ(v.highTime("gpu.lds0.conflict") / kPeriodPs, conflicts);
  const Result padded = vgpuSim(dir, run("row_sums_padded"));
  ASSERT_EQ(padded.exitCode, 0) << padded.err;
  EXPECT_GT(conflicts, 3 * sumCounters(padded.stats, ".conflict_cycles"));
  EXPECT_GT(plain.stats["cycles"].get<uint64_t>(), padded.stats["cycles"].get<uint64_t>());
}

TEST(Vcd, WindowKeepsOnlyItsCycles) {
  ScratchDir dir;
  const Result whole = vgpuSim(dir, stride2Run(dir));
  ASSERT_EQ(whole.exitCode, 0) << whole.err;
  const uint64_t start = whole.stats["start_cycle"].get<uint64_t>() + 50, end = start + 200;
  const Result r =
      vgpuSim(dir, stride2Run(dir) + " --vcd " + shellQuote(dir.file("w.vcd")) + " --vcd-window " +
                       std::to_string(start) + ":" + std::to_string(end));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const Vcd v = readVcd(dir.file("w.vcd"));
  ASSERT_FALSE(v.times.empty());
  EXPECT_EQ(v.times.front(), start * kPeriodPs) << "the window starts with every value";
  for (uint64_t t : v.times) {
    EXPECT_GE(t, start * kPeriodPs);
    EXPECT_LE(t, (end + 1) * kPeriodPs);
  }
  EXPECT_GT(v.times.size(), 3u) << "something happens in the window";
}

// kernel+START:END counts from the dispatch's start, which moves with the inputs (the host
// copies run first): the window lands on the same cycles of the kernel for either input size.
TEST(Vcd, KernelRelativeWindowFollowsTheKernelStart) {
  ScratchDir dir;
  // The same launch with a 256 KiB buffer (the kernel uses its first 2 KiB): the runtime
  // clears it before the dispatch, which then starts later.
  const std::string small = stride2Run(dir), arg = " --arg zeros:2048 ";
  std::string largeRun = small;
  ASSERT_NE(largeRun.find(arg), std::string::npos);
  largeRun.replace(largeRun.find(arg), arg.size(), " --arg zeros:262144 ");
  uint64_t starts[2] = {};
  std::string files[2];
  int i = 0;
  for (const std::string& run : {small, largeRun}) {
    const std::string vcd = dir.file("k" + std::to_string(i) + ".vcd");
    const Result r =
        vgpuSim(dir, run + " --vcd " + shellQuote(vcd) + " --vcd-window kernel+50:250");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.err.find("warning"), std::string::npos) << r.err;
    starts[i] = r.stats["dispatches"][0]["start_cycle"].get<uint64_t>();
    const Vcd v = readVcd(vcd);
    ASSERT_FALSE(v.times.empty());
    EXPECT_EQ(v.times.front(), (starts[i] + 50) * kPeriodPs)
        << "the window starts with every value";
    for (uint64_t t : v.times) {
      EXPECT_GE(t, (starts[i] + 50) * kPeriodPs);
      EXPECT_LE(t, (starts[i] + 251) * kPeriodPs);
    }
    EXPECT_GT(v.times.size(), 3u) << "something happens in the window";
    files[i] = vcd;
    ++i;
  }
  EXPECT_LT(starts[0], starts[1]) << "a larger input starts the kernel later";
  // The same window in absolute cycles gives the same file.
  const Result a =
      vgpuSim(dir, small + " --vcd " + shellQuote(dir.file("a.vcd")) + " --vcd-window " +
                       std::to_string(starts[0] + 50) + ":" + std::to_string(starts[0] + 250));
  ASSERT_EQ(a.exitCode, 0) << a.err;
  EXPECT_EQ(slurp(dir.file("a.vcd")), slurp(files[0]));
}

TEST(Vcd, ScopeKeepsOnlyTheNamedBlocks) {
  ScratchDir dir;
  const Result r = vgpuSim(
      dir, stride2Run(dir) + " --vcd " + shellQuote(dir.file("s.vcd")) + " --vcd-scope cu1,l2");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const Vcd v = readVcd(dir.file("s.vcd"));
  EXPECT_FALSE(v.namesStartingWith("gpu.cu1.").empty());
  EXPECT_FALSE(v.namesStartingWith("gpu.lds1.").empty()) << "cu1 takes its LDS";
  EXPECT_FALSE(v.namesStartingWith("gpu.tc1.vector_l1.").empty()) << "and its vector L1";
  EXPECT_FALSE(v.namesStartingWith("gpu.l2.").empty());
  for (const char* other : {"gpu.cu0.", "gpu.lds0.", "gpu.tc0.", "gpu.dram.", "gpu.cp.", "gpu.sqc"})
    EXPECT_TRUE(v.namesStartingWith(other).empty()) << other;
}

TEST(Vcd, BadScopesAndWindowsAreInputErrors) {
  ScratchDir dir;
  Result r = vgpuSim(
      dir, stride2Run(dir) + " --vcd " + shellQuote(dir.file("a.vcd")) + " --vcd-scope cu0,cu7");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("'cu7'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("cu1"), std::string::npos) << "the message lists the blocks: " << r.err;
  EXPECT_FALSE(fs::exists(dir.file("a.vcd")));
  r = vgpuSim(dir, stride2Run(dir) + " --vcd-scope cu0");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("--vcd-scope needs --vcd"), std::string::npos) << r.err;
  r = vgpuSim(dir, stride2Run(dir) + " --timeline " + shellQuote(dir.file("t.json")) +
                       " --timeline-window 9:3");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("END is before START"), std::string::npos) << r.err;
  r = vgpuSim(dir, stride2Run(dir) + " --vcd " + shellQuote(dir.file("no/such/dir/a.vcd")));
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("--vcd"), std::string::npos) << r.err;
}

// ---- The timeline -------------------------------------------------------------------------------

struct Timeline {
  json doc;
  std::map<int, std::string> processName;                 // pid -> name
  std::map<std::pair<int, int>, std::string> threadName;  // (pid, tid) -> name
  std::vector<json> slices;                               // ph X
  std::map<uint64_t, std::vector<json>> flows;            // id -> s/t/f events
};

Timeline readTimeline(const std::string& path) {
  Timeline t;
  t.doc = json::parse(slurp(path), nullptr, false);
  if (t.doc.is_discarded() || !t.doc.contains("traceEvents")) return t;
  for (const json& e : t.doc["traceEvents"]) {
    const std::string ph = e["ph"];
    if (ph == "M" && e["name"] == "process_name") t.processName[e["pid"]] = e["args"]["name"];
    if (ph == "M" && e["name"] == "thread_name")
      t.threadName[{e["pid"], e["tid"]}] = e["args"]["name"];
    if (ph == "X") t.slices.push_back(e);
    if (ph == "s" || ph == "t" || ph == "f") t.flows[e["id"].get<uint64_t>()].push_back(e);
  }
  return t;
}

// Timestamps are whole cycles (1 ns each, in microseconds): compare them as integers.
int64_t cycles(const json& microseconds) {
  return static_cast<int64_t>(std::llround(microseconds.get<double>() * 1000));
}

TEST(Timeline, IsTraceEventJsonWithASlicePerInstruction) {
  ScratchDir dir;
  const Result r = vgpuSim(dir, stride2Run(dir) + " --timeline " + shellQuote(dir.file("t.json")));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const Timeline t = readTimeline(dir.file("t.json"));
  ASSERT_FALSE(t.doc.is_discarded()) << "not JSON";
  ASSERT_TRUE(t.doc["traceEvents"].is_array());
  EXPECT_EQ(t.doc["displayTimeUnit"], "ns");
  uint64_t instructions = 0;
  std::set<std::string> mnemonics;
  for (const json& s : t.slices) {
    ASSERT_TRUE(s.contains("ts") && s.contains("dur") && s.contains("pid") && s.contains("tid"));
    if (s["cat"] != "instruction") continue;
    ++instructions;
    mnemonics.insert(s["name"].get<std::string>());
    EXPECT_TRUE(s["args"].contains("pc"));
    EXPECT_EQ(s["args"]["disasm"].get<std::string>().rfind(s["name"].get<std::string>(), 0), 0u)
        << "the disassembly starts with the mnemonic";
    EXPECT_GE(cycles(s["dur"]), 1);
  }
  EXPECT_EQ(instructions, r.stats["wave_instructions"].get<uint64_t>());
  for (const char* m : {"ds_read_b32", "s_barrier", "s_waitcnt", "global_load_dword", "s_endpgm"})
    EXPECT_TRUE(mnemonics.count(m)) << m;
  // Tracks: wave slots and units of the CUs, L2 and DRAM channels, the command processor.
  std::set<std::string> processes;
  for (const auto& [pid, name] : t.processName) processes.insert(name);
  for (const char* p : {"gpu.cu0", "gpu.cu1", "gpu.l2", "gpu.dram", "gpu.cp", "gpu.sqc0"})
    EXPECT_TRUE(processes.count(p)) << p;
  std::set<std::string> threads;
  for (const auto& [key, name] : t.threadName) threads.insert(name);
  for (const char* name : {"slot 00 (simd0)", "simd0 valu", "lds banks", "texture address",
                           "vector_l1", "channel 00", "queue 0"})
    EXPECT_TRUE(threads.count(name)) << name;
}

// Perfetto drops slices that overlap on a track without nesting: every track's slices nest or
// are disjoint.
TEST(Timeline, SlicesOfATrackNestOrAreDisjoint) {
  ScratchDir dir;
  const Result r = vgpuSim(dir, stride2Run(dir) + " --timeline " + shellQuote(dir.file("t.json")));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const Timeline t = readTimeline(dir.file("t.json"));
  std::map<std::pair<int, int>, std::vector<std::pair<int64_t, int64_t>>> byTrack;
  for (const json& s : t.slices)
    byTrack[{s["pid"], s["tid"]}].push_back({cycles(s["ts"]), cycles(s["ts"]) + cycles(s["dur"])});
  ASSERT_FALSE(byTrack.empty());
  for (auto& [track, spans] : byTrack) {
    std::sort(spans.begin(), spans.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first < b.first : a.second > b.second;
    });
    std::vector<int64_t> open;  // ends of the enclosing slices
    for (const auto& [from, to] : spans) {
      while (!open.empty() && open.back() <= from) open.pop_back();
      if (!open.empty()) {
        ASSERT_LE(to, open.back()) << t.threadName.at(track) << ": [" << from << ", " << to
                                   << ") overlaps an enclosing slice ending at " << open.back();
      }
      open.push_back(to);
    }
  }
}

// Every flow has one start and one finish, its points in time order, each inside a slice of
// its track; some flows go from a wave slot all the way to a DRAM channel.
TEST(Timeline, FlowsLinkTheirStartAndEndThroughSlices) {
  ScratchDir dir;
  const Result r = vgpuSim(dir, stride2Run(dir) + " --timeline " + shellQuote(dir.file("t.json")));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const Timeline t = readTimeline(dir.file("t.json"));
  std::map<std::pair<int, int>, std::vector<std::pair<int64_t, int64_t>>> byTrack;
  for (const json& s : t.slices)
    byTrack[{s["pid"], s["tid"]}].push_back({cycles(s["ts"]), cycles(s["ts"]) + cycles(s["dur"])});
  ASSERT_GT(t.flows.size(), 10u);
  int toDram = 0;
  for (const auto& [id, points] : t.flows) {
    ASSERT_GE(points.size(), 2u);
    EXPECT_EQ(points.front()["ph"], "s") << "flow " << id;
    EXPECT_EQ(points.back()["ph"], "f") << "flow " << id;
    EXPECT_EQ(points.back()["bp"], "e");
    for (size_t i = 1; i + 1 < points.size(); ++i) EXPECT_EQ(points[i]["ph"], "t");
    for (size_t i = 1; i < points.size(); ++i)
      EXPECT_GE(cycles(points[i]["ts"]), cycles(points[i - 1]["ts"]));
    for (const json& p : points) {
      const auto& spans = byTrack[{p["pid"], p["tid"]}];
      const int64_t ts = cycles(p["ts"]);
      EXPECT_TRUE(std::any_of(spans.begin(), spans.end(),
                              [&](const auto& s) { return s.first <= ts && ts <= s.second; }))
          << "flow " << id << " point at " << ts << " is in no slice of its track";
    }
    const std::string first = t.processName.at(points.front()["pid"]);
    const std::string last = t.processName.at(points.back()["pid"]);
    if (first.rfind("gpu.cu", 0) == 0 && last == "gpu.dram") ++toDram;
  }
  EXPECT_GT(toDram, 0) << "no flow goes from a compute unit to DRAM";
}

TEST(Timeline, WindowAndScopeFilter) {
  ScratchDir dir;
  const Result whole = vgpuSim(dir, stride2Run(dir));
  ASSERT_EQ(whole.exitCode, 0) << whole.err;
  const int64_t start = whole.stats["start_cycle"].get<int64_t>() + 100, end = start + 300;
  const Result r = vgpuSim(dir, stride2Run(dir) + " --timeline " + shellQuote(dir.file("t.json")) +
                                    " --timeline-window " + std::to_string(start) + ":" +
                                    std::to_string(end) + " --timeline-scope cu0");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const Timeline t = readTimeline(dir.file("t.json"));
  ASSERT_FALSE(t.slices.empty());
  for (const auto& [pid, name] : t.processName) EXPECT_EQ(name, "gpu.cu0");
  for (const json& s : t.slices) {
    EXPECT_LE(cycles(s["ts"]), end);
    EXPECT_GE(cycles(s["ts"]) + cycles(s["dur"]), start);
  }
}

TEST(Timeline, KernelRelativeWindowIsTheAbsoluteOneFromTheKernelStart) {
  ScratchDir dir;
  const Result whole = vgpuSim(dir, stride2Run(dir));
  ASSERT_EQ(whole.exitCode, 0) << whole.err;
  const uint64_t start = whole.stats["dispatches"][0]["start_cycle"].get<uint64_t>();
  const Result relative =
      vgpuSim(dir, stride2Run(dir) + " --timeline " + shellQuote(dir.file("k.json")) +
                       " --timeline-window kernel+100:400");
  ASSERT_EQ(relative.exitCode, 0) << relative.err;
  const Result absolute =
      vgpuSim(dir, stride2Run(dir) + " --timeline " + shellQuote(dir.file("a.json")) +
                       " --timeline-window " + std::to_string(start + 100) + ":" +
                       std::to_string(start + 400));
  ASSERT_EQ(absolute.exitCode, 0) << absolute.err;
  const Timeline t = readTimeline(dir.file("k.json"));
  ASSERT_FALSE(t.slices.empty());
  EXPECT_EQ(slurp(dir.file("k.json")), slurp(dir.file("a.json")));
}

// A window that keeps nothing says so, with the cycles the kernel ran in.
TEST(Tracing, EmptyWindowIsAWarningNamingTheKernelCycles) {
  ScratchDir dir;
  const Result r = vgpuSim(dir, stride2Run(dir) + " --vcd " + shellQuote(dir.file("w.vcd")) +
                                    " --vcd-window 1000000000:1000000100 --timeline " +
                                    shellQuote(dir.file("t.json")) +
                                    " --timeline-window kernel+5000000:5000100");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const uint64_t start = r.stats["dispatches"][0]["start_cycle"].get<uint64_t>();
  const uint64_t end = r.stats["dispatches"][0]["end_cycle"].get<uint64_t>();
  const std::string ran =
      "the kernel ran in GPU cycles " + std::to_string(start) + ".." + std::to_string(end);
  EXPECT_NE(r.err.find("warning: --vcd-window 1000000000:1000000100 kept no value change: " + ran),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("warning: --timeline-window kernel+5000000:5000100 (GPU cycles " +
                       std::to_string(start + 5000000) + ".." + std::to_string(start + 5000100) +
                       ") kept no slice: " + ran),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(readTimeline(dir.file("t.json")).slices.empty());
  // Within the kernel: no warning.
  const Result inside =
      vgpuSim(dir, stride2Run(dir) + " --vcd " + shellQuote(dir.file("w.vcd")) + " --vcd-window " +
                       std::to_string(start) + ":" + std::to_string(end));
  ASSERT_EQ(inside.exitCode, 0) << inside.err;
  EXPECT_EQ(inside.err.find("warning"), std::string::npos) << inside.err;
}

// ---- Tracing is an observer ---------------------------------------------------------------------

TEST(Tracing, ChangesNoResultAndIsDeterministic) {
  ScratchDir dir;
  const Result plain = vgpuSim(dir, stride2Run(dir));
  ASSERT_EQ(plain.exitCode, 0) << plain.err;
  std::string files[2][2];
  json stats[2];
  for (int run = 0; run < 2; ++run) {
    const std::string vcd = dir.file("r" + std::to_string(run) + ".vcd");
    const std::string timeline = dir.file("r" + std::to_string(run) + ".json");
    const Result r = vgpuSim(
        dir, stride2Run(dir) + " --vcd " + shellQuote(vcd) + " --timeline " + shellQuote(timeline));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    files[run][0] = slurp(vcd);
    files[run][1] = slurp(timeline);
    stats[run] = r.stats;
  }
  EXPECT_EQ(stats[0]["cycles"], plain.stats["cycles"]);
  EXPECT_EQ(stats[0]["counters"], plain.stats["counters"]);
  EXPECT_TRUE(files[0][0] == files[1][0]) << "the VCD differs between two identical runs";
  EXPECT_TRUE(files[0][1] == files[1][1]) << "the timeline differs between two identical runs";
}

// The save files name only signals the VCD has (GTKWave drops unknown ones silently).
TEST(Tracing, GtkwaveSaveFilesNameSignalsOfTheVcd) {
  ScratchDir dir;
  const Result r = vgpuSim(dir, stride2Run(dir) + " --vcd " + shellQuote(dir.file("a.vcd")));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const Vcd v = readVcd(dir.file("a.vcd"));
  for (const char* file : {"overview.gtkw", "cu.gtkw", "memory.gtkw"}) {
    std::ifstream in(std::string(VGPU_SOURCE_DIR) + "/waveforms/" + file);
    ASSERT_TRUE(in) << file;
    std::string line;
    int signals = 0;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '[' || line[0] == '*' || line[0] == '@' || line[0] == '-')
        continue;
      ++signals;
      EXPECT_TRUE(v.idOf.count(line)) << file << " shows " << line << ", which the VCD lacks";
    }
    EXPECT_GT(signals, 5) << file;
  }
}

}  // namespace
