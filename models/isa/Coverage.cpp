// The coverage table and report (see Coverage.h).
#include "isa/Coverage.h"

#include <algorithm>
#include <cstdio>

#include "isa/OpInfo.h"

namespace vgpu::isa {
namespace {

const char* familyName(const OpInfo& o) {
  switch (o.enc) {
    case Enc::Sop2:
      return "SOP2";
    case Enc::Sopk:
      return "SOPK";
    case Enc::Sop1:
      return "SOP1";
    case Enc::Sopc:
      return "SOPC";
    case Enc::Sopp:
      return "SOPP";
    case Enc::Smem:
      return "SMEM";
    case Enc::Vop2:
      return "VOP2";
    case Enc::Vop1:
      return "VOP1";
    case Enc::Vopc:
      return "VOPC";
    case Enc::Vop3:
      return "VOP3";
    case Enc::Vop3p:
      return "VOP3P";
    case Enc::Vintrp:
      return "VINTRP";
    case Enc::Ds:
      return "DS";
    case Enc::Mubuf:
      return "MUBUF";
    case Enc::Mtbuf:
      return "MTBUF";
    case Enc::Mimg:
      return "MIMG";
    case Enc::Flat:
      return o.mem.segment == 0 ? "FLAT" : (o.mem.segment == 1 ? "SCRATCH" : "GLOBAL");
    case Enc::Exp:
      return "EXP";
    default:
      return "?";
  }
}

}  // namespace

std::vector<OpcodeStatus> opcodeTable() {
  std::vector<OpcodeStatus> rows;
  const OpTable tables[] = {sopTable(),  soppTable(), smemTable(),  valuTable(),
                            vop3Table(), vopcTable(), vop3pTable(), dsTable(),
                            vmemTable(), mimgTable(), interpTable()};
  for (const OpTable& t : tables) {
    for (int i = 0; i < t.count; ++i) {
      const OpInfo& o = t.ops[i];
      OpcodeStatus r;
      r.family = familyName(o);
      r.opcode = o.opcode;
      r.name = o.name;
      r.graphics = (o.flags & kGraphics) != 0;
      r.notModelled = (o.flags & kNotModelled) != 0;
      r.semantics = o.exec != nullptr && !r.graphics && !r.notModelled;
      r.gfx906Only = (o.flags & kGfx906Only) != 0;
      r.op = &o;
      rows.push_back(r);
    }
  }
  std::stable_sort(rows.begin(), rows.end(), [](const OpcodeStatus& a, const OpcodeStatus& b) {
    return a.family != b.family ? a.family < b.family : a.opcode < b.opcode;
  });
  return rows;
}

std::string coverageReport(const std::set<const OpInfo*>& executed,
                           const std::map<const OpInfo*, std::string>& valueChecked,
                           std::vector<std::string>* nonGraphicsMissing) {
  const std::vector<OpcodeStatus> rows = opcodeTable();
  std::string out =
      "# gfx906 ISA coverage\n\n"
      "Decode and disassembly: every row is checked against llvm-objdump-15 by the generated\n"
      "corpus (isa.Disassembly.GeneratedCorpusMatchesLlvmObjdump). Graphics-only opcodes (EXP,\n"
      "v_screen_partition_4se_b32, ds_ordered_count) decode and print but fault when\n"
      "executed; so do opcodes marked \"not modelled\" (none at present). MIMG opcodes execute on\n"
      "linear images; the forms they do not model fault naming what is missing "
      "(docs/images.md).\n\n"
      "\"executed without a fault\": some test ran the opcode and it did not fault (the no-fault\n"
      "sweep, isa.NoFaultSweep.*, runs every opcode of the corpora once; it compares no value).\n"
      "\"result checked by\": a test that compared the opcode's results with values worked out\n"
      "independently of the model (from the ISA guide's definition), or \"no value check\".\n\n"
      "| family | opcode | mnemonic | decode | disasm | semantics | executed without a fault | "
      "result checked by |\n"
      "|---|---|---|---|---|---|---|---|\n";
  int total = 0, graphics = 0, notModelled = 0, withSemantics = 0, run = 0, nonGraphics = 0,
      nonGraphicsRun = 0;
  int nonGraphicsChecked = 0;
  char buf[512];
  for (const OpcodeStatus& r : rows) {
    const bool ran = executed.count(r.op) != 0;
    const auto checked = valueChecked.find(r.op);
    const std::string checkedBy =
        checked == valueChecked.end() ? "no value check" : "`" + checked->second + "`";
    ++total;
    graphics += r.graphics;
    notModelled += r.notModelled;
    withSemantics += r.semantics;
    run += ran;
    if (!r.graphics) {
      ++nonGraphics;
      nonGraphicsRun += ran;
      nonGraphicsChecked += checked != valueChecked.end();
      if (!ran && !r.notModelled && nonGraphicsMissing)
        nonGraphicsMissing->push_back(r.family + " " + r.name);
    }
    std::snprintf(buf, sizeof buf, "| %s | 0x%x | %s%s | yes | yes | %s | %s | %s |\n",
                  r.family.c_str(), r.opcode, r.name.c_str(), r.gfx906Only ? " (gfx906 only)" : "",
                  r.graphics      ? "graphics-only (faults)"
                  : r.notModelled ? "not modelled (faults)"
                  : r.semantics   ? "yes"
                                  : "no",
                  ran ? "yes" : "no", checkedBy.c_str());
    out += buf;
  }
  std::snprintf(
      buf, sizeof buf,
      "\nTotals: %d opcodes, %d graphics-only, %d not modelled; %d with semantics; %d "
      "executed by a test; non-graphics executed without a fault: %d / %d (%.1f%%); non-graphics "
      "with a value check: %d / %d (%.1f%%)\n",
      total, graphics, notModelled, withSemantics, run, nonGraphicsRun, nonGraphics,
      nonGraphics ? 100.0 * nonGraphicsRun / nonGraphics : 0.0, nonGraphicsChecked, nonGraphics,
      nonGraphics ? 100.0 * nonGraphicsChecked / nonGraphics : 0.0);
  out += buf;
  return out;
}

}  // namespace vgpu::isa
