// Vector memory: the MUBUF/MTBUF (Vega ISA guide ch. 8) and FLAT/GLOBAL/SCRATCH (ch. 10) op
// tables, what their executors share when building a request (store data, the common tail, format
// conversion, alignment rules), and the completions that return data. The executors are by
// encoding: isa/Mubuf.cpp, isa/Flat.cpp; functional mode's at-issue movers are in
// isa/VectorMemoryAtIssue.cpp.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

#include "isa/Atomics.h"
#include "isa/BufferFormat.h"
#include "isa/Memory.h"
#include "isa/VectorMemoryInternal.h"

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

namespace vmem {
namespace {

constexpr Ty NoT = Ty::None, B32 = Ty::B32, B64 = Ty::B64, B96 = Ty::B96, B128 = Ty::B128;

// Register type holding `bytes` of data (d16 x3 formats: 6 bytes in two VGPRs).
Ty widthTy(int bytes) {
  if (bytes <= 4) return B32;
  if (bytes <= 8) return B64;
  return bytes <= 12 ? B96 : B128;
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

}  // namespace

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

void faultWith(ExecArgs& x, std::string why) {
  x.r.kind = StepKind::Fault;
  x.r.fault = std::move(why);
}

namespace {

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

}  // namespace

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

namespace {

const char* alignmentModeName(int mode) {
  static const char* const kNames[4] = {"DWORD", "DWORD_STRICT", "STRICT", "UNALIGNED"};
  return kNames[mode & 3];
}

}  // namespace

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

}  // namespace vmem

using namespace vmem;

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
