// Public interface of the ISA library: decode a code object's text once, disassemble, and
// execute one instruction on a wave. Everything here is plain C++; the compute unit
// (models/cu) drives it and carries MemRequests over TLM.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "isa/MemRequest.h"
#include "isa/WaveState.h"

namespace vgpu::isa {

// Which CU pipeline an instruction issues to (the issue arbiter allows one of each per cycle).
enum class IssueType : uint8_t { Salu, Valu, Vmem, Smem, Lds, Branch, Message, Internal };

// What slows a VALU instruction below full rate, as bits: the compute unit turns them into
// cycles with the platform's rate divisors. Decided once per opcode, at decode.
enum ValuRate : uint8_t {
  kValuFullRate = 0,
  kValuFp64 = 1,            // double precision: cu.fp64_rate_divisor
  kValuTranscendental = 2,  // exp, log, rcp, rsq, sqrt, sin, cos: cu.transcendental_rate_divisor
  kValuQuarterRateInt = 4,  // 32-bit integer multiplies (the 24-bit forms are full rate)
};

struct OpInfo;           // per-opcode table entry, defined by the implementation
struct DsAtIssueAccess;  // isa/DsAtIssue.h
// What an executor gets (below) and the executor of an instruction.
struct ExecArgs;
using ExecFn = void (*)(ExecArgs&);
// The global wave sync resources (isa/Gws.h).
class GwsState;

// One decoded instruction. Decoded once per address (the GPU's InstructionDecodeCache, or
// Program::decode for a whole text); the hot loop only reads it.
struct Instruction {
  uint64_t pc = 0;                // byte address of the instruction
  uint8_t sizeBytes = 4;          // 4, 8 (or 8/12 with a literal)
  uint32_t words[3] = {0, 0, 0};  // raw encoding (words[sizeBytes/4 ..] unused)
  const OpInfo* op = nullptr;     // nullptr: unknown encoding (disassembles as raw, faults)
  IssueType issue = IssueType::Internal;
  uint8_t valuRate = kValuFullRate;  // ValuRate bits of a VALU instruction
  // Decoded fields used by execute(); meaning defined by the implementation per encoding.
  uint16_t f[12] = {};
  uint32_t literal = 0;
  bool hasLiteral = false;
  // The executor, resolved when the program is decoded: the opcode's own, or one that reports
  // why the instruction cannot execute (unknown encoding, not implemented, gfx906 only).
  ExecFn exec = nullptr;
  const OpInfo* execOp = nullptr;  // what the executor sees as the opcode (a stand-in if none)
  // Also worked out at decode, for the VALU's fast path: every VGPR the instruction names (its
  // destination and sources, pairs included) is below v[vgprLimit], so that one comparison with
  // the wave's allocation checks them all; 0xffff when the fast path does not apply to the
  // instruction's form (DPP, SDWA, modifiers ...).
  uint16_t vgprLimit = 0xffff;
  // Worked out the first time the instruction issues as a load in timing mode (the compute
  // unit, isa/LoadResultAtIssue.h): whether its data may be written to registers
  // [resultFirstRegister, + resultRegisters) at issue. A changed page of code is decoded again,
  // which resets it.
  enum class ResultAtIssue : uint8_t { Unknown, Yes, No };
  mutable ResultAtIssue resultAtIssue = ResultAtIssue::Unknown;
  mutable uint8_t resultRegisters = 0;
  mutable uint16_t resultFirstRegister = 0;
};

// Decodes the one instruction at `pc` whose bytes start at `bytes` (`avail` of them readable,
// at least 4; a longest gfx9 encoding takes 12). Never throws: an unknown word becomes an
// Instruction with op == nullptr. Its executor, VALU rate and VGPR limit are resolved.
Instruction decodeInstruction(const uint8_t* bytes, size_t avail, uint64_t pc, GfxTarget target);
// The longest gfx9 encoding in bytes (64-bit encoding plus a 32-bit literal).
constexpr size_t kMaxInstructionBytes = 12;

// The decoded text of a code object: instructions in address order.
class Program {
 public:
  // Decodes [base, base + bytes.size()) as gfx9 code. Never throws on bad encodings: unknown
  // words become Instructions with op == nullptr.
  static Program decode(const std::vector<uint8_t>& bytes, uint64_t base, GfxTarget target);

  // The instruction starting at `pc`, or nullptr if `pc` is not an instruction boundary.
  const Instruction* at(uint64_t pc) const;
  const std::vector<Instruction>& instructions() const { return insts_; }
  uint64_t base() const { return base_; }
  GfxTarget target() const { return target_; }

