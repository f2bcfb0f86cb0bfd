// Scalar memory (Vega ISA guide ch. 7 "Scalar Memory Operations", opcodes 12.14): loads,
// stores and atomics through the scalar data cache, s_memtime / s_memrealtime, cache control.
#include <deque>
#include <string>
#include <vector>

#include "isa/Memory.h"

namespace vgpu::isa {
namespace {

void execSmem(ExecArgs& x);
template <int kDwords>
void execSmemLoad(ExecArgs& x);

struct SmemTables {
  std::deque<std::string> names;
  std::vector<OpInfo> ops;

  // dst: the sdata width; src0: B64 for an address in sbase, B128 for a V# (s_buffer_*).
  void add(int opcode, std::string name, Ty data, Ty base, MemOp op, AtomicOp a, bool returns,
           ExecFn fn = execSmem, uint32_t flags = 0) {
    names.push_back(std::move(name));
    OpInfo o;
    o.name = names.back().c_str();
    o.enc = Enc::Smem;
    o.opcode = static_cast<int16_t>(opcode);
    o.dst = data;
    o.src0 = base;
    o.mem.op = op;
    o.mem.atomic = a;
    o.mem.returns = returns;
    o.mem.bytes = static_cast<uint8_t>(4 * dwordsOf(data));
    o.exec = fn;
    o.flags = flags;
    o.issue = IssueType::Smem;
    ops.push_back(o);
  }

