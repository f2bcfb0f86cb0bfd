// Little-endian reads and overflow-safe range checks shared by the ELF and offload-bundle
// readers. Callers check ranges with fitsIn() before reading; nothing here reads unchecked
// memory on its own.
#pragma once

#include <cstdint>

namespace vgpu::loader {

// True when [offset, offset + length) lies inside [0, size), without overflowing.
inline bool fitsIn(uint64_t offset, uint64_t length, uint64_t size) {
  return offset <= size && length <= size - offset;
}

inline uint16_t readLE16(const uint8_t* p) {
  return uint16_t(p[0] | (p[1] << 8));
}
inline uint32_t readLE32(const uint8_t* p) {
  return uint32_t(p[0]) | (uint32_t(p[1]) << 8) | (uint32_t(p[2]) << 16) | (uint32_t(p[3]) << 24);
}
inline uint64_t readLE64(const uint8_t* p) {
  return uint64_t(readLE32(p)) | (uint64_t(readLE32(p + 4)) << 32);
}

}  // namespace vgpu::loader