 private:
  std::vector<Instruction> insts_;
  std::vector<int32_t> indexOf_;  // (pc - base) / 4 -> index into insts_, -1 if none
  uint64_t base_ = 0;
  GfxTarget target_ = GfxTarget::Gfx906;
};

// Disassembly exactly as llvm-objdump-15 -d --mcpu=gfx906 prints the instruction text
// (mnemonic and operands, no address/encoding comment). Branch targets print as the
// signed word offset, as llvm-objdump does.
std::string disassemble(const Instruction& inst, GfxTarget target);

// What the wave sequencer must do after execute().
enum class StepKind : uint8_t {
  Continue,    // done; PC already advanced
  Memory,      // `mem` filled in: send it; call completeMemory when the response arrives
  Waitcnt,     // block until the counters are <= vmcnt/expcnt/lgkmcnt
  Barrier,     // block until all waves of the workgroup arrive
  EndProgram,  // the wave is finished
  Sleep,       // s_sleep / s_nop: `cycles` idle cycles
  Message,     // s_sendmsg: `message` holds the message id and data
  Trap,        // s_trap: `trapId`; the sequencer decides (handler or fault)
  Fault,       // illegal or unsupported: `fault` explains; the wave must be stopped
  // s_sethalt 1 / s_sendmsghalt: the wave halts until a debugger resumes it (PC past the
  // instruction). With no debugger the sequencer stops it as a fault, `fault` saying why.
  Halt,
  // (added by gws) ds_gws_sema_p / ds_gws_barrier: the wave waits for the device's global wave
  // sync resource `gwsResource` (isa/Gws.h); PC is already past the instruction.
  GwsWait,
  // A memory instruction that execute() completed at issue through ExecContext::directMemory
  // or ExecContext::dsAtIssue (functional mode): its data is in the registers or memory
  // already; `mem` was not touched and there is nothing to send.
  MemoryDone,
};

struct StepResult {
  StepKind kind = StepKind::Continue;
  uint32_t vmcnt = 0, expcnt = 0, lgkmcnt = 0;
  uint32_t cycles = 0;
  uint32_t trapId = 0;
  uint32_t message = 0;
  uint32_t messageData = 0;
  std::string fault;
  // GwsWait: the resource, and for a barrier the generation that must pass (GwsState).
  uint32_t gwsResource = 0;
  bool gwsBarrier = false;
  uint64_t gwsGeneration = 0;
  // MemoryDone: an atomic performed at issue changed memory (MemRequest::atomicChangedMemory
  // says it for one sent as a request). Only set, never cleared, by the executors: the compute
  // unit clears it when it has read it.
  bool atomicChangedMemory = false;
};

// Functional mode: device memory the ISA may read and write directly at issue, without a
// MemRequest (the compute unit implements it with the DMI regions its memory sockets grant).
class DirectMemory {
 public:
  virtual ~DirectMemory() = default;
  // A host pointer to the device bytes [address, address + bytes) of `space` (Vector or
  // Scalar), when one region of host memory holds them all; nullptr otherwise, and the
  // instruction then takes the MemRequest path, which reports faults. The region the last
  // lookup of the space found answers first, without a call.
  uint8_t* map(MemSpace space, uint64_t address, uint64_t bytes) {
    const Region& r = recent_[space == MemSpace::Scalar];
    if (address >= r.start && address <= r.end && bytes <= r.end - address)
      return r.host + (address - r.start);
    return lookup(space, address, bytes);
  }

 protected:
  // A region of device memory [start, end) at host memory `host`.
  struct Region {
    uint64_t start = 1, end = 0;  // none
    uint8_t* host = nullptr;
  };
  // The implementation's lookup; it may remember the region it found with remember().
  virtual uint8_t* lookup(MemSpace space, uint64_t address, uint64_t bytes) = 0;
  void remember(MemSpace space, const Region& region) {
    recent_[space == MemSpace::Scalar] = region;
  }
  // Forget the remembered regions (the memory withdrew a grant).
  void forgetRegions() { recent_[0] = recent_[1] = Region{}; }

 private:
  Region recent_[2];  // Vector, Scalar
};

// s_memrealtime's constant-rate clock, read only when an instruction asks for it: working its
// value out costs a 64-bit division, which a sequencer that set it every cycle paid millions of
// times for an instruction few kernels execute.
class RealtimeClock {
 public:
  virtual uint64_t ticks() const = 0;

