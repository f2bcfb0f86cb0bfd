// Vector memory: MUBUF/MTBUF buffer instructions (Vega ISA guide ch. 8, seed 001) and
// FLAT/GLOBAL/SCRATCH (ch. 10). execute() computes per-lane addresses and store data; the
// texture path (or the LDS for flat accesses in the shared aperture) moves the bytes.
#include <deque>
#include <string>
#include <vector>

#include "isa/Memory.h"

namespace vgpu::isa {

BufferResource decodeResource(const uint32_t* v) {
  BufferResource r;
  r.base = v[0] | (static_cast<uint64_t>(v[1] & 0xffff) << 32);
  r.stride = (v[1] >> 16) & 0x3fff;
  r.swizzle = (v[1] >> 31) & 1;
  r.numRecords = v[2];
  r.numFormat = (v[3] >> 12) & 7;
  r.dataFormat = (v[3] >> 15) & 0xf;
  r.elementSize = 2u << ((v[3] >> 19) & 3);
  r.indexStride = 8u << ((v[3] >> 21) & 3);
  r.addTid = (v[3] >> 23) & 1;
  // With ADD_TID_ENABLE the DATA_FORMAT field carries stride bits [17:14] (LLVM
  // SIInstrInfo::getScratchRsrcWords23, gfx8-gfx9).
  if (r.addTid) r.stride |= r.dataFormat << 14;
  return r;
}

namespace {

constexpr Ty NoT = Ty::None, B32 = Ty::B32, B64 = Ty::B64, B96 = Ty::B96, B128 = Ty::B128;

// Register type holding `bytes` of data (d16 x3 formats: 6 bytes in two VGPRs).
Ty widthTy(int bytes) {
  if (bytes <= 4) return B32;
  if (bytes <= 8) return B64;
  return bytes <= 12 ? B96 : B128;
}

void execBuffer(ExecArgs& x);
void execFlat(ExecArgs& x);

// Bytes per element of the 32-bit-component formats the model converts (raw dwords):
// BUF_DATA_FORMAT_32 (4), 32_32 (11), 32_32_32 (13), 32_32_32_32 (14).
int rawFormatBytes(uint32_t dfmt) {
  switch (dfmt) {
    case 4:
      return 4;
    case 11:
      return 8;
    case 13:
      return 12;
    case 14:
      return 16;
    default:
      return 0;
  }
}

struct MemSpec {
  int op;
  const char* suffix;  // name after the prefix ("load_dword")
  MemOp kind;
  int bytes;
  LoadExt ext;
  AtomicOp atomic;
  bool hi16 = false;  // store the high half (d16_hi stores)
};

using A = AtomicOp;
using E = LoadExt;
const MemSpec kLoadStore[] = {
    {0x10, "load_ubyte", MemOp::Load, 1, E::U8, A::None},
    {0x11, "load_sbyte", MemOp::Load, 1, E::I8, A::None},
    {0x12, "load_ushort", MemOp::Load, 2, E::U16, A::None},
    {0x13, "load_sshort", MemOp::Load, 2, E::I16, A::None},
    {0x14, "load_dword", MemOp::Load, 4, E::None, A::None},
    {0x15, "load_dwordx2", MemOp::Load, 8, E::None, A::None},
    {0x16, "load_dwordx3", MemOp::Load, 12, E::None, A::None},
    {0x17, "load_dwordx4", MemOp::Load, 16, E::None, A::None},
    {0x18, "store_byte", MemOp::Store, 1, E::None, A::None},
    {0x19, "store_byte_d16_hi", MemOp::Store, 1, E::None, A::None, true},
    {0x1a, "store_short", MemOp::Store, 2, E::None, A::None},
    {0x1b, "store_short_d16_hi", MemOp::Store, 2, E::None, A::None, true},
    {0x1c, "store_dword", MemOp::Store, 4, E::None, A::None},
    {0x1d, "store_dwordx2", MemOp::Store, 8, E::None, A::None},
    {0x1e, "store_dwordx3", MemOp::Store, 12, E::None, A::None},
    {0x1f, "store_dwordx4", MemOp::Store, 16, E::None, A::None},
    {0x20, "load_ubyte_d16", MemOp::Load, 1, E::D16LoU8, A::None},
    {0x21, "load_ubyte_d16_hi", MemOp::Load, 1, E::D16HiU8, A::None},
    {0x22, "load_sbyte_d16", MemOp::Load, 1, E::D16LoI8, A::None},
    {0x23, "load_sbyte_d16_hi", MemOp::Load, 1, E::D16HiI8, A::None},
    {0x24, "load_short_d16", MemOp::Load, 2, E::D16Lo16, A::None},
    {0x25, "load_short_d16_hi", MemOp::Load, 2, E::D16Hi16, A::None},
};
// Atomics: 32-bit at 0x40.., 64-bit (_x2) at 0x60.. (12.17 / 12.18).
const struct {
  int op;
  const char* name;
  AtomicOp a;
} kAtomics[] = {
    {0x0, "swap", A::Swap}, {0x1, "cmpswap", A::CmpSwap}, {0x2, "add", A::Add},
    {0x3, "sub", A::Sub},   {0x4, "smin", A::SMin},       {0x5, "umin", A::UMin},
    {0x6, "smax", A::SMax}, {0x7, "umax", A::UMax},       {0x8, "and", A::And},
    {0x9, "or", A::Or},     {0xa, "xor", A::Xor},         {0xb, "inc", A::Inc},
    {0xc, "dec", A::Dec},
};

struct Tables {
  std::deque<std::string> names;
  std::vector<OpInfo> ops;

