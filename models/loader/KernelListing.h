// Human-readable kernel listings: what `vgpu-sim list` prints, and what error messages about a
// wrong kernel name or wrong arguments show so the user sees what the code object expects.
#pragma once

#include <string>

#include "loader/CodeObject.h"

namespace vgpu::loader {

// One line per argument the caller passes (hidden arguments are the runtime's job), e.g.
//   "  [0] a (float*)  global_buffer  8 bytes at offset 0"
// Name and type appear when the metadata has them (OpenCL does; hipcc -O2 omits them).
std::string describeArgs(const KernelInfo& kernel);

// Every kernel of the code object with its explicit arguments, e.g.
//   vector_add: 4 arguments, kernarg segment 28 bytes, LDS 0 bytes, scratch 0 bytes per lane
//     [0] global_buffer  8 bytes at offset 0
//     ...
// Ends with a newline; "(no kernels)" when there are none.
std::string describeKernels(const CodeObject& codeObject);

}  // namespace vgpu::loader
