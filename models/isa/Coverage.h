// ISA coverage: every gfx906 opcode the library knows (one row per encoding and opcode), with
// its decode / disassembly / semantics status. Tests add which opcodes they executed.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "isa/Isa.h"

namespace vgpu::isa {

struct OpcodeStatus {
  std::string family;  // "SOP2", "VOP3", "DS", "GLOBAL", ...
  int opcode = 0;
  std::string name;
  bool decoded = true;         // every row is decoded and disassembled (llvm-objdump corpus)
  bool semantics = false;      // has an executor that does not fault by design
  bool graphics = false;       // graphics-only: EXP, screen partition (named exceptions)
  bool notModelled = false;    // decoded, but executing it faults (MIMG sampling, kNotModelled)
  bool gfx906Only = false;     // faults on gfx900
  const OpInfo* op = nullptr;  // identity, for matching executed instructions
};

// All opcodes of every encoding family, in family / opcode order.
std::vector<OpcodeStatus> opcodeTable();

// Markdown report: one line per opcode (family, opcode, name, decode, disassembly, semantics,
// executed without a fault, result checked by), then the totals; `executed` holds the OpInfo of
// every instruction a test ran, `valueChecked` the name of a test that compared the opcode's
// results with expected values ("no value check" for opcodes it does not hold).
// `nonGraphicsMissing` receives the non-graphics opcodes that were not executed (not those
// marked not modelled, which fault by design).
std::string coverageReport(const std::set<const OpInfo*>& executed,
                           const std::map<const OpInfo*, std::string>& valueChecked,
                           std::vector<std::string>* nonGraphicsMissing);

}  // namespace vgpu::isa
