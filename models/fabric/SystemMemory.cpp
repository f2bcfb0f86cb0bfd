#include "fabric/SystemMemory.h"

#include <sys/mman.h>

#include <cstring>
#include <new>

namespace vgpu {

using namespace sc_core;

SystemMemory::SystemMemory(sc_module_name name, uint64_t base, uint64_t bytes, sc_time latency)
    : sc_module(name), socket("socket"), base_(base), bytes_(bytes), latency_(latency) {
  // Anonymous memory: zero pages that cost nothing until touched.
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  memory_ = static_cast<uint8_t*>(p);
  socket.register_b_transport(this, &SystemMemory::b_transport);
  socket.register_transport_dbg(this, &SystemMemory::transport_dbg);
  socket.register_get_direct_mem_ptr(this, &SystemMemory::get_direct_mem_ptr);
}

SystemMemory::~SystemMemory() {
  munmap(memory_, bytes_);
}

uint8_t* SystemMemory::hostPointer(uint64_t address, uint64_t n) {
  if (address < base_ || address - base_ > bytes_ || n > bytes_ - (address - base_)) return nullptr;
  return memory_ + (address - base_);
}

bool SystemMemory::access(tlm::tlm_generic_payload& trans, bool debug) {
  const uint64_t address = trans.get_address();
  const unsigned len = trans.get_data_length();
  uint8_t* const data = trans.get_data_ptr();
  if (data == nullptr || len == 0) {
    trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return false;
  }
  if (!debug && trans.get_streaming_width() < len) {
    trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return false;
  }
  uint8_t* const bytes = hostPointer(address, len);
  if (bytes == nullptr) {
    if (!debug) ++addressErrors;
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return false;
  }
  const uint8_t* const be = debug ? nullptr : trans.get_byte_enable_ptr();
  const unsigned beLen = trans.get_byte_enable_length();
  if (be != nullptr && beLen == 0) {
    trans.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return false;
  }
  switch (trans.get_command()) {
    case tlm::TLM_READ_COMMAND:
      if (be == nullptr)
        std::memcpy(data, bytes, len);
      else
        for (unsigned i = 0; i < len; ++i)
          if (be[i % beLen] == TLM_BYTE_ENABLED) data[i] = bytes[i];
      if (!debug) ++reads;
      break;
    case tlm::TLM_WRITE_COMMAND:
      if (be == nullptr)
        std::memcpy(bytes, data, len);
      else
        for (unsigned i = 0; i < len; ++i)
          if (be[i % beLen] == TLM_BYTE_ENABLED) bytes[i] = data[i];
      if (!debug) ++writes;
      break;
    default:
      break;
  }
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
  return true;
}

void SystemMemory::b_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
  delay += latency_;
  if (access(trans, false)) trans.set_dmi_allowed(true);
}

unsigned int SystemMemory::transport_dbg(tlm::tlm_generic_payload& trans) {
  if (trans.get_command() == tlm::TLM_IGNORE_COMMAND) return 0;
  return access(trans, true) ? trans.get_data_length() : 0;
}

bool SystemMemory::get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) {
  const uint64_t address = trans.get_address();
  if (hostPointer(address) == nullptr) {
    // Deny below or above the range, as far as the address space goes.
    if (address < base_)
      dmi.set_start_address(0), dmi.set_end_address(base_ - 1);
    else
      dmi.set_start_address(base_ + bytes_), dmi.set_end_address(~uint64_t{0});
    return false;
  }
  dmi.set_dmi_ptr(memory_);
  dmi.set_start_address(base_);
  dmi.set_end_address(base_ + bytes_ - 1);
  dmi.allow_read_write();
  dmi.set_read_latency(latency_);
  dmi.set_write_latency(latency_);
  return true;
}

}  // namespace vgpu
