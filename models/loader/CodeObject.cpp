// CodeObject: from file bytes (raw ELF or clang offload bundle) to the loadable image, symbols,
// relocations and kernels. The container formats are read by Elf.cpp, OffloadBundle.cpp and
// Metadata.cpp; this file holds the AMDGPU rules: which code objects vgpu accepts and how a
// kernel is described by its metadata, descriptor and symbols.
#include "loader/CodeObject.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "common/Error.h"
#include "loader/ByteOrder.h"
#include "loader/Elf.h"
#include "loader/Metadata.h"
#include "loader/OffloadBundle.h"

namespace vgpu::loader {

namespace {

constexpr uint32_t kMachMask = 0xff;  // EF_AMDGPU_MACH
// Code object v4/v5 feature bits (EF_AMDGPU_FEATURE_*_V4).
constexpr uint32_t kXnackMask = 0x300, kXnackOff = 0x200, kXnackOn = 0x300;
constexpr uint32_t kSrameccMask = 0xc00, kSrameccOff = 0x800, kSrameccOn = 0xc00;
constexpr size_t kDescriptorSize = 64;
// Files larger than this are not code objects; refuse before allocating for them.
constexpr uint64_t kMaxFileSize = 1ull << 30;
constexpr char kSupported[] = "vgpu runs gfx906 and gfx900";

// EF_AMDGPU_MACH values (LLVM BinaryFormat/ELF.h, AMDGPUUsage "AMDGPU ELF Header"), so a
// rejected code object is named by its processor.
const char* machName(uint32_t mach) {
  static const std::map<uint32_t, const char*> kNames = {
      {0x01, "r600"},    {0x02, "r630"},    {0x03, "rs880"},   {0x04, "rv670"},   {0x05, "rv710"},
      {0x06, "rv730"},   {0x07, "rv770"},   {0x08, "cedar"},   {0x09, "cypress"}, {0x0a, "juniper"},
      {0x0b, "redwood"}, {0x0c, "sumo"},    {0x0d, "barts"},   {0x0e, "caicos"},  {0x0f, "cayman"},
      {0x10, "turks"},   {0x20, "gfx600"},  {0x21, "gfx601"},  {0x22, "gfx700"},  {0x23, "gfx701"},
      {0x24, "gfx702"},  {0x25, "gfx703"},  {0x26, "gfx704"},  {0x28, "gfx801"},  {0x29, "gfx802"},
      {0x2a, "gfx803"},  {0x2b, "gfx810"},  {0x2c, "gfx900"},  {0x2d, "gfx902"},  {0x2e, "gfx904"},
      {0x2f, "gfx906"},  {0x30, "gfx908"},  {0x31, "gfx909"},  {0x32, "gfx90c"},  {0x33, "gfx1010"},
      {0x34, "gfx1011"}, {0x35, "gfx1012"}, {0x36, "gfx1030"}, {0x37, "gfx1031"}, {0x38, "gfx1032"},
      {0x39, "gfx1033"}, {0x3a, "gfx602"},  {0x3b, "gfx705"},  {0x3c, "gfx805"},  {0x3d, "gfx1035"},
      {0x3e, "gfx1034"}, {0x3f, "gfx90a"},  {0x40, "gfx940"},  {0x41, "gfx1100"}, {0x42, "gfx1013"},
      {0x44, "gfx1103"}, {0x45, "gfx1036"}, {0x46, "gfx1101"}, {0x47, "gfx1102"},
  };
  const auto it = kNames.find(mach);
  return it == kNames.end() ? nullptr : it->second;
}

std::string machineName(uint16_t machine) {
  switch (machine) {
    case 0:
      return "no machine (EM_NONE)";
    case 3:
      return "x86 (EM_386)";
    case 40:
      return "ARM (EM_ARM)";
    case 62:
      return "x86-64 (EM_X86_64)";
    case 183:
      return "AArch64 (EM_AARCH64)";
    case 190:
      return "NVIDIA CUDA (EM_CUDA)";
    case 243:
      return "RISC-V (EM_RISCV)";
    default:
      return "machine " + std::to_string(machine);
  }
}

bool isSupportedProcessor(const std::string& processor) {
  return processor == "gfx906" || processor == "gfx900";
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

std::string hexBytes(const uint8_t* data, size_t size) {
  std::string out;
  char text[4];
  for (size_t i = 0; i < size; ++i) {
    std::snprintf(text, sizeof text, "%02x", data[i]);
    out += (i ? " " : "") + std::string(text);
  }
  return out;
}

}  // namespace

// Builds a CodeObject from one AMDGPU ELF; holds the steps in the order their errors should be
// reported (identity first, then layout, then contents).
class CodeObjectParser {
 public:
  CodeObjectParser(const uint8_t* data, size_t size, const std::string& name)
      : elf_(data, size, name) {}

