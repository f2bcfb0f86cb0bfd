// vgpu-sim as a user runs it: the acceptance kernels through `vgpu-sim run` with file:/zeros:
// buffers and ,out= results, which must be byte-identical to the runtime-API path; `list`,
// `disasm` and `platforms`; and every kind of bad input, which must give one clear message and
// exit code 2 (3 for a faulting kernel), never a crash.
#include <sys/wait.h>

#include <gtest/gtest.h>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "CliRunner.h"
#include "KernelCases.h"

namespace vgpu::test {
namespace {

namespace fs = std::filesystem;

std::string dims(const Dim3& d) {
  return std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z);
}

// The scratch directory of every CLI test: a parameterized test's name ("Case/param") once made
// it a subdirectory of a directory only it removed, and each run of the suite left hundreds of
// empty directories in the temporary directory.
TEST(ScratchDir, RemovesEverythingItMade) {
  const fs::path tmp = fs::temp_directory_path();
  const std::string prefix = "vgpu-test-" + std::to_string(::getpid()) + "-";
  auto ours = [&] {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(tmp)) {
      const std::string name = e.path().filename().string();
      if (name.rfind(prefix, 0) == 0) names.push_back(name);
    }
    return names;
  };
  ASSERT_TRUE(ours().empty());
  {
    ScratchDir dir("Case/param");
    std::ofstream(dir.file("f")) << "x";
    EXPECT_TRUE(fs::exists(dir.file("f")));
    EXPECT_EQ(ours().size(), 1u);
  }
  EXPECT_TRUE(ours().empty());
}

class CliRun : public ::testing::TestWithParam<std::string> {};

TEST_P(CliRun, OutputsIdenticalToRuntimeApi) {
  const KernelCase c = kernelCase(GetParam());
  ScratchDir dir;
  std::string args = "run " + shellQuote(kernelDir() + "/" + c.codeObject) + " " + c.kernel +
                     " --grid " + dims(c.launch.grid) + " --block " + dims(c.launch.block) +
                     " --platform tiny --quiet --stats " + shellQuote(dir.file("stats.json"));
  if (c.launch.globalOffset[0] || c.launch.globalOffset[1] || c.launch.globalOffset[2])
    args += " --global-offset " + std::to_string(c.launch.globalOffset[0]) + "," +
            std::to_string(c.launch.globalOffset[1]) + "," +
            std::to_string(c.launch.globalOffset[2]);
  for (size_t i = 0; i < c.args.size(); ++i) {
    const CaseArg& a = c.args[i];
    if (!a.isBuffer) {
      args += " --arg " + a.cliKind + ":" + a.cliValue;
      continue;
    }
    const std::string in = dir.file("in" + std::to_string(i));
    writeBytes(in, a.bytes);
    args += " --arg " + shellQuote("file:" + in + ",out=" + dir.file("out" + std::to_string(i)));
  }
  const SimResult r = runVgpuSim(args, dir);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out, "") << "--quiet prints nothing";

  const auto api = runThroughRuntime(c, "tiny");
  std::vector<std::vector<uint8_t>> cli(c.args.size());
  for (size_t i = 0; i < c.args.size(); ++i) {
    if (!c.args[i].isBuffer) continue;
    const std::string bytes = slurp(dir.file("out" + std::to_string(i)));
    cli[i].assign(bytes.begin(), bytes.end());
    EXPECT_EQ(cli[i], api[i]) << "buffer " << i << " differs between vgpu-sim and the runtime API";
  }
  EXPECT_EQ(checkAgainstReference(c, cli), "");

  const std::string stats = slurp(dir.file("stats.json"));
  for (const char* key : {"\"kernel\"", "\"platform\"", "\"cycles\"", "\"wave_instructions\"",
                          "\"workgroups\"", "\"waves\"", "\"host_seconds\""})
    EXPECT_NE(stats.find(key), std::string::npos) << key << " missing from --stats";
}

INSTANTIATE_TEST_SUITE_P(Kernels, CliRun,
                         ::testing::Values("vector_add", "saxpy", "block_reduce", "matmul_64",
                                           "histogram", "collatz_3d", "private_array",
                                           "offset_scale", "vector_add_v5"));

// Multi-dword scratch accesses of compiled code (scratch_store/load_dwordx4 of a private int4
// array, through FLAT_SCRATCH) give the CPU's results in timing mode, where they go through
// the texture path, and in functional mode, where they complete at issue.
TEST(Cli, FlatScratchVectorsMatchTheCpuInBothModes) {
  ScratchDir dir;
  const KernelCase c = kernelCase("private_vec4_flat_scratch");
  writeBytes(dir.file("index.bin"), c.args[0].bytes);
  for (const std::string mode : {"timing", "functional"}) {
    const std::string out = dir.file(mode + ".bin");
    const SimResult r =
        runVgpuSim("run " + shellQuote(kernelDir() + "/" + c.codeObject) + " " + c.kernel +
                       " --grid 320 --block 64 --platform tiny --quiet --mode " + mode + " --arg " +
                       shellQuote("file:" + dir.file("index.bin")) + " --arg " +
                       shellQuote("zeros:1200,out=" + out) + " --arg i32:300",
                   dir);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::string bytes = slurp(out);
    std::vector<std::vector<uint8_t>> results(c.args.size());
    results[1].assign(bytes.begin(), bytes.end());
    EXPECT_EQ(checkAgainstReference(c, results), "") << mode;
  }
}

