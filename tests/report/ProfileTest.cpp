// The per-instruction profile (--profile-instructions N) on profile_loop.s, a kernel whose
// hottest instructions are known by construction: its four-instruction loop runs `count` times
// per wave, everything else once. Offsets and disassembly are checked against llvm-objdump-15
// of the same code object; issue counts against the launch shape.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "CliRunner.h"
#include "StatsJson.h"

namespace vgpu {
namespace {

using nlohmann::json;
using test::runShell;
using test::ScratchDir;
using test::shellQuote;
using test::SimResult;
using test::slurp;

constexpr uint32_t kWaves = 4;     // --grid 256 --block 64: one wave per workgroup
constexpr uint32_t kCount = 100;   // loop trips per wave
constexpr uint32_t kLoopBody = 4;  // v_add_u32, s_add_i32, s_cmp_lg_u32, s_cbranch_scc1

struct ObjdumpLine {
  std::string text;  // the instruction with its operands, spaces collapsed
  int32_t branchWords = 0;
  bool isBranch = false;
};

std::string collapseSpaces(const std::string& s) {
  std::string out;
  for (char c : s)
    if (c != ' ' || (!out.empty() && out.back() != ' ')) out += c;
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// llvm-objdump-15's disassembly of the kernel: offset -> instruction.
std::map<uint64_t, ObjdumpLine> objdump(const ScratchDir& dir) {
  const SimResult r = runShell(
      std::string(VGPU_LLVM_OBJDUMP) + " -d --mcpu=gfx906 " + shellQuote(VGPU_PROFILE_KERNEL), dir,
      "objdump");
  EXPECT_EQ(r.exitCode, 0) << r.err;
  std::map<uint64_t, ObjdumpLine> lines;
  const std::regex line(R"(^\s+(\S.*?)\s+// ([0-9A-F]+): [0-9A-F ]+(<.*>)?$)");
  std::istringstream in(r.out);
  for (std::string l; std::getline(in, l);) {
    std::smatch m;
    if (!std::regex_match(l, m, line)) continue;
    ObjdumpLine o;
    o.text = collapseSpaces(m[1]);
    std::smatch b;
    if (std::regex_match(o.text, b, std::regex(R"(s_cbranch_scc1 (\d+))"))) {
      o.isBranch = true;
      o.branchWords = static_cast<int16_t>(std::stoul(b[1]));  // SIMM16, in dwords
    }
    lines[std::stoull(m[2], nullptr, 16)] = o;
  }
  return lines;
}

struct LoopRun {
  SimResult result;
  json stats;
  std::vector<uint32_t> out;
};

// profile_loop on the 1-CU platform over out[i] = 3 * i, with `options` added.
LoopRun runLoop(const ScratchDir& dir, const std::string& options) {
  std::vector<uint32_t> in(kWaves * 64);
  for (uint32_t i = 0; i < in.size(); ++i) in[i] = 3 * i;
  test::writeBytes(dir.file("in.bin"), in);
  LoopRun run;
  run.result =
      runShell(shellQuote(VGPU_SIM_PATH) + " run " + shellQuote(VGPU_PROFILE_KERNEL) +
                   " profile_loop --grid " + std::to_string(kWaves * 64) +
                   " --block 64 --platform tiny --arg " +
                   shellQuote("file:" + dir.file("in.bin") + ",out=" + dir.file("out.bin")) +
                   " --arg u32:" + std::to_string(kCount) + " " + options,
               dir);
  const std::string stats = dir.file("s.json");
  if (options.find(stats) != std::string::npos && run.result.exitCode == 0)
    run.stats = json::parse(slurp(stats));
  const std::string bytes = slurp(dir.file("out.bin"));
  run.out.resize(bytes.size() / 4);
  // A refused run writes no output (memcpy's pointers must not be null, even for 0 bytes).
  if (!run.out.empty()) std::memcpy(run.out.data(), bytes.data(), run.out.size() * 4);
  return run;
}

using test::sumCounters;

TEST(Profile, HottestInstructionsAreTheLoopBodyAsObjdumpPrintsThem) {
  ScratchDir dir;
  const std::map<uint64_t, ObjdumpLine> code = objdump(dir);
  ASSERT_FALSE(code.empty());
  // The loop body: from the backward branch's target (PC + 4 + 4 x SIMM16) to the branch.
  std::set<uint64_t> body;
  uint64_t waitVm = 0, waitLgkm = 0;
  for (const auto& [offset, line] : code) {
    if (line.isBranch)
      for (const auto& [o, l] : code)
        if (int64_t(o) >= int64_t(offset) + 4 + 4 * line.branchWords && o <= offset) body.insert(o);
    if (line.text == "s_waitcnt vmcnt(0)") waitVm = offset;
    if (line.text == "s_waitcnt lgkmcnt(0)") waitLgkm = offset;
  }
  ASSERT_EQ(body.size(), kLoopBody);
  ASSERT_NE(waitVm, 0u);
  ASSERT_NE(waitLgkm, 0u);

  const LoopRun run =
      runLoop(dir, "--profile-instructions 50 --stats " + shellQuote(dir.file("s.json")));
  ASSERT_EQ(run.result.exitCode, 0) << run.result.err;
  ASSERT_EQ(run.out.size(), kWaves * 64u);
  for (uint32_t i = 0; i < run.out.size(); ++i)
    ASSERT_EQ(run.out[i], 3 * i + kCount * (i % 64)) << i;

  const json& p = run.stats["instruction_profile"];
  ASSERT_TRUE(p.is_object()) << run.stats.dump(1);
  EXPECT_EQ(p["addresses"], code.size()) << "every instruction issued";
  ASSERT_EQ(p["list"].size(), code.size()) << "fewer than 50: all are listed";
  const uint64_t expectedTotal =
      uint64_t{kWaves} * ((code.size() - kLoopBody) + uint64_t{kLoopBody} * kCount);
  EXPECT_EQ(p["wave_instructions"], expectedTotal);
  std::set<uint64_t> hottest;
  std::map<std::string, uint64_t> columnSums;
  for (size_t i = 0; i < p["list"].size(); ++i) {
    const json& e = p["list"][i];
    const uint64_t offset = e["offset"];
    ASSERT_EQ(code.count(offset), 1u) << "no instruction at offset " << offset;
    EXPECT_EQ(collapseSpaces(e["instruction"]), code.at(offset).text) << "offset " << offset;
    EXPECT_EQ(e["kernel"], "profile_loop");
    if (i < kLoopBody) {
      hottest.insert(offset);
      EXPECT_EQ(e["issued"], uint64_t{kWaves} * kCount) << e.dump();
    } else {
      EXPECT_EQ(e["issued"], kWaves) << e.dump();
    }
    for (const auto& [reason, cycles] : e["stall_cycles"].items())
      columnSums[reason] += cycles.get<uint64_t>();
    // Only the s_waitcnt instructions wait for their counters.
    EXPECT_EQ(e["stall_cycles"]["waitcnt_vm"].get<uint64_t>() > 0, offset == waitVm) << e.dump();
    EXPECT_EQ(e["stall_cycles"]["waitcnt_lgkm"].get<uint64_t>() > 0, offset == waitLgkm)
        << e.dump();
  }
  EXPECT_EQ(hottest, body);
  // Each column adds up to the compute units' stall counters.
  for (const char* reason :
       {"waitcnt_vm", "waitcnt_lgkm", "barrier", "fetch", "issue_conflict", "valu_busy"})
    EXPECT_EQ(columnSums[reason],
              sumCounters(run.stats, std::string(".stall_") + reason + "_cycles"))
        << reason;
}

TEST(Profile, KeepsTheNRowsAndCountsAlikeInFunctionalMode) {
  ScratchDir dir;
  const LoopRun timing =
      runLoop(dir, "--profile-instructions 50 --stats " + shellQuote(dir.file("s.json")));
  ASSERT_EQ(timing.result.exitCode, 0) << timing.result.err;
  const LoopRun functional = runLoop(
      dir, "--mode functional --profile-instructions 3 --stats " + shellQuote(dir.file("s.json")));
  ASSERT_EQ(functional.result.exitCode, 0) << functional.result.err;
  // Stalls (timing only) order ties differently; the counts per instruction are the same.
  std::map<uint64_t, uint64_t> issuedInTiming;
  for (const json& e : timing.stats["instruction_profile"]["list"])
    issuedInTiming[e["offset"]] = e["issued"];
  const json& f = functional.stats["instruction_profile"]["list"];
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(functional.stats["instruction_profile"]["rows"], 3);
  EXPECT_EQ(functional.stats["instruction_profile"]["addresses"], issuedInTiming.size());
  for (const json& e : f) {
    EXPECT_EQ(e["issued"], issuedInTiming[e["offset"]]) << e.dump();
    EXPECT_EQ(e["issued"], uint64_t{kWaves} * kCount) << "the loop body: " << e.dump();
    EXPECT_EQ(e["stalled"], 0) << "functional mode has no pipeline timing: " << e.dump();
  }
}

// Asked for only: off by default, and on it changes nothing else.
TEST(Profile, OffByDefaultAndChangesNoResult) {
  ScratchDir dir;
  const LoopRun plain = runLoop(dir, "--stats " + shellQuote(dir.file("s.json")));
  ASSERT_EQ(plain.result.exitCode, 0) << plain.result.err;
  EXPECT_FALSE(plain.stats.contains("instruction_profile"));
  const LoopRun profiled =
      runLoop(dir, "--profile-instructions 5 --stats " + shellQuote(dir.file("s.json")));
  ASSERT_EQ(profiled.result.exitCode, 0) << profiled.result.err;
  json a = plain.stats, b = profiled.stats;
  a.erase("host_seconds");
  b.erase("host_seconds");
  b.erase("instruction_profile");
  EXPECT_EQ(a, b);
  EXPECT_EQ(plain.out, profiled.out);
}

TEST(Profile, NeedsSomewhereToGoAndANumber) {
  ScratchDir dir;
  LoopRun r = runLoop(dir, "--profile-instructions 5");
  EXPECT_EQ(r.result.exitCode, 2);
  EXPECT_NE(r.result.err.find("--profile-instructions needs --stats FILE or --report FILE"),
            std::string::npos)
      << r.result.err;
  r = runLoop(dir, "--profile-instructions many --stats " + shellQuote(dir.file("s.json")));
  EXPECT_EQ(r.result.exitCode, 2);
  EXPECT_NE(r.result.err.find("--profile-instructions: 'many' is not a non-negative integer"),
            std::string::npos)
      << r.result.err;
}

TEST(Report, ShowsTheHottestInstructionsTable) {
  ScratchDir dir;
  const std::map<uint64_t, ObjdumpLine> code = objdump(dir);
  const LoopRun run =
      runLoop(dir, "--quiet --profile-instructions 6 --report " + shellQuote(dir.file("r.html")) +
                       " --stats " + shellQuote(dir.file("s.json")));
  ASSERT_EQ(run.result.exitCode, 0) << run.result.err;
  const std::string html = slurp(dir.file("r.html"));
  const size_t table = html.find("<table id=\"table-instructions\"");
  ASSERT_NE(table, std::string::npos);
  EXPECT_NE(html.find("<h2>Hottest instructions</h2>"), std::string::npos);
  const std::string rows = html.substr(table, html.find("</table>", table) - table);
  // One header row and six instruction rows, the hottest first, as the statistics list them.
  size_t count = 0;
  for (size_t at = rows.find("<tr>"); at != std::string::npos; at = rows.find("<tr>", at + 1))
    ++count;
  EXPECT_EQ(count, 7u) << rows;
  const json& first = run.stats["instruction_profile"]["list"][0];
  char offset[32];
  std::snprintf(offset, sizeof offset, "0x%llx",
                static_cast<unsigned long long>(first["offset"].get<uint64_t>()));
  const std::string row = std::string("<tr><td>") + offset +
                          "</td><td class=\"text\">profile_loop</td>" + "<td class=\"code\">" +
                          code.at(first["offset"]).text + "</td><td>" +
                          std::to_string(kWaves * kCount) + "</td>";
  EXPECT_NE(rows.find(row), std::string::npos) << row << "\nin\n" << rows;
}

}  // namespace
}  // namespace vgpu