  CodeObject parse() {
    checkIdentity();
    buildImage();
    readText();
    readSymbols();
    readRelocations();
    readKernels();
    return std::move(result_);
  }
  static void setOffloadKind(CodeObject& object, const std::string& kind) {
    object.offloadKind_ = kind;
  }

 private:
  void checkIdentity() {
    const elf::Header& h = elf_.header();
    if (h.machine != elf::kMachineAmdgpu) {
      elf_.fail("is an ELF for " + machineName(h.machine) +
                ", not an AMDGPU code object (EM_AMDGPU, 0xe0)");
    }
    if (h.osAbi == elf::kOsAbiAmdgpuPal || h.osAbi == elf::kOsAbiAmdgpuMesa3d) {
      elf_.fail(std::string("is an AMDGPU ") +
                (h.osAbi == elf::kOsAbiAmdgpuPal ? "PAL" : "Mesa3D") +
                " code object; vgpu loads HSA code objects (ELFOSABI_AMDGPU_HSA, 64)");
    }
    if (h.osAbi != elf::kOsAbiAmdgpuHsa) {
      elf_.fail("has ELF OS ABI " + std::to_string(h.osAbi) +
                "; AMDGPU HSA code objects have ELFOSABI_AMDGPU_HSA (64)");
    }
    // EI_ABIVERSION: 0 = v2, 1 = v3, 2 = v4, 3 = v5, 4 = v6.
    const uint32_t version = h.abiVersion + 2u;
    if (version != 4 && version != 5) {
      elf_.fail("is a code object v" + std::to_string(version) + " (ELF ABI version " +
                std::to_string(h.abiVersion) +
                "); vgpu loads code object v4 and v5 (clang -mcode-object-version=4 or 5)");
    }
    const uint32_t mach = h.flags & kMachMask;
    const char* processor = machName(mach);
    if (processor == nullptr) {
      elf_.fail("is a code object for an unknown processor (EF_AMDGPU_MACH " + elf::hex(mach) +
                "); " + kSupported);
    }
    if (!isSupportedProcessor(processor)) {
      elf_.fail(std::string("is a ") + processor + " code object; " + kSupported);
    }
    if (h.type == elf::kTypeRel) {
      elf_.fail(
          "is a relocatable object (ET_REL), not a loadable code object; link it with "
          "ld.lld -shared");
    }
    if (h.type != elf::kTypeDyn && h.type != elf::kTypeExec) {
      elf_.fail("has ELF type " + std::to_string(h.type) +
                "; a loadable code object is a shared object (ET_DYN)");
    }
    result_.version_ = version;
    result_.elfFlags_ = h.flags;
    // Target ID as LLVM spells it: features in alphabetical order, only when on or off.
    std::string target = std::string("amdgcn-amd-amdhsa--") + processor;
    const uint32_t sramecc = h.flags & kSrameccMask, xnack = h.flags & kXnackMask;
    if (sramecc == kSrameccOn || sramecc == kSrameccOff) {
      target += sramecc == kSrameccOn ? ":sramecc+" : ":sramecc-";
    }
    if (xnack == kXnackOn || xnack == kXnackOff)
      target += xnack == kXnackOn ? ":xnack+" : ":xnack-";
    result_.target_ = target;
  }