TEST(Cli, PrintsSummaryWithoutQuiet) {
  ScratchDir dir;
  const SimResult r =
      runVgpuSim("run " + shellQuote(kernelDir() + "/vector_add.co") +
                     " vector_add --grid 128 --block 64 --platform tiny"
                     " --arg zeros:512 --arg zeros:512 --arg zeros:512 --arg i32:128",
                 dir);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("kernel vector_add on tiny"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("cycles"), std::string::npos);
}

TEST(Cli, ListShowsKernelsAndArguments) {
  ScratchDir dir;
  const SimResult r = runVgpuSim("list " + shellQuote(kernelDir() + "/saxpy.co"), dir);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("saxpy"), std::string::npos);
  EXPECT_NE(r.out.find("by_value"), std::string::npos);
  EXPECT_NE(r.out.find("global_buffer"), std::string::npos);
}

TEST(Cli, DisasmShowsTheKernel) {
  ScratchDir dir;
  const SimResult r =
      runVgpuSim("disasm " + shellQuote(kernelDir() + "/vector_add.co") + " vector_add", dir);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("<vector_add>:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("global_load_dword"), std::string::npos);
  EXPECT_NE(r.out.find("s_endpgm"), std::string::npos);
}

TEST(Cli, PlatformsListsBuiltIns) {
  ScratchDir dir;
  const SimResult r = runVgpuSim("platforms", dir);
  ASSERT_EQ(r.exitCode, 0);
  for (const char* p : {"tiny", "vega10", "vega20", "mi60"})
    EXPECT_NE(r.out.find(p), std::string::npos) << p;
}

TEST(Cli, PlatformFromJsonFile) {
  ScratchDir dir;
  std::ofstream(dir.file("two.json")) << R"({"name": "two", "processor": "gfx906",
      "compute_units": {"value": 2, "unit": "CUs", "source": "test"}, "clock": 1000})";
  const SimResult r = runVgpuSim(
      "run " + shellQuote(kernelDir() + "/vector_add.co") +
          " vector_add --grid 256 --block 64 --platform " + shellQuote(dir.file("two.json")) +
          " --arg zeros:1024 --arg zeros:1024 --arg zeros:1024 --arg i32:256",
      dir);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("on two"), std::string::npos) << r.out;
}

// Same inputs, same outputs and statistics (host time aside); and the functional results do not
// depend on the temporal-decoupling quantum (timing may). Runs a multi-CU atomics kernel, where
// an ordering bug would show first.
TEST(Cli, DeterministicAndIndependentOfTheQuantum) {
  ScratchDir dir;
  const KernelCase c = kernelCase("histogram");
  writeBytes(dir.file("data.bin"), c.args[0].bytes);
  for (int quantum : {1, 1000}) {
    std::ofstream(dir.file("q" + std::to_string(quantum) + ".json"))
        << R"({"name": "q", "processor": "gfx906", "compute_units": 8, "quantum": )" << quantum
        << "}";
  }
  auto run = [&](const std::string& tag, const std::string& platform) {
    const SimResult r = runVgpuSim(
        "run " + shellQuote(kernelDir() + "/histogram.co") + " histogram --grid 1536 --block 256" +
            " --platform " + shellQuote(platform) + " --quiet --stats " +
            shellQuote(dir.file(tag + ".json")) + " --arg " +
            shellQuote("file:" + dir.file("data.bin")) + " --arg " +
            shellQuote("zeros:1024,out=" + dir.file(tag + ".bin")) + " --arg i32:10000",
        dir);
    EXPECT_EQ(r.exitCode, 0) << r.err;
  };
  run("a", dir.file("q1000.json"));
  run("b", dir.file("q1000.json"));
  run("c", dir.file("q1.json"));
  EXPECT_EQ(slurp(dir.file("a.bin")), slurp(dir.file("b.bin")));
  EXPECT_EQ(slurp(dir.file("a.bin")), slurp(dir.file("c.bin")));
  auto withoutHostTime = [](std::string stats) {
    const size_t p = stats.find("\"host_seconds\"");
    return p == std::string::npos ? stats : stats.erase(p, stats.find('\n', p) - p);
  };
  const std::string a = withoutHostTime(slurp(dir.file("a.json")));
  EXPECT_NE(a.find("\"cycles\""), std::string::npos);
  EXPECT_EQ(a, withoutHostTime(slurp(dir.file("b.json"))));
}

