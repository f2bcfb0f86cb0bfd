// Functional mode: a DS instruction on the LDS, described for execution at issue. execDs
// (isa/Ds.cpp) decodes the instruction (registers, the read2/write2 offsets) and hands this
// description to ExecContext::dsAtIssue, which the compute unit points at the LDS's executor
// (lds/LdsAtIssue.cpp); that one moves the data between the VGPRs and the workgroup's LDS bytes
// by the LDS's element rules (lds/LdsElementRules.h), as the LDS block does for a MemRequest.
#pragma once

#include <cstdint>

#include "isa/OpInfo.h"
#include "isa/WaveState.h"

namespace vgpu::isa {

struct DsAtIssueAccess {
  const MemDesc& m;    // operation, element size and count, extension, atomic, returns data
  WaveState& w;        // the wave (exec, VGPRs)
  uint64_t offset[2];  // byte offset of each element from the lane's address (read2: two)
  int addrReg, vdst, data0, data1;
  bool twoData;      // a second data operand (ds_cmpst, ds_mskor, ds_wrap)
  uint8_t* lds;      // the workgroup's LDS bytes
  uint64_t ldsSize;  // and how many
};

// Executes `access` on its LDS bytes, writing returned data to its VGPRs (ExecContext); returns
// whether an atomic changed the LDS.
using DsAtIssueFn = bool (*)(const DsAtIssueAccess& access);

}  // namespace vgpu::isa
