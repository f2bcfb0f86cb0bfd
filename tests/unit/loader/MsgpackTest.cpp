// The msgpack reader on hand-written encodings: every wire type, every width, and malformed
// input that must be refused without reading past the end or allocating for absent elements.
#include "loader/Msgpack.h"

#include <gtest/gtest.h>

#include <vector>

namespace vgpu::loader::msgpack {
namespace {

using Bytes = std::vector<uint8_t>;

Value parseBytes(const Bytes& bytes) {
  return parse(bytes);
}

// Expects a ParseError whose message contains `fragment`.
void expectError(const Bytes& bytes, const std::string& fragment) {
  try {
    parse(bytes);
    FAIL() << "no error; expected one containing '" << fragment << "'";
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(Msgpack, PositiveAndNegativeFixint) {
  EXPECT_EQ(parseBytes({0x00}).asUInt(), 0u);
  EXPECT_EQ(parseBytes({0x7f}).asUInt(), 127u);
  const Value minusOne = parseBytes({0xff});
  EXPECT_EQ(minusOne.type, Type::Int);
  EXPECT_EQ(minusOne.asInt(), -1);
  EXPECT_FALSE(minusOne.asUInt().has_value());
  EXPECT_EQ(parseBytes({0xe0}).asInt(), -32);
}

TEST(Msgpack, UnsignedIntegersOfEveryWidth) {
  EXPECT_EQ(parseBytes({0xcc, 0xff}).asUInt(), 0xffu);
  EXPECT_EQ(parseBytes({0xcd, 0x12, 0x34}).asUInt(), 0x1234u);
  EXPECT_EQ(parseBytes({0xce, 0x12, 0x34, 0x56, 0x78}).asUInt(), 0x12345678u);
  const Value big = parseBytes({0xcf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe});
  EXPECT_EQ(big.asUInt(), 0xfffffffffffffffeull);
  EXPECT_FALSE(big.asInt().has_value()) << "does not fit in int64";
}

TEST(Msgpack, SignedIntegersOfEveryWidth) {
  EXPECT_EQ(parseBytes({0xd0, 0x80}).asInt(), -128);
  EXPECT_EQ(parseBytes({0xd1, 0xff, 0x00}).asInt(), -256);
  EXPECT_EQ(parseBytes({0xd2, 0xff, 0xff, 0xff, 0xfe}).asInt(), -2);
  EXPECT_EQ(parseBytes({0xd3, 0x80, 0, 0, 0, 0, 0, 0, 0}).asInt(), INT64_MIN);
  // A non-negative value in a signed encoding is the same number as an unsigned one.
  const Value positive = parseBytes({0xd1, 0x01, 0x00});
  EXPECT_EQ(positive.type, Type::UInt);
  EXPECT_EQ(positive.asUInt(), 256u);
}

TEST(Msgpack, FloatsNilAndBool) {
  EXPECT_EQ(parseBytes({0xca, 0x3f, 0xc0, 0x00, 0x00}).floatValue, 1.5);
  const Value d = parseBytes({0xcb, 0x40, 0x09, 0x21, 0xfb, 0x54, 0x44, 0x2d, 0x18});
  EXPECT_EQ(d.type, Type::Float);
  EXPECT_EQ(d.floatValue, 3.141592653589793);
  EXPECT_TRUE(parseBytes({0xc0}).isNil());
  EXPECT_TRUE(parseBytes({0xc3}).boolean);
  const Value no = parseBytes({0xc2});
  EXPECT_EQ(no.type, Type::Bool);
  EXPECT_FALSE(no.boolean);
}

TEST(Msgpack, StringsOfEveryWidth) {
  EXPECT_EQ(parseBytes({0xa3, 'a', 'b', 'c'}).asString(), "abc");
  EXPECT_EQ(parseBytes({0xa0}).asString(), "");
  EXPECT_EQ(parseBytes({0xd9, 0x02, 'h', 'i'}).asString(), "hi");
  EXPECT_EQ(parseBytes({0xda, 0x00, 0x01, 'x'}).asString(), "x");
  EXPECT_EQ(parseBytes({0xdb, 0x00, 0x00, 0x00, 0x02, 'o', 'k'}).asString(), "ok");
  Bytes long32 = {0xd9, 32};
  for (int i = 0; i < 32; ++i) long32.push_back('a' + i % 26);
  EXPECT_EQ(parseBytes(long32).bytes.size(), 32u);
}

TEST(Msgpack, BinaryIsNotAString) {
  const Value bin = parseBytes({0xc4, 0x03, 0x00, 0xff, 0x10});
  EXPECT_EQ(bin.type, Type::Binary);
  EXPECT_EQ(bin.bytes, std::string("\x00\xff\x10", 3));
  EXPECT_FALSE(bin.asString().has_value());
  EXPECT_EQ(parseBytes({0xc5, 0x00, 0x01, 0x42}).bytes, "B");
  EXPECT_EQ(parseBytes({0xc6, 0x00, 0x00, 0x00, 0x00}).bytes, "");
}

TEST(Msgpack, ExtValuesAreKeptOpaque) {
  const Value fixext1 = parseBytes({0xd4, 0x05, 0xaa});
  EXPECT_EQ(fixext1.type, Type::Ext);
  EXPECT_EQ(fixext1.extType, 5);
  EXPECT_EQ(fixext1.bytes.size(), 1u);
  Bytes fixext16 = {0xd8, 0xff};
  fixext16.resize(18, 0x11);
  EXPECT_EQ(parseBytes(fixext16).bytes.size(), 16u);
  EXPECT_EQ(parseBytes(fixext16).extType, -1);
  EXPECT_EQ(parseBytes({0xc7, 0x02, 0x01, 'a', 'b'}).bytes, "ab");
  EXPECT_EQ(parseBytes({0xc8, 0x00, 0x01, 0x01, 'a'}).bytes, "a");
  EXPECT_EQ(parseBytes({0xc9, 0x00, 0x00, 0x00, 0x00, 0x07}).extType, 7);
  // An ext inside a map is skipped over: the next entry is still found.
  const Value map = parseBytes({0x82, 0xa1, 'e', 0xd5, 0x01, 0x00, 0x00, 0xa1, 'k', 0x2a});
  EXPECT_EQ(map.find("k")->asUInt(), 42u);
}

TEST(Msgpack, ArraysAndMapsOfEveryWidth) {
  const Value fixarray = parseBytes({0x93, 0x01, 0xa1, 'x', 0xc0});
  ASSERT_TRUE(fixarray.isArray());
  ASSERT_EQ(fixarray.array.size(), 3u);
  EXPECT_EQ(fixarray.array[0].asUInt(), 1u);
  EXPECT_EQ(fixarray.array[1].asString(), "x");
  EXPECT_TRUE(fixarray.array[2].isNil());
  EXPECT_EQ(parseBytes({0xdc, 0x00, 0x02, 0x01, 0x02}).array.size(), 2u);
  EXPECT_EQ(parseBytes({0xdd, 0x00, 0x00, 0x00, 0x01, 0x05}).array[0].asUInt(), 5u);
  EXPECT_EQ(parseBytes({0x90}).array.size(), 0u);

  const Value fixmap = parseBytes({0x82, 0xa1, 'a', 0x01, 0xa1, 'b', 0x92, 0x02, 0x03});
  ASSERT_TRUE(fixmap.isMap());
  EXPECT_EQ(fixmap.find("a")->asUInt(), 1u);
  EXPECT_EQ(fixmap.find("b")->array[1].asUInt(), 3u);
  EXPECT_EQ(fixmap.find("c"), nullptr);
  EXPECT_EQ(parseBytes({0xde, 0x00, 0x01, 0xa1, 'k', 0xc3}).find("k")->boolean, true);
  EXPECT_EQ(parseBytes({0xdf, 0x00, 0x00, 0x00, 0x01, 0xa1, 'k', 0x07}).find("k")->asUInt(), 7u);
}

TEST(Msgpack, FindIgnoresNonStringKeysAndNonMaps) {
  const Value map = parseBytes({0x82, 0x01, 0xa1, 'v', 0xa1, '1', 0xa1, 'w'});
  EXPECT_EQ(map.find("1")->asString(), "w");
  EXPECT_EQ(parseBytes({0x91, 0x01}).find("x"), nullptr);
}

TEST(Msgpack, NestedMetadataShape) {
  // {"amdhsa.version": [1, 2], "amdhsa.kernels": [{".name": "k"}]}
  Bytes bytes = {0x82, 0xae};
  for (char c : std::string("amdhsa.version")) bytes.push_back(uint8_t(c));
  bytes.insert(bytes.end(), {0x92, 0x01, 0x02, 0xae});
  for (char c : std::string("amdhsa.kernels")) bytes.push_back(uint8_t(c));
  bytes.insert(bytes.end(), {0x91, 0x81, 0xa5, '.', 'n', 'a', 'm', 'e', 0xa1, 'k'});
  const Value root = parseBytes(bytes);
  EXPECT_EQ(root.find("amdhsa.version")->array[1].asUInt(), 2u);
  EXPECT_EQ(root.find("amdhsa.kernels")->array[0].find(".name")->asString(), "k");
}

TEST(Msgpack, RefusesEmptyInput) {
  expectError({}, "empty");
}

TEST(Msgpack, RefusesTruncatedScalars) {
  expectError({0xcd, 0x01}, "truncated unsigned integer");
  expectError({0xd3, 0, 0, 0}, "truncated signed integer");
  expectError({0xcb, 0, 0}, "truncated float64");
  expectError({0xca}, "truncated float32");
  expectError({0xa5, 'a', 'b'}, "truncated string");
  expectError({0xdb, 0x00, 0x00}, "truncated string length");
  expectError({0xc4, 0x04, 0x00}, "truncated binary");
  expectError({0xd7, 0x01, 0x00}, "truncated fixext");
  expectError({0xc9, 0x00, 0x00, 0x00, 0x01}, "truncated ext type");
}

TEST(Msgpack, RefusesTruncatedContainers) {
  expectError({0x92, 0x01}, "array of 2 elements but only 1 bytes remain");
  expectError({0x92, 0x01, 0xcd}, "truncated unsigned integer");
  expectError({0x81, 0xa1, 'k'}, "truncated value");
  expectError({0xdd, 0x00, 0x00}, "truncated array length");
}

TEST(Msgpack, RefusesCountsLargerThanTheInput) {
  // Four billion elements announced in 5 bytes: refused before any allocation.
  expectError({0xdd, 0xff, 0xff, 0xff, 0xff}, "array of 4294967295 elements");
  expectError({0xdf, 0xff, 0xff, 0xff, 0xff, 0x01}, "map of 4294967295 entries");
  expectError({0xdb, 0xff, 0xff, 0xff, 0xff, 'a'}, "truncated string");
  expectError({0xc6, 0xff, 0xff, 0xff, 0xff}, "truncated binary");
}

TEST(Msgpack, RefusesTheReservedTypeByte) {
  expectError({0xc1}, "invalid type byte 0xc1");
}

TEST(Msgpack, RefusesTrailingBytes) {
  expectError({0x01, 0x02}, "trailing bytes");
}

TEST(Msgpack, RefusesNestingBeyondTheLimit) {
  Bytes deep(kMaxDepth + 2, 0x91);  // [[[[...]]]]
  deep.push_back(0x00);
  expectError(deep, "nesting deeper");
  Bytes ok(kMaxDepth, 0x91);
  ok.push_back(0x00);
  EXPECT_NO_THROW(parse(ok));
}

TEST(Msgpack, RefusesMoreValuesThanTheLimit) {
  // An array32 of kMaxValues + 1 fixints: well formed, but beyond the memory budget.
  const uint32_t count = uint32_t(kMaxValues) + 1;
  Bytes bytes = {0xdd, uint8_t(count >> 24), uint8_t(count >> 16), uint8_t(count >> 8),
                 uint8_t(count)};
  bytes.resize(bytes.size() + count, 0x01);
  expectError(bytes, "more than");
}

TEST(Msgpack, ErrorsSayWhere) {
  try {
    parse(Bytes{0x92, 0x01, 0xc1});
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("at byte 2"), std::string::npos) << e.what();
  }
}

TEST(Msgpack, TypeNames) {
  EXPECT_STREQ(typeName(Type::Map), "map");
  EXPECT_STREQ(typeName(Type::String), "string");
  EXPECT_STREQ(typeName(Type::UInt), "unsigned integer");
}

}  // namespace
}  // namespace vgpu::loader::msgpack