// --mode functional runs the same instructions with unit latencies: same results, fewer cycles.
TEST(Cli, FunctionalModeGivesTheSameResults) {
  ScratchDir dir;
  const KernelCase c = kernelCase("matmul_64");
  writeBytes(dir.file("a.bin"), c.args[0].bytes);
  writeBytes(dir.file("b.bin"), c.args[1].bytes);
  auto run = [&](const std::string& mode) {
    const SimResult r =
        runVgpuSim("run " + shellQuote(kernelDir() + "/matmul_tiled.co") +
                       " matmul_tiled --grid 64,64 --block 16,16 --platform tiny --quiet" +
                       " --mode " + mode + " --stats " + shellQuote(dir.file(mode + ".json")) +
                       " --arg " + shellQuote("file:" + dir.file("a.bin")) + " --arg " +
                       shellQuote("file:" + dir.file("b.bin")) + " --arg " +
                       shellQuote("zeros:16384,out=" + dir.file(mode + ".bin")) + " --arg i32:64",
                   dir);
    EXPECT_EQ(r.exitCode, 0) << r.err;
  };
  run("timing");
  run("functional");
  EXPECT_EQ(slurp(dir.file("timing.bin")), slurp(dir.file("functional.bin")));
  auto cycles = [&](const std::string& mode) {
    const std::string s = slurp(dir.file(mode + ".json"));
    const size_t p = s.find("\"cycles\": ");
    return std::stoull(s.substr(p + 10));
  };
  EXPECT_LT(cycles("functional"), cycles("timing"));
}

// --perturb-latency SEED: the stencil whose LDS reads overlap under a partial lgkmcnt wait
// (issue 19) gives the same bytes under every seed and in functional mode; the seed changes the
// cycles, and the same seed gives the same cycles again.
TEST(Cli, PerturbedLatencyChangesCyclesNotResults) {
  ScratchDir dir;
  const KernelCase c = kernelCase("stencil2d_256");
  writeBytes(dir.file("in.bin"), c.args[0].bytes);
  auto run = [&](const std::string& name, const std::string& options) {
    const SimResult r =
        runVgpuSim("run " + shellQuote(kernelDir() + "/stencil2d.co") +
                       " stencil2d --grid 256,256 --block 16,16 --platform tiny --quiet " +
                       options + " --stats " + shellQuote(dir.file(name + ".json")) + " --arg " +
                       shellQuote("file:" + dir.file("in.bin")) + " --arg " +
                       shellQuote("zeros:262144,out=" + dir.file(name + ".bin")) +
                       " --arg i32:256 --arg i32:256 --arg f32:0.2",
                   dir);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    const std::string s = slurp(dir.file(name + ".json"));
    const size_t p = s.find("\"cycles\": ");
    return p == std::string::npos ? 0ull : std::stoull(s.substr(p + 10));
  };
  const uint64_t plain = run("plain", "");
  run("functional", "--mode functional");
  const uint64_t seed7 = run("seed7", "--perturb-latency 7");
  const uint64_t seed7Again = run("seed7again", "--perturb-latency 7");
  const uint64_t seed8 = run("seed8", "--perturb-latency 8");
  const std::string expected = slurp(dir.file("functional.bin"));
  ASSERT_EQ(expected.size(), 262144u);
  for (const char* name : {"plain", "seed7", "seed7again", "seed8"})
    EXPECT_EQ(slurp(dir.file(std::string(name) + ".bin")), expected) << name;
  EXPECT_NE(seed7, plain);
  EXPECT_NE(seed8, seed7);
  EXPECT_EQ(seed7, seed7Again);
}

// ---- --check-hazards: software-inserted wait states (Vega ISA guide 4.5, table 8)
// -----------------------

// The "hazards" object of a --stats file (brace-matched; the disassembly holds no braces).
std::string hazardsJson(const std::string& stats) {
  const size_t start = stats.find("\"hazards\": {");
  if (start == std::string::npos) return "";
  int depth = 0;
  for (size_t i = stats.find('{', start); i < stats.size(); ++i) {
    depth += stats[i] == '{' ? 1 : stats[i] == '}' ? -1 : 0;
    if (depth == 0) return stats.substr(start, i + 1 - start);
  }
  return "";
}

size_t countOf(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

// The address `vgpu-sim disasm` prints for the instruction whose text starts with `inst`, as the
// hazard report writes it ("0x1728").
std::string disasmAddress(const std::string& disasm, const std::string& inst) {
  const size_t at = disasm.find("\t" + inst);
  if (at == std::string::npos) return "(" + inst + " not in the disassembly)";
  const size_t slashes = disasm.find("// ", at);
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx",
                std::stoull(disasm.substr(slashes + 3, 12), nullptr, 16));
  return buf;
}

