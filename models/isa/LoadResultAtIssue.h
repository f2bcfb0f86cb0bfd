// Whether a load's data may be written to its destination registers when the load issues
// rather than when it completes, with no difference the program can see: a vector-memory load
// and its VGPRs, or a scalar load and its SGPRs.
//
// In timing mode the memory side performs a load when it is sent (loosely timed) and the wave
// sees the data at the load's completion cycle, many cycles later. Keeping the data until then
// costs a request per load in flight, written at issue and read back at completion: on 60 CUs,
// thousands of them, cold in the host's caches by the time they complete. The hardware leaves a
// load's destination VGPRs undefined until s_waitcnt says the load is done (Vega ISA reference
// guide, 4.4 "Data Dependency Resolution": the shader must wait before using the data), so a
// program can tell when the data arrived only by reading or writing those VGPRs before that
// wait. When no instruction in between can, writing the data at issue is the same as writing it
// at completion.
//
// The instructions in between are found by following the program from the load, both ways at
// each conditional branch, up to the first s_waitcnt on each path that guarantees the load has
// completed, or s_endpgm. Vector memory accesses count on VM_CNT and complete in the order they
// were issued (Vega ISA guide 4.4), so vmcnt(n) guarantees a vector load when at least n
// buffer, global or scratch accesses were issued after it on the way; scalar loads return out
// of order, so only lgkmcnt(0) guarantees one. Every instruction on the way must be one whose
// registers are known from its encoding (over-approximated: an operand of unknown width is
// taken as two registers, memory data as four or five, a scalar load's as sixteen), and none
// may touch the destination. Anything that could leave the program's branches (a jump through
// registers, a call, a trap, a halt), index registers through M0 (s_set_gpr_idx_*, s_movrel*,
// S_SETREG of MODE) or name VGPRs beyond what the encoding says (MIMG addresses, exports),
// cannot be decoded, or lies outside the code the caller allows, ends the search with "no"; so
// does a search longer than kLoadResultSearchLimit instructions in all (a loop without the
// wait). The registers the hardware also reads without naming them (VCC, EXEC, M0, the trap
// temporaries) lie above s101: the caller asks only about s0..s101.
#pragma once

#include <cstdint>
#include <functional>

#include "isa/Isa.h"

namespace vgpu::isa {

// The decoded instruction at a PC, or nullptr when there is none to look at.
using InstructionAt = std::function<const Instruction*(uint64_t pc)>;

// The most instructions looked at after the load: the compiler's loads are followed by their
// wait within a few dozen instructions, and a longer search would only cost host time.
constexpr int kLoadResultSearchLimit = 64;
// The most paths waiting to be followed at once (conditional branches not yet taken).
constexpr int kLoadResultPaths = 8;

enum class LoadResult : uint8_t { Vgprs, Sgprs };

// True when no instruction between `load` and the wait that guarantees its completion can read
// or write registers [first, first + count) of the kind `result` says. Only instructions inside
// [codeBegin, codeEnd) are looked at (the caller's limit: the page of code the load's decoded
// entry belongs to).
bool loadResultUnobservedBeforeWait(const Instruction& load, LoadResult result, uint32_t first,
                                    uint32_t count, uint64_t codeBegin, uint64_t codeEnd,
                                    const InstructionAt& at);

// Registers an instruction may read or write, as up to eight ranges [first, first + count).
struct RegisterRanges {
  struct Range {
    uint32_t first = 0, count = 0;
  };
  Range ranges[8];
  int size = 0;
  bool all = false;  // more than eight were added: taken as every register
  void add(uint32_t first, uint32_t count) {
    if (size < 8)
      ranges[size++] = {first, count};
    else
      all = true;
  }
  bool overlaps(uint32_t first, uint32_t count) const;
};
// The VGPRs, or the SGPRs s0..s127, `in` may read or write: a superset of those it names. False
// when they cannot be bounded from the encoding alone.
bool vgprsTouched(const Instruction& in, RegisterRanges& out);
bool sgprsTouched(const Instruction& in, RegisterRanges& out);

}  // namespace vgpu::isa
