// Vector memory: MUBUF/MTBUF buffer instructions (Vega ISA guide ch. 8) and
// FLAT/GLOBAL/SCRATCH (ch. 10). execute() computes per-lane addresses and store data; the
// texture path (or the LDS for flat accesses in the shared aperture) moves the bytes.
#include <algorithm>
#include <cstdio>
#include <deque>
#include <string>
#include <vector>

#include "isa/Atomics.h"
#include "isa/BufferFormat.h"
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
  r.dstSel = v[3] & 0xfff;
  r.type = v[3] >> 30;
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
    {
      // BUFFER_STORE_LDS_DWORD (12.17): stores a dword of the LDS, no VGPR data or address.
      MemDesc m;
      m.op = MemOp::Store;
      m.bytes = 4;
      m.fromLds = true;
      add(Enc::Mubuf, 0, 0x3d, "buffer_store_lds_dword", m, execBuffer);
      ops.back().src1 = NoT;
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

// Store / atomic source data of every lane in `sent`. Plain stores of whole dwords (nearly
// all of them) copy each data VGPR across the lanes in one loop instead of a call per lane;
// the bytes written are the same as gatherData's.
void gatherStoreData(ExecArgs& x, uint64_t sent, int dataReg) {
  const MemDesc& m = x.op.mem;
  if (m.op == MemOp::Atomic || m.d16Hi || m.bytes % 4 != 0) {
    for (uint64_t b = sent; b != 0; b &= b - 1) gatherData(x, __builtin_ctzll(b), dataReg);
    return;
  }
  uint8_t* data = x.mem.element(0, 0);
  const size_t stride = x.mem.laneStride();
  if (sent == ~0ull && m.bytes == 4) {  // the lanes' dwords are packed as in the VGPR
    std::memcpy(data, x.w.v(static_cast<uint32_t>(dataReg)), 4 * kWaveSize);
    return;
  }
  for (int k = 0; k < m.bytes / 4; ++k) {
    const uint32_t* v = x.w.v(static_cast<uint32_t>(dataReg + k));
    uint8_t* to = data + 4 * k;
    if (sent == ~0ull) {
      for (int l = 0; l < kWaveSize; ++l) std::memcpy(to + l * stride, &v[l], 4);
    } else {
      for (uint64_t b = sent; b != 0; b &= b - 1) {
        const int l = __builtin_ctzll(b);
        std::memcpy(to + l * stride, &v[l], 4);
      }
    }
  }
}

// Loads into the LDS (lds=1: MUBUF, GLOBAL, SCRATCH) and BUFFER_STORE_LDS_DWORD: lane l's LDS
// dword is at M0[15:0] + the instruction offset + 4 * l (Vega ISA guide 8.1, buffer load to
// LDS; LLVM's AMDGPU intrinsic documentation: the instruction offset applies to the memory
// and the LDS address alike).
uint32_t ldsDwordBase(const WaveState& w, int64_t instOffset) {
  return static_cast<uint32_t>((w.m0 & 0xffff) + instOffset);
}

// A load's returned data goes to the LDS from `ldsBase` (ldsWriteOfLoad), not to VGPRs; the
// base travels in reg (low half) and aux (high half).
void setLdsWriteback(MemRequest& mem, uint32_t ldsBase, LoadExt ext, uint64_t lanes) {
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
  if (m.op != MemOp::Load) gatherStoreData(x, sent, dataReg);
  const bool returns =
      (m.op == MemOp::Load && !(x.in.f[fld::kBits] & kLds)) || mem.atomicReturnsData;
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

// ---------------------------------------------------------------------------------------------
// MUBUF / MTBUF (Vega ISA guide ch. 8.1).

void faultWith(ExecArgs& x, std::string why) {
  x.r.kind = StepKind::Fault;
  x.r.fault = std::move(why);
}

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

// Which number-format-converted value lands in result component `c` (Vega ISA guide 8.1.4 "Buffer
// Data"): MUBUF *_format ops take DST_SEL from the resource; MTBUF and the other ops use the
// identity select, X000 / XY00 / XYZ0 / XYZW by the number of components of the data format.
uint32_t selectComponent(uint32_t params, int c, const uint32_t fetched[4], uint32_t one,
                         int formatComponents) {
  if (!(params & wbfmt::kUseDstSel)) return c < formatComponents ? fetched[c] : 0u;
  const uint32_t sel = (params >> (wbfmt::kDstSelShift + 3 * c)) & 7;
  if (sel == kSel1) return one;
  if (sel >= kSelX) return fetched[sel - kSelX];
  return 0;  // SEL_0 (and the reserved selects 2, 3)
}

// The result components of lane `l` of a format load, 32-bit or D16 (then in the low halves).
void formatLoadValues(const MemRequest& mem, int l, uint32_t params, uint32_t out[4]) {
  const uint32_t dfmt = (params >> wbfmt::kDfmtShift) & 15;
  const uint32_t nfmt = (params >> wbfmt::kNfmtShift) & 7;
  const bool d16 = params & wbfmt::kD16;
  const uint32_t one = d16 ? oneForD16(nfmt) : oneFor(nfmt);
  const FormatLayout* layout = formatLayout(dfmt);
  out[0] = out[1] = out[2] = out[3] = 0;
  if ((params & wbfmt::kNull) || !layout) return;  // null resource: zeros, whatever DST_SEL
  uint32_t fetched[4];
  if (!((mem.laneMask >> l) & 1)) {
    // Out of range: zeros, except components whose DST_SEL is SEL_1 (Vega ISA guide 8.1.4, note 1).
    fetched[0] = fetched[1] = fetched[2] = fetched[3] = 0;
    for (int c = 0; c < 4; ++c)
      out[c] =
          (params & wbfmt::kUseDstSel) && ((params >> (wbfmt::kDstSelShift + 3 * c)) & 7) == kSel1
              ? one
              : 0u;
    return;
  }
  if (d16) {
    uint16_t h[4];
    unpackElementD16(dfmt, nfmt, mem.element(l, 0), h);
    for (int c = 0; c < 4; ++c) fetched[c] = h[c];
  } else {
    unpackElement(dfmt, nfmt, mem.element(l, 0), fetched);
  }
  for (int c = 0; c < 4; ++c) out[c] = selectComponent(params, c, fetched, one, layout->components);
}

// The shader values of lane `l` of a format store, before packing (D16: 16-bit values).
void formatStoreValues(const WaveState& w, int dataReg, const MemDesc& m, int l, uint32_t params,
                       uint32_t out[4]) {
  uint32_t shader[4] = {0, 0, 0, 0};  // components the instruction does not supply are 0
  for (int c = 0; c < m.components; ++c) {
    if (!m.d16) {
      shader[c] = w.v(static_cast<uint32_t>(dataReg + c))[l];
    } else {
      const uint32_t reg = w.v(static_cast<uint32_t>(dataReg + c / 2))[l];
      shader[c] = (m.d16Hi ? reg >> 16 : reg >> (16 * (c & 1))) & 0xffff;
    }
  }
  const uint32_t nfmt = (params >> wbfmt::kNfmtShift) & 7;
  const uint32_t one = m.d16 ? oneForD16(nfmt) : oneFor(nfmt);
  const FormatLayout* layout = formatLayout((params >> wbfmt::kDfmtShift) & 15);
  // No layout: a null resource (DATA_FORMAT invalid), whose stores are dropped anyway.
  for (int c = 0; c < 4; ++c)
    out[c] = layout ? selectComponent(params, c, shader, one, layout->components) : 0;
}

bool ldsLoadAllowed(const MemDesc& m) {
  // Vega ISA guide, "buffer load to LDS": ubyte, sbyte, ushort, sshort, dword and format_x (and
  // the same loads of GLOBAL and SCRATCH, not FLAT: what llvm-objdump-15 decodes for gfx906).
  if (m.op != MemOp::Load || m.d16) return false;
  if (m.format) return m.components == 1;
  return m.ext == LoadExt::None ? m.bytes == 4
                                : (m.ext == LoadExt::U8 || m.ext == LoadExt::I8 ||
                                   m.ext == LoadExt::U16 || m.ext == LoadExt::I16);
}

const char* alignmentModeName(int mode) {
  static const char* const kNames[4] = {"DWORD", "DWORD_STRICT", "STRICT", "UNALIGNED"};
  return kNames[mode & 3];
}

// Alignment (Vega ISA guide 8.1), for buffer and flat/global/scratch accesses alike (both go
// through the texture addresser): atomics to their data size and format ops to their component
// size, always (MEMVIOL); other ops by SH_MEM_CONFIG.alignment_mode.
struct AlignmentRule {
  int required = 1;        // bytes; 1: anything goes
  bool autoAlign = false;  // DWORD mode: the hardware drops the low address bits instead
  const char* rule = "";
};
AlignmentRule alignmentRule(const MemDesc& m, int bytes, int mode) {
  AlignmentRule a;
  if (m.op == MemOp::Atomic) {
    a.required = m.bytes;
    a.rule = "atomics must be aligned to their data size";
  } else if (m.format) {
    a.required = std::min(bytes, 4);
    a.rule = "format operations need 1-, 2- or 4-byte alignment by format size";
  } else if (mode == 0) {
    a.autoAlign = true;
    a.required = std::min(bytes, 4);
  } else if (mode == 1) {
    a.required = std::min(bytes, 4);
    a.rule = "DWORD_STRICT needs alignment to the smaller of the access size and a dword";
  } else if (mode == 2) {
    a.required = (bytes & (bytes - 1)) == 0 ? bytes : 4;  // a 12-byte access: dword aligned
    a.rule = "STRICT needs alignment to the access size";
  }
  return a;
}

void misalignedFault(ExecArgs& x, const char* kind, int lane, uint64_t address,
                     const AlignmentRule& a, int mode) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "lane %d address 0x%llx is not %d-byte aligned", lane,
                static_cast<unsigned long long>(address), a.required);
  faultWith(x, std::string("MEMVIOL: misaligned ") + kind + " access: " + buf + " (" + a.rule +
                   "; SH_MEM_CONFIG.alignment_mode " + alignmentModeName(mode) + ")");
}

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
  const uint64_t misaligned = address % static_cast<uint64_t>(b.align.required);
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
// ExecContext::directMemory maps, without a MemRequest.

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

