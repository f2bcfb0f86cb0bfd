// An address or value as messages and disassembly print it: "0x" and lower-case hex digits.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace vgpu {

inline std::string hex(uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

}  // namespace vgpu
