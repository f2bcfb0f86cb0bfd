// A TLM-2.0 base-protocol checker for loosely-timed paths: a pass-through interconnect module
// placed between an initiator and a target. Every b_transport, transport_dbg and
// get_direct_mem_ptr crossing it is forwarded unchanged and checked against the base-protocol
// rules of IEEE 1666-2011 (the generic payload's attributes, section 14; DMI, section 11.2;
// debug transport, section 11.3). The checker records each violation as text (it never stops the
// simulation, so a test can report all of them) and counts the traffic it saw, so a test can
// tell that a boundary was really exercised.
//
// Rules checked (initiator: what crosses on the way in; target: what comes back):
//  - initiator: response status TLM_INCOMPLETE_RESPONSE on entry; a data pointer for a
//    read/write; data length > 0; streaming width > 0; byte-enable length > 0 when a
//    byte-enable pointer is given.
//  - target: response status no longer TLM_INCOMPLETE_RESPONSE on return; command, address,
//    data pointer, data length, byte-enable pointer and length, and streaming width unchanged
//    (no component of this model translates addresses, so the address must come back as sent);
//    TLM_BYTE_ENABLE_ERROR_RESPONSE only for a payload that had byte enables; a read with byte
//    enables answered OK leaves the disabled bytes of the data buffer untouched.
//  - transport_dbg: command, address, data pointer and length unchanged, and the byte count
//    returned no larger than the length.
//  - get_direct_mem_ptr: the range (granted or denied) contains the requested address; a grant
//    has a pointer and grants the access the payload's command asks for. Granted ranges are
//    remembered until the target invalidates them; a read answered OK by b_transport inside a
//    still-valid read grant must match the bytes behind the DMI pointer (a stale grant, one the
//    target should have invalidated, shows up here).
#pragma once

#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>

namespace vgpu::test {

class ProtocolChecker : public sc_core::sc_module,
                        public tlm::tlm_fw_transport_if<>,
                        public tlm::tlm_bw_transport_if<> {
 public:
  tlm::tlm_target_socket<> target;        // bind the initiator's socket here
  tlm::tlm_initiator_socket<> initiator;  // bind this to the target's socket

  explicit ProtocolChecker(sc_core::sc_module_name name)
      : sc_module(name), target("target"), initiator("initiator") {
    target.bind(*this);
    initiator.bind(*this);
  }

  const std::vector<std::string>& violations() const { return violations_; }
  uint64_t transports = 0, debugTransports = 0, dmiRequests = 0, dmiGrants = 0, invalidations = 0,
           okResponses = 0, errorResponses = 0, dmiDataChecks = 0;
  struct Region {
    uint64_t start, end;
    uint8_t* pointer;
    bool read, write;
  };
  // DMI grants the target has given and not invalidated.
  const std::vector<Region>& dmiRegions() const { return regions_; }

  // ---- forward path ----
  void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) override {
    ++transports;
    const Snapshot before(t);
    checkRequest(t, "b_transport");
    std::vector<uint8_t> disabledBefore;
    const bool checkDisabled = t.is_read() && t.get_byte_enable_ptr() != nullptr &&
                               t.get_byte_enable_length() > 0 && t.get_data_ptr() != nullptr;
    if (checkDisabled)
      disabledBefore.assign(t.get_data_ptr(), t.get_data_ptr() + t.get_data_length());
    initiator->b_transport(t, delay);
    const tlm::tlm_response_status status = t.get_response_status();
    if (status == tlm::TLM_INCOMPLETE_RESPONSE)
      violation(t, "b_transport returned with TLM_INCOMPLETE_RESPONSE");
    status == tlm::TLM_OK_RESPONSE ? ++okResponses : ++errorResponses;
    before.compare(t, "b_transport", *this);
    if (status == tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE && before.byteEnables == nullptr)
      violation(t, "TLM_BYTE_ENABLE_ERROR_RESPONSE for a payload without byte enables");
    if (checkDisabled && status == tlm::TLM_OK_RESPONSE) {
      const unsigned beLen = t.get_byte_enable_length();
      for (unsigned i = 0; i < t.get_data_length(); ++i)
        if (t.get_byte_enable_ptr()[i % beLen] == TLM_BYTE_DISABLED &&
            t.get_data_ptr()[i] != disabledBefore[i]) {
          violation(t, "a read wrote byte " + std::to_string(i) + " whose byte enable is off");
          break;
        }
    }
    if (status == tlm::TLM_OK_RESPONSE && t.is_read() && !hasExtensions(t)) checkAgainstDmi(t);
  }

  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& t, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override {
    return initiator->nb_transport_fw(t, phase, delay);
  }

  bool get_direct_mem_ptr(tlm::tlm_generic_payload& t, tlm::tlm_dmi& dmi) override {
    ++dmiRequests;
    const uint64_t address = t.get_address();
    const bool granted = initiator->get_direct_mem_ptr(t, dmi);
    if (address < dmi.get_start_address() || address > dmi.get_end_address())
      violation(t, "DMI range " + range(dmi.get_start_address(), dmi.get_end_address()) +
                       " does not contain the requested address");
    if (granted) {
      ++dmiGrants;
      if (dmi.get_dmi_ptr() == nullptr) violation(t, "DMI granted without a pointer");
      if ((t.is_read() && !dmi.is_read_allowed()) || (t.is_write() && !dmi.is_write_allowed()))
        violation(t, "DMI granted without the access the payload asked for");
      if (dmi.get_dmi_ptr() != nullptr)
        regions_.push_back({dmi.get_start_address(), dmi.get_end_address(), dmi.get_dmi_ptr(),
                            dmi.is_read_allowed(), dmi.is_write_allowed()});
    }
    return granted;
  }

