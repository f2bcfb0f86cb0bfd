// Clang offload bundles, the container `hipcc --genco` writes around device code objects
// (clang/docs/ClangOffloadBundler.rst):
//   "__CLANG_OFFLOAD_BUNDLE__"   24-byte magic
//   uint64 entry count
//   per entry: uint64 offset (from the start of the file), uint64 size, uint64 triple length,
//              triple bytes (e.g. "hipv4-amdgcn-amd-amdhsa--gfx906:sramecc+:xnack-")
// All integers are little-endian. Compressed bundles ("CCOB" magic) are recognised only to be
// refused with a clear message.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace vgpu::loader::bundle {

constexpr size_t kMagicSize = 24;

struct Entry {
  uint64_t offset = 0;
  uint64_t size = 0;
  std::string triple;     // as written, "hipv4-amdgcn-amd-amdhsa--gfx906:xnack-"
  std::string kind;       // offload kind before the first '-': "host", "hip", "hipv4", "openmp"
  bool isAmdhsa = false;  // the target triple is amdgcn-amd-amdhsa
  std::string targetId;   // after the triple: "gfx906:xnack-" (empty unless isAmdhsa)
  std::string processor;  // target id without features: "gfx906"
};

bool isBundle(const uint8_t* data, size_t size);
bool isCompressedBundle(const uint8_t* data, size_t size);

// Splits a bundle entry triple into kind, triple and target id (fills all but offset/size).
Entry describeTriple(const std::string& triple);

// Reads the entry table; every entry lies inside the file. Throws vgpu::InputError naming
// `name` on malformed input.
std::vector<Entry> readEntries(const uint8_t* data, size_t size, const std::string& name);

}  // namespace vgpu::loader::bundle
