// The AMDGPU code object metadata (AMDGPUUsage, "Code Object V3 to V5 Metadata"): the
// NT_AMDGPU_METADATA note's msgpack map with amdhsa.version, amdhsa.target and amdhsa.kernels.
// Only what the model needs is kept; unknown keys are ignored, as the format allows.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "loader/CodeObject.h"

namespace vgpu::loader {

// NT_AMDGPU_METADATA: note name "AMDGPU", type 32.
constexpr uint32_t kNoteTypeAmdgpuMetadata = 32;
constexpr char kNoteNameAmdgpu[] = "AMDGPU";

struct CodeObjectMetadata {
  uint64_t versionMajor = 0;  // amdhsa.version: 1.1 for code object v4, 1.2 for v5
  uint64_t versionMinor = 0;
  std::string target;  // amdhsa.target, e.g. "amdgcn-amd-amdhsa--gfx906" (may be empty)
  // Metadata fields filled in; descriptor, addresses and code size are the loader's job.
  std::vector<KernelInfo> kernels;
};

// Parses the note's descriptor bytes. Required per kernel: .name, .symbol,
// .kernarg_segment_size and, per argument, .offset, .size and .value_kind; other fields default.
// Throws vgpu::InputError("<name>: ...") for malformed msgpack or a field of the wrong type.
CodeObjectMetadata parseMetadata(const uint8_t* data, size_t size, const std::string& name);

}  // namespace vgpu::loader
