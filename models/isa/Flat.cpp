// FLAT / GLOBAL / SCRATCH loads, stores and atomics (Vega ISA guide 10.1 - 10.3): per-lane
// addresses (generic addresses in the shared aperture go to the LDS, in the private aperture to
// the wave's swizzled scratch), alignment, loads into the LDS. In functional mode the accesses
// whose bytes are mapped complete at issue (flatDirect, with the movers of
// VectorMemoryAtIssue.cpp).
#include <algorithm>
#include <cstring>

#include "isa/VectorMemoryInternal.h"

namespace vgpu::isa::vmem {
namespace {

// flatDirect's dword accesses with every lane on whose lanes are consecutive across the wave
// (`blocks` 1) or in each quarter-wave (4; a row of a 16-wide workgroup) and whose address's
// high half is the same in every lane: each block's host memory first (false, nothing done, if
// one is not mapped, misaligned, or (flat) in the shared or private aperture), then the copies,
// in lane order (of two stores to the same bytes, the higher lane's wins).
template <int kBlocks>
bool flatBlocksAtIssue(ExecArgs& x, int seg, const uint32_t* lo, uint64_t high, int64_t offset,
                       bool load, int reg) {
  constexpr int kLanes = kWaveSize / kBlocks;
  const uint64_t shared = x.ctx.sharedApertureBase, priv = x.ctx.privateApertureBase;
  // Flat addresses in the shared or private aperture (4 GiB windows, so a block's first or last
  // lane would be in one) go the general way.
  auto inAperture = [&](uint64_t a) {
    return (shared && a - shared < (1ull << 32)) || (priv && a - priv < (1ull << 32));
  };
  uint8_t* host[kBlocks];
  for (int b = 0; b < kBlocks; ++b) {
    const uint32_t first = lo[b * kLanes];
    // The block's first address; its lanes follow by 4 bytes each, none wrapping past 2^32 in
    // the low half.
    const uint64_t start = high + first + static_cast<uint64_t>(offset);
    const uint64_t last = start + 4 * (kLanes - 1);
    if ((start & 3) != 0 || uint64_t{first} + 4 * (kLanes - 1) > 0xffffffffu ||
        (seg == 0 && (inAperture(start) || inAperture(last))))
      return false;
    host[b] = x.ctx.directMemory->map(MemSpace::Vector, start, 4 * kLanes);
    if (host[b] == nullptr) return false;
  }
  if (kBlocks == 1) {
    waveDwordsAtIssue(x, reg, host[0], load);
    return true;
  }
  uint32_t* r = x.w.v(static_cast<uint32_t>(reg));
  for (int b = 0; b < kBlocks; ++b) {
    if (load)
      std::memcpy(r + b * kLanes, host[b], 4 * kLanes);
    else
      std::memcpy(host[b], r + b * kLanes, 4 * kLanes);
  }
  x.r.kind = StepKind::MemoryDone;
  x.w.pc += x.in.sizeBytes;
  return true;
}

// FLAT/GLOBAL/SCRATCH loads, stores and atomics at issue (functional mode). False, with
// nothing changed, for what the general path must do: flat addresses in the LDS or private
// aperture, faults (a misaligned lane, a VGPR out of range), bytes that are not mapped.
bool flatDirect(ExecArgs& x, int seg, int vaddr, bool useSaddr, bool scratchSaddr,
                uint64_t saddrValue, int64_t offset) {
  const MemDesc& m = x.op.mem;
  WaveState& w = x.w;
  const bool load = m.op == MemOp::Load;
  // The general path's VGPR checks (finishVector), which report these faults.
  const int dataReg = x.in.f[fld::kData0], vdst = x.in.f[fld::kDst];
  if (x.op.src1 != Ty::None && !vgprInRange(w, dataReg, dwordsOf(x.op.src1))) return false;
  const bool returns = load || (m.op == MemOp::Atomic && (x.in.f[fld::kBits] & kGlc));
  if (returns && !vgprInRange(w, vdst, dwordsOf(x.op.dst))) return false;
  const int reg = load ? vdst : dataReg;
  const int returnReg = m.op == MemOp::Atomic && returns ? vdst : -1;
  const uint64_t exec = w.exec;
  // The commonest accesses of all: every lane on, a dword each, consecutive, across the whole
  // wave or in each quarter-wave (a row of a 16-wide workgroup; a global or flat address whose
  // high half is the same in every lane): one block for the wave or for each quarter-wave.
  if (exec == ~0ull && seg != 1 && m.bytes == 4 && m.op != MemOp::Atomic &&
      m.ext == LoadExt::None && !m.d16Hi) {
    const uint32_t* lo = w.v(static_cast<uint32_t>(vaddr));
    const uint32_t* hi = useSaddr ? nullptr : w.v(static_cast<uint32_t>(vaddr + 1));
    const uint64_t high = useSaddr ? saddrValue : uint64_t{hi[0]} << 32;
    if (allLanesStep(lo, hi, lo[0], 4, hi ? hi[0] : 0)) {
      if (flatBlocksAtIssue<1>(x, seg, lo, high, offset, load, reg)) return true;
    } else if ((hi == nullptr || allLanesStep(hi, nullptr, hi[0], 0, hi[0])) &&
               quarterWavesStep(lo, 4)) {
      if (flatBlocksAtIssue<kWaveSize / 16>(x, seg, lo, high, offset, load, reg)) return true;
    }
  }
  DirectLanes d;
  d.lanes = d.written = exec;
  if (exec == 0) return accessDirect(x, d, reg, m.bytes, returnReg);  // nothing to move
  const int first = __builtin_ctzll(exec);
  const uint64_t bytes = m.bytes;
  const AlignmentRule align = alignmentRule(m, m.bytes, w.alignmentMode & 3);
  const uint64_t alignMask = static_cast<uint64_t>(align.required) - 1;  // a power of two
  // A misaligned address: the general path faults; DWORD mode drops the low bits instead.
  auto aligned = [&](uint64_t& address) {
    if ((address & alignMask) == 0) return true;
    address &= ~alignMask;
    return align.autoAlign;
  };
  const uint64_t off = static_cast<uint64_t>(offset);
  const uint32_t* lo = scratchSaddr ? nullptr : w.v(static_cast<uint32_t>(vaddr));
  if (seg == 1) {
    // Scratch: per-lane private offsets (aligned as such), swizzled: dword p / 4 of lane l at
    // FLAT_SCRATCH + (p / 4) * 256 + l * 4. One offset for every lane makes them affine.
    // Several dwords per lane: dword k at private address p + 4k, swizzled on its own (as
    // execFlat's request has it), so one dword access per k, every address worked out before
    // the first moves (a load may overwrite its address VGPR).
    if (m.bytes <= 4) {
      if (scratchSaddr || lanesStep(lo, nullptr, exec, 0)) {
        uint64_t p = static_cast<uint32_t>((scratchSaddr ? saddrValue : lo[first]) + off);
        if (!aligned(p)) return false;
        d.form = DirectLanes::Form::Affine;
        d.base = w.flatScratch + (p / 4) * 256 + p % 4;
        d.stride = 4;
      } else {
        uint64_t* a = d.addr;
        for (int l = 0; l < kWaveSize; ++l) a[l] = static_cast<uint32_t>(lo[l] + off);
        for (uint64_t b = exec; b != 0; b &= b - 1)
          if (!aligned(a[__builtin_ctzll(b)])) return false;
        for (int l = 0; l < kWaveSize; ++l)
          a[l] = w.flatScratch + (a[l] / 4) * 256 + static_cast<uint64_t>(l) * 4 + a[l] % 4;
      }
      return accessDirect(x, d, reg, m.bytes, returnReg);
    }
    const int dwords = m.bytes / 4;
    DirectLanes part[4];
    uint64_t p[kWaveSize];  // each lane's private address of dword 0
    uint64_t lowest = ~0ull, highest = 0;
    for (uint64_t b = exec; b != 0; b &= b - 1) {
      const int l = __builtin_ctzll(b);
      p[l] = static_cast<uint32_t>((scratchSaddr ? saddrValue : lo[l]) + off);
      if (!aligned(p[l])) return false;
      lowest = std::min(lowest, p[l]);
      highest = std::max(highest, p[l]);
    }
    // Every dword of the access lies in the rows of 256 bytes from the lowest private address's
    // to the highest one's last dword: one mapped block, or the general path does it all.
    const uint64_t start = w.flatScratch + (lowest / 4) * 256;
    const uint64_t end = w.flatScratch + ((highest + 4 * (dwords - 1)) / 4) * 256 + 256 + 3;
    if (x.ctx.directMemory->map(MemSpace::Vector, start, end - start) == nullptr) return false;
    for (int k = 0; k < dwords; ++k) {
      DirectLanes& dk = part[k];
      dk.lanes = dk.written = exec;
      for (uint64_t b = exec; b != 0; b &= b - 1) {
        const int l = __builtin_ctzll(b);
        const uint64_t q = p[l] + 4 * static_cast<uint64_t>(k);
        dk.addr[l] = w.flatScratch + (q / 4) * 256 + static_cast<uint64_t>(l) * 4 + q % 4;
      }
    }
    for (int k = 0; k < dwords; ++k) moveDirect(x, part[k], reg + k, 4, -1);
    x.r.kind = StepKind::MemoryDone;
    w.pc += x.in.sizeBytes;
    return true;
  }
  // Global and flat: address = (saddr, or the high VGPR << 32) + the low VGPR + offset. With
  // one high half, lane l is at base + lo[l]; consecutive elements make the lanes affine, and
  // then their alignment is the first lane's.
  const uint32_t* hi = useSaddr ? nullptr : w.v(static_cast<uint32_t>(vaddr + 1));
  auto baseOf = [&] {
    return (useSaddr ? saddrValue : static_cast<uint64_t>(hi[first]) << 32) + off;
  };
  if (lanesStep(lo, hi, exec, static_cast<uint32_t>(bytes))) {
    uint64_t start = baseOf() + lo[first];
    if (!aligned(start)) return false;
    d.form = DirectLanes::Form::Affine;
    d.base = start - first * bytes;
    d.stride = bytes;
  } else if ((useSaddr || lanesStep(hi, nullptr, exec, 0)) &&
             !(load && vaddr >= reg && vaddr < reg + dwordsOf(x.op.dst))) {
    // (Not when the load overwrites the offsets before its last dword is placed.)
    d.base = baseOf();
    if (alignMask != 0) {
      uint64_t misaligned = 0;
      for (uint64_t b = exec; b != 0; b &= b - 1) misaligned |= d.base + lo[__builtin_ctzll(b)];
      if ((misaligned & alignMask) != 0) return false;  // DWORD mode too: rare, general path
    }
    d.form = DirectLanes::Form::Offsets;
    d.offsets = lo;
  } else {
    uint64_t* a = d.addr;
    if (useSaddr) {
      for (int l = 0; l < kWaveSize; ++l) a[l] = saddrValue + lo[l] + off;
    } else {
      for (int l = 0; l < kWaveSize; ++l)
        a[l] = (lo[l] | (static_cast<uint64_t>(hi[l]) << 32)) + off;
    }
    for (uint64_t b = exec; b != 0; b &= b - 1)
      if (!aligned(a[__builtin_ctzll(b)])) return false;
  }
  if (seg == 0) {
    // Generic addresses in the shared or private aperture: the general path maps them.
    const uint64_t shared = x.ctx.sharedApertureBase, priv = x.ctx.privateApertureBase;
    auto inAperture = [&](uint64_t address) {
      return (shared && address - shared < (1ull << 32)) || (priv && address - priv < (1ull << 32));
    };
    for (uint64_t b = exec; b != 0; b &= b - 1) {
      const int l = __builtin_ctzll(b);
      const uint64_t address = d.form == DirectLanes::Form::Affine    ? d.base + l * d.stride
                               : d.form == DirectLanes::Form::Offsets ? d.base + lo[l]
                                                                      : d.addr[l];
      if (inAperture(address)) return false;
    }
  }
  return accessDirect(x, d, reg, m.bytes, returnReg);
}

}  // namespace

// FLAT / GLOBAL / SCRATCH (10.1 - 10.3).
void execFlat(ExecArgs& x) {
  const Instruction& in = x.in;
  const MemDesc& m = x.op.mem;
  WaveState& w = x.w;
  const int seg = in.f[fld::kFmt];
  // lds=1: the loaded data goes to the LDS (ldsDwordBase), not to VGPRs; GLOBAL and SCRATCH
  // loads of a byte, short or dword only (the decoder refuses other encodings).
  const bool toLds = in.f[fld::kBits] & kLds;
  if (toLds && (seg == 0 || !ldsLoadAllowed(m)))
    return fault(x, "lds=1 is only valid on global/scratch load_ubyte/sbyte/ushort/sshort/dword");
  const int vaddr = in.f[fld::kAddr];
  const int saddr = in.f[fld::kData1];
  const bool useSaddr = seg != 0 && saddr != 0x7f;
  // FLAT offsets are 12-bit unsigned; GLOBAL/SCRATCH 13-bit signed (gfx9).
  const int64_t offset = seg == 0 ? (in.f[fld::kOffset0] & 0xfff)
                                  : static_cast<int64_t>(sext(in.f[fld::kOffset0], 13));
  const bool scratchSaddr = seg == 1 && useSaddr;  // scratch with an SGPR address: no VGPR
  const int addrRegs = seg == 1 ? 1 : (useSaddr ? 1 : 2);
  if (!scratchSaddr && !vgprInRange(w, vaddr, addrRegs))
    return fault(x, "flat address VGPR out of range");
  const uint64_t saddrValue =
      useSaddr ? readScalar(in, w, x.ctx, saddr, seg == 2 ? Ty::B64 : Ty::B32) : 0;

  if (x.ctx.directMemory && !toLds &&
      flatDirect(x, seg, vaddr, useSaddr, scratchSaddr, saddrValue, offset))
    return;

  // FLAT-segment instructions count on both VM_CNT and LGKM_CNT; global and scratch on VM_CNT.
  beginRequest(x.mem, MemSpace::Vector, m.op, seg == 0 ? WaitCounter::VmLgkm : WaitCounter::Vm);
  const uint64_t exec = w.exec;
  uint64_t ldsLanes = 0;
  const int alignMode = w.alignmentMode & 3;
  const AlignmentRule align = alignmentRule(m, m.bytes, alignMode);
  // A power of two (FLAT has no format accesses): a mask, not a 64-bit division per lane.
  const uint64_t alignMask = static_cast<uint64_t>(align.required) - 1;
  // Alignment is checked on the address before the scratch swizzle (the private offset),
  // which is what the program aligns; the aperture bases are 4 GiB aligned.
  auto aligned = [&](int lane, uint64_t& address) {
    const uint64_t misaligned = address & alignMask;
    if (misaligned == 0) return true;
    if (align.autoAlign) {
      address -= misaligned;
      return true;
    }
    misalignedFault(x, seg == 0 ? "flat" : (seg == 1 ? "scratch" : "global"), lane, address, align,
                    alignMode);
    return false;
  };
  // Private (scratch) addresses are swizzled with 4-byte elements and an index stride of 64
  // (the private segment's layout: Vega ISA guide 8.1.5, swizzled buffer addressing, as LLVM's
  // scratch V# sets it up): dword p / 4 of lane l is at FLAT_SCRATCH + (p / 4) * 256 + l * 4.
  // An access of several dwords is one element per dword, each swizzled on its own: dword k
  // of a lane's data at private address p + 4k. The other lanes of such an access (flat
  // addresses outside the private aperture) have their dwords one after another.
  const int dwords = m.op != MemOp::Atomic && m.bytes > 4 ? m.bytes / 4 : 1;
  uint64_t swizzled = 0;  // lanes whose address is private
  auto swizzleScratch = [&](int lane, uint64_t p) {
    swizzled |= 1ull << lane;
    for (int k = 1; k < dwords; ++k) {
      const uint64_t q = p + 4 * static_cast<uint64_t>(k);
      x.mem.address(lane, k) =
          w.flatScratch + (q / 4) * 256 + static_cast<uint64_t>(lane) * 4 + q % 4;
    }
    return w.flatScratch + (p / 4) * 256 + static_cast<uint64_t>(lane) * 4 + (p % 4);
  };
  // Global (the usual segment): every lane's address in one pass over the VGPRs, the alignment
  // of the active lanes checked together. Only a misaligned lane needs the loop below, which
  // aligns it or reports it (done a lane at a time for every access, that loop had made this
  // function 7 % of vector_add's host instructions in timing mode).
  bool addressed = false;
  if (seg == 2) {
    uint64_t* const row = &x.mem.address(0, 0);
    const uint32_t* const lo = w.v(static_cast<uint32_t>(vaddr));
    if (useSaddr) {
      for (int l = 0; l < kWaveSize; ++l) row[l] = saddrValue + lo[l] + offset;
    } else {
      const uint32_t* const hi = w.v(static_cast<uint32_t>(vaddr + 1));
      for (int l = 0; l < kWaveSize; ++l)
        row[l] = (lo[l] | (static_cast<uint64_t>(hi[l]) << 32)) + offset;
    }
    uint64_t misaligned = 0;
    for (int l = 0; l < kWaveSize; ++l) misaligned |= row[l] & alignMask & (0 - ((exec >> l) & 1));
    addressed = misaligned == 0;
  }
  for (int l = 0; l < kWaveSize && !addressed; ++l) {
    if (!((exec >> l) & 1)) continue;
    uint64_t a;
    if (seg == 1) {
      // Scratch offsets are per-lane private addresses, swizzled.
      uint64_t p = static_cast<uint32_t>(
          (scratchSaddr ? saddrValue : w.v(static_cast<uint32_t>(vaddr))[l]) + offset);
      if (!aligned(l, p)) return;
      a = swizzleScratch(l, p);
    } else {
      if (useSaddr) {
        a = saddrValue + w.v(static_cast<uint32_t>(vaddr))[l] + offset;
      } else {
        a = (w.v(static_cast<uint32_t>(vaddr))[l] |
             (static_cast<uint64_t>(w.v(static_cast<uint32_t>(vaddr + 1))[l]) << 32)) +
            offset;
      }
      if (!aligned(l, a)) return;
      if (seg == 0) {
        // Generic address: the shared and private apertures (10.1.3).
        const uint64_t shared = x.ctx.sharedApertureBase, priv = x.ctx.privateApertureBase;
        if (shared && a - shared < (1ull << 32)) {
          a -= shared;
          ldsLanes |= 1ull << l;
        } else if (priv && a - priv < (1ull << 32)) {
          a = swizzleScratch(l, a - priv);
        }
      }
    }
    x.mem.address(l, 0) = a;
  }
  if (ldsLanes) {
    if (ldsLanes != exec) return fault(x, "flat access mixing apertures not supported");
    x.mem.space = MemSpace::Lds;
  }
  if (!finishVector(x, in.f[fld::kData0], exec, exec, m.bytes)) return;
  if (toLds) setLdsWriteback(x.mem, ldsDwordBase(w, offset), m.ext, exec);
  if (swizzled == 0 || dwords == 1) return;
  // One dword per element; the data keeps its place (a lane's elements follow one another).
  x.mem.elementBytes = 4;
  x.mem.elementsPerLane = static_cast<uint8_t>(dwords);
  for (uint64_t b = exec & ~swizzled; b != 0; b &= b - 1) {
    const int l = __builtin_ctzll(b);
    for (int k = 1; k < dwords; ++k) x.mem.address(l, k) = x.mem.address(l, 0) + 4 * k;
  }
}

}  // namespace vgpu::isa::vmem