// The smallest and largest of lanes `lanes` (not none) of VGPR `v`.
void lanesRange(const uint32_t* v, uint64_t lanes, uint32_t& low, uint32_t& high) {
  low = ~0u;
  high = 0;
  if (lanes == ~0ull) {
    for (int l = 0; l < kWaveSize; ++l) {
      low = v[l] < low ? v[l] : low;
      high = v[l] > high ? v[l] : high;
    }
    return;
  }
  for (uint64_t b = lanes; b != 0; b &= b - 1) {
    const uint32_t x = v[__builtin_ctzll(b)];
    low = x < low ? x : low;
    high = x > high ? x : high;
  }
}

// An atomic's read-modify-writes at issue, one per lane in ascending lane order as the memory
// side applies them: source data from the VGPRs from `reg` (compare-and-swap: the compare
// value in the VGPRs after it), the value memory held before to the VGPRs from `returnReg`
// (atomics with glc; -1: none).
template <class Element>
void atomicLanes(ExecArgs& x, const DirectLanes& d, int reg, int returnReg, Element element) {
  const MemDesc& m = x.op.mem;
  WaveState& w = x.w;
  const bool wide = m.bytes == 8;
  const int dwords = wide ? 2 : 1;
  const int cmpReg = reg + (m.atomic == AtomicOp::CmpSwap ? dwords : 0);
  auto operand = [&](int r, int l) {
    const uint64_t lo = w.v(static_cast<uint32_t>(r))[l];
    return wide ? lo | (uint64_t{w.v(static_cast<uint32_t>(r + 1))[l]} << 32) : lo;
  };
  for (uint64_t b = d.lanes; b != 0; b &= b - 1) {
    const int l = __builtin_ctzll(b);
    uint8_t* p = element(l);
    const uint64_t src = operand(reg, l),
                   cmp = m.atomic == AtomicOp::CmpSwap ? operand(cmpReg, l) : 0;
    uint64_t old = 0;
    if (wide) {
      std::memcpy(&old, p, 8);
      const uint64_t updated = atomicResult<uint64_t, int64_t, double>(m.atomic, old, src, cmp);
      std::memcpy(p, &updated, 8);
    } else {
      uint32_t old32;
      std::memcpy(&old32, p, 4);
      const uint32_t updated = atomicResult<uint32_t, int32_t, float>(
          m.atomic, old32, static_cast<uint32_t>(src), static_cast<uint32_t>(cmp));
      std::memcpy(p, &updated, 4);
      old = old32;
    }
    if (returnReg < 0) continue;
    w.v(static_cast<uint32_t>(returnReg))[l] = static_cast<uint32_t>(old);
    if (wide) w.v(static_cast<uint32_t>(returnReg + 1))[l] = static_cast<uint32_t>(old >> 32);
  }
}

