// Functional mode: the LDS's executor of DS instructions at issue (isa/DsAtIssue.h), which the
// compute unit hands the ISA through ExecContext::dsAtIssue.
#pragma once

#include "isa/DsAtIssue.h"

namespace vgpu::lds {

// Executes `access` on its LDS bytes by the LDS's element rules (LdsElementRules.h); returns
// whether an atomic changed them.
bool executeAtIssue(const isa::DsAtIssueAccess& access);

}  // namespace vgpu::lds
