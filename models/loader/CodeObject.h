// AMDGPU code objects: ELF64 (e_machine EM_AMDGPU = 0xE0, code object v4 and v5), optionally
// wrapped in a clang offload bundle as written by `hipcc --genco`. Parses symbols, the 64-byte
// kernel descriptors (NAME.kd) and the NT_AMDGPU_METADATA msgpack note.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace vgpu::loader {

// One kernel argument from the metadata (.args). Hidden arguments have value_kind "hidden_*".
struct KernelArg {
  std::string name;      // .name (may be empty)
  std::string typeName;  // .type_name (may be empty)
  // by_value, global_buffer, dynamic_shared_pointer, hidden_global_offset_x, ...
  std::string valueKind;
  std::string addressSpace;  // global, constant, local, ... (may be empty)
  uint32_t offset = 0;
  uint32_t size = 0;
  // .pointee_align: the alignment of what a dynamic_shared_pointer points to (0: not given)
  uint32_t pointeeAlign = 0;
  bool isHidden() const { return valueKind.rfind("hidden_", 0) == 0; }
  // The caller passes an address (a buffer, image, sampler, pipe or queue), not a value.
  bool takesPointer() const {
    return valueKind == "global_buffer" || valueKind == "dynamic_shared_pointer" ||
           valueKind == "image" || valueKind == "sampler" || valueKind == "pipe" ||
           valueKind == "queue";
  }
};

// The 64-byte kernel descriptor (AMDGPUUsage, "Kernel Descriptor"), fields decoded.
struct KernelDescriptor {
  uint32_t groupSegmentFixedSize = 0;
  uint32_t privateSegmentFixedSize = 0;
  uint32_t kernargSize = 0;
  int64_t kernelCodeEntryByteOffset = 0;  // relative to the descriptor's address
  uint32_t computePgmRsrc3 = 0;
  uint32_t computePgmRsrc1 = 0;
  uint32_t computePgmRsrc2 = 0;
  uint16_t kernelCodeProperties = 0;

  // Decoded from the above.
  uint32_t granulatedVgprCount() const { return computePgmRsrc1 & 0x3f; }
  uint32_t granulatedSgprCount() const { return (computePgmRsrc1 >> 6) & 0xf; }
  uint32_t floatMode() const { return (computePgmRsrc1 >> 12) & 0xff; }
  bool enableDx10Clamp() const { return (computePgmRsrc1 >> 21) & 1; }
  bool enableIeeeMode() const { return (computePgmRsrc1 >> 23) & 1; }
  bool enablePrivateSegment() const { return computePgmRsrc2 & 1; }
  uint32_t userSgprCount() const { return (computePgmRsrc2 >> 1) & 0x1f; }
  bool enableTrapHandler() const { return (computePgmRsrc2 >> 6) & 1; }
  bool enableSgprWorkgroupIdX() const { return (computePgmRsrc2 >> 7) & 1; }
  bool enableSgprWorkgroupIdY() const { return (computePgmRsrc2 >> 8) & 1; }
  bool enableSgprWorkgroupIdZ() const { return (computePgmRsrc2 >> 9) & 1; }
  bool enableSgprWorkgroupInfo() const { return (computePgmRsrc2 >> 10) & 1; }
  uint32_t enableVgprWorkitemId() const { return (computePgmRsrc2 >> 11) & 3; }  // 0:X 1:XY 2:XYZ
  bool enableSgprPrivateSegmentBuffer() const { return kernelCodeProperties & 0x1; }
  bool enableSgprDispatchPtr() const { return kernelCodeProperties & 0x2; }
  bool enableSgprQueuePtr() const { return kernelCodeProperties & 0x4; }
  bool enableSgprKernargSegmentPtr() const { return kernelCodeProperties & 0x8; }
  bool enableSgprDispatchId() const { return kernelCodeProperties & 0x10; }
  bool enableSgprFlatScratchInit() const { return kernelCodeProperties & 0x20; }
  bool enableSgprPrivateSegmentSize() const { return kernelCodeProperties & 0x40; }
  bool enableWavefrontSize32() const { return kernelCodeProperties & 0x400; }
  bool usesDynamicStack() const { return kernelCodeProperties & 0x800; }
  // VGPRs allocated: (granulated + 1) * 4 on gfx9 (wave64).
  uint32_t vgprCount() const { return (granulatedVgprCount() + 1) * 4; }
};

struct KernelInfo {
  std::string name;                // .name
  std::string symbol;              // .symbol, e.g. "vector_add.kd"
  uint64_t descriptorAddress = 0;  // address of the kernel descriptor in the loaded image
  uint64_t entryAddress = 0;       // address of the first instruction in the loaded image
  uint64_t codeSize = 0;           // size of the kernel's function symbol (0 if unknown)
  KernelDescriptor descriptor;
  std::vector<KernelArg> args;  // explicit and hidden, in metadata order
  uint32_t kernargSegmentSize = 0;
  uint32_t kernargSegmentAlign = 0;
  uint32_t groupSegmentFixedSize = 0;
  uint32_t privateSegmentFixedSize = 0;
  uint32_t wavefrontSize = 64;
  uint32_t sgprCount = 0;
  uint32_t vgprCount = 0;
  uint32_t maxFlatWorkgroupSize = 0;
  bool usesDynamicStack = false;
  std::vector<KernelArg> explicitArgs() const;
};