// A hand-written kernel without the wait states two rows require: each place is reported once
// on stderr and in --stats, with the PCs `vgpu-sim disasm` shows, both instructions, the wait
// states required and present and how many waves hit it; the same in timing and functional
// mode; and the results are still right (the model executes each instruction to completion).
TEST(CliHazards, ReportsEachMissingPlaceOnce) {
  ScratchDir dir;
  const SimResult d =
      runVgpuSim("disasm " + shellQuote(VGPU_HAZARD_KERNELS) + " missing_wait_states", dir);
  ASSERT_EQ(d.exitCode, 0) << d.err;
  const std::string writer = disasmAddress(d.out, "v_readfirstlane_b32 s5, v2");
  const std::string store = disasmAddress(d.out, "global_store_dword v3, v0, s[4:5]");
  const std::string add = disasmAddress(d.out, "v_add_u32_e32 v4, 1, v0");
  const std::string dpp = disasmAddress(d.out, "v_mov_b32_dpp v5, v4");
  std::string hazards[2];
  for (int functional = 0; functional < 2; ++functional) {
    const std::string mode = functional ? "functional" : "timing";
    const std::string options =
        " --grid 128 --block 64 --platform tiny --quiet --check-hazards --mode " + mode;
    const SimResult r =
        runVgpuSim("run " + shellQuote(VGPU_HAZARD_KERNELS) + " missing_wait_states" + options +
                       " --stats " + shellQuote(dir.file(mode + ".json")) + " --arg " +
                       shellQuote("zeros:512,out=" + dir.file(mode + ".bin")),
                   dir);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(countOf(r.err, "missing wait states"), 2u) << r.err;
    EXPECT_NE(r.err.find("missing wait states at PC " + store +
                         ": 5 required, 1 present (2 times) [valu_sgpr_then_vmem]"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("    " + writer + "  v_readfirstlane_b32 s5, v2\n    " + store +
                         "  global_store_dword v3, v0, s[4:5]"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("missing wait states at PC " + dpp +
                         ": 2 required, 0 present (2 times) [valu_vgpr_then_dpp]\n"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("    " + add + "  v_add_u32_e32 v4, 1, v0\n"), std::string::npos) << r.err;

    const std::string out = slurp(dir.file(mode + ".bin"));
    ASSERT_EQ(out.size(), 512u);
    for (uint32_t i = 0; i < 128; ++i) {
      uint32_t v;
      std::memcpy(&v, out.data() + 4 * i, 4);
      EXPECT_EQ(v, i) << "element " << i;
    }
    hazards[functional] = hazardsJson(slurp(dir.file(mode + ".json")));
    const std::string& h = hazards[functional];
    EXPECT_NE(h.find("\"findings\": 2"), std::string::npos) << h;
    EXPECT_NE(h.find("\"occurrences\": 4"), std::string::npos) << h;
    EXPECT_NE(h.find("\"rule\": \"valu_sgpr_then_vmem\""), std::string::npos) << h;
    EXPECT_NE(h.find("\"required_wait_states\": 5"), std::string::npos) << h;
    EXPECT_NE(h.find("\"present_wait_states\": 1"), std::string::npos) << h;
    EXPECT_NE(h.find("\"instruction\": \"global_store_dword v3, v0, s[4:5]\""), std::string::npos)
        << h;
    EXPECT_NE(h.find("\"offset\": " + std::to_string(std::stoull(store, nullptr, 16))),
              std::string::npos)
        << h;
  }
  EXPECT_EQ(hazards[0], hazards[1]) << "timing and functional mode issue the same instructions";
}

// The same kernel with the wait states in place: nothing reported; the check is off by default.
TEST(CliHazards, NothingWhenTheWaitStatesArePresentOrTheCheckIsOff) {
  ScratchDir dir;
  const std::string grid = " --grid 64 --block 64 --platform tiny --arg zeros:256";
  SimResult r = runVgpuSim("run " + shellQuote(VGPU_HAZARD_KERNELS) + " enough_wait_states" + grid +
                               " --check-hazards --stats " + shellQuote(dir.file("enough.json")),
                           dir);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.err.find("missing wait states"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("hazard check: all required wait states present (15 instructions)"),
            std::string::npos)
      << r.err;
  const std::string enough = hazardsJson(slurp(dir.file("enough.json")));
  EXPECT_NE(enough.find("\"findings\": 0"), std::string::npos) << enough;

  r = runVgpuSim("run " + shellQuote(VGPU_HAZARD_KERNELS) + " missing_wait_states" + grid +
                     " --quiet --stats " + shellQuote(dir.file("off.json")),
                 dir);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.err.find("wait states"), std::string::npos) << r.err;
  EXPECT_EQ(slurp(dir.file("off.json")).find("\"hazards\""), std::string::npos);
}

// The compiled acceptance kernels: hipcc and clang insert the wait states the table requires
// (LLVM's GCNHazardRecognizer), so the checker must find nothing in them.
class CliHazardsCompiled : public ::testing::TestWithParam<std::string> {};

TEST_P(CliHazardsCompiled, NoMissingWaitStates) {
  const KernelCase c = kernelCase(GetParam());
  ScratchDir dir;
  std::string args = "run " + shellQuote(kernelDir() + "/" + c.codeObject) + " " + c.kernel +
                     " --grid " + dims(c.launch.grid) + " --block " + dims(c.launch.block) +
                     " --platform tiny --quiet --check-hazards --stats " +
                     shellQuote(dir.file("stats.json"));
  if (c.launch.globalOffset[0] || c.launch.globalOffset[1] || c.launch.globalOffset[2])
    args += " --global-offset " + std::to_string(c.launch.globalOffset[0]) + "," +
            std::to_string(c.launch.globalOffset[1]) + "," +
            std::to_string(c.launch.globalOffset[2]);
  for (size_t i = 0; i < c.args.size(); ++i) {
    const CaseArg& a = c.args[i];
    if (!a.isBuffer) {
      args += " --arg " + a.cliKind + ":" + a.cliValue;
      continue;
    }
    const std::string in = dir.file("in" + std::to_string(i));
    writeBytes(in, a.bytes);
    args += " --arg " + shellQuote("file:" + in);
  }
  const SimResult r = runVgpuSim(args, dir);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.err.find("missing wait states"), std::string::npos) << r.err;
  const std::string h = hazardsJson(slurp(dir.file("stats.json")));
  EXPECT_NE(h.find("\"findings\": 0"), std::string::npos) << h;
  const size_t p = h.find("\"instructions_checked\": ");
  ASSERT_NE(p, std::string::npos) << h;
  EXPECT_GT(std::stoull(h.substr(p + 24)), 0u) << h;
}

INSTANTIATE_TEST_SUITE_P(Kernels, CliHazardsCompiled,
                         ::testing::Values("vector_add", "saxpy", "block_reduce", "matmul_64",
                                           "histogram", "collatz_3d", "private_array",
                                           "offset_scale", "vector_add_v5"));

// ---- options from a file and the VGPU_* environment, and their precedence ------------------

// vector_add on 128 floats a[i] = i, b[i] = 2i: c[i] must be 3i.
struct VectorAddFiles {
  std::string a, b, c;
  explicit VectorAddFiles(const ScratchDir& dir)
      : a(dir.file("a.bin")), b(dir.file("b.bin")), c(dir.file("c.bin")) {
    std::vector<float> va(128), vb(128);
    for (int i = 0; i < 128; ++i) va[i] = float(i), vb[i] = float(2 * i);
    writeBytes(a, va);
    writeBytes(b, vb);
  }
  std::string checkSums() const {
    const std::string bytes = slurp(c);
    if (bytes.size() != 512) return "c.bin has " + std::to_string(bytes.size()) + " bytes";
    for (int i = 0; i < 128; ++i) {
      float v;
      std::memcpy(&v, bytes.data() + 4 * i, 4);
      if (v != float(3 * i)) return "c[" + std::to_string(i) + "] = " + std::to_string(v);
    }
    return "";
  }
};

// `vgpu-sim ARGS` with environment assignments (NAME=VALUE ...) in front.
SimResult runWithEnvironment(const std::string& assignments, const std::string& args,
                             const ScratchDir& dir) {
  return runShell("env " + assignments + " " + shellQuote(VGPU_SIM_PATH) + " " + args, dir);
}

TEST(CliOptions, EnvironmentSetsTheSimulatorOptions) {
  ScratchDir dir;
  const VectorAddFiles f(dir);
  const SimResult r = runWithEnvironment(
      "VGPU_PLATFORM=tiny VGPU_QUIET=1 VGPU_STATS=" + shellQuote(dir.file("s.json")),
      "run " + shellQuote(kernelDir() + "/vector_add.co") +
          " vector_add --grid 128 --block 64 --arg " + shellQuote("file:" + f.a) + " --arg " +
          shellQuote("file:" + f.b) + " --arg " + shellQuote("zeros:512,out=" + f.c) +
          " --arg i32:128",
      dir);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out, "") << "VGPU_QUIET=1";
  EXPECT_EQ(f.checkSums(), "");
  EXPECT_NE(slurp(dir.file("s.json")).find("\"platform\": \"tiny\""), std::string::npos)
      << "VGPU_STATS and VGPU_PLATFORM";
}

