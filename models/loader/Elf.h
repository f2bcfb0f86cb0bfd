// A bounds-checked reader for little-endian ELF64 files (the container of AMDGPU code
// objects). It knows ELF, not AMDGPU: the AMDGPU checks (machine, OS ABI, code object version,
// processor) are made by the code object parser on the decoded header.
//
// Every offset, size and count read from the file is checked against the file's size before it
// is used; malformed input produces vgpu::InputError("<name>: <problem>"), never an
// out-of-bounds read or an allocation larger than the file justifies.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace vgpu::loader::elf {

// e_ident and header values used by the loader (ELF gABI, AMDGPUUsage "ELF Code Object").
constexpr uint8_t kClass64 = 2;             // ELFCLASS64
constexpr uint8_t kDataLittleEndian = 1;    // ELFDATA2LSB
constexpr uint8_t kOsAbiAmdgpuHsa = 64;     // ELFOSABI_AMDGPU_HSA
constexpr uint8_t kOsAbiAmdgpuPal = 65;     // ELFOSABI_AMDGPU_PAL
constexpr uint8_t kOsAbiAmdgpuMesa3d = 66;  // ELFOSABI_AMDGPU_MESA3D
constexpr uint16_t kTypeRel = 1;            // ET_REL
constexpr uint16_t kTypeExec = 2;           // ET_EXEC
constexpr uint16_t kTypeDyn = 3;            // ET_DYN
constexpr uint16_t kMachineAmdgpu = 0xE0;   // EM_AMDGPU
constexpr size_t kHeaderSize = 64;
constexpr size_t kProgramHeaderSize = 56;
constexpr size_t kSectionHeaderSize = 64;
constexpr size_t kSymbolSize = 24;
constexpr size_t kRelaSize = 24;

constexpr uint32_t kPtLoad = 1;
constexpr uint32_t kPtNote = 4;
constexpr uint32_t kShtSymtab = 2;
constexpr uint32_t kShtRela = 4;
constexpr uint32_t kShtNote = 7;
constexpr uint32_t kShtNobits = 8;
constexpr uint32_t kShtDynsym = 11;
constexpr uint64_t kShfAlloc = 0x2;
constexpr uint16_t kShnUndef = 0;
constexpr uint16_t kShnXindex = 0xffff;
constexpr uint8_t kSttFunc = 2;
constexpr uint8_t kSttSection = 3;
constexpr uint8_t kSttFile = 4;
constexpr uint8_t kStbWeak = 2;

struct Header {
  uint8_t osAbi = 0;
  uint8_t abiVersion = 0;
  uint16_t type = 0;
  uint16_t machine = 0;
  uint32_t flags = 0;
  uint64_t programHeaderOffset = 0;
  uint64_t sectionHeaderOffset = 0;
  uint16_t programHeaderEntrySize = 0;
  uint16_t programHeaderCount = 0;
  uint16_t sectionHeaderEntrySize = 0;
  uint16_t sectionHeaderCount = 0;  // 0 with a non-zero offset: the count is in section 0
  uint16_t sectionNameTableIndex = 0;
};

struct ProgramHeader {
  uint32_t type = 0;
  uint32_t flags = 0;
  uint64_t offset = 0;
  uint64_t vaddr = 0;
  uint64_t fileSize = 0;
  uint64_t memSize = 0;
};

struct Section {
  uint32_t index = 0;
  std::string name;
  uint32_t type = 0;
  uint64_t flags = 0;
  uint64_t addr = 0;
  uint64_t offset = 0;
  uint64_t size = 0;
  uint32_t link = 0;
  uint32_t info = 0;
  uint64_t entrySize = 0;
};

struct SymbolEntry {
  std::string name;
  uint64_t value = 0;
  uint64_t size = 0;
  uint8_t info = 0;  // type in the low 4 bits, binding in the high 4
  uint16_t sectionIndex = 0;
  uint8_t type() const { return info & 0xf; }
  uint8_t binding() const { return info >> 4; }
};

struct RelaEntry {
  uint64_t offset = 0;
  uint32_t type = 0;
  uint32_t symbolIndex = 0;
  int64_t addend = 0;
};

struct Note {
  std::string name;  // without the terminating NUL
  uint32_t type = 0;
  std::vector<uint8_t> desc;
};

class ElfFile {
 public:
  // Checks the identification (magic, class, data encoding) and decodes the header. `data`
  // must stay valid for the lifetime of this object; `name` prefixes every error message.
  ElfFile(const uint8_t* data, size_t size, std::string name);

  const Header& header() const { return header_; }
  size_t size() const { return size_; }
  const uint8_t* data() const { return data_; }
  const std::string& name() const { return name_; }

  // Decoded and bounds-checked on first use: each table lies inside the file and each
  // PT_LOAD/section with file contents lies inside the file.
  const std::vector<ProgramHeader>& programHeaders();
  const std::vector<Section>& sections();
  const Section* findSection(const std::string& sectionName);

  // Entries of a SHT_SYMTAB/SHT_DYNSYM section (entry 0, the null symbol, included), names
  // from the string table its sh_link names.
  std::vector<SymbolEntry> readSymbols(const Section& symbolTable);
  // Entries of a SHT_RELA section.
  std::vector<RelaEntry> readRela(const Section& relaSection);
  // Notes of all PT_NOTE segments, or of SHT_NOTE sections when there are no PT_NOTE segments.
  std::vector<Note> notes();

  // Throws vgpu::InputError("<name>: <problem>").
  [[noreturn]] void fail(const std::string& problem) const;

 private:
  void readProgramHeaders();
  void readSections();
  void parseNotes(uint64_t offset, uint64_t size, const std::string& where,
                  std::vector<Note>& out) const;
  // NUL-terminated string at `offset` inside the section `stringTable`.
  std::string readString(const Section& stringTable, uint64_t offset,
                         const std::string& what) const;
  const Section& sectionAt(uint32_t index, const std::string& what);

  const uint8_t* data_;
  size_t size_;
  std::string name_;
  Header header_;
  bool programHeadersRead_ = false;
  bool sectionsRead_ = false;
  std::vector<ProgramHeader> programHeaders_;
  std::vector<Section> sections_;
};

// Formats a number as 0x-prefixed hexadecimal, for messages.
std::string hex(uint64_t value);

}  // namespace vgpu::loader::elf
