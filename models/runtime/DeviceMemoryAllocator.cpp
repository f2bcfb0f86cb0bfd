#include "runtime/DeviceMemoryAllocator.h"

namespace vgpu {

std::optional<uint64_t> DeviceMemoryAllocator::allocate(uint64_t bytes, uint64_t align,
                                                        std::string tag) {
  if (align < 256) align = 256;
  if ((align & (align - 1)) != 0 || bytes > capacity_) return std::nullopt;
  const uint64_t size = bytes == 0 ? 256 : (bytes + 255) & ~uint64_t{255};
  // First fit at the lowest address: deterministic, and freed memory is reused whatever its
  // size, because release() merges neighbouring free ranges.
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    const uint64_t start = it->first, length = it->second;
    const uint64_t base = (start + align - 1) & ~(align - 1);
    if (base - start > length || length - (base - start) < size) continue;
    free_.erase(it);
    if (base > start) free_[start] = base - start;
    const uint64_t tail = start + length - (base + size);
    if (tail > 0) free_[base + size] = tail;
    allocations_[base] = {base, size, std::move(tag)};
    allocated_ += size;
    return base;
  }
  return std::nullopt;
}

bool DeviceMemoryAllocator::release(uint64_t base) {
  auto it = allocations_.find(base);
  if (it == allocations_.end()) return false;
  uint64_t start = base, size = it->second.size;
  allocated_ -= size;
  allocations_.erase(it);
  auto next = free_.lower_bound(start);
  if (next != free_.end() && next->first == start + size) {  // merge with the range after
    size += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {  // and with the range before
    auto prev = std::prev(next);
    if (prev->first + prev->second == start) {
      start = prev->first;
      size += prev->second;
      free_.erase(prev);
    }
  }
  free_[start] = size;
  return true;
}

const DeviceMemoryAllocator::Allocation* DeviceMemoryAllocator::find(uint64_t addr) const {
  auto it = allocations_.upper_bound(addr);
  if (it == allocations_.begin()) return nullptr;
  --it;
  const Allocation& a = it->second;
  return addr - a.base < a.size ? &a : nullptr;
}

bool DeviceMemoryAllocator::contains(uint64_t addr, uint64_t bytes) const {
  const Allocation* a = find(addr);
  return a != nullptr && bytes <= a->size - (addr - a->base);
}

}  // namespace vgpu
