#include "common/Cache.h"

#include "common/MemoryExtensions.h"

namespace vgpu {

using namespace sc_core;

Cache::Cache(sc_module_name name, const CacheConfig& config, sc_time clockPeriod,
             WritePolicy policy)
    : sc_module(name),
      socket("socket"),
      memory("memory"),
      config_(config),
      policy_(policy),
      period_(clockPeriod),
      hitLatency_(clockPeriod * config.hitLatencyCycles),
      tags_(config.sizeBytes, config.lineBytes, config.ways) {
  socket.register_b_transport(this, &Cache::b_transport);
  socket.register_transport_dbg(this, &Cache::transport_dbg);
  socket.register_get_direct_mem_ptr(this, &Cache::get_direct_mem_ptr);
  memory.register_invalidate_direct_mem_ptr(this, &Cache::invalidate_direct_mem_ptr);
}

void Cache::forwardServed(tlm::tlm_generic_payload& trans) {
  if (trans.get_extension<ServedAboveExtension>() != nullptr) {
    sc_time ignored = SC_ZERO_TIME;
    memory->b_transport(trans, ignored);
    return;
  }
  trans.set_extension(&servedAbove_);
  sc_time ignored = SC_ZERO_TIME;
  memory->b_transport(trans, ignored);
  trans.clear_extension(&servedAbove_);
}

void Cache::b_transport(int, tlm::tlm_generic_payload& trans, sc_time& delay) {
  if (trans.get_extension<ServedAboveExtension>() != nullptr) {
    forwardServed(trans);
    return;
  }
  const uint64_t addr = trans.get_address();
  const uint64_t len = trans.get_data_length();
  const uint64_t line = config_.lineBytes;
  const uint64_t first = addr / line, last = (addr + (len ? len - 1 : 0)) / line;
  // Transfer time of the bytes through this level's port.
  const sc_time transfer = period_ * ((len + config_.bytesPerCycle - 1) / config_.bytesPerCycle);

  if (trans.get_extension<AtomicExtension>() != nullptr) {
    // Atomics execute at the memory side; an upper level drops its copy of the line.
    ++atomics;
    if (policy_ == WritePolicy::WriteThroughNoAllocate) tags_.invalidate(addr);
    sc_time downstream = SC_ZERO_TIME;
    memory->b_transport(trans, downstream);
    delay += hitLatency_ + downstream;
    return;
  }

  const bool isWrite = trans.get_command() == tlm::TLM_WRITE_COMMAND;
  isWrite ? ++writes : ++reads;
  bool allHit = true;
  const bool allocate = !isWrite || policy_ == WritePolicy::WriteBackAllocate;
  for (uint64_t l = first; l <= last; ++l) allHit &= tags_.access(l * line, allocate);
  allHit ? ++hits : ++misses;

  if (isWrite && policy_ == WritePolicy::WriteThroughNoAllocate) {
    sc_time downstream = SC_ZERO_TIME;
    memory->b_transport(trans, downstream);
    delay += transfer + downstream;
    return;
  }
  if (allHit || (isWrite && policy_ == WritePolicy::WriteBackAllocate)) {
    forwardServed(trans);
    delay += hitLatency_ + transfer;
    return;
  }
  sc_time downstream = SC_ZERO_TIME;
  memory->b_transport(trans, downstream);
  delay += hitLatency_ + transfer + downstream;
  // A refused access (e.g. outside every allocation) brings no line in.
  if (trans.is_response_error())
    for (uint64_t l = first; l <= last; ++l) tags_.invalidate(l * line);
}

unsigned int Cache::transport_dbg(int, tlm::tlm_generic_payload& trans) {
  return memory->transport_dbg(trans);
}

bool Cache::get_direct_mem_ptr(int, tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) {
  return memory->get_direct_mem_ptr(trans, dmi);
}

void Cache::invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) {
  for (unsigned i = 0; i < socket.size(); ++i) socket[i]->invalidate_direct_mem_ptr(start, end);
}

}  // namespace vgpu