  const char* keep(std::string s) {
    names.push_back(std::move(s));
    return names.back().c_str();
  }
  // Operand layout (dst, src0 = address, src1 = data) is what the disassembler prints.
  void add(Enc enc, int seg, int opcode, const std::string& name, MemDesc m, ExecFn fn) {
    OpInfo o;
    o.name = keep(name);
    o.enc = enc;
    o.opcode = static_cast<int16_t>(opcode);
    const int dataBytes = m.op == MemOp::Atomic && (m.atomic == A::CmpSwap) ? m.bytes * 2 : m.bytes;
    const int retBytes = m.format ? (m.d16 ? ((m.components + 1) / 2) * 4 : m.components * 4)
                                  : (m.ext == E::None ? m.bytes : 4);
    o.dst = (m.op == MemOp::Load || (m.op == MemOp::Atomic)) ? widthTy(retBytes) : NoT;
    o.src1 = (m.op == MemOp::Store || m.op == MemOp::Atomic) ? widthTy(dataBytes) : NoT;
    o.mem = m;
    o.mem.segment = static_cast<uint8_t>(seg);
    o.exec = fn;
    o.issue = IssueType::Vmem;
    ops.push_back(o);
  }
  Tables() {
    // MUBUF formats (12.17): x, xy, xyz, xyzw for load/store, then d16 forms.
    static const char* const kComp[] = {"x", "xy", "xyz", "xyzw"};
    for (int c = 0; c < 4; ++c) {
      for (int kind = 0; kind < 4; ++kind) {  // load, store, load_d16, store_d16
        MemDesc m;
        m.op = (kind & 1) ? MemOp::Store : MemOp::Load;
        m.format = true;
        m.components = static_cast<uint8_t>(c + 1);
        m.d16 = kind >= 2;
        m.bytes = static_cast<uint8_t>(m.d16 ? 2 * (c + 1) : 4 * (c + 1));
        m.returns = m.op == MemOp::Load;
        const std::string verb = (kind & 1) ? "store" : "load";
        const std::string d16 = m.d16 ? "d16_" : "";
        const int opcode = (kind >= 2 ? 8 : 0) + ((kind & 1) ? 4 : 0) + c;
        add(Enc::Mubuf, 0, opcode, "buffer_" + verb + "_format_" + d16 + kComp[c], m, execBuffer);
        add(Enc::Mtbuf, 0, opcode, "tbuffer_" + verb + "_format_" + d16 + kComp[c], m, execBuffer);
      }
    }
    {
      MemDesc m;
      m.format = true;
      m.components = 1;
      m.d16 = true;
      m.d16Hi = true;
      m.bytes = 2;
      m.op = MemOp::Load;
      m.returns = true;
      add(Enc::Mubuf, 0, 0x26, "buffer_load_format_d16_hi_x", m, execBuffer);
      m.op = MemOp::Store;
      m.returns = false;
      add(Enc::Mubuf, 0, 0x27, "buffer_store_format_d16_hi_x", m, execBuffer);
    }
    for (const MemSpec& s : kLoadStore) {
      MemDesc m;
      m.op = s.kind;
      m.bytes = static_cast<uint8_t>(s.bytes);
      m.ext = s.ext;
      m.d16Hi = s.hi16;
      m.returns = s.kind == MemOp::Load;
      add(Enc::Mubuf, 0, s.op, std::string("buffer_") + s.suffix, m, execBuffer);
      add(Enc::Flat, 0, s.op, std::string("flat_") + s.suffix, m, execFlat);
      add(Enc::Flat, 1, s.op, std::string("scratch_") + s.suffix, m, execFlat);
      add(Enc::Flat, 2, s.op, std::string("global_") + s.suffix, m, execFlat);
    }
    for (int wide = 0; wide < 2; ++wide) {
      for (const auto& at : kAtomics) {
        MemDesc m;
        m.op = MemOp::Atomic;
        m.atomic = at.a;
        m.bytes = wide ? 8 : 4;
        const int opcode = (wide ? 0x60 : 0x40) + at.op;
        const std::string name = std::string("atomic_") + at.name + (wide ? "_x2" : "");
        add(Enc::Mubuf, 0, opcode, "buffer_" + name, m, execBuffer);
        add(Enc::Flat, 0, opcode, "flat_" + name, m, execFlat);
        add(Enc::Flat, 2, opcode, "global_" + name, m, execFlat);
      }
    }
    // Cache control: the model's vector L1 is write-through and coherent, so these are no-ops.
    MemDesc none;
    none.op = MemOp::Load;
    // 0x71 is the SI/CI opcode of buffer_wbinvl1, which llvm-objdump-15 also accepts on gfx9.
    for (const auto& c :
         {std::make_pair(0x3e, "buffer_wbinvl1"), std::make_pair(0x3f, "buffer_wbinvl1_vol"),
          std::make_pair(0x71, "buffer_wbinvl1")}) {
      add(Enc::Mubuf, 0, c.first, c.second, none, [](ExecArgs& x) { x.w.pc += x.in.sizeBytes; });
      ops.back().dst = NoT;
      ops.back().flags = kNoOperands;
    }
  }
};

const Tables& tables() {
  static const Tables t;
  return t;
}

// Store / atomic source data for one lane: the value (and for cmpswap the compare value that
// follows it in the data VGPRs: DATA = {src, cmp}, 12.17 BUFFER_ATOMIC_CMPSWAP).
void gatherData(ExecArgs& x, int lane, int dataReg) {
  const MemDesc& m = x.op.mem;
  if (m.op == MemOp::Atomic) {
    gatherVgprBytes(x.w, dataReg, m.bytes, lane, false, x.mem.element(lane, 0));
    if (m.atomic == AtomicOp::CmpSwap)
      gatherVgprBytes(x.w, dataReg + m.bytes / 4, m.bytes, lane, false, x.mem.cmpElement(lane, 0));
  } else {
    gatherVgprBytes(x.w, dataReg, m.bytes, lane, m.d16Hi, x.mem.element(lane, 0));
  }
}

// Common tail: counter, data, write-back. `sent` lanes access memory; `written` lanes get
// a destination write (loads to out-of-range lanes write 0).
bool finishVector(ExecArgs& x, int dataReg, uint64_t sent, uint64_t written, int elementBytes) {
  const MemDesc& m = x.op.mem;
  MemRequest& mem = x.mem;
  mem.laneMask = sent;
  mem.elementBytes = static_cast<uint8_t>(elementBytes);
  mem.atomic = m.atomic;
  const bool glc = x.in.f[fld::kBits] & kGlc;
  mem.glc = glc;
  mem.slc = x.in.f[fld::kBits] & kSlc;
  mem.atomicReturnsData = m.op == MemOp::Atomic && glc;
  const int dataDwords = (x.op.src1 == Ty::None) ? 0 : dwordsOf(x.op.src1);
  if (dataDwords && !vgprInRange(x.w, dataReg, dataDwords)) {
    fault(x, "memory data VGPR out of range");
    return false;
  }
  if (m.op != MemOp::Load) {
    for (int l = 0; l < kWaveSize; ++l)
      if ((sent >> l) & 1) gatherData(x, l, dataReg);
  }
  const bool returns = m.op == MemOp::Load || mem.atomicReturnsData;
  if (returns) {
    const int vdst = x.in.f[fld::kDst];
    const int dwords = dwordsOf(x.op.dst);
    if (!vgprInRange(x.w, vdst, dwords)) {
      fault(x, "memory destination VGPR out of range");
      return false;
    }
    setVgprWriteback(mem, vdst, dwords, m.ext, written);
  }
  x.r.kind = StepKind::Memory;
  x.w.pc += x.in.sizeBytes;
  return true;
}

// D16 format ops on 32-bit-component formats (seed 001 "D16"): stores widen each 16-bit
// component (f16 -> f32 for FLOAT, zero / sign extension for the integer formats); loads are
// narrowed by completeMemory (f32 -> f16, or the low 16 bits), packed two per VGPR (d16_hi:
// the high half of one VGPR).
void d16Format(ExecArgs& x, uint32_t nfmt, int components) {
  const MemDesc& m = x.op.mem;
  MemRequest& mem = x.mem;
  if (m.op == MemOp::Store) {
    for (int l = 0; l < kWaveSize; ++l) {
      if (!((mem.laneMask >> l) & 1)) continue;
      uint8_t* e = mem.element(l, 0);
      uint32_t out[4] = {};
      for (int c = 0; c < components; ++c) {
        const uint32_t reg = x.w.v(static_cast<uint32_t>(x.in.f[fld::kData0] + c / 2))[l];
        const uint16_t h = static_cast<uint16_t>(m.d16Hi ? reg >> 16 : reg >> (16 * (c & 1)));
        out[c] = nfmt == 7
                     ? static_cast<uint32_t>(bitsF32(f16ToF32(h)))
                     : (nfmt == 5 || nfmt == 1 || nfmt == 3
                            ? static_cast<uint32_t>(static_cast<int32_t>(static_cast<int16_t>(h)))
                            : h);
      }
      std::memcpy(e, out, 4 * static_cast<size_t>(components));
    }
    return;
  }
  mem.writeback.flags = static_cast<uint8_t>(kWbFormat | (m.d16Hi ? 0x40 : 0));
  mem.writeback.aux = static_cast<uint16_t>(nfmt | (components << 8));
  mem.writeback.count = static_cast<uint8_t>(m.d16Hi ? 1 : (components + 1) / 2);
}

// MUBUF / MTBUF (8.1): address = base + soffset + buffer_offset, where buffer_offset comes
// from the index (idxen VGPR, + lane id with ADD_TID_ENABLE) and offset (offen VGPR + inst
// offset), linear or swizzled (seed 001 formula). Range checks per V# kind.
void execBuffer(ExecArgs& x) {
  const Instruction& in = x.in;
  const MemDesc& m = x.op.mem;
  WaveState& w = x.w;
  const unsigned bits = in.f[fld::kBits];
  if (bits & kLds) return fault(x, "buffer load to LDS not supported");
  if (bits & kTfe) return fault(x, "buffer TFE not supported");
  const int rsrc = in.f[fld::kData1];
  uint32_t words[4];
  for (int k = 0; k < 4; ++k) words[k] = readScalarDword(w, x.ctx, rsrc + k);
  const BufferResource vs = decodeResource(words);
  const uint64_t soffset =
      static_cast<uint32_t>(readScalar(in, w, x.ctx, in.f[fld::kOffset1], Ty::B32));
  const uint32_t instOffset = in.f[fld::kOffset0];
  const bool offen = bits & kOffen, idxen = bits & kIdxen;
  const int vaddr = in.f[fld::kAddr];
  if ((offen || idxen) && !vgprInRange(w, vaddr, (offen && idxen) ? 2 : 1))
    return fault(x, "buffer address VGPR out of range");

  int bytes = m.bytes;
  uint32_t nfmt = 0;
  if (m.format) {
    // The model converts only 32-bit-component formats (raw dwords) so far.
    const uint32_t dfmt = x.op.enc == Enc::Mtbuf ? (in.f[fld::kFmt] & 0xf) : vs.dataFormat;
    const int fmtBytes = rawFormatBytes(dfmt);
    if (fmtBytes == 0) return fault(x, "buffer format conversion not supported for this format");
    bytes = std::min<int>(fmtBytes, 4 * m.components);
    nfmt = x.op.enc == Enc::Mtbuf ? ((in.f[fld::kFmt] >> 4) & 7) : vs.numFormat;
  }
  if (vs.swizzle && bytes > static_cast<int>(vs.elementSize))
    return fault(x, "swizzled buffer access wider than the element size not supported");

  beginRequest(x.mem, MemSpace::Vector, m.op, WaitCounter::Vm);
  uint64_t inRange = 0;
  for (int l = 0; l < kWaveSize; ++l) {
    if (!((w.exec >> l) & 1)) continue;
    uint64_t index = idxen ? w.v(static_cast<uint32_t>(vaddr))[l] : 0;
    if (vs.addTid) index += static_cast<uint64_t>(l);
    const uint64_t offset =
        (offen ? static_cast<uint64_t>(w.v(static_cast<uint32_t>(vaddr + (idxen ? 1 : 0)))[l])
               : 0) +
        instOffset;
    uint64_t bufferOffset;
    bool out;
    if (vs.swizzle) {
      const uint64_t es = vs.elementSize, is = vs.indexStride;
      bufferOffset =
          ((index / is) * vs.stride + (offset / es) * es) * is + (index % is) * es + offset % es;
      // Swizzled (scratch) buffers: records are bytes of the swizzled layout.
      out = vs.addTid
                ? (bufferOffset + bytes > vs.numRecords)
                : (index >= vs.numRecords || offset + bytes > std::max<uint32_t>(vs.stride, 1));
    } else if (vs.stride == 0 && !idxen && !vs.addTid) {
      bufferOffset = offset;  // raw buffer: num_records in bytes
      out = offset + bytes > vs.numRecords;
    } else {
      bufferOffset = index * vs.stride + offset;  // structured: num_records in strides
      out = index >= vs.numRecords || (vs.stride != 0 && offset + bytes > vs.stride);
    }
    x.mem.addr[l][0] = vs.base + soffset + bufferOffset;
    if (!out) inRange |= 1ull << l;
  }
  if (!finishVector(x, in.f[fld::kData0], inRange, w.exec, bytes)) return;
  if (m.format && m.d16) d16Format(x, nfmt, bytes / 4);
}

// FLAT / GLOBAL / SCRATCH (10.1 - 10.3).
void execFlat(ExecArgs& x) {
  const Instruction& in = x.in;
  const MemDesc& m = x.op.mem;
  WaveState& w = x.w;
  if (in.f[fld::kBits] & kLds) return fault(x, "flat access to LDS (lds bit) not supported");
  const int seg = in.f[fld::kFmt];
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

  beginRequest(x.mem, MemSpace::Vector, m.op, WaitCounter::Vm);
  const uint64_t exec = w.exec;
  uint64_t ldsLanes = 0;
  for (int l = 0; l < kWaveSize; ++l) {
    if (!((exec >> l) & 1)) continue;
    uint64_t a;
    if (seg == 1) {
      // Scratch offsets are per-lane private addresses, swizzled below.
      const uint64_t p =
          (scratchSaddr ? saddrValue : w.v(static_cast<uint32_t>(vaddr))[l]) + offset;
      a = w.flatScratch + (static_cast<uint32_t>(p) / 4) * 256 + static_cast<uint64_t>(l) * 4 +
          (p % 4);
    } else if (useSaddr) {
      a = saddrValue + w.v(static_cast<uint32_t>(vaddr))[l] + offset;
    } else {
      a = (w.v(static_cast<uint32_t>(vaddr))[l] |
           (static_cast<uint64_t>(w.v(static_cast<uint32_t>(vaddr + 1))[l]) << 32)) +
          offset;
    }
    if (seg == 0) {
      // Generic address: the shared and private apertures (10.1.3).
      const uint64_t shared = x.ctx.sharedApertureBase, priv = x.ctx.privateApertureBase;
      if (shared && a - shared < (1ull << 32)) {
        a -= shared;
        ldsLanes |= 1ull << l;
      } else if (priv && a - priv < (1ull << 32)) {
        const uint64_t p = a - priv;
        a = w.flatScratch + (p / 4) * 256 + static_cast<uint64_t>(l) * 4 + (p % 4);
      }
    }
    x.mem.addr[l][0] = a;
  }
  if (ldsLanes) {
    if (ldsLanes != exec) return fault(x, "flat access mixing apertures not supported");
    x.mem.space = MemSpace::Lds;
    x.mem.counter = WaitCounter::Lgkm;
  }
  finishVector(x, in.f[fld::kData0], exec, exec, m.bytes);
}

}  // namespace

OpTable vmemTable() {
  const Tables& t = tables();
  return {t.ops.data(), static_cast<int>(t.ops.size())};
}

}  // namespace vgpu::isa
