// Atomic read-modify-write semantics shared by the LDS and DRAM models.
#include "isa/Atomics.h"

#include <cstring>

namespace vgpu::isa {
namespace {

template <class T>
T load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}
template <class T>
void store(uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

}  // namespace

bool applyAtomic(AtomicOp op, unsigned bytes, uint8_t* memory, const uint8_t* src,
                 const uint8_t* cmp, uint8_t* oldValue) {
  static const uint8_t kZero[8] = {};
  if (!cmp) cmp = kZero;
  if (op == AtomicOp::CondXchg32) {  // two independent dwords (12.13 DS_CONDXCHG32_RTN_B64)
    std::memcpy(oldValue, memory, bytes);
    bool changed = false;
    for (unsigned k = 0; k + 4 <= bytes; k += 4) {
      const uint32_t v = load<uint32_t>(src + k);
      if (!(v >> 31)) continue;
      changed |= load<uint32_t>(memory + k) != (v & 0x7fffffffu);
      store(memory + k, v & 0x7fffffffu);
    }
    return changed;
  }
  if (bytes == 8) {
    const uint64_t old = load<uint64_t>(memory);
    store(oldValue, old);
    const uint64_t updated =
        atomicResult<uint64_t, int64_t, double>(op, old, load<uint64_t>(src), load<uint64_t>(cmp));
    store(memory, updated);
    return updated != old;
  }
  const uint32_t old = load<uint32_t>(memory);
  store(oldValue, old);
  const uint32_t updated =
      atomicResult<uint32_t, int32_t, float>(op, old, load<uint32_t>(src), load<uint32_t>(cmp));
  store(memory, updated);
  return updated != old;
}

}  // namespace vgpu::isa
