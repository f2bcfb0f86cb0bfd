#include "dram/DeviceMemoryMap.h"

#include <iterator>

namespace vgpu {

bool DeviceMemoryMap::map(uint64_t base, uint64_t bytes) {
  if (bytes == 0 || base < kBase || base - kBase > capacity_ || bytes > capacity_ - (base - kBase))
    return false;
  auto next = ranges_.lower_bound(base);
  if (next != ranges_.end() && next->first - base < bytes) return false;
  if (next != ranges_.begin()) {
    const Range& before = std::prev(next)->second;
    if (base - before.base < before.size) return false;
  }
  ranges_.emplace_hint(next, base, Range{base, bytes});
  mapped_ += bytes;
  return true;
}

bool DeviceMemoryMap::unmap(uint64_t base) {
  auto it = ranges_.find(base);
  if (it == ranges_.end()) return false;
  mapped_ -= it->second.size;
  ranges_.erase(it);
  lastBase_ = lastSize_ = 0;
  return true;
}

const DeviceMemoryMap::Range* DeviceMemoryMap::find(uint64_t addr) const {
  auto it = ranges_.upper_bound(addr);
  if (it == ranges_.begin()) return nullptr;
  --it;
  const Range& r = it->second;
  return addr - r.base < r.size ? &r : nullptr;
}

bool DeviceMemoryMap::contains(uint64_t addr, uint64_t bytes) const {
  const Range* r = find(addr);
  return r != nullptr && bytes <= r->size - (addr - r->base);
}

bool DeviceMemoryMap::covers(uint64_t addr, uint64_t bytes) const {
  if (addr - lastBase_ < lastSize_ && bytes <= lastSize_ - (addr - lastBase_)) return true;
  while (bytes > 0) {
    const Range* r = find(addr);
    if (r == nullptr) return false;
    lastBase_ = r->base, lastSize_ = r->size;
    const uint64_t inside = r->size - (addr - r->base);
    if (bytes <= inside) return true;
    addr += inside;
    bytes -= inside;
  }
  return true;
}

}  // namespace vgpu
