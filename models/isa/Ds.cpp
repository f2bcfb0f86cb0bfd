// Local data share instructions (Vega ISA guide ch. 9 "Data Share Operations";
// opcodes 12.13). Addresses are byte offsets in the workgroup's LDS allocation; the LDS block
// checks bounds and performs atomics (applyAtomic).
//
// Range rules. LDS: an element outside the workgroup's allocation reads 0 and its write is
// dropped (the LDS block does this; no fault). Seed 002 adds a clamp to MIN(M0[15:0], LDS_SIZE),
// text carried over from earlier GCN generations: gfx9 DS instructions no longer read M0 for
// LDS (LLVM GCNSubtarget::ldsRequiresM0Init() is false from GFX9 on, so clang-15 never sets M0
// before an LDS access and M0 may hold anything, e.g. an s_movrel index), so the model clamps
// to the allocation only. GDS: M0 does give the window, base M0[31:16] and size M0[15:0] (LLVM
// writes the kernel's GDS size to M0 before region accesses); elements outside the window or
// the GDS read 0 and drop their writes, like the LDS.
#include <algorithm>
#include <type_traits>

#include "isa/Atomics.h"
#include "isa/DsAtIssue.h"
#include "isa/Gws.h"
#include "isa/Memory.h"
#include "lds/LdsElementRules.h"