// `run` consecutive bytes or shorts at `p` (LoadExt U8, I8, U16 or I16), each extended into
// the dword at `r` of its lane.
template <class Run>
void extendRun(uint32_t* r, const uint8_t* p, LoadExt ext, Run run) {
  if (ext == LoadExt::U8) {
    for (int i = 0; i < run; ++i) r[i] = p[i];
  } else if (ext == LoadExt::I8) {
    for (int i = 0; i < run; ++i)
      r[i] = static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(p[i])));
  } else {
    for (int i = 0; i < run; ++i) {
      uint16_t h;
      std::memcpy(&h, p + 2 * i, 2);
      r[i] = ext == LoadExt::U16
                 ? h
                 : static_cast<uint32_t>(static_cast<int32_t>(static_cast<int16_t>(h)));
    }
  }
}

// Moves a plain load's or store's data between the VGPRs from `reg` and the lanes' elements
// (`element(l)`: lane l's host pointer), lanes in ascending order: of two stores to the same
// bytes the higher lane's wins, as the texture path orders them. `contiguous`: the elements
// follow each other (no overlap), so that whole-dword data moves VGPR by VGPR.
template <class Element>
void moveLanes(ExecArgs& x, const DirectLanes& d, int reg, int returnReg, int bytes,
               bool contiguous, Element element) {
  const MemDesc& m = x.op.mem;
  if (m.op == MemOp::Atomic) return atomicLanes(x, d, reg, returnReg, element);
  WaveState& w = x.w;
  const uint64_t lanes = d.lanes;
  const int first = lanes ? __builtin_ctzll(lanes) : 0;
  // Every lane from `first` to the last one: a plain loop, else one over the set bits.
  const uint64_t fromFirst = lanes >> first;
  const bool oneRun = lanes && ((fromFirst + 1) & fromFirst) == 0;
  const int run = oneRun ? 64 - __builtin_clzll(fromFirst) : 0;
  auto forLanes = [&](auto&& f) {
    if (oneRun) {
      for (int l = first; l < first + run; ++l) f(l);
    } else {
      for (uint64_t b = lanes; b != 0; b &= b - 1) f(__builtin_ctzll(b));
    }
  };
  const bool wholeDwords = !d.partial && m.ext == LoadExt::None && !m.d16Hi && bytes % 4 == 0;
  const int dwords = bytes / 4;
  if (m.op == MemOp::Load) {
    const int count = loadDwords(bytes, m.ext);
    if (contiguous && wholeDwords && dwords == 1 && oneRun) {
      std::memcpy(w.v(static_cast<uint32_t>(reg)) + first, element(first),
                  4 * static_cast<size_t>(run));
    } else if (wholeDwords) {
      for (int k = 0; k < dwords; ++k) {
        uint32_t* r = w.v(static_cast<uint32_t>(reg + k));
        forLanes([&](int l) { std::memcpy(&r[l], element(l) + 4 * k, 4); });
      }
    } else if (contiguous && oneRun && !d.partial &&
               (m.ext == LoadExt::U8 || m.ext == LoadExt::I8 || m.ext == LoadExt::U16 ||
                m.ext == LoadExt::I16)) {
      // Consecutive bytes or shorts, extended: branch-free loops over the run (of a constant
      // length for a whole wave, which vectorises).
      uint32_t* r = w.v(static_cast<uint32_t>(reg)) + first;
      const uint8_t* p = element(first);
      if (run == kWaveSize)
        extendRun(r, p, m.ext, std::integral_constant<int, kWaveSize>{});
      else
        extendRun(r, p, m.ext, run);
    } else if (!d.partial && m.ext != LoadExt::None) {
      // Bytes and shorts, extended into one VGPR.
      uint32_t* r = w.v(static_cast<uint32_t>(reg));
      forLanes([&](int l) {
        uint8_t data[4] = {};
        if (bytes == 1)
          data[0] = *element(l);
        else
          std::memcpy(data, element(l), 2);
        r[l] = extendLoad(data, m.ext, r[l]);
      });
    } else {
      forLanes([&](int l) {
        uint8_t data[MemRequest::kMaxElementBytes] = {};  // bytes out of range read 0
        std::memcpy(data, element(l), static_cast<size_t>(d.partial ? d.inBytes[l] : bytes));
        scatterLaneLoad(w, reg, count, m.ext, l, data);
      });
    }
    static const uint8_t kZeros[MemRequest::kMaxElementBytes] = {};
    for (uint64_t b = d.written & ~lanes; b != 0; b &= b - 1)
      scatterLaneLoad(w, reg, count, m.ext, __builtin_ctzll(b), kZeros);
  } else if (contiguous && wholeDwords && dwords == 1 && oneRun) {
    std::memcpy(element(first), w.v(static_cast<uint32_t>(reg)) + first,
                4 * static_cast<size_t>(run));
  } else if (wholeDwords && (contiguous || dwords == 1)) {
    // Lanes do not overlap, or move one dword each in lane order: VGPR by VGPR.
    for (int k = 0; k < dwords; ++k) {
      const uint32_t* r = w.v(static_cast<uint32_t>(reg + k));
      forLanes([&](int l) { std::memcpy(element(l) + 4 * k, &r[l], 4); });
    }
  } else {
    // Lanes may overlap: each lane's whole element in turn, so the highest lane's bytes win.
    forLanes([&](int l) {
      uint8_t data[MemRequest::kMaxElementBytes];
      gatherVgprBytes(w, reg, bytes, l, m.d16Hi, data);
      std::memcpy(element(l), data, static_cast<size_t>(d.partial ? d.inBytes[l] : bytes));
    });
  }
}