  void buildImage() {
    uint64_t imageSize = 0;
    int index = 0;
    for (const elf::ProgramHeader& ph : elf_.programHeaders()) {
      const std::string which = "segment " + std::to_string(index++);
      if (ph.type != elf::kPtLoad) continue;
      if (ph.fileSize > ph.memSize) {
        elf_.fail("corrupt " + which + ": file size " + elf::hex(ph.fileSize) +
                  " exceeds memory size " + elf::hex(ph.memSize));
      }
      if (ph.vaddr > CodeObject::kMaxImageSize ||
          ph.memSize > CodeObject::kMaxImageSize - ph.vaddr) {
        elf_.fail(which + " ends at address " + elf::hex(ph.vaddr) + " + " + elf::hex(ph.memSize) +
                  ", beyond the loader's image limit of " +
                  std::to_string(CodeObject::kMaxImageSize >> 20) + " MiB");
      }
      imageSize = std::max(imageSize, ph.vaddr + ph.memSize);
    }
    if (imageSize == 0) elf_.fail("has no loadable (PT_LOAD) segments");
    result_.image_.assign(size_t(imageSize), 0);
    for (const elf::ProgramHeader& ph : elf_.programHeaders()) {
      if (ph.type != elf::kPtLoad || ph.fileSize == 0) continue;
      std::memcpy(result_.image_.data() + ph.vaddr, elf_.data() + ph.offset, size_t(ph.fileSize));
    }
  }

  bool inImage(uint64_t address, uint64_t size) const {
    return fitsIn(address, size, result_.image_.size());
  }

  void readText() {
    const elf::Section* text = elf_.findSection(".text");
    if (text == nullptr) return;  // stripped section headers: no disassembly range
    if (!inImage(text->addr, text->size)) {
      elf_.fail("corrupt .text section: " + elf::hex(text->size) + " bytes at address " +
                elf::hex(text->addr) + " lie outside the loaded segments");
    }
    result_.textStart_ = text->addr;
    result_.textEnd_ = text->addr + text->size;
  }

  void readSymbols() {
    std::set<std::string> seen;
    // .dynsym first: it is what a loader resolves against; .symtab adds local symbols.
    for (uint32_t wanted : {elf::kShtDynsym, elf::kShtSymtab}) {
      for (const elf::Section& section : elf_.sections()) {
        if (section.type != wanted) continue;
        for (const elf::SymbolEntry& entry : elf_.readSymbols(section)) {
          if (entry.name.empty() || entry.type() == elf::kSttSection ||
              entry.type() == elf::kSttFile || entry.sectionIndex == elf::kShnUndef) {
            continue;
          }
          if (!seen.insert(entry.name).second) continue;
          result_.symbols_.push_back(
              Symbol{entry.name, entry.value, entry.size, entry.type(), entry.binding()});
        }
      }
    }
  }

  void readRelocations() {
    std::map<uint32_t, std::vector<elf::SymbolEntry>> symbolTables;  // by section index
    for (const elf::Section& section : elf_.sections()) {
      // Only allocated RELA sections (.rela.dyn) are for the loader.
      if (section.type != elf::kShtRela || !(section.flags & elf::kShfAlloc)) continue;
      const std::string where = "relocation section " + section.name;
      for (const elf::RelaEntry& rela : elf_.readRela(section)) {
        if (rela.type == CodeObject::Relocation::kNone) continue;
        CodeObject::Relocation r;
        r.offset = rela.offset;
        r.type = rela.type;
        r.addend = rela.addend;
        const uint32_t width = r.width();
        if (width == 0) {
          elf_.fail(where + ": unsupported relocation type " + std::to_string(rela.type) + " at " +
                    elf::hex(rela.offset));
        }
        if (!inImage(rela.offset, width)) {
          elf_.fail(where + ": relocation at " + elf::hex(rela.offset) +
                    " lies outside the loaded segments");
        }
        if (rela.symbolIndex != 0) resolveSymbol(section, rela.symbolIndex, where, symbolTables, r);
        result_.relocations_.push_back(std::move(r));
      }
    }
  }

