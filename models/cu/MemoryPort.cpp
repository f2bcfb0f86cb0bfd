#include "cu/MemoryPort.h"

#include <cstring>

#include "common/RefusedAddressExtension.h"
#include "common/SmallCopy.h"

namespace vgpu {

using namespace sc_core;

sc_time MemoryPort::transport(isa::MemRequest& req, const WaveAccessExtension& source,
                              const sc_time& local) {
  // SMEM moves one contiguous block from its address. Whole-wave requests travel in the
  // WaveAccessExtension; the payload's address is the first active lane's, for targets and
  // traces that look at it.
  const int first = req.laneMask ? __builtin_ctzll(req.laneMask) : 64;
  const uint64_t address = req.space == isa::MemSpace::Scalar ? req.address(0, 0)
                           : first < 64                       ? req.address(first, 0)
                                                              : 0;
  tlm::tlm_generic_payload& p =
      payload_.begin(req.op != isa::MemOp::Load ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND,
                     address, req.data.data(), req.elementBytes);
  sc_time delay = local;
  WaveAccessExtension ext = source;
  ext.request = &req;

  switch (req.space) {
    case isa::MemSpace::Scalar: {
      // A plain base-protocol transaction.
      AtomicExtension atomic;
      RefusedAddressExtension refused;
      if (req.op == isa::MemOp::Atomic) {
        atomic.op = req.atomic;
        atomic.compare = static_cast<const isa::MemRequest&>(req).cmpElement(0, 0);
        atomic.returnsData = true;
        p.set_extension(&atomic);
      }
      if (req.laneMask & 1) {
        p.set_extension(&refused);
        sockets_.scalar->b_transport(p, delay);
        p.clear_extension(&refused);
      } else {
        p.set_response_status(tlm::TLM_OK_RESPONSE);
      }
      if (p.get_extension<AtomicExtension>()) {
        p.clear_extension(&atomic);
        if (atomic.changedMemory) req.atomicChangedMemory = true;
      }
      if (p.is_response_error()) {
        // The first byte memory refused: the block may start inside a mapped range.
        req.faulted = true;
        req.faultAddress = refused.valid ? refused.address : req.address(0, 0);
      }
      break;
    }
    case isa::MemSpace::Lds:
    case isa::MemSpace::Vector: {
      p.set_extension(&ext);
      if (req.laneMask == 0) {
        p.set_response_status(tlm::TLM_OK_RESPONSE);  // nothing to access; still counts
      } else if (req.space == isa::MemSpace::Lds) {
        sockets_.lds->b_transport(p, delay);
      } else {
        sockets_.vector->b_transport(p, delay);
      }
      p.clear_extension(&ext);
      // The texture path names the refused byte in the request; an error it did not explain
      // is reported at the first lane's address.
      if (p.is_response_error() && !req.faulted) {
        req.faulted = true;
        req.faultAddress = p.get_address();
      }
      break;
    }
  }
  return delay - local;
}

sc_time MemoryPort::writeLoadIntoLds(isa::MemRequest& req, const WaveAccessExtension& source,
                                     const sc_time& local, const sc_time& delay) {
  if (req.faulted || req.writeback.kind == 0) return delay;
  if (!ldsSide_) ldsSide_ = std::make_unique<isa::MemRequest>();
  if (!isa::ldsWriteOfLoad(req, *ldsSide_)) return delay;
  req.writeback.kind = 0;  // the data is on its way to the LDS: nothing left for the registers
  // The write leaves when the data is back; the LDS's own faults do not exist (out-of-range
  // lanes are dropped), so the response is always OK.
  return delay + transport(*ldsSide_, source, local + delay);
}

sc_time MemoryPort::readStoreDataFromLds(isa::MemRequest& req, const WaveAccessExtension& source,
                                         const sc_time& local) {
  if (req.ldsData == isa::MemRequest::kNoLdsData) return SC_ZERO_TIME;
  if (!ldsSide_) ldsSide_ = std::make_unique<isa::MemRequest>();
  isa::ldsReadOfStore(req, *ldsSide_);
  const sc_time delay = transport(*ldsSide_, source, local);
  isa::storeDataFromLds(req, *ldsSide_);
  return delay;
}

sc_time DirectMemoryPort::access(isa::MemRequest& req, const WaveAccessExtension& source,
                                 const sc_time& local) {
  const sc_time lds = readStoreDataFromLds(req, source, local);
  if (!req.faulted &&
      ((req.space == isa::MemSpace::Vector && req.op != isa::MemOp::Atomic && vectorDirect(req)) ||
       (req.space == isa::MemSpace::Scalar && req.op == isa::MemOp::Load && scalarDirect(req))))
    return writeLoadIntoLds(req, source, local, lds);
  return writeLoadIntoLds(req, source, local, lds + transport(req, source, local + lds));
}

const tlm::tlm_dmi* DirectMemoryPort::regionFor(isa::MemSpace space, uint64_t address,
                                                uint32_t bytes) {
  const bool scalar = space == isa::MemSpace::Scalar;
  tlm::tlm_initiator_socket<>& socket = scalar ? sockets_.scalar : sockets_.vector;
  return (scalar ? scalarDmi_ : vectorDmi_)
      .region(address, bytes, [&](tlm::tlm_generic_payload& p, tlm::tlm_dmi& d) {
        return socket->get_direct_mem_ptr(p, d);
      });
}

uint8_t* DirectMemoryPort::lookup(isa::MemSpace space, uint64_t address, uint64_t bytes) {
  if (bytes == 0 || bytes > UINT32_MAX || address + bytes - 1 < address) return nullptr;
  const tlm::tlm_dmi* d = regionFor(space, address, static_cast<uint32_t>(bytes));
  if (d == nullptr) return nullptr;
  // TLM's region end is inclusive, the remembered one's is not (device memory ends well below
  // 2^64 - 1).
  remember(space, {d->get_start_address(), d->get_end_address() + 1, d->get_dmi_ptr()});
  return d->get_dmi_ptr() + (address - d->get_start_address());
}

bool DirectMemoryPort::scalarDirect(isa::MemRequest& req) {
  // One contiguous block, as the scalar path sends it; nothing to read when bit 0 is clear.
  if (!(req.laneMask & 1)) return true;
  const uint64_t address = req.address(0, 0);
  const tlm::tlm_dmi* d = regionFor(isa::MemSpace::Scalar, address, req.elementBytes);
  if (d == nullptr) return false;
  std::memcpy(req.data.data(), d->get_dmi_ptr() + (address - d->get_start_address()),
              req.elementBytes);
  return true;
}

bool DirectMemoryPort::vectorDirect(isa::MemRequest& req) {
  if (!req.texels.empty()) return false;  // image sampling's texel list: the texture path
  // The element count as a constant: the lane loops below then have no inner loop.
  if (req.elementsPerLane == 1) return vectorDirectElements<1>(req);
  if (req.elementsPerLane == 2) return vectorDirectElements<2>(req);
  return false;  // the texture path handles anything else
}

template <int kElements>
bool DirectMemoryPort::vectorDirectElements(isa::MemRequest& req) {
  // Every element's host address first: an access that DMI does not cover entirely (outside
  // every allocation, across two allocations) goes through the texture path, which reports
  // faults exactly as in timing mode, and nothing has been written before.
  uint8_t* host[64][kElements];
  uint64_t regionStart = 1, regionEnd = 0;  // the region the previous lane used (none yet)
  uint8_t* regionPtr = nullptr;
  for (uint64_t lanes = req.laneMask; lanes != 0; lanes &= lanes - 1) {
    const int lane = __builtin_ctzll(lanes);
    const uint32_t bytes = req.laneBytes[lane] ? req.laneBytes[lane] : req.elementBytes;
    for (int e = 0; e < kElements; ++e) {
      const uint64_t address = req.address(lane, e);
      if (address < regionStart || address + bytes - 1 > regionEnd) {
        const tlm::tlm_dmi* d = regionFor(isa::MemSpace::Vector, address, bytes);
        if (d == nullptr) return false;
        regionStart = d->get_start_address();
        regionEnd = d->get_end_address();
        regionPtr = d->get_dmi_ptr();
      }
      host[lane][e] = regionPtr + (address - regionStart);
    }
  }
  // Lanes in ascending order, as the texture path orders them: of two stores to the same
  // bytes, the higher lane's wins.
  const bool isStore = req.op == isa::MemOp::Store;
  for (uint64_t lanes = req.laneMask; lanes != 0; lanes &= lanes - 1) {
    const int lane = __builtin_ctzll(lanes);
    const uint32_t bytes = req.laneBytes[lane] ? req.laneBytes[lane] : req.elementBytes;
    for (int e = 0; e < kElements; ++e) {
      if (isStore)
        copySmall(host[lane][e], req.element(lane, e), bytes);
      else
        copySmall(req.element(lane, e), host[lane][e], bytes);
    }
  }
  return true;
}

}  // namespace vgpu
