// The loader on input it must refuse: each problem gets one clear vgpu::InputError naming the
// file, and no corruption of a real code object makes it crash, hang or throw anything else.
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <gtest/gtest.h>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "TestFiles.h"
#include "common/Error.h"
#include "loader/CodeObject.h"
#include "loader/KernelListing.h"

namespace vgpu::loader {
namespace {

using test::Bytes;
using test::expectInputError;
using test::kernelPath;

// ELF header field offsets (ELF64).
constexpr size_t kEiClass = 4, kEiData = 5, kEiOsAbi = 7, kEiAbiVersion = 8, kEType = 16,
                 kEMachine = 18, kEPhoff = 32, kEShoff = 40, kEFlags = 48, kEPhentsize = 54,
                 kEShentsize = 58, kEShstrndx = 62;

// The bare OpenCL code object (v4): small, and its header is at offset 0 of the file.
Bytes offsetScale() {
  return test::readFile(kernelPath("offset_scale"));
}

void expectRefused(const Bytes& bytes, const std::vector<std::string>& fragments) {
  std::vector<std::string> all = fragments;
  all.push_back("bad.co");
  expectInputError([&] { CodeObject::fromBytes(bytes, "bad.co"); }, all);
}

// Offset of the NT_AMDGPU_METADATA descriptor inside an ELF (found by its note name).
size_t metadataOffset(const Bytes& elf) {
  const std::string name("AMDGPU\0\0", 8);
  const auto it = std::search(elf.begin(), elf.end(), name.begin(), name.end());
  if (it == elf.end()) throw std::runtime_error("test setup: no AMDGPU note");
  return size_t(it - elf.begin()) + name.size();
}

// Replaces the first occurrence of `from` by `to` (same length, keeps msgpack framing).
void replaceText(Bytes& bytes, const std::string& from, const std::string& to) {
  ASSERT_EQ(from.size(), to.size());
  const Bytes pattern(from.begin(), from.end());  // compare as bytes, not as (signed) chars
  const auto it = std::search(bytes.begin(), bytes.end(), pattern.begin(), pattern.end());
  ASSERT_NE(it, bytes.end()) << from;
  std::copy(to.begin(), to.end(), it);
}

TEST(BadInput, MissingFile) {
  expectInputError([] { CodeObject::loadFile("/nonexistent/dir/k.co"); },
                   {"/nonexistent/dir/k.co", "not found"});
}

TEST(BadInput, Directory) {
  expectInputError([] { CodeObject::loadFile(VGPU_KERNEL_DIR); }, {"is a directory"});
}

// A path that exists but that no process can open, root included: a Unix-domain socket
// (open(2) on a socket file fails with ENXIO whatever the permissions; POSIX open(), Linux
// unix(7)). Permission bits would not do: CI runs as root, which reads any file.
TEST(BadInput, UnopenableFile) {
  const std::string path = ::testing::TempDir() + "vgpu_loader_socket_" + std::to_string(getpid());
  std::remove(path.c_str());
  const int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  ASSERT_LT(path.size(), sizeof address.sun_path);
  std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
  ASSERT_EQ(bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address), 0);
  expectInputError([&] { CodeObject::loadFile(path); }, {path, "cannot open"});
  close(fd);
  std::remove(path.c_str());
}

// A path that opens but cannot be read as a file of known length, for any user: a FIFO (its
// length is unknown and it cannot seek). The test holds it open for writing, so the loader's
// open does not block waiting for a writer.
TEST(BadInput, UnreadableFile) {
  const std::string path = ::testing::TempDir() + "vgpu_loader_fifo_" + std::to_string(getpid());
  std::remove(path.c_str());
  ASSERT_EQ(mkfifo(path.c_str(), 0600), 0);
  const int writer = open(path.c_str(), O_RDWR | O_NONBLOCK);
  ASSERT_GE(writer, 0);
  expectInputError([&] { CodeObject::loadFile(path); }, {path, "cannot read"});
  close(writer);
  std::remove(path.c_str());
}

TEST(BadInput, EmptyFile) {
  test::TempFile file({});
  expectInputError([&] { CodeObject::loadFile(file.path()); }, {file.path(), "file is empty"});
}

TEST(BadInput, NotAnElf) {
  test::TempFile file(Bytes{'#', 'i', 'n', 'c', 'l', 'u', 'd', 'e', ' ', '<'});
  expectInputError(
      [&] { CodeObject::loadFile(file.path()); },
      {file.path(), "neither an ELF file nor a clang offload bundle", "23 69 6e 63 6c 75 64 65"});
  expectRefused({0x7f, 'E', 'L'}, {"neither an ELF file"});
}

TEST(BadInput, TruncatedAtSeveralPoints) {
  const Bytes full = offsetScale();
  auto truncated = [&](size_t length) { return Bytes(full.begin(), full.begin() + length); };
  expectRefused(truncated(10), {"truncated", "identification needs 16 bytes"});
  expectRefused(truncated(40), {"truncated", "ELF header needs 64 bytes", "has 40 bytes"});
  expectRefused(truncated(100), {"program header table", "past the end of the file"});
  expectRefused(truncated(0x700), {"segment", "past the end of the file"});
  // Cut just before the section header table.
  const size_t shoff = size_t(test::get64(full, kEShoff));
  expectRefused(truncated(shoff + 10), {"section header table", "past the end of the file"});
}

TEST(BadInput, CorruptIdentification) {
  Bytes bytes = offsetScale();
  bytes[kEiClass] = 1;
  expectRefused(bytes, {"32-bit ELF"});
  bytes = offsetScale();
  bytes[kEiClass] = 7;
  expectRefused(bytes, {"invalid ELF class 7"});
  bytes = offsetScale();
  bytes[kEiData] = 2;
  expectRefused(bytes, {"big-endian"});
}

TEST(BadInput, WrongMachine) {
  Bytes bytes = offsetScale();
  test::put16(bytes, kEMachine, 62);
  expectRefused(bytes, {"is an ELF for x86-64", "not an AMDGPU code object"});
}

TEST(BadInput, WrongOsAbi) {
  Bytes bytes = offsetScale();
  bytes[kEiOsAbi] = 0;
  expectRefused(bytes, {"OS ABI 0", "ELFOSABI_AMDGPU_HSA"});
  bytes[kEiOsAbi] = 65;
  expectRefused(bytes, {"AMDGPU PAL code object"});
}

TEST(BadInput, OldAndNewCodeObjectVersions) {
  Bytes bytes = offsetScale();
  bytes[kEiAbiVersion] = 0;
  expectRefused(bytes, {"code object v2", "vgpu loads code object v4 and v5"});
  bytes[kEiAbiVersion] = 1;
  expectRefused(bytes, {"code object v3"});
  bytes[kEiAbiVersion] = 4;
  expectRefused(bytes, {"code object v6"});
}

TEST(BadInput, OtherProcessorsAreNamed) {
  Bytes bytes = offsetScale();
  test::put32(bytes, kEFlags, 0x036);
  expectRefused(bytes, {"is a gfx1030 code object; vgpu runs gfx906 and gfx900"});
  test::put32(bytes, kEFlags, 0x0ee);
  expectRefused(bytes, {"unknown processor (EF_AMDGPU_MACH 0xee)"});
}

TEST(BadInput, RelocatableObject) {
  Bytes bytes = offsetScale();
  test::put16(bytes, kEType, 1);
  expectRefused(bytes, {"relocatable object (ET_REL)", "ld.lld"});
}

TEST(BadInput, CorruptHeaderFields) {
  Bytes bytes = offsetScale();
  test::put64(bytes, kEPhoff, 0xffff'ffff'ffff'fff0ull);
  expectRefused(bytes, {"program header table", "past the end of the file"});
  bytes = offsetScale();
  test::put16(bytes, kEPhentsize, 32);
  expectRefused(bytes, {"program header entry size is 32"});
  bytes = offsetScale();
  test::put64(bytes, kEShoff, 1ull << 40);
  expectRefused(bytes, {"section header table", "past the end of the file"});
  bytes = offsetScale();
  test::put16(bytes, kEShentsize, 40);
  expectRefused(bytes, {"section header entry size is 40"});
  bytes = offsetScale();
  test::put16(bytes, kEShstrndx, 200);
  expectRefused(bytes, {"section name table index 200"});
}

TEST(BadInput, HugeSegmentIsRefusedBeforeAllocating) {
  Bytes bytes = offsetScale();
  const size_t phoff = size_t(test::get64(bytes, kEPhoff));
  // Program header 1 is the first PT_LOAD; make its memory size 1 TiB.
  ASSERT_EQ(bytes[phoff + 56], 1u);
  test::put64(bytes, phoff + 56 + 40, 1ull << 40);
  expectRefused(bytes, {"image limit of 256 MiB"});
  // A file size larger than the memory size is corrupt.
  bytes = offsetScale();
  test::put64(bytes, phoff + 56 + 40, 1);
  expectRefused(bytes, {"exceeds memory size"});
}

TEST(BadInput, GarbageMetadata) {
  Bytes bytes = offsetScale();
  bytes[metadataOffset(bytes)] = 0xc1;
  expectRefused(bytes, {"bad AMDGPU metadata note", "invalid type byte 0xc1"});
  bytes = offsetScale();
  bytes[metadataOffset(bytes)] = 0x93;  // the map becomes an array
  expectRefused(bytes, {"bad AMDGPU metadata"});
}

TEST(BadInput, MetadataWithoutRequiredFields) {
  Bytes bytes = offsetScale();
  replaceText(bytes, ".symbol", ".symbox");
  expectRefused(bytes, {"kernel 'offset_scale' has no .symbol"});
  bytes = offsetScale();
  replaceText(bytes, "amdhsa.version", "amdhsa.versiox");
  expectRefused(bytes, {"has no amdhsa.version"});
  bytes = offsetScale();
  replaceText(bytes, ".value_kind", ".value_kinx");
  expectRefused(bytes, {"kernel 'offset_scale' .args[0] has no .value_kind"});
}

TEST(BadInput, MetadataWithWrongTypes) {
  Bytes bytes = offsetScale();
  // ".name" followed by its fixstr value "offset_scale" (0xac): make the value a map of 12.
  replaceText(bytes, std::string(".name\xac", 6), std::string(".name\x8c", 6));
  expectRefused(bytes, {"bad AMDGPU metadata"});
  bytes = offsetScale();
  // .wavefront_size: 64 (fixint 0x40) becomes true (0xc3).
  replaceText(bytes, std::string(".wavefront_size\x40", 16),
              std::string(".wavefront_size\xc3", 16));
  expectRefused(bytes, {"kernel 'offset_scale' .wavefront_size is a bool, expected an unsigned"});
}

TEST(BadInput, DescriptorSymbolMissing) {
  Bytes bytes = offsetScale();
  replaceText(bytes, "offset_scale.kd", "offset_scale.kx");  // first hit: the metadata's .symbol
  expectRefused(bytes, {"descriptor symbol 'offset_scale.kx' is not in the symbol table"});
}

TEST(BadInput, NoMetadataNote) {
  Bytes bytes = offsetScale();
  test::put32(bytes, metadataOffset(bytes) - 12, 33);  // note type 32 -> 33
  expectRefused(bytes, {"no AMDGPU metadata note"});
}

TEST(BadInput, CompressedBundle) {
  expectRefused({'C', 'C', 'O', 'B', 1, 0, 0, 0, 0, 0},
                {"compressed offload bundles are not supported"});
}

TEST(BadInput, BundleWithoutGfx906) {
  const Bytes gfx90a =
      test::elfFromBundle(test::readFile(kernelPath("vector_add_gfx90a")), "gfx90a");
  const Bytes bundle = test::makeBundle({{"host-x86_64-unknown-linux", {}},
                                         {"hipv4-amdgcn-amd-amdhsa--gfx90a", gfx90a},
                                         {"hipv4-amdgcn-amd-amdhsa--gfx1030", gfx90a}});
  expectRefused(bundle, {"has no gfx906 or gfx900 code object",
                         "hipv4-amdgcn-amd-amdhsa--gfx90a, hipv4-amdgcn-amd-amdhsa--gfx1030"});
  const Bytes hostOnly = test::makeBundle({{"host-x86_64-unknown-linux", {}}});
  expectRefused(hostOnly, {"without GPU code objects", "host-x86_64-unknown-linux"});
}

TEST(BadInput, BundleEntryMismatchesItsElf) {
  const Bytes gfx90a =
      test::elfFromBundle(test::readFile(kernelPath("vector_add_gfx90a")), "gfx90a");
  const Bytes bundle = test::makeBundle({{"hipv4-amdgcn-amd-amdhsa--gfx906", gfx90a}});
  expectRefused(bundle,
                {"bundle entry hipv4-amdgcn-amd-amdhsa--gfx906", "is a gfx90a code object"});
}

TEST(BadInput, CorruptBundleTables) {
  const Bytes good = test::readFile(kernelPath("vector_add"));
  Bytes bytes = good;
  test::put64(bytes, 24, 1ull << 60);
  expectRefused(bytes, {"declares 1152921504606846976 entries"});
  bytes = good;
  test::put64(bytes, 24, 0);
  expectRefused(bytes, {"bundle has no entries"});
  bytes = good;
  test::put64(bytes, 32 + 16, 1ull << 62);  // first entry's triple length
  expectRefused(bytes, {"entry 0 has a triple of"});
  bytes = good;
  const size_t second = 32 + 24 + size_t(test::get64(good, 32 + 16));
  test::put64(bytes, second + 8, 1ull << 40);  // second entry's size
  expectRefused(bytes, {"entry 1 (hipv4-amdgcn-amd-amdhsa--gfx906)", "past the end of the file"});
  expectRefused(Bytes(good.begin(), good.begin() + 30), {"truncated clang offload bundle"});
  expectRefused(Bytes(good.begin(), good.begin() + 0x1000), {"past the end of the file"});
}

TEST(BadInput, BundleTriplesWithFeaturesAndOldSpelling) {
  const Bytes elf = test::elfFromBundle(test::readFile(kernelPath("vector_add")), "gfx906");
  for (const char* triple : {"hipv4-amdgcn-amd-amdhsa--gfx906:sramecc+:xnack-",
                             "hip-amdgcn-amd-amdhsa-gfx906", "hip-amdgcn-amd-amdhsa--gfx906"}) {
    const CodeObject co = CodeObject::fromBytes(
        test::makeBundle({{"host-x86_64-unknown-linux", {}}, {triple, elf}}), triple);
    EXPECT_EQ(co.processor(), "gfx906") << triple;
    EXPECT_EQ(co.kernels().at(0).name, "vector_add") << triple;
  }
}

TEST(BadInput, BundleWithBothProcessorsHonoursThePreference) {
  const Bytes gfx906 = test::elfFromBundle(test::readFile(kernelPath("vector_add")), "gfx906");
  const Bytes gfx900 =
      test::elfFromBundle(test::readFile(kernelPath("vector_add_gfx900")), "gfx900");
  const Bytes bundle = test::makeBundle(
      {{"hipv4-amdgcn-amd-amdhsa--gfx900", gfx900}, {"hipv4-amdgcn-amd-amdhsa--gfx906", gfx906}});
  EXPECT_EQ(CodeObject::fromBytes(bundle, "both").processor(), "gfx906");
  EXPECT_EQ(CodeObject::fromBytes(bundle, "both", "gfx900").processor(), "gfx900");
  EXPECT_EQ(CodeObject::fromBytes(bundle, "both", "gfx906").processor(), "gfx906");
  test::TempFile file(bundle);
  EXPECT_EQ(CodeObject::loadFile(file.path(), "gfx900").processor(), "gfx900");
}

TEST(BadInput, EmptyBundleEntry) {
  const Bytes bundle = test::makeBundle({{"hipv4-amdgcn-amd-amdhsa--gfx906", {}}});
  expectRefused(bundle, {"the entry is empty"});
}

// Every truncation of a real code object (bundle and bare ELF) loads or is refused cleanly.
TEST(BadInput, EveryTruncationLoadsOrIsRefused) {
  for (const char* name : {"offset_scale", "vector_add"}) {
    const Bytes full = test::readFile(kernelPath(name));
    for (size_t length = 0; length < full.size(); length += (length < 256 ? 1 : 7)) {
      const Bytes cut(full.begin(), full.begin() + length);
      try {
        CodeObject::fromBytes(cut, "cut.co");
        // A cut inside trailing non-loaded data (e.g. after the last section) may still load.
      } catch (const InputError&) {
      }
    }
  }
}

// Each byte of the headers and tables set to a few hostile values: the loader either loads or
// throws InputError; anything else (crash, other exception, sanitizer report) fails the test.
TEST(BadInput, ByteMutationsNeverCrash) {
  const Bytes original = offsetScale();
  size_t refused = 0, loaded = 0;
  for (size_t i = 0; i < original.size(); ++i) {
    for (uint8_t value : {uint8_t(0x00), uint8_t(0xff), uint8_t(original[i] ^ 0x80)}) {
      if (value == original[i]) continue;
      Bytes bytes = original;
      bytes[i] = value;
      try {
        const CodeObject co = CodeObject::fromBytes(bytes, "mutated.co");
        EXPECT_FALSE(describeKernels(co).empty());
        ++loaded;
      } catch (const InputError&) {
        ++refused;
      }
    }
  }
  EXPECT_GT(refused, 100u);
  EXPECT_GT(loaded, 100u) << "mutations of code bytes and padding still load";
}

}  // namespace
}  // namespace vgpu::loader