// A whole wave's dwords moved between the VGPR at `reg` and the host memory of one mapped block
// (loads into the VGPR, stores out of it), and the instruction done at issue: the block copy
// that the commonest accesses come down to.
void waveDwordsAtIssue(ExecArgs& x, int reg, uint8_t* host, bool load) {
  uint32_t* r = x.w.v(static_cast<uint32_t>(reg));
  if (load)
    copyWaveDwords(r, host);
  else
    copyWaveDwords(host, r);
  x.r.kind = StepKind::MemoryDone;
  x.w.pc += x.in.sizeBytes;
}

// Moves the data of a plain load or store between the VGPRs from `reg` and the lanes `d`
// describes, `bytes` per lane. False, with nothing changed, when the lanes' bytes are not all
// in one mapped region.
bool moveDirect(ExecArgs& x, const DirectLanes& d, int reg, int bytes, int returnReg) {
  const uint64_t lanes = d.lanes;
  const MemDesc& m = x.op.mem;
  if (lanes == ~0ull && d.form == DirectLanes::Form::Affine && d.stride == 4 && bytes == 4 &&
      !d.partial && m.ext == LoadExt::None && !m.d16Hi && m.op != MemOp::Atomic) {
    // The most common access of all: a whole wave's consecutive dwords, one block copy.
    uint8_t* host = x.ctx.directMemory->map(MemSpace::Vector, d.base, 4 * kWaveSize);
    if (host == nullptr) return false;
    uint32_t* r = x.w.v(static_cast<uint32_t>(reg));
    if (m.op == MemOp::Load)
      copyWaveDwords(r, host);
    else
      copyWaveDwords(host, r);
    return true;
  }
  if (lanes != 0) {
    using Form = DirectLanes::Form;
    const int first = __builtin_ctzll(lanes), last = 63 - __builtin_clzll(lanes);
    const uint64_t size = static_cast<uint64_t>(bytes);
    bool contiguous = false;
    uint64_t low, high;
    uint32_t lowOffset = 0;
    if (d.form == Form::Affine) {
      contiguous = d.stride == size;
      low = d.base + first * d.stride;
      high = d.base + last * d.stride;
    } else if (d.form == Form::Offsets) {
      uint32_t highOffset;
      lanesRange(d.offsets, lanes, lowOffset, highOffset);
      low = d.base + lowOffset;
      high = d.base + highOffset;
    } else {
      // Consecutive elements (as addr[first] + (l - first) * bytes), else the extremes.
      const uint64_t origin = d.addr[first] - first * size;
      uint64_t differ = 0;
      low = ~0ull;
      high = 0;
      auto lane = [&](int l) {
        const uint64_t a = d.addr[l];
        differ |= a ^ (origin + l * size);
        low = a < low ? a : low;
        high = a > high ? a : high;
      };
      if (lanes == ~0ull) {
        for (int l = 0; l < kWaveSize; ++l) lane(l);  // a loop of fixed length
      } else {
        for (uint64_t b = lanes; b != 0; b &= b - 1) lane(__builtin_ctzll(b));
      }
      contiguous = differ == 0;
    }
    // Lanes wrapping around the address space, or too far apart for one region.
    if (high < low || high - low > (1ull << 32)) return false;
    uint8_t* host = x.ctx.directMemory->map(MemSpace::Vector, low, high - low + size);
    if (host == nullptr) return false;
    if (contiguous) {
      uint8_t* const at = host + (d.form == Form::Affine ? 0 : d.addr[first] - low);
      moveLanes(x, d, reg, returnReg, bytes, true,
                [=](int l) { return at + static_cast<size_t>(l - first) * size; });
    } else if (d.form == Form::Affine) {
      moveLanes(x, d, reg, returnReg, bytes, false,
                [=](int l) { return host + static_cast<size_t>(l - first) * d.stride; });
    } else if (d.form == Form::Offsets) {
      const uint32_t* offsets = d.offsets;
      moveLanes(x, d, reg, returnReg, bytes, false,
                [=](int l) { return host + static_cast<size_t>(offsets[l] - lowOffset); });
    } else {
      moveLanes(x, d, reg, returnReg, bytes, false,
                [&](int l) { return host + (d.addr[l] - low); });
    }
  } else if (d.written != 0 && m.op == MemOp::Load) {
    // No lane in range (a buffer): the load's lanes still read 0.
    static const uint8_t kZeros[MemRequest::kMaxElementBytes] = {};
    for (uint64_t b = d.written; b != 0; b &= b - 1)
      scatterLaneLoad(x.w, reg, loadDwords(bytes, m.ext), m.ext, __builtin_ctzll(b), kZeros);
  }
  return true;
}

