// MUBUF / MTBUF: buffer loads, stores and atomics (Vega ISA guide 8.1). Addresses from the
// buffer resource (V#), index and offset, linear or swizzled; range checks by buffer kind;
// format conversion, D16, TFE and loads into the LDS. In functional mode the accesses whose
// bytes are mapped complete at issue (VectorMemoryAtIssue.cpp).
#include <algorithm>
#include <cstring>
#include <string>

#include "isa/VectorMemoryInternal.h"

namespace vgpu::isa::vmem {
namespace {

// Without an address VGPR every lane has the instruction's offset, and index l
// (ADD_TID_ENABLE) or 0, so lane l is at lane 0's address + l * `stride` (swizzled: within one
// index stride, so not with an index stride narrower than a wave), with lane 0's alignment when
// the stride keeps it, and lane 0's range check. False (stride unset) when that does not hold.
bool uniformLaneStride(const BufferAddressing& b, bool offen, bool idxen, uint64_t& stride) {
  const BufferResource& vs = b.vs;
  if (offen || idxen || (vs.swizzle && vs.indexStride < kWaveSize)) return false;
  stride = !vs.addTid ? 0 : (vs.swizzle ? vs.elementSize : vs.stride);
  return true;
}

// MUBUF/MTBUF loads and stores without format conversion, LDS or TFE, at issue (functional
// mode); false, with nothing changed, for what the general path must do (as flatDirect).
bool bufferDirect(ExecArgs& x, const BufferAddressing& b, bool offen, bool idxen, int vaddr,
                  int vdata) {
  WaveState& w = x.w;
  const uint64_t exec = w.exec;
  const BufferResource& vs = b.vs;
  DirectLanes d;
  d.written = exec;  // loads: every EXEC lane gets a result (out-of-range lanes read 0)
  uint64_t stride = 0;
  if (uniformLaneStride(b, offen, idxen, stride)) {
    if (exec != 0) {
      if (stride % static_cast<uint64_t>(b.align.required) != 0) return false;
      const BufferLane lane0 = bufferLane(b, 0, b.instOffset);
      if (lane0.problem != BufferLane::kNone) return false;
      d.form = DirectLanes::Form::Affine;
      d.base = lane0.address;
      d.stride = stride;
      if (lane0.inBytes != 0) d.lanes = exec;
      if (lane0.inBytes != 0 && lane0.inBytes < b.bytes) {
        d.partial = true;
        for (int l = 0; l < kWaveSize; ++l) d.inBytes[l] = static_cast<uint8_t>(lane0.inBytes);
      }
    }
  } else if (exec == ~0ull && offen && b.scratch && vs.swizzle && vs.indexStride >= kWaveSize &&
             b.align.required == 1) {
    // Scratch with per-lane offsets (the private segment V#): index l stays inside the first
    // index stride, and nothing is range-checked. A branch-free loop over the whole wave.
    const uint32_t* offset = w.v(static_cast<uint32_t>(vaddr));
    const uint64_t base = vs.base + b.soffset, es = vs.elementSize;
    const unsigned esShift = static_cast<unsigned>(__builtin_ctzll(es));
    const unsigned isShift = static_cast<unsigned>(__builtin_ctzll(vs.indexStride));
    uint64_t crosses = 0;
    for (int l = 0; l < kWaveSize; ++l) {
      const uint64_t o = uint64_t{offset[l]} + b.instOffset;
      d.addr[l] = base + ((o & ~(es - 1)) << isShift) + (static_cast<uint64_t>(l) << esShift) +
                  (o & (es - 1));
      // (o % es) + bytes > es: the subtraction wraps.
      crosses |= (es - ((o & (es - 1)) + static_cast<uint64_t>(b.bytes))) >> 63;
    }
    if (crosses != 0) return false;  // crosses an element boundary: the general path faults
    d.lanes = exec;
  } else {
    const uint32_t* index = idxen ? w.v(static_cast<uint32_t>(vaddr)) : nullptr;
    const uint32_t* offset = offen ? w.v(static_cast<uint32_t>(vaddr + (idxen ? 1 : 0))) : nullptr;
    for (uint64_t k = exec; k != 0; k &= k - 1) {
      const int l = __builtin_ctzll(k);
      const uint64_t laneIndex =
          (index ? index[l] : 0) + (vs.addTid ? static_cast<uint64_t>(l) : 0);
      const BufferLane r =
          bufferLane(b, laneIndex, (offset ? uint64_t{offset[l]} : 0) + b.instOffset);
      if (r.problem != BufferLane::kNone) return false;
      d.addr[l] = r.address;
      d.inBytes[l] = static_cast<uint8_t>(r.inBytes);
      if (r.inBytes == 0) continue;
      d.lanes |= 1ull << l;
      if (r.inBytes < b.bytes) d.partial = true;
    }
  }
  return accessDirect(x, d, vdata, b.bytes);
}

// The commonest buffer access of all (a kernel's private array or spills at fixed offsets): a
// dword load or store without an address VGPR, every lane on, through a private segment V#
// (swizzled dwords, ADD_TID_ENABLE, an index stride of at least a wave): lane l's dword is at
// lane 0's address + 4 * l, aligned, and scratch is not range-checked. The whole wave moves as
// one block; false (nothing done) for anything else.
bool bufferWaveAtIssue(ExecArgs& x, const uint32_t* v) {
  const Instruction& in = x.in;
  WaveState& w = x.w;
  // V# words 1 and 3 (decodeResource): SWIZZLE_ENABLE, TYPE 0, ELEMENT_SIZE 4 bytes,
  // INDEX_STRIDE 64 or more, ADD_TID_ENABLE.
  if (!(v[1] >> 31) || (v[3] >> 30) != 0 || ((v[3] >> 19) & 3) != 1 || ((v[3] >> 21) & 3) < 3 ||
      !((v[3] >> 23) & 1))
    return false;
  const uint32_t offset = in.f[fld::kOffset0];
  const int vdata = in.f[fld::kData0];
  if ((offset & 3) != 0 || !vgprInRange(w, vdata, 1)) return false;
  // base + soffset + (offset / 4) * 256 (an index stride of 64) + lane * 4.
  const uint64_t base = v[0] | (static_cast<uint64_t>(v[1] & 0xffff) << 32);
  const uint64_t address =
      base + static_cast<uint32_t>(readScalar(in, w, x.ctx, in.f[fld::kOffset1], Ty::B32)) +
      (static_cast<uint64_t>(offset) << 6);
  if ((address & 3) != 0) return false;  // alignment faults and DWORD mode's rounding
  uint8_t* host = x.ctx.directMemory->map(MemSpace::Vector, address, 4 * kWaveSize);
  if (host == nullptr) return false;
  waveDwordsAtIssue(x, vdata, host, x.op.mem.op == MemOp::Load);
  return true;
}

// MUBUF loads and stores without format conversion, LDS or TFE, at issue (functional mode):
// the V# and operands read on their own, and every check the general path makes answered
// first; false (nothing changed) sends the instruction down the general path, which reports
// any fault.
bool bufferAtIssue(ExecArgs& x) {
  const Instruction& in = x.in;
  const MemDesc& m = x.op.mem;
  WaveState& w = x.w;
  const unsigned bits = in.f[fld::kBits];
  if (m.format || m.op == MemOp::Atomic || (bits & (kLds | kTfe))) return false;
  const int rsrc = in.f[fld::kData1];
  if (rsrc < 0 || rsrc + 4 > kNumSgprs) return false;
  if (w.exec == ~0ull && m.bytes == 4 && m.ext == LoadExt::None && !m.d16Hi &&
      !(bits & (kOffen | kIdxen)) && bufferWaveAtIssue(x, &w.sgpr[static_cast<size_t>(rsrc)]))
    return true;
  const BufferResource vs = decodeResource(&w.sgpr[static_cast<size_t>(rsrc)]);
  // An image resource (a no-op), the null resource (zeros), a swizzle too narrow (a fault).
  if (vs.type != 0 || (!vs.addTid && vs.dataFormat == kDfmtInvalid) ||
      (vs.swizzle && m.bytes > vs.elementSize))
    return false;
  const bool offen = bits & kOffen, idxen = bits & kIdxen;
  const int vaddr = in.f[fld::kAddr], vdata = in.f[fld::kData0];
  if ((offen || idxen) && !vgprInRange(w, vaddr, (offen && idxen) ? 2 : 1)) return false;
  if (!vgprInRange(w, vdata, dwordsOf(m.op == MemOp::Load ? x.op.dst : x.op.src1))) return false;
  BufferAddressing b;
  b.vs = vs;
  b.soffset = static_cast<uint32_t>(readScalar(in, w, x.ctx, in.f[fld::kOffset1], Ty::B32));
  b.instOffset = in.f[fld::kOffset0];
  b.bytes = m.bytes;
  b.align = alignmentRule(m, m.bytes, w.alignmentMode & 3);
  b.scratch = vs.addTid && !idxen;
  b.structured = idxen;
  b.perComponent = m.bytes > 4;
  return bufferDirect(x, b, offen, idxen, vaddr, vdata);
}

}  // namespace

// Address = base + soffset + buffer_offset (Vega ISA guide 8.1): buffer_offset from the index
// (idxen VGPR,
// + lane id with ADD_TID_ENABLE) and the offset (offen VGPR + instruction offset), linear or
// swizzled. Range checks by buffer kind, alignment by SH_MEM_CONFIG.alignment_mode, data format
// conversion, D16, TFE and loads into the LDS.
void execBuffer(ExecArgs& x) {
  if (x.ctx.directMemory && bufferAtIssue(x)) return;
  const Instruction& in = x.in;
  const MemDesc& m = x.op.mem;
  WaveState& w = x.w;
  const unsigned bits = in.f[fld::kBits];
  const bool mtbuf = x.op.enc == Enc::Mtbuf;
  const bool toLds = (bits & kLds) && !m.fromLds, tfe = bits & kTfe;
  if (toLds && tfe) return fault(x, "buffer load to LDS with TFE set is illegal");
  if (toLds && !ldsLoadAllowed(m))
    return fault(x, "lds=1 is only valid on buffer_load_ubyte/sbyte/ushort/sshort/dword/format_x");
  const int rsrc = in.f[fld::kData1];
  uint32_t words[4];
  if (rsrc >= 0 && rsrc + 4 <= kNumSgprs) {  // plain SGPRs (as nearly always): one copy
    std::memcpy(words, &w.sgpr[static_cast<size_t>(rsrc)], sizeof words);
  } else {
    for (int k = 0; k < 4; ++k) words[k] = readScalarDword(w, x.ctx, rsrc + k);
  }
  const BufferResource vs = decodeResource(words);
  const uint64_t soffset =
      static_cast<uint32_t>(readScalar(in, w, x.ctx, in.f[fld::kOffset1], Ty::B32));
  const uint32_t instOffset = in.f[fld::kOffset0];
  const bool offen = bits & kOffen, idxen = bits & kIdxen;
  const int vaddr = in.f[fld::kAddr];
  const int vdata = in.f[fld::kData0];
  if ((offen || idxen) && !vgprInRange(w, vaddr, (offen && idxen) ? 2 : 1))
    return fault(x, "buffer address VGPR out of range");

  // Data and number format: MTBUF from the instruction, MUBUF *_format from the V#, every other
  // op from its opcode (Vega ISA guide 8.1.4 "Buffer Data").
  uint32_t dfmt = 0, nfmt = 0;
  int bytes = m.bytes;
  const uint32_t instDfmt = in.f[fld::kFmt] & 0xf;
  // Null resource (Vega ISA guide 8.1): DATA_FORMAT 0 (invalid) without ADD_TID_ENABLE makes loads
  // return 0 and drops stores and atomics; MTBUF takes its data format from the instruction.
  const bool nullResource =
      mtbuf ? instDfmt == kDfmtInvalid : (!vs.addTid && vs.dataFormat == kDfmtInvalid);
  if (m.format) {
    dfmt = mtbuf ? instDfmt : vs.dataFormat;
    nfmt = mtbuf ? ((in.f[fld::kFmt] >> 4) & 7) : vs.numFormat;
    if (const char* problem = formatProblem(dfmt, nfmt))
      return faultWith(x, std::string("buffer format ") + dataFormatName(dfmt) + ", " +
                              numFormatName(nfmt) + ": " + problem);
    if (const FormatLayout* layout = formatLayout(dfmt)) bytes = layout->bytes;
  }
  const bool glc = bits & kGlc;
  const bool returns = m.op == MemOp::Load || (m.op == MemOp::Atomic && glc);
  const int dataDwords = x.op.src1 == Ty::None ? 0 : dwordsOf(x.op.src1);
  if (dataDwords && !vgprInRange(w, vdata, dataDwords))
    return fault(x, "memory data VGPR out of range");
  const int dstDwords = dwordsOf(x.op.dst);
  if (returns && !toLds && !vgprInRange(w, vdata, dstDwords + (tfe ? 1 : 0)))
    return fault(x, "memory destination VGPR out of range");

  BufferAddressing b;
  b.vs = vs;
  b.soffset = soffset;
  b.instOffset = instOffset;
  b.bytes = bytes;
  const int mode = w.alignmentMode & 3;
  b.align = alignmentRule(m, bytes, mode);
  b.scratch = vs.addTid && !idxen;
  b.structured = idxen;
  b.perComponent = !m.format && m.op != MemOp::Atomic && bytes > 4;
  const bool swizzleTooWide = vs.swizzle && bytes > static_cast<int>(vs.elementSize);

  uint32_t params = (dfmt << wbfmt::kDfmtShift) | (nfmt << wbfmt::kNfmtShift) |
                    (static_cast<uint32_t>(m.components) << wbfmt::kCompShift) |
                    (m.d16 ? wbfmt::kD16 : 0) | (m.d16Hi && m.format ? wbfmt::kD16Hi : 0) |
                    (nullResource ? wbfmt::kNull : 0) | (m.format ? wbfmt::kIsFormat : 0);
  if (m.format && !mtbuf) params |= wbfmt::kUseDstSel | (vs.dstSel << wbfmt::kDstSelShift);

  MemRequest& mem = x.mem;
  beginRequest(mem, MemSpace::Vector, m.op, WaitCounter::Vm);
  mem.atomic = m.atomic;
  mem.glc = glc;
  mem.slc = bits & kSlc;
  mem.atomicReturnsData = m.op == MemOp::Atomic && glc;
  mem.elementBytes = static_cast<uint8_t>(bytes);

  // Resource/instruction mismatch (Vega ISA guide 8.1): an image resource (TYPE != 0) makes the
  // buffer instruction a no-op: nothing is read or written, registers keep their values.
  if (vs.type != 0) {
    x.r.kind = StepKind::Memory;
    w.pc += in.sizeBytes;
    return;
  }

  const uint64_t exec = w.exec;
  uint64_t sent = 0;
  if (!nullResource) {
    if (swizzleTooWide)
      return fault(x, "swizzled buffer access wider than the element size (Vega ISA guide 8.1)");
    uint64_t stride = 0;
    BufferLane lane0;
    const bool uniform = uniformLaneStride(b, offen, idxen, stride) &&
                         stride % static_cast<uint64_t>(b.align.required) == 0 &&
                         (lane0 = bufferLane(b, 0, instOffset)).problem == BufferLane::kNone;
    // Lanes alike (no address VGPR, e.g. a private array at a fixed offset): lane 0's result
    // stepped, as the loop below would compute it lane by lane. A problem (a fault names the
    // first lane) takes the loop.
    if (uniform && exec == ~0ull) {
      for (int l = 0; l < kWaveSize; ++l)
        mem.address(l, 0) = lane0.address + static_cast<uint64_t>(l) * stride;
    } else if (uniform) {
      for (uint64_t k = exec; k != 0; k &= k - 1) {
        const int l = __builtin_ctzll(k);
        mem.address(l, 0) = lane0.address + static_cast<uint64_t>(l) * stride;
      }
    }
    if (uniform && lane0.inBytes != 0) {
      sent = exec;
      if (lane0.inBytes < bytes)
        for (uint64_t k = exec; k != 0; k &= k - 1)
          mem.laneBytes[__builtin_ctzll(k)] = static_cast<uint8_t>(lane0.inBytes);
    }
    if (!uniform) {
      for (int l = 0; l < kWaveSize; ++l) {
        if (!((exec >> l) & 1)) continue;
        uint64_t index = idxen ? w.v(static_cast<uint32_t>(vaddr))[l] : 0;
        if (vs.addTid) index += static_cast<uint64_t>(l);
        const uint64_t offset =
            (offen ? static_cast<uint64_t>(w.v(static_cast<uint32_t>(vaddr + (idxen ? 1 : 0)))[l])
                   : 0) +
            instOffset;
        const BufferLane r = bufferLane(b, index, offset);
        if (r.problem == BufferLane::kMisaligned)
          return misalignedFault(x, "buffer", l, r.address, b.align, mode);
        if (r.problem == BufferLane::kCrossesElement)
          return fault(x,
                       "swizzled buffer access crosses an element boundary (swizzled addressing "
                       "needs dword-aligned accesses)");
        mem.address(l, 0) = r.address;
        if (r.inBytes == 0) continue;
        sent |= 1ull << l;
        if (r.inBytes < bytes) mem.laneBytes[l] = static_cast<uint8_t>(r.inBytes);
      }
    }
  }
  mem.laneMask = sent;

  // Store and atomic data; BUFFER_STORE_LDS_DWORD's is in the LDS, each lane's dword at
  // ldsDwordBase + 4 * l: the memory side reads it through the LDS block (ldsReadOfStore), where
  // a dword past the workgroup's allocation reads 0.
  if (m.fromLds) {
    mem.ldsData = ldsDwordBase(w, instOffset);
  } else if (m.op != MemOp::Load && !m.format) {
    gatherStoreData(x, sent, vdata);
  }
  if (m.op != MemOp::Load && m.format) {
    for (int l = 0; l < kWaveSize; ++l) {
      if (!((sent >> l) & 1)) continue;
      uint32_t values[4];
      formatStoreValues(w, vdata, m, l, params, values);
      uint8_t* e = mem.element(l, 0);
      std::memset(e, 0, mem.laneStride());
      if (m.d16) {
        const uint16_t h[4] = {static_cast<uint16_t>(values[0]), static_cast<uint16_t>(values[1]),
                               static_cast<uint16_t>(values[2]), static_cast<uint16_t>(values[3])};
        packElementD16(dfmt, nfmt, h, e);
      } else {
        packElement(dfmt, nfmt, values, e);
      }
    }
  }

  // Write-back: every EXEC lane gets a result (out-of-range and null lanes read 0).
  if (returns) {
    MemRequest::Writeback& wb = mem.writeback;
    wb.lanes = exec;
    wb.format = params;
    if (toLds) {
      setLdsWriteback(mem, ldsDwordBase(w, instOffset), m.ext, exec);
    } else {
      setVgprWriteback(mem, vdata, dstDwords, m.ext, exec);
      if (m.format) wb.flags = kWbFormat;
      if (tfe) wb.flags |= kWbTfe;
    }
  }
  x.r.kind = StepKind::Memory;
  w.pc += in.sizeBytes;
}

}  // namespace vgpu::isa::vmem
