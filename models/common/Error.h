// Error types shared by every block. The command line maps them to exit codes:
// InputError -> 2 (the user's input is wrong), KernelFault -> 3 (the simulated kernel faulted).
#pragma once

#include <cstdint>
#include <optional>
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
// For a memory violation, `refusedAddress` is the first byte the memory refused.
class KernelFault : public std::runtime_error {
 public:
  explicit KernelFault(const std::string& what,
                       std::optional<uint64_t> refusedAddress = std::nullopt)
      : std::runtime_error(what), refusedAddress_(refusedAddress) {}
  std::optional<uint64_t> refusedAddress() const { return refusedAddress_; }

 private:
  std::optional<uint64_t> refusedAddress_;
};

}  // namespace vgpu
