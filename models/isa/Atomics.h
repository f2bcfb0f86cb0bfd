// One lane's atomic read-modify-write, performed by the memory side (LDS block, DRAM/L2
// model) so both agree on the semantics (Vega ISA guide 12.13 DS and 12.17 MUBUF atomics).
#pragma once

#include <cstdint>

#include "isa/MemRequest.h"

namespace vgpu::isa {

// Applies `op` to the `bytes` (4 or 8) little-endian bytes at `memory`, with operand `src`
// (and `cmp` for CmpSwap/FCmpSwap, the second data operand for Wrap/MskOr); writes the
// value memory held before the operation to `oldValue`. Integer ops wrap; Inc/Dec follow the
// ISA: inc: mem = (old >= src) ? 0 : old + 1; dec: mem = (old == 0 || old > src) ? src : old - 1.
void applyAtomic(AtomicOp op, unsigned bytes, uint8_t* memory, const uint8_t* src,
                 const uint8_t* cmp, uint8_t* oldValue);
// The same on one dword (4 bytes at `memory`, not CondXchg32), operands as values; returns the
// old value.
uint32_t applyAtomicDword(AtomicOp op, uint8_t* memory, uint32_t src, uint32_t cmp);

}  // namespace vgpu::isa
