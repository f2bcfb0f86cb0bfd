// Shared helpers of the loader tests: where the compiled kernels are, reading them, building
// offload bundles around ELF bytes, and checking InputError messages.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace vgpu::loader::test {

using Bytes = std::vector<uint8_t>;

// ${VGPU_KERNEL_DIR}/NAME.co (the acceptance kernels built by tests/kernels).
std::string kernelPath(const std::string& name);
// reloc_table.co, built by this folder's CMakeLists.txt.
std::string relocKernelPath();

Bytes readFile(const std::string& path);
// A temporary file holding `bytes`; removed by the destructor.
class TempFile {
 public:
  explicit TempFile(const Bytes& bytes, const std::string& suffix = ".co");
  ~TempFile();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// The ELF inside an offload bundle, parsed by hand here so the tests do not depend on the
// bundle reader they test: the entry whose triple contains `processor`.
Bytes elfFromBundle(const Bytes& bundle, const std::string& processor);

// A clang offload bundle with the given (triple, contents) entries, laid out as clang does.
Bytes makeBundle(const std::vector<std::pair<std::string, Bytes>>& entries);

// Little-endian stores into a byte buffer, for corrupting headers.
void put16(Bytes& bytes, size_t offset, uint16_t value);
void put32(Bytes& bytes, size_t offset, uint32_t value);
void put64(Bytes& bytes, size_t offset, uint64_t value);
uint64_t get64(const Bytes& bytes, size_t offset);

// Runs `action`, expects a vgpu::InputError whose message contains every fragment, and returns
// the message ("" and a test failure when nothing or something else was thrown).
std::string expectInputError(const std::function<void()>& action,
                             const std::vector<std::string>& fragments);

}  // namespace vgpu::loader::test
