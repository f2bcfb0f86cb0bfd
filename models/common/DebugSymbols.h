// What host software told the GPU, for reports only, about the code it loaded: kernel names by
// kernel-descriptor address, and where code objects were loaded (so that reports can give an
// address as an offset in its code object, as `llvm-objdump -d` and `vgpu-sim disasm` print
// them). Symbols are host knowledge: hardware runs a kernel from its descriptor alone, and so
// does the model; nothing here changes what a kernel does. Filled through Gpu's debug
// interface (Gpu::debugNameKernel, Gpu::debugCodeObjectLoaded).
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "common/Hex.h"

namespace vgpu {

class DebugSymbols {
 public:
  void nameKernel(uint64_t descriptor, std::string name) { names_[descriptor] = std::move(name); }
  void codeObjectLoaded(uint64_t base, uint64_t bytes) { codeObjects_[base] = bytes; }
  void codeObjectUnloaded(uint64_t base) { codeObjects_.erase(base); }

  // The kernel's name, or "<kernel descriptor at 0x...>" when host software gave none.
  std::string kernelName(uint64_t descriptor) const {
    auto it = names_.find(descriptor);
    if (it != names_.end()) return it->second;
    return "<kernel descriptor at " + hex(descriptor) + ">";
  }
  // Where the code object holding `address` was loaded, or 0 if none is known.
  uint64_t codeObjectBase(uint64_t address) const {
    auto it = codeObjects_.upper_bound(address);
    if (it == codeObjects_.begin()) return 0;
    --it;
    return address - it->first < it->second ? it->first : 0;
  }

 private:
  std::map<uint64_t, std::string> names_;
  std::map<uint64_t, uint64_t> codeObjects_;  // base -> bytes
};

}  // namespace vgpu
