// One lane's atomic read-modify-write, performed by the memory side (LDS block, DRAM/L2
// model) so both agree on the semantics (Vega ISA guide 12.13 DS and 12.17 MUBUF atomics).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "isa/MemRequest.h"

namespace vgpu::isa {

// The value memory holds after `op` on `old` with operands `src` and `cmp` (U: the unsigned
// type of the operation's width, S its signed type, Fp its float type).
// Inlined where it is used, so that a lane loop with a known `op` reduces to its one case.
template <class U, class S, class Fp>
[[gnu::always_inline]] inline U atomicResult(AtomicOp op, U old, U src, U cmp) {
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

// Applies `op` to the `bytes` (4 or 8) little-endian bytes at `memory`, with operand `src`
// (and `cmp` for CmpSwap/FCmpSwap, the second data operand for Wrap/MskOr); writes the
// value memory held before the operation to `oldValue`. Integer ops wrap; Inc/Dec follow the
// ISA: inc: mem = (old >= src) ? 0 : old + 1; dec: mem = (old == 0 || old > src) ? src : old - 1.
// Returns whether memory holds a different value afterwards (a compare-and-swap whose compare
// failed, or an add of 0, changed nothing: the watchdog does not count it as progress).
bool applyAtomic(AtomicOp op, unsigned bytes, uint8_t* memory, const uint8_t* src,
                 const uint8_t* cmp, uint8_t* oldValue);

}  // namespace vgpu::isa
