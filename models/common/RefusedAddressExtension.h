// Which byte a memory refused. A transaction refused with TLM_ADDRESS_ERROR_RESPONSE says only
// that some enabled byte lies outside what the target answers for; a wave's fault report (and
// host software naming the buffer a kernel overran, vgpu-sim run --check-memory) needs the
// first such byte, because a line transaction usually starts inside a buffer and only its tail
// lies beyond the end. An initiator that wants it attaches this extension; DRAM fills it in
// when it refuses an access (models/dram/Dram.cpp) and leaves it alone otherwise, so the
// initiator clears `valid` after reading it. Kept out of common/MemoryExtensions.h: only the
// texture path, the compute unit's scalar path and DRAM use it.
#pragma once

#include <cstdint>

#include <tlm>

namespace vgpu {

struct RefusedAddressExtension : tlm::tlm_extension<RefusedAddressExtension> {
  uint64_t address = 0;  // the lowest enabled byte of the access that was refused
  bool valid = false;    // set by the memory that refused the access

  tlm::tlm_extension_base* clone() const override { return new RefusedAddressExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const RefusedAddressExtension&>(other);
  }
};

}  // namespace vgpu
