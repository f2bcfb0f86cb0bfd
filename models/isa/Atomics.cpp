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

// applyAtomic for one width (U, S, Fp as atomicResult takes them).
template <class U, class S, class Fp>
bool applyOfWidth(AtomicOp op, uint8_t* memory, const uint8_t* src, const uint8_t* cmp,
                  uint8_t* oldValue) {
  const U old = load<U>(memory);
  store(oldValue, old);
  const U updated = atomicResult<U, S, Fp>(op, old, load<U>(src), load<U>(cmp));
  store(memory, updated);
  return updated != old;
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
  return bytes == 8 ? applyOfWidth<uint64_t, int64_t, double>(op, memory, src, cmp, oldValue)
                    : applyOfWidth<uint32_t, int32_t, float>(op, memory, src, cmp, oldValue);
}

}  // namespace vgpu::isa
