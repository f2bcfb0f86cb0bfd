// The compute unit's one way to memory. A memory instruction describes its access as an
// isa::MemRequest; the port takes it to the block that serves it (the LDS, the texture path for
// vector memory, the scalar cache for SMEM) and says when its data is back. Two implementations:
//
// - TimedMemoryPort (timing mode): every request is a TLM transaction on the CU's sockets,
//   whose annotated delay the blocks behind them (LDS banks, vector L1, L2, DRAM) work out.
// - DirectMemoryPort (functional mode): plain vector loads and stores and scalar loads move
//   through the DMI regions the same sockets grant, with no transaction; everything else (LDS,
//   atomics, image sampling, bytes no region maps) goes as TimedMemoryPort sends it, so faults are
//   reported the same way in both modes. It is also the ISA's isa::DirectMemory, through which
//   the commonest accesses complete at issue without a MemRequest.
//
// Loads into the LDS (lds=1) are two steps in both: the data comes back through the texture path,
// then its write goes to the LDS block (port and banks); BUFFER_STORE_LDS_DWORD the other way
// round. The LDS's element rules (range check,
// lane order, atomics) are lds/LdsElementRules.h, used by the LDS block and by DS instructions
// done at issue alike.
#pragma once

#include <cstdint>
#include <memory>

#include <systemc>
#include <tlm>

#include "common/DmiRegions.h"
#include "common/MemoryExtensions.h"
#include "common/ReusedPayload.h"
#include "isa/Isa.h"

namespace vgpu {

class MemoryPort {
 public:
  // The CU's initiator sockets, bound by whoever builds the platform.
  struct Sockets {
    tlm::tlm_initiator_socket<>& lds;
    tlm::tlm_initiator_socket<>& vector;  // to the texture path
    tlm::tlm_initiator_socket<>& scalar;  // to the scalar cache
  };
  explicit MemoryPort(const Sockets& sockets) : sockets_(sockets) {}
  virtual ~MemoryPort() = default;
  MemoryPort(const MemoryPort&) = delete;
  MemoryPort& operator=(const MemoryPort&) = delete;

  // Serves `req` for the wave `source` names, leaving at the CU's local time `local` (ahead of
  // SystemC time). Returns when its data is back, counted from `local`. On a fault sets
  // req.faulted and req.faultAddress (the first byte memory refused).
  virtual sc_core::sc_time access(isa::MemRequest& req, const WaveAccessExtension& source,
                                  const sc_core::sc_time& local) = 0;

 protected:
  // The transaction for `req` on the socket of its space; returns the delay from `local`.
  sc_core::sc_time transport(isa::MemRequest& req, const WaveAccessExtension& source,
                             const sc_core::sc_time& local);
  // A load into the LDS whose data came back `delay` after `local`: its LDS write
  // (isa::ldsWriteOfLoad) goes to the LDS block, which applies it by its element rules and
  // times it on its port and banks. Returns when the write is done (the delay itself for any
  // other request).
  sc_core::sc_time writeLoadIntoLds(isa::MemRequest& req, const WaveAccessExtension& source,
                                    const sc_core::sc_time& local, const sc_core::sc_time& delay);
  // A store whose data is in the LDS (BUFFER_STORE_LDS_DWORD): the LDS block reads it first
  // (isa::ldsReadOfStore), by its element rules and on its port and banks. Returns how long
  // that took (zero for any other request).
  sc_core::sc_time readStoreDataFromLds(isa::MemRequest& req, const WaveAccessExtension& source,
                                        const sc_core::sc_time& local);
  Sockets sockets_;
  // The LDS half of a load into or a store from the LDS (made on first use).
  std::unique_ptr<isa::MemRequest> ldsSide_;
  ReusedPayload payload_;  // every transaction's (transport: one at a time)
};

class TimedMemoryPort final : public MemoryPort {
 public:
  using MemoryPort::MemoryPort;
  sc_core::sc_time access(isa::MemRequest& req, const WaveAccessExtension& source,
                          const sc_core::sc_time& local) override {
    const sc_core::sc_time lds = readStoreDataFromLds(req, source, local);
    return writeLoadIntoLds(req, source, local, lds + transport(req, source, local + lds));
  }
};

class DirectMemoryPort final : public MemoryPort, public isa::DirectMemory {
 public:
  using MemoryPort::MemoryPort;
  sc_core::sc_time access(isa::MemRequest& req, const WaveAccessExtension& source,
                          const sc_core::sc_time& local) override;
  // The memory behind the vector (or scalar) socket revoked DMI over [start, end].
  void invalidate(isa::MemSpace space, uint64_t start, uint64_t end) {
    (space == isa::MemSpace::Scalar ? scalarDmi_ : vectorDmi_).forget(start, end);
    forgetRegions();
  }

 private:
  // isa::DirectMemory: [address, address + bytes) in one DMI region of the texture path
  // (Vector) or of the scalar cache (Scalar).
  uint8_t* lookup(isa::MemSpace space, uint64_t address, uint64_t bytes) override;
  // The region holding [address, address + bytes), asked of the space's socket if no known
  // region does; nullptr when DMI is refused or the bytes run past the granted region.
  const tlm::tlm_dmi* regionFor(isa::MemSpace space, uint64_t address, uint32_t bytes);
  // A vector load or store done on device memory through DMI pointers, as the texture path
  // would do it; false (nothing done) when any lane's element is outside the regions DMI
  // grants, and the request then takes the transaction.
  bool vectorDirect(isa::MemRequest& req);
  template <int kElements>
  bool vectorDirectElements(isa::MemRequest& req);
  // The same for a scalar load (SMEM) through the scalar cache's socket.
  bool scalarDirect(isa::MemRequest& req);

  DmiRegions vectorDmi_, scalarDmi_;
};

}  // namespace vgpu
