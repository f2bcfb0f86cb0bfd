#include "loader/Msgpack.h"

#include <cstdio>
#include <cstring>

namespace vgpu::loader::msgpack {

const char* typeName(Type type) {
  switch (type) {
    case Type::Nil:
      return "nil";
    case Type::Bool:
      return "bool";
    case Type::UInt:
      return "unsigned integer";
    case Type::Int:
      return "negative integer";
    case Type::Float:
      return "float";
    case Type::String:
      return "string";
    case Type::Binary:
      return "binary";
    case Type::Array:
      return "array";
    case Type::Map:
      return "map";
    case Type::Ext:
      return "ext";
  }
  return "unknown";
}

const Value* Value::find(std::string_view key) const {
  if (type != Type::Map) return nullptr;
  for (const auto& [k, v] : map) {
    if (k.type == Type::String && k.bytes == key) return &v;
  }
  return nullptr;
}

std::optional<uint64_t> Value::asUInt() const {
  if (type == Type::UInt) return uintValue;
  return std::nullopt;
}

std::optional<int64_t> Value::asInt() const {
  if (type == Type::Int) return intValue;
  if (type == Type::UInt && uintValue <= uint64_t(INT64_MAX)) return int64_t(uintValue);
  return std::nullopt;
}

std::optional<std::string_view> Value::asString() const {
  if (type == Type::String) return std::string_view(bytes);
  return std::nullopt;
}

namespace {

class Reader {
 public:
  Reader(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  Value parseTop() {
    Value value = parseValue(0);
    if (pos_ != size_) {
      fail("trailing bytes after the top-level value (" + std::to_string(size_ - pos_) + " bytes)");
    }
    return value;
  }

 private:
  [[noreturn]] void fail(const std::string& problem) const {
    throw ParseError("msgpack: " + problem + " at byte " + std::to_string(pos_));
  }

  size_t remaining() const { return size_ - pos_; }

  void need(uint64_t count, const char* what) const {
    if (count > remaining()) {
      throw ParseError("msgpack: truncated " + std::string(what) + ": needs " +
                       std::to_string(count) + " bytes at byte " + std::to_string(pos_) + ", " +
                       std::to_string(remaining()) + " remain");
    }
  }

  // Big-endian unsigned integer of `width` bytes (MessagePack is big-endian).
  uint64_t readBigEndian(unsigned width, const char* what) {
    need(width, what);
    uint64_t value = 0;
    for (unsigned i = 0; i < width; ++i) value = (value << 8) | data_[pos_ + i];
    pos_ += width;
    return value;
  }

  std::string readBytes(uint64_t length, const char* what) {
    need(length, what);
    std::string out(reinterpret_cast<const char*>(data_ + pos_), size_t(length));
    pos_ += size_t(length);
    return out;
  }

  Value parseValue(int depth) {
    if (depth > kMaxDepth) fail("nesting deeper than " + std::to_string(kMaxDepth) + " levels");
    if (++valueCount_ > kMaxValues) {
      fail("more than " + std::to_string(kMaxValues) + " values");
    }
    need(1, "value");
    const uint8_t tag = data_[pos_++];
    Value v;
    if (tag <= 0x7f) {  // positive fixint
      v.type = Type::UInt;
      v.uintValue = tag;
    } else if (tag >= 0xe0) {  // negative fixint
      v.type = Type::Int;
      v.intValue = int8_t(tag);
    } else if ((tag & 0xf0) == 0x80) {  // fixmap
      parseMap(v, tag & 0x0f, depth);
    } else if ((tag & 0xf0) == 0x90) {  // fixarray
      parseArray(v, tag & 0x0f, depth);
    } else if ((tag & 0xe0) == 0xa0) {  // fixstr
      v.type = Type::String;
      v.bytes = readBytes(tag & 0x1f, "string");
    } else {
      parseTagged(v, tag, depth);
    }
    return v;
  }

  void parseTagged(Value& v, uint8_t tag, int depth) {
    switch (tag) {
      case 0xc0:
        v.type = Type::Nil;
        return;
      case 0xc2:
        v.type = Type::Bool;
        v.boolean = false;
        return;
      case 0xc3:
        v.type = Type::Bool;
        v.boolean = true;
        return;
      case 0xc4:
      case 0xc5:
      case 0xc6: {  // bin 8/16/32
        const uint64_t length = readBigEndian(1u << (tag - 0xc4), "binary length");
        v.type = Type::Binary;
        v.bytes = readBytes(length, "binary");
        return;
      }
      case 0xc7:
      case 0xc8:
      case 0xc9: {  // ext 8/16/32
        const uint64_t length = readBigEndian(1u << (tag - 0xc7), "ext length");
        v.type = Type::Ext;
        v.extType = int8_t(readBigEndian(1, "ext type"));
        v.bytes = readBytes(length, "ext");
        return;
      }
      case 0xca: {  // float 32
        const uint32_t bits = uint32_t(readBigEndian(4, "float32"));
        float f;
        std::memcpy(&f, &bits, sizeof f);
        v.type = Type::Float;
        v.floatValue = f;
        return;
      }
      case 0xcb: {  // float 64
        const uint64_t bits = readBigEndian(8, "float64");
        std::memcpy(&v.floatValue, &bits, sizeof bits);
        v.type = Type::Float;
        return;
      }
      case 0xcc:
      case 0xcd:
      case 0xce:
      case 0xcf:  // uint 8/16/32/64
        v.type = Type::UInt;
        v.uintValue = readBigEndian(1u << (tag - 0xcc), "unsigned integer");
        return;
      case 0xd0:
      case 0xd1:
      case 0xd2:
      case 0xd3: {  // int 8/16/32/64
        const unsigned width = 1u << (tag - 0xd0);
        const uint64_t raw = readBigEndian(width, "signed integer");
        // Sign-extend from `width` bytes.
        const unsigned shift = 64 - 8 * width;
        const int64_t value = int64_t(raw << shift) >> shift;
        setInteger(v, value);
        return;
      }
      case 0xd4:
      case 0xd5:
      case 0xd6:
      case 0xd7:
      case 0xd8: {  // fixext 1/2/4/8/16
        v.type = Type::Ext;
        v.extType = int8_t(readBigEndian(1, "ext type"));
        v.bytes = readBytes(1u << (tag - 0xd4), "fixext");
        return;
      }
      case 0xd9:
      case 0xda:
      case 0xdb: {  // str 8/16/32
        const uint64_t length = readBigEndian(1u << (tag - 0xd9), "string length");
        v.type = Type::String;
        v.bytes = readBytes(length, "string");
        return;
      }
      case 0xdc:
      case 0xdd:  // array 16/32
        parseArray(v, readBigEndian(tag == 0xdc ? 2 : 4, "array length"), depth);
        return;
      case 0xde:
      case 0xdf:  // map 16/32
        parseMap(v, readBigEndian(tag == 0xde ? 2 : 4, "map length"), depth);
        return;
      default: {  // 0xc1 is the only byte MessagePack never uses
        --pos_;
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02x", tag);
        fail(std::string("invalid type byte ") + hex);
      }
    }
  }

  // Integers encoded as signed but non-negative are the same values as unsigned ones.
  static void setInteger(Value& v, int64_t value) {
    if (value >= 0) {
      v.type = Type::UInt;
      v.uintValue = uint64_t(value);
    } else {
      v.type = Type::Int;
      v.intValue = value;
    }
  }

  void parseArray(Value& v, uint64_t count, int depth) {
    // Each element takes at least one byte: a count beyond that is malformed, and checking it
    // here keeps reserve() from allocating for elements that cannot exist.
    if (count > remaining()) {
      fail("array of " + std::to_string(count) + " elements but only " +
           std::to_string(remaining()) + " bytes remain");
    }
    v.type = Type::Array;
    v.array.reserve(size_t(count));
    for (uint64_t i = 0; i < count; ++i) v.array.push_back(parseValue(depth + 1));
  }

  void parseMap(Value& v, uint64_t count, int depth) {
    if (count > remaining() / 2) {
      fail("map of " + std::to_string(count) + " entries but only " + std::to_string(remaining()) +
           " bytes remain");
    }
    v.type = Type::Map;
    v.map.reserve(size_t(count));
    for (uint64_t i = 0; i < count; ++i) {
      Value key = parseValue(depth + 1);
      Value value = parseValue(depth + 1);
      v.map.emplace_back(std::move(key), std::move(value));
    }
  }

  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
  size_t valueCount_ = 0;
};

}  // namespace

Value parse(const uint8_t* data, size_t size) {
  if (data == nullptr || size == 0) throw ParseError("msgpack: empty input");
  return Reader(data, size).parseTop();
}

}  // namespace vgpu::loader::msgpack
