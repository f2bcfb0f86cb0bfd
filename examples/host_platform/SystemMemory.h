// The host's system memory: a plain TLM-2.0 memory (byte enables, debug transport, DMI).
#pragma once

#include <cstring>
#include <vector>

#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

class SystemMemory : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<SystemMemory> socket;

  SystemMemory(sc_core::sc_module_name name, uint64_t bytes, sc_core::sc_time latency)
      : sc_module(name), socket("socket"), bytes_(bytes, 0), latency_(latency) {
    socket.register_b_transport(this, &SystemMemory::b_transport);
    socket.register_transport_dbg(this, &SystemMemory::transport_dbg);
    socket.register_get_direct_mem_ptr(this, &SystemMemory::get_direct_mem_ptr);
  }

 private:
  bool inside(uint64_t address, uint64_t length) const {
    return address <= bytes_.size() && length <= bytes_.size() - address;
  }

  void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
    const uint64_t a = t.get_address();
    const unsigned n = t.get_data_length();
    if (!inside(a, n)) {
      t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    if (t.get_streaming_width() < n) {
      t.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
      return;
    }
    const unsigned char* be = t.get_byte_enable_ptr();
    const unsigned beLength = t.get_byte_enable_length();
    for (unsigned i = 0; i < n; ++i) {
      if (be != nullptr && be[i % beLength] == TLM_BYTE_DISABLED) continue;
      if (t.is_read())
        t.get_data_ptr()[i] = bytes_[a + i];
      else if (t.is_write())
        bytes_[a + i] = t.get_data_ptr()[i];
    }
    delay += latency_;
    t.set_dmi_allowed(true);
    t.set_response_status(tlm::TLM_OK_RESPONSE);
  }

  unsigned int transport_dbg(tlm::tlm_generic_payload& t) {
    const uint64_t a = t.get_address();
    if (a >= bytes_.size()) return 0;
    const unsigned n =
        static_cast<unsigned>(std::min<uint64_t>(t.get_data_length(), bytes_.size() - a));
    if (t.is_read()) std::memcpy(t.get_data_ptr(), &bytes_[a], n);
    if (t.is_write()) std::memcpy(&bytes_[a], t.get_data_ptr(), n);
    return n;
  }

  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi& dmi) {
    dmi.set_dmi_ptr(bytes_.data());
    dmi.set_start_address(0);
    dmi.set_end_address(bytes_.size() - 1);
    dmi.allow_read_write();
    dmi.set_read_latency(latency_);
    dmi.set_write_latency(latency_);
    return true;
  }

  std::vector<uint8_t> bytes_;
  sc_core::sc_time latency_;
};
