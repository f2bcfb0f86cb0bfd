#include "TestFiles.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>

#include "common/Error.h"

namespace vgpu::loader::test {

std::string kernelPath(const std::string& name) {
  return std::string(VGPU_KERNEL_DIR) + "/" + name + ".co";
}

std::string relocKernelPath() {
  return std::string(VGPU_LOADER_TEST_KERNEL_DIR) + "/reloc_table.co";
}

Bytes readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("test setup: cannot read " + path);
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

TempFile::TempFile(const Bytes& bytes, const std::string& suffix) {
  std::string pattern = ::testing::TempDir() + "vgpu_loader_XXXXXX" + suffix;
  const int fd = mkstemps(pattern.data(), int(suffix.size()));
  if (fd < 0) throw std::runtime_error("test setup: mkstemps failed");
  if (!bytes.empty() && write(fd, bytes.data(), bytes.size()) != ssize_t(bytes.size())) {
    close(fd);
    throw std::runtime_error("test setup: write failed");
  }
  close(fd);
  path_ = pattern;
}

TempFile::~TempFile() {
  std::remove(path_.c_str());
}

uint64_t get64(const Bytes& bytes, size_t offset) {
  uint64_t value = 0;
  for (int i = 7; i >= 0; --i) value = (value << 8) | bytes.at(offset + i);
  return value;
}

void put16(Bytes& bytes, size_t offset, uint16_t value) {
  for (int i = 0; i < 2; ++i) bytes.at(offset + i) = uint8_t(value >> (8 * i));
}
void put32(Bytes& bytes, size_t offset, uint32_t value) {
  for (int i = 0; i < 4; ++i) bytes.at(offset + i) = uint8_t(value >> (8 * i));
}
void put64(Bytes& bytes, size_t offset, uint64_t value) {
  for (int i = 0; i < 8; ++i) bytes.at(offset + i) = uint8_t(value >> (8 * i));
}

Bytes elfFromBundle(const Bytes& bundle, const std::string& processor) {
  const uint64_t count = get64(bundle, 24);
  size_t pos = 32;
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t offset = get64(bundle, pos), size = get64(bundle, pos + 8);
    const uint64_t tripleLength = get64(bundle, pos + 16);
    const std::string triple(bundle.begin() + pos + 24, bundle.begin() + pos + 24 + tripleLength);
    pos += 24 + tripleLength;
    if (triple.find(processor) != std::string::npos) {
      return Bytes(bundle.begin() + offset, bundle.begin() + offset + size);
    }
  }
  throw std::runtime_error("test setup: no " + processor + " entry in the bundle");
}

Bytes makeBundle(const std::vector<std::pair<std::string, Bytes>>& entries) {
  Bytes out;
  const std::string magic = "__CLANG_OFFLOAD_BUNDLE__";
  out.insert(out.end(), magic.begin(), magic.end());
  out.resize(out.size() + 8);
  put64(out, 24, entries.size());
  std::vector<size_t> offsetFields;
  for (const auto& [triple, contents] : entries) {
    offsetFields.push_back(out.size());
    out.resize(out.size() + 24);
    put64(out, offsetFields.back() + 8, contents.size());
    put64(out, offsetFields.back() + 16, triple.size());
    out.insert(out.end(), triple.begin(), triple.end());
  }
  for (size_t i = 0; i < entries.size(); ++i) {
    out.resize((out.size() + 0xfff) & ~size_t(0xfff));  // clang aligns entries to 4 KiB
    put64(out, offsetFields[i], out.size());
    out.insert(out.end(), entries[i].second.begin(), entries[i].second.end());
  }
  return out;
}

std::string expectInputError(const std::function<void()>& action,
                             const std::vector<std::string>& fragments) {
  try {
    action();
  } catch (const InputError& e) {
    const std::string message = e.what();
    for (const std::string& fragment : fragments) {
      EXPECT_NE(message.find(fragment), std::string::npos)
          << "message lacks '" << fragment << "': " << message;
    }
    return message;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "expected vgpu::InputError, got another exception: " << e.what();
    return "";
  }
  ADD_FAILURE() << "expected vgpu::InputError, nothing was thrown";
  return "";
}

}  // namespace vgpu::loader::test
