// The host CPU: an SC_THREAD running host C++ code (the "driver and application") that reaches
// memory and the GPU's registers only through its one TLM initiator socket on the system bus,
// with plain loads and stores. Interrupts arrive on `irq`; the program may sleep on them.
#pragma once

#include <cstdio>
#include <functional>
#include <stdexcept>
#include <string>

#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>
#include <tlm>

class HostCpu : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<HostCpu> bus;
  sc_core::sc_in<bool> irq;
  uint64_t interrupts = 0;  // rising edges seen on irq

  using Program = std::function<int(HostCpu&)>;

  SC_HAS_PROCESS(HostCpu);
  HostCpu(sc_core::sc_module_name name, Program program)
      : sc_module(name), bus("bus"), irq("irq"), program_(std::move(program)) {
    SC_THREAD(run);
    SC_METHOD(countInterrupt);
    sensitive << irq.pos();
    dont_initialize();
  }

  int exitCode() const { return exitCode_; }

  // The host program's loads and stores (system memory, device memory through the GPU's BAR,
  // the GPU's registers: whatever the bus maps at the address).
  void store(uint64_t address, const void* data, unsigned bytes) {
    access(tlm::TLM_WRITE_COMMAND, address, const_cast<void*>(data), bytes);
  }
  void load(uint64_t address, void* data, unsigned bytes) {
    access(tlm::TLM_READ_COMMAND, address, data, bytes);
  }
  template <typename T>
  T load(uint64_t address) {
    T v{};
    load(address, &v, sizeof v);
    return v;
  }
  template <typename T>
  void store(uint64_t address, T value) {
    store(address, &value, sizeof value);
  }
  // Sleeps until the interrupt line is high (returns at once if it is).
  void waitForInterrupt() {
    if (!irq.read()) wait(irq.value_changed_event());
  }

 private:
  void access(tlm::tlm_command command, uint64_t address, void* data, unsigned bytes) {
    tlm::tlm_generic_payload p;
    p.set_command(command);
    p.set_address(address);
    p.set_data_ptr(static_cast<unsigned char*>(data));
    p.set_data_length(bytes);
    p.set_streaming_width(bytes);
    p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    bus->b_transport(p, delay);
    wait(delay);
    if (!p.is_response_ok())
      throw std::runtime_error("bus error at 0x" + toHex(address) + ": " + p.get_response_string());
  }
  static std::string toHex(uint64_t v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%llx", static_cast<unsigned long long>(v));
    return buf;
  }

  void countInterrupt() { ++interrupts; }

  void run() {
    try {
      exitCode_ = program_(*this);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "host_platform: %s\n", e.what());
      exitCode_ = 2;
    }
    sc_core::sc_stop();
  }

  Program program_;
  int exitCode_ = 1;
};
