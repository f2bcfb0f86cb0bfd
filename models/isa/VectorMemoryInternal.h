// Vector memory internals shared by the encodings' executors: MUBUF/MTBUF (isa/Mubuf.cpp),
// FLAT/GLOBAL/SCRATCH (isa/Flat.cpp), the at-issue data movers of functional mode
// (isa/VectorMemoryAtIssue.cpp) and the op tables, common tail and completions
// (isa/VectorMemory.cpp). Not part of the ISA library's interface.
#pragma once

#include <cstdint>
#include <string>

#include "isa/BufferFormat.h"
#include "isa/Memory.h"

namespace vgpu::isa::vmem {

void execBuffer(ExecArgs& x);  // MUBUF / MTBUF (Vega ISA guide 8.1)
void execFlat(ExecArgs& x);    // FLAT / GLOBAL / SCRATCH (Vega ISA guide 10)

// ---------------------------------------------------------------------------------------------
// Request building (isa/VectorMemory.cpp).

// Store / atomic source data of every lane in `sent`, into x.mem.
void gatherStoreData(ExecArgs& x, uint64_t sent, int dataReg);

// Loads into the LDS (lds=1: MUBUF, GLOBAL, SCRATCH) and BUFFER_STORE_LDS_DWORD: lane l's LDS
// dword is at M0[15:0] + the instruction offset + 4 * l (Vega ISA guide 8.1, buffer load to
// LDS; LLVM's AMDGPU intrinsic documentation: the instruction offset applies to the memory
// and the LDS address alike).
inline uint32_t ldsDwordBase(const WaveState& w, int64_t instOffset) {
  return static_cast<uint32_t>((w.m0 & 0xffff) + instOffset);
}

// A load's returned data goes to the LDS from `ldsBase` (ldsWriteOfLoad), not to VGPRs; the
// base travels in reg (low half) and aux (high half).
inline void setLdsWriteback(MemRequest& mem, uint32_t ldsBase, LoadExt ext, uint64_t lanes) {
  MemRequest::Writeback& wb = mem.writeback;
  wb.kind = kWbLds;
  wb.reg = static_cast<uint16_t>(ldsBase & 0xffff);
  wb.aux = static_cast<uint16_t>(ldsBase >> 16);
  wb.flags = static_cast<uint8_t>(ext);
  wb.lanes = lanes;
}

// Common tail: counter, data, write-back. `sent` lanes access memory; `written` lanes get
// a destination write (loads to out-of-range lanes write 0; loads into the LDS set their
// write-back afterwards).
bool finishVector(ExecArgs& x, int dataReg, uint64_t sent, uint64_t written, int elementBytes);

// Stops the instruction with a fault whose message is `why`.
void faultWith(ExecArgs& x, std::string why);

// Writeback::format of a buffer format load (kWbFormat) or a load into the LDS (kWbLds).
namespace wbfmt {
constexpr uint32_t kDfmtShift = 0;         // [3:0] data format
constexpr uint32_t kNfmtShift = 4;         // [6:4] number format
constexpr uint32_t kCompShift = 7;         // [9:7] components the instruction returns (1..4)
constexpr uint32_t kD16 = 1u << 10;        // 16-bit results, two per VGPR
constexpr uint32_t kD16Hi = 1u << 11;      // one 16-bit result in the high half
constexpr uint32_t kUseDstSel = 1u << 12;  // MUBUF *_format: DST_SEL from the V#
constexpr uint32_t kDstSelShift = 13;      // [24:13] DST_SEL_X..W
constexpr uint32_t kNull = 1u << 25;       // null resource: every component reads 0
constexpr uint32_t kIsFormat = 1u << 26;   // (LDS loads) buffer_load_format_x
}  // namespace wbfmt

// The shader values of lane `l` of a format store, before packing (D16: 16-bit values).
void formatStoreValues(const WaveState& w, int dataReg, const MemDesc& m, int l, uint32_t params,
                       uint32_t out[4]);

// Whether a load may go to the LDS (lds=1).
bool ldsLoadAllowed(const MemDesc& m);

// Alignment (Vega ISA guide 8.1), for buffer and flat/global/scratch accesses alike (both go
// through the texture addresser): atomics to their data size and format ops to their component
// size, always (MEMVIOL); other ops by SH_MEM_CONFIG.alignment_mode.
struct AlignmentRule {
  int required = 1;        // bytes; 1: anything goes
  bool autoAlign = false;  // DWORD mode: the hardware drops the low address bits instead
  const char* rule = "";
};
AlignmentRule alignmentRule(const MemDesc& m, int bytes, int mode);
// The MEMVIOL fault of a misaligned lane (`kind`: "buffer", "flat", "scratch" or "global").
void misalignedFault(ExecArgs& x, const char* kind, int lane, uint64_t address,
                     const AlignmentRule& a, int mode);

// One lane of a buffer access (Vega ISA guide 8.1; Vega ISA guide 8.1.5 address, 8.1.6 range
// checks): what the instruction gives every lane alike, and what becomes of one lane.
struct BufferAddressing {
  BufferResource vs;
  uint64_t soffset = 0;
  uint32_t instOffset = 0;
  int bytes = 4;
  AlignmentRule align;
  // Range-check kind (Vega ISA guide 8.1.6): scratch (ADD_TID_ENABLE without idxen) is not
  // checked; idxen makes a structured buffer (num_records in strides, checked by index);
  // otherwise raw (num_records in bytes, exact: the payload must fit).
  bool scratch = false, structured = false;
  bool perComponent = false;  // raw B64/B96/B128: each dword checked on its own
};
struct BufferLane {
  enum Problem : uint8_t { kNone, kMisaligned, kCrossesElement };
  Problem problem = kNone;
  uint64_t address = 0;  // kMisaligned: the misaligned address
  int inBytes = 0;       // bytes of the lane's element in range, from its start
};
[[gnu::always_inline]] inline BufferLane bufferLane(const BufferAddressing& b, uint64_t index,
                                                    uint64_t offset) {
  const BufferResource& vs = b.vs;
  BufferLane r;
  uint64_t address = vs.base + b.soffset;
  const uint64_t es = vs.elementSize, is = vs.indexStride;
  uint64_t bufferOffset;
  if (vs.swizzle) {
    // Both are powers of two (decodeResource): shifts and masks instead of four divisions
    // per lane. ((index / is) * stride + (offset / es) * es) * is + (index % is) * es +
    // offset % es.
    const unsigned esShift = static_cast<unsigned>(__builtin_ctzll(es));
    const unsigned isShift = static_cast<unsigned>(__builtin_ctzll(is));
    bufferOffset = (((index >> isShift) * vs.stride + (offset & ~(es - 1))) << isShift) +
                   ((index & (is - 1)) << esShift) + (offset & (es - 1));
  } else {
    bufferOffset = index * vs.stride + offset;
  }
  address += bufferOffset;
  // A mask, not a 64-bit division per lane, wherever the required alignment is a power of two
  // (all but perhaps a format access's, which alignmentRule takes from its element size).
  const uint64_t required = static_cast<uint64_t>(b.align.required);
  const uint64_t misaligned =
      (required & (required - 1)) == 0 ? address & (required - 1) : address % required;
  if (misaligned && b.align.autoAlign) {
    address -= misaligned;
    offset = offset >= misaligned ? offset - misaligned : 0;
  } else if (misaligned) {
    r.problem = BufferLane::kMisaligned;
    r.address = address;
    return r;
  }
  if (vs.swizzle && (offset & (es - 1)) + static_cast<uint64_t>(b.bytes) > es) {
    r.problem = BufferLane::kCrossesElement;
    return r;
  }
  r.address = address;
  const int bytes = b.bytes;
  if (b.scratch) {
    r.inBytes = bytes;
  } else if (b.structured) {
    r.inBytes = index < vs.numRecords ? bytes : 0;
  } else if (b.perComponent) {
    // The in-range dwords are a prefix.
    while (r.inBytes < bytes && offset + static_cast<uint64_t>(r.inBytes) + 4 <= vs.numRecords)
      r.inBytes += 4;
  } else {
    r.inBytes = offset + static_cast<uint64_t>(bytes) <= vs.numRecords ? bytes : 0;
  }
  return r;
}

// ---------------------------------------------------------------------------------------------
// Functional mode: plain loads and stores completed at issue on the bytes
// ExecContext::directMemory maps, without a MemRequest (isa/VectorMemoryAtIssue.cpp).

// The lanes of such an access: where each lane's element is, which lanes access memory and
// which receive load data. Lane l's element is at
//   Affine:   base + l * stride (known by construction, e.g. one scratch offset for all lanes),
//   Offsets:  base + offsets[l], a 32-bit VGPR (global addresses: the 64-bit sum is monotonic
//             in the VGPR, so its minimum and maximum bound the lanes),
//   Listed:   addr[l].
struct DirectLanes {
  enum class Form : uint8_t { Affine, Offsets, Listed };
  Form form = Form::Listed;
  uint64_t lanes = 0;    // lanes that access memory
  uint64_t written = 0;  // loads: lanes whose destination is written (those not in `lanes` read 0)
  uint64_t base = 0, stride = 0;
  const uint32_t* offsets = nullptr;
  uint64_t addr[kWaveSize];  // Listed: set for the entries of `lanes`
  // Buffer range checks: lane l's element has only its first inBytes[l] bytes in range (set
  // for the entries of `lanes` when `partial`).
  bool partial = false;
  uint8_t inBytes[kWaveSize];
};

// A whole wave's dwords moved between the VGPR at `reg` and the host memory of one mapped block
// (loads into the VGPR, stores out of it), and the instruction done at issue: the block copy
// that the commonest accesses come down to.
void waveDwordsAtIssue(ExecArgs& x, int reg, uint8_t* host, bool load);
// Moves the data of a plain load or store between the VGPRs from `reg` and the lanes `d`
// describes, `bytes` per lane. False, with nothing changed, when the lanes' bytes are not all
// in one mapped region.
bool moveDirect(ExecArgs& x, const DirectLanes& d, int reg, int bytes, int returnReg);
// A plain load or store at issue on the lanes `d` describes. False, with nothing changed, when
// the lanes' bytes are not all in one mapped region: the instruction then takes the MemRequest
// path, which reports faults.
bool accessDirect(ExecArgs& x, const DirectLanes& d, int reg, int bytes, int returnReg = -1);

}  // namespace vgpu::isa::vmem
