// vgpu-sim's command line: vgpu::cli::parse and parseArg (plain C++).
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "ExpectInputError.h"
#include "common/Error.h"
#include "sc_main/CommandLine.h"

namespace vgpu::cli {
namespace {

using Args = std::vector<std::string>;

using test::expectInputError;

Args run(std::initializer_list<std::string> extra) {
  Args a{"run", "k.co", "kern", "--grid", "64", "--block", "64"};
  a.insert(a.end(), extra);
  return a;
}

float asFloat(uint64_t bits) {
  float f;
  const uint32_t b = static_cast<uint32_t>(bits);
  std::memcpy(&f, &b, 4);
  return f;
}
double asDouble(uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, 8);
  return d;
}

TEST(CommandLine, ScalarArgs) {
  ArgSpec a = parseArg("i32:-5");
  EXPECT_EQ(a.kind, ArgSpec::Kind::I32);
  EXPECT_EQ(a.bits, 0xfffffffbull);  // only the low 4 bytes
  EXPECT_EQ(a.sizeBytes(), 4u);
  EXPECT_EQ(a.text, "-5");
  EXPECT_FALSE(a.isBuffer());
  a = parseArg("u32:4294967295");
  EXPECT_EQ(a.kind, ArgSpec::Kind::U32);
  EXPECT_EQ(a.bits, 0xffffffffull);
  a = parseArg("i64:-1");
  EXPECT_EQ(a.kind, ArgSpec::Kind::I64);
  EXPECT_EQ(a.bits, ~0ull);
  EXPECT_EQ(a.sizeBytes(), 8u);
  a = parseArg("u64:18446744073709551615");
  EXPECT_EQ(a.kind, ArgSpec::Kind::U64);
  EXPECT_EQ(a.bits, ~0ull);
  a = parseArg("f32:1.5");
  EXPECT_EQ(a.kind, ArgSpec::Kind::F32);
  EXPECT_EQ(a.sizeBytes(), 4u);
  EXPECT_EQ(asFloat(a.bits), 1.5f);
  EXPECT_EQ(a.bits >> 32, 0u);
  a = parseArg("f64:-0.25");
  EXPECT_EQ(a.kind, ArgSpec::Kind::F64);
  EXPECT_EQ(asDouble(a.bits), -0.25);
}

TEST(CommandLine, IntegerRanges) {
  EXPECT_EQ(parseArg("i32:2147483647").bits, 0x7fffffffull);
  EXPECT_EQ(parseArg("i32:-2147483648").bits, 0x80000000ull);
  expectInputError([] { parseArg("i32:2147483648"); }, {"32 bits"});
  expectInputError([] { parseArg("i32:-2147483649"); }, {"32 bits"});
  expectInputError([] { parseArg("u32:4294967296"); }, {"32 bits"});
  expectInputError([] { parseArg("u32:-1"); }, {"negative"});
  expectInputError([] { parseArg("u64:-1"); }, {"negative"});
  expectInputError([] { parseArg("i64:9223372036854775808"); }, {"i64"});
  expectInputError([] { parseArg("u64:18446744073709551616"); }, {"u64"});
}

TEST(CommandLine, HexIntegers) {
  EXPECT_EQ(parseArg("u32:0xffffffff").bits, 0xffffffffull);
  EXPECT_EQ(parseArg("i32:0x10").bits, 16u);
  EXPECT_EQ(parseArg("u64:0x123456789abcdef0").bits, 0x123456789abcdef0ull);
  expectInputError([] { parseArg("u32:0x100000000"); }, {"32 bits"});
}

TEST(CommandLine, LeadingZeroIsDecimal) {
  // "010" on a command line means ten; reading it as octal 8 would silently change the value.
  EXPECT_EQ(parseArg("i32:010").bits, 10u);
  EXPECT_EQ(parseArg("u32:0100").bits, 100u);
}

TEST(CommandLine, NegativeUnsignedWithLeadingSpaceIsRefused) {
  expectInputError([] { parseArg("u64: -1"); }, {"u64"});
}

TEST(CommandLine, MalformedScalars) {
  expectInputError([] { parseArg("i32:12abc"); }, {"12abc"});
  expectInputError([] { parseArg("i32:"); }, {"missing value"});
  expectInputError([] { parseArg("f32:1.5x"); }, {"1.5x"});
  expectInputError([] { parseArg("f64:"); }, {"missing value"});
  expectInputError([] { parseArg("u32:0x"); }, {"0x"});
}

TEST(CommandLine, FloatOutOfRangeIsRefused) {
  // Integers that do not fit are errors; a float literal that does not fit must not silently
  // become infinity.
  expectInputError([] { parseArg("f32:1e39"); }, {"f32:1e39"});
  expectInputError([] { parseArg("f64:1e400"); }, {"f64:1e400"});
}

TEST(CommandLine, SpecialFloats) {
  EXPECT_EQ(parseArg("f32:-0").bits, 0x80000000ull);
  EXPECT_EQ(parseArg("f64:0x1p-2").bits, 0x3fd0000000000000ull);  // hex float: 0.25
}

// The small kinds of issue 20: width, sign and range, each value's bytes as the GPU reads them.
TEST(CommandLine, SmallIntegerBoolAndLocalArgs) {
  EXPECT_EQ(parseArg("i8:-1").valueBytes(), std::vector<uint8_t>({0xff}));
  EXPECT_EQ(parseArg("u8:0x80").valueBytes(), std::vector<uint8_t>({0x80}));
  EXPECT_EQ(parseArg("i16:-2").valueBytes(), std::vector<uint8_t>({0xfe, 0xff}));
  EXPECT_EQ(parseArg("u16:65535").valueBytes(), std::vector<uint8_t>({0xff, 0xff}));
  EXPECT_EQ(parseArg("bool:true").valueBytes(), std::vector<uint8_t>({1}));
  EXPECT_EQ(parseArg("bool:0").valueBytes(), std::vector<uint8_t>({0}));
  expectInputError([] { parseArg("i8:128"); }, {"does not fit in 8 bits"});
  expectInputError([] { parseArg("i8:-129"); }, {"does not fit in 8 bits"});
  expectInputError([] { parseArg("u16:65536"); }, {"does not fit in 16 bits"});
  expectInputError([] { parseArg("u8:-1"); }, {"negative"});
  expectInputError([] { parseArg("bool:yes"); }, {"not a bool"});
  const ArgSpec local = parseArg("local:1024");
  EXPECT_EQ(local.kind, ArgSpec::Kind::Local);
  EXPECT_EQ(local.bytes, 1024u);
  EXPECT_EQ(local.sizeBytes(), 4u);
  expectInputError([] { parseArg("local:0"); }, {"at least 1 byte"});
  expectInputError([] { parseArg("local:65537"); }, {"too large"});
}

// binary16 patterns from the IEEE 754 tables; ties go to the even neighbour.
TEST(CommandLine, HalfArgs) {
  EXPECT_EQ(parseArg("f16:1").bits, 0x3c00u);
  EXPECT_EQ(parseArg("f16:-2.5").bits, 0xc100u);
  EXPECT_EQ(parseArg("f16:0.1").bits, 0x2e66u);
  EXPECT_EQ(parseArg("f16:65504").bits, 0x7bffu);      // largest finite
  EXPECT_EQ(parseArg("f16:0x1p-14").bits, 0x0400u);    // smallest normal
  EXPECT_EQ(parseArg("f16:0x1p-24").bits, 0x0001u);    // smallest subnormal
  EXPECT_EQ(parseArg("f16:0x1p-25").bits, 0x0000u);    // tie with 0: even
  EXPECT_EQ(parseArg("f16:0x1.002p0").bits, 0x3c00u);  // 1 + 2^-11: tie, even is 0x3c00
  EXPECT_EQ(parseArg("f16:0x1.006p0").bits, 0x3c02u);  // 1 + 3 * 2^-11: tie, even is 0x3c02
  EXPECT_EQ(parseArg("f16:-0").bits, 0x8000u);
  EXPECT_EQ(parseArg("f16:inf").bits, 0x7c00u);
  EXPECT_EQ(parseArg("f16:0.333333333333").bits, 0x3555u);
  EXPECT_EQ(parseArg("f16:0").sizeBytes(), 2u);
  expectInputError([] { parseArg("f16:65520"); }, {"out of range for f16"});
}

TEST(CommandLine, UnknownKindAndMissingColon) {
  expectInputError([] { parseArg("i24:4"); }, {"unknown kind", "i24"});
  expectInputError([] { parseArg("1234"); }, {"KIND:VALUE"});
}

TEST(CommandLine, BufferArgs) {
  ArgSpec a = parseArg("file:data/in.bin");
  EXPECT_EQ(a.kind, ArgSpec::Kind::File);
  EXPECT_EQ(a.path, "data/in.bin");
  EXPECT_TRUE(a.outPath.empty());
  EXPECT_TRUE(a.isBuffer());
  a = parseArg("zeros:4096");
  EXPECT_EQ(a.kind, ArgSpec::Kind::Zeros);
  EXPECT_EQ(a.bytes, 4096u);
  EXPECT_TRUE(a.isBuffer());
}

TEST(CommandLine, OutPaths) {
  ArgSpec a = parseArg("zeros:64,out=c.bin");
  EXPECT_EQ(a.bytes, 64u);
  EXPECT_EQ(a.outPath, "c.bin");
  a = parseArg("file:a.bin,out=/tmp/a-out.bin");
  EXPECT_EQ(a.path, "a.bin");
  EXPECT_EQ(a.outPath, "/tmp/a-out.bin");
  a = parseArg("file:dir,with,commas/x.bin,out=y.bin");  // the last ",out=" splits
  EXPECT_EQ(a.path, "dir,with,commas/x.bin");
  EXPECT_EQ(a.outPath, "y.bin");
  expectInputError([] { parseArg("zeros:64,out="); }, {"out= needs a path"});
  expectInputError([] { parseArg("file:,out=x.bin"); }, {"needs a path"});
  expectInputError([] { parseArg("i32:5,out=x.bin"); }, {"5,out=x.bin"});
}

TEST(CommandLine, ZerosSizes) {
  expectInputError([] { parseArg("zeros:0"); }, {"at least 1 byte"});
  expectInputError([] { parseArg("zeros:"); }, {"not a non-negative integer"});
  expectInputError([] { parseArg("zeros:-4"); }, {"not a non-negative integer"});
  expectInputError([] { parseArg("zeros:1k"); }, {"not a non-negative integer"});
  EXPECT_EQ(parseArg("zeros:68719476736").bytes, 1ull << 36);
  expectInputError([] { parseArg("zeros:68719476737"); }, {"too large"});
  expectInputError([] { parseArg("file:"); }, {"needs a path"});
}

TEST(CommandLine, RunWithEverything) {
  const Options o = parse(Args{"run",        "k.co",
                               "vector_add", "--grid",
                               "1024,2,3",   "--block",
                               "256,1,2",    "--arg",
                               "file:a.bin", "--arg",
                               "i32:7",      "--platform",
                               "tiny",       "--dynamic-lds",
                               "1024",       "--global-offset",
                               "5,6",        "--stats",
                               "s.json",     "--max-cycles",
                               "100000",     "-q"});
  EXPECT_EQ(o.command, "run");
  EXPECT_EQ(o.codeObject, "k.co");
  EXPECT_EQ(o.kernel, "vector_add");
  EXPECT_EQ(o.grid[0], 1024u);
  EXPECT_EQ(o.grid[1], 2u);
  EXPECT_EQ(o.grid[2], 3u);
  EXPECT_EQ(o.block[0], 256u);
  EXPECT_EQ(o.block[2], 2u);
  ASSERT_EQ(o.args.size(), 2u);
  EXPECT_EQ(o.args[0].kind, ArgSpec::Kind::File);
  EXPECT_EQ(o.args[1].bits, 7u);
  EXPECT_EQ(o.platform, "tiny");
  EXPECT_EQ(o.dynamicLds, 1024u);
  EXPECT_EQ(o.globalOffset[0], 5u);
  EXPECT_EQ(o.globalOffset[1], 6u);
  EXPECT_EQ(o.globalOffset[2], 0u);
  EXPECT_EQ(o.statsPath, "s.json");
  EXPECT_EQ(o.maxCycles, 100000u);
  EXPECT_TRUE(o.quiet);
}

TEST(CommandLine, Defaults) {
  const Options o = parse(run({}));
  EXPECT_EQ(o.platform, "vega20");
  EXPECT_EQ(o.grid[1], 1u);
  EXPECT_EQ(o.grid[2], 1u);
  EXPECT_EQ(o.dynamicLds, 0u);
  EXPECT_EQ(o.maxCycles, 0u);
  EXPECT_FALSE(o.quiet);
  EXPECT_TRUE(o.args.empty());
}

TEST(CommandLine, OptionsMayComeBeforePositionals) {
  const Options o = parse(Args{"run", "--grid", "8", "k.co", "--block", "8", "kern"});
  EXPECT_EQ(o.codeObject, "k.co");
  EXPECT_EQ(o.kernel, "kern");
}

TEST(CommandLine, GridDimensions) {
  EXPECT_EQ(parse(run({"--grid", "4,5"})).grid[1], 5u);
  expectInputError([] { parse(run({"--grid", "0"})); }, {"--grid", "at least 1"});
  expectInputError([] { parse(run({"--grid", "4,0,1"})); }, {"--grid", "at least 1"});
  expectInputError([] { parse(run({"--grid", "1,2,3,4"})); }, {"--grid", "three"});
  expectInputError([] { parse(run({"--grid", "4,"})); }, {"--grid"});
  expectInputError([] { parse(run({"--grid", ",4"})); }, {"--grid"});
  expectInputError([] { parse(run({"--grid", "-4"})); }, {"--grid"});
  expectInputError([] { parse(run({"--grid", "4294967296"})); }, {"--grid", "too large"});
  EXPECT_EQ(parse(run({"--grid", "4294967295"})).grid[0], 4294967295u);
}

TEST(CommandLine, BlockLimit) {
  EXPECT_EQ(parse(run({"--block", "1024"})).block[0], 1024u);
  EXPECT_EQ(parse(run({"--block", "16,16,4"})).block[2], 4u);
  expectInputError([] { parse(run({"--block", "1025"})); }, {"1025", "1024"});
  expectInputError([] { parse(run({"--block", "32,32,2"})); }, {"2048", "1024"});
}

TEST(CommandLine, BlockLimitSurvivesProductOverflow) {
  // 2^22 * 2^21 * 2^21 = 2^64: the product must not wrap around to 0 work-items.
  expectInputError([] { parse(run({"--block", "4194304,2097152,2097152"})); }, {"1024"});
}

TEST(CommandLine, GlobalOffsetAllowsZeroAndChecksDims) {
  EXPECT_EQ(parse(run({"--global-offset", "0,0,9"})).globalOffset[2], 9u);
  expectInputError([] { parse(run({"--global-offset", "1,2,3,4"})); }, {"three"});
  expectInputError([] { parse(run({"--global-offset", "x"})); }, {"--global-offset"});
}

TEST(CommandLine, NumericOptionLimits) {
  EXPECT_EQ(parse(run({"--dynamic-lds", "65536"})).dynamicLds, 65536u);
  expectInputError([] { parse(run({"--dynamic-lds", "65537"})); }, {"--dynamic-lds"});
  EXPECT_EQ(parse(run({"--max-cycles", "18446744073709551615"})).maxCycles, ~0ull);
  expectInputError(
      [] {
        parse(run({"--max-cycles", "18446744073709551616"}));
      },
      {"--max-cycles", "too large"});
  expectInputError([] { parse(run({"--max-cycles", "1e6"})); }, {"--max-cycles"});
}

TEST(CommandLine, MissingValues) {
  for (const char* opt : {"--grid", "--block", "--arg", "--platform", "--dynamic-lds",
                          "--global-offset", "--stats", "--max-cycles"}) {
    expectInputError([&] { parse(Args{"run", "k.co", "kern", opt}); }, {opt, "needs a value"});
  }
}

TEST(CommandLine, RunNeedsGridAndBlock) {
  expectInputError([] { parse(Args{"run", "k.co", "kern", "--block", "64"}); }, {"--grid"});
  expectInputError([] { parse(Args{"run", "k.co", "kern", "--grid", "64"}); }, {"--block"});
}

TEST(CommandLine, UnknownOptionAndCommand) {
  expectInputError([] { parse(run({"--gird", "4"})); }, {"unknown option", "--gird"});
  expectInputError([] { parse(Args{"launch", "k.co"}); }, {"unknown command", "launch"});
  expectInputError([] { parse(Args{}); }, {"no command"});
}

TEST(CommandLine, PositionalArgumentsPerCommand) {
  expectInputError(
      [] {
        parse(Args{"run", "k.co", "--grid", "1", "--block", "1"});
      },
      {"usage: vgpu-sim run"});
  expectInputError(
      [] {
        parse(Args{"run", "a", "b", "c", "--grid", "1", "--block", "1"});
      },
      {"usage: vgpu-sim run"});
  Options o = parse(Args{"list", "k.co"});
  EXPECT_EQ(o.command, "list");
  EXPECT_EQ(o.codeObject, "k.co");
  expectInputError([] { parse(Args{"list"}); }, {"usage: vgpu-sim list"});
  expectInputError([] { parse(Args{"list", "a", "b"}); }, {"usage: vgpu-sim list"});
  o = parse(Args{"disasm", "k.co"});
  EXPECT_EQ(o.codeObject, "k.co");
  EXPECT_TRUE(o.kernel.empty());
  o = parse(Args{"disasm", "k.co", "kern"});
  EXPECT_EQ(o.kernel, "kern");
  expectInputError([] { parse(Args{"disasm"}); }, {"usage: vgpu-sim disasm"});
  expectInputError([] { parse(Args{"disasm", "a", "b", "c"}); }, {"usage: vgpu-sim disasm"});
  EXPECT_EQ(parse(Args{"platforms"}).command, "platforms");
  expectInputError([] { parse(Args{"platforms", "tiny"}); }, {"usage: vgpu-sim platforms"});
}

TEST(CommandLine, Help) {
  for (const char* h : {"help", "--help", "-h"}) EXPECT_EQ(parse(Args{h}).command, "help");
  EXPECT_NE(std::string(usage()).find("vgpu-sim run"), std::string::npos);
}

TEST(CommandLine, ArgValuesMayStartWithADash) {
  const Options o = parse(run({"--arg", "i32:-1", "--stats", "-"}));
  EXPECT_EQ(o.args[0].bits, 0xffffffffull);
  EXPECT_EQ(o.statsPath, "-");
}

}  // namespace
}  // namespace vgpu::cli
