// Code loaded into device memory, decoded once. The runtime registers each code object's
// address range after copying it to the device; the command processor finds the decoded
// program of a dispatched kernel here (principle 3 of DESIGN.md: decode once).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "isa/Isa.h"

namespace vgpu {

class CodeRegistry {
 public:
  void add(uint64_t base, uint64_t size, std::shared_ptr<const isa::Program> program) {
    regions_[base] = {size, std::move(program)};
  }
  void remove(uint64_t base) { regions_.erase(base); }
  // Kernel names by kernel-descriptor address, for messages and statistics.
  void nameKernel(uint64_t descriptor, std::string name) { names_[descriptor] = std::move(name); }
  std::string kernelName(uint64_t descriptor) const {
    auto it = names_.find(descriptor);
    return it == names_.end() ? std::string("<unnamed kernel>") : it->second;
  }
  // Where the code object holding `address` was loaded (0 if none): addresses minus this are
  // the offsets `vgpu-sim disasm` prints.
  uint64_t regionBase(uint64_t address) const {
    auto it = regions_.upper_bound(address);
    if (it == regions_.begin()) return 0;
    --it;
    return address - it->first < it->second.size ? it->first : 0;
  }
  // The program whose region holds `address`, or nullptr.
  const isa::Program* find(uint64_t address) const {
    auto it = regions_.upper_bound(address);
    if (it == regions_.begin()) return nullptr;
    --it;
    return address - it->first < it->second.size ? it->second.program.get() : nullptr;
  }

 private:
  struct Region {
    uint64_t size;
    std::shared_ptr<const isa::Program> program;
  };
  std::map<uint64_t, Region> regions_;
  std::map<uint64_t, std::string> names_;
};

}  // namespace vgpu