TEST(CliOptions, OptionFileHoldsAWholeRun) {
  ScratchDir dir;
  const VectorAddFiles f(dir);
  std::ofstream(dir.file("run.cfg")) << "# vector_add on 128 floats\n"
                                     << "grid = 128\nblock = 64\nplatform = tiny\n"
                                     << "arg = file:" << f.a << "\narg = file:" << f.b
                                     << "\narg = zeros:512,out=" << f.c << "\narg = i32:128\n"
                                     << "stats = " << dir.file("s.json") << "\n";
  const SimResult r = runVgpuSim("run " + shellQuote(kernelDir() + "/vector_add.co") +
                                     " vector_add --options " + shellQuote(dir.file("run.cfg")),
                                 dir);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("kernel vector_add on tiny"), std::string::npos) << r.out;
  EXPECT_EQ(f.checkSums(), "");
  EXPECT_NE(slurp(dir.file("s.json")).find("\"cycles\""), std::string::npos);
}

// The command line over the file over the environment over the defaults, seen in which platform
// the kernel ran on (a bad value further down is never even read).
TEST(CliOptions, CommandLineOverFileOverEnvironment) {
  ScratchDir dir;
  std::ofstream(dir.file("two.json")) << R"({"name": "two", "processor": "gfx906",
      "compute_units": 2, "clock": 1000})";
  std::ofstream(dir.file("tiny.cfg")) << "platform = tiny\n";
  const std::string run = "run " + shellQuote(kernelDir() + "/vector_add.co") +
                          " vector_add --grid 128 --block 64 --arg zeros:512 --arg zeros:512"
                          " --arg zeros:512 --arg i32:128";
  const std::string file = " --options " + shellQuote(dir.file("tiny.cfg"));

  SimResult r = runWithEnvironment("VGPU_PLATFORM=vega99", run, dir);
  EXPECT_EQ(r.exitCode, 2) << "the environment is read";
  EXPECT_NE(r.err.find("unknown platform"), std::string::npos) << r.err;

  r = runWithEnvironment("VGPU_PLATFORM=vega99", run + file, dir);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("on tiny"), std::string::npos) << "the file wins: " << r.out;

  r = runWithEnvironment("VGPU_PLATFORM=vega99",
                         run + file + " --platform " + shellQuote(dir.file("two.json")), dir);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("on two"), std::string::npos) << "the command line wins: " << r.out;
}