  void resolveSymbol(const elf::Section& relaSection, uint32_t symbolIndex,
                     const std::string& where,
                     std::map<uint32_t, std::vector<elf::SymbolEntry>>& symbolTables,
                     CodeObject::Relocation& r) {
    const auto& sections = elf_.sections();
    if (relaSection.link >= sections.size() ||
        (sections[relaSection.link].type != elf::kShtDynsym &&
         sections[relaSection.link].type != elf::kShtSymtab)) {
      elf_.fail(where + ": its sh_link " + std::to_string(relaSection.link) +
                " is not a symbol table");
    }
    auto it = symbolTables.find(relaSection.link);
    if (it == symbolTables.end()) {
      it = symbolTables.emplace(relaSection.link, elf_.readSymbols(sections[relaSection.link]))
               .first;
    }
    if (symbolIndex >= it->second.size()) {
      elf_.fail(where + ": relocation at " + elf::hex(r.offset) + " names symbol " +
                std::to_string(symbolIndex) + " of " + std::to_string(it->second.size()));
    }
    const elf::SymbolEntry& symbol = it->second[symbolIndex];
    r.symbol = symbol.name;
    r.symbolValue = symbol.value;
    if (symbol.sectionIndex == elf::kShnUndef) {
      if (symbol.binding() != elf::kStbWeak) {
        elf_.fail(where + ": relocation at " + elf::hex(r.offset) + " needs undefined symbol '" +
                  symbol.name + "'; vgpu does not link code objects together");
      }
      r.symbolUndefined = true;
      r.symbolValue = 0;
    }
  }

  void readKernels() {
    const elf::Note* metadataNote = nullptr;
    const std::vector<elf::Note> notes = elf_.notes();
    for (const elf::Note& note : notes) {
      if (note.name == kNoteNameAmdgpu && note.type == kNoteTypeAmdgpuMetadata) {
        metadataNote = &note;
        break;
      }
    }
    if (metadataNote == nullptr) {
      elf_.fail("has no AMDGPU metadata note (NT_AMDGPU_METADATA); it is not a code object v4/v5");
    }
    CodeObjectMetadata metadata =
        parseMetadata(metadataNote->desc.data(), metadataNote->desc.size(), elf_.name());
    for (KernelInfo& kernel : metadata.kernels) {
      const std::string which = "kernel '" + kernel.name + "'";
      const Symbol* descriptor = result_.findSymbol(kernel.symbol);
      if (descriptor == nullptr) {
        elf_.fail(which + ": its descriptor symbol '" + kernel.symbol +
                  "' is not in the symbol table");
      }
      if (!inImage(descriptor->value, kDescriptorSize)) {
        elf_.fail(which + ": its descriptor at " + elf::hex(descriptor->value) +
                  " lies outside the loaded segments");
      }
      kernel.descriptorAddress = descriptor->value;
      kernel.descriptor = readDescriptor(result_.image_.data() + descriptor->value);
      // Entry = descriptor address + signed offset, computed without wrapping.
      const int64_t offset = kernel.descriptor.kernelCodeEntryByteOffset;
      const uint64_t imageSize = result_.image_.size();
      const bool entryInImage = offset >= 0 ? uint64_t(offset) < imageSize - descriptor->value
                                            : uint64_t(0) - uint64_t(offset) <= descriptor->value;
      if (!entryInImage) {
        elf_.fail(which + ": kernel_code_entry_byte_offset " + std::to_string(offset) +
                  " points outside the loaded segments");
      }
      kernel.entryAddress = descriptor->value + uint64_t(offset);
      const Symbol* function = result_.findSymbol(kernel.name);
      if (function != nullptr && function->type == elf::kSttFunc) kernel.codeSize = function->size;
    }
    result_.kernels_ = std::move(metadata.kernels);
  }

  static KernelDescriptor readDescriptor(const uint8_t* p) {
    KernelDescriptor d;
    d.groupSegmentFixedSize = readLE32(p + 0);
    d.privateSegmentFixedSize = readLE32(p + 4);
    d.kernargSize = readLE32(p + 8);
    d.kernelCodeEntryByteOffset = int64_t(readLE64(p + 16));
    d.computePgmRsrc3 = readLE32(p + 44);
    d.computePgmRsrc1 = readLE32(p + 48);
    d.computePgmRsrc2 = readLE32(p + 52);
    d.kernelCodeProperties = readLE16(p + 56);
    return d;
  }

