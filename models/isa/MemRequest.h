// The memory side of one instruction: what the CU sends over TLM to the LDS, the texture path
// (vector memory) or the scalar cache, and what comes back. The ISA fills it in at issue
// (addresses, store data); the memory blocks fill `data` for loads and atomics with return;
// the ISA writes it to registers when the response arrives (isa::completeMemory).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace vgpu::isa {

enum class MemSpace : uint8_t {
  Vector,  // global / flat-global / buffer / scratch: through the texture path to L2 and DRAM
  Lds,     // DS instructions and flat accesses in the shared aperture: the CU's LDS
  Scalar,  // SMEM: through the scalar data cache
};

enum class MemOp : uint8_t { Load, Store, Atomic };

// Atomic operations, as executed at the memory (LDS or L2). `src` holds the operand (and for
// CmpSwap the value to write in src, the compare value in cmp).
enum class AtomicOp : uint8_t {
  None,
  Swap,
  CmpSwap,
  Add,
  Sub,
  SMin,
  UMin,
  SMax,
  UMax,
  And,
  Or,
  Xor,
  Inc,
  Dec,
  FAdd,
  FMin,
  FMax,
  FCmpSwap,
  RsubU32,
  Wrap,
  MskOr,       // (added by isa) ds_mskor: mem = (mem & ~src) | cmp
  CondXchg32,  // (added by isa) ds_condxchg32_rtn_b64: per dword, mem = src[30:0] if src[31]
};

// Which s_waitcnt counters the instruction increments at issue (Vega ISA guide, 4.4 "Data
// Dependency Resolution"). VmLgkm: a FLAT-segment access, counted on both (cu/WaitcntCounters.h).
enum class WaitCounter : uint8_t { None, Vm, Lgkm, VmLgkm, Exp };

struct MemRequest {
  static constexpr int kMaxElementBytes = 16;
  // Addresses per lane: read2/write2 touch two; a swizzled scratch access of several dwords
  // (SCRATCH_*_DWORDX2..X4, FLAT to the private aperture) one per dword, up to four.
  static constexpr int kElementsPerLane = 4;
  static constexpr int kScalarMaxBytes = 64;  // s_load_dwordx16
  // The most bytes a lane's elements hold together (read2_b64: 2 x 8; a scratch dwordx4:
  // 4 x 4): data[] holds 64 lanes of it.
  static constexpr int kMaxLaneBytes = 16;
  static constexpr size_t kDataBytes = 64 * kMaxLaneBytes;

  MemSpace space = MemSpace::Vector;
  MemOp op = MemOp::Load;
  AtomicOp atomic = AtomicOp::None;
  bool atomicReturnsData = false;  // glc=1 atomics return the pre-op value
  // Set by the memory side that performed the atomic: some lane's read-modify-write left a value
  // different from the one before (what the watchdog counts as progress; a spinning
  // compare-and-swap that keeps failing does not).
  bool atomicChangedMemory = false;
  WaitCounter counter = WaitCounter::None;
  bool glc = false, slc = false;
  // (added by isa) An image (MIMG) instruction: the texture path processes its addresses per
  // quad and filters its texels (TexturePath).
  bool image = false;
  // (added by isa) ds_swizzle_b32, ds_permute_b32, ds_bpermute_b32 (Vega ISA guide, 12.13):
  // data moved between lanes by the LDS's crossbar, no LDS memory accessed. The ISA computes
  // the result at issue (into data[], with a VGPR writeback); the LDS only times the trip and
  // counts it, so it returns in order with the wave's other LDS accesses on LGKM_CNT.
  // Permute: each lane sends an address and a dword; Swizzle: one dword (the pattern is in the
  // instruction).
  enum class CrossLane : uint8_t { None, Swizzle, Permute };
  CrossLane crossLane = CrossLane::None;

  // Vector/LDS: lanes that access memory. Scalar: bit 0.
  uint64_t laneMask = 0;
  uint8_t elementBytes = 4;     // bytes per element: 1, 2, 4, 8, 12, 16 (scalar: up to 64)
  uint8_t elementsPerLane = 1;  // 1; 2 for DS read2/write2; 2..4 for swizzled scratch dwords

