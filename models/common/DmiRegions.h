// The DMI regions an initiator was granted by the memory behind it (the compute unit in
// functional mode, the texture path, a cache serving a hit): the data of most accesses then goes
// straight between host buffers instead of travelling with a transaction down to DRAM.
//
// A region is asked for on the first access it would hold; a range the memory denies is not
// asked for again until the memory revokes DMI (forget()), and an access no region holds whole
// (outside every allocation, across two) takes the transaction path, where the memory reports
// any fault. A region may allow reads only (DRAM grants that over pages whose writes it must see,
// such as those holding decoded code): a read is served there, a write takes the transaction
// path.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include <tlm>

namespace vgpu {

// Whether a DMI grant allows what a transaction of `command` does (a grant may allow reads
// only, as DRAM's over pages of decoded code).
inline bool dmiAllows(const tlm::tlm_dmi& dmi, tlm::tlm_command command) {
  return command == tlm::TLM_READ_COMMAND ? dmi.is_read_allowed() : dmi.is_write_allowed();
}

class DmiRegions {
 public:
  // What the caller will do with the bytes: a region must allow it.
  enum class Access { Read, ReadWrite };

  // The host bytes of [address, address + length) (length >= 1), or null. `ask(payload, dmi)`
  // asks the memory for a region around the payload's address (get_direct_mem_ptr).
  template <class Ask>
  uint8_t* find(uint64_t address, uint32_t length, Ask&& ask, Access access = Access::ReadWrite) {
    const tlm::tlm_dmi* d = region(address, length, ask, access);
    return d ? d->get_dmi_ptr() + (address - d->get_start_address()) : nullptr;
  }
  // The region holding [address, address + length) whole, or null (as find()).
  template <class Ask>
  const tlm::tlm_dmi* region(uint64_t address, uint32_t length, Ask&& ask,
                             Access access = Access::ReadWrite) {
    if (last_ < regions_.size()) {
      const tlm::tlm_dmi& d = regions_[last_];
      if (address >= d.get_start_address() && address + length - 1 <= d.get_end_address())
        return allows(d, access) ? &d : nullptr;
    }
    return regionOrAsk(address, length, ask, access);
  }
  // The memory revoked DMI over [start, end]: drops the regions overlapping it, and forgets
  // what it denied (it may grant that now).
  void forget(uint64_t start, uint64_t end) {
    dropOverlapping(start, end);
    deniedStart_ = 1, deniedEnd_ = 0;
  }

 private:
  void dropOverlapping(uint64_t start, uint64_t end) {
    regions_.erase(std::remove_if(regions_.begin(), regions_.end(),
                                  [&](const tlm::tlm_dmi& d) {
                                    return d.get_start_address() <= end &&
                                           start <= d.get_end_address();
                                  }),
                   regions_.end());
    last_ = 0;
  }
  static bool allows(const tlm::tlm_dmi& d, Access access) {
    return access == Access::Read ? d.is_read_allowed() : d.is_read_write_allowed();
  }
  template <class Ask>
  const tlm::tlm_dmi* regionOrAsk(uint64_t address, uint32_t length, Ask& ask, Access access) {
    auto covers = [&](const tlm::tlm_dmi& d) {
      return address >= d.get_start_address() && address + length - 1 <= d.get_end_address();
    };
    auto startsAfter = [](uint64_t a, const tlm::tlm_dmi& d) { return a < d.get_start_address(); };
    auto after = std::upper_bound(regions_.begin(), regions_.end(), address, startsAfter);
    if (after != regions_.begin() && address <= (after - 1)->get_end_address()) {
      // In a region granted already; the bytes may run past its end (into another allocation).
      if (!covers(*(after - 1))) return nullptr;
      last_ = static_cast<size_t>(after - 1 - regions_.begin());
      return allows(after[-1], access) ? &after[-1] : nullptr;
    }
    if (address >= deniedStart_ && address <= deniedEnd_) return nullptr;
    tlm::tlm_generic_payload p;
    p.set_command(tlm::TLM_READ_COMMAND);
    p.set_address(address);
    tlm::tlm_dmi dmi;
    if (!ask(p, dmi)) {
      // The memory says for how far around the address it would deny it again.
      if (dmi.get_start_address() <= address && address <= dmi.get_end_address())
        deniedStart_ = dmi.get_start_address(), deniedEnd_ = dmi.get_end_address();
      return nullptr;
    }
    if (!dmi.is_read_allowed() || dmi.get_dmi_ptr() == nullptr ||
        address < dmi.get_start_address() || address > dmi.get_end_address())
      return nullptr;
    // Keep the regions disjoint: drop any the new grant overlaps (the memory's view is newer).
    dropOverlapping(dmi.get_start_address(), dmi.get_end_address());
    auto at = regions_.insert(
        std::upper_bound(regions_.begin(), regions_.end(), dmi.get_start_address(), startsAfter),
        dmi);
    last_ = static_cast<size_t>(at - regions_.begin());
    return covers(*at) && allows(*at, access) ? &*at : nullptr;
  }

  std::vector<tlm::tlm_dmi> regions_;         // disjoint, sorted by start
  size_t last_ = 0;                           // the one used last
  uint64_t deniedStart_ = 1, deniedEnd_ = 0;  // denied addresses (none while start > end)
};

}  // namespace vgpu
