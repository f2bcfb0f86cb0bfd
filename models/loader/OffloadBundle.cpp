#include "loader/OffloadBundle.h"

#include <cstring>

#include "common/Error.h"
#include "loader/ByteOrder.h"
#include "loader/Elf.h"

namespace vgpu::loader::bundle {

namespace {
constexpr char kMagic[] = "__CLANG_OFFLOAD_BUNDLE__";
constexpr char kCompressedMagic[] = "CCOB";
constexpr char kAmdhsaTriple[] = "amdgcn-amd-amdhsa";
constexpr size_t kEntryHeaderSize = 24;  // offset, size, triple length
}  // namespace

bool isBundle(const uint8_t* data, size_t size) {
  return size >= kMagicSize && std::memcmp(data, kMagic, kMagicSize) == 0;
}

bool isCompressedBundle(const uint8_t* data, size_t size) {
  return size >= 4 && std::memcmp(data, kCompressedMagic, 4) == 0;
}

Entry describeTriple(const std::string& triple) {
  Entry entry;
  entry.triple = triple;
  const size_t dash = triple.find('-');
  entry.kind = triple.substr(0, dash);
  if (dash == std::string::npos) return entry;
  const std::string rest = triple.substr(dash + 1);
  const size_t tripleLength = sizeof kAmdhsaTriple - 1;
  if (rest.compare(0, tripleLength, kAmdhsaTriple) != 0) return entry;
  // "amdgcn-amd-amdhsa--gfx906" (4-part triple, empty environment) is what clang writes now;
  // "amdgcn-amd-amdhsa-gfx906" is the older 3-part form.
  std::string targetId = rest.substr(tripleLength);
  if (targetId.rfind("--", 0) == 0) {
    targetId.erase(0, 2);
  } else if (targetId.rfind("-", 0) == 0) {
    targetId.erase(0, 1);
  } else {
    return entry;  // e.g. "amdgcn-amd-amdhsax": a different triple
  }
  entry.isAmdhsa = true;
  entry.targetId = targetId;
  entry.processor = targetId.substr(0, targetId.find(':'));
  return entry;
}

std::vector<Entry> readEntries(const uint8_t* data, size_t size, const std::string& name) {
  auto fail = [&](const std::string& problem) -> void { throw InputError(name + ": " + problem); };
  if (size < kMagicSize + 8) {
    fail("truncated clang offload bundle: " + std::to_string(size) +
         " bytes, too few for the bundle header");
  }
  const uint64_t count = readLE64(data + kMagicSize);
  size_t pos = kMagicSize + 8;
  if (count == 0) fail("clang offload bundle has no entries");
  if (count > (size - pos) / kEntryHeaderSize) {
    fail("truncated or corrupt clang offload bundle: it declares " + std::to_string(count) +
         " entries but the file has room for at most " +
         std::to_string((size - pos) / kEntryHeaderSize));
  }
  std::vector<Entry> entries;
  entries.reserve(size_t(count));
  for (uint64_t i = 0; i < count; ++i) {
    const std::string which = "clang offload bundle entry " + std::to_string(i);
    if (!fitsIn(pos, kEntryHeaderSize, size)) {
      fail("truncated clang offload bundle: " + which + " header is past the end of the file");
    }
    const uint64_t offset = readLE64(data + pos);
    const uint64_t entrySize = readLE64(data + pos + 8);
    const uint64_t tripleLength = readLE64(data + pos + 16);
    pos += kEntryHeaderSize;
    if (!fitsIn(pos, tripleLength, size)) {
      fail("truncated or corrupt clang offload bundle: " + which + " has a triple of " +
           std::to_string(tripleLength) + " bytes past the end of the file");
    }
    Entry entry = describeTriple(
        std::string(reinterpret_cast<const char*>(data + pos), size_t(tripleLength)));
    pos += size_t(tripleLength);
    if (!fitsIn(offset, entrySize, size)) {
      fail("truncated or corrupt clang offload bundle: " + which + " (" + entry.triple + ") has " +
           std::to_string(entrySize) + " bytes at offset " + elf::hex(offset) +
           ", past the end of the file (" + std::to_string(size) + " bytes)");
    }
    entry.offset = offset;
    entry.size = entrySize;
    entries.push_back(std::move(entry));
  }
  return entries;
}

}  // namespace vgpu::loader::bundle
