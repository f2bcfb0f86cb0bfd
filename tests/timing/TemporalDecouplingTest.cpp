// Temporal decoupling must not change what the model says a kernel costs. Compute units run
// ahead of SystemC time by up to one quantum (1000 cycles on the shipped platforms), so their
// requests reach the shared L2 and DRAM out of time order. With a quantum of one cycle the
// CUs run in lock step and requests arrive in time order: that run is the reference (the same
// timing rules without decoupling), and the shipped quantum must stay close to it.
//
// The kernel is the acceptance kernel private_array: every work-item writes a 64-entry private
// table to scratch and reads four entries back at data-dependent indices. On 16 CUs its scratch
// outgrows the 4 MiB L2, so the run is bound by DRAM: row conflicts, write-backs and reads from
// many CUs at once, the case where out-of-order arrivals at the DRAM banks matter most.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "CliRunner.h"

namespace vgpu {
namespace {

using test::runShell;
using test::ScratchDir;
using test::shellQuote;

struct Outcome {
  uint64_t cycles = 0;
  std::vector<char> out;
};

// vega20's figures with 16 CUs (a smaller run than 60) and the given quantum.
Outcome runPrivateArray(const ScratchDir& dir, int n, int quantum) {
  nlohmann::json platform;
  std::ifstream(VGPU_PLATFORM_FILE) >> platform;
  platform["compute_units"]["value"] = 16;
  platform["quantum"]["value"] = quantum;
  const std::string tag = "q" + std::to_string(quantum);
  std::ofstream(dir.file(tag + ".json")) << platform.dump();
  const test::SimResult r =
      runShell(shellQuote(VGPU_SIM_PATH) + " run " + shellQuote(VGPU_PRIVATE_ARRAY_KERNEL) +
                   " private_array --grid " + std::to_string(n) + " --block 256 --platform " +
                   shellQuote(dir.file(tag + ".json")) + " --arg " +
                   shellQuote("file:" + dir.file("index")) + " --arg " +
                   shellQuote("zeros:" + std::to_string(4 * n) + ",out=" + dir.file(tag + ".out")) +
                   " --arg i32:" + std::to_string(n) + " --quiet --stats " +
                   shellQuote(dir.file(tag + ".stats.json")),
               dir, tag);
  EXPECT_EQ(r.exitCode, 0) << r.err;
  Outcome o;
  nlohmann::json stats;
  std::ifstream(dir.file(tag + ".stats.json")) >> stats;
  o.cycles = stats.value("cycles", uint64_t{0});
  std::ifstream f(dir.file(tag + ".out"), std::ios::binary);
  o.out.assign(std::istreambuf_iterator<char>(f), {});
  return o;
}

TEST(TemporalDecoupling, DramBoundKernelCyclesStayWithinFifteenPercentOfLockstep) {
  ScratchDir dir;
  constexpr int kN = 16384;  // 64 workgroups, 256 waves over 16 CUs
  {
    // Indices as the benchmark makes them: any 32-bit values (the kernel masks them).
    std::ofstream f(dir.file("index"), std::ios::binary);
    uint32_t x = 12345;
    for (int i = 0; i < kN; ++i) {
      x = x * 1103515245u + 12345u;
      f.write(reinterpret_cast<const char*>(&x), 4);
    }
  }
  const Outcome lockstep = runPrivateArray(dir, kN, 1);
  const Outcome decoupled = runPrivateArray(dir, kN, 1000);
  ASSERT_GT(lockstep.cycles, 0u);
  EXPECT_EQ(decoupled.out, lockstep.out) << "the quantum changed the results";
  // Before the DRAM banks took out-of-order requests into account, the decoupled run took
  // 2.1 times the lock-step cycles (38,660 against 18,320).
  EXPECT_NEAR(double(decoupled.cycles) / double(lockstep.cycles), 1.0, 0.15)
      << "lock step " << lockstep.cycles << " cycles, quantum 1000: " << decoupled.cycles;
}

}  // namespace
}  // namespace vgpu
