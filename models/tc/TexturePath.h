// The texture path of one compute unit: the texture-address unit turns a wave's vector memory
// instruction (per-lane addresses, from the ISA) into transactions on 64-byte lines, and the
// vector L1 cache (16 KiB, write-through) sits between it and L2. Loads and stores become one
// base-protocol transaction per line touched (byte enables where lanes leave gaps); atomics one
// transaction per lane, executed at the memory.
#pragma once

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

#include "common/Cache.h"
#include "common/DmiRegions.h"
#include "common/MemoryExtensions.h"
#include "common/PlatformConfig.h"
#include "common/Reservation.h"
#include "common/ReusedPayload.h"

namespace vgpu {

namespace trace {
class TextureAddressProbe;
}

class TexturePath : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<TexturePath> socket;  // from the compute unit
  Cache vectorL1;                                       // bind vectorL1.memory to L2

  TexturePath(sc_core::sc_module_name name, const CacheConfig& l1Config,
              sc_core::sc_time clockPeriod);

  uint64_t instructions = 0, lineTransactions = 0, laneAccesses = 0;
  // Image (MIMG) instructions, the cycles their address processing took (a quad per cycle) and
  // the filter unit's cycles for sampling (four bilinear footprints per cycle); see
  // docs/images.md for the rates and their sources.
  uint64_t imageInstructions = 0, imageAddressCycles = 0, filterCycles = 0;
  // The VCD and timeline (models/trace), set by the GPU when tracing; null: off.
  trace::TextureAddressProbe* traceProbe = nullptr;

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned int transport_dbg(tlm::tlm_generic_payload& trans);
  // DMI passes through to the memory behind the caches (functional mode reads and writes
  // device memory directly); revocations pass back to the compute unit.
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);
  void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end);

  tlm_utils::simple_initiator_socket<TexturePath> toL1_;
  sc_core::sc_time period_;
  uint32_t lineBytes_;
  BusyUntil addressUnit_;  // one line (or one atomic lane) per cycle
  // Image address processing, one quad per cycle: a stage ahead of the line requests, so an
  // instruction's lines go out while the next instruction's quads are processed.
  BusyUntil quadUnit_;
  BusyUntil filterUnit_;  // four bilinear footprints per cycle (image sampling)
  bool timed_;

  // The pieces of the lanes' elements, one per line an element touches, as two arrays: the
  // piece's byte address, and where its bytes are in MemRequest::data with how many
  // (dataOffset | bytes << 16, which also says which lane and element it is).
  static uint32_t pieceData(uint32_t dataOffset, uint32_t bytes) {
    return dataOffset | bytes << 16;
  }
  static uint32_t dataOffsetOf(uint32_t data) { return data & 0xffff; }
  static uint32_t bytesOf(uint32_t data) { return data >> 16; }
  // How many lanes the request has if its active lanes are consecutive and their whole
  // elements (one per lane, a power of two bytes, aligned to it) lie one after another in
  // lane order; 0 otherwise.
  uint32_t contiguousLanes(const isa::MemRequest& req) const;
  // Splits the request's elements into pieces (pieceAddress_, pieceData_) in lane, element,
  // address order; returns how many. `sorted`: whether their lines are in ascending order.
  size_t split(const isa::MemRequest& req, bool& sorted);
  // Orders the first n pieces by line, keeping the order of pieces in the same line (so the
  // highest lane's store to a byte wins).
  void sortByLine(size_t n);
  // The host bytes of [address, address + length) in a DMI region of the memory behind the
  // caches, or null when no region covers them all (outside every allocation, across two, no
  // DMI below): then the data travels with the transaction, and the memory reports any fault.
  uint8_t* directData(uint64_t address, uint32_t length) {
    return dmi_.find(address, length, [this](tlm::tlm_generic_payload& p, tlm::tlm_dmi& d) {
      return toL1_->get_direct_mem_ptr(p, d);
    });
  }

  // Scratch space of b_transport, kept between instructions so none allocates: the pieces (and
  // room to sort them), the line payload and atomic extension (set up afresh for every
  // transaction), the line's data and byte enables (all disabled between lines), and a line of
  // enabled bytes to compare with. The piece lists are one set shared by every texture path
  // (PieceLists in the source): b_transport never yields, so no two use them at once, and one
  // set stays in the host's caches where 60 CUs' own sets (17 KB each) did not.
  struct PieceLists;
  static PieceLists& pieceLists(size_t maxPieces);
  std::vector<uint64_t>&pieceAddress_, &sortedAddress_;
  std::vector<uint32_t>&pieceData_, &sortedData_;
  std::vector<uint16_t>& pieceOrder_;
  std::vector<uint64_t>& sortKeys_;
  ReusedPayload payload_;  // the line transactions' (one at a time)
  AtomicExtension atomic_;
  // Marks a line transaction whose data the texture path moved itself through DMI.
  MemoryRoleExtension dataMoved_{MemoryRoleExtension::Role::DataMoved};
  // The DMI regions granted so far: data goes straight between the lanes and memory, and the
  // line transactions carry timing only.
  DmiRegions dmi_;
  std::vector<uint8_t> lineData_, byteEnable_, allEnabled_;
};

}  // namespace vgpu
