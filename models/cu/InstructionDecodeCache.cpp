#include "cu/InstructionDecodeCache.h"

#include "common/MemoryExtensions.h"

namespace vgpu {

InstructionDecodeCache::InstructionDecodeCache(sc_core::sc_module_name name, isa::GfxTarget target,
                                               PageWatcher& watcher)
    : sc_module(name), memory("memory"), target_(target), watcher_(watcher) {}

InstructionDecodeCache::~InstructionDecodeCache() = default;

void InstructionDecodeCache::clear(Page& page) {
  for (isa::Instruction& slot : page.slots) slot.pc = kNoPc;
}

InstructionDecodeCache::Page* InstructionDecodeCache::pageFor(uint64_t number) {
  std::unique_ptr<Page>& page = pages_[number];
  if (!page) {
    page = std::make_unique<Page>();
    page->number = number;
    clear(*page);
  }
  lastPageNumber_ = number;
  lastPage_ = page.get();
  return lastPage_;
}

size_t InstructionDecodeCache::read(uint64_t address, uint8_t* data, size_t bytes) {
  // As a level above DRAM that served the access would send it: DRAM moves the bytes (and
  // refuses addresses outside every allocation) without counting or timing it.
  MemoryRoleExtension role(MemoryRoleExtension::Role::ServedAbove);
  for (; bytes >= 4; bytes -= 4) {
    tlm::tlm_generic_payload p;
    p.set_command(tlm::TLM_READ_COMMAND);
    p.set_address(address);
    p.set_data_ptr(data);
    p.set_data_length(static_cast<unsigned>(bytes));
    p.set_streaming_width(static_cast<unsigned>(bytes));
    p.set_byte_enable_ptr(nullptr);
    p.set_dmi_allowed(false);
    p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    p.set_extension(&role);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    memory->b_transport(p, delay);
    p.clear_extension(&role);
    if (p.is_response_ok()) return bytes;
  }
  return 0;
}

void InstructionDecodeCache::watch(Page& page) {
  if (page.watched) return;
  page.watched = true;
  watcher_.watchPage(page.number, *this);
}

const isa::Instruction* InstructionDecodeCache::decode(Page& page, isa::Instruction& slot,
                                                       uint64_t pc) {
  if (pc % 4 != 0) return nullptr;
  uint8_t bytes[isa::kMaxInstructionBytes];
  const size_t avail = read(pc, bytes, sizeof bytes);
  if (avail == 0) return nullptr;
  // Watch before keeping the entry: watching revokes DMI, which cannot write under us then.
  watch(page);
  slot = isa::decodeInstruction(bytes, avail, pc, target_);
  ++decodes;
  // An instruction that runs into the next page depends on its bytes too.
  const uint64_t last = (pc + slot.sizeBytes - 1) >> kWatchedPageShift;
  if (last != page.number) {
    Page& next = *pageFor(last);
    watch(next);
    lastPageNumber_ = page.number;
    lastPage_ = &page;
  }
  return &slot;
}

void InstructionDecodeCache::watchedPageWritten(uint64_t number) {
  auto it = pages_.find(number);
  if (it != pages_.end()) {
    it->second->watched = false;
    clear(*it->second);
    ++pagesDropped;
  }
  // Instructions of the page before that run into this one (starting in its last 8 bytes).
  auto before = pages_.find(number - 1);
  if (before != pages_.end()) {
    const size_t reach = isa::kMaxInstructionBytes / 4 - 1;
    for (size_t i = kSlotsPerPage - reach; i < kSlotsPerPage; ++i)
      before->second->slots[i].pc = kNoPc;
  }
}

}  // namespace vgpu
