// Kernels that fault or hang must stop cleanly through vgpu-sim: exit code 3, one message that
// names the kernel, the wave and workgroup, the PC, the encoding and its disassembly, and the
// statistics gathered up to the fault still written. Hangs (a barrier the rest of the workgroup
// never reaches, a wait longer than the watchdog, a runaway loop) list every wave's state.
// Also: output paths that cannot be written are refused before anything runs, and a killed run
// leaves no output behind. The kernels are tests/reliability/fault_kernels*.s.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <regex>

#include "CliRunner.h"

namespace vgpu::test {
namespace {

struct FaultCase {
  std::string name;        // test name
  std::string codeObject;  // path
  std::string kernel;
  std::string options;                // extra vgpu-sim options
  std::vector<std::string> messages;  // each must appear in stderr
  friend void PrintTo(const FaultCase& c, std::ostream* os) { *os << c.name; }
};

// One fault message (the run summary may come before it), starting a line.
void expectOneFaultMessage(const std::string& err, const std::string& kernel) {
  const std::string head = "vgpu-sim: kernel '" + kernel + "' faulted: ";
  const size_t at = err.find(head);
  ASSERT_NE(at, std::string::npos) << err;
  EXPECT_TRUE(at == 0 || err[at - 1] == '\n') << err;
  EXPECT_EQ(err.find("vgpu-sim: ", at + 1), std::string::npos) << "more than one message: " << err;
}

// The faulted dispatch is in the statistics (it once was not: the runtime ended the simulation
// before the command processor recorded it, and `cycles` read 0), ending at the cycle the
// report names, and `cycles` counts from its start to there.
void expectFaultedDispatchRecorded(const std::string& err, const std::string& stats) {
  std::smatch at, end, start, cycles;
  ASSERT_TRUE(std::regex_search(err, at, std::regex(", cycle ([0-9]+)\n  PC "))) << err;
  ASSERT_TRUE(std::regex_search(stats, end, std::regex("\"end_cycle\": ([0-9]+)"))) << stats;
  ASSERT_TRUE(std::regex_search(stats, start, std::regex("\"start_cycle\": ([0-9]+)")));
  ASSERT_TRUE(std::regex_search(stats, cycles, std::regex("\"cycles\": ([0-9]+)")));
  EXPECT_EQ(end[1], at[1]) << stats;
  EXPECT_EQ(std::stoull(cycles[1]), std::stoull(end[1]) - std::stoull(start[1])) << stats;
  EXPECT_GT(std::stoull(cycles[1]), 0u) << stats;
}

std::string run(const FaultCase& c, const ScratchDir& dir, const std::string& launch) {
  return "run " + shellQuote(c.codeObject) + " " + c.kernel + " " + launch +
         " --arg zeros:4096 --stats " + shellQuote(dir.file("stats.json")) + " " + c.options;
}

class KernelFaults : public ::testing::TestWithParam<FaultCase> {};

TEST_P(KernelFaults, StopCleanlyWithTheFullReport) {
  const FaultCase& c = GetParam();
  ScratchDir dir;
  const SimResult r = runVgpuSim(run(c, dir, "--grid 64 --block 64 --platform tiny"), dir);
  recordForReport("exit " + std::to_string(r.exitCode) + "\n" + r.err);
  EXPECT_EQ(r.exitCode, 3) << r.err;
  expectOneFaultMessage(r.err, c.kernel);
  for (const std::string& part : {std::string("wave 0 of workgroup (0,0,0) on CU 0"),
                                  std::string("\n  PC 0x"), std::string(", encoding ")})
    EXPECT_NE(r.err.find(part), std::string::npos) << "missing '" << part << "' in: " << r.err;
  for (const std::string& part : c.messages)
    EXPECT_NE(r.err.find(part), std::string::npos) << "missing '" << part << "' in: " << r.err;
  EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;

  // Statistics up to the fault: the instructions before the faulting one were counted.
  const std::string stats = slurp(dir.file("stats.json"));
  ASSERT_FALSE(stats.empty()) << "--stats not written for a faulted kernel";
  EXPECT_NE(stats.find("\"faulted\": true"), std::string::npos) << stats;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(stats, m, std::regex("\"wave_instructions\": ([0-9]+)")));
  EXPECT_GE(std::stoull(m[1]), 1u) << stats;
  expectFaultedDispatchRecorded(r.err, stats);
}

const std::string kFaults = VGPU_FAULT_KERNELS;
const std::string kFaultsGfx900 = VGPU_FAULT_KERNELS_GFX900;

INSTANTIATE_TEST_SUITE_P(
    Kinds, KernelFaults,
    ::testing::Values(FaultCase{"illegal_encoding",
                                kFaults,
                                "illegal_encoding",
                                "",
                                {"illegal or unknown instruction encoding", "encoding BE80FF00",
                                 ".long 0xbe80ff00"}},
                      FaultCase{"unsupported_on_target",
                                kFaultsGfx900,
                                "gfx906_only_on_gfx900",
                                "--platform vega10",
                                {"v_dot2_f32_f16 is a gfx906 instruction, not supported on gfx900",
                                 // gfx900 has no such instruction: its disassembly is the raw word,
                                 // as llvm-objdump-15 --mcpu=gfx900 prints it.
                                 "encoding D3A34001: .long 0xd3a34001"}},
                      FaultCase{"memory_violation",
                                kFaults,
                                "memory_violation",
                                "",
                                {"memory violation: access to 0x10, which is outside device memory "
                                 "and outside every system memory the platform answers for",
                                 "global_store_dword v[4:5], v0, off"}},
                      FaultCase{"misaligned_atomic",
                                kFaults,
                                "misaligned_buffer_atomic",
                                "",
                                {"misaligned", "atomics must be aligned to their data size",
                                 "buffer_atomic_add v2, v1, s[4:7], 0 offen"}},
                      FaultCase{
                          "misaligned_global_atomic",
                          kFaults,
                          "misaligned_global_atomic",
                          "",
                          {"MEMVIOL: misaligned global access: lane 0 address",
                           "is not 8-byte aligned (atomics must be aligned to their data size",
                           "global_atomic_add_x2 v[4:5], v[2:3], off offset:4"}},
                      FaultCase{"trap_without_handler",
                                kFaults,
                                "trap_without_handler",
                                "",
                                {"s_trap 2 with no trap handler installed", ": s_trap 2"}}),
    [](const ::testing::TestParamInfo<FaultCase>& info) { return info.param.name; });

// Functional mode completes plain accesses at issue (ExecContext::directMemory) and leaves
// what it cannot map to the memory side: every fault reads as in timing mode, but for the cycle
// it happened at. store_past_allocation's lanes start inside the argument buffer and run past
// every allocation.
TEST(FunctionalMode, FaultsReadAsInTimingMode) {
  for (const char* kernel :
       {"memory_violation", "store_past_allocation", "misaligned_buffer_atomic",
        "misaligned_global_atomic", "illegal_encoding", "trap_without_handler"}) {
    SCOPED_TRACE(kernel);
    std::string message[2];
    for (int functional = 0; functional < 2; ++functional) {
      ScratchDir dir;
      const FaultCase c{kernel, kFaults, kernel, functional ? "--mode functional" : "", {}};
      const SimResult r = runVgpuSim(run(c, dir, "--grid 64 --block 64 --platform tiny"), dir);
      EXPECT_EQ(r.exitCode, 3) << r.err;
      expectOneFaultMessage(r.err, kernel);
      const size_t at = r.err.find("vgpu-sim: kernel '");
      ASSERT_NE(at, std::string::npos) << r.err;
      message[functional] =
          std::regex_replace(r.err.substr(at), std::regex(", cycle [0-9]+"), ", cycle N");
    }
    EXPECT_EQ(message[1], message[0]);
    EXPECT_NE(message[0].find("\n  PC 0x"), std::string::npos) << message[0];
    if (std::string(kernel) == "store_past_allocation") {
      EXPECT_NE(message[0].find("memory violation: access to 0x"), std::string::npos) << message[0];
    }
  }
}

// Hangs: two waves of one workgroup (128 work-items) unless the case says otherwise.
class KernelHangs : public ::testing::TestWithParam<FaultCase> {};

TEST_P(KernelHangs, ReportedWithEveryWave) {
  const FaultCase& c = GetParam();
  ScratchDir dir;
  const auto start = std::chrono::steady_clock::now();
  const SimResult r = runVgpuSim(run(c, dir, "--grid 128 --block 128 --platform tiny"), dir);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  recordForReport("exit " + std::to_string(r.exitCode) + "\n" + r.err);
  EXPECT_EQ(r.exitCode, 3) << r.err;
  expectOneFaultMessage(r.err, c.kernel);
  for (const std::string& part : c.messages)
    EXPECT_NE(r.err.find(part), std::string::npos) << "missing '" << part << "' in: " << r.err;
  // Every wave of the compute unit, each with its PC and instruction.
  EXPECT_NE(r.err.find("waves on CU 0 at cycle "), std::string::npos) << r.err;
  for (const char* wave : {"\n    wave 0 of workgroup (0,0,0) on CU 0 (SIMD 0, slot 0): PC 0x",
                           "\n    wave 1 of workgroup (0,0,0) on CU 0 (SIMD 1, slot 10): PC 0x"})
    EXPECT_NE(r.err.find(wave), std::string::npos) << "missing '" << wave << "' in: " << r.err;
  EXPECT_NE(r.err.find(", encoding "), std::string::npos) << r.err;
  const std::string stats = slurp(dir.file("stats.json"));
  EXPECT_NE(stats.find("\"faulted\": true"), std::string::npos) << stats;
  expectFaultedDispatchRecorded(r.err, stats);
  // The default watchdog must fire in reasonable time, not leave the user waiting.
  EXPECT_LT(seconds, 60.0);
}

INSTANTIATE_TEST_SUITE_P(
    Kinds, KernelHangs,
    ::testing::Values(
        FaultCase{"barrier_never_reached",
                  kFaults,
                  "barrier_never_reached",
                  "--watchdog-cycles 20000",
                  {"deadlock: no forward progress for 20000 cycles (--watchdog-cycles): a wave has "
                   "waited at a barrier that the rest of its workgroup does not reach",
                   ": s_barrier\n", "s_barrier: waits at the barrier since cycle ",
                   "(1 of 2 waves arrived, 0 ended)"}},
        FaultCase{"barrier_never_reached_default_watchdog",
                  kFaults,
                  "barrier_never_reached",
                  "",
                  {"deadlock: no forward progress for 10000000 cycles (--watchdog-cycles)",
                   "(1 of 2 waves arrived, 0 ended)"}},
        // Wave 0 stores for about 16,000 cycles before it spins: the wait at the barrier,
        // longer than 2,000 cycles from its start, counts only from the last store.
        FaultCase{"barrier_after_stores_then_spin",
                  kFaults,
                  "barrier_after_stores_then_spin",
                  "--watchdog-cycles 2000",
                  {"deadlock: no forward progress for 2000 cycles (--watchdog-cycles): a wave has "
                   "waited at a barrier that the rest of its workgroup does not reach since cycle ",
                   ", and no wave has changed memory (a store, or an atomic that left a "
                   "different value) since cycle ",
                   "(1 of 2 waves arrived, 0 ended)"}},
        // A spin lock whose holder waits at a barrier: the other wave's compare-and-swaps keep
        // failing and change no memory, so its workgroup's barrier is reported. (Counting every
        // atomic as progress left both modes' timing runs to the cycle limit, and functional
        // mode judged at-issue accesses by the previous request's kind.) The cycle limit is a
        // safety net: reaching it fails the case with another message.
        FaultCase{"spin_lock_holder_at_barrier",
                  kFaults,
                  "spin_lock_holder_at_barrier",
                  "--watchdog-cycles 20000 --max-cycles 3000000",
                  {"deadlock: no forward progress for 20000 cycles (--watchdog-cycles): a wave has "
                   "waited at a barrier that the rest of its workgroup does not reach",
                   "(1 of 2 waves arrived, 0 ended)"}},
        FaultCase{"spin_lock_holder_at_barrier_functional",
                  kFaults,
                  "spin_lock_holder_at_barrier",
                  "--mode functional --watchdog-cycles 20000 --max-cycles 3000000",
                  {"deadlock: no forward progress for 20000 cycles (--watchdog-cycles): a wave has "
                   "waited at a barrier that the rest of its workgroup does not reach",
                   "(1 of 2 waves arrived, 0 ended)"}},
        FaultCase{"lds_spin_lock_holder_at_barrier",
                  kFaults,
                  "lds_spin_lock_holder_at_barrier",
                  "--watchdog-cycles 20000 --max-cycles 3000000",
                  {"deadlock: no forward progress for 20000 cycles (--watchdog-cycles): a wave has "
                   "waited at a barrier that the rest of its workgroup does not reach",
                   "(1 of 2 waves arrived, 0 ended)"}},
        FaultCase{"lds_spin_lock_holder_at_barrier_functional",
                  kFaults,
                  "lds_spin_lock_holder_at_barrier",
                  "--mode functional --watchdog-cycles 20000 --max-cycles 3000000",
                  {"deadlock: no forward progress for 20000 cycles (--watchdog-cycles): a wave has "
                   "waited at a barrier that the rest of its workgroup does not reach",
                   "(1 of 2 waves arrived, 0 ended)"}},
        FaultCase{"waitcnt_longer_than_watchdog",
                  kFaults,
                  "waitcnt_on_load",
                  "--watchdog-cycles 20",
                  {"deadlock: no forward progress for 20 cycles (--watchdog-cycles): a wave has "
                   "waited for memory counters that have not come down",
                   // The first wait, for the kernel-argument load, already outlasts 20 cycles.
                   "s_waitcnt lgkmcnt(0): waits in s_waitcnt since cycle ",
                   "lgkmcnt <= 0 (outstanding 1)"}},
        FaultCase{"runaway_loop",
                  kFaults,
                  "runaway_loop",
                  "--max-cycles 20000",
                  {"the kernel ran past the cycle limit (20000 cycles, --max-cycles); a runaway "
                   "loop?",
                   "ready to issue"}}),
    [](const ::testing::TestParamInfo<FaultCase>& info) { return info.param.name; });

// Not a hang: wave 1's 64 lanes each add 1 to one dword by compare-and-swap retry loops (64
// rounds, about 42,000 cycles in timing mode and 460 in functional mode), while wave 0 waits at
// the barrier all along. Each round one compare-and-swap succeeds and changes memory, which is
// progress: with a watchdog far shorter than the loop (but longer than a round) the kernel
// completes, and the dword is 64 as 64 increments make it. Counting the wait from its start,
// or counting no atomic as progress, stops it as a deadlock.
TEST(Watchdog, CompareAndSwapRetryLoopsThatSucceedAreProgress) {
  for (const char* mode : {"timing", "functional"}) {
    SCOPED_TRACE(mode);
    const bool functional = std::string(mode) == "functional";
    ScratchDir dir;
    const SimResult r = runVgpuSim(
        "run " + shellQuote(kFaults) +
            " cas_retry_then_barrier --grid 128 --block 128 --platform tiny --quiet --mode " +
            mode + (functional ? " --watchdog-cycles 100" : " --watchdog-cycles 2000") + " --arg " +
            shellQuote("zeros:4096,out=" + dir.file("out.bin")),
        dir);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::string out = slurp(dir.file("out.bin"));
    ASSERT_EQ(out.size(), 4096u);
    uint32_t sum = 0;
    std::memcpy(&sum, out.data(), 4);
    EXPECT_EQ(sum, 64u);
  }
}

// The LDS range check of the hardware: a DS access outside the workgroup's allocation is
// discarded (writes dropped, reads return 0), never reaching another workgroup's LDS or the
// simulator's memory.
TEST(LdsRange, AccessBeyondTheAllocationIsDiscarded) {
  ScratchDir dir;
  const SimResult r =
      runVgpuSim("run " + shellQuote(kFaults) +
                     " lds_out_of_range --grid 64 --block 64 --platform tiny --quiet --arg " +
                     shellQuote("zeros:4096,out=" + dir.file("out.bin")),
                 dir);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const std::string out = slurp(dir.file("out.bin"));
  ASSERT_EQ(out.size(), 4096u);
  EXPECT_EQ(out.substr(0, 4), std::string(4, '\0')) << "the read beyond the allocation gave data";
}

// ---- nothing lost ---------------------------------------------------------------------------

std::vector<std::string> filesIn(const ScratchDir& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir.path())) {
    const std::string name = e.path().filename().string();
    if (name.find(".stdout") == std::string::npos && name.find(".stderr") == std::string::npos)
      names.push_back(name);
  }
  return names;
}

