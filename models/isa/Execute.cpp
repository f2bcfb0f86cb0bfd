// execute(): dispatch to the opcode's executor; completeMemory(): write returned data to
// registers; makeScratchResource(): the private segment V# (consistent with execBuffer).
#include "isa/Memory.h"

namespace vgpu::isa {

const OpInfo kUnknownOp{};

namespace {

// The executor of an instruction that cannot execute: why (no opcode, not on this target, not
// implemented).
void refuse(ExecArgs& x) {
  const OpInfo* op = x.in.op;
  x.r.kind = StepKind::Fault;
  if (!op)
    x.r.fault = "illegal or unknown instruction encoding";
  else if (x.ctx.target == GfxTarget::Gfx900 && (op->flags & kGfx906Only))
    x.r.fault = std::string(op->name) + " is a gfx906 instruction, not supported on gfx900";
  else
    x.r.fault = std::string(op->name) + " is not implemented by the model";
}

// The executor of a gfx906 instruction: the opcode's on gfx906, a refusal on gfx900 (the
// program's target need not be the device's).
void execGfx906Only(ExecArgs& x) {
  if (x.ctx.target == GfxTarget::Gfx900) return refuse(x);
  x.op.exec(x);
}

}  // namespace

void resolveExecution(Instruction& in) {
  const OpInfo* op = in.op;
  if (!op || !op->exec)
    in.exec = refuse;
  else if (op->flags & kGfx906Only)
    in.exec = execGfx906Only;
  else
    in.exec = op->exec;
  in.execOp = op ? op : &kUnknownOp;
  in.vgprLimit = op && op->valuForms ? valuVgprLimit(in) : 0xffff;
}

StepResult execute(const Instruction& inst, WaveState& wave, MemRequest& mem,
                   const ExecContext& ctx) {
  StepResult r;
  const uint64_t pc = wave.pc;
  if (inst.exec) {
    executeInto(inst, wave, mem, ctx, r);
  } else {
    Instruction resolved = inst;  // not from Program::decode: its executor resolved here
    resolveExecution(resolved);
    executeInto(resolved, wave, mem, ctx, r);
  }
  if (r.kind == StepKind::Fault) wave.pc = pc;  // a faulting instruction leaves PC on itself
  return r;
}

void completeMemory(WaveState& wave, const MemRequest& mem) {
  const MemRequest::Writeback& wb = mem.writeback;
  if (wb.kind == kWbSgpr) {
    for (int k = 0; k < wb.count; ++k) {
      uint32_t v;
      std::memcpy(&v, &mem.data[4 * static_cast<size_t>(k)], 4);
      writeScalarDword(wave, wb.reg + k, v);
    }
    return;
  }
  if (wb.kind != kWbVgpr) return;
  if (wb.flags & kWbTfe) writeTfeStatus(wave, wb);
  if (wb.flags & kWbFormat) {
    completeFormatLoad(wave, mem);  // buffer format conversion, D16 packing, DST_SEL
    return;
  }
  if (wb.flags & kWbImage) {
    completeImageLoad(wave, mem);  // image format conversion, DST_SEL, dmask, D16
    return;
  }
  const LoadExt ext = static_cast<LoadExt>(wb.flags & 0xf);
  const int dwords = wb.count;
  if (!vgprInRange(wave, wb.reg, dwords)) return;  // checked at issue; defensive
  // The common case, whole dwords per lane (a lane's elements follow one another in the
  // data): straight from the returned data to the VGPRs, register by register (fixed-size
  // copies; the general path below assembles each lane in a buffer first).
  if (ext == LoadExt::None && !(wb.flags & kWbBroadcast) &&
      mem.elementBytes * mem.elementsPerLane == 4 * dwords) {
    if (dwords == 1 && wb.lanes == ~0ull) {  // packed dwords, as in the VGPR
      std::memcpy(wave.v(wb.reg), mem.element(0, 0), 4 * kWaveSize);
      return;
    }
    // Lane l's dword k is at data[l * stride + 4k]: gathered with the stride in hand (through
    // element() it was worked out again for every dword).
    const size_t stride = 4 * static_cast<size_t>(dwords);
    const uint8_t* const data = mem.data.data();
    for (int k = 0; k < dwords; ++k) {
      uint32_t* r = wave.v(static_cast<uint32_t>(wb.reg + k));
      const uint8_t* lane0 = data + 4 * static_cast<size_t>(k);
      if (wb.lanes == ~0ull) {
        for (int l = 0; l < kWaveSize; ++l) std::memcpy(&r[l], lane0 + l * stride, 4);
      } else {
        for (uint64_t lanes = wb.lanes; lanes != 0; lanes &= lanes - 1) {
          const int l = __builtin_ctzll(lanes);
          std::memcpy(&r[l], lane0 + l * stride, 4);
        }
      }
    }
    return;
  }
  for (int l = 0; l < kWaveSize; ++l) {
    if (!((wb.lanes >> l) & 1)) continue;
    uint8_t buf[MemRequest::kMaxLaneBytes] = {};
    int n = 0;
    const int from = (wb.flags & kWbBroadcast) ? wb.aux : l;
    for (int e = 0; e < mem.elementsPerLane; ++e) {
      std::memcpy(buf + n, mem.element(from, e), mem.elementBytes);
      n += mem.elementBytes;
    }
    if (ext != LoadExt::None) {
      uint32_t* r = wave.v(wb.reg);
      r[l] = extendLoad(buf, ext, r[l]);
      continue;
    }
    for (int k = 0; k < dwords; ++k) {
      uint32_t v;
      std::memcpy(&v, buf + 4 * k, 4);
      wave.v(static_cast<uint32_t>(wb.reg + k))[l] = v;
    }
  }
}

// Private segment V# (8.1.5; LLVM SIInstrInfo::getScratchRsrcWords23): swizzled, 4-byte
// elements, index stride 64, ADD_TID_ENABLE, so lane l's dword p/4 lives at
// base + (p / 4) * 256 + l * 4 (+ p % 4): the same layout FLAT scratch uses.
std::array<uint32_t, 4> makeScratchResource(uint64_t base, uint32_t sizeBytes) {
  std::array<uint32_t, 4> v{};
  v[0] = static_cast<uint32_t>(base);
  v[1] = static_cast<uint32_t>((base >> 32) & 0xffff) | (1u << 31);  // stride 0, swizzle_enable
  v[2] = sizeBytes;
  v[3] = (1u << 19)     // ELEMENT_SIZE = 4 bytes
         | (3u << 21)   // INDEX_STRIDE = 64
         | (1u << 23);  // ADD_TID_ENABLE
  return v;
}

}  // namespace vgpu::isa
