// Copies and fills of a few bytes whose size is known only at run time (one lane's element, a
// piece of a cache line). The usual sizes compile to plain moves; a memcpy of a run-time size is
// a library call (or `rep movs`), whose start-up cost dominated per-lane copies.
#pragma once

#include <cstdint>
#include <cstring>

namespace vgpu {

inline void copySmall(uint8_t* dst, const uint8_t* src, uint32_t bytes) {
  switch (bytes) {
    case 1:
      *dst = *src;
      break;
    case 2:
      std::memcpy(dst, src, 2);
      break;
    case 4:
      std::memcpy(dst, src, 4);
      break;
    case 8:
      std::memcpy(dst, src, 8);
      break;
    case 16:
      std::memcpy(dst, src, 16);
      break;
    default:
      std::memcpy(dst, src, bytes);
      break;
  }
}

// Sets a few bytes to `value` (sizes as above).
inline void fillSmall(uint8_t* dst, uint8_t value, uint32_t bytes) {
  const uint64_t pattern = value * 0x0101010101010101ull;
  switch (bytes) {
    case 4:
      std::memcpy(dst, &pattern, 4);
      break;
    case 8:
      std::memcpy(dst, &pattern, 8);
      break;
    case 16:
      std::memcpy(dst, &pattern, 8);
      std::memcpy(dst + 8, &pattern, 8);
      break;
    default:
      std::memset(dst, value, bytes);
      break;
  }
}

}  // namespace vgpu
