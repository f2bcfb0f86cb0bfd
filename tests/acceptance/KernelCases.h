// The acceptance kernels (tests/kernels) as test cases: inputs, launch shape and a CPU
// reference for each. Shared by the runtime-API tests and the vgpu-sim command-line tests.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "runtime/Runtime.h"

namespace vgpu::test {

// One kernel argument: a buffer (initial bytes, and whether the test checks it) or a scalar.
struct CaseArg {
  bool isBuffer = true;
  std::vector<uint8_t> bytes;  // buffer contents, or the scalar's bytes
  std::string cliKind;         // scalar kind for --arg (f32, i32, ...)
  std::string cliValue;        // scalar value as text for --arg
  bool checked = false;        // the reference says what it must hold afterwards
};

struct KernelCase {
  std::string name;        // test name
  std::string codeObject;  // file name in the kernel directory
  std::string kernel;
  LaunchConfig launch;
  std::vector<CaseArg> args;
  // Given the inputs, fills `expected` for each checked buffer (same order as args).
  std::function<void(const std::vector<CaseArg>& in, std::vector<std::vector<uint8_t>>& expected)>
      reference;
  // Floating-point results may differ from the CPU reference by this many ulps.
  int ulps = 0;
  bool isFloatOutput = false;
};

std::vector<KernelCase> allKernelCases();
KernelCase kernelCase(const std::string& name);
std::string kernelDir();

// Copies the case's buffers to the device (their addresses in `buffers`, 0 for scalars) and
// returns the launch arguments. Call from the host program.
std::vector<KernelArg> uploadArgs(Runtime& rt, const KernelCase& c, std::vector<uint64_t>& buffers);

// Runs the case through the runtime API on `platform`; returns each buffer's final bytes.
std::vector<std::vector<uint8_t>> runThroughRuntime(const KernelCase& c,
                                                    const std::string& platform);
std::vector<std::vector<uint8_t>> runThroughRuntime(const KernelCase& c,
                                                    const PlatformConfig& platform);
// Compares results against the reference; returns "" when they match, else a description.
std::string checkAgainstReference(const KernelCase& c,
                                  const std::vector<std::vector<uint8_t>>& out);

}  // namespace vgpu::test
