// A generic payload an initiator sends transaction after transaction, instead of one made for
// each: constructing a tlm_generic_payload allocates its array of extension slots and destroying
// it frees them, and a compute unit sends a transaction for every memory instruction and every
// instruction-cache line it reads (a million in a run of a 4 M-element vector_add, whose host
// instructions fell by 7 % when these payloads were reused).
//
// begin() sets every attribute of the generic payload (command, address, data pointer and
// length, byte enables, streaming width, DMI hint, response status, option) as the transaction's
// initiator would on a new payload, so nothing a target wrote into the last transaction is seen
// by the next. Extensions are not touched: every user clears each extension it sets for one
// transaction once the transaction returns, as it must for a payload on the stack too, and may
// keep one set for good (the texture path's refused-address extension, which the payload then
// owns and frees).
#pragma once

#include <cstdint>

#include <tlm>

namespace vgpu {

class ReusedPayload {
 public:
  ReusedPayload() = default;
  ReusedPayload(const ReusedPayload&) = delete;
  ReusedPayload& operator=(const ReusedPayload&) = delete;

  tlm::tlm_generic_payload& begin(tlm::tlm_command command, uint64_t address, unsigned char* data,
                                  unsigned int length) {
    p_.set_command(command);
    p_.set_address(address);
    p_.set_data_ptr(data);
    p_.set_data_length(length);
    p_.set_streaming_width(length);
    p_.set_byte_enable_ptr(nullptr);
    p_.set_byte_enable_length(0);
    p_.set_dmi_allowed(false);
    p_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    p_.set_gp_option(tlm::TLM_MIN_PAYLOAD);
    return p_;
  }
  tlm::tlm_generic_payload& payload() { return p_; }

 private:
  tlm::tlm_generic_payload p_;
};

}  // namespace vgpu
