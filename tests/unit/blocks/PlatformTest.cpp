// Platform descriptions: built-in platforms, the JSON reader and its error messages.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "ExpectInputError.h"
#include "common/Error.h"
#include "platforms/Platform.h"

namespace vgpu {
namespace {

using test::expectInputError;

PlatformConfig parse(const std::string& json) {
  return parsePlatform(json, "test.json");
}

TEST(Platform, EveryBuiltInPlatformParses) {
  const std::vector<PlatformSummary> all = builtinPlatforms();
  ASSERT_EQ(all.size(), 5u);
  EXPECT_EQ(all[0].name, "mi60");  // sorted by name
  EXPECT_EQ(all[1].name, "radeon_vii");
  EXPECT_EQ(all[2].name, "tiny");
  EXPECT_EQ(all[3].name, "vega10");
  EXPECT_EQ(all[4].name, "vega20");
  for (const PlatformSummary& s : all) {
    EXPECT_FALSE(s.description.empty()) << s.name;
    const PlatformConfig p = loadPlatform(s.name);
    EXPECT_EQ(p.name, s.name);
  }
}

TEST(Platform, BuiltInValues) {
  const PlatformConfig tiny = loadPlatform("tiny");
  EXPECT_EQ(tiny.computeUnits, 1u);
  EXPECT_EQ(tiny.target, isa::GfxTarget::Gfx906);
  EXPECT_DOUBLE_EQ(tiny.clockMHz, 1725.0);
  EXPECT_EQ(tiny.vectorL1.hitLatencyCycles, 120u);
  EXPECT_EQ(tiny.dram.sizeBytes, 1ull << 30);
  const PlatformConfig mi50 = loadPlatform("vega20");
  EXPECT_EQ(mi50.computeUnits, 60u);
  EXPECT_EQ(mi50.dram.sizeBytes, 16ull << 30);
  const PlatformConfig mi60 = loadPlatform("mi60");
  EXPECT_EQ(mi60.computeUnits, 64u);
  EXPECT_DOUBLE_EQ(mi60.clockMHz, 1800.0);
  const PlatformConfig vega10 = loadPlatform("vega10");
  EXPECT_EQ(vega10.target, isa::GfxTarget::Gfx900);
  EXPECT_EQ(vega10.processor, "gfx900");
  EXPECT_EQ(vega10.cu.fp64RateDivisor, 16u);
}

TEST(Platform, EmptyObjectGivesTheDefaults) {
  const PlatformConfig p = parse("{}");
  const PlatformConfig d;
  EXPECT_EQ(p.computeUnits, d.computeUnits);
  EXPECT_EQ(p.l2.sizeBytes, d.l2.sizeBytes);
  EXPECT_EQ(p.target, isa::GfxTarget::Gfx906);
}

TEST(Platform, PlainNumbersAndValueObjects) {
  const PlatformConfig p = parse(R"({"compute_units": 7,
      "clock": {"value": 1000.5, "unit": "MHz", "source": "test"},
      "lds": {"latency": {"value": 33}}, "dram": {"size": 33554432, "peak_bandwidth": 12.5},
      "vector_l1": {"size": {"value": 8192, "unit": "bytes"}, "ways": 2}})");
  EXPECT_EQ(p.computeUnits, 7u);
  EXPECT_DOUBLE_EQ(p.clockMHz, 1000.5);
  EXPECT_EQ(p.lds.latencyCycles, 33u);
  EXPECT_EQ(p.dram.sizeBytes, 32ull << 20);
  EXPECT_DOUBLE_EQ(p.dram.peakBandwidthGBs, 12.5);
  EXPECT_EQ(p.vectorL1.sizeBytes, 8192u);
  EXPECT_EQ(p.vectorL1.ways, 2u);
  EXPECT_EQ(p.vectorL1.lineBytes, 64u);  // untouched default
}

TEST(Platform, LargeIntegersKeepFullPrecision) {
  const PlatformConfig p = parse(R"({"max_cycles": 1000000000000, "dram": {"size": 34359738368}})");
  EXPECT_EQ(p.maxCycles, 1000000000000ull);
  EXPECT_EQ(p.dram.sizeBytes, 32ull << 30);
}

TEST(Platform, UnknownTopLevelKeyIsNamed) {
  expectInputError([] { parse(R"({"compute_unit": 4})"); }, {"test.json", "compute_unit"});
}

TEST(Platform, UnknownNestedKeyIsNamedWithItsSection) {
  expectInputError([] { parse(R"({"l2": {"sise": 4}})"); }, {"l2.", "sise"});
}

TEST(Platform, UnknownFieldInValueObject) {
  expectInputError([] { parse(R"({"clock": {"value": 1, "units": "MHz"}})"); }, {"clock", "units"});
}

TEST(Platform, ValueObjectWithoutValue) {
  expectInputError([] { parse(R"({"clock": {"unit": "MHz"}})"); }, {"clock", "value"});
}

TEST(Platform, WrongTypes) {
  expectInputError([] { parse(R"({"compute_units": "4"})"); }, {"compute_units", "number"});
  expectInputError([] { parse(R"({"name": 4})"); }, {"name", "string"});
  expectInputError([] { parse(R"({"cu": 4})"); }, {"cu", "object"});
  expectInputError([] { parse(R"({"clock": true})"); }, {"clock", "number"});
  expectInputError([] { parse(R"({"clock": {"value": "fast"}})"); }, {"clock", "number"});
  expectInputError([] { parse(R"([1, 2])"); }, {"test.json", "object"});
}

TEST(Platform, NegativeValuesAreRefused) {
  expectInputError([] { parse(R"({"cu": {"valu_cycles": -4}})"); },
                   {"valu_cycles", "non-negative"});
  expectInputError([] { parse(R"({"clock": -1725})"); }, {"clock"});
}

TEST(Platform, NonIntegerForAnIntegerParameter) {
  expectInputError([] { parse(R"({"compute_units": 2.5})"); }, {"compute_units", "integer"});
  expectInputError([] { parse(R"({"l2": {"ways": {"value": 1.5}}})"); }, {"ways", "integer"});
}

TEST(Platform, MoreCacheWaysThanTheTagArraysHoldAreRefused) {
  expectInputError([] { parse(R"({"l2": {"ways": 129}})"); }, {"ways", "at most 126", "129"});
  expectInputError([] { parse(R"({"vector_l1": {"ways": 256}})"); }, {"ways", "256"});
}

TEST(Platform, ValueTooLargeForTheParameterIsRefused) {
  // compute_units is 32-bit: 2^32 + 1 must not silently become 1.
  bool threw = false;
  PlatformConfig p;
  try {
    p = parse(R"({"compute_units": 4294967297})");
  } catch (const InputError& e) {
    threw = true;
    EXPECT_NE(std::string(e.what()).find("compute_units"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(threw) << "accepted as compute_units = " << p.computeUnits;
}

TEST(Platform, UnknownProcessor) {
  expectInputError([] { parse(R"({"processor": "gfx90a"})"); }, {"gfx90a", "gfx906", "gfx900"});
}

TEST(Platform, Gfx900Processor) {
  EXPECT_EQ(parse(R"({"processor": "gfx900"})").target, isa::GfxTarget::Gfx900);
}

TEST(Platform, InvalidJson) {
  expectInputError([] { parse(R"({"compute_units": 4,})"); }, {"test.json", "JSON"});
  expectInputError([] { parse(""); }, {"test.json", "JSON"});
}

TEST(Platform, ConsistencyChecks) {
  expectInputError([] { parse(R"({"compute_units": 0})"); }, {"compute_units"});
  expectInputError([] { parse(R"({"clock": 0})"); }, {"clock"});
  expectInputError([] { parse(R"({"quantum": 0})"); }, {"quantum"});
  expectInputError([] { parse(R"({"vector_l1": {"line": 128}})"); }, {"vector_l1.line"});
  expectInputError([] { parse(R"({"scalar_cache": {"line": 48}})"); }, {"cache"});
  expectInputError([] { parse(R"({"dram": {"size": 1024}})"); }, {"dram.size"});
  expectInputError([] { parse(R"({"cu": {"simds": 1}})"); }, {"16 waves"});
}

TEST(Platform, JsonFilePathWorks) {
  const std::string path = std::string(VGPU_TEST_SCRATCH_DIR) + "/blocks_platform.json";
  {
    std::ofstream out(path);
    out << R"({"name": "mine", "compute_units": 3, "processor": "gfx900"})";
  }
  const PlatformConfig p = loadPlatform(path);
  EXPECT_EQ(p.name, "mine");
  EXPECT_EQ(p.computeUnits, 3u);
  EXPECT_EQ(p.target, isa::GfxTarget::Gfx900);
}

TEST(Platform, ShippedJsonFileLoadsLikeTheBuiltIn) {
  const PlatformConfig file = loadPlatform(std::string(VGPU_PLATFORM_DIR) + "/vega10.json");
  const PlatformConfig builtin = loadPlatform("vega10");
  EXPECT_EQ(file.computeUnits, builtin.computeUnits);
  EXPECT_EQ(file.l2.sizeBytes, builtin.l2.sizeBytes);
  EXPECT_DOUBLE_EQ(file.clockMHz, builtin.clockMHz);
}

TEST(Platform, MissingFileNamesThePath) {
  expectInputError([] { loadPlatform("/nonexistent/dir/p.json"); },
                   {"/nonexistent/dir/p.json", "cannot open"});
}

TEST(Platform, ErrorsInAFileNameTheFile) {
  const std::string path = std::string(VGPU_TEST_SCRATCH_DIR) + "/blocks_bad_platform.json";
  {
    std::ofstream out(path);
    out << R"({"lds": {"bank_count": 32}})";
  }
  expectInputError([&] { loadPlatform(path); }, {path.c_str(), "bank_count"});
}

TEST(Platform, UnknownNameListsTheBuiltIns) {
  expectInputError([] { loadPlatform("vega30"); }, {"vega30", "mi60", "tiny", "vega10", "vega20"});
}

}  // namespace
}  // namespace vgpu
