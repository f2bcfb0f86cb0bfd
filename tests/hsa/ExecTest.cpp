// `vgpu-sim exec`, as a user runs it: its own errors (one message, exit 2), the options reaching
// the program as VGPU_* variables with vgpu's library first on the library path, the program's
// own exit status, and an unmodified hipcc-built program running on the model with the summary
// and the --stats records.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "CliRunner.h"

namespace vgpu::test {
namespace {

TEST(Exec, WithoutAProgramIsAUsageError) {
  ScratchDir dir;
  const SimResult r = runVgpuSim("exec --platform tiny", dir);
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("usage: vgpu-sim exec [OPTION]... -- PROGRAM"), std::string::npos) << r.err;
}

TEST(Exec, LaunchOptionsOfRunAreRefused) {
  ScratchDir dir;
  const SimResult r = runVgpuSim("exec --grid 64 -- /bin/true", dir);
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("--grid describes one `vgpu-sim run` launch"), std::string::npos) << r.err;
}

TEST(Exec, BadValuesAndUnknownOptionsAreNamed) {
  ScratchDir dir;
  SimResult r = runVgpuSim("exec --mode fast -- /bin/true", dir, "mode");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("--mode must be timing or functional, not 'fast'"), std::string::npos)
      << r.err;
  r = runVgpuSim("exec --platfrom tiny -- /bin/true", dir, "unknown");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("unknown option"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--platform"), std::string::npos) << r.err;  // the suggestion
  EXPECT_NE(r.err.find("vgpu-sim help exec lists the options"), std::string::npos) << r.err;
}

// An output file in a directory that is not there is bad input, found before the program runs
// (it would run without the GPU, vgpu's library refusing to start, and fail in its own words).
TEST(Exec, AnOutputFileInAMissingDirectoryStopsBeforeTheProgramRuns) {
  ScratchDir dir;
  const std::string missing = dir.file("no-such-dir") + "/";
  for (const std::string option : {"--stats", "--timeline", "--vcd", "--report"}) {
    const SimResult r = runVgpuSim(
        "exec " + option + " " + shellQuote(missing + "out") + " -- /bin/echo the-program-ran", dir,
        option.substr(2));
    EXPECT_EQ(r.exitCode, 2) << option;
    EXPECT_NE(
        r.err.find(option + " '" + missing + "out': directory '" + missing + "' does not exist"),
        std::string::npos)
        << r.err;
    EXPECT_EQ(r.out.find("the-program-ran"), std::string::npos) << option << ": " << r.out;
  }
}

TEST(Exec, OptionsReachTheProgramAsVgpuVariables) {
  ScratchDir dir;
  const std::string show =
      "/bin/sh -c " + shellQuote(
                          "echo \"$VGPU_PLATFORM $VGPU_MODE $VGPU_MAX_CYCLES [$VGPU_SUMMARY]\"; "
                          "echo \"$LD_LIBRARY_PATH\"");
  SimResult r = runVgpuSim("exec --platform tiny --mode functional --max-cycles 5 -- " + show, dir);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("tiny functional 5 [1]\n"), std::string::npos) << r.out;
  // vgpu's libhsa-runtime64.so.1 first: beside bin/vgpu-sim, in ../lib.
  const std::string lib =
      std::filesystem::path(VGPU_SIM_PATH).parent_path().parent_path().string() + "/lib";
  EXPECT_EQ(r.out.substr(r.out.find('\n') + 1, lib.size()), lib) << r.out;
  EXPECT_TRUE(std::filesystem::exists(lib + "/libhsa-runtime64.so.1"));
  // --quiet: no summary.
  r = runVgpuSim("exec --quiet -- " + show, dir, "quiet");
  EXPECT_NE(r.out.find("[]"), std::string::npos) << r.out;
}

TEST(Exec, TheExitStatusIsTheProgramsOwn) {
  ScratchDir dir;
  SimResult r = runVgpuSim("exec -- /bin/sh -c 'exit 7'", dir, "seven");
  EXPECT_EQ(r.exitCode, 7);
  r = runVgpuSim("exec -- /bin/sh -c 'kill -SEGV $$'", dir, "signal");
  EXPECT_EQ(r.exitCode, 128 + 11);
  EXPECT_NE(r.err.find("was ended by signal 11"), std::string::npos) << r.err;
  r = runVgpuSim("exec -- /nonexistent/program", dir, "missing");
  EXPECT_EQ(r.exitCode, 127);
  EXPECT_NE(r.err.find("cannot run '/nonexistent/program'"), std::string::npos) << r.err;
}