const std::string kVectorAdd = std::string(VGPU_KERNEL_DIR) + "/vector_add.co";

TEST(OutputFiles, MissingDirectoryIsRefusedBeforeRunning) {
  ScratchDir dir;
  const std::string missing = dir.file("no/such/dir");
  for (const auto& [option, outputs] : std::vector<std::pair<std::string, std::string>>{
           {"--stats", "--stats " + shellQuote(missing + "/stats.json") + " --arg " +
                           shellQuote("zeros:256,out=" + dir.file("c.bin"))},
           {"--arg 3 out=", "--stats " + shellQuote(dir.file("stats.json")) + " --arg " +
                                shellQuote("zeros:256,out=" + missing + "/c.bin")}}) {
    const SimResult r = runVgpuSim("run " + shellQuote(kVectorAdd) +
                                       " vector_add --grid 64 --block 64 --platform tiny"
                                       " --arg zeros:256 --arg zeros:256 " +
                                       outputs + " --arg i32:64",
                                   dir);
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_EQ(r.err, "vgpu-sim: " + option + " '" + missing +
                         (option == "--stats" ? "/stats.json" : "/c.bin") + "': directory '" +
                         missing + "/' does not exist\n");
    EXPECT_EQ(filesIn(dir), std::vector<std::string>{}) << "an output was written";
  }
}

// A run killed half-way leaves neither a result nor statistics that look complete.
TEST(OutputFiles, KilledRunLeavesNothingThatLooksComplete) {
  ScratchDir dir;
  // A loop that would run for minutes (the cycle limit only as a safety net), killed after 2 s.
  const std::string cmd = shellQuote(VGPU_SIM_PATH) + " run " + shellQuote(kFaults) +
                          " runaway_loop --grid 64 --block 64 --platform tiny --watchdog-cycles 0"
                          " --max-cycles 1000000000 --stats " +
                          shellQuote(dir.file("stats.json")) + " --arg " +
                          shellQuote("zeros:4096,out=" + dir.file("out.bin")) + " >" +
                          shellQuote(dir.file("sim.stdout")) + " 2>" +
                          shellQuote(dir.file("sim.stderr")) +
                          " & pid=$!; sleep 2; kill -KILL $pid; wait $pid; exit 0";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  EXPECT_EQ(slurp(dir.file("sim.stderr")), "") << "the run ended by itself before the kill";
  for (const std::string& name : filesIn(dir)) {
    EXPECT_NE(name, "stats.json");
    EXPECT_NE(name, "out.bin");
  }
}

}  // namespace
}  // namespace vgpu::test
