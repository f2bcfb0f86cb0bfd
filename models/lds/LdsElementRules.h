// The LDS's rules for the elements of one wave's DS access, written once for the two places that
// execute DS accesses: the LDS block (lds/Lds.cpp: every request in timing mode) and DS
// instructions executed at issue in functional mode (lds/LdsAtIssue.cpp).
//
// - Range: a workgroup addresses its own allocation, offsets from its start. An element that
//   does not lie wholly inside the allocation reads 0 and its write is dropped, with no fault
//   (Vega ISA guide, ch. 9 "Data Share Operations": LDS accesses are bounds-checked against the
//   workgroup's LDS size; see isa/Ds.cpp for why M0 plays no part on gfx9).
// - Order: lanes in ascending order, each lane's elements in turn (read2/write2: offset0's,
//   then offset1's). Of two stores to the same bytes the higher lane's wins, and atomics from
//   the lanes of one wave apply in lane order.
// - Atomics: isa::atomicResult / isa::applyAtomic (isa/Atomics.h), the semantics every memory
//   block shares; the pre-op value returns in the lane's data.
#pragma once

#include <cstdint>
#include <cstring>

#include "common/SmallCopy.h"
#include "isa/Atomics.h"
#include "isa/MemRequest.h"

namespace vgpu::lds {

// In an allocation of `size` bytes, element offsets below this are in range for elements of
// `elementBytes` (0: none is).
constexpr uint64_t inRangeLimit(uint64_t size, uint64_t elementBytes) {
  return size >= elementBytes ? size - elementBytes + 1 : 0;
}
// Whether the element of `elementBytes` at `offset` lies wholly inside an allocation of `size`
// bytes. Also the rule of the ISA's own reads of the LDS at issue (LDS_DIRECT, interpolation,
// the DS src2 forms' data term).
constexpr bool inRange(uint64_t offset, uint64_t elementBytes, uint64_t size) {
  return offset < inRangeLimit(size, elementBytes);
}

// A workgroup's LDS allocation as host bytes: [bytes, bytes + size).
struct LdsWindow {
  uint8_t* bytes = nullptr;
  uint64_t size = 0;