// hip_vadd.cpp, built with plain hipcc: memset, copies, a kernel, events. The summary names the
// kernel readably; --stats has a record per dispatch and per DMA copy.
TEST(Exec, RunsAnUnmodifiedHipProgramWithSummaryAndStatistics) {
  ScratchDir dir;
  const std::string stats = dir.file("stats.json");
  const SimResult r = runVgpuSim("exec --platform tiny --mode functional --stats " +
                                     shellQuote(stats) + " -- " + shellQuote(VGPU_HIP_VADD),
                                 dir);
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("vadd ok (0 wrong)"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("on tiny (functional mode): "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("vadd(float const*, float const*, float*, int)"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("simulated GPU time"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("holds GPU code"), std::string::npos) << r.err;  // built for gfx906
  const nlohmann::json j = nlohmann::json::parse(slurp(stats));
  EXPECT_EQ(j["platform"], "tiny");
  EXPECT_EQ(j["mode"], "functional");
  bool vadd = false;
  for (const auto& d : j["dispatches"]) {
    vadd |= d["kernel"].get<std::string>().find("vadd") != std::string::npos;
    EXPECT_FALSE(d["faulted"].get<bool>());
    EXPECT_GE(d["end_cycle"].get<uint64_t>(), d["start_cycle"].get<uint64_t>());
  }
  EXPECT_TRUE(vadd) << j["dispatches"].dump();
  ASSERT_FALSE(j["copies"].empty());
  for (const auto& c : j["copies"]) {
    EXPECT_GT(c["bytes"].get<uint64_t>(), 0u);
    EXPECT_GT(c["end_ns"].get<uint64_t>(), c["start_ns"].get<uint64_t>());
    EXPECT_FALSE(c["failed"].get<bool>());
  }
}

// A kernel fault ends the program in ROCclr's abort(), where no exit handler runs: the statistics
// are written when the queue fails, before ROCclr hears of it, with the faulted dispatch (its
// cycles up to the fault) and the copies before it.
TEST(Exec, AFaultingProgramStillLeavesItsStatistics) {
  ScratchDir dir;
  const std::string stats = dir.file("stats.json");
  const SimResult r = runVgpuSim("exec --platform tiny --mode functional --stats " +
                                     shellQuote(stats) + " -- " + shellQuote(VGPU_HIP_FAULT),
                                 dir);
  EXPECT_NE(r.exitCode, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("kernel '_Z3badPi' faulted: memory violation"), std::string::npos) << r.err;
  const std::string text = slurp(stats);
  ASSERT_FALSE(text.empty()) << "no statistics after the fault: " << r.err;
  const nlohmann::json j = nlohmann::json::parse(text);
  EXPECT_TRUE(j["faulted"].get<bool>());
  bool faulted = false;
  for (const auto& d : j["dispatches"])
    if (d["kernel"] == "_Z3badPi") {
      faulted = d["faulted"].get<bool>();
      EXPECT_GT(d["end_cycle"].get<uint64_t>(), d["start_cycle"].get<uint64_t>());
    }
  EXPECT_TRUE(faulted) << j["dispatches"].dump();
}

// The same for the timeline and the VCD, which a performance engineer wants most when a kernel
// faults: they are completed when the queue fails (they were left as temporary files, which
// the abort kept from being renamed) and hold the run up to the fault.
TEST(Exec, AFaultingProgramStillLeavesItsTimelineAndVcd) {
  ScratchDir dir;
  const std::string timeline = dir.file("t.json"), vcd = dir.file("t.vcd");
  const SimResult r =
      runVgpuSim("exec --platform tiny --quiet --timeline " + shellQuote(timeline) + " --vcd " +
                     shellQuote(vcd) + " -- " + shellQuote(VGPU_HIP_FAULT),
                 dir);
  EXPECT_NE(r.exitCode, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("kernel '_Z3badPi' faulted: memory violation"), std::string::npos) << r.err;
  const std::string text = slurp(timeline);
  ASSERT_FALSE(text.empty()) << "no timeline after the fault: " << r.err;
  const nlohmann::json t = nlohmann::json::parse(text);
  size_t kernelSlices = 0;
  for (const nlohmann::json& e : t["traceEvents"])
    if (e["ph"] == "X" && e["name"].get<std::string>().find("_Z3badPi") != std::string::npos)
      ++kernelSlices;
  EXPECT_EQ(kernelSlices, 1u) << "the faulted kernel is on its queue's track";
  const std::string waves = slurp(vcd);
  ASSERT_FALSE(waves.empty()) << "no VCD after the fault: " << r.err;
  EXPECT_NE(waves.find("$enddefinitions $end"), std::string::npos);
  EXPECT_NE(waves.find("cu0"), std::string::npos);
  EXPECT_EQ(waves.rfind('#'), waves.rfind("\n#") + 1) << "ends with a timestamp line";
  for (const auto& e : std::filesystem::directory_iterator(dir.path()))
    EXPECT_EQ(e.path().filename().string().find(".tmp."), std::string::npos)
        << "left behind: " << e.path();
}

// hip_vadd holds gfx906 code only, and vega10 is a gfx900: before Debian's HIP runtime stops the
// program ("Unable to find code object for all current devices", then abort), one line says what
// the program holds, what the platform is, and the two ways out. The built-in gfx906 platforms
// are those of platforms/*.json whose "processor" is gfx906.
TEST(Exec, AProgramBuiltForAnotherProcessorIsNamed) {
  ScratchDir dir;
  const SimResult r =
      runVgpuSim("exec --platform vega10 --mode functional -- " + shellQuote(VGPU_HIP_VADD), dir);
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.err.find("holds GPU code for gfx906 only, and the platform vega10 is a gfx900: the "
                       "HIP runtime will find no code object for it (build with "
                       "--offload-arch=gfx900, or run it on a gfx906 platform: mi60, radeon_vii, "
                       "tiny, vega20)"),
            std::string::npos)
      << r.err;
}

// --report and --timeline cover the whole program: the HTML report of its kernels, the
// timeline with the kernel on its queue's track.
TEST(Exec, ReportAndTimelineCoverTheProgram) {
  ScratchDir dir;
  const std::string report = dir.file("r.html"), timeline = dir.file("t.json");
  const SimResult r =
      runVgpuSim("exec --platform tiny --mode functional --quiet --report " + shellQuote(report) +
                     " --timeline " + shellQuote(timeline) + " -- " + shellQuote(VGPU_HIP_VADD),
                 dir);
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_EQ(r.err.find("vgpu: "), std::string::npos) << "--quiet: no summary\n" << r.err;
  const std::string html = slurp(report);
  EXPECT_NE(html.find("<title>vgpu report</title>"), std::string::npos);
  EXPECT_NE(html.find("hip_vadd"), std::string::npos) << "the report names the program";
  const nlohmann::json t = nlohmann::json::parse(slurp(timeline));
  EXPECT_NE(t.dump().find("vadd"), std::string::npos) << "the kernel is on the timeline";
}

// The options of issue 20 reach the program too: a window counted from the (first) kernel's
// start, the warning for a window that keeps nothing, and the per-instruction profile.
TEST(Exec, KernelRelativeWindowsAndTheProfileReachTheProgram) {
  ScratchDir dir;
  const std::string stats = dir.file("s.json"), timeline = dir.file("t.json"),
                    empty = dir.file("e.json");
  SimResult r =
      runVgpuSim("exec --platform tiny --mode functional --quiet --stats " + shellQuote(stats) +
                     " --profile-instructions 5 --timeline " + shellQuote(timeline) +
                     " --timeline-window kernel+0:100 -- " + shellQuote(VGPU_HIP_VADD),
                 dir);
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_EQ(r.err.find("warning"), std::string::npos) << r.err;
  const nlohmann::json s = nlohmann::json::parse(slurp(stats));
  ASSERT_FALSE(s["dispatches"].empty());
  const int64_t start = s["dispatches"][0]["start_cycle"];
  const nlohmann::json& profile = s["instruction_profile"];
  ASSERT_EQ(profile["list"].size(), 5u) << s.dump(1);
  EXPECT_NE(profile["list"][0]["kernel"].get<std::string>().find("vadd"), std::string::npos);
  EXPECT_LT(profile["list"][0]["offset"].get<uint64_t>(), profile["list"][0]["pc"].get<uint64_t>())
      << "offsets in the code object, not device addresses";
  size_t slices = 0;
  const nlohmann::json events = nlohmann::json::parse(slurp(timeline))["traceEvents"];
  for (const nlohmann::json& e : events) {
    if (e["ph"] != "X") continue;
    ++slices;
    const int64_t from = std::llround(e["ts"].get<double>() * 1000);
    const int64_t to = from + std::llround(e["dur"].get<double>() * 1000);
    EXPECT_LE(from, start + 100) << e.dump();
    EXPECT_GE(to, start) << e.dump();
  }
  EXPECT_GT(slices, 0u);

  r = runVgpuSim("exec --platform tiny --mode functional --quiet --timeline " + shellQuote(empty) +
                     " --timeline-window kernel+100000000:100000010 -- " +
                     shellQuote(VGPU_HIP_VADD),
                 dir);
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("vgpu: warning: --timeline-window kernel+100000000:100000010 (GPU cycles " +
                       std::to_string(start + 100000000) + ".." +
                       std::to_string(start + 100000010) + ") kept no slice: the kernel"),
            std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace vgpu::test
