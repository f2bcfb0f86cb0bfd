// vgpu-sim's options from their three sources: the VGPU_* environment (cli::fromEnvironment,
// and cli::parse with Environment::Read), option files (--options FILE, cli::parseOptionText),
// and their precedence under the command line; the help generated from the option table;
// bytes:HEX kernel arguments. Every test runs in its own process, so setting variables here
// touches no other test.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "ExpectInputError.h"
#include "common/Error.h"
#include "sc_main/CommandLine.h"

namespace vgpu::cli {
namespace {

using Args = std::vector<std::string>;

using test::expectInputError;

// Sets variables for one test and removes them afterwards.
class Env {
 public:
  Env(std::initializer_list<std::pair<const char*, const char*>> vars) {
    for (const auto& [name, value] : vars) {
      ::setenv(name, value, 1);
      names_.push_back(name);
    }
  }
  ~Env() {
    for (const std::string& n : names_) ::unsetenv(n.c_str());
  }

 private:
  std::vector<std::string> names_;
};

// An option file in the test's scratch directory.
std::string optionFile(const std::string& name, const std::string& text) {
  const std::string path = std::string(VGPU_TEST_SCRATCH_DIR) + "/" + name;
  std::ofstream(path) << text;
  return path;
}

Args run(std::initializer_list<std::string> extra) {
  Args a{"run", "k.co", "kern", "--grid", "64", "--block", "64"};
  a.insert(a.end(), extra);
  return a;
}

// ---- the environment --------------------------------------------------------------------------

TEST(OptionSources, EnvironmentSetsSimulatorOptions) {
  const Env env{
      {"VGPU_PLATFORM", "tiny"},       {"VGPU_MODE", "functional"},   {"VGPU_STATS", "/tmp/s.json"},
      {"VGPU_MAX_CYCLES", "5000"},     {"VGPU_WATCHDOG_CYCLES", "0"}, {"VGPU_QUIET", "1"},
      {"VGPU_CHECK_HAZARDS", "yes"},   {"VGPU_LDS_ARBITER", "cpp"},   {"VGPU_VCD", "a.vcd"},
      {"VGPU_VCD_WINDOW", "10:20"},    {"VGPU_VCD_SCOPE", "cu0,l2"},  {"VGPU_TIMELINE", "t.json"},
      {"VGPU_TIMELINE_WINDOW", "3:4"}, {"VGPU_REPORT", "r.html"},     {"VGPU_PROGRESS", "on"}};
  const Options o = fromEnvironment();
  EXPECT_EQ(o.platform, "tiny");
  EXPECT_TRUE(o.functionalMode);
  EXPECT_EQ(o.statsPath, "/tmp/s.json");
  EXPECT_EQ(o.maxCycles, 5000u);
  ASSERT_TRUE(o.watchdogCycles.has_value());
  EXPECT_EQ(*o.watchdogCycles, 0u);
  EXPECT_TRUE(o.quiet);
  EXPECT_TRUE(o.checkHazards);
  EXPECT_EQ(o.ldsArbiter, "cpp");
  EXPECT_EQ(o.vcdPath, "a.vcd");
  EXPECT_EQ(o.vcdStart, 10u);
  EXPECT_EQ(o.vcdEnd, 20u);
  EXPECT_EQ(o.vcdScope, (std::vector<std::string>{"cu0", "l2"}));
  EXPECT_EQ(o.timelinePath, "t.json");
  EXPECT_EQ(o.timelineStart, 3u);
  EXPECT_EQ(o.timelineEnd, 4u);
  EXPECT_EQ(o.reportPath, "r.html");
  EXPECT_TRUE(o.progress);
}

// Windows counted from the kernel's start, from every source, and through exec's variables.
TEST(OptionSources, KernelRelativeWindows) {
  const Options o = parse(run({"--vcd", "a.vcd", "--vcd-window", "kernel+10:20", "--timeline",
                               "t.json", "--timeline-window", "5:6"}));
  EXPECT_TRUE(o.vcdFromKernel);
  EXPECT_EQ(o.vcdStart, 10u);
  EXPECT_EQ(o.vcdEnd, 20u);
  EXPECT_FALSE(o.timelineFromKernel);
  EXPECT_EQ(o.timelineStart, 5u);
  {
    const Env env{{"VGPU_TIMELINE", "t.json"}, {"VGPU_TIMELINE_WINDOW", "kernel+0:400"}};
    const Options e = fromEnvironment();
    EXPECT_TRUE(e.timelineFromKernel);
    EXPECT_EQ(e.timelineStart, 0u);
    EXPECT_EQ(e.timelineEnd, 400u);
  }
  const auto vars = execEnvironment({"--vcd", "a.vcd", "--vcd-window", "kernel+7:9"});
  EXPECT_NE(std::find(vars.begin(), vars.end(),
                      std::make_pair(std::string("VGPU_VCD_WINDOW"), std::string("kernel+7:9"))),
            vars.end());
  expectInputError(
      [] {
        parse(run({"--vcd", "a.vcd", "--vcd-window", "kernel+10"}));
      },
      {"--vcd-window: expected START:END or kernel+START:END ('kernel+10')"});
  expectInputError(
      [] {
        parse(run({"--vcd", "a.vcd", "--vcd-window", "kernel-1:10"}));
      },
      {"--vcd-window START: 'kernel-1' is not a non-negative integer"});
  expectInputError(
      [] {
        parse(run({"--timeline", "t.json", "--timeline-window", "kernel+9:3"}));
      },
      {"--timeline-window: END is before START ('kernel+9:3')"});
}

TEST(OptionSources, EmptyEnvironmentGivesTheDefaults) {
  const Options o = fromEnvironment();
  EXPECT_EQ(o.platform, "vega20");
  EXPECT_FALSE(o.functionalMode);
  EXPECT_FALSE(o.quiet);
  EXPECT_FALSE(o.watchdogCycles.has_value()) << "unset: the platform's";
  EXPECT_EQ(o.maxCycles, 0u);
}

TEST(OptionSources, EnvironmentLeavesLaunchOptionsAndOtherVariablesAlone) {
  // A launch's shape and arguments are not session settings; VGPU_* variables of the build and
  // test scripts are not options; a misspelt variable is not an error either (it is someone
  // else's until proven otherwise).
  const Env env{{"VGPU_GRID", "4"},        {"VGPU_BLOCK", "4"},
                {"VGPU_ARG", "i32:1"},     {"VGPU_DYNAMIC_LDS", "64"},
                {"VGPU_OPTIONS", "x.cfg"}, {"VGPU_FUZZ_SECONDS", "0"},
                {"VGPU_PLATFROM", "tiny"}, {"VGPU_RELIABILITY_LOG_DIR", "/tmp"},
                {"vgpu_platform", "mi60"}};
  const Options o = fromEnvironment();
  EXPECT_FALSE(o.gridGiven);
  EXPECT_FALSE(o.blockGiven);
  EXPECT_TRUE(o.args.empty());
  EXPECT_EQ(o.dynamicLds, 0u);
  EXPECT_EQ(o.platform, "vega20");
}

TEST(OptionSources, BadEnvironmentValueNamesTheVariable) {
  {
    const Env env{{"VGPU_MAX_CYCLES", "lots"}};
    expectInputError([] { fromEnvironment(); }, {"VGPU_MAX_CYCLES", "'lots'"});
  }
  {
    const Env env{{"VGPU_MODE", "fast"}};
    expectInputError([] { fromEnvironment(); }, {"VGPU_MODE", "--mode must be"});
  }
  {
    const Env env{{"VGPU_QUIET", "maybe"}};
    expectInputError([] { fromEnvironment(); }, {"VGPU_QUIET", "'maybe'"});
  }
  {
    const Env env{{"VGPU_VCD_WINDOW", "5:9"}};
    expectInputError([] { fromEnvironment(); }, {"--vcd-window needs --vcd"});
  }
}

TEST(OptionSources, ParseReadsTheEnvironmentOnlyWhenAsked) {
  const Env env{{"VGPU_PLATFORM", "tiny"}, {"VGPU_QUIET", "true"}};
  Options o = parse(run({}));
  EXPECT_EQ(o.platform, "vega20");
  EXPECT_FALSE(o.quiet);
  o = parse(run({}), Environment::Read);
  EXPECT_EQ(o.platform, "tiny");
  EXPECT_TRUE(o.quiet);
}

// ---- option files -----------------------------------------------------------------------------

TEST(OptionSources, OptionFileText) {
  const Options o = parseOptionText(
      "# a long option set, kept in a file\n"
      "platform = tiny\n"
      "grid = 128,2\n"
      "block=64\n"
      "  mode = functional  \n"
      "arg = zeros:256,out=c.bin\n"
      "arg = i32:-7\n"
      "quiet = true\n"
      "vcd-scope = cu0\n"
      "vcd-scope = l2,dram\n"
      "vcd = w.vcd\n",
      "my.cfg");
  EXPECT_EQ(o.platform, "tiny");
  EXPECT_TRUE(o.gridGiven);
  EXPECT_EQ(o.grid[0], 128u);
  EXPECT_EQ(o.grid[1], 2u);
  EXPECT_EQ(o.block[0], 64u);
  EXPECT_TRUE(o.functionalMode);
  ASSERT_EQ(o.args.size(), 2u);
  EXPECT_EQ(o.args[0].kind, ArgSpec::Kind::Zeros);
  EXPECT_EQ(o.args[0].outPath, "c.bin");
  EXPECT_EQ(o.args[1].bits, 0xfffffff9u);
  EXPECT_TRUE(o.quiet);
  EXPECT_EQ(o.vcdScope, (std::vector<std::string>{"cu0", "l2", "dram"}));
}

TEST(OptionSources, OptionFileLastValueWins) {
  EXPECT_EQ(parseOptionText("platform = mi60\nplatform = tiny\n", "f").platform, "tiny");
}

TEST(OptionSources, OptionFileErrorsNameTheFile) {
  expectInputError([] { parseOptionText("max-cycels = 10\n", "my.cfg"); },
                   {"my.cfg", "unknown option 'max-cycels'", "did you mean max-cycles"});
  expectInputError([] { parseOptionText("--grid = 10\n", "my.cfg"); },
                   {"my.cfg", "did you mean grid"});
  expectInputError([] { parseOptionText("max-cycles = 1e6\n", "my.cfg"); },
                   {"my.cfg", "--max-cycles", "1e6"});
  expectInputError([] { parseOptionText("arg = i24:1\n", "my.cfg"); },
                   {"my.cfg", "unknown kind", "i24"});
  // Files do not name further files: one level, nothing to loop.
  expectInputError([] { parseOptionText("options = other.cfg\n", "my.cfg"); },
                   {"my.cfg", "unknown option 'options'"});
  expectInputError([] { parseOptionText("just some words\n", "my.cfg"); }, {"my.cfg"});
}

TEST(OptionSources, OptionsFileOnTheCommandLine) {
  const std::string path =
      optionFile("OptionsFileOnTheCommandLine.cfg", "platform = tiny\nmax-cycles = 99\n");
  const Options o = parse(run({"--options", path}));
  EXPECT_EQ(o.platform, "tiny");
  EXPECT_EQ(o.maxCycles, 99u);
  expectInputError(
      [] {
        parse(run({"--options", "/no/such/file.cfg"}));
      },
      {"--options", "/no/such/file.cfg", "cannot open"});
  expectInputError([] { parse(run({"--options"})); }, {"--options needs a value"});
  const std::string bad = optionFile("OptionsFileBadLine.cfg", "dynamic-lds = 65537\n");
  expectInputError([&] { parse(run({"--options", bad})); }, {bad.c_str(), "--dynamic-lds"});
  // A value the command line overrides is never read, so it cannot be wrong.
  const std::string shadowed = optionFile("OptionsFileShadowed.cfg", "grid = 0\n");
  EXPECT_EQ(parse(run({"--options", shadowed})).grid[0], 64u);
}

TEST(OptionSources, OptionFileMayHoldTheWholeLaunch) {
  const std::string path = optionFile("OptionFileMayHoldTheWholeLaunch.cfg",
                                      "grid = 1024\nblock = 256\narg = zeros:4\narg = u32:3\n");
  const Options o = parse(Args{"run", "k.co", "kern", "--options", path});
  EXPECT_EQ(o.grid[0], 1024u);
  EXPECT_EQ(o.block[0], 256u);
  ASSERT_EQ(o.args.size(), 2u);
  EXPECT_EQ(o.args[1].bits, 3u);
}

TEST(OptionSources, OptionFileSizeIsBounded) {
  // /dev/zero never ends: the file must be refused, not read until memory runs out.
  expectInputError([] { parse(run({"--options", "/dev/zero"})); }, {"/dev/zero", "1 MiB"});
}

// ---- precedence: command line > file > environment > defaults -------------------------------

TEST(OptionSources, Precedence) {
  const Env env{{"VGPU_PLATFORM", "vega10"},
                {"VGPU_MODE", "functional"},
                {"VGPU_MAX_CYCLES", "300"},
                {"VGPU_STATS", "env.json"}};
  const std::string path = optionFile("Precedence.cfg",
                                      "platform = mi60\n"
                                      "mode = timing\n"
                                      "stats = file.json\n");
  const Options o = parse(run({"--options", path, "--platform", "tiny"}), Environment::Read);
  EXPECT_EQ(o.platform, "tiny") << "the command line wins over the file and the environment";
  EXPECT_FALSE(o.functionalMode) << "the file wins over the environment";
  EXPECT_EQ(o.statsPath, "file.json") << "the file wins over the environment";
  EXPECT_EQ(o.maxCycles, 300u) << "the environment wins over the default";
  EXPECT_FALSE(o.watchdogCycles.has_value()) << "no source: the platform's";
  EXPECT_TRUE(o.ldsArbiter.empty()) << "no source: the platform's";
}

TEST(OptionSources, ListsComeWholeFromTheHighestSource) {
  const std::string path =
      optionFile("ListsComeWhole.cfg", "arg = i32:1\narg = i32:2\narg = i32:3\n");
  Options o = parse(run({"--options", path}));
  ASSERT_EQ(o.args.size(), 3u);
  o = parse(run({"--options", path, "--arg", "u64:9"}));
  ASSERT_EQ(o.args.size(), 1u) << "the command line's --arg replaces the file's, not adds to them";
  EXPECT_EQ(o.args[0].kind, ArgSpec::Kind::U64);
  EXPECT_EQ(o.args[0].bits, 9u);
}

TEST(OptionSources, SwitchesCanBeTurnedOffAbove) {
  const Env env{{"VGPU_QUIET", "1"}, {"VGPU_CHECK_HAZARDS", "1"}};
  const std::string path = optionFile("SwitchesOff.cfg", "check-hazards = off\n");
  const Options o = parse(run({"--quiet=false", "--options", path}), Environment::Read);
  EXPECT_FALSE(o.quiet);
  EXPECT_FALSE(o.checkHazards);
  EXPECT_TRUE(parse(run({}), Environment::Read).quiet);
}

TEST(OptionSources, CheckMemoryComesFromTheCommandLineAndFilesOnly) {
  // It concerns vgpu-sim run's buffer arguments, which no VGPU_* variable can mean.
  EXPECT_TRUE(parse(run({"--check-memory"})).checkMemory);
  EXPECT_FALSE(parse(run({})).checkMemory);
  const std::string path = optionFile("CheckMemory.cfg", "check-memory = yes\n");
  EXPECT_TRUE(parse(run({"--options", path})).checkMemory);
  EXPECT_FALSE(parse(run({"--options", path, "--check-memory=false"})).checkMemory);
  const Env env{{"VGPU_CHECK_MEMORY", "1"}};
  EXPECT_FALSE(parse(run({}), Environment::Read).checkMemory);
}

TEST(OptionSources, CombinationsAreCheckedOverAllSources) {
  // The window in the environment, the file it applies to on the command line: fine together.
  const Env env{{"VGPU_VCD_WINDOW", "100:200"}};
  const Options o = parse(run({"--vcd", "a.vcd"}), Environment::Read);
  EXPECT_EQ(o.vcdStart, 100u);
  EXPECT_EQ(o.vcdEnd, 200u);
  expectInputError([] { parse(run({}), Environment::Read); }, {"--vcd-window needs --vcd"});
}

TEST(OptionSources, BadEnvironmentValueThroughParse) {
  const Env env{{"VGPU_WATCHDOG_CYCLES", "-1"}};
  expectInputError([] { parse(run({}), Environment::Read); },
                   {"environment variable VGPU_WATCHDOG_CYCLES", "'-1'"});
  // A value on the command line means the variable is never looked at.
  EXPECT_EQ(*parse(run({"--watchdog-cycles", "7"}), Environment::Read).watchdogCycles, 7u);
}

// ---- the command line through Program_options -----------------------------------------------

TEST(OptionSources, MisspeltOptionGetsASuggestion) {
  expectInputError(
      [] {
        parse(run({"--plattform", "tiny"}));
      },
      {"unknown option '--plattform'", "did you mean --platform?"});
  expectInputError([] { parse(run({"--max-cylces", "5"})); }, {"did you mean --max-cycles?"});
  // Nothing close: no guess, still the option named.
  expectInputError([] { parse(run({"--frobnicate"})); }, {"unknown option '--frobnicate'"});
}

TEST(OptionSources, NoGuessingFromPrefixes) {
  // --gri is not taken for --grid: an abbreviation that works today breaks with the next option.
  expectInputError(
      [] {
        parse(Args{"run", "k.co", "kern", "--gri", "4", "--block", "4"});
      },
      {"unknown option '--gri'"});
}

TEST(OptionSources, LastValueOnTheCommandLineWins) {
  EXPECT_EQ(parse(run({"--platform", "mi60", "--platform", "tiny"})).platform, "tiny");
  EXPECT_EQ(parse(run({"--grid", "8"})).grid[0], 8u);
}

TEST(OptionSources, ValuesAfterEqualsAndAfterDoubleDash) {
  const Options o = parse(Args{"run", "--grid=32", "--block=16", "--", "k.co", "-kern"});
  EXPECT_EQ(o.grid[0], 32u);
  EXPECT_EQ(o.block[0], 16u);
  EXPECT_EQ(o.kernel, "-kern") << "after --, operands may start with a dash";
}

TEST(OptionSources, HelpForACommand) {
  Options o = parse(Args{"help", "run"});
  EXPECT_EQ(o.command, "help");
  EXPECT_EQ(o.helpTopic, "run");
  o = parse(Args{"run", "--help"});
  EXPECT_EQ(o.command, "help");
  EXPECT_EQ(o.helpTopic, "run");
  o = parse(Args{"list", "-h"});
  EXPECT_EQ(o.helpTopic, "list");
  EXPECT_TRUE(parse(Args{"help"}).helpTopic.empty());
  expectInputError([] { parse(Args{"help", "launch"}); }, {"unknown command 'launch'"});
  expectInputError([] { help("launch"); }, {"unknown command 'launch'"});
}

TEST(OptionSources, HelpListsEveryOptionWithUnitAndDefault) {
  const std::string text = help("run");
  for (const char* option : {"--grid X[,Y[,Z]]",
                             "--block X[,Y[,Z]]",
                             "--arg SPEC",
                             "--dynamic-lds BYTES",
                             "--global-offset X[,Y[,Z]]",
                             "--platform NAME|FILE.json",
                             "--mode timing|functional",
                             "--stats FILE.json",
                             "--max-cycles N",
                             "--watchdog-cycles N",
                             "--check-hazards",
                             "--check-memory",
                             "--quiet, -q",
                             "--progress",
                             "--report FILE.html",
                             "--profile-instructions N",
                             "--lds-arbiter cpp|rtl",
                             "--rtl-vcd FILE.vcd",
                             "--vcd FILE.vcd",
                             "--vcd-window [kernel+]START:END",
                             "--vcd-scope BLOCK,...",
                             "--timeline FILE.json",
                             "--timeline-window [kernel+]START:END",
                             "--timeline-scope BLOCK,...",
                             "--options FILE",
                             "--help, -h"})
    EXPECT_NE(text.find(std::string("  ") + option + "\n"), std::string::npos) << option;
  EXPECT_NE(text.find("unit: GPU cycles; default: 0 (no limit); environment: VGPU_MAX_CYCLES"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("unit: platform name or JSON file; default: vega20; environment: "
                      "VGPU_PLATFORM"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("unit: bytes; default: 0\n"), std::string::npos) << "launch options have "
                                                                          "no variable";
  EXPECT_NE(text.find("bytes:HEX"), std::string::npos);
  EXPECT_NE(text.find("command line wins over the file"), std::string::npos);
  // The overview names every command and every option.
  const std::string overview = usage();
  for (const char* part : {"vgpu-sim run", "vgpu-sim list", "vgpu-sim disasm", "vgpu-sim platforms",
                           "vgpu-sim help", "[--timeline-scope BLOCK,...]"})
    EXPECT_NE(overview.find(part), std::string::npos) << part;
  EXPECT_EQ(overview.find("vgpu-sim:"), std::string::npos) << "only messages start that way";
}

// ---- bytes:HEX ----------------------------------------------------------------------------------

TEST(OptionSources, BytesArgument) {
  ArgSpec a = parseArg("bytes:0102030405060708090a0B0c");
  EXPECT_EQ(a.kind, ArgSpec::Kind::Bytes);
  EXPECT_FALSE(a.isBuffer());
  EXPECT_EQ(a.sizeBytes(), 12u);
  EXPECT_EQ(a.valueBytes(), (std::vector<uint8_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}))
      << "memory order: the first pair is the lowest address";
  a = parseArg("bytes:01000000_0000c03f");  // {int 1, float 1.5}, '_' between fields
  EXPECT_EQ(a.valueBytes(), (std::vector<uint8_t>{1, 0, 0, 0, 0, 0, 0xc0, 0x3f}));
  EXPECT_EQ(parseArg("bytes:ff").sizeBytes(), 1u);
  const std::string big(2 * 4096, 'a');
  EXPECT_EQ(parseArg("bytes:" + big).sizeBytes(), 4096u);
}

TEST(OptionSources, ScalarValueBytesAreLittleEndian) {
  EXPECT_EQ(parseArg("i32:-5").valueBytes(), (std::vector<uint8_t>{0xfb, 0xff, 0xff, 0xff}));
  EXPECT_EQ(parseArg("u64:0x0102030405060708").valueBytes(),
            (std::vector<uint8_t>{8, 7, 6, 5, 4, 3, 2, 1}));
}

TEST(OptionSources, MalformedBytes) {
  expectInputError([] { parseArg("bytes:"); }, {"missing value"});
  expectInputError([] { parseArg("bytes:___"); }, {"missing value"});
  expectInputError([] { parseArg("bytes:abc"); }, {"3 hexadecimal digits", "two"});
  expectInputError([] { parseArg("bytes:0x10"); }, {"'x' is not a hexadecimal digit"});
  expectInputError([] { parseArg("bytes:12 34"); }, {"' ' is not a hexadecimal digit"});
  expectInputError([] { parseArg("bytes:12,out=a.bin"); }, {"','"});
  expectInputError([] { parseArg("byte:12"); }, {"unknown kind 'byte'", "bytes"});
}

}  // namespace
}  // namespace vgpu::cli
