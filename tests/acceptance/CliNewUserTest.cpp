// What a new user trips over (issue 20), through vgpu-sim as a user runs it: platform names as
// the products are called, --version, functional mode's summary, argument kinds for every
// scalar the metadata describes and OpenCL __local pointers, warnings for launch mistakes, a
// fat bundle on either processor, printf, and fault reports in code-object offsets.
#include <gtest/gtest.h>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <regex>
#include <string>
#include <vector>

#include "CliRunner.h"
#include "KernelCases.h"

namespace vgpu::test {
namespace {

// vector_add(a, b, c, n) on zeroed buffers: the smallest complete run.
std::string vectorAdd(const std::string& options) {
  return "run " + shellQuote(kernelDir() + "/vector_add.co") + " vector_add --grid 64 --block 64 " +
         options + " --arg zeros:256 --arg zeros:256 --arg zeros:256 --arg i32:64";
}

// ---- platform aliases, --version, functional mode ---------------------------------------------

TEST(CliNewUser, PlatformAliasesNameTheProducts) {
  ScratchDir dir;
  // README calls vega20 the MI50; the alias runs that platform.
  for (const auto& [alias, platform] : std::vector<std::pair<std::string, std::string>>{
           {"mi50", "vega20"}, {"MI50", "vega20"}, {"radeon-vii", "radeon_vii"}}) {
    const SimResult r = runVgpuSim(vectorAdd("--platform " + alias), dir, alias);
    ASSERT_EQ(r.exitCode, 0) << alias << ": " << r.err;
    EXPECT_NE(r.out.find("on " + platform + ":"), std::string::npos) << alias << ": " << r.out;
  }
  const SimResult list = runVgpuSim("platforms", dir, "platforms");
  ASSERT_EQ(list.exitCode, 0) << list.err;
  EXPECT_TRUE(std::regex_search(list.out, std::regex("\nvega20 .*also: mi50")) ||
              std::regex_search(list.out, std::regex("^vega20 .*also: mi50")))
      << list.out;
  EXPECT_NE(list.out.find("radeon-vii"), std::string::npos) << list.out;
  const SimResult bad = runVgpuSim(vectorAdd("--platform mi5"), dir, "bad");
  EXPECT_EQ(bad.exitCode, 2);
  EXPECT_NE(bad.err.find("aliases: mi50"), std::string::npos) << bad.err;
}

TEST(CliNewUser, VersionPrintsTheVersion) {
  ScratchDir dir;
  for (const char* spelling : {"--version", "version"}) {
    const SimResult r = runVgpuSim(spelling, dir);
    EXPECT_EQ(r.exitCode, 0) << spelling << ": " << r.err;
    EXPECT_TRUE(std::regex_match(r.out, std::regex("vgpu-sim [0-9]+\\.[0-9]+\\.[0-9]+\n")))
        << spelling << ": " << r.out;
  }
  const SimResult help = runVgpuSim("help", dir, "help");
  EXPECT_NE(help.out.find("vgpu-sim version"), std::string::npos) << help.out;
}

// Functional mode has unit latencies: its cycles give no IPC worth printing.
TEST(CliNewUser, FunctionalModeSaysIpcIsNotMeaningful) {
  ScratchDir dir;
  const SimResult f = runVgpuSim(vectorAdd("--platform tiny --mode functional"), dir, "f");
  ASSERT_EQ(f.exitCode, 0) << f.err;
  EXPECT_NE(f.err.find("IPC not meaningful in functional mode"), std::string::npos) << f.err;
  EXPECT_FALSE(std::regex_search(f.err, std::regex("IPC [0-9]"))) << f.err;
  EXPECT_EQ(f.out.find("per cycle"), std::string::npos) << f.out;
  const SimResult t = runVgpuSim(vectorAdd("--platform tiny"), dir, "t");
  ASSERT_EQ(t.exitCode, 0) << t.err;
  EXPECT_TRUE(std::regex_search(t.err, std::regex("IPC [0-9]+\\.[0-9]+ wave-instructions")))
      << t.err;
}

// ---- argument kinds ----------------------------------------------------------------------------

// The floats a kernel wrote to an out= file.
std::vector<float> floatsOf(const std::string& bytes) {
  std::vector<float> v(bytes.size() / 4);
  std::memcpy(v.data(), bytes.data(), v.size() * 4);
  return v;
}

// Every OpenCL scalar kind reaches the kernel as the value written. f16:0.1 is binary16 0x2e66,
// 0.0999755859375 (the nearest half to 0.1).
TEST(CliArgKinds, OpenClScalarsOfEverySize) {
  ScratchDir dir;
  const SimResult r = runVgpuSim(
      "run " + shellQuote(kernelDir() + "/arg_kinds_cl.co") +
          " cl_scalars --grid 64 --block 64 --platform tiny --quiet --arg i8:-5 --arg u8:200" +
          " --arg i16:-30000 --arg u16:60000 --arg f16:0.1 --arg i32:-7 --arg u32:4000000000" +
          " --arg f32:2.25 --arg " + shellQuote("zeros:32,out=" + dir.file("out.bin")),
      dir);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const std::vector<float> expected = {-5, 200, -30000, 60000, 0.0999755859375f, -7, 4e9f, 2.25f};
  EXPECT_EQ(floatsOf(slurp(dir.file("out.bin"))), expected);
}

// HIP's bool and _Float16, and the extremes of the small integer kinds.
TEST(CliArgKinds, HipBoolHalfAndSmallIntegers) {
  ScratchDir dir;
  const SimResult r = runVgpuSim(
      "run " + shellQuote(kernelDir() + "/arg_kinds_hip.co") +
          " hip_scalars --grid 64 --block 64 --platform tiny --quiet --arg i8:-128 --arg u8:255" +
          " --arg i16:-1 --arg u16:0xffff --arg f16:-2.5 --arg bool:true --arg " +
          shellQuote("zeros:24,out=" + dir.file("out.bin")),
      dir);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const std::vector<float> expected = {-128, 255, -1, 65535, -2.5f, 1};
  EXPECT_EQ(floatsOf(slurp(dir.file("out.bin"))), expected);
  const SimResult wide = runVgpuSim(
      "run " + shellQuote(kernelDir() + "/arg_kinds_hip.co") +
          " hip_scalars --grid 64 --block 64 --platform tiny --arg i8:128 --arg u8:0 --arg i16:0" +
          " --arg u16:0 --arg f16:0 --arg bool:0 --arg zeros:24",
      dir, "wide");
  EXPECT_EQ(wide.exitCode, 2);
  EXPECT_NE(wide.err.find("does not fit in 8 bits"), std::string::npos) << wide.err;
}

// local:BYTES gives an OpenCL __local pointer its own LDS after the kernel's own __local array:
// out[i] = 100 * in[i] + in[mirror of i in its workgroup] + 10 * in[i].
TEST(CliArgKinds, LocalPointersGetTheirOwnLds) {
  ScratchDir dir;
  std::vector<int32_t> in(128);
  for (int i = 0; i < 128; ++i) in[i] = i + 1;
  writeBytes(dir.file("in.bin"), in);
  const std::string run = "run " + shellQuote(kernelDir() + "/arg_kinds_cl.co") +
                          " local_args --grid 128 --block 64 --platform tiny --quiet --arg " +
                          shellQuote("file:" + dir.file("in.bin")) + " --arg " +
                          shellQuote("zeros:512,out=" + dir.file("out.bin"));
  const SimResult r = runVgpuSim(run + " --arg local:256 --arg local:128", dir);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const std::string out = slurp(dir.file("out.bin"));
  ASSERT_EQ(out.size(), 512u);
  for (int i = 0; i < 128; ++i) {
    const int g = i / 64 * 64, mirror = g + 63 - i % 64;
    int32_t v;
    std::memcpy(&v, out.data() + 4 * i, 4);
    EXPECT_EQ(v, 100 * in[i] + in[mirror] + 10 * in[i]) << "work-item " << i;
  }
  // Anything else for a __local argument gets one message, the same for a buffer and a scalar.
  for (const char* wrong : {"zeros:1024", "u32:1024"}) {
    const SimResult bad = runVgpuSim(run + " --arg " + wrong + " --arg local:128", dir,
                                     std::string("bad_") + (wrong[0] == 'z' ? "buffer" : "scalar"));
    EXPECT_EQ(bad.exitCode, 2) << wrong;
    EXPECT_NE(bad.err.find("--arg 3: kernel argument 2 (type int*) is a __local pointer"),
              std::string::npos)
        << wrong << ": " << bad.err;
    EXPECT_NE(bad.err.find("give local:BYTES"), std::string::npos) << wrong << ": " << bad.err;
    EXPECT_EQ(bad.err.find("bytes but"), std::string::npos) << wrong << ": " << bad.err;
  }
}

// OpenCL metadata names each argument's type: a float given for an int is an error naming it.
TEST(CliArgKinds, TypesCheckedAgainstTheMetadata) {
  ScratchDir dir;
  auto run = [&](const std::string& i, const std::string& f, const std::string& tag) {
    return runVgpuSim("run " + shellQuote(kernelDir() + "/arg_kinds_cl.co") +
                          " cl_scalars --grid 64 --block 64 --platform tiny --quiet --arg i8:0" +
                          " --arg u8:0 --arg i16:0 --arg u16:0 --arg f16:0 --arg " + i +
                          " --arg u32:0 --arg " + f + " --arg zeros:32",
                      dir, tag);
  };
  SimResult r = run("f32:4000", "f32:1", "float_for_int");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("--arg 6: kernel argument 5 (type int) takes an integer, not f32:4000"),
            std::string::npos)
      << r.err;
  r = run("i32:1", "i32:1", "int_for_float");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("kernel argument 7 (type float) takes a floating-point value, not i32:1"),
            std::string::npos)
      << r.err;
  r = run("u32:7", "bytes:00001040", "raw_bits");  // u32 for int, raw bits for float: accepted
  EXPECT_EQ(r.exitCode, 0) << r.err;
}

