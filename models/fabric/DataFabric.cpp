#include "fabric/DataFabric.h"

#include <cstring>
#include <limits>

#include "common/MemoryExtensions.h"
#include "common/SimTime.h"
#include "isa/Atomics.h"

namespace vgpu {

using namespace sc_core;

DataFabric::DataFabric(sc_module_name name, const SystemLinkConfig& link, uint64_t deviceBase,
                       uint64_t deviceBytes)
    : sc_module(name),
      socket("socket"),
      deviceMemory("device_memory"),
      systemMemory("system_memory"),
      link_(link),
      deviceBase_(deviceBase),
      deviceBytes_(deviceBytes),
      latency_(link.latencyNs, SC_NS),
      psPerByte_(1000.0 / link.bandwidthGBs) {
  socket.register_b_transport(this, &DataFabric::b_transport);
  socket.register_transport_dbg(this, &DataFabric::transport_dbg);
  socket.register_get_direct_mem_ptr(this, &DataFabric::get_direct_mem_ptr);
  deviceMemory.register_invalidate_direct_mem_ptr(this, &DataFabric::deviceMemoryInvalidated);
  systemMemory.bind(static_cast<tlm::tlm_bw_transport_if<>&>(*this));
}

void DataFabric::b_transport(int, tlm::tlm_generic_payload& trans, sc_time& delay) {
  if (isDeviceAddress(trans.get_address()))
    deviceMemory->b_transport(trans, delay);
  else
    toSystemMemory(trans, delay);
}

sc_time DataFabric::linkDone(const sc_time& at, uint64_t bytes, bool toGpu, bool posted) {
  const sc_time occupancy = sc_time::from_value(static_cast<uint64_t>(bytes * psPerByte_));
  const sc_time start = (toGpu ? toGpu_ : fromGpu_).reserve(at, occupancy, currentTime());
  return start + occupancy + (posted ? SC_ZERO_TIME : latency_);
}

void DataFabric::toSystemMemory(tlm::tlm_generic_payload& trans, sc_time& delay) {
  using Role = MemoryRoleExtension::Role;
  const auto* role = trans.get_extension<MemoryRoleExtension>();
  const bool servedAbove = role != nullptr && role->role == Role::ServedAbove;
  const bool noData = role != nullptr && role->role != Role::ServedAbove;
  auto* atomic = trans.get_extension<AtomicExtension>();
  const uint64_t bytes = trans.get_data_length();
  const bool read = trans.get_command() == tlm::TLM_READ_COMMAND;
  if (systemMemory.size() == 0) {
    ++systemErrors;
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  if (!servedAbove) {
    // A read's data and an atomic's returned value flow to the GPU; a write's to the memory.
    // Writes are posted (PCI Express Base Specification, "Transaction Ordering": memory writes
    // need no completion), so the GPU waits only for the link to take the data; reads and
    // atomics wait for their completion, a round trip.
    const sc_time now = currentTime();
    const bool posted = !read && atomic == nullptr;
    if (link_.timed) delay = linkDone(now + delay, bytes, !posted, posted) - now;
    atomic ? ++systemAtomics : read ? ++systemReads : ++systemWrites;
    (read ? systemBytesRead : systemBytesWritten) += bytes;
  }
  if (noData) {  // timing only, or the initiator moved the data through DMI
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  if (atomic != nullptr && !servedAbove) {
    if (!systemAtomic(trans, *atomic)) ++systemErrors;
    return;
  }
  // The memory beyond may annotate time of its own; a served access is not timed here.
  sc_time beyond = SC_ZERO_TIME;
  systemMemory->b_transport(trans, beyond);
  if (!servedAbove && link_.timed) delay += beyond;
  if (trans.is_response_error()) ++systemErrors;
}

bool DataFabric::systemAtomic(tlm::tlm_generic_payload& trans, AtomicExtension& atomic) {
  const uint64_t address = trans.get_address();
  const unsigned bytes = trans.get_data_length();
  uint8_t* const data = trans.get_data_ptr();
  uint8_t old[8] = {}, value[8] = {}, ignored[8];
  if (bytes != 4 && bytes != 8) {
    trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return false;
  }
  uint8_t* const memory =
      systemDmi_.find(address, bytes, [this](tlm::tlm_generic_payload& p, tlm::tlm_dmi& d) {
        return systemMemory->get_direct_mem_ptr(p, d);
      });
  if (memory != nullptr && reinterpret_cast<uintptr_t>(memory) % bytes == 0) {
    // Host atomics: the host may change the same word (a signal) at the same time.
    auto casLoop = [&](auto* word) {
      using T = std::remove_pointer_t<decltype(word)>;
      T expected = __atomic_load_n(word, __ATOMIC_ACQUIRE);
      for (;;) {
        std::memcpy(old, &expected, bytes);
        std::memcpy(value, &expected, bytes);
        isa::applyAtomic(atomic.op, bytes, value, data, atomic.compare, ignored);
        T desired;
        std::memcpy(&desired, value, bytes);
        if (__atomic_compare_exchange_n(word, &expected, desired, false, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE)) {
          if (desired != expected) atomic.changedMemory = true;
          break;
        }
      }
    };
    if (bytes == 4)
      casLoop(reinterpret_cast<uint32_t*>(memory));
    else
      casLoop(reinterpret_cast<uint64_t*>(memory));
  } else {
    // A read and a write transaction: atomic with respect to everything inside the simulation.
    tlm::tlm_generic_payload p;
    p.set_address(address);
    p.set_data_length(bytes);
    p.set_streaming_width(bytes);
    p.set_byte_enable_ptr(nullptr);
    p.set_dmi_allowed(false);
    auto access = [&](tlm::tlm_command command, uint8_t* buffer) {
      p.set_command(command);
      p.set_data_ptr(buffer);
      p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      sc_time ignoredDelay = SC_ZERO_TIME;
      systemMemory->b_transport(p, ignoredDelay);
      return p.get_response_status();
    };
    if (tlm::tlm_response_status s = access(tlm::TLM_READ_COMMAND, old);
        s != tlm::TLM_OK_RESPONSE) {
      trans.set_response_status(s);
      return false;
    }
    std::memcpy(value, old, bytes);
    if (isa::applyAtomic(atomic.op, bytes, value, data, atomic.compare, ignored))
      atomic.changedMemory = true;
    if (tlm::tlm_response_status s = access(tlm::TLM_WRITE_COMMAND, value);
        s != tlm::TLM_OK_RESPONSE) {
      trans.set_response_status(s);
      return false;
    }
  }
  if (atomic.returnsData) std::memcpy(data, old, bytes);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
  return true;
}

unsigned int DataFabric::transport_dbg(int, tlm::tlm_generic_payload& trans) {
  if (isDeviceAddress(trans.get_address())) return deviceMemory->transport_dbg(trans);
  if (systemMemory.size() == 0) return 0;
  return systemMemory->transport_dbg(trans);
}

void DataFabric::systemRangeAround(uint64_t address, uint64_t& start, uint64_t& end) const {
  if (address < deviceBase_)
    start = 0, end = deviceBase_ - 1;
  else
    start = deviceBase_ + deviceBytes_, end = std::numeric_limits<uint64_t>::max();
}

bool DataFabric::get_direct_mem_ptr(int, tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) {
  const uint64_t address = trans.get_address();
  if (isDeviceAddress(address)) {
    if (!deviceMemory->get_direct_mem_ptr(trans, dmi)) return false;
    // A region never reaches past the aperture into system memory.
    if (dmi.get_end_address() >= deviceBase_ + deviceBytes_)
      dmi.set_end_address(deviceBase_ + deviceBytes_ - 1);
    return true;
  }
  uint64_t start, end;
  systemRangeAround(address, start, end);
  if (systemMemory.size() == 0 || !systemMemory->get_direct_mem_ptr(trans, dmi)) {
    if (systemMemory.size() == 0) dmi.set_start_address(start), dmi.set_end_address(end);
    return false;
  }
  // Clip to the system range around the address, so that no region covers device addresses.
  if (dmi.get_start_address() < start) {
    dmi.set_dmi_ptr(dmi.get_dmi_ptr() + (start - dmi.get_start_address()));
    dmi.set_start_address(start);
  }
  if (dmi.get_end_address() > end) dmi.set_end_address(end);
  return true;
}

void DataFabric::deviceMemoryInvalidated(sc_dt::uint64 start, sc_dt::uint64 end) {
  for (unsigned i = 0; i < socket.size(); ++i) socket[i]->invalidate_direct_mem_ptr(start, end);
}

tlm::tlm_sync_enum DataFabric::nb_transport_bw(tlm::tlm_generic_payload&, tlm::tlm_phase&,
                                               sc_time&) {
  // The GPU uses the blocking transport only; nothing is in flight on the backward path.
  return tlm::TLM_COMPLETED;
}

void DataFabric::invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) {
  systemDmi_.forget(start, end);
  for (unsigned i = 0; i < socket.size(); ++i) socket[i]->invalidate_direct_mem_ptr(start, end);
}

}  // namespace vgpu