// A plain load or store at issue on the lanes `d` describes. False, with nothing changed, when
// the lanes' bytes are not all in one mapped region: the instruction then takes the MemRequest
// path, which reports faults.
bool accessDirect(ExecArgs& x, const DirectLanes& d, int reg, int bytes, int returnReg = -1) {
  if (!moveDirect(x, d, reg, bytes, returnReg)) return false;
  x.r.kind = StepKind::MemoryDone;
  x.w.pc += x.in.sizeBytes;
  return true;
}

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
  // Alignment is checked on the address before the scratch swizzle (the private offset),
  // which is what the program aligns; the aperture bases are 4 GiB aligned.
  auto aligned = [&](int lane, uint64_t& address) {
    const uint64_t misaligned = address % static_cast<uint64_t>(align.required);
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
  for (int l = 0; l < kWaveSize; ++l) {
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

}  // namespace

void completeFormatLoad(WaveState& wave, const MemRequest& mem) {
  const MemRequest::Writeback& wb = mem.writeback;
  const uint32_t params = wb.format;
  const int comps = static_cast<int>((params >> wbfmt::kCompShift) & 7);
  const bool d16 = params & wbfmt::kD16, hi = params & wbfmt::kD16Hi;
  if (!vgprInRange(wave, wb.reg, wb.count)) return;  // checked at issue; defensive
  for (int l = 0; l < kWaveSize; ++l) {
    if (!((wb.lanes >> l) & 1)) continue;
    uint32_t values[4];
    formatLoadValues(mem, l, params, values);
    for (int c = 0; c < comps; ++c) {
      if (!d16) {
        wave.v(static_cast<uint32_t>(wb.reg + c))[l] = values[c];
        continue;
      }
      // D16: two results per VGPR, X in the low half (Vega ISA guide 8.1); d16_hi: the high half.
      uint32_t& r = wave.v(static_cast<uint32_t>(wb.reg + c / 2))[l];
      const int shift = hi ? 16 : 16 * (c & 1);
      r = (r & ~(0xffffu << shift)) | ((values[c] & 0xffff) << shift);
    }
  }
}

void writeTfeStatus(WaveState& wave, const MemRequest::Writeback& wb) {
  // TFE (texture fail enable): the VGPR after the data receives the fetch status, nonzero when
  // the access touched a non-resident page. Every page of the model's memory is resident (an
  // access outside every allocation is a memory violation that stops the kernel), so the
  // status of each returning lane is 0.
  const int status = wb.reg + wb.count;
  if (!vgprInRange(wave, status, 1)) return;  // checked at issue; defensive
  uint32_t* r = wave.v(static_cast<uint32_t>(status));
  for (int l = 0; l < kWaveSize; ++l)
    if ((wb.lanes >> l) & 1) r[l] = 0;
}

bool ldsWriteOfLoad(const MemRequest& mem, MemRequest& write) {
  const MemRequest::Writeback& wb = mem.writeback;
  if (wb.kind != kWbLds) return false;
  const uint64_t base = wb.reg | (static_cast<uint64_t>(wb.aux) << 16);
  const LoadExt ext = static_cast<LoadExt>(wb.flags & 0xf);
  beginRequest(write, MemSpace::Lds, MemOp::Store, WaitCounter::None);
  write.laneMask = wb.lanes;
  write.elementBytes = 4;
  for (uint64_t k = wb.lanes; k != 0; k &= k - 1) {
    const int l = __builtin_ctzll(k);
    uint32_t value;
    if (wb.format & wbfmt::kIsFormat) {
      uint32_t values[4];
      formatLoadValues(mem, l, wb.format, values);
      value = values[0];
    } else {
      const uint8_t* p = mem.element(l, 0);  // zeros for out-of-range lanes
      const uint32_t u16 = p[0] | (static_cast<uint32_t>(p[1]) << 8);
      switch (ext) {
        case LoadExt::U8:
          value = p[0];
          break;
        case LoadExt::I8:
          value = static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(p[0])));
          break;
        case LoadExt::U16:
          value = u16;
          break;
        case LoadExt::I16:
          value = static_cast<uint32_t>(static_cast<int32_t>(static_cast<int16_t>(u16)));
          break;
        default:
          std::memcpy(&value, p, 4);
          break;
      }
    }
    // One dword per lane, lane l's at the base + 4 * l.
    write.address(l, 0) = base + 4 * static_cast<uint64_t>(l);
    std::memcpy(write.element(l, 0), &value, 4);
  }
  return true;
}