 protected:
  ~RealtimeClock() = default;
};

// Per-wave context the sequencer provides to instructions that read machine state.
struct ExecContext {
  GfxTarget target = GfxTarget::Gfx906;
  uint64_t cycle = 0;                // s_memtime
  uint64_t realtime = 0;             // s_memrealtime, where realtimeClock is nullptr
  uint64_t sharedApertureBase = 0;   // src_shared_base << 32 (flat addresses to LDS)
  uint64_t privateApertureBase = 0;  // src_private_base << 32 (flat addresses to scratch)
  uint32_t ldsSize = 0;              // bytes of LDS allocated to the workgroup
  // s_memrealtime's clock, read when it executes (nullptr: it returns `realtime`).
  const RealtimeClock* realtimeClock = nullptr;
  // (added by isa) The workgroup's LDS bytes [0, ldsSize), read synchronously by LDS_DIRECT
  // operands and the parameter-interpolation instructions; nullptr: those read 0.
  const uint8_t* ldsData = nullptr;
  // (added by isa) The device's global data share (GDS), shared by every wave of the GPU: DS
  // instructions with gds=1 execute on it at issue (isa/Ds.cpp); nullptr: they fault.
  uint8_t* gdsData = nullptr;
  uint32_t gdsSize = 0;
  // (added by gws) The device's global wave sync resources (isa/Gws.h), which ds_gws_* use;
  // nullptr: they fault.
  GwsState* gws = nullptr;
  // Functional mode only (nullptr in timing mode, where every access is a MemRequest): plain
  // vector loads and stores and scalar loads whose bytes `directMemory` maps complete at issue
  // (StepKind::MemoryDone).
  DirectMemory* directMemory = nullptr;
  // Functional mode only: the workgroup's LDS bytes (the same as ldsData, writable), and the
  // LDS's executor of DS instructions at issue on them (isa/DsAtIssue.h, lds/LdsAtIssue.cpp);
  // without both, DS instructions become MemRequests.
  uint8_t* ldsAtIssue = nullptr;
  bool (*dsAtIssue)(const DsAtIssueAccess& access) = nullptr;
};

// Everything an executor gets.
struct ExecArgs {
  const Instruction& in;
  const OpInfo& op;
  WaveState& w;
  MemRequest& mem;
  const ExecContext& ctx;
  StepResult& r;
};

// The OpInfo an executor sees for an instruction without one (an unknown encoding).
extern const OpInfo kUnknownOp;

// Executes `inst` on `wave`. For memory instructions fills `mem` and returns Memory; PC is
// advanced (or branched) by execute() in every case except Fault, where it stays at `inst`.
StepResult execute(const Instruction& inst, WaveState& wave, MemRequest& mem,
                   const ExecContext& ctx);

// The same into `r`, for a sequencer that keeps one StepResult from one instruction to the next
// (no StepResult built and destroyed per instruction): only r.kind is set here, the executor
// sets the fields of the kind it returns, so `r` must hold a default StepResult's other fields
// (reset it after any result but Continue and MemoryDone, which set nothing else). `inst`
// comes from Program::decode (its executor resolved) and is the one at the wave's PC.
// Whether MODE.VSKIP skips `inst`: the vector instructions (Vega ISA guide 3.3, MODE.VSKIP:
// "valu, vmem, export, lds, gds"), not scalar, branch or message ones.
inline bool skippedInVskip(const Instruction& inst) {
  return inst.issue == IssueType::Valu || inst.issue == IssueType::Vmem ||
         inst.issue == IssueType::Lds;
}

inline void executeInto(const Instruction& inst, WaveState& wave, MemRequest& mem,
                        const ExecContext& ctx, StepResult& r) {
  r.kind = StepKind::Continue;
  if (__builtin_expect((wave.mode & WaveState::kModeVskip) != 0, 0) && skippedInVskip(inst)) {
    wave.pc += inst.sizeBytes;  // VSKIP: the vector instruction is skipped, not executed
    return;
  }
  ExecArgs args{inst, *inst.execOp, wave, mem, ctx, r};
  inst.exec(args);
  if (r.kind == StepKind::Fault) wave.pc = inst.pc;  // a faulting instruction leaves PC on itself
}

// Writes a completed memory request's returned data into the wave's registers. (A load into the
// LDS has none: the memory side sends its data on to the LDS, ldsWriteOfLoad.)
void completeMemory(WaveState& wave, const MemRequest& mem);

// A load into the LDS (lds=1; its data returned in `load`): the LDS write that puts the data
// there (a dword per lane at M0[15:0] + offset + 4 * lane, Vega ISA guide 8.1), into `write`,
// for the memory side to send to the LDS; false, `write` untouched, for any other request.
// Once sent, the load has nothing left to write back (Writeback::kind 0).
bool ldsWriteOfLoad(const MemRequest& load, MemRequest& write);
// A store whose data is in the LDS (BUFFER_STORE_LDS_DWORD, MemRequest::ldsData): the LDS read
// that fetches it, into `read`, for the memory side to send to the LDS before the store; false
// for any other request. storeDataFromLds then puts the read's data into the store.
bool ldsReadOfStore(const MemRequest& store, MemRequest& read);
void storeDataFromLds(MemRequest& store, const MemRequest& read);

// Encodes a 128-bit buffer resource (V#) for a wave's private segment (scratch) as the
// dispatcher hands it to the kernel in the private segment buffer SGPRs: swizzled, per-lane
// dword interleave (ADD_TID_ENABLE, index stride 64, element size 4), `sizeBytes` records.
std::array<uint32_t, 4> makeScratchResource(uint64_t base, uint32_t sizeBytes);

}  // namespace vgpu::isa