  // (added by isa) Vector loads/stores: how many bytes of lane l's element are accessed, from
  // its start, when fewer than elementBytes (a buffer range check keeps only the in-range dwords
  // of a B64/B96/B128 access); 0: the whole element.
  std::array<uint8_t, 64> laneBytes{};

  // Element e of lane l occupies data[l * laneStride() + e * elementBytes ...]: the lanes'
  // data is packed, a lane's elements follow one another (so a scratch access split into
  // dwords keeps the layout of the same access in one element). Packed, a dword access of 64
  // lanes fills 256 bytes, one contiguous run of memory is one copy, and a request waiting for
  // its data keeps few host cache lines: a CU has one per load in flight, 60 CUs thousands.
  // elementBytes and elementsPerLane must be set before any element is written, and nothing is
  // written past 64 x laneStride() (beginRequest clears only that much). A scalar access uses
  // data[0 .. elementBytes). Store data on the way out, load data back.
  alignas(64) std::array<uint8_t, kDataBytes> data{};
  // Compare values for compare-and-swap atomics (and image depth compares), kMaxLaneBytes per
  // lane (cmpElement): empty until a request needs them (beginRequest for an atomic, or the first
  // cmpElement written), then kDataBytes. Most requests never do, and a CU's pooled requests would
  // otherwise each carry a kilobyte nobody reads.
  std::vector<uint8_t> cmp;

  // (added by isa) BUFFER_STORE_LDS_DWORD: the store data is in the workgroup's LDS, lane l's
  // dword at offset ldsData + 4 * l of its allocation; the memory side reads it there
  // (isa::ldsReadOfStore, through the LDS block) before the store. kNoLdsData: it is in data[].
  static constexpr uint32_t kNoLdsData = ~0u;
  uint32_t ldsData = kNoLdsData;

  // Set by the memory side when an access fails (address outside every allocation, ...).
  bool faulted = false;
  uint64_t faultAddress = 0;

  // (added by isa) Image sampling: the texels the lanes' filters read (a bilinear sample 4 per
  // lane, trilinear 8). When not empty the list replaces the lanes' elements: each texel is an
  // element of elementBytes bytes at `address` (none when `fetch` is false: a border texel),
  // its data at texelData[i * kMaxElementBytes]. The ISA weighs them when the data returns.
  struct Texel {
    uint64_t address = 0;
    float weight = 0;
    uint8_t lane = 0;
    uint8_t slot = 0;  // gather4: which result component
    bool fetch = true;
  };
  std::vector<Texel> texels;
  std::vector<uint8_t> texelData;
  uint8_t* texelElement(size_t i) { return &texelData[i * kMaxElementBytes]; }
  const uint8_t* texelElement(size_t i) const { return &texelData[i * kMaxElementBytes]; }

  // How the ISA writes the returned data to registers; opaque to the memory side.
  struct Writeback {
    uint8_t kind = 0;  // 0 none, else defined by the ISA implementation
    uint16_t reg = 0;
    uint8_t count = 0;
    uint8_t flags = 0;
    uint64_t lanes = 0;   // lanes whose destination is written (may differ from laneMask)
    uint16_t aux = 0;     // (added by isa) format loads: data/number format and components
    uint32_t format = 0;  // (added by isa) buffer format / LDS loads: conversion parameters
  } writeback;

  // Bytes of data[] the request's shape covers (what beginRequest clears of it).
  size_t dataBytesUsed() const {
    return space == MemSpace::Scalar ? elementBytes
                                     : std::min(kDataBytes, size_t{64} * laneStride());
  }

