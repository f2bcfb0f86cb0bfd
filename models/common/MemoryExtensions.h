// TLM-2.0 extensions used inside the GPU. Plain base-protocol transactions (reads and writes
// of bytes with byte enables) travel from the caches to L2 and DRAM; these extensions carry
// what the base protocol cannot say.
#pragma once

#include <tlm>

#include "isa/MemRequest.h"

namespace vgpu {

// A whole-wave memory instruction from a compute unit to its LDS or its texture path: per-lane
// addresses, data and operation. The generic payload around it carries the first active lane's
// address, the command and the total byte count, so a generic monitor still sees something
// meaningful; the receiving block works from the MemRequest.
struct WaveAccessExtension : tlm::tlm_extension<WaveAccessExtension> {
  isa::MemRequest* request = nullptr;
  uint32_t cuId = 0;
  uint32_t waveSlot = 0;
  uint32_t simd = 0;  // the wave's SIMD (the LDS port it uses)
  // LDS only: where the workgroup's allocation starts in the CU's LDS and how large it is.
  uint32_t ldsBase = 0;
  uint32_t ldsSize = 0;

  tlm::tlm_extension_base* clone() const override { return new WaveAccessExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const WaveAccessExtension&>(other);
  }
};

// An atomic read-modify-write on one element: the payload is a write of the operand
// (data pointer, length 4 or 8); the target performs the operation and, when
// returnsData, overwrites the payload data with the value before the operation.
struct AtomicExtension : tlm::tlm_extension<AtomicExtension> {
  isa::AtomicOp op = isa::AtomicOp::None;
  const uint8_t* compare = nullptr;  // CmpSwap compare value (same length as the data)
  bool returnsData = true;
  // The target's answer: set when the operation left a different value in memory (a failing
  // compare-and-swap does not); the initiator clears it before sending.
  bool changedMemory = false;

  tlm::tlm_extension_base* clone() const override { return new AtomicExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const AtomicExtension&>(other);
  }
};

// How the levels below treat a transaction sent inside the memory hierarchy, where the base
// protocol cannot say it: one extension for all such roles, so that a level asks only once.
struct MemoryRoleExtension : tlm::tlm_extension<MemoryRoleExtension> {
  enum class Role : uint8_t {
    // An upper cache level already served it (see common/Cache.h): lower levels forward it for
    // its data only, without counting or timing it.
    ServedAbove,
    // It exists for timing only (a dirty line written back from L2 when it is evicted): DRAM
    // occupies its channel and bank for it but moves no data, because the data already went to
    // DRAM functionally when the store was performed.
    TimingOnly,
    // Its initiator moved the data itself, through a DMI region that covers every byte it
    // accesses (the texture path), or needs none of it (an instruction fetch: the decode cache
    // reads the instructions): the levels below time and count it as any other access but
    // neither forward it for its data nor move any. The data pointer still points at the data
    // (the memory's own bytes), for monitors.
    DataMoved,
  };
  Role role = Role::ServedAbove;

  explicit MemoryRoleExtension(Role r = Role::ServedAbove) : role(r) {}
  tlm::tlm_extension_base* clone() const override { return new MemoryRoleExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    role = static_cast<const MemoryRoleExtension&>(other).role;
  }
};

}  // namespace vgpu
