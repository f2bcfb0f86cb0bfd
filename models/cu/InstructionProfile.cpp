#include "cu/InstructionProfile.h"

#include <algorithm>
#include <numeric>

namespace vgpu {

const char* stallReasonName(StallReason reason) {
  switch (reason) {
    case StallReason::WaitcntVm:
      return "waitcnt_vm";
    case StallReason::WaitcntLgkm:
      return "waitcnt_lgkm";
    case StallReason::Barrier:
      return "barrier";
    case StallReason::Fetch:
      return "fetch";
    case StallReason::IssueConflict:
      return "issue_conflict";
    case StallReason::ValuBusy:
      return "valu_busy";
  }
  return "?";
}

uint64_t InstructionProfile::Entry::stalled() const {
  return std::accumulate(stallCycles.begin(), stallCycles.end(), uint64_t{0});
}

void InstructionProfile::describe(Entry& e, const isa::Instruction& inst,
                                  const std::string& kernel) const {
  e.kernel = kernel;
  e.disassembly = isa::disassemble(inst, target_);
}

std::vector<InstructionProfile::Entry> InstructionProfile::hottest() const {
  std::vector<Entry> list = entries_;
  std::sort(list.begin(), list.end(), [](const Entry& a, const Entry& b) {
    if (a.issued != b.issued) return a.issued > b.issued;
    const uint64_t sa = a.stalled(), sb = b.stalled();
    if (sa != sb) return sa > sb;
    return a.pc < b.pc;
  });
  return list;
}

uint64_t InstructionProfile::totalIssued() const {
  uint64_t n = 0;
  for (const Entry& e : entries_) n += e.issued;
  return n;
}

}  // namespace vgpu