  // Hands `to` what writing the access's result to registers needs (isa::completeMemory), once
  // the memory side has answered: every field but the lanes' addresses and byte counts, which
  // only the memory side reads; data[] as far as either request's shape covers (this one is zero
  // beyond its own, and `to` stays so). Image texels and compare values (a depth-compare sample
  // compares when its texels return) are swapped, not copied. A compute unit issues every
  // instruction into one request, which its issue loop keeps in the host's caches, and keeps only
  // this for each load in flight. A new field of the request that completeMemory reads must be
  // handed over here.
  void moveResultTo(MemRequest& to) {
    const size_t bytes = std::max(dataBytesUsed(), to.dataBytesUsed());
    to.space = space;
    to.op = op;
    to.atomic = atomic;
    to.atomicReturnsData = atomicReturnsData;
    to.atomicChangedMemory = atomicChangedMemory;
    to.counter = counter;
    to.glc = glc;
    to.slc = slc;
    to.image = image;
    to.crossLane = crossLane;
    to.laneMask = laneMask;
    to.elementBytes = elementBytes;
    to.elementsPerLane = elementsPerLane;
    std::copy_n(data.begin(), bytes, to.data.begin());
    to.ldsData = ldsData;
    to.faulted = faulted;
    to.faultAddress = faultAddress;
    to.texels.swap(texels);
    to.texelData.swap(texelData);
    to.cmp.swap(cmp);
    to.writeback = writeback;
  }

  // Byte address of element e of lane l. For LDS it is the offset inside the workgroup's LDS
  // allocation; for Vector a device (virtual) address; Scalar uses address(0). Stored
  // element-major: the usual one element per lane takes 512 contiguous bytes in the request,
  // and the further elements (DS read2/write2, swizzled scratch dwords) are kept apart, made on
  // first use.
  uint64_t& address(int lane, int e = 0) {
    return e == 0 ? addresses_[static_cast<size_t>(lane)] : moreAddresses(e)[lane];
  }
  uint64_t address(int lane, int e = 0) const { return addressesOf(e)[lane]; }

  // Element e's addresses, lane by lane (64 of them; all 0 when none was written).
  const uint64_t* addressesOf(int e) const {
    if (e == 0) return addresses_.data();
    return moreAddresses_.empty() ? kNoAddresses.data()
                                  : &moreAddresses_[static_cast<size_t>(e - 1) * 64];
  }

  // Bytes of one lane's elements together: the distance between lanes in data[].
  size_t laneStride() const { return static_cast<size_t>(elementBytes) * elementsPerLane; }
  // Where element e of lane l starts in data[].
  size_t elementOffset(int lane, int e) const {
    return static_cast<size_t>(lane) * laneStride() + static_cast<size_t>(e) * elementBytes;
  }
  uint8_t* element(int lane, int e) { return &data[elementOffset(lane, e)]; }
  const uint8_t* element(int lane, int e) const { return &data[elementOffset(lane, e)]; }
  // Compare values keep kMaxLaneBytes per lane whatever the element size: an image depth
  // compare's reference is a float per lane next to texels of one or two bytes.
  size_t cmpOffset(int lane, int e) const {
    return static_cast<size_t>(lane) * kMaxLaneBytes + static_cast<size_t>(e) * elementBytes;
  }
  uint8_t* cmpElement(int lane, int e) {
    if (cmp.empty()) cmp.assign(kDataBytes, 0);
    return &cmp[cmpOffset(lane, e)];
  }
  // Compare values never written read as 0, as in a fresh request.
  const uint8_t* cmpElement(int lane, int e) const {
    return (cmp.empty() ? kNoCompare.data() : cmp.data()) + cmpOffset(lane, e);
  }

 private:
  uint64_t* moreAddresses(int e) {
    if (moreAddresses_.empty()) moreAddresses_.assign(64 * (kElementsPerLane - 1), 0);
    return &moreAddresses_[static_cast<size_t>(e - 1) * 64];
  }
  static constexpr std::array<uint8_t, kDataBytes> kNoCompare{};
  static constexpr std::array<uint64_t, 64> kNoAddresses{};
  // Element 0 of every lane, then (apart: a CU keeps one request per memory instruction in
  // flight, 60 CUs thousands, and most never use them) elements 1 .. kElementsPerLane - 1.
  std::array<uint64_t, 64> addresses_{};
  std::vector<uint64_t> moreAddresses_;
};

}  // namespace vgpu::isa
