// Program flow control: SOPP (Vega ISA guide ch. 4 "Program Flow Control";
// opcodes 12.6). Branches, s_waitcnt, s_barrier, s_endpgm, s_sleep/s_nop, messages, traps.
#include <cstdio>

#include "isa/EncodingFields.h"
#include "isa/Operands.h"

namespace vgpu::isa {
namespace {

void advance(ExecArgs& x) {
  x.w.pc += x.in.sizeBytes;
}

void branchIf(ExecArgs& x, bool taken) {
  if (taken) {
    x.w.pc = branchTarget(x.w.pc, x.in.f[fld::kExt0]);
  } else {
    advance(x);
  }
}

void waitcnt(ExecArgs& x) {
  const WaitcntFields c = waitcntFields(x.in.f[fld::kExt0]);
  x.r.kind = StepKind::Waitcnt;
  x.r.vmcnt = c.vm;
  x.r.expcnt = c.exp;
  x.r.lgkmcnt = c.lgkm;
  advance(x);
}

void trap(ExecArgs& x) {
  const uint32_t id = x.in.f[fld::kExt0] & 0xff;
  advance(x);
  if (x.w.tba == 0) {
    x.r.kind = StepKind::Trap;
    x.r.trapId = id;
    return;
  }
  x.w.ttmp[0] = static_cast<uint32_t>(x.w.pc);
  x.w.ttmp[1] = static_cast<uint32_t>((x.w.pc >> 32) & 0xffff) | (id << 16);
  x.w.pc = x.w.tba;
}

OpInfo sopp(int opcode, const char* name, ExecFn fn, IssueType issue = IssueType::Branch,
            uint32_t flags = 0) {
  OpInfo o;
  o.name = name;
  o.enc = Enc::Sopp;
  o.opcode = static_cast<int16_t>(opcode);
  o.exec = fn;
  o.issue = issue;
  o.flags = flags;
  return o;
}

void sendmsgHalt(ExecArgs& x) {
  char text[128];
  std::snprintf(text, sizeof text,
                "wave halted by s_sendmsghalt after sending message 0x%x with M0 = 0x%x (no "
                "debugger to resume it)",
                static_cast<unsigned>(x.in.f[fld::kExt0]), static_cast<unsigned>(x.w.m0));
  x.r.kind = StepKind::Halt;
  x.r.fault = text;
  advance(x);
}

#define FN(...) [](ExecArgs& x) { __VA_ARGS__; }

const OpInfo kSoppOps[] = {
    // s_nop N waits N+1 cycles (12.6).
    sopp(0x00, "s_nop",
         FN(x.r.kind = StepKind::Sleep; x.r.cycles = (x.in.f[fld::kExt0] & 0xf) + 1; advance(x)),
         IssueType::Internal),
    sopp(0x01, "s_endpgm", FN(x.r.kind = StepKind::EndProgram), IssueType::Internal),
    sopp(0x02, "s_branch", FN(branchIf(x, true))),
    sopp(0x03, "s_wakeup", FN(advance(x)), IssueType::Internal, kNoOperands),
    sopp(0x04, "s_cbranch_scc0", FN(branchIf(x, !x.w.scc))),
    sopp(0x05, "s_cbranch_scc1", FN(branchIf(x, x.w.scc))),
    sopp(0x06, "s_cbranch_vccz", FN(branchIf(x, x.w.vcc == 0))),
    sopp(0x07, "s_cbranch_vccnz", FN(branchIf(x, x.w.vcc != 0))),
    sopp(0x08, "s_cbranch_execz", FN(branchIf(x, x.w.exec == 0))),
    sopp(0x09, "s_cbranch_execnz", FN(branchIf(x, x.w.exec != 0))),
    sopp(0x0a, "s_barrier", FN(x.r.kind = StepKind::Barrier; advance(x)), IssueType::Internal,
         kNoOperands),
    sopp(0x0b, "s_setkill", FN(advance(x)), IssueType::Internal),
    sopp(0x0c, "s_waitcnt", FN(waitcnt(x)), IssueType::Internal),
    // s_sethalt 1 halts the wave until a debugger resumes it; there is none in the model.
    sopp(0x0d, "s_sethalt", FN(if (x.in.f[fld::kExt0] & 1) {
           x.r.kind = StepKind::Halt;
           x.r.fault = "wave halted by s_sethalt (no debugger to resume it)";
         } advance(x)),
         IssueType::Internal),
    // s_sleep N sleeps about 64 * N cycles (12.6).
    sopp(0x0e, "s_sleep",
         FN(x.r.kind = StepKind::Sleep; x.r.cycles = 64 * (x.in.f[fld::kExt0] & 0x7f); advance(x)),
         IssueType::Internal),
    sopp(0x0f, "s_setprio", FN(advance(x)), IssueType::Internal),
    sopp(0x10, "s_sendmsg",
         FN(x.r.kind = StepKind::Message; x.r.message = x.in.f[fld::kExt0];
            x.r.messageData = x.w.m0; advance(x)),
         IssueType::Message),
    // s_sendmsghalt (12.6): s_sendmsg, then the wave halts until a debugger resumes it. There
    // is none in the model: as after s_sethalt 1 the sequencer stops the wave as a fault (the
    // message, with the M0 data it carried, named in it), so a dispatch never waits for it.
    sopp(0x11, "s_sendmsghalt", FN(sendmsgHalt(x)), IssueType::Message),
    // s_trap (4.5, 12.6): with a trap handler (TBA != 0) {TTMP1, TTMP0} = {trapID[7:0] at
    // [23:16] of TTMP1, PC[47:0]} where PC is the next instruction (s_rfe returns past the
    // s_trap), then PC = TBA. Without a handler the sequencer gets StepKind::Trap.
    sopp(0x12, "s_trap", FN(trap(x)), IssueType::Internal),
    sopp(0x13, "s_icache_inv", FN(advance(x)), IssueType::Internal, kNoOperands),
    sopp(0x14, "s_incperflevel", FN(advance(x)), IssueType::Internal),
    sopp(0x15, "s_decperflevel", FN(advance(x)), IssueType::Internal),
    sopp(0x16, "s_ttracedata", FN(advance(x)), IssueType::Internal, kNoOperands),
    // No debugger is attached: the cdbg conditions are false.
    sopp(0x17, "s_cbranch_cdbgsys", FN(branchIf(x, false))),
    sopp(0x18, "s_cbranch_cdbguser", FN(branchIf(x, false))),
    sopp(0x19, "s_cbranch_cdbgsys_or_user", FN(branchIf(x, false))),
    sopp(0x1a, "s_cbranch_cdbgsys_and_user", FN(branchIf(x, false))),
    sopp(0x1b, "s_endpgm_saved", FN(x.r.kind = StepKind::EndProgram), IssueType::Internal,
         kNoOperands),
    // Pixel-shader end with the ordered-PS-done message: a compute wave simply ends.
    sopp(0x1e, "s_endpgm_ordered_ps_done", FN(x.r.kind = StepKind::EndProgram), IssueType::Internal,
         kNoOperands),
    sopp(0x1c, "s_set_gpr_idx_off", FN(x.w.mode &= ~(1u << 27); advance(x)), IssueType::Internal,
         kNoOperands),
    sopp(0x1d, "s_set_gpr_idx_mode",
         FN(x.w.m0 = (x.w.m0 & ~0xf000u) | ((x.in.f[fld::kExt0] & 0xfu) << 12); advance(x)),
         IssueType::Internal),
};
#undef FN

}  // namespace

OpTable soppTable() {
  return {kSoppOps, static_cast<int>(sizeof(kSoppOps) / sizeof(kSoppOps[0]))};
}

}  // namespace vgpu::isa