  // Element offsets below this are in range for elements of `elementBytes` (0: none is).
  uint64_t limitFor(uint64_t elementBytes) const { return inRangeLimit(size, elementBytes); }
  // The element of `elementBytes` at `offset`, or nullptr when it is out of range.
  uint8_t* element(uint64_t offset, uint64_t elementBytes) const {
    return offset < limitFor(elementBytes) ? bytes + offset : nullptr;
  }
};

// One element of `bytes` bytes in range at `mem`: a load copies it to `data`, a store copies
// `data` to it, an atomic applies `atomic` with operand `data` (and compare value `cmp`) and
// leaves the value before the operation in `data`. Returns whether an atomic left a different
// value in memory (isa::applyAtomic).
inline bool accessElement(isa::MemOp op, isa::AtomicOp atomic, uint32_t bytes, uint8_t* mem,
                          uint8_t* data, const uint8_t* cmp) {
  if (op == isa::MemOp::Load) {
    copySmall(data, mem, bytes);
  } else if (op == isa::MemOp::Store) {
    copySmall(mem, data, bytes);
  } else if (bytes == 4 && atomic != isa::AtomicOp::CondXchg32) {
    // A dword atomic (the usual one) in place, as applyAtomic would do it.
    uint32_t old, src, compare;
    std::memcpy(&old, mem, 4);
    std::memcpy(&src, data, 4);
    std::memcpy(&compare, cmp, 4);
    const uint32_t result = isa::atomicResult<uint32_t, int32_t, float>(atomic, old, src, compare);
    std::memcpy(mem, &result, 4);
    std::memcpy(data, &old, 4);
    return result != old;
  } else {
    uint8_t old[isa::MemRequest::kMaxElementBytes];
    const bool changed = isa::applyAtomic(atomic, bytes, mem, data, cmp, old);
    std::memcpy(data, old, bytes);
    return changed;
  }
  return false;
}

// An element out of range: a load or atomic returns 0, a store writes nothing.
inline void outOfRangeElement(isa::MemOp op, uint32_t bytes, uint8_t* data) {
  if (op != isa::MemOp::Store) std::memset(data, 0, bytes);
}

// Calls f(lane) for the lanes of `mask` in ascending order (a plain loop when all are on).
template <class F>
[[gnu::always_inline]] inline void forEachLane(uint64_t mask, F&& f) {
  if (mask == ~0ull) {
    for (int l = 0; l < 64; ++l) f(l);
  } else {
    for (uint64_t b = mask; b != 0; b &= b - 1) f(__builtin_ctzll(b));
  }
}

// The loads or stores (kLoad) of a whole MemRequest of `bytes`-byte elements on `window`, by
// the rules above; returns the elements out of range. Nearly every DS access is one: the lanes'
// addresses and data are walked directly, with no atomic or compare value to look at (the
// general loop below cost about 130 host instructions a lane, a third of an LDS-bound kernel's).
template <bool kLoad, uint32_t kBytes>
inline uint64_t copyElements(isa::MemRequest& req, const LdsWindow& window, uint32_t bytes) {
  if constexpr (kBytes != 0) bytes = kBytes;  // (a constant: the copies become single moves)
  const uint64_t limit = window.limitFor(bytes);
  const int elements = req.elementsPerLane;
  const size_t stride = req.laneStride();
  const uint64_t* addresses[isa::MemRequest::kElementsPerLane];
  for (int e = 0; e < elements; ++e) addresses[e] = req.addressesOf(e);
  uint8_t* const data = req.data.data();
  uint64_t outOfRange = 0;
  for (uint64_t lanes = req.laneMask; lanes != 0; lanes &= lanes - 1) {
    const int lane = __builtin_ctzll(lanes);
    uint8_t* element = data + static_cast<size_t>(lane) * stride;
    for (int e = 0; e < elements; ++e, element += bytes) {
      const uint64_t offset = addresses[e][lane];
      if (offset >= limit) {
        ++outOfRange;
        outOfRangeElement(req.op, bytes, element);
      } else if (kLoad) {
        copySmall(element, window.bytes + offset, bytes);
      } else {
        copySmall(window.bytes + offset, element, bytes);
      }
    }
  }
  return outOfRange;
}

// A whole MemRequest on `window`, by the rules above; returns the elements out of range.
inline uint64_t executeRequest(isa::MemRequest& req, const LdsWindow& window) {
  const uint32_t bytes = req.elementBytes;
  if (req.op == isa::MemOp::Load || req.op == isa::MemOp::Store) {
    const bool load = req.op == isa::MemOp::Load;
    if (bytes == 4)
      return load ? copyElements<true, 4>(req, window, 4) : copyElements<false, 4>(req, window, 4);
    return load ? copyElements<true, 0>(req, window, bytes)
                : copyElements<false, 0>(req, window, bytes);
  }
  const uint64_t limit = window.limitFor(bytes);
  const int elements = req.elementsPerLane;
  uint64_t outOfRange = 0;
  for (uint64_t lanes = req.laneMask; lanes != 0; lanes &= lanes - 1) {
    const int lane = __builtin_ctzll(lanes);
    for (int e = 0; e < elements; ++e) {
      const uint64_t offset = req.address(lane, e);
      uint8_t* data = req.element(lane, e);
      if (offset >= limit) {
        ++outOfRange;
        outOfRangeElement(req.op, bytes, data);
        continue;
      }
      // (The const view: compare values of a request that has none read as 0, and are not
      // allocated for the loads and stores that never read them.)
      if (accessElement(req.op, req.atomic, bytes, window.bytes + offset, data,
                        static_cast<const isa::MemRequest&>(req).cmpElement(lane, e)))
        req.atomicChangedMemory = true;
    }
  }
  return outOfRange;
}

}  // namespace vgpu::lds
