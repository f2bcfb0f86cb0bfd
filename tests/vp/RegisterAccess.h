// The host's register accesses in the vp tests: one 4-byte MMIO read or write through a socket
// (a ProtocolChecker in front of the GPU), waiting for its annotated delay as a host CPU would.
#pragma once

#include <gtest/gtest.h>
#include <cstdint>

#include <systemc>
#include <tlm>

namespace vgpu::test {

inline void registerAccess(tlm::tlm_fw_transport_if<>& mmio, tlm::tlm_command command, uint32_t reg,
                           uint32_t& value) {
  tlm::tlm_generic_payload p;
  p.set_command(command);
  p.set_address(reg);
  p.set_data_ptr(reinterpret_cast<uint8_t*>(&value));
  p.set_data_length(4);
  p.set_streaming_width(4);
  p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  mmio.b_transport(p, delay);
  sc_core::wait(delay);
  EXPECT_TRUE(p.is_response_ok()) << "register " << reg << ": " << p.get_response_string();
}

inline uint32_t mmioRead(tlm::tlm_fw_transport_if<>& mmio, uint32_t reg) {
  uint32_t value = 0;
  registerAccess(mmio, tlm::TLM_READ_COMMAND, reg, value);
  return value;
}

inline void mmioWrite(tlm::tlm_fw_transport_if<>& mmio, uint32_t reg, uint32_t value) {
  registerAccess(mmio, tlm::TLM_WRITE_COMMAND, reg, value);
}

}  // namespace vgpu::test