struct Symbol {
  std::string name;
  uint64_t value = 0;
  uint64_t size = 0;
  uint8_t type = 0;  // STT_*
  // STB_*: the HSA runtime offers only global (1) and weak (2) symbols of an executable, as the
  // ELF specification's dynamic linking rules do; local (0) ones stay private to the object.
  uint8_t binding = 0;
};

class CodeObject {
 public:
  // Reads a file: a raw AMDGPU ELF, or a clang offload bundle from which the entry for
  // gfx906 or gfx900 (with or without target features) is taken. Throws vgpu::InputError
  // with a message naming the file and the problem (missing, truncated, not ELF, wrong
  // machine, no gfx906/gfx900 entry: lists the targets the bundle has, ...).
  static CodeObject loadFile(const std::string& path);
  // Same from bytes already in memory; `name` is used in error messages.
  static CodeObject fromBytes(const std::vector<uint8_t>& bytes, const std::string& name);
  // As above, but from a bundle holding both gfx906 and gfx900 entries take the one for
  // `preferredProcessor` ("gfx906" or "gfx900"). Without a preference gfx906 is taken first.
  // A raw ELF is returned whatever its (supported) processor: compare processor() yourself.
  static CodeObject loadFile(const std::string& path, const std::string& preferredProcessor);
  static CodeObject fromBytes(const std::vector<uint8_t>& bytes, const std::string& name,
                              const std::string& preferredProcessor);

  const std::string& target() const { return target_; }    // e.g. "amdgcn-amd-amdhsa--gfx906"
  std::string processor() const;                           // e.g. "gfx906"
  uint32_t codeObjectVersion() const { return version_; }  // 4 or 5 (from EI_ABIVERSION / metadata)

  // The loadable image: PT_LOAD segments placed at their p_vaddr, zero-filled (bss) to
  // p_memsz. Addresses in KernelInfo and symbols are offsets into this image; the runtime
  // copies it to device memory at some base and adds that base. Relocations (R_AMDGPU_*) are
  // listed in relocations() for the runtime to apply.
  const std::vector<uint8_t>& image() const { return image_; }
  struct Relocation {
    uint64_t offset = 0;  // where in the image
    uint32_t type = 0;    // R_AMDGPU_ABS64 = 3, R_AMDGPU_RELATIVE64 = 13, ...
    std::string symbol;   // empty for RELATIVE64
    uint64_t symbolValue = 0;
    int64_t addend = 0;
    // A weak undefined symbol resolves to address 0, not to loadBase + symbolValue.
    bool symbolUndefined = false;

    // R_AMDGPU_* types (AMDGPUUsage, "Relocation Records"). Only these are accepted in a
    // loaded code object; S = loadBase + symbolValue, A = addend, P = loadBase + offset,
    // B = loadBase.
    static constexpr uint32_t kNone = 0;
    static constexpr uint32_t kAbs32Lo = 1;      // word32 (S + A) & 0xffffffff
    static constexpr uint32_t kAbs32Hi = 2;      // word32 (S + A) >> 32
    static constexpr uint32_t kAbs64 = 3;        // word64 S + A
    static constexpr uint32_t kRel32 = 4;        // word32 S + A - P
    static constexpr uint32_t kRel64 = 5;        // word64 S + A - P
    static constexpr uint32_t kAbs32 = 6;        // word32 S + A
    static constexpr uint32_t kRel32Lo = 10;     // word32 (S + A - P) & 0xffffffff
    static constexpr uint32_t kRel32Hi = 11;     // word32 (S + A - P) >> 32
    static constexpr uint32_t kRelative64 = 13;  // word64 B + A
    // Bytes the relocation writes: 4 or 8.
    uint32_t width() const;
  };
  const std::vector<Relocation>& relocations() const { return relocations_; }
  // A copy of image() with every relocation applied for an image copied to `loadBase`.
  std::vector<uint8_t> relocatedImage(uint64_t loadBase) const;
  // Writes relocation `r` into `image` (image() or a copy of it) for `loadBase`.
  static void applyRelocation(const Relocation& r, uint64_t loadBase, std::vector<uint8_t>& image);

  // Address range [textStart, textEnd) of the .text section in the image (for disassembly).
  uint64_t textStart() const { return textStart_; }
  uint64_t textEnd() const { return textEnd_; }

  const std::vector<KernelInfo>& kernels() const { return kernels_; }
  const KernelInfo* findKernel(const std::string& name) const;  // by .name or .symbol
  const std::vector<Symbol>& symbols() const { return symbols_; }
  const Symbol* findSymbol(const std::string& name) const;

  // The offload kind of the bundle entry the object came from ("hip", "hipv4", "openmp"), or
  // "" for a raw ELF. HIP launches whole workgroups only (its grid counts blocks), which
  // vgpu-sim run's warnings need to know.
  const std::string& offloadKind() const { return offloadKind_; }

  // Raw ELF header e_flags (EF_AMDGPU_MACH in bits 0-7, xnack/sramecc feature bits above).
  uint32_t elfFlags() const { return elfFlags_; }
  // Largest image the loader accepts (PT_LOAD extents including zero-filled bss).
  static constexpr uint64_t kMaxImageSize = 256ull << 20;

 private:
  std::string target_;
  uint32_t version_ = 0;
  std::vector<uint8_t> image_;
  std::vector<Relocation> relocations_;
  uint64_t textStart_ = 0, textEnd_ = 0;
  std::vector<KernelInfo> kernels_;
  std::vector<Symbol> symbols_;
  uint32_t elfFlags_ = 0;
  std::string offloadKind_;
  friend class CodeObjectParser;
};

}  // namespace vgpu::loader
