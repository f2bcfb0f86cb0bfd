// Decoded instructions by address, shared by every compute unit of the GPU (decode once
// per address). When a wave first reaches a PC, the instruction's bytes are read
// from device memory through `memory` and decoded; from then on every wave of every CU that
// reaches that PC runs the same decoded Instruction. Nothing is loaded ahead of the waves but
// the instructions after a load on the load's page, which timing mode looks at once to decide
// whether the load's data may be written at issue (isa/LoadResultAtIssue.h): code that any host
// software wrote into device memory runs, wherever it is.
//
// Decoded entries live in 4 KiB pages (common/WatchedPages.h). A page holding a decoded
// instruction is watched by the memory, which reports the first write to it (by the host port,
// a kernel store or atomic, a debugger); the page's entries are then dropped and decoded again
// from the new bytes when next reached. So host software may load a code object, overwrite it
// and launch again, as on hardware after an instruction-cache invalidate (the CP's acquire).
//
// An entry's address never changes (pages are never freed), so a compute unit may keep a
// pointer to the instruction after the one it issued: it is the next to issue when its `pc`
// equals the wave's PC (a dropped entry's `pc` is kNoPc).
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>

#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>
#include <tlm>

#include "common/WatchedPages.h"
#include "isa/Isa.h"

namespace vgpu {

class InstructionDecodeCache : public sc_core::sc_module, public PageWriteListener {
 public:
  // Reads instruction bytes from device memory (untimed, uncounted: the compute units time
  // instruction fetch through their instruction caches).
  tlm_utils::simple_initiator_socket<InstructionDecodeCache> memory;

  // `watcher`: the memory behind `memory`, which reports writes to the pages decoded from.
  InstructionDecodeCache(sc_core::sc_module_name name, isa::GfxTarget target, PageWatcher& watcher);
  ~InstructionDecodeCache() override;

  // The decoded instruction at `pc`, or nullptr if `pc` is not 4-byte aligned or its first
  // word is outside device memory (no allocation holds it).
  const isa::Instruction* at(uint64_t pc) {
    const uint64_t number = pc >> kWatchedPageShift;
    Page* page = number == lastPageNumber_ ? lastPage_ : pageFor(number);
    isa::Instruction& slot = page->slots[(pc & (kWatchedPageBytes - 1)) >> 2];
    if (slot.pc == pc) return &slot;
    return decode(*page, slot, pc);
  }

  // A dropped or never-decoded entry's pc (no instruction starts there: not 4-byte aligned).
  static constexpr uint64_t kNoPc = ~uint64_t{0};

  // Instructions decoded (first reached or looked at, or after their page changed).
  uint64_t decodes = 0;
  uint64_t pagesDropped = 0;  // pages whose entries a write dropped

  void watchedPageWritten(uint64_t page) override;

 private:
  static constexpr size_t kSlotsPerPage = kWatchedPageBytes / 4;
  // One entry per 4-byte word; the entry of a word where no instruction starts stays empty.
  // Past the last, kMaxInstructionBytes / 4 - 1 entries that are always empty: the entry after
  // the page's last instruction may be taken (as a next-instruction guess) without a bounds check.
  struct Page {
    uint64_t number = 0;
    bool watched = false;
    isa::Instruction slots[kSlotsPerPage + isa::kMaxInstructionBytes / 4 - 1];
  };

  Page* pageFor(uint64_t number);
  const isa::Instruction* decode(Page& page, isa::Instruction& slot, uint64_t pc);
  // Reads up to `bytes` at `address` (fewer at the end of an allocation); returns how many.
  size_t read(uint64_t address, uint8_t* data, size_t bytes);
  void watch(Page& page);
  static void clear(Page& page);

  isa::GfxTarget target_;
  PageWatcher& watcher_;
  std::unordered_map<uint64_t, std::unique_ptr<Page>> pages_;
  uint64_t lastPageNumber_ = ~uint64_t{0};
  Page* lastPage_ = nullptr;
};

}  // namespace vgpu
