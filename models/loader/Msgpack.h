// A small, defensive MessagePack reader (https://msgpack.org/ spec), enough for the AMDGPU
// code object metadata note (NT_AMDGPU_METADATA) but complete over the wire format: every type
// (fixint, uint/int 8-64, float32/64, str, bin, array, map, nil, bool, fixext/ext) is decoded or,
// for ext, kept as opaque bytes.
//
// The input is untrusted (a fuzzer is pointed at the loader), so:
//  - every length is checked against the bytes that remain before anything is allocated;
//  - an array/map count larger than the remaining bytes (each element needs at least one byte)
//    is rejected, so a 5-byte input cannot ask for 4 billion elements;
//  - nesting depth is limited, so recursion cannot overflow the stack;
//  - the total number of values is limited, so memory stays bounded (a Value is ~150 bytes,
//    so without a limit a 1-byte-per-element array would cost 150 times its input size);
//  - trailing bytes after the top-level value are an error (the metadata note is one value).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace vgpu::loader::msgpack {

// Malformed MessagePack. The message says what and at which byte offset; the caller adds the
// file name.
class ParseError : public std::runtime_error {
 public:
  explicit ParseError(const std::string& what) : std::runtime_error(what) {}
};

enum class Type { Nil, Bool, UInt, Int, Float, String, Binary, Array, Map, Ext };

// Name of a type for error messages ("map", "string", ...).
const char* typeName(Type type);

struct Value {
  Type type = Type::Nil;
  bool boolean = false;
  uint64_t uintValue = 0;    // Type::UInt: every non-negative integer, whatever its encoding
  int64_t intValue = 0;      // Type::Int: negative integers only
  double floatValue = 0;     // Type::Float (float32 is widened)
  std::string bytes;         // Type::String, Type::Binary, Type::Ext (payload)
  int8_t extType = 0;        // Type::Ext
  std::vector<Value> array;  // Type::Array
  std::vector<std::pair<Value, Value>> map;  // Type::Map, in wire order

  bool isNil() const { return type == Type::Nil; }
  bool isString() const { return type == Type::String; }
  bool isArray() const { return type == Type::Array; }
  bool isMap() const { return type == Type::Map; }

  // The value of a map entry whose key is the string `key`, or nullptr (also if not a map).
  // With duplicate keys the first one wins.
  const Value* find(std::string_view key) const;
  // The integer as unsigned if it is a non-negative integer.
  std::optional<uint64_t> asUInt() const;
  // The integer as signed if it is an integer that fits in int64.
  std::optional<int64_t> asInt() const;
  // The string if this is a string.
  std::optional<std::string_view> asString() const;
};

// Limits; documented so callers and tests know what "too deep" means.
constexpr int kMaxDepth = 64;
constexpr size_t kMaxValues = 1'000'000;  // metadata has ~100 values per kernel

// Parses exactly one value spanning all of [data, data + size). Throws ParseError.
Value parse(const uint8_t* data, size_t size);
inline Value parse(const std::vector<uint8_t>& bytes) {
  return parse(bytes.data(), bytes.size());
}

}  // namespace vgpu::loader::msgpack
