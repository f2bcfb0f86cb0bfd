#include "loader/Elf.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "common/Error.h"
#include "common/Hex.h"
#include "loader/ByteOrder.h"

namespace vgpu::loader::elf {

std::string hex(uint64_t value) {
  return vgpu::hex(value);
}

namespace {

std::string bytesText(uint64_t count) {
  return std::to_string(count) + " bytes";
}

// 4-byte alignment of note name and descriptor fields (AMDGPU notes use 4 even in ELF64).
uint64_t alignNote(uint64_t value) {
  return (value + 3) & ~uint64_t(3);
}

}  // namespace

ElfFile::ElfFile(const uint8_t* data, size_t size, std::string name)
    : data_(data), size_(size), name_(std::move(name)) {
  if (size_ == 0) fail("file is empty");
  static const uint8_t kMagic[4] = {0x7f, 'E', 'L', 'F'};
  if (size_ < 4 || std::memcmp(data_, kMagic, 4) != 0) {
    fail("not an ELF file (no \\x7fELF magic) and not a clang offload bundle");
  }
  if (size_ < 16)
    fail("truncated: the ELF identification needs 16 bytes, the file has " + bytesText(size_));
  if (data_[4] != kClass64) {
    fail(data_[4] == 1 ? "is a 32-bit ELF (ELFCLASS32); AMDGPU code objects are ELF64"
                       : "has an invalid ELF class " + std::to_string(data_[4]) +
                             " (expected 2, ELFCLASS64)");
  }
  if (data_[5] != kDataLittleEndian) {
    fail(data_[5] == 2 ? "is a big-endian ELF; AMDGPU code objects are little-endian"
                       : "has an invalid ELF data encoding " + std::to_string(data_[5]) +
                             " (expected 1, little-endian)");
  }
  if (size_ < kHeaderSize) {
    fail("truncated: the ELF header needs 64 bytes, the file has " + bytesText(size_));
  }
  header_.osAbi = data_[7];
  header_.abiVersion = data_[8];
  header_.type = readLE16(data_ + 16);
  header_.machine = readLE16(data_ + 18);
  header_.flags = readLE32(data_ + 48);
  header_.programHeaderOffset = readLE64(data_ + 32);
  header_.sectionHeaderOffset = readLE64(data_ + 40);
  header_.programHeaderEntrySize = readLE16(data_ + 54);
  header_.programHeaderCount = readLE16(data_ + 56);
  header_.sectionHeaderEntrySize = readLE16(data_ + 58);
  header_.sectionHeaderCount = readLE16(data_ + 60);
  header_.sectionNameTableIndex = readLE16(data_ + 62);
}

void ElfFile::fail(const std::string& problem) const {
  throw InputError(name_ + ": " + problem);
}

const std::vector<ProgramHeader>& ElfFile::programHeaders() {
  if (!programHeadersRead_) readProgramHeaders();
  return programHeaders_;
}

const std::vector<Section>& ElfFile::sections() {
  if (!sectionsRead_) readSections();
  return sections_;
}

void ElfFile::readProgramHeaders() {
  programHeadersRead_ = true;
  const Header& h = header_;
  if (h.programHeaderCount == 0) return;
  if (h.programHeaderEntrySize != kProgramHeaderSize) {
    fail("corrupt ELF header: program header entry size is " +
         std::to_string(h.programHeaderEntrySize) + " (expected 56)");
  }
  const uint64_t tableSize = uint64_t(h.programHeaderCount) * kProgramHeaderSize;
  if (!fitsIn(h.programHeaderOffset, tableSize, size_)) {
    fail("truncated or corrupt: the program header table (" + std::to_string(h.programHeaderCount) +
         " entries at offset " + hex(h.programHeaderOffset) +
         ") extends past the end of the file (" + bytesText(size_) + ")");
  }
  programHeaders_.reserve(h.programHeaderCount);
  for (uint32_t i = 0; i < h.programHeaderCount; ++i) {
    const uint8_t* p = data_ + h.programHeaderOffset + uint64_t(i) * kProgramHeaderSize;
    ProgramHeader ph;
    ph.type = readLE32(p);
    ph.flags = readLE32(p + 4);
    ph.offset = readLE64(p + 8);
    ph.vaddr = readLE64(p + 16);
    ph.fileSize = readLE64(p + 32);
    ph.memSize = readLE64(p + 40);
    if ((ph.type == kPtLoad || ph.type == kPtNote) && !fitsIn(ph.offset, ph.fileSize, size_)) {
      fail("truncated or corrupt: segment " + std::to_string(i) + " (" + bytesText(ph.fileSize) +
           " at offset " + hex(ph.offset) + ") extends past the end of the file (" +
           bytesText(size_) + ")");
    }
    programHeaders_.push_back(ph);
  }
}

void ElfFile::readSections() {
  sectionsRead_ = true;
  const Header& h = header_;
  if (h.sectionHeaderOffset == 0) return;  // no section headers: allowed by ELF
  if (h.sectionHeaderEntrySize != kSectionHeaderSize) {
    fail("corrupt ELF header: section header entry size is " +
         std::to_string(h.sectionHeaderEntrySize) + " (expected 64)");
  }
  if (!fitsIn(h.sectionHeaderOffset, kSectionHeaderSize, size_)) {
    fail("truncated or corrupt: the section header table at offset " + hex(h.sectionHeaderOffset) +
         " lies past the end of the file (" + bytesText(size_) + ")");
  }
  const uint8_t* first = data_ + h.sectionHeaderOffset;
  // Extended numbering (ELF gABI): e_shnum 0 puts the count in section 0's sh_size, e_shstrndx
  // SHN_XINDEX puts the index in section 0's sh_link.
  uint64_t count = h.sectionHeaderCount;
  if (count == 0) count = readLE64(first + 32);
  uint32_t nameTableIndex = h.sectionNameTableIndex;
  if (nameTableIndex == kShnXindex) nameTableIndex = readLE32(first + 40);
  if (count == 0) return;
  if (count > (size_ - h.sectionHeaderOffset) / kSectionHeaderSize) {
    fail("truncated or corrupt: the section header table (" + std::to_string(count) +
         " entries at offset " + hex(h.sectionHeaderOffset) +
         ") extends past the end of the file (" + bytesText(size_) + ")");
  }
  sections_.reserve(size_t(count));
  for (uint64_t i = 0; i < count; ++i) {
    const uint8_t* p = first + i * kSectionHeaderSize;
    Section s;
    s.index = uint32_t(i);
    s.type = readLE32(p + 4);
    s.flags = readLE64(p + 8);
    s.addr = readLE64(p + 16);
    s.offset = readLE64(p + 24);
    s.size = readLE64(p + 32);
    s.link = readLE32(p + 40);
    s.info = readLE32(p + 44);
    s.entrySize = readLE64(p + 56);
    if (i != 0 && s.type != kShtNobits && s.type != 0 && !fitsIn(s.offset, s.size, size_)) {
      fail("truncated or corrupt: section " + std::to_string(i) + " (" + bytesText(s.size) +
           " at offset " + hex(s.offset) + ") extends past the end of the file (" +
           bytesText(size_) + ")");
    }
    sections_.push_back(s);
  }
  if (nameTableIndex == kShnUndef) return;  // sections without names
  if (nameTableIndex >= count) {
    fail("corrupt ELF header: section name table index " + std::to_string(nameTableIndex) +
         " but there are " + std::to_string(count) + " sections");
  }
  // Name offsets are read from the raw headers again: sections_ is complete, so the name table
  // can be bounds-checked as a section like any other.
  const Section nameTable = sections_[nameTableIndex];
  for (uint64_t i = 0; i < count; ++i) {
    const uint32_t nameOffset = readLE32(first + i * kSectionHeaderSize);
    sections_[i].name = readString(nameTable, nameOffset, "section " + std::to_string(i) + " name");
  }
}

const Section* ElfFile::findSection(const std::string& sectionName) {
  for (const Section& s : sections()) {
    if (s.name == sectionName) return &s;
  }
  return nullptr;
}

const Section& ElfFile::sectionAt(uint32_t index, const std::string& what) {
  const auto& all = sections();
  if (index >= all.size()) {
    fail("corrupt " + what + ": section index " + std::to_string(index) + " but there are " +
         std::to_string(all.size()) + " sections");
  }
  return all[index];
}

std::string ElfFile::readString(const Section& stringTable, uint64_t offset,
                                const std::string& what) const {
  if (stringTable.type == kShtNobits || !fitsIn(stringTable.offset, stringTable.size, size_)) {
    fail("corrupt " + what + ": its string table (section " + std::to_string(stringTable.index) +
         ") has no contents in the file");
  }
  if (offset >= stringTable.size) {
    fail("corrupt " + what + ": string offset " + hex(offset) + " is outside its string table (" +
         bytesText(stringTable.size) + ")");
  }
  const char* begin = reinterpret_cast<const char*>(data_ + stringTable.offset + offset);
  const size_t available = size_t(stringTable.size - offset);
  const void* nul = std::memchr(begin, 0, available);
  if (nul == nullptr) fail("corrupt " + what + ": the string is not NUL-terminated");
  return std::string(begin, static_cast<const char*>(nul));
}

std::vector<SymbolEntry> ElfFile::readSymbols(const Section& symbolTable) {
  const std::string what = "symbol table " + symbolTable.name;
  if (symbolTable.entrySize != kSymbolSize) {
    fail("corrupt " + what + ": entry size " + std::to_string(symbolTable.entrySize) +
         " (expected 24)");
  }
  const Section stringTable = sectionAt(symbolTable.link, what);
  // The section lies in the file (checked in readSections), so the count is bounded by it.
  const uint64_t count = symbolTable.size / kSymbolSize;
  std::vector<SymbolEntry> symbols;
  symbols.reserve(size_t(count));
  for (uint64_t i = 0; i < count; ++i) {
    const uint8_t* p = data_ + symbolTable.offset + i * kSymbolSize;
    SymbolEntry s;
    const uint32_t nameOffset = readLE32(p);
    s.info = p[4];
    s.sectionIndex = readLE16(p + 6);
    s.value = readLE64(p + 8);
    s.size = readLE64(p + 16);
    if (nameOffset != 0) {
      s.name = readString(stringTable, nameOffset, what + " entry " + std::to_string(i));
    }
    symbols.push_back(std::move(s));
  }
  return symbols;
}

std::vector<RelaEntry> ElfFile::readRela(const Section& relaSection) {
  if (relaSection.entrySize != kRelaSize) {
    fail("corrupt relocation section " + relaSection.name + ": entry size " +
         std::to_string(relaSection.entrySize) + " (expected 24)");
  }
  const uint64_t count = relaSection.size / kRelaSize;
  std::vector<RelaEntry> entries;
  entries.reserve(size_t(count));
  for (uint64_t i = 0; i < count; ++i) {
    const uint8_t* p = data_ + relaSection.offset + i * kRelaSize;
    RelaEntry r;
    r.offset = readLE64(p);
    const uint64_t info = readLE64(p + 8);
    r.symbolIndex = uint32_t(info >> 32);
    r.type = uint32_t(info);
    r.addend = int64_t(readLE64(p + 16));
    entries.push_back(r);
  }
  return entries;
}

void ElfFile::parseNotes(uint64_t offset, uint64_t size, const std::string& where,
                         std::vector<Note>& out) const {
  // The range was checked against the file when the segment/section was read.
  uint64_t pos = 0;
  while (pos < size) {
    if (size - pos < 12) {
      fail("corrupt note in " + where + ": " + bytesText(size - pos) +
           " left at its end, too few for a note header");
    }
    const uint8_t* p = data_ + offset + pos;
    const uint64_t nameSize = readLE32(p);
    const uint64_t descSize = readLE32(p + 4);
    Note note;
    note.type = readLE32(p + 8);
    pos += 12;
    const uint64_t nameSpan = alignNote(nameSize);
    if (nameSpan > size - pos || descSize > size - pos - nameSpan) {
      fail("corrupt note in " + where + ": name of " + bytesText(nameSize) + " and descriptor of " +
           bytesText(descSize) + " extend past the end of the notes");
    }
    const char* name = reinterpret_cast<const char*>(data_ + offset + pos);
    note.name.assign(name, size_t(nameSize));
    if (!note.name.empty() && note.name.back() == '\0') note.name.pop_back();
    pos += nameSpan;
    const uint8_t* desc = data_ + offset + pos;
    note.desc.assign(desc, desc + descSize);
    // The last descriptor may omit its padding.
    pos += std::min(alignNote(descSize), size - pos);
    out.push_back(std::move(note));
  }
}

std::vector<Note> ElfFile::notes() {
  std::vector<Note> out;
  int segmentIndex = 0;
  for (const ProgramHeader& ph : programHeaders()) {
    if (ph.type == kPtNote) {
      parseNotes(ph.offset, ph.fileSize, "segment " + std::to_string(segmentIndex), out);
    }
    ++segmentIndex;
  }
  if (!out.empty()) return out;
  for (const Section& s : sections()) {
    if (s.type == kShtNote) parseNotes(s.offset, s.size, "section " + s.name, out);
  }
  return out;
}

}  // namespace vgpu::loader::elf
