// The ranges of the device aperture that host software has mapped for the GPU through its
// MEM_MAP registers (docs/register-map.md), in the role of GPUVM's page tables: the DRAM model
// refuses (with TLM_ADDRESS_ERROR_RESPONSE) any access that is not inside one mapped range,
// which is how a kernel's out-of-bounds access becomes a reported memory violation instead of
// silent corruption. Allocation itself is host software's business
// (runtime/DeviceMemoryAllocator.h).
#pragma once

#include <cstdint>
#include <map>

namespace vgpu {

class DeviceMemoryMap {
 public:
  // Device addresses start at 4 GiB so that a null or small integer pointer is never valid.
  static constexpr uint64_t kBase = 0x1'0000'0000ull;

  explicit DeviceMemoryMap(uint64_t capacityBytes) : capacity_(capacityBytes) {}

  // Maps [base, base + bytes): false (and nothing changes) when it is empty, leaves the
  // aperture [kBase, kBase + capacity) or overlaps a mapped range.
  bool map(uint64_t base, uint64_t bytes);
  // Unmaps the range mapped at `base`; false if no range starts there.
  bool unmap(uint64_t base);

  // True if [addr, addr + bytes) lies inside one mapped range.
  bool contains(uint64_t addr, uint64_t bytes) const;
  // True if every byte of [addr, addr + bytes) lies inside some mapped range (adjacent ranges
  // together may cover it).
  bool covers(uint64_t addr, uint64_t bytes) const;
  struct Range {
    uint64_t base = 0, size = 0;
  };
  // The mapped range holding addr, if any.
  const Range* find(uint64_t addr) const;
  uint64_t capacity() const { return capacity_; }
  uint64_t bytesMapped() const { return mapped_; }

 private:
  uint64_t capacity_;
  uint64_t mapped_ = 0;
  std::map<uint64_t, Range> ranges_;  // by base
  // The range covers() found last (empty: none): accesses come in runs inside one range.
  // Only unmap() can make it stale.
  mutable uint64_t lastBase_ = 0, lastSize_ = 0;
};

}  // namespace vgpu