namespace vgpu::isa {
namespace {

constexpr Ty NoT = Ty::None, B32 = Ty::B32, B64 = Ty::B64, B96 = Ty::B96, B128 = Ty::B128;

Ty widthTy(int bytes) {
  switch (bytes) {
    case 8:
      return B64;
    case 12:
      return B96;
    case 16:
      return B128;
    default:
      return B32;
  }
}

// GDS (Vega ISA guide ch. 9: "Both LDS and GDS can perform indexed and atomic data share
// operations"): one 64 KiB data share for the whole device (ExecContext::gdsData). The model
// applies a GDS request at issue, lanes in ascending order like the LDS, in the order the waves
// issue (deterministic), and sends the request on with no lanes left, so it still counts on
// LGKM_CNT and its returned data reaches the VGPRs when the (empty) LDS response arrives. Model
// choice: no GDS latency beyond that of an LDS request without lanes.
// `base`, `size`: the window the request's addresses are offsets in.
void serveGds(ExecArgs& x, uint64_t base, uint64_t size) {
  MemRequest& mem = x.mem;
  // The GDS window follows the LDS's element rules (lds/LdsElementRules.h): range, lane order,
  // atomics.
  const uint64_t gds = x.ctx.gdsSize;
  const lds::LdsWindow window{x.ctx.gdsData + std::min(base, gds),
                              base > gds ? 0 : std::min(size, gds - base)};
  lds::executeRequest(mem, window);
  mem.laneMask = 0;
}
// The M0 window of indexed GDS accesses.
uint64_t gdsWindowBase(const WaveState& w) {
  return w.m0 >> 16;
}
uint64_t gdsWindowSize(const WaveState& w) {
  return w.m0 & 0xffff;
}
bool gds(const ExecArgs& x) {
  return x.in.f[fld::kBits] & kGds;
}
constexpr const char* kNoGds = "GDS access, but no global data share is attached to this wave";

void execDs(ExecArgs& x);
void execDsCrossLane(ExecArgs& x);
void execDsSrc2(ExecArgs& x);
void execDsAppend(ExecArgs& x);
void execDsAddtid(ExecArgs& x);
void execGws(ExecArgs& x);
void execOrderedCount(ExecArgs& x);

OpInfo dsOp(int op, const char* name, Ty vdst, Ty addr, Ty data0, Ty data1, MemDesc m,
            ExecFn fn = execDs) {
  OpInfo o;
  o.name = name;
  o.enc = Enc::Ds;
  o.opcode = static_cast<int16_t>(op);
  o.dst = vdst;
  o.src0 = addr;
  o.src1 = data0;
  o.src2 = data1;
  o.mem = m;
  o.exec = fn;
  o.issue = IssueType::Lds;
  return o;
}

MemDesc desc(MemOp op, int bytes, int elements = 1, bool st64 = false, LoadExt ext = LoadExt::None,
             AtomicOp atomic = AtomicOp::None, bool returns = false) {
  MemDesc m;
  m.op = op;
  m.bytes = static_cast<uint8_t>(bytes);
  m.elements = static_cast<uint8_t>(elements);
  m.st64 = st64;
  m.ext = ext;
  m.atomic = atomic;
  m.returns = returns;
  return m;
}

// Loads: vdst <- LDS.
OpInfo load(int op, const char* n, int bytes, LoadExt ext = LoadExt::None, int elements = 1,
            bool st64 = false) {
  const Ty dst = (ext == LoadExt::None) ? widthTy(bytes * elements) : B32;
  return dsOp(op, n, dst, B32, NoT, NoT,
              desc(MemOp::Load, bytes, elements, st64, ext, AtomicOp::None, true));
}
// Stores: LDS <- data0 (and data1 for write2). `hi` stores the high 16 bits (d16_hi).
OpInfo store(int op, const char* n, int bytes, int elements = 1, bool st64 = false,
             bool hi = false) {
  MemDesc m = desc(MemOp::Store, bytes, elements, st64);
  m.d16Hi = hi;
  return dsOp(op, n, NoT, B32, widthTy(bytes), elements == 2 ? widthTy(bytes) : NoT, m);
}
// Atomics: `two` = a second data operand (cmpst, mskor, wrap).
OpInfo atomic(int op, const char* n, AtomicOp a, int bytes, bool rtn, bool two = false) {
  const Ty t = widthTy(bytes);
  return dsOp(op, n, rtn ? t : NoT, B32, t, two ? t : NoT,
              desc(MemOp::Atomic, bytes, 1, false, LoadExt::None, a, rtn));
}
// src2 forms: both operands are in LDS (Vega ISA guide 9.3).
OpInfo src2(int op, const char* n, AtomicOp a, int bytes) {
  return dsOp(
      op, n, NoT, B32, NoT, NoT,
      desc(a == AtomicOp::None ? MemOp::Store : MemOp::Atomic, bytes, 1, false, LoadExt::None, a),
      execDsSrc2);
}

// The opcodes that exist only with gds=1: the global wave sync instructions, whose one VGPR
// operand (init, sema_br, barrier) is encoded in the ADDR field (llvm-mc-15:
// "ds_gws_init v1 gds" encodes as D9330000 00000001), and ds_ordered_count.
OpInfo gwsOp(int op, const char* name, bool hasData) {
  OpInfo o = dsOp(op, name, NoT, hasData ? B32 : NoT, NoT, NoT, MemDesc{}, execGws);
  o.flags = kGdsOnly;
  return o;
}

using A = AtomicOp;

const OpInfo kDsOps[] = {
    atomic(0x00, "ds_add_u32", A::Add, 4, false),
    atomic(0x01, "ds_sub_u32", A::Sub, 4, false),
    atomic(0x02, "ds_rsub_u32", A::RsubU32, 4, false),
    atomic(0x03, "ds_inc_u32", A::Inc, 4, false),
    atomic(0x04, "ds_dec_u32", A::Dec, 4, false),
    atomic(0x05, "ds_min_i32", A::SMin, 4, false),
    atomic(0x06, "ds_max_i32", A::SMax, 4, false),
    atomic(0x07, "ds_min_u32", A::UMin, 4, false),
    atomic(0x08, "ds_max_u32", A::UMax, 4, false),
    atomic(0x09, "ds_and_b32", A::And, 4, false),
    atomic(0x0a, "ds_or_b32", A::Or, 4, false),
    atomic(0x0b, "ds_xor_b32", A::Xor, 4, false),
    atomic(0x0c, "ds_mskor_b32", A::MskOr, 4, false, true),
    store(0x0d, "ds_write_b32", 4),
    store(0x0e, "ds_write2_b32", 4, 2),
    store(0x0f, "ds_write2st64_b32", 4, 2, true),
    atomic(0x10, "ds_cmpst_b32", A::CmpSwap, 4, false, true),
    atomic(0x11, "ds_cmpst_f32", A::FCmpSwap, 4, false, true),
    atomic(0x12, "ds_min_f32", A::FMin, 4, false),
    atomic(0x13, "ds_max_f32", A::FMax, 4, false),
    dsOp(0x14, "ds_nop", NoT, NoT, NoT, NoT, MemDesc{},
         [](ExecArgs& x) { x.w.pc += x.in.sizeBytes; }),
    atomic(0x15, "ds_add_f32", A::FAdd, 4, false),
    dsOp(0x1d, "ds_write_addtid_b32", NoT, NoT, B32, NoT, desc(MemOp::Store, 4), execDsAddtid),
    store(0x1e, "ds_write_b8", 1),
    store(0x1f, "ds_write_b16", 2),
    atomic(0x20, "ds_add_rtn_u32", A::Add, 4, true),
    atomic(0x21, "ds_sub_rtn_u32", A::Sub, 4, true),
    atomic(0x22, "ds_rsub_rtn_u32", A::RsubU32, 4, true),
    atomic(0x23, "ds_inc_rtn_u32", A::Inc, 4, true),
    atomic(0x24, "ds_dec_rtn_u32", A::Dec, 4, true),
    atomic(0x25, "ds_min_rtn_i32", A::SMin, 4, true),
    atomic(0x26, "ds_max_rtn_i32", A::SMax, 4, true),
    atomic(0x27, "ds_min_rtn_u32", A::UMin, 4, true),
    atomic(0x28, "ds_max_rtn_u32", A::UMax, 4, true),
    atomic(0x29, "ds_and_rtn_b32", A::And, 4, true),
    atomic(0x2a, "ds_or_rtn_b32", A::Or, 4, true),
    atomic(0x2b, "ds_xor_rtn_b32", A::Xor, 4, true),
    atomic(0x2c, "ds_mskor_rtn_b32", A::MskOr, 4, true, true),
    atomic(0x2d, "ds_wrxchg_rtn_b32", A::Swap, 4, true),
    dsOp(0x2e, "ds_wrxchg2_rtn_b32", B64, B32, B32, B32,
         desc(MemOp::Atomic, 4, 2, false, LoadExt::None, A::Swap, true)),
    dsOp(0x2f, "ds_wrxchg2st64_rtn_b32", B64, B32, B32, B32,
         desc(MemOp::Atomic, 4, 2, true, LoadExt::None, A::Swap, true)),
    atomic(0x30, "ds_cmpst_rtn_b32", A::CmpSwap, 4, true, true),
    atomic(0x31, "ds_cmpst_rtn_f32", A::FCmpSwap, 4, true, true),
    atomic(0x32, "ds_min_rtn_f32", A::FMin, 4, true),
    atomic(0x33, "ds_max_rtn_f32", A::FMax, 4, true),
    atomic(0x34, "ds_wrap_rtn_b32", A::Wrap, 4, true, true),
    atomic(0x35, "ds_add_rtn_f32", A::FAdd, 4, true),
    load(0x36, "ds_read_b32", 4),
    load(0x37, "ds_read2_b32", 4, LoadExt::None, 2),
    load(0x38, "ds_read2st64_b32", 4, LoadExt::None, 2, true),
    load(0x39, "ds_read_i8", 1, LoadExt::I8),
    load(0x3a, "ds_read_u8", 1, LoadExt::U8),
    load(0x3b, "ds_read_i16", 2, LoadExt::I16),
    load(0x3c, "ds_read_u16", 2, LoadExt::U16),
    dsOp(0x3d, "ds_swizzle_b32", B32, B32, NoT, NoT, MemDesc{}, execDsCrossLane),
    dsOp(0x3e, "ds_permute_b32", B32, B32, B32, NoT, MemDesc{}, execDsCrossLane),
    dsOp(0x3f, "ds_bpermute_b32", B32, B32, B32, NoT, MemDesc{}, execDsCrossLane),
    atomic(0x40, "ds_add_u64", A::Add, 8, false),
    atomic(0x41, "ds_sub_u64", A::Sub, 8, false),
    atomic(0x42, "ds_rsub_u64", A::RsubU32, 8, false),
    atomic(0x43, "ds_inc_u64", A::Inc, 8, false),
    atomic(0x44, "ds_dec_u64", A::Dec, 8, false),
    atomic(0x45, "ds_min_i64", A::SMin, 8, false),
    atomic(0x46, "ds_max_i64", A::SMax, 8, false),
    atomic(0x47, "ds_min_u64", A::UMin, 8, false),
    atomic(0x48, "ds_max_u64", A::UMax, 8, false),
    atomic(0x49, "ds_and_b64", A::And, 8, false),
    atomic(0x4a, "ds_or_b64", A::Or, 8, false),
    atomic(0x4b, "ds_xor_b64", A::Xor, 8, false),
    atomic(0x4c, "ds_mskor_b64", A::MskOr, 8, false, true),
    store(0x4d, "ds_write_b64", 8),
    store(0x4e, "ds_write2_b64", 8, 2),
    store(0x4f, "ds_write2st64_b64", 8, 2, true),
    atomic(0x50, "ds_cmpst_b64", A::CmpSwap, 8, false, true),
    atomic(0x51, "ds_cmpst_f64", A::FCmpSwap, 8, false, true),
    atomic(0x52, "ds_min_f64", A::FMin, 8, false),
    atomic(0x53, "ds_max_f64", A::FMax, 8, false),
    store(0x54, "ds_write_b8_d16_hi", 1, 1, false, true),
    store(0x55, "ds_write_b16_d16_hi", 2, 1, false, true),
    load(0x56, "ds_read_u8_d16", 1, LoadExt::D16LoU8),
    load(0x57, "ds_read_u8_d16_hi", 1, LoadExt::D16HiU8),
    load(0x58, "ds_read_i8_d16", 1, LoadExt::D16LoI8),
    load(0x59, "ds_read_i8_d16_hi", 1, LoadExt::D16HiI8),
    load(0x5a, "ds_read_u16_d16", 2, LoadExt::D16Lo16),
    load(0x5b, "ds_read_u16_d16_hi", 2, LoadExt::D16Hi16),
    atomic(0x60, "ds_add_rtn_u64", A::Add, 8, true),
    atomic(0x61, "ds_sub_rtn_u64", A::Sub, 8, true),
    atomic(0x62, "ds_rsub_rtn_u64", A::RsubU32, 8, true),
    atomic(0x63, "ds_inc_rtn_u64", A::Inc, 8, true),
    atomic(0x64, "ds_dec_rtn_u64", A::Dec, 8, true),
    atomic(0x65, "ds_min_rtn_i64", A::SMin, 8, true),
    atomic(0x66, "ds_max_rtn_i64", A::SMax, 8, true),
    atomic(0x67, "ds_min_rtn_u64", A::UMin, 8, true),
    atomic(0x68, "ds_max_rtn_u64", A::UMax, 8, true),
    atomic(0x69, "ds_and_rtn_b64", A::And, 8, true),
    atomic(0x6a, "ds_or_rtn_b64", A::Or, 8, true),
    atomic(0x6b, "ds_xor_rtn_b64", A::Xor, 8, true),
    atomic(0x6c, "ds_mskor_rtn_b64", A::MskOr, 8, true, true),
    atomic(0x6d, "ds_wrxchg_rtn_b64", A::Swap, 8, true),
    dsOp(0x6e, "ds_wrxchg2_rtn_b64", B128, B32, B64, B64,
         desc(MemOp::Atomic, 8, 2, false, LoadExt::None, A::Swap, true)),
    dsOp(0x6f, "ds_wrxchg2st64_rtn_b64", B128, B32, B64, B64,
         desc(MemOp::Atomic, 8, 2, true, LoadExt::None, A::Swap, true)),
    atomic(0x70, "ds_cmpst_rtn_b64", A::CmpSwap, 8, true, true),
    atomic(0x71, "ds_cmpst_rtn_f64", A::FCmpSwap, 8, true, true),
    atomic(0x72, "ds_min_rtn_f64", A::FMin, 8, true),
    atomic(0x73, "ds_max_rtn_f64", A::FMax, 8, true),
    load(0x76, "ds_read_b64", 8),
    load(0x77, "ds_read2_b64", 8, LoadExt::None, 2),
    load(0x78, "ds_read2st64_b64", 8, LoadExt::None, 2, true),
    atomic(0x7e, "ds_condxchg32_rtn_b64", A::CondXchg32, 8, true),
    src2(0x80, "ds_add_src2_u32", A::Add, 4),
    src2(0x81, "ds_sub_src2_u32", A::Sub, 4),
    src2(0x82, "ds_rsub_src2_u32", A::RsubU32, 4),
    src2(0x83, "ds_inc_src2_u32", A::Inc, 4),
    src2(0x84, "ds_dec_src2_u32", A::Dec, 4),
    src2(0x85, "ds_min_src2_i32", A::SMin, 4),
    src2(0x86, "ds_max_src2_i32", A::SMax, 4),
    src2(0x87, "ds_min_src2_u32", A::UMin, 4),
    src2(0x88, "ds_max_src2_u32", A::UMax, 4),
    src2(0x89, "ds_and_src2_b32", A::And, 4),
    src2(0x8a, "ds_or_src2_b32", A::Or, 4),
    src2(0x8b, "ds_xor_src2_b32", A::Xor, 4),
    src2(0x8d, "ds_write_src2_b32", A::None, 4),
    src2(0x92, "ds_min_src2_f32", A::FMin, 4),
    src2(0x93, "ds_max_src2_f32", A::FMax, 4),
    src2(0x95, "ds_add_src2_f32", A::FAdd, 4),
    gwsOp(0x98, "ds_gws_sema_release_all", false),
    gwsOp(0x99, "ds_gws_init", true),
    gwsOp(0x9a, "ds_gws_sema_v", false),
    gwsOp(0x9b, "ds_gws_sema_br", true),
    gwsOp(0x9c, "ds_gws_sema_p", false),
    gwsOp(0x9d, "ds_gws_barrier", true),
    dsOp(0xb6, "ds_read_addtid_b32", B32, NoT, NoT, NoT,
         desc(MemOp::Load, 4, 1, false, LoadExt::None, A::None, true), execDsAddtid),
    dsOp(0xbd, "ds_consume", B32, NoT, NoT, NoT,
         desc(MemOp::Atomic, 4, 1, false, LoadExt::None, A::Sub, true), execDsAppend),
    dsOp(0xbe, "ds_append", B32, NoT, NoT, NoT,
         desc(MemOp::Atomic, 4, 1, false, LoadExt::None, A::Add, true), execDsAppend),
    [] {
      OpInfo o = dsOp(0xbf, "ds_ordered_count", B32, B32, NoT, NoT, MemDesc{}, execOrderedCount);
      o.flags = kGdsOnly | kGraphics;
      return o;
    }(),
    src2(0xc0, "ds_add_src2_u64", A::Add, 8),
    src2(0xc1, "ds_sub_src2_u64", A::Sub, 8),
    src2(0xc2, "ds_rsub_src2_u64", A::RsubU32, 8),
    src2(0xc3, "ds_inc_src2_u64", A::Inc, 8),
    src2(0xc4, "ds_dec_src2_u64", A::Dec, 8),
    src2(0xc5, "ds_min_src2_i64", A::SMin, 8),
    src2(0xc6, "ds_max_src2_i64", A::SMax, 8),
    src2(0xc7, "ds_min_src2_u64", A::UMin, 8),
    src2(0xc8, "ds_max_src2_u64", A::UMax, 8),
    src2(0xc9, "ds_and_src2_b64", A::And, 8),
    src2(0xca, "ds_or_src2_b64", A::Or, 8),
    src2(0xcb, "ds_xor_src2_b64", A::Xor, 8),
    src2(0xcd, "ds_write_src2_b64", A::None, 8),
    src2(0xd2, "ds_min_src2_f64", A::FMin, 8),
    src2(0xd3, "ds_max_src2_f64", A::FMax, 8),
    store(0xde, "ds_write_b96", 12),
    store(0xdf, "ds_write_b128", 16),
    load(0xfe, "ds_read_b96", 12),
    load(0xff, "ds_read_b128", 16),
};

// DS address and data (9.1, 12.13): addr = VGPR[addr] + offset; read2/write2 forms address
// two elements at offset0 and offset1 scaled by the element size (x64 for st64).
void execDs(ExecArgs& x) {
  const Instruction& in = x.in;
  const MemDesc& m = x.op.mem;
  WaveState& w = x.w;
  MemRequest& mem = x.mem;
  if (gds(x) && !x.ctx.gdsData) return fault(x, kNoGds);
  const int addrReg = in.f[fld::kAddr], data0 = in.f[fld::kData0], data1 = in.f[fld::kData1];
  const int vdst = in.f[fld::kDst];
  const int dataBytes = m.bytes;
  if (!vgprInRange(w, addrReg, 1)) return fault(x, "DS address VGPR out of range");
  const int dataDwords = (dataBytes + 3) / 4;
  const bool twoData = x.op.src2 != Ty::None;
  if (m.op == MemOp::Store || m.op == MemOp::Atomic) {
    if (!vgprInRange(w, data0, dataDwords)) return fault(x, "DS data VGPR out of range");
    if (twoData && !vgprInRange(w, data1, dataDwords)) return fault(x, "DS data VGPR out of range");
  }
  const int dwords = loadDwords(dataBytes, m.ext) * m.elements;
  if (m.returns && !vgprInRange(w, vdst, dwords))
    return fault(x, "DS destination VGPR out of range");
  uint64_t off[2];
  if (m.elements == 2) {
    const uint64_t scale = static_cast<uint64_t>(dataBytes) * (m.st64 ? 64 : 1);
    off[0] = in.f[fld::kOffset0] * scale;
    off[1] = in.f[fld::kOffset1] * scale;
  } else {
    off[0] = in.f[fld::kOffset0] | (static_cast<uint32_t>(in.f[fld::kOffset1]) << 8);
    off[1] = 0;
  }
  // DS_CONDXCHG32_RTN_B64 is a 64-bit operation on an 8-byte aligned address: the address's
  // low three bits are dropped (ADDR = (VGPR + OFFSET) & ~7: the instruction's pseudocode in
  // AMD's CDNA and RDNA ISA guides; the Vega guide, 12.13, gives no address computation of
  // its own). Rare: always through the request path.
  const bool alignTo8 = m.atomic == AtomicOp::CondXchg32;
  if (x.ctx.dsAtIssue && x.ctx.ldsAtIssue && !gds(x) && !alignTo8) {
    // Functional mode: executed at issue on the workgroup's LDS bytes by the LDS's own rules
    // (lds/LdsAtIssue.cpp), from this description; no MemRequest.
    const DsAtIssueAccess access{m,     w,     {off[0], off[1]}, addrReg,          vdst,
                                 data0, data1, twoData,          x.ctx.ldsAtIssue, x.ctx.ldsSize};
    if (x.ctx.dsAtIssue(access)) x.r.atomicChangedMemory = true;
    x.r.kind = StepKind::MemoryDone;
    w.pc += in.sizeBytes;
    return;
  }

  beginRequest(mem, MemSpace::Lds, m.op, WaitCounter::Lgkm);
  mem.atomic = m.atomic;
  mem.atomicReturnsData = m.op == MemOp::Atomic && m.returns;
  mem.elementBytes = static_cast<uint8_t>(dataBytes);
  mem.elementsPerLane = m.elements;
  mem.laneMask = w.exec;
  const uint32_t* addr = w.v(static_cast<uint32_t>(addrReg));
  const uint32_t addressMask = alignTo8 ? ~7u : ~0u;
  for (int e = 0; e < m.elements; ++e) {  // element by element: a row of 64 lanes each
    uint64_t* const row = &mem.address(0, e);
    for (int l = 0; l < kWaveSize; ++l)
      row[l] = static_cast<uint32_t>(addr[l] + off[e]) & addressMask;
  }
  if (m.op == MemOp::Store || m.op == MemOp::Atomic) {
    for (int l = 0; l < kWaveSize; ++l) {
      if (!((w.exec >> l) & 1)) continue;
      if (m.op == MemOp::Store) {
        gatherVgprBytes(w, data0, dataBytes, l, m.d16Hi, mem.element(l, 0));
        if (m.elements == 2) gatherVgprBytes(w, data1, dataBytes, l, false, mem.element(l, 1));
      } else if (m.atomic == AtomicOp::CmpSwap || m.atomic == AtomicOp::FCmpSwap) {
        // ds_cmpst: DATA0 is the compare value, DATA1 the value written (12.13).
        gatherVgprBytes(w, data1, dataBytes, l, false, mem.element(l, 0));
        gatherVgprBytes(w, data0, dataBytes, l, false, mem.cmpElement(l, 0));
      } else if (m.elements == 2) {  // wrxchg2: one exchange per address
        gatherVgprBytes(w, data0, dataBytes, l, false, mem.element(l, 0));
        gatherVgprBytes(w, data1, dataBytes, l, false, mem.element(l, 1));
      } else {
        gatherVgprBytes(w, data0, dataBytes, l, false, mem.element(l, 0));
        if (twoData) gatherVgprBytes(w, data1, dataBytes, l, false, mem.cmpElement(l, 0));
      }
    }
  }
  if (m.returns) setVgprWriteback(mem, vdst, dwords, m.ext, w.exec);
  if (gds(x)) serveGds(x, gdsWindowBase(w), gdsWindowSize(w));
  x.r.kind = StepKind::Memory;
  w.pc += in.sizeBytes;
}

// ds_swizzle / ds_permute / ds_bpermute move data between lanes through the LDS's crossbar
// without touching LDS memory (9.3 "LDS Instructions", 12.13). They are LDS instructions all the
// same: each counts on LGKM_CNT and returns in order with the wave's other LDS accesses, and
// compilers count on that (after "ds_read_b32 v19, ...; ds_bpermute_b32 ...", LLVM waits for
// the read with s_waitcnt lgkmcnt(1)). The lanes' operands are read and the result computed at
// issue; in functional mode, where every DS instruction completes at issue, the destination is
// written at once, otherwise the result travels in a MemRequest that the LDS times and the
// destination is written when the wave sees it complete.
void execDsCrossLane(ExecArgs& x) {
  const Instruction& in = x.in;
  WaveState& w = x.w;
  const int vdst = in.f[fld::kDst], addrReg = in.f[fld::kAddr], data0 = in.f[fld::kData0];
  const uint32_t offset = in.f[fld::kOffset0] | (static_cast<uint32_t>(in.f[fld::kOffset1]) << 8);
  if (!vgprInRange(w, vdst, 1) || !vgprInRange(w, addrReg, 1))
    return fault(x, "DS VGPR out of range");
  uint32_t result[kWaveSize];
  uint32_t* dst = w.v(static_cast<uint32_t>(vdst));
  for (int l = 0; l < kWaveSize; ++l) result[l] = dst[l];
  if (x.op.opcode == 0x3d) {  // ds_swizzle_b32: offset selects the pattern
    const uint32_t* src = w.v(static_cast<uint32_t>(addrReg));
    for (int l = 0; l < kWaveSize; ++l) {
      if (!((w.exec >> l) & 1)) continue;
      int from;
      if (offset & 0x8000) {  // quad permute mode
        from = (l & ~3) | ((offset >> (2 * (l & 3))) & 3);
      } else {  // bit mode within groups of 32: and, or, xor masks
        const int andMask = offset & 0x1f, orMask = (offset >> 5) & 0x1f,
                  xorMask = (offset >> 10) & 0x1f;
        from = (l & 0x20) | ((((l & 0x1f) & andMask) | orMask) ^ xorMask);
      }
      result[l] = ((w.exec >> from) & 1) ? src[from] : 0;
    }
  } else {
    if (!vgprInRange(w, data0, 1)) return fault(x, "DS VGPR out of range");
    const uint32_t* addr = w.v(static_cast<uint32_t>(addrReg));
    const uint32_t* data = w.v(static_cast<uint32_t>(data0));
    if (x.op.opcode == 0x3e) {  // ds_permute_b32: push data to lane (addr / 4)
      uint32_t pushed[kWaveSize] = {};
      for (int l = 0; l < kWaveSize; ++l)
        if ((w.exec >> l) & 1) pushed[((addr[l] + offset) / 4) & 63] = data[l];
      for (int l = 0; l < kWaveSize; ++l)
        if ((w.exec >> l) & 1) result[l] = pushed[l];
    } else {  // ds_bpermute_b32: pull data from lane (addr / 4)
      for (int l = 0; l < kWaveSize; ++l) {
        if (!((w.exec >> l) & 1)) continue;
        const int from = static_cast<int>(((addr[l] + offset) / 4) & 63);
        result[l] = ((w.exec >> from) & 1) ? data[from] : 0;
      }
    }
  }
  w.pc += in.sizeBytes;
  if (x.ctx.dsAtIssue) {
    for (int l = 0; l < kWaveSize; ++l)
      if ((w.exec >> l) & 1) dst[l] = result[l];
    return;
  }
  MemRequest& mem = x.mem;
  beginRequest(mem, MemSpace::Lds, MemOp::Load, WaitCounter::Lgkm);
  mem.crossLane =
      x.op.opcode == 0x3d ? MemRequest::CrossLane::Swizzle : MemRequest::CrossLane::Permute;
  mem.laneMask = w.exec;
  for (int l = 0; l < kWaveSize; ++l) {
    mem.address(l, 0) = 4u * static_cast<uint32_t>(l);  // each lane its own crossbar path
    if ((w.exec >> l) & 1) std::memcpy(mem.element(l, 0), &result[l], 4);
  }
  setVgprWriteback(mem, vdst, 1, LoadExt::None, w.exec);
  x.r.kind = StepKind::Memory;
}

// src2 forms (Vega ISA guide ch. 9): the data term is read from LDS at issue (ExecContext::ldsData)
// and the operation is applied at the second address. offset1[7] = 0: data at ADDR +
// sext({offset1[6:0], offset0}) * 4, destination ADDR; offset1[7] = 1: data at ADDR[16:0] +
// sext(ADDR[31:17]) * 4, destination ADDR[16:0].
void execDsSrc2(ExecArgs& x) {
  const Instruction& in = x.in;
  const MemDesc& m = x.op.mem;
  WaveState& w = x.w;
  const bool toGds = gds(x);
  if (toGds && !x.ctx.gdsData) return fault(x, kNoGds);
  if (!toGds && !x.ctx.ldsData)
    return fault(x, "ds_*_src2 needs the LDS contents (ExecContext::ldsData)");
  // The data term is read at issue from the LDS allocation, or from the GDS window.
  const uint8_t* share = toGds ? x.ctx.gdsData + gdsWindowBase(w) : x.ctx.ldsData;
  const uint64_t shareSize =
      toGds
          ? std::min<uint64_t>(gdsWindowSize(w),
                               x.ctx.gdsSize - std::min<uint64_t>(x.ctx.gdsSize, gdsWindowBase(w)))
          : x.ctx.ldsSize;
  const int addrReg = in.f[fld::kAddr];
  if (!vgprInRange(w, addrReg, 1)) return fault(x, "DS address VGPR out of range");
  MemRequest& mem = x.mem;
  beginRequest(mem, MemSpace::Lds, m.op, WaitCounter::Lgkm);
  mem.atomic = m.atomic;
  mem.elementBytes = m.bytes;
  const uint32_t off0 = in.f[fld::kOffset0], off1 = in.f[fld::kOffset1];
  const uint32_t* addr = w.v(static_cast<uint32_t>(addrReg));
  uint64_t lanes = 0;
  for (int l = 0; l < kWaveSize; ++l) {
    if (!((w.exec >> l) & 1)) continue;
    uint32_t dst, src;
    if (off1 & 0x80) {
      dst = addr[l] & 0x1ffff;
      src = dst + static_cast<uint32_t>(sext(addr[l] >> 17, 15) * 4);
    } else {
      dst = addr[l];
      src = dst + static_cast<uint32_t>(sext(((off1 & 0x7f) << 8) | off0, 15) * 4);
    }
    mem.address(l, 0) = dst;
    if (lds::inRange(src, m.bytes, shareSize))  // the LDS's range rule, for the GDS window too
      std::memcpy(mem.element(l, 0), share + src, m.bytes);
    lanes |= 1ull << l;
  }
  mem.laneMask = lanes;
  if (toGds) serveGds(x, gdsWindowBase(w), gdsWindowSize(w));
  x.r.kind = StepKind::Memory;
  w.pc += in.sizeBytes;
}

// ds_append / ds_consume (12.13): one atomic add / sub of popcount(EXEC) on the dword at
// M0[15:0] + offset; every active lane receives the pre-op value.
void execDsAppend(ExecArgs& x) {
  const Instruction& in = x.in;
  WaveState& w = x.w;
  if (gds(x) && !x.ctx.gdsData) return fault(x, kNoGds);
  const int vdst = in.f[fld::kDst];
  if (!vgprInRange(w, vdst, 1)) return fault(x, "DS destination VGPR out of range");
  MemRequest& mem = x.mem;
  beginRequest(mem, MemSpace::Lds, MemOp::Atomic, WaitCounter::Lgkm);
  mem.atomic = x.op.mem.atomic;
  mem.atomicReturnsData = true;
  const int lane = w.exec ? __builtin_ctzll(w.exec) : 0;
  const uint32_t count = static_cast<uint32_t>(__builtin_popcountll(w.exec));
  const uint32_t offset = in.f[fld::kOffset0] | (static_cast<uint32_t>(in.f[fld::kOffset1]) << 8);
  mem.address(lane, 0) = (w.m0 & 0xffff) + offset;
  std::memcpy(mem.element(lane, 0), &count, 4);
  mem.laneMask = w.exec ? 1ull << lane : 0;
  setVgprWriteback(mem, vdst, 1, LoadExt::None, w.exec);
  mem.writeback.flags |= kWbBroadcast;
  mem.writeback.aux = static_cast<uint16_t>(lane);
  // GDS: M0[15:0] is the counter's address in the GDS itself (no window).
  if (gds(x)) serveGds(x, 0, x.ctx.gdsSize);
  x.r.kind = StepKind::Memory;
  w.pc += in.sizeBytes;
}

// ds_read_addtid_b32 / ds_write_addtid_b32 (12.13): address = M0[15:0] + offset + lane * 4.
void execDsAddtid(ExecArgs& x) {
  const Instruction& in = x.in;
  const MemDesc& m = x.op.mem;
  WaveState& w = x.w;
  if (gds(x) && !x.ctx.gdsData) return fault(x, kNoGds);
  const int reg = m.op == MemOp::Load ? in.f[fld::kDst] : in.f[fld::kData0];
  if (!vgprInRange(w, reg, 1)) return fault(x, "DS VGPR out of range");
  MemRequest& mem = x.mem;
  beginRequest(mem, MemSpace::Lds, m.op, WaitCounter::Lgkm);
  const uint32_t offset = in.f[fld::kOffset0] | (static_cast<uint32_t>(in.f[fld::kOffset1]) << 8);
  for (int l = 0; l < kWaveSize; ++l) {
    mem.address(l, 0) = (w.m0 & 0xffff) + offset + 4u * static_cast<uint32_t>(l);
    if (m.op == MemOp::Store && ((w.exec >> l) & 1))
      gatherVgprBytes(w, reg, 4, l, false, mem.element(l, 0));
  }
  mem.laneMask = w.exec;
  if (m.op == MemOp::Load) setVgprWriteback(mem, reg, 1, LoadExt::None, w.exec);
  if (gds(x)) serveGds(x, 0, x.ctx.gdsSize);  // addresses from M0[15:0], as for ds_append
  x.r.kind = StepKind::Memory;
  w.pc += in.sizeBytes;
}

// ds_gws_* (see isa/Gws.h for the resource id and the counter model): one operation per wave
// on the resource, the operand from the first active lane's VGPR (lane 0 when EXEC is 0).
// An operation that does not wait completes like a GDS access (an LDS request without lanes,
// counted on LGKM_CNT); sema_p on a zero counter and a barrier that is not complete return
// GwsWait, and the compute unit parks the wave until the resource lets it pass.
void execGws(ExecArgs& x) {
  const Instruction& in = x.in;
  WaveState& w = x.w;
  if (!x.ctx.gws) return fault(x, "GWS instruction, but no global wave sync unit is attached");
  GwsState& g = *x.ctx.gws;
  const uint32_t offset = in.f[fld::kOffset0] | (static_cast<uint32_t>(in.f[fld::kOffset1]) << 8);
  const uint32_t rid = GwsState::resourceId(w.m0, offset);
  uint32_t value = 0;
  if (x.op.src0 != Ty::None) {
    const int reg = in.f[fld::kAddr];
    if (!vgprInRange(w, reg, 1)) return fault(x, "DS data VGPR out of range");
    value = w.v(static_cast<uint32_t>(reg))[w.exec ? __builtin_ctzll(w.exec) : 0];
  }
  bool waits = false;
  switch (x.op.opcode) {
    case 0x98:
      g.releaseAll(rid);
      break;
    case 0x99:
      g.init(rid, value);
      break;
    case 0x9a:
      g.semaV(rid);
      break;
    case 0x9b:
      g.semaBr(rid, value);
      break;
    case 0x9c:
      waits = !g.tryP(rid);
      if (waits) g.queueP(rid);
      break;
    default:  // 0x9d ds_gws_barrier
      waits = !g.arriveAtBarrier(rid, value, &x.r.gwsGeneration);
      x.r.gwsBarrier = true;
      break;
  }
  w.pc += in.sizeBytes;
  if (waits) {
    x.r.kind = StepKind::GwsWait;
    x.r.gwsResource = rid;
    return;
  }
  beginRequest(x.mem, MemSpace::Lds, MemOp::Store, WaitCounter::Lgkm);
  x.mem.laneMask = 0;
  x.r.kind = StepKind::Memory;
}

// ds_ordered_count: the ordered-append counters it adds to are ordered by the graphics
// pipeline's wave order (the instruction's offset carries the shader type and the
// wave_release / wave_done bits; LLVM llvm.amdgcn.ds.ordered.add). A compute kernel has no
// such order in the model: the opcode decodes and prints, and faults when executed.
void execOrderedCount(ExecArgs& x) {
  fault(x,
        "ds_ordered_count is graphics-only (ordered append in the graphics pipeline's wave "
        "order), not supported in a compute wave");
}

}  // namespace

OpTable dsTable() {
  return {kDsOps, static_cast<int>(sizeof(kDsOps) / sizeof(kDsOps[0]))};
}

}  // namespace vgpu::isa