  elf::ElfFile elf_;
  CodeObject result_;
};

namespace {

// Picks the bundle entry to load and returns it, or throws naming what the bundle holds.
bundle::Entry selectBundleEntry(const std::vector<bundle::Entry>& entries, const std::string& name,
                                const std::string& preferredProcessor) {
  std::vector<const bundle::Entry*> supported;
  std::vector<std::string> deviceTriples, allTriples;
  std::set<std::string> deviceProcessors;
  for (const bundle::Entry& entry : entries) {
    allTriples.push_back(entry.triple);
    if (entry.kind == "host") continue;
    deviceTriples.push_back(entry.triple);
    if (!entry.isAmdhsa) continue;
    deviceProcessors.insert(entry.processor);
    if (isSupportedProcessor(entry.processor)) supported.push_back(&entry);
  }
  for (const std::string& wanted :
       {preferredProcessor, std::string("gfx906"), std::string("gfx900")}) {
    for (const bundle::Entry* entry : supported) {
      if (entry->processor == wanted) return *entry;
    }
  }
  if (deviceTriples.empty()) {
    throw InputError(name + ": is a clang offload bundle without GPU code objects; it holds: " +
                     join(allTriples));
  }
  if (deviceProcessors.size() == 1) {
    throw InputError(name + ": is a " + *deviceProcessors.begin() + " code object; " + kSupported +
                     " (bundle targets: " + join(deviceTriples) + ")");
  }
  throw InputError(name + ": has no gfx906 or gfx900 code object; " + kSupported +
                   "; the bundle holds: " + join(deviceTriples));
}

CodeObject parseBytes(const std::vector<uint8_t>& bytes, const std::string& name,
                      const std::string& preferredProcessor) {
  const uint8_t* data = bytes.data();
  const size_t size = bytes.size();
  if (size == 0) throw InputError(name + ": file is empty");
  if (bundle::isCompressedBundle(data, size)) {
    throw InputError(name +
                     ": compressed offload bundles are not supported; rebuild without "
                     "--offload-compress or unbundle it with a newer clang-offload-bundler");
  }
  if (bundle::isBundle(data, size)) {
    const auto entries = bundle::readEntries(data, size, name);
    const bundle::Entry entry = selectBundleEntry(entries, name, preferredProcessor);
    const std::string entryName = name + " (bundle entry " + entry.triple + ")";
    if (entry.size == 0) throw InputError(entryName + ": the entry is empty");
    CodeObject object =
        CodeObjectParser(data + entry.offset, size_t(entry.size), entryName).parse();
    if (object.processor() != entry.processor) {
      throw InputError(entryName + ": the bundle says " + entry.processor +
                       " but the code object inside is " + object.processor());
    }
    CodeObjectParser::setOffloadKind(object, entry.kind);
    return object;
  }
  static const uint8_t kElfMagic[4] = {0x7f, 'E', 'L', 'F'};
  if (size < 4 || std::memcmp(data, kElfMagic, 4) != 0) {
    throw InputError(name +
                     ": not a code object: neither an ELF file nor a clang offload bundle "
                     "(first bytes: " +
                     hexBytes(data, std::min<size_t>(size, 8)) + ")");
  }
  return CodeObjectParser(data, size, name).parse();
}

}  // namespace

CodeObject CodeObject::fromBytes(const std::vector<uint8_t>& bytes, const std::string& name) {
  return parseBytes(bytes, name, "");
}

CodeObject CodeObject::fromBytes(const std::vector<uint8_t>& bytes, const std::string& name,
                                 const std::string& preferredProcessor) {
  return parseBytes(bytes, name, preferredProcessor);
}

CodeObject CodeObject::loadFile(const std::string& path) {
  return loadFile(path, "");
}

CodeObject CodeObject::loadFile(const std::string& path, const std::string& preferredProcessor) {
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (!fs::exists(status)) throw InputError(path + ": code object file not found");
  if (fs::is_directory(status)) throw InputError(path + ": is a directory, not a code object");
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw InputError(path + ": cannot open the code object: " + std::strerror(errno));
  }
  in.seekg(0, std::ios::end);
  const std::streamoff length = in.tellg();
  in.seekg(0, std::ios::beg);
  if (length < 0) throw InputError(path + ": cannot read the code object (not a regular file?)");
  if (uint64_t(length) > kMaxFileSize) {
    throw InputError(path + ": " + std::to_string(length) +
                     " bytes is too large for a code object (limit 1 GiB)");
  }
  std::vector<uint8_t> bytes(static_cast<size_t>(length));
  if (length > 0 && !in.read(reinterpret_cast<char*>(bytes.data()), length)) {
    throw InputError(path + ": cannot read the code object: " + std::strerror(errno));
  }
  return parseBytes(bytes, path, preferredProcessor);
}

std::string CodeObject::processor() const {
  const size_t start = target_.find("--");
  if (start == std::string::npos) return "";
  const std::string id = target_.substr(start + 2);
  return id.substr(0, id.find(':'));
}

const KernelInfo* CodeObject::findKernel(const std::string& name) const {
  for (const KernelInfo& kernel : kernels_) {
    if (kernel.name == name) return &kernel;
  }
  for (const KernelInfo& kernel : kernels_) {
    if (kernel.symbol == name) return &kernel;
  }
  return nullptr;
}

const Symbol* CodeObject::findSymbol(const std::string& name) const {
  for (const Symbol& symbol : symbols_) {
    if (symbol.name == name) return &symbol;
  }
  return nullptr;
}

std::vector<KernelArg> KernelInfo::explicitArgs() const {
  std::vector<KernelArg> out;
  for (const KernelArg& arg : args) {
    if (!arg.isHidden()) out.push_back(arg);
  }
  return out;
}

uint32_t CodeObject::Relocation::width() const {
  switch (type) {
    case kAbs32Lo:
    case kAbs32Hi:
    case kRel32:
    case kAbs32:
    case kRel32Lo:
    case kRel32Hi:
      return 4;
    case kAbs64:
    case kRel64:
    case kRelative64:
      return 8;
    default:
      return 0;
  }
}

void CodeObject::applyRelocation(const Relocation& r, uint64_t loadBase,
                                 std::vector<uint8_t>& image) {
  const uint32_t width = r.width();
  if (width == 0 || !fitsIn(r.offset, width, image.size())) {
    throw InputError("relocation of type " + std::to_string(r.type) + " at " + elf::hex(r.offset) +
                     " cannot be applied to an image of " + std::to_string(image.size()) +
                     " bytes");
  }
  // Unsigned arithmetic wraps modulo 2^64 exactly as the relocation formulas intend.
  const uint64_t s = r.symbolUndefined ? 0 : loadBase + r.symbolValue;
  const uint64_t a = uint64_t(r.addend);
  const uint64_t p = loadBase + r.offset;
  uint64_t value = 0;
  switch (r.type) {
    case Relocation::kAbs32Lo:
    case Relocation::kAbs32:
    case Relocation::kAbs64:
      value = s + a;
      break;
    case Relocation::kAbs32Hi:
      value = (s + a) >> 32;
      break;
    case Relocation::kRel32:
    case Relocation::kRel64:
    case Relocation::kRel32Lo:
      value = s + a - p;
      break;
    case Relocation::kRel32Hi:
      value = (s + a - p) >> 32;
      break;
    case Relocation::kRelative64:
      value = loadBase + a;
      break;
  }
  for (uint32_t i = 0; i < width; ++i) image[r.offset + i] = uint8_t(value >> (8 * i));
}

std::vector<uint8_t> CodeObject::relocatedImage(uint64_t loadBase) const {
  std::vector<uint8_t> image = image_;
  for (const Relocation& r : relocations_) applyRelocation(r, loadBase, image);
  return image;
}

}  // namespace vgpu::loader