TEST(CliOptions, BadValuesNameTheirSource) {
  ScratchDir dir;
  std::ofstream(dir.file("bad.cfg")) << "platform = tiny\nmax-cycles = many\n";
  const std::string run = "run " + shellQuote(kernelDir() + "/vector_add.co") +
                          " vector_add --grid 64 --block 64 --arg zeros:256 --arg zeros:256"
                          " --arg zeros:256 --arg i32:64";
  SimResult r = runVgpuSim(run + " --options " + shellQuote(dir.file("bad.cfg")), dir);
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(r.err.rfind("vgpu-sim: option file '" + dir.file("bad.cfg") + "': --max-cycles", 0), 0u)
      << r.err;
  r = runWithEnvironment("VGPU_WATCHDOG_CYCLES=soon", run, dir);
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(r.err.rfind("vgpu-sim: environment variable VGPU_WATCHDOG_CYCLES: ", 0), 0u) << r.err;
}

TEST(CliOptions, HelpComesFromTheTable) {
  ScratchDir dir;
  SimResult r = runVgpuSim("help run", dir);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("  --max-cycles N\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("unit: GPU cycles; default: 0 (no limit); environment: VGPU_MAX_CYCLES"),
            std::string::npos)
      << r.out;
  const std::string helpRun = r.out;
  r = runVgpuSim("run --help", dir);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out, helpRun);
  // exec takes --help and -h before its "--" too, with or without a program after it.
  const SimResult helpExec = runVgpuSim("help exec", dir);
  ASSERT_EQ(helpExec.exitCode, 0) << helpExec.err;
  EXPECT_NE(helpExec.out.find("  --platform NAME|FILE.json\n"), std::string::npos) << helpExec.out;
  for (const char* form : {"exec --help", "exec -h", "exec --help -- ./program"}) {
    r = runVgpuSim(form, dir);
    EXPECT_EQ(r.exitCode, 0) << form << ": " << r.err;
    EXPECT_EQ(r.out, helpExec.out) << form;
  }
  r = runVgpuSim("help", dir);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("vgpu-sim help [COMMAND]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[--max-cycles N]"), std::string::npos) << r.out;
  r = runVgpuSim("help launch", dir);
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("unknown command 'launch'"), std::string::npos) << r.err;
}

// ---- bytes:HEX: a by-value argument of any size ---------------------------------------------

