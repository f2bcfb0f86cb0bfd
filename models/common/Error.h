// Error types shared by every block. The command line maps them to exit codes:
// InputError -> 2 (the user's input is wrong), KernelFault -> 3 (the simulated kernel faulted).
#pragma once

#include <stdexcept>
#include <string>

namespace vgpu {

// Bad user input: a file that is missing or malformed, an unknown kernel, a bad argument.
class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& what) : std::runtime_error(what) {}
};

// The simulated kernel did something the hardware would fault on (illegal instruction, memory
// violation, ...). The message names the wave, PC, encoding and disassembly.
class KernelFault : public std::runtime_error {
 public:
  explicit KernelFault(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace vgpu
