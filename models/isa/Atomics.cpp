// Atomic read-modify-write semantics shared by the LDS and DRAM models.
#include "isa/Atomics.h"

#include <cmath>
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

template <class U, class S, class Fp>
U compute(AtomicOp op, U old, U src, U cmp) {
  switch (op) {
    case AtomicOp::Swap:
      return src;
    case AtomicOp::CmpSwap:
      return old == cmp ? src : old;
    case AtomicOp::Add:
      return old + src;
    case AtomicOp::Sub:
      return old - src;
    case AtomicOp::RsubU32:
      return src - old;
    case AtomicOp::SMin:
      return static_cast<S>(src) < static_cast<S>(old) ? src : old;
    case AtomicOp::UMin:
      return src < old ? src : old;
    case AtomicOp::SMax:
      return static_cast<S>(src) > static_cast<S>(old) ? src : old;
    case AtomicOp::UMax:
      return src > old ? src : old;
    case AtomicOp::And:
      return old & src;
    case AtomicOp::Or:
      return old | src;
    case AtomicOp::Xor:
      return old ^ src;
    case AtomicOp::Inc:
      return old >= src ? 0 : old + 1;
    case AtomicOp::Dec:
      return (old == 0 || old > src) ? src : old - 1;
    case AtomicOp::Wrap:
      return old >= src ? old - src : old + cmp;
    case AtomicOp::MskOr:
      return (old & ~src) | cmp;
    case AtomicOp::FAdd:
    case AtomicOp::FMin:
    case AtomicOp::FMax:
    case AtomicOp::FCmpSwap: {
      Fp o, s, c;
      std::memcpy(&o, &old, sizeof(Fp));
      std::memcpy(&s, &src, sizeof(Fp));
      std::memcpy(&c, &cmp, sizeof(Fp));
      Fp r = o;
      if (op == AtomicOp::FAdd) r = o + s;
      if (op == AtomicOp::FMin) r = std::fmin(o, s);
      if (op == AtomicOp::FMax) r = std::fmax(o, s);
      if (op == AtomicOp::FCmpSwap) r = (o == c) ? s : o;
      U out;
      std::memcpy(&out, &r, sizeof(Fp));
      return out;
    }
    case AtomicOp::None:
    default:
      return old;
  }
}

}  // namespace

void applyAtomic(AtomicOp op, unsigned bytes, uint8_t* memory, const uint8_t* src,
                 const uint8_t* cmp, uint8_t* oldValue) {
  static const uint8_t kZero[8] = {};
  if (!cmp) cmp = kZero;
  if (op == AtomicOp::CondXchg32) {  // two independent dwords (12.13 DS_CONDXCHG32_RTN_B64)
    std::memcpy(oldValue, memory, bytes);
    for (unsigned k = 0; k + 4 <= bytes; k += 4) {
      const uint32_t v = load<uint32_t>(src + k);
      if (v >> 31) store(memory + k, v & 0x7fffffffu);
    }
    return;
  }
  if (bytes == 8) {
    const uint64_t old = load<uint64_t>(memory);
    store(oldValue, old);
    store(memory,
          compute<uint64_t, int64_t, double>(op, old, load<uint64_t>(src), load<uint64_t>(cmp)));
  } else {
    const uint32_t old = load<uint32_t>(memory);
    store(oldValue, old);
    store(memory,
          compute<uint32_t, int32_t, float>(op, old, load<uint32_t>(src), load<uint32_t>(cmp)));
  }
}

uint32_t applyAtomicDword(AtomicOp op, uint8_t* memory, uint32_t src, uint32_t cmp) {
  const uint32_t old = load<uint32_t>(memory);
  store(memory, compute<uint32_t, int32_t, float>(op, old, src, cmp));
  return old;
}

}  // namespace vgpu::isa