  unsigned int transport_dbg(tlm::tlm_generic_payload& t) override {
    ++debugTransports;
    const Snapshot before(t);
    const unsigned n = initiator->transport_dbg(t);
    if (n > before.length)
      violation(t, "transport_dbg returned " + std::to_string(n) + " bytes for a " +
                       std::to_string(before.length) + "-byte payload");
    before.compareDebug(t, *this);
    return n;
  }

  // ---- backward path ----
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override {
    return target->nb_transport_bw(t, phase, delay);
  }

  void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) override {
    ++invalidations;
    std::vector<Region> kept;
    for (const Region& r : regions_)
      if (r.end < start || r.start > end) kept.push_back(r);
    regions_ = std::move(kept);
    target->invalidate_direct_mem_ptr(start, end);
  }

 private:
  struct Snapshot {
    tlm::tlm_command command;
    uint64_t address;
    unsigned char* data;
    unsigned length;
    unsigned char* byteEnables;
    unsigned byteEnableLength;
    unsigned streamingWidth;
    explicit Snapshot(const tlm::tlm_generic_payload& t)
        : command(t.get_command()),
          address(t.get_address()),
          data(t.get_data_ptr()),
          length(t.get_data_length()),
          byteEnables(t.get_byte_enable_ptr()),
          byteEnableLength(t.get_byte_enable_length()),
          streamingWidth(t.get_streaming_width()) {}
    void compareDebug(const tlm::tlm_generic_payload& t, ProtocolChecker& c) const {
      if (t.get_command() != command) c.violation(t, "the target changed the command");
      if (t.get_address() != address)
        c.violation(t, "the target changed the address (sent " + hex(address) + ")");
      if (t.get_data_ptr() != data) c.violation(t, "the target changed the data pointer");
      if (t.get_data_length() != length) c.violation(t, "the target changed the data length");
    }
    void compare(const tlm::tlm_generic_payload& t, const char* what, ProtocolChecker& c) const {
      compareDebug(t, c);
      if (t.get_byte_enable_ptr() != byteEnables || t.get_byte_enable_length() != byteEnableLength)
        c.violation(t, std::string(what) + ": the target changed the byte enables");
      if (t.get_streaming_width() != streamingWidth)
        c.violation(t, std::string(what) + ": the target changed the streaming width");
    }
  };

  void checkRequest(const tlm::tlm_generic_payload& t, const char* what) {
    if (t.get_response_status() != tlm::TLM_INCOMPLETE_RESPONSE)
      violation(t, std::string(what) + ": the initiator did not set TLM_INCOMPLETE_RESPONSE");
    if (t.get_command() != tlm::TLM_IGNORE_COMMAND && t.get_data_ptr() == nullptr)
      violation(t, std::string(what) + ": no data pointer");
    if (t.get_data_length() == 0) violation(t, std::string(what) + ": data length 0");
    if (t.get_streaming_width() == 0) violation(t, std::string(what) + ": streaming width 0");
    if (t.get_byte_enable_ptr() != nullptr && t.get_byte_enable_length() == 0)
      violation(t, std::string(what) + ": byte-enable pointer with length 0");
  }

  static bool hasExtensions(const tlm::tlm_generic_payload& t) {
    for (unsigned i = 0; i < tlm::max_num_extensions(); ++i)
      if (t.get_extension(i) != nullptr) return true;
    return false;
  }

  void checkAgainstDmi(const tlm::tlm_generic_payload& t) {
    const uint64_t a = t.get_address();
    const unsigned n = t.get_data_length();
    if (n == 0 || t.get_streaming_width() < n) return;
    for (const Region& r : regions_) {
      if (!r.read || a < r.start || a + n - 1 > r.end) continue;
      ++dmiDataChecks;
      const uint8_t* behind = r.pointer + (a - r.start);
      const unsigned char* be = t.get_byte_enable_ptr();
      const unsigned beLen = t.get_byte_enable_length();
      for (unsigned i = 0; i < n; ++i) {
        if (be != nullptr && beLen > 0 && be[i % beLen] == TLM_BYTE_DISABLED) continue;
        if (behind[i] != t.get_data_ptr()[i]) {
          violation(t, "read data differs from the memory behind DMI grant " +
                           range(r.start, r.end) + ": a stale grant not invalidated");
          return;
        }
      }
      return;
    }
  }

  static std::string hex(uint64_t v) {
    std::ostringstream os;
    os << "0x" << std::hex << v;
    return os.str();
  }
  static std::string range(uint64_t s, uint64_t e) { return "[" + hex(s) + ", " + hex(e) + "]"; }

  void violation(const tlm::tlm_generic_payload& t, const std::string& what) {
    if (violations_.size() >= 100) return;  // enough to diagnose
    violations_.push_back(std::string(name()) + ": " + what + " (command " +
                          std::to_string(t.get_command()) + ", address " + hex(t.get_address()) +
                          ", length " + std::to_string(t.get_data_length()) + ")");
  }

  std::vector<std::string> violations_;
  std::vector<Region> regions_;
};

}  // namespace vgpu::test