// struct_arg(struct { uint32_t a, b, c; } p, uint32_t* out) stores p into a 12-byte record per
// work-item: every record must hold the bytes given, in the order given.
TEST(CliBytes, StructPassedByValue) {
  ScratchDir dir;
  const std::string bytes = "0102030405060708090a0b0c";
  const SimResult r = runVgpuSim("run " + shellQuote(VGPU_STRUCT_ARG_KERNEL) +
                                     " struct_arg --grid 128 --block 64 --platform tiny --quiet" +
                                     " --arg bytes:" + bytes + " --arg " +
                                     shellQuote("zeros:1536,out=" + dir.file("out.bin")),
                                 dir);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const std::string out = slurp(dir.file("out.bin"));
  ASSERT_EQ(out.size(), 1536u);
  const std::string record = "\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c";
  for (size_t i = 0; i < 128; ++i) EXPECT_EQ(out.substr(12 * i, 12), record) << "work-item " << i;
}

TEST(CliBytes, SizeMustMatchTheMetadata) {
  ScratchDir dir;
  const std::string run = "run " + shellQuote(VGPU_STRUCT_ARG_KERNEL) +
                          " struct_arg --grid 64 --block 64 --platform tiny";
  SimResult r = runVgpuSim(run + " --arg bytes:0102030405060708 --arg zeros:768", dir);
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("--arg 1: kernel argument 0 (p) is 12 bytes, but bytes: gives 8"),
            std::string::npos)
      << r.err;
  r = runVgpuSim("run " + shellQuote(VGPU_STRUCT_ARG_KERNEL) +
                     " struct_arg --grid 64 --block 64 --platform tiny --arg i32:1 --arg zeros:768",
                 dir);
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("is 12 bytes, but i32 is 4"), std::string::npos) << r.err;
}

// The same 4 bytes as i32:128 and as bytes:80000000 (little-endian): the same run.
TEST(CliBytes, ScalarWrittenAsBytes) {
  ScratchDir dir;
  const VectorAddFiles f(dir);
  auto run = [&](const std::string& n, const std::string& tag) {
    return runVgpuSim("run " + shellQuote(kernelDir() + "/vector_add.co") +
                          " vector_add --grid 128 --block 64 --platform tiny --quiet --arg " +
                          shellQuote("file:" + f.a) + " --arg " + shellQuote("file:" + f.b) +
                          " --arg " + shellQuote("zeros:512,out=" + f.c) + " --arg " + n,
                      dir, tag);
  };
  const SimResult r = run("bytes:80000000", "bytes");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(f.checkSums(), "");
  const SimResult half = run("bytes:40000000", "half");  // n = 64: only half the sums
  ASSERT_EQ(half.exitCode, 0) << half.err;
  EXPECT_NE(f.checkSums(), "");
}

// ---- bad input: one clear message, exit 2 ---------------------------------------------------

struct BadInput {
  std::string name;
  std::string args;         // after "vgpu-sim"; KDIR is replaced by the kernel directory
  std::string messagePart;  // must appear in stderr
  int exitCode = 2;
  friend void PrintTo(const BadInput& b, std::ostream* os) { *os << b.name; }
};

class CliBadInput : public ::testing::TestWithParam<BadInput> {};

TEST_P(CliBadInput, ClearMessageAndExitCode) {
  ScratchDir dir;
  std::string args = GetParam().args;
  for (size_t p; (p = args.find("KDIR")) != std::string::npos;) args.replace(p, 4, kernelDir());
  for (size_t p; (p = args.find("TMP")) != std::string::npos;) args.replace(p, 3, dir.file(""));
  // Inputs some cases need.
  std::ofstream(dir.file("text.co")) << "this is not an ELF file\n";
  std::ofstream(dir.file("empty.co"));
  const std::string real = slurp(kernelDir() + "/vector_add.co");
  std::ofstream(dir.file("truncated.co"), std::ios::binary) << real.substr(0, 300);
  std::ofstream(dir.file("bad.json")) << "{ not json";

  const SimResult r = runVgpuSim(args, dir);
  EXPECT_EQ(r.exitCode, GetParam().exitCode) << r.err;
  EXPECT_NE(r.err.find(GetParam().messagePart), std::string::npos) << "stderr was: " << r.err;
  EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
  if (GetParam().exitCode == 2) {
    // One message: a single "vgpu-sim:" line (usage text may follow).
    EXPECT_EQ(r.err.rfind("vgpu-sim:"), 0u) << r.err;
  }
}

const std::string kVadd = "run KDIR/vector_add.co vector_add --grid 64 --block 64 --platform tiny ";
const std::string kVaddArgs = "--arg zeros:256 --arg zeros:256 --arg zeros:256 --arg i32:64";

