// The loader on the real kernels compiled by hipcc and clang-15 (tests/kernels). Expected
// values were read from llvm-readelf-15 --notes/--dyn-syms/-S and the descriptor bytes from
// llvm-objdump-15 -s -j .rodata of the same files.
#include <gtest/gtest.h>

#include "TestFiles.h"
#include "loader/CodeObject.h"

namespace vgpu::loader {
namespace {

using test::kernelPath;

const KernelArg& argWithKind(const KernelInfo& kernel, const std::string& kind) {
  for (const KernelArg& arg : kernel.args) {
    if (arg.valueKind == kind) return arg;
  }
  throw std::runtime_error("no argument of kind " + kind + " in " + kernel.name);
}

void expectArg(const KernelArg& arg, const std::string& kind, uint32_t offset, uint32_t size) {
  EXPECT_EQ(arg.valueKind, kind);
  EXPECT_EQ(arg.offset, offset) << kind;
  EXPECT_EQ(arg.size, size) << kind;
}

TEST(CodeObject, VectorAddHipBundleV4) {
  const CodeObject co = CodeObject::loadFile(kernelPath("vector_add"));
  EXPECT_EQ(co.codeObjectVersion(), 4u);
  EXPECT_EQ(co.processor(), "gfx906");
  EXPECT_EQ(co.target(), "amdgcn-amd-amdhsa--gfx906");
  EXPECT_EQ(co.offloadKind(), "hipv4");  // the bundle entry's "hipv4-amdgcn-amd-amdhsa--gfx906"
  EXPECT_EQ(co.elfFlags(), 0x52fu);      // gfx906, xnack any, sramecc any
  ASSERT_EQ(co.kernels().size(), 1u);
  const KernelInfo& k = co.kernels()[0];
  EXPECT_EQ(k.name, "vector_add");
  EXPECT_EQ(k.symbol, "vector_add.kd");
  ASSERT_EQ(k.args.size(), 4u);
  expectArg(k.args[0], "global_buffer", 0, 8);
  EXPECT_EQ(k.args[0].addressSpace, "global");
  expectArg(k.args[1], "global_buffer", 8, 8);
  expectArg(k.args[2], "global_buffer", 16, 8);
  expectArg(k.args[3], "by_value", 24, 4);
  EXPECT_EQ(k.args[3].addressSpace, "");
  EXPECT_EQ(k.explicitArgs().size(), 4u) << "hipcc v4 drops unused hidden arguments";
  EXPECT_EQ(k.kernargSegmentSize, 28u);
  EXPECT_EQ(k.kernargSegmentAlign, 8u);
  EXPECT_EQ(k.groupSegmentFixedSize, 0u);
  EXPECT_EQ(k.privateSegmentFixedSize, 0u);
  EXPECT_EQ(k.wavefrontSize, 64u);
  EXPECT_EQ(k.sgprCount, 11u);
  EXPECT_EQ(k.vgprCount, 8u);
  EXPECT_EQ(k.maxFlatWorkgroupSize, 1024u);
  EXPECT_FALSE(k.usesDynamicStack);

  EXPECT_EQ(k.descriptorAddress, 0x640u);
  EXPECT_EQ(k.entryAddress, 0x1700u);
  EXPECT_EQ(k.codeSize, 172u);
  EXPECT_EQ(co.textStart(), 0x1700u);
  EXPECT_EQ(co.textEnd(), 0x17acu);

  const KernelDescriptor& d = k.descriptor;
  EXPECT_EQ(d.kernargSize, 28u);
  EXPECT_EQ(d.kernelCodeEntryByteOffset, 0x10c0);
  EXPECT_EQ(d.computePgmRsrc1, 0x00af0041u);
  EXPECT_EQ(d.computePgmRsrc2, 0x90u);
  EXPECT_EQ(d.computePgmRsrc3, 0u);
  EXPECT_EQ(d.kernelCodeProperties, 0x000bu);
  EXPECT_EQ(d.vgprCount(), 8u);
  EXPECT_EQ(d.granulatedSgprCount(), 1u);
  EXPECT_EQ(d.floatMode(), 0xf0u);
  EXPECT_TRUE(d.enableDx10Clamp());
  EXPECT_TRUE(d.enableIeeeMode());
  EXPECT_EQ(d.userSgprCount(), 8u);
  EXPECT_TRUE(d.enableSgprWorkgroupIdX());
  EXPECT_FALSE(d.enableSgprWorkgroupIdY());
  EXPECT_EQ(d.enableVgprWorkitemId(), 0u);
  EXPECT_FALSE(d.enablePrivateSegment());
  EXPECT_TRUE(d.enableSgprPrivateSegmentBuffer());
  EXPECT_TRUE(d.enableSgprDispatchPtr());
  EXPECT_FALSE(d.enableSgprQueuePtr());
  EXPECT_TRUE(d.enableSgprKernargSegmentPtr());
  EXPECT_FALSE(d.enableSgprFlatScratchInit());
  EXPECT_FALSE(d.enableWavefrontSize32());
}

TEST(CodeObject, ImageHoldsTheSegmentsAtTheirAddresses) {
  const CodeObject co = CodeObject::loadFile(kernelPath("vector_add"));
  const test::Bytes elf = test::elfFromBundle(test::readFile(kernelPath("vector_add")), "gfx906");
  // Segments: [0, 0x683) from offset 0, [0x1700, 0x17ac) from 0x700, [0x27b0, 0x2820) from 0x7b0.
  ASSERT_EQ(co.image().size(), 0x2820u);
  EXPECT_TRUE(std::equal(elf.begin(), elf.begin() + 0x683, co.image().begin()));
  EXPECT_TRUE(std::equal(elf.begin() + 0x700, elf.begin() + 0x7ac, co.image().begin() + 0x1700));
  EXPECT_EQ(co.image()[0x1000], 0) << "gap between segments is zero";
  // The first instruction word of the kernel is where the descriptor says.
  EXPECT_EQ(co.image()[co.kernels()[0].entryAddress], elf[0x700]);
  EXPECT_TRUE(co.relocations().empty());
}

TEST(CodeObject, SymbolsComeFromDynsymAndSymtab) {
  const CodeObject co = CodeObject::loadFile(kernelPath("vector_add"));
  const Symbol* function = co.findSymbol("vector_add");
  ASSERT_NE(function, nullptr);
  EXPECT_EQ(function->value, 0x1700u);
  EXPECT_EQ(function->size, 172u);
  EXPECT_EQ(function->type, 2u);  // STT_FUNC
  ASSERT_NE(co.findSymbol("vector_add.kd"), nullptr);
  EXPECT_EQ(co.findSymbol("vector_add.kd")->size, 64u);
  ASSERT_NE(co.findSymbol("_DYNAMIC"), nullptr) << ".symtab-only symbol";
  EXPECT_EQ(co.findSymbol("_DYNAMIC")->value, 0x27b0u);
  EXPECT_EQ(co.findSymbol("nope"), nullptr);
  size_t named = 0;
  for (const Symbol& s : co.symbols()) named += s.name == "vector_add" ? 1 : 0;
  EXPECT_EQ(named, 1u) << "no duplicates from the two tables";
}

TEST(CodeObject, FindKernelByNameOrSymbol) {
  const CodeObject co = CodeObject::loadFile(kernelPath("saxpy"));
  ASSERT_NE(co.findKernel("saxpy"), nullptr);
  EXPECT_EQ(co.findKernel("saxpy.kd"), co.findKernel("saxpy"));
  EXPECT_EQ(co.findKernel("vector_add"), nullptr);
}

class EveryHipKernel : public ::testing::TestWithParam<const char*> {};

TEST_P(EveryHipKernel, EntryIsTheFunctionSymbolInsideText) {
  const std::string name = GetParam();
  const CodeObject co = CodeObject::loadFile(kernelPath(name));
  EXPECT_EQ(co.codeObjectVersion(), 4u);
  EXPECT_EQ(co.processor(), "gfx906");
  const KernelInfo* k = co.findKernel(name);
  ASSERT_NE(k, nullptr);
  const Symbol* function = co.findSymbol(name);
  ASSERT_NE(function, nullptr);
  EXPECT_EQ(k->entryAddress, function->value);
  EXPECT_EQ(k->codeSize, function->size);
  EXPECT_GT(k->codeSize, 0u);
  EXPECT_GE(k->entryAddress, co.textStart());
  EXPECT_LE(k->entryAddress + k->codeSize, co.textEnd());
  EXPECT_EQ(k->entryAddress % 256, 0u) << "kernel entries are 256-byte aligned";
  EXPECT_EQ(k->descriptor.kernargSize, k->kernargSegmentSize);
  EXPECT_EQ(k->descriptor.groupSegmentFixedSize, k->groupSegmentFixedSize);
  EXPECT_EQ(k->descriptor.privateSegmentFixedSize, k->privateSegmentFixedSize);
  EXPECT_GE(k->descriptor.vgprCount(), k->vgprCount);
  EXPECT_TRUE(k->descriptor.enableSgprKernargSegmentPtr());
}

INSTANTIATE_TEST_SUITE_P(Kernels, EveryHipKernel,
                         ::testing::Values("vector_add", "saxpy", "block_reduce", "matmul_tiled",
                                           "histogram", "collatz", "private_array"));

TEST(CodeObject, BlockReduceUsesLds) {
  const CodeObject co = CodeObject::loadFile(kernelPath("block_reduce"));
  const KernelInfo& k = co.kernels().at(0);
  EXPECT_EQ(k.groupSegmentFixedSize, 1024u);
  EXPECT_EQ(k.descriptor.groupSegmentFixedSize, 1024u);
  EXPECT_EQ(k.descriptor.kernelCodeProperties, 0x09u);
  EXPECT_EQ(k.descriptor.computePgmRsrc2, 0x8cu);
  EXPECT_EQ(k.descriptorAddress, 0x5c0u);
  EXPECT_EQ(k.entryAddress, 0x1700u);
  EXPECT_EQ(k.codeSize, 580u);
}

TEST(CodeObject, PrivateArrayUsesScratch) {
  const CodeObject co = CodeObject::loadFile(kernelPath("private_array"));
  const KernelInfo& k = co.kernels().at(0);
  EXPECT_EQ(k.privateSegmentFixedSize, 272u);
  EXPECT_EQ(k.descriptor.privateSegmentFixedSize, 272u);
  EXPECT_TRUE(k.descriptor.enablePrivateSegment());
  EXPECT_TRUE(k.descriptor.enableSgprFlatScratchInit());
  EXPECT_EQ(k.descriptor.kernelCodeProperties, 0x2bu);
  EXPECT_EQ(k.descriptor.userSgprCount(), 10u);
}

TEST(CodeObject, MatmulTiledV5) {
  const CodeObject co = CodeObject::loadFile(kernelPath("matmul_tiled_v5"));
  EXPECT_EQ(co.codeObjectVersion(), 5u);
  const KernelInfo& k = co.kernels().at(0);
  EXPECT_EQ(k.name, "matmul_tiled");
  EXPECT_EQ(k.groupSegmentFixedSize, 2048u);
  EXPECT_EQ(k.descriptor.computePgmRsrc2, 0x98cu);
  EXPECT_TRUE(k.descriptor.enableSgprWorkgroupIdY());
  EXPECT_EQ(k.descriptor.enableVgprWorkitemId(), 1u);  // X and Y
  EXPECT_EQ(k.entryAddress, 0x4900u);
  EXPECT_EQ(k.codeSize, 488u);
}

TEST(CodeObject, VectorAddV5HasV5HiddenArguments) {
  const CodeObject co = CodeObject::loadFile(kernelPath("vector_add_v5"));
  EXPECT_EQ(co.codeObjectVersion(), 5u);
  EXPECT_EQ(co.processor(), "gfx906");
  const KernelInfo& k = co.kernels().at(0);
  EXPECT_EQ(k.kernargSegmentSize, 288u);
  EXPECT_EQ(k.descriptor.kernargSize, 288u);
  EXPECT_EQ(k.args.size(), 21u);
  EXPECT_EQ(k.explicitArgs().size(), 4u);
  // The explicit by_value int ends at 28; hidden arguments start at the next 8-byte boundary.
  expectArg(argWithKind(k, "hidden_block_count_x"), "hidden_block_count_x", 32, 4);
  expectArg(argWithKind(k, "hidden_block_count_z"), "hidden_block_count_z", 40, 4);
  expectArg(argWithKind(k, "hidden_group_size_x"), "hidden_group_size_x", 44, 2);
  expectArg(argWithKind(k, "hidden_remainder_z"), "hidden_remainder_z", 54, 2);
  expectArg(argWithKind(k, "hidden_global_offset_x"), "hidden_global_offset_x", 72, 8);
  expectArg(argWithKind(k, "hidden_grid_dims"), "hidden_grid_dims", 96, 2);
  expectArg(argWithKind(k, "hidden_hostcall_buffer"), "hidden_hostcall_buffer", 112, 8);
  expectArg(argWithKind(k, "hidden_heap_v1"), "hidden_heap_v1", 128, 8);
  expectArg(argWithKind(k, "hidden_queue_ptr"), "hidden_queue_ptr", 232, 8);
  EXPECT_TRUE(argWithKind(k, "hidden_queue_ptr").isHidden());
  EXPECT_EQ(k.entryAddress, 0x4c00u);
  EXPECT_EQ(k.entryAddress, co.findSymbol("vector_add")->value);
  EXPECT_EQ(k.descriptor.kernelCodeEntryByteOffset, 0x41c0);
  EXPECT_EQ(k.descriptor.kernelCodeProperties, 0x09u) << "v5: no dispatch pointer SGPRs";
}

TEST(CodeObject, OffsetScaleOpenClV4) {
  const CodeObject co = CodeObject::loadFile(kernelPath("offset_scale"));
  EXPECT_EQ(co.codeObjectVersion(), 4u);
  EXPECT_EQ(co.offloadKind(), "");  // clang's OpenCL output: a raw ELF
  EXPECT_EQ(co.processor(), "gfx906");
  const KernelInfo& k = co.kernels().at(0);
  EXPECT_EQ(k.name, "offset_scale");
  EXPECT_EQ(k.maxFlatWorkgroupSize, 256u);
  ASSERT_EQ(k.args.size(), 10u);
  EXPECT_EQ(k.args[0].typeName, "float*");
  EXPECT_EQ(k.args[2].typeName, "float");
  expectArg(k.args[2], "by_value", 16, 4);
  // v4 hidden arguments: global offsets then hidden_none placeholders.
  expectArg(k.args[3], "hidden_global_offset_x", 24, 8);
  expectArg(k.args[5], "hidden_global_offset_z", 40, 8);
  expectArg(k.args[6], "hidden_none", 48, 8);
  EXPECT_EQ(k.explicitArgs().size(), 3u);
  EXPECT_EQ(k.kernargSegmentSize, 80u);
  EXPECT_EQ(k.entryAddress, 0x1800u);
  EXPECT_EQ(k.codeSize, 164u);
}

TEST(CodeObject, OffsetScaleOpenClV5) {
  const CodeObject co = CodeObject::loadFile(kernelPath("offset_scale_v5"));
  EXPECT_EQ(co.codeObjectVersion(), 5u);
  const KernelInfo& k = co.kernels().at(0);
  expectArg(argWithKind(k, "hidden_block_count_x"), "hidden_block_count_x", 24, 4);
  expectArg(argWithKind(k, "hidden_global_offset_x"), "hidden_global_offset_x", 64, 8);
  expectArg(argWithKind(k, "hidden_grid_dims"), "hidden_grid_dims", 88, 2);
  EXPECT_EQ(k.kernargSegmentSize, 280u);
  EXPECT_EQ(k.explicitArgs().size(), 3u);
  EXPECT_EQ(k.entryAddress, 0x1900u);
}

TEST(CodeObject, Gfx900Bundles) {
  const CodeObject va = CodeObject::loadFile(kernelPath("vector_add_gfx900"));
  EXPECT_EQ(va.processor(), "gfx900");
  EXPECT_EQ(va.target(), "amdgcn-amd-amdhsa--gfx900");
  EXPECT_EQ(va.elfFlags(), 0x12cu);
  EXPECT_EQ(va.kernels().at(0).entryAddress, 0x1700u);
  const CodeObject br = CodeObject::loadFile(kernelPath("block_reduce_gfx900"));
  EXPECT_EQ(br.processor(), "gfx900");
  EXPECT_EQ(br.kernels().at(0).groupSegmentFixedSize, 1024u);
}

TEST(CodeObject, Gfx90aIsRejectedByName) {
  const std::string path = kernelPath("vector_add_gfx90a");
  test::expectInputError([&] { CodeObject::loadFile(path); },
                         {path, "is a gfx90a code object; vgpu runs gfx906 and gfx900",
                          "hipv4-amdgcn-amd-amdhsa--gfx90a"});
  // The bare ELF inside is refused by its e_flags too.
  const test::Bytes elf = test::elfFromBundle(test::readFile(path), "gfx90a");
  test::expectInputError([&] { CodeObject::fromBytes(elf, "k.elf"); },
                         {"k.elf: is a gfx90a code object; vgpu runs gfx906 and gfx900"});
}

TEST(CodeObject, FromBytesMatchesLoadFile) {
  const test::Bytes bytes = test::readFile(kernelPath("histogram"));
  const CodeObject a = CodeObject::fromBytes(bytes, "histogram");
  const CodeObject b = CodeObject::loadFile(kernelPath("histogram"));
  EXPECT_EQ(a.image(), b.image());
  EXPECT_EQ(a.kernels().at(0).entryAddress, b.kernels().at(0).entryAddress);
  EXPECT_EQ(a.kernels().at(0).groupSegmentFixedSize, 1024u);
}

TEST(CodeObject, BareElfFromABundleLoadsTheSame) {
  const test::Bytes elf = test::elfFromBundle(test::readFile(kernelPath("collatz")), "gfx906");
  const CodeObject fromElf = CodeObject::fromBytes(elf, "collatz.elf");
  const CodeObject fromBundle = CodeObject::loadFile(kernelPath("collatz"));
  EXPECT_EQ(fromElf.image(), fromBundle.image());
  EXPECT_EQ(fromElf.kernels().at(0).name, "collatz");
  EXPECT_EQ(fromElf.offloadKind(), "");  // a raw ELF says nothing of the language
  EXPECT_EQ(fromBundle.offloadKind(), "hipv4");
}

TEST(CodeObject, RelativeRelocationsAreListedAndApplied) {
  const CodeObject co = CodeObject::loadFile(test::relocKernelPath());
  const Symbol* table = co.findSymbol("table");
  const Symbol* pointers = co.findSymbol("global_ptrs");
  ASSERT_NE(table, nullptr);
  ASSERT_NE(pointers, nullptr);
  ASSERT_EQ(co.relocations().size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    const CodeObject::Relocation& r = co.relocations()[i];
    EXPECT_EQ(r.type, CodeObject::Relocation::kRelative64);
    EXPECT_EQ(r.width(), 8u);
    EXPECT_EQ(r.offset, pointers->value + 8 * i);
    EXPECT_EQ(r.symbol, "");
    EXPECT_EQ(uint64_t(r.addend), table->value + (i == 0 ? 4 : 12));  // &table[1], &table[3]
  }
  const uint64_t base = 0x7f0000000000ull;
  const std::vector<uint8_t> image = co.relocatedImage(base);
  ASSERT_EQ(image.size(), co.image().size());
  test::Bytes copy(image.begin(), image.end());
  EXPECT_EQ(test::get64(copy, pointers->value), base + table->value + 4);
  EXPECT_EQ(test::get64(copy, pointers->value + 8), base + table->value + 12);
  // table itself is data, untouched: {10, 20, 30, 40}.
  EXPECT_EQ(copy[table->value + 4], 20);
  EXPECT_EQ(co.kernels().at(0).name, "reloc_read");
}

TEST(CodeObject, ApplyRelocationFormulas) {
  std::vector<uint8_t> image(32, 0xee);
  CodeObject::Relocation r;
  r.symbolValue = 0x100;
  r.addend = 8;
  const uint64_t base = 0x1'0000'0000ull;
  r.type = CodeObject::Relocation::kAbs64;
  r.offset = 0;
  CodeObject::applyRelocation(r, base, image);
  EXPECT_EQ(test::get64(image, 0), base + 0x108);
  r.type = CodeObject::Relocation::kAbs32Hi;
  r.offset = 8;
  CodeObject::applyRelocation(r, base, image);
  EXPECT_EQ(test::get64(image, 8), 0xeeeeeeee00000001ull) << "4 bytes written, high half";
  r.type = CodeObject::Relocation::kRel32;
  r.offset = 16;
  CodeObject::applyRelocation(r, base, image);
  EXPECT_EQ(test::get64(image, 16) & 0xffffffffu, 0x108u - 16u) << "S + A - P";
  r.type = CodeObject::Relocation::kAbs64;
  r.symbolUndefined = true;  // weak undefined: S = 0
  r.offset = 24;
  CodeObject::applyRelocation(r, base, image);
  EXPECT_EQ(test::get64(image, 24), 8u);
  r.offset = 28;  // 8 bytes at 28 of 32: outside
  test::expectInputError([&] { CodeObject::applyRelocation(r, base, image); },
                         {"cannot be applied"});
}

}  // namespace
}  // namespace vgpu::loader
