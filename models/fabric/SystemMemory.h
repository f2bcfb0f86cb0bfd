// A plain system memory for platforms that have no memory model of their own: the standalone
// simulator, the tests, the HSA runtime's examples. One range [base, base + bytes), zero-filled
// host memory reserved at construction and committed by the OS page by page as it is touched
// (so a large memory costs only what is used). Reads and writes with byte enables, DMI over the
// whole range, debug transport; accesses outside the range get TLM_ADDRESS_ERROR_RESPONSE.
// Each access takes `latency` (the memory controller's; the link to the GPU has its own).
#pragma once

#include <tlm_utils/simple_target_socket.h>
#include <cstdint>

#include <systemc>
#include <tlm>

namespace vgpu {

class SystemMemory : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<SystemMemory> socket;

  SystemMemory(sc_core::sc_module_name name, uint64_t base, uint64_t bytes,
               sc_core::sc_time latency = sc_core::SC_ZERO_TIME);
  ~SystemMemory() override;
  SystemMemory(const SystemMemory&) = delete;
  SystemMemory& operator=(const SystemMemory&) = delete;

  uint64_t base() const { return base_; }
  uint64_t size() const { return bytes_; }
  // The host bytes behind [address, address + n), or null when outside (for host software
  // that shares this memory with the simulation, and tests).
  uint8_t* hostPointer(uint64_t address, uint64_t n = 1);

  uint64_t reads = 0, writes = 0, addressErrors = 0;

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned int transport_dbg(tlm::tlm_generic_payload& trans);
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);
  // Performs a read or write; false (response set) when refused.
  bool access(tlm::tlm_generic_payload& trans, bool debug);

  uint64_t base_, bytes_;
  sc_core::sc_time latency_;
  uint8_t* memory_ = nullptr;
};

}  // namespace vgpu
