// The host CPU: an SC_THREAD running host C++ code (the "driver and application") that reaches
// memory and the GPU's registers only through its one TLM initiator socket on the system bus.
// The vgpu runtime API drives the GPU through a vgpu::HostPort (two initiator sockets: register
// offsets and device addresses); the CPU's load/store unit puts both on the bus, the register
// offsets at the GPU's MMIO base. Interrupts arrive on `irq`; the runtime sleeps on them.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

#include "gpu/Gpu.h"
#include "runtime/Runtime.h"

class HostCpu : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<HostCpu> bus;
  sc_core::sc_in<bool> irq;
  uint64_t interrupts = 0;  // rising edges seen on irq

  using Program = std::function<int(HostCpu&, vgpu::Runtime&)>;

  SC_HAS_PROCESS(HostCpu);
  HostCpu(sc_core::sc_module_name name, vgpu::Gpu& gpu, uint64_t gpuMmioBase, Program program)
      : sc_module(name),
        bus("bus"),
        irq("irq"),
        gpu_(gpu),
        mmioBase_(gpuMmioBase),
        program_(std::move(program)),
        port_("port"),
        fromMmio_("from_mmio"),
        fromMemory_("from_memory") {
    port_.mmio.bind(fromMmio_);
    port_.memory.bind(fromMemory_);
    port_.irq.bind(irq);
    fromMmio_.register_b_transport(this, &HostCpu::mmioAccess);
    fromMemory_.register_b_transport(this, &HostCpu::memoryAccess);
    fromMemory_.register_transport_dbg(this, &HostCpu::memoryDebug);
    SC_THREAD(run);
    SC_METHOD(countInterrupt);
    sensitive << irq.pos();
    dont_initialize();
  }

  int exitCode() const { return exitCode_; }

  // The host program's own loads and stores (system memory, or anything else on the bus).
  void store(uint64_t address, const void* data, unsigned bytes) {
    access(tlm::TLM_WRITE_COMMAND, address, const_cast<void*>(data), bytes);
  }
  void load(uint64_t address, void* data, unsigned bytes) {
    access(tlm::TLM_READ_COMMAND, address, data, bytes);
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

  // The load/store unit: the runtime's register accesses go to the GPU's MMIO window, its
  // device-memory accesses go out unchanged (device memory is mapped 1:1 on the bus).
  void mmioAccess(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
    const uint64_t offset = t.get_address();
    t.set_address(mmioBase_ + offset);
    bus->b_transport(t, delay);
    t.set_address(offset);
  }
  void memoryAccess(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
    bus->b_transport(t, delay);
  }
  unsigned int memoryDebug(tlm::tlm_generic_payload& t) { return bus->transport_dbg(t); }

  void countInterrupt() { ++interrupts; }

  void run() {
    try {
      vgpu::Runtime runtime(port_, gpu_);
      exitCode_ = program_(*this, runtime);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "host_platform: %s\n", e.what());
      exitCode_ = 2;
    }
    sc_core::sc_stop();
  }

  vgpu::Gpu& gpu_;
  uint64_t mmioBase_;
  Program program_;
  vgpu::HostPort port_;
  tlm_utils::simple_target_socket<HostCpu> fromMmio_, fromMemory_;
  int exitCode_ = 1;
};
