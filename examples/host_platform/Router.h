// A TLM-2.0 address decoder: any number of initiators (the host CPU, the GPU as a bus master),
// any number of targets, each at a base address with a size. Addresses are translated to
// target-local ones (address - base, plus the target's offset) on the way in and back on DMI grants
// and invalidations; an access no target claims (or one straddling two) gets
// TLM_ADDRESS_ERROR_RESPONSE.
#pragma once

#include <string>
#include <vector>

#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <systemc>
#include <tlm>

class Router : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<Router> fromInitiators;
  tlm_utils::multi_passthrough_initiator_socket<Router> toTargets;

  explicit Router(sc_core::sc_module_name name)
      : sc_module(name), fromInitiators("from_initiators"), toTargets("to_targets") {
    fromInitiators.register_b_transport(this, &Router::b_transport);
    fromInitiators.register_transport_dbg(this, &Router::transport_dbg);
    fromInitiators.register_get_direct_mem_ptr(this, &Router::get_direct_mem_ptr);
    toTargets.register_invalidate_direct_mem_ptr(this, &Router::invalidate_direct_mem_ptr);
  }

  // Binds `target` as the next target, claiming [base, base + size); the target sees the
  // address (address - base + offset).
  template <typename Socket>
  void map(Socket& target, uint64_t base, uint64_t size, uint64_t offset, std::string what) {
    ranges_.push_back({base, size, offset, std::move(what)});
    toTargets.bind(target);
  }

 private:
  struct Range {
    uint64_t base, size, offset;
    std::string what;
  };

  // The target index for the access, or -1 when unmapped; translates the address.
  int decode(tlm::tlm_generic_payload& t) const {
    const uint64_t a = t.get_address();
    const uint64_t n = std::max(1u, t.get_data_length());
    for (size_t i = 0; i < ranges_.size(); ++i) {
      const Range& r = ranges_[i];
      if (a >= r.base && a - r.base < r.size && n <= r.size - (a - r.base)) {
        t.set_address(a - r.base + r.offset);
        return static_cast<int>(i);
      }
    }
    return -1;
  }

  void b_transport(int, tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
    const uint64_t address = t.get_address();
    const int i = decode(t);
    if (i < 0) {
      t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    toTargets[i]->b_transport(t, delay);
    t.set_address(address);  // the initiator gets its payload back as it sent it
  }

  unsigned int transport_dbg(int, tlm::tlm_generic_payload& t) {
    const uint64_t address = t.get_address();
    const int i = decode(t);
    if (i < 0) return 0;
    const unsigned n = toTargets[i]->transport_dbg(t);
    t.set_address(address);
    return n;
  }

  bool get_direct_mem_ptr(int, tlm::tlm_generic_payload& t, tlm::tlm_dmi& dmi) {
    const uint64_t address = t.get_address();
    const int i = decode(t);
    if (i < 0) {
      dmi.set_start_address(address);
      dmi.set_end_address(address);
      return false;
    }
    const bool granted = toTargets[i]->get_direct_mem_ptr(t, dmi);
    t.set_address(address);
    // Back to the initiator's addresses, clipped to the range the router maps.
    const Range& r = ranges_[i];
    const uint64_t start = std::max<uint64_t>(dmi.get_start_address(), r.offset);
    const uint64_t end = std::min<uint64_t>(dmi.get_end_address(), r.offset + r.size - 1);
    if (granted) dmi.set_dmi_ptr(dmi.get_dmi_ptr() + (start - dmi.get_start_address()));
    dmi.set_start_address(start - r.offset + r.base);
    dmi.set_end_address(end - r.offset + r.base);
    return granted;
  }

  void invalidate_direct_mem_ptr(int i, sc_dt::uint64 start, sc_dt::uint64 end) {
    const Range& r = ranges_[i];
    const uint64_t s = std::max<uint64_t>(start, r.offset);
    const uint64_t e = std::min<uint64_t>(end, r.offset + r.size - 1);
    if (s > e) return;
    for (unsigned k = 0; k < fromInitiators.size(); ++k)
      fromInitiators[k]->invalidate_direct_mem_ptr(s - r.offset + r.base, e - r.offset + r.base);
  }

  std::vector<Range> ranges_;
};
