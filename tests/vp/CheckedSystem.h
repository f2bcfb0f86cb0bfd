// A simulated system like vgpu::Simulation, with a base-protocol checker (ProtocolChecker.h) on
// every socket boundary: the host's MMIO and memory sockets into the GPU, and every internal
// boundary the GPU binds through its SocketBinder (CU -> LDS / texture path / scalar and
// instruction caches, vector L1 / SQC / CP -> L2, L2 -> DRAM).
#pragma once

#include <exception>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <systemc>

#include "ProtocolChecker.h"
#include "gpu/Gpu.h"
#include "runtime/Runtime.h"

namespace vgpu::test {

class CheckedSystem : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(CheckedSystem);
  explicit CheckedSystem(const PlatformConfig& config,
                         const sc_core::sc_module_name& name = "system")
      : sc_module(name),
        gpu("gpu", config,
            [this](tlm::tlm_initiator_socket<>& from, tlm::tlm_base_target_socket_b<>& to,
                   const std::string& where) {
              auto c = std::make_unique<ProtocolChecker>(checkerName(where).c_str());
              from.bind(c->target);
              c->initiator.bind(to);
              internal.push_back(std::move(c));
            }),
        host("host"),
        mmioChecker("host_mmio_checker"),
        memoryChecker("host_memory_checker"),
        systemMemoryChecker("system_memory_checker"),
        systemMemory("system_memory", Simulation::kSystemMemoryBase,
                     Simulation::kSystemMemoryBytes),
        irq("irq") {
    host.mmio.bind(mmioChecker.target);
    mmioChecker.initiator.bind(gpu.mmioSocket());
    host.memory.bind(memoryChecker.target);
    memoryChecker.initiator.bind(gpu.hostMemorySocket());
    gpu.systemMemorySocket().bind(systemMemoryChecker.target);
    systemMemoryChecker.initiator.bind(systemMemory.socket);
    gpu.irq.bind(irq);
    host.irq.bind(irq);
    SC_THREAD(hostThread);
  }

  // Runs `program` on the host thread; rethrows what it threw. Once per process.
  void run(std::function<void(Runtime&)> program) {
    program_ = std::move(program);
    sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                            sc_core::SC_DO_NOTHING);
    sc_core::sc_start();
    if (error_) std::rethrow_exception(error_);
    if (!finished_)
      throw std::runtime_error(
          "the simulation ran out of events while the host program was still waiting");
  }

  // Every checker: the two external ones first, then the internal ones in binding order.
  std::vector<const ProtocolChecker*> checkers() const {
    std::vector<const ProtocolChecker*> all{&mmioChecker, &memoryChecker};
    for (const auto& c : internal) all.push_back(c.get());
    return all;
  }
  const ProtocolChecker* checker(const std::string& where) const {
    for (const auto& c : internal)
      if (std::string(c->basename()) == checkerName(where)) return c.get();
    return nullptr;
  }

  std::vector<std::unique_ptr<ProtocolChecker>> internal;  // declared before gpu: built first
  Gpu gpu;
  HostPort host;
  ProtocolChecker mmioChecker, memoryChecker;
  // The GPU's accesses to system memory (not among checkers(): most runs have none).
  ProtocolChecker systemMemoryChecker;
  SystemMemory systemMemory;
  sc_core::sc_signal<bool> irq;

 private:
  // SystemC names allow no '>' or '.': "cu3->lds" becomes "checker_cu3_to_lds".
  static std::string checkerName(const std::string& where) {
    std::string n = "checker_";
    for (size_t i = 0; i < where.size(); ++i) {
      if (where.compare(i, 2, "->") == 0) {
        n += "_to_";
        ++i;
      } else {
        n += where[i] == '.' ? '_' : where[i];
      }
    }
    return n;
  }
  void hostThread() {
    try {
      Runtime runtime(host, gpu);
      if (program_) program_(runtime);
    } catch (...) {
      error_ = std::current_exception();
    }
    finished_ = true;
    sc_core::sc_stop();
  }

  std::function<void(Runtime&)> program_;
  std::exception_ptr error_;
  bool finished_ = false;
};

}  // namespace vgpu::test