INSTANTIATE_TEST_SUITE_P(
    Cases, CliBadInput,
    ::testing::Values(
        BadInput{"no_command", "", "no command"},
        BadInput{"unknown_command", "frobnicate", "unknown command"},
        BadInput{"unknown_option", kVadd + kVaddArgs + " --fast", "unknown option"},
        BadInput{"missing_file", "run TMPnope.co vector_add --grid 64 --block 64 " + kVaddArgs,
                 "nope.co"},
        BadInput{"empty_file", "run TMPempty.co vector_add --grid 64 --block 64 " + kVaddArgs,
                 "empty.co"},
        BadInput{"not_elf", "run TMPtext.co vector_add --grid 64 --block 64 " + kVaddArgs,
                 "text.co"},
        BadInput{"truncated", "run TMPtruncated.co vector_add --grid 64 --block 64 " + kVaddArgs,
                 "truncated.co"},
        BadInput{"wrong_target",
                 "run KDIR/vector_add_gfx90a.co vector_add --grid 64 --block 64 " + kVaddArgs,
                 "gfx90a"},
        BadInput{"unknown_kernel",
                 "run KDIR/vector_add.co vecadd --grid 64 --block 64 " + kVaddArgs, "vector_add"},
        BadInput{"too_few_args", kVadd + "--arg zeros:256", "takes 4 arguments"},
        BadInput{"too_many_args", kVadd + kVaddArgs + " --arg i32:1", "takes 4 arguments"},
        BadInput{"scalar_for_buffer",
                 kVadd + "--arg i32:1 --arg zeros:256 --arg zeros:256 --arg i32:64",
                 "global buffer"},
        BadInput{"buffer_for_scalar",
                 kVadd + "--arg zeros:256 --arg zeros:256 --arg zeros:256 --arg zeros:4", "scalar"},
        BadInput{"wrong_scalar_size",
                 kVadd + "--arg zeros:256 --arg zeros:256 --arg zeros:256 --arg i64:64", "4 bytes"},
        BadInput{"bad_scalar",
                 kVadd + "--arg zeros:256 --arg zeros:256 --arg zeros:256 --arg i32:abc",
                 "not an integer"},
        BadInput{"bad_arg_kind", kVadd + "--arg float:1", "unknown kind"},
        BadInput{"bytes_for_buffer",
                 kVadd + "--arg bytes:00 --arg zeros:256 --arg zeros:256 --arg i32:64",
                 "global buffer"},
        BadInput{"bytes_wrong_size",
                 kVadd + "--arg zeros:256 --arg zeros:256 --arg zeros:256 --arg bytes:4000",
                 "is 4 bytes, but bytes: gives 2"},
        BadInput{"bytes_odd_digits",
                 kVadd + "--arg zeros:256 --arg zeros:256 --arg zeros:256 --arg bytes:400",
                 "hexadecimal digits"},
        BadInput{"misspelt_option", kVadd + kVaddArgs + " --plattform tiny",
                 "did you mean --platform?"},
        BadInput{"missing_option_file", kVadd + kVaddArgs + " --options TMPnone.cfg", "none.cfg"},
        BadInput{"missing_input_file",
                 kVadd + "--arg file:TMPmissing.bin --arg zeros:256 --arg zeros:256 --arg i32:64",
                 "missing.bin"},
        BadInput{"zero_block", "run KDIR/vector_add.co vector_add --grid 64 --block 0 " + kVaddArgs,
                 "at least 1"},
        BadInput{"huge_block",
                 "run KDIR/vector_add.co vector_add --grid 2048 --block 2048 " + kVaddArgs,
                 "at most 1024"},
        BadInput{"huge_block_2d",
                 "run KDIR/vector_add.co vector_add --grid 64,64 --block 64,32 " + kVaddArgs,
                 "at most 1024"},
        BadInput{"missing_grid", "run KDIR/vector_add.co vector_add --block 64 " + kVaddArgs,
                 "--grid"},
        BadInput{"four_dims",
                 "run KDIR/vector_add.co vector_add --grid 1,1,1,1 --block 64 " + kVaddArgs,
                 "three dimensions"},
        BadInput{"bad_mode", kVadd + kVaddArgs + " --mode fast", "--mode must be"},
        BadInput{"unknown_platform", kVadd + kVaddArgs + " --platform vega99", "unknown platform"},
        BadInput{"bad_platform_json", kVadd + kVaddArgs + " --platform TMPbad.json",
                 "not valid JSON"},
        BadInput{"memory_violation",
                 "run KDIR/vector_add.co vector_add --grid 1048576 --block 256 --platform tiny "
                 "--arg zeros:256 --arg zeros:256 --arg zeros:256 --arg i32:1048576",
                 "memory violation", 3},
        BadInput{"fault_names_instruction",
                 "run KDIR/vector_add.co vector_add --grid 1048576 --block 256 --platform tiny "
                 "--arg zeros:256 --arg zeros:256 --arg zeros:256 --arg i32:1048576",
                 "global_load_dword", 3}),
    [](const ::testing::TestParamInfo<BadInput>& info) { return info.param.name; });

}  // namespace
}  // namespace vgpu::test