bool ldsReadOfStore(const MemRequest& store, MemRequest& read) {
  if (store.ldsData == MemRequest::kNoLdsData) return false;
  beginRequest(read, MemSpace::Lds, MemOp::Load, WaitCounter::None);
  read.laneMask = store.laneMask;
  read.elementBytes = 4;
  for (uint64_t k = store.laneMask; k != 0; k &= k - 1) {
    const int l = __builtin_ctzll(k);
    read.address(l, 0) = store.ldsData + 4 * static_cast<uint64_t>(l);
  }
  return true;
}

void storeDataFromLds(MemRequest& store, const MemRequest& read) {
  for (uint64_t k = store.laneMask; k != 0; k &= k - 1) {
    const int l = __builtin_ctzll(k);
    std::memcpy(store.element(l, 0), read.element(l, 0), 4);
  }
  store.ldsData = MemRequest::kNoLdsData;
}

bool hasLdsForm(const OpInfo& op) {
  if (op.flags & kNoOperands) return false;  // buffer_wbinvl1*
  if (op.mem.fromLds) return true;
  if (op.enc == Enc::Flat) return op.mem.segment != 0 && ldsLoadAllowed(op.mem);
  return op.enc == Enc::Mubuf && ldsLoadAllowed(op.mem);
}

OpTable vmemTable() {
  const Tables& t = tables();
  return {t.ops.data(), static_cast<int>(t.ops.size())};
}

}  // namespace vgpu::isa