  SmemTables() {
    const Ty widths[] = {Ty::B32, Ty::B64, Ty::B128, Ty::B256, Ty::B512};
    const char* const sizes[] = {"dword", "dwordx2", "dwordx4", "dwordx8", "dwordx16"};
    const ExecFn loads[] = {execSmemLoad<1>, execSmemLoad<2>, execSmemLoad<4>, execSmemLoad<8>,
                            execSmemLoad<16>};
    for (int k = 0; k < 5; ++k) {
      add(0x00 + k, std::string("s_load_") + sizes[k], widths[k], Ty::B64, MemOp::Load,
          AtomicOp::None, true, loads[k]);
      add(0x08 + k, std::string("s_buffer_load_") + sizes[k], widths[k], Ty::B128, MemOp::Load,
          AtomicOp::None, true);
    }
    for (int k = 0; k < 3; ++k) {
      add(0x05 + k, std::string("s_scratch_load_") + sizes[k], widths[k], Ty::B64, MemOp::Load,
          AtomicOp::None, true);
      ops.back().mem.segment = 1;  // scratch
      add(0x10 + k, std::string("s_store_") + sizes[k], widths[k], Ty::B64, MemOp::Store,
          AtomicOp::None, false);
      add(0x15 + k, std::string("s_scratch_store_") + sizes[k], widths[k], Ty::B64, MemOp::Store,
          AtomicOp::None, false);
      ops.back().mem.segment = 1;  // scratch
      add(0x18 + k, std::string("s_buffer_store_") + sizes[k], widths[k], Ty::B128, MemOp::Store,
          AtomicOp::None, false);
    }
    // Cache control and timers (no operands / sdata only). The scalar cache is coherent in
    // the model, so invalidate / write-back complete at once.
    auto nop = [](ExecArgs& x) { x.w.pc += x.in.sizeBytes; };
    add(0x20, "s_dcache_inv", Ty::None, Ty::None, MemOp::Load, AtomicOp::None, false, nop,
        kNoOperands);
    add(0x21, "s_dcache_wb", Ty::None, Ty::None, MemOp::Load, AtomicOp::None, false, nop,
        kNoOperands);
    add(0x22, "s_dcache_inv_vol", Ty::None, Ty::None, MemOp::Load, AtomicOp::None, false, nop,
        kNoOperands);
    add(0x23, "s_dcache_wb_vol", Ty::None, Ty::None, MemOp::Load, AtomicOp::None, false, nop,
        kNoOperands);
    add(0x24, "s_memtime", Ty::B64, Ty::None, MemOp::Load, AtomicOp::None, false, [](ExecArgs& x) {
      writeScalar(x.w, x.in.f[fld::kData0], 2, x.ctx.cycle);
      x.w.pc += x.in.sizeBytes;
    });
    add(0x25, "s_memrealtime", Ty::B64, Ty::None, MemOp::Load, AtomicOp::None, false,
        [](ExecArgs& x) {
          writeScalar(x.w, x.in.f[fld::kData0], 2,
                      x.ctx.realtimeClock ? x.ctx.realtimeClock->ticks() : x.ctx.realtime);
          x.w.pc += x.in.sizeBytes;
        });
    // s_dcache_discard: drop the lines at the address without writing them back; the model's
    // scalar cache holds no dirty data, so there is nothing to do.
    add(0x28, "s_dcache_discard", Ty::None, Ty::B64, MemOp::Load, AtomicOp::None, false, nop,
        kSmemNoData);
    add(0x29, "s_dcache_discard_x2", Ty::None, Ty::B64, MemOp::Load, AtomicOp::None, false, nop,
        kSmemNoData);
    add(0x26, "s_atc_probe", Ty::None, Ty::B64, MemOp::Load, AtomicOp::None, false, nop);
    add(0x27, "s_atc_probe_buffer", Ty::None, Ty::B128, MemOp::Load, AtomicOp::None, false, nop);
    const struct {
      int op;
      const char* n;
      AtomicOp a;
    } atomics[] = {
        {0x0, "swap", AtomicOp::Swap}, {0x1, "cmpswap", AtomicOp::CmpSwap},
        {0x2, "add", AtomicOp::Add},   {0x3, "sub", AtomicOp::Sub},
        {0x4, "smin", AtomicOp::SMin}, {0x5, "umin", AtomicOp::UMin},
        {0x6, "smax", AtomicOp::SMax}, {0x7, "umax", AtomicOp::UMax},
        {0x8, "and", AtomicOp::And},   {0x9, "or", AtomicOp::Or},
        {0xa, "xor", AtomicOp::Xor},   {0xb, "inc", AtomicOp::Inc},
        {0xc, "dec", AtomicOp::Dec},
    };
    for (int wide = 0; wide < 2; ++wide) {
      for (const auto& a : atomics) {
        const bool cmp = a.a == AtomicOp::CmpSwap;
        const Ty data = wide ? (cmp ? Ty::B128 : Ty::B64) : (cmp ? Ty::B64 : Ty::B32);
        const std::string suffix = std::string(a.n) + (wide ? "_x2" : "");
        add((wide ? 0x60 : 0x40) + a.op, "s_buffer_atomic_" + suffix, data, Ty::B128, MemOp::Atomic,
            a.a, false);
        add((wide ? 0xa0 : 0x80) + a.op, "s_atomic_" + suffix, data, Ty::B64, MemOp::Atomic, a.a,
            false);
      }
    }
  }
};

const SmemTables& tables() {
  static const SmemTables t;
  return t;
}

// Address (7.2): base (sbase pair, or the V# base for s_buffer_*) + offset, where offset is
// a signed 21-bit immediate (imm=1), an SGPR (imm=0), or both (soe=1, imm=1); dword aligned.
void execSmem(ExecArgs& x) {
  const Instruction& in = x.in;
  const OpInfo& op = x.op;
  WaveState& w = x.w;
  const int sbase = in.f[fld::kAddr];
  const int sdata = in.f[fld::kData0];
  const unsigned bits = in.f[fld::kBits];
  int64_t offset = 0;
  if (bits & kSmemImm) {
    offset = static_cast<int64_t>(sext(in.literal & 0x1fffff, 21));
    if (bits & kSmemSoe) offset += readScalarDword(w, x.ctx, in.f[fld::kOffset1]);
  } else {
    offset = readScalarDword(w, x.ctx, in.literal & 0xff);
  }
  uint64_t base;
  bool inRange = true;
  const int dataDwords = dwordsOf(op.dst);
  const int accessDwords = op.mem.atomic == AtomicOp::CmpSwap ? dataDwords / 2 : dataDwords;
  if (op.src0 == Ty::B128) {
    uint32_t words[4];
    for (int k = 0; k < 4; ++k) words[k] = readScalarDword(w, x.ctx, sbase + k);
    const BufferResource vs = decodeResource(words);
    base = vs.base;
    // Scalar buffer range check (Vega ISA guide 8.1): out of range if offset >= stride *
    // num_records.
    const uint64_t limit = static_cast<uint64_t>(vs.stride == 0 ? 1 : vs.stride) * vs.numRecords;
    inRange = static_cast<uint64_t>(offset) < limit;
  } else if (op.mem.segment == 1) {
    // s_scratch_*: the wave's private segment (FLAT_SCRATCH) + SGPR[sbase] + offset (unswizzled,
    // 12.14).
    base = w.flatScratch + readScalarDword(w, x.ctx, sbase);
  } else if (sbase >= 0 && sbase + 2 <= kNumSgprs) {  // an SGPR pair (as nearly always)
    base = w.sgpr[static_cast<size_t>(sbase)] |
           (uint64_t{w.sgpr[static_cast<size_t>(sbase) + 1]} << 32);
  } else {
    base = readScalar(in, w, x.ctx, sbase, Ty::B64);
  }
  const uint64_t address = (base + static_cast<uint64_t>(offset)) & ~3ull;
  // Functional mode: a load whose bytes are mapped completes at issue (out of range: zeros).
  if (x.ctx.directMemory && op.mem.op == MemOp::Load) {
    static const uint8_t kZeros[MemRequest::kScalarMaxBytes] = {};
    const uint8_t* host =
        inRange ? x.ctx.directMemory->map(MemSpace::Scalar, address, 4u * accessDwords) : kZeros;
    if (host != nullptr && sdata >= 0 && sdata + accessDwords <= kNumSgprs) {
      std::memcpy(&w.sgpr[static_cast<size_t>(sdata)], host, 4 * static_cast<size_t>(accessDwords));
    } else if (host != nullptr) {  // into special registers (VCC, TTMPs, M0, ...)
      for (int k = 0; k < accessDwords; ++k) {
        uint32_t v;
        std::memcpy(&v, host + 4 * k, 4);
        writeScalarDword(w, sdata + k, v);
      }
    }
    if (host != nullptr) {
      x.r.kind = StepKind::MemoryDone;
      w.pc += in.sizeBytes;
      return;
    }
  }
  MemRequest& mem = x.mem;
  beginRequest(mem, MemSpace::Scalar, op.mem.op, WaitCounter::Lgkm);
  mem.address(0, 0) = address;
  mem.elementBytes = static_cast<uint8_t>(4 * accessDwords);
  mem.laneMask = inRange ? 1 : 0;
  mem.atomic = op.mem.atomic;
  mem.glc = bits & kGlc;
  mem.atomicReturnsData = op.mem.op == MemOp::Atomic && mem.glc;
  if (op.mem.op != MemOp::Load) {
    for (int k = 0; k < accessDwords; ++k) {
      const uint32_t v = readScalarDword(w, x.ctx, sdata + k);
      std::memcpy(&mem.data[4 * k], &v, 4);
    }
    if (op.mem.atomic == AtomicOp::CmpSwap) {
      for (int k = 0; k < accessDwords; ++k) {
        const uint32_t v = readScalarDword(w, x.ctx, sdata + accessDwords + k);
        std::memcpy(mem.cmpElement(0, 0) + 4 * k, &v, 4);
      }
    }
  }
  if (op.mem.op == MemOp::Load || mem.atomicReturnsData) {
    mem.writeback.kind = kWbSgpr;
    mem.writeback.reg = static_cast<uint16_t>(sdata);
    mem.writeback.count = static_cast<uint8_t>(accessDwords);
    mem.writeback.lanes = 1;
  }
  x.r.kind = StepKind::Memory;
  w.pc += in.sizeBytes;
}

// s_load_dword(xN) in functional mode, as most kernels begin: an SGPR pair plus an immediate
// offset, bytes that direct memory maps, into SGPRs; the copy of a constant size. Anything
// else (and timing mode) is execSmem's.
template <int kDwords>
void execSmemLoad(ExecArgs& x) {
  const Instruction& in = x.in;
  WaveState& w = x.w;
  const int sbase = in.f[fld::kAddr], sdata = in.f[fld::kData0];
  const unsigned bits = in.f[fld::kBits];
  if (x.ctx.directMemory == nullptr || (bits & (kSmemImm | kSmemSoe)) != kSmemImm || sbase < 0 ||
      sbase + 2 > kNumSgprs || sdata < 0 || sdata + kDwords > kNumSgprs)
    return execSmem(x);
  const uint64_t base =
      w.sgpr[static_cast<size_t>(sbase)] | (uint64_t{w.sgpr[static_cast<size_t>(sbase) + 1]} << 32);
  const uint64_t address =
      (base + static_cast<uint64_t>(sext(in.literal & 0x1fffff, 21))) & ~uint64_t{3};
  const uint8_t* host = x.ctx.directMemory->map(MemSpace::Scalar, address, 4 * kDwords);
  if (host == nullptr) return execSmem(x);
  std::memcpy(&w.sgpr[static_cast<size_t>(sdata)], host, 4 * kDwords);
  x.r.kind = StepKind::MemoryDone;
  w.pc += in.sizeBytes;
}

}  // namespace

OpTable smemTable() {
  const SmemTables& t = tables();
  return {t.ops.data(), static_cast<int>(t.ops.size())};
}

}  // namespace vgpu::isa