// ---- warnings for launch mistakes, fat bundles -------------------------------------------------

// HIP's habit of counting the grid in workgroups runs one partial workgroup: warned about.
TEST(CliWarnings, GridSmallerThanAWorkgroup) {
  ScratchDir dir;
  const std::string args =
      " --block 256 --platform tiny --quiet --arg zeros:65536 "
      "--arg zeros:65536 --arg zeros:65536 --arg i32:4096";
  const SimResult r = runVgpuSim(
      "run " + shellQuote(kernelDir() + "/vector_add.co") + " vector_add --grid 16" + args, dir);
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.err.find("vgpu-sim: warning: --grid 16 is smaller than one workgroup (--block 256)"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("grid is given in work-items, not workgroups"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("give --grid 4096"), std::string::npos) << r.err;
  const SimResult ok = runVgpuSim(
      "run " + shellQuote(kernelDir() + "/vector_add.co") + " vector_add --grid 4096" + args, dir,
      "ok");
  EXPECT_EQ(ok.exitCode, 0) << ok.err;
  EXPECT_EQ(ok.err, "");
}

// A HIP kernel's grid that is not a multiple of its block: the last workgroup is partial, and
// there HIP's blockDim.x is its size (the local size OpenCL 2.0 defines for a non-uniform
// workgroup), so vector_add's blockIdx.x * blockDim.x + threadIdx.x covers 696..927 in the last
// of 1000 / 256 workgroups instead of 768..999 and leaves c[928..999] unwritten. Warned about,
// naming the whole-block grid, which computes every element; an OpenCL C code object, whose
// get_global_id is right in a partial workgroup, gets no warning.
TEST(CliWarnings, HipGridNotAMultipleOfTheBlock) {
  ScratchDir dir;
  const int n = 1000;
  std::vector<float> a(n), b(n);
  for (int i = 0; i < n; ++i)
    a[i] = 0.5f * static_cast<float>(i), b[i] = 1.0f + static_cast<float>(i);
  writeBytes(dir.file("a.bin"), a);
  writeBytes(dir.file("b.bin"), b);
  auto run = [&](int grid, const std::string& tag) {
    return runVgpuSim("run " + shellQuote(kernelDir() + "/vector_add.co") + " vector_add --grid " +
                          std::to_string(grid) + " --block 256 --platform tiny --quiet --arg " +
                          shellQuote("file:" + dir.file("a.bin")) + " --arg " +
                          shellQuote("file:" + dir.file("b.bin")) + " --arg " +
                          shellQuote("zeros:4000,out=" + dir.file(tag + ".bin")) +
                          " --arg i32:1000",
                      dir, tag);
  };
  const SimResult partial = run(1000, "partial");
  EXPECT_EQ(partial.exitCode, 0) << partial.err;
  EXPECT_NE(partial.err.find("vgpu-sim: warning: --grid 1000 is not a multiple of --block 256 in "
                             "x: the last workgroup has 232 work-items"),
            std::string::npos)
      << partial.err;
  EXPECT_NE(partial.err.find("give --grid 1024"), std::string::npos) << partial.err;
  const std::vector<float> c = floatsOf(slurp(dir.file("partial.bin")));
  ASSERT_EQ(c.size(), static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) EXPECT_EQ(c[i], i < 928 ? a[i] + b[i] : 0.0f) << i;

  const SimResult whole = run(1024, "whole");
  EXPECT_EQ(whole.exitCode, 0) << whole.err;
  EXPECT_EQ(whole.err, "");
  const std::vector<float> cw = floatsOf(slurp(dir.file("whole.bin")));
  ASSERT_EQ(cw.size(), static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) EXPECT_EQ(cw[i], a[i] + b[i]) << i;

  // OpenCL C (a raw ELF from clang): out[gid] = in[gid] * scale + gid, right in the partial
  // workgroup too, and not warned about.
  const SimResult cl =
      runVgpuSim("run " + shellQuote(kernelDir() + "/offset_scale.co") +
                     " offset_scale --grid 1000 --block 256 --platform tiny --quiet --arg " +
                     shellQuote("file:" + dir.file("a.bin")) + " --arg " +
                     shellQuote("zeros:4000,out=" + dir.file("cl.bin")) + " --arg f32:2",
                 dir, "cl");
  EXPECT_EQ(cl.exitCode, 0) << cl.err;
  EXPECT_EQ(cl.err, "");
  const std::vector<float> out = floatsOf(slurp(dir.file("cl.bin")));
  ASSERT_EQ(out.size(), static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) EXPECT_EQ(out[i], a[i] * 2.0f + static_cast<float>(i)) << i;
}

// extern __shared__ without --dynamic-lds: the kernel has no LDS of its own but accesses it.
TEST(CliWarnings, DynamicLdsNotGiven) {
  ScratchDir dir;
  std::vector<int32_t> in(128);
  for (int i = 0; i < 128; ++i) in[i] = 7 * i + 3;
  writeBytes(dir.file("in.bin"), in);
  auto run = [&](const std::string& options, const std::string& tag) {
    return runVgpuSim("run " + shellQuote(kernelDir() + "/arg_kinds_hip.co") +
                          " dyn_shared --grid 128 --block 64 --platform tiny --quiet " + options +
                          " --arg " + shellQuote("file:" + dir.file("in.bin")) + " --arg " +
                          shellQuote("zeros:512,out=" + dir.file(tag + ".bin")),
                      dir, tag);
  };
  const SimResult without = run("", "without");
  EXPECT_EQ(without.exitCode, 0) << without.err;
  EXPECT_NE(without.err.find("vgpu-sim: warning: kernel 'dyn_shared' accesses LDS (ds_write_b32"),
            std::string::npos)
      << without.err;
  EXPECT_NE(without.err.find("needs --dynamic-lds BYTES"), std::string::npos) << without.err;
  const SimResult with = run("--dynamic-lds 256", "with");
  EXPECT_EQ(with.exitCode, 0) << with.err;
  EXPECT_EQ(with.err, "");
  const std::string out = slurp(dir.file("with.bin"));
  ASSERT_EQ(out.size(), 512u);
  for (int i = 0; i < 128; ++i) {
    int32_t v;
    std::memcpy(&v, out.data() + 4 * i, 4);
    EXPECT_EQ(v, in[i / 64 * 64 + 63 - i % 64]) << i;
  }
  // A kernel without LDS accesses gets no such warning (vector_add above), nor does one whose
  // LDS is its own: transpose_tiled declares its tile __shared__.
}

// A bundle holding gfx900 and gfx906 code runs on either platform: run takes the entry for the
// platform's processor.
TEST(CliWarnings, FatBundleRunsOnEitherProcessor) {
  ScratchDir dir;
  for (const char* platform : {"vega10", "tiny"}) {
    const SimResult r = runVgpuSim("run " + shellQuote(kernelDir() + "/vector_add_fat.co") +
                                       " vector_add --grid 64 --block 64 --platform " + platform +
                                       " --arg zeros:256 --arg zeros:256 --arg zeros:256 "
                                       "--arg i32:64",
                                   dir, platform);
    EXPECT_EQ(r.exitCode, 0) << platform << ": " << r.err;
    EXPECT_NE(r.out.find(std::string("on ") + platform + ":"), std::string::npos) << r.out;
  }
}

// ---- printf ------------------------------------------------------------------------------------

// HIP printf needs the hostcall buffer, which vgpu-sim does not provide: named before the run
// and in the fault report, instead of a bare memory violation.
TEST(CliPrintf, NamedWhenTheKernelCallsIt) {
  ScratchDir dir;
  const SimResult r = runVgpuSim("run " + shellQuote(kernelDir() + "/printf_hip.co") +
                                     " hip_printf --grid 64 --block 64 --platform tiny --quiet" +
                                     " --arg zeros:256",
                                 dir);
  EXPECT_EQ(r.exitCode, 3) << r.err;
  EXPECT_NE(r.err.find("vgpu-sim: warning: kernel 'hip_printf' calls printf"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("hidden_hostcall_buffer"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("note: probably printf"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
}

// ---- fault reports in code-object offsets ------------------------------------------------------

// The faulting instruction's offset is where `vgpu-sim disasm` shows that instruction.
TEST(CliFaults, OffsetsMatchDisasm) {
  ScratchDir dir;
  const std::string co = shellQuote(kernelDir() + "/vector_add.co");
  const SimResult r =
      runVgpuSim("run " + co +
                     " vector_add --grid 1048576 --block 256 --platform tiny --quiet"
                     " --arg zeros:256 --arg zeros:256 --arg zeros:256 --arg i32:1048576",
                 dir);
  ASSERT_EQ(r.exitCode, 3) << r.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(
      r.err, m,
      std::regex("instruction at 0x[0-9a-f]+, offset 0x([0-9a-f]+)\\), encoding[^:]*: "
                 "([a-z_0-9]+)")))
      << r.err;
  const uint64_t offset = std::stoull(m[1].str(), nullptr, 16);
  const std::string mnemonic = m[2].str();
  EXPECT_NE(r.err.find("\n  PC 0x"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("(code object offset 0x"), std::string::npos) << r.err;
  const SimResult d = runVgpuSim("disasm " + co + " vector_add", dir, "disasm");
  ASSERT_EQ(d.exitCode, 0) << d.err;
  char address[32];
  std::snprintf(address, sizeof address, "// %012llX:", static_cast<unsigned long long>(offset));
  const size_t at = d.out.find(address);
  ASSERT_NE(at, std::string::npos) << address << " not in:\n" << d.out;
  const size_t lineStart = d.out.rfind('\n', at) + 1;
  EXPECT_EQ(d.out.compare(lineStart + 1, mnemonic.size(), mnemonic), 0)
      << d.out.substr(lineStart, at - lineStart);
}

}  // namespace
}  // namespace vgpu::test
