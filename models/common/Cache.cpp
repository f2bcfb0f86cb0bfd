#include "common/Cache.h"

#include <cstring>

#include "common/MemoryExtensions.h"
#include "common/SimTime.h"
#include "trace/Probes.h"

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
      lineSize_(config.lineBytes),
      interleave_(config.interleaveBytes),
      channelCount_(std::max(1u, config.channels)),
      portBytes_(config.bytesPerCycle) {
  const uint32_t n = std::max(1u, config.channels);
  for (uint32_t c = 0; c < n; ++c)
    channels_.push_back({CacheTags(config.sizeBytes / n, config.lineBytes, config.ways),
                         BusyUntil(), ServerPool(config.mshrs)});
  tlm::tlm_generic_payload& p = writeBackPayload_;
  p.set_command(tlm::TLM_WRITE_COMMAND);
  p.set_data_ptr(writeBackData_);
  p.set_data_length(std::min<uint32_t>(config_.lineBytes, sizeof writeBackData_));
  p.set_streaming_width(p.get_data_length());
  p.set_byte_enable_ptr(nullptr);
  p.set_byte_enable_length(0);
  p.set_extension(&timingOnly_);
  for (size_t cycles = 0; cycles < transferTimes_.size(); ++cycles)
    transferTimes_[cycles] = period_ * static_cast<double>(cycles);
  socket.register_b_transport(this, &Cache::b_transport);
  socket.register_transport_dbg(this, &Cache::transport_dbg);
  socket.register_get_direct_mem_ptr(this, &Cache::get_direct_mem_ptr);
  memory.register_invalidate_direct_mem_ptr(this, &Cache::invalidate_direct_mem_ptr);
}

Cache::~Cache() {
  // The payload would free its extensions when destroyed: this one is a member.
  writeBackPayload_.clear_extension(&timingOnly_);
}

uint64_t Cache::portBusyCycles() const {
  sc_time busiest = SC_ZERO_TIME;
  for (const auto& c : channels_) busiest = std::max(busiest, c.port.busyTime());
  return static_cast<uint64_t>(busiest / period_);
}

// A channel sees only the addresses interleaved to it, so the address bits that pick the
// channel are the same for all its lines. Its tags index with those bits removed, or only
// 1 / channels of its sets would ever be used.
uint64_t Cache::channelLocal(uint64_t address) const {
  if (channels_.size() == 1) return address;
  return channelCount_.quotient(interleave_.quotient(address)) * interleave_.value() +
         interleave_.remainder(address);
}

uint64_t Cache::globalAddress(uint64_t local, size_t channel) const {
  if (channels_.size() == 1) return local;
  return (interleave_.quotient(local) * channels_.size() + channel) * interleave_.value() +
         interleave_.remainder(local);
}

Cache::Channel& Cache::channelOf(uint64_t address) {
  if (channels_.size() == 1) return channels_[0];
  return channels_[channelCount_.remainder(interleave_.quotient(address))];
}

bool Cache::serveDirect(tlm::tlm_generic_payload& trans) {
  // What DRAM would do for an access served above, for a plain read or write that one DMI
  // region holds (so inside one allocation, where DRAM refuses nothing).
  const unsigned len = trans.get_data_length();
  uint8_t* const data = trans.get_data_ptr();
  const tlm::tlm_command command = trans.get_command();
  if (data == nullptr || len == 0 || trans.get_byte_enable_ptr() != nullptr ||
      trans.get_streaming_width() < len || command == tlm::TLM_IGNORE_COMMAND)
    return false;
  // A read may be served from a region that allows reads only (the pages of decoded code, whose
  // every instruction-cache hit used to travel to DRAM for bytes the fetch does not use).
  uint8_t* const bytes = dmi_.find(
      trans.get_address(), len,
      [this](tlm::tlm_generic_payload& p, tlm::tlm_dmi& d) {
        return this->memory->get_direct_mem_ptr(p, d);
      },
      command == tlm::TLM_READ_COMMAND ? DmiRegions::Access::Read : DmiRegions::Access::ReadWrite);
  if (bytes == nullptr) return false;
  if (command == tlm::TLM_READ_COMMAND)
    std::memcpy(data, bytes, len);
  else
    std::memcpy(bytes, data, len);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
  trans.set_dmi_allowed(true);
  return true;
}

void Cache::forwardServed(tlm::tlm_generic_payload& trans, bool marked) {
  // The data straight from memory when DMI allows (atomics never come here).
  if (serveDirect(trans)) return;
  sc_time ignored = SC_ZERO_TIME;
  if (marked) {
    memory->b_transport(trans, ignored);
    return;
  }
  trans.set_extension(&servedAbove_);
  memory->b_transport(trans, ignored);
  trans.clear_extension(&servedAbove_);
}

void Cache::writeBack(uint64_t address, const sc_time& at, const sc_time& now) {
  ++writebacks;
  // Reused, its constant attributes and the TimingOnly role set once (the constructor): a
  // write-back carries no data, only its address and length.
  tlm::tlm_generic_payload& p = writeBackPayload_;
  p.set_address(address);
  p.set_dmi_allowed(false);
  p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_time delay = at - now;
  if (traceProbe) traceProbe->writeBack(true);
  memory->b_transport(p, delay);
  if (traceProbe) traceProbe->writeBack(false);
  bytesDownstream += p.get_data_length();
  if (activity_)
    activity_->add(downstreamChannel_, static_cast<uint64_t>((now + delay) / period_),
                   p.get_data_length());
}

void Cache::b_transport(int, tlm::tlm_generic_payload& trans, sc_time& delay) {
  using Role = MemoryRoleExtension::Role;
  const auto* role = trans.get_extension<MemoryRoleExtension>();
  if (role != nullptr && role->role == Role::ServedAbove) {
    forwardServed(trans, true);
    return;
  }
  if (role != nullptr && role->role == Role::TimingOnly) {  // pass write-backs straight on
    memory->b_transport(trans, delay);
    return;
  }
  // The initiator moved the data (never for an atomic): an access served here goes no further.
  const bool dataMoved = role != nullptr && role->role == Role::DataMoved;
  if (!config_.timed) {  // functional mode: the data goes on, nothing is looked up or timed
    trans.get_command() == tlm::TLM_WRITE_COMMAND ? ++writes : ++reads;
    memory->b_transport(trans, delay);
    return;
  }
  const sc_time now = currentTime();
  const sc_time arrival = now + delay;
  const uint64_t addr = trans.get_address();
  const uint64_t len = trans.get_data_length();
  const uint64_t line = lineSize_.value();
  const uint64_t first = lineSize_.quotient(addr);
  const uint64_t last = lineSize_.quotient(addr + (len ? len - 1 : 0));
  Channel& ch = channelOf(addr);
  bytesIn += len;
  // The port moves bytesPerCycle per cycle: a transaction occupies it for its transfer time.
  const uint64_t transferCycles = portBytes_.quotient(len + portBytes_.value() - 1);
  const sc_time transfer = transferCycles < transferTimes_.size()
                               ? transferTimes_[transferCycles]
                               : period_ * static_cast<double>(transferCycles);
  const sc_time portStart = ch.port.reserve(arrival, transfer, now);
  using TraceAccess = trace::CacheProbe::Access;
  auto traceAccess = [&](TraceAccess kind) {
    if (traceProbe)
      traceProbe->access(static_cast<size_t>(&ch - channels_.data()), arrival, portStart,
                         portStart + transfer, kind, addr, len);
  };
  if (activity_) activity_->add(bytesChannel_, static_cast<uint64_t>(portStart / period_), len);

  // Sends the transaction downstream at `at`; returns when its response is complete.
  auto downstream = [&](const sc_time& at) {
    sc_time d = at - now;
    memory->b_transport(trans, d);
    bytesDownstream += len;
    if (activity_)
      activity_->add(downstreamChannel_, static_cast<uint64_t>((now + d) / period_), len);
    return now + d;
  };

  if (!dataMoved && trans.get_extension<AtomicExtension>() != nullptr) {
    // Atomics execute at the memory side; an upper level drops its copy of the line.
    ++atomics;
    if (policy_ == WritePolicy::WriteThroughNoAllocate) ch.tags.invalidate(channelLocal(addr));
    traceAccess(TraceAccess::Atomic);
    delay = downstream(portStart + hitLatency_) - now;
    return;
  }

  const bool isWrite = trans.get_command() == tlm::TLM_WRITE_COMMAND;
  isWrite ? ++writes : ++reads;

  const bool absorbsWrites =
      policy_ == WritePolicy::WriteBackAllocate && addr - writeBackBase_ < writeBackBytes_;
  if (isWrite && !absorbsWrites) {
    for (uint64_t l = first; l <= last; ++l) ch.tags.lookup(channelLocal(l * line), false);
    traceAccess(TraceAccess::Write);
    delay = downstream(portStart + transfer) - now;
    return;
  }

  bool allHit = true;
  const bool writeBackWrite = isWrite && absorbsWrites;
  // The lines an access touches (at most 4: it never exceeds 4 x 64 bytes), uninitialised.
  CacheTags::Outcome lines[4];
  size_t touched = 0;
  uint64_t fillsDone = 0;  // ps: the latest fill still in flight among the lines hit
  for (uint64_t l = first; l <= last; ++l) {
    const CacheTags::Outcome o = ch.tags.lookup(channelLocal(l * line), true, writeBackWrite);
    allHit &= o.hit;
    if (o.hit) fillsDone = std::max(fillsDone, ch.tags.fillDone(o, now.value()));
    if (touched < 4) lines[touched++] = o;
    if (o.evictedDirty)
      writeBack(globalAddress(o.evictedAddress, static_cast<size_t>(&ch - channels_.data())),
                portStart + hitLatency_, now);
  }
  allHit ? ++hits : ++misses;
  traceAccess(allHit ? TraceAccess::Hit : TraceAccess::Miss);

  if (allHit || writeBackWrite) {
    // Served here (a write-back cache absorbs stores): data still goes to DRAM, untimed, unless
    // the initiator moved it. A hit on a line whose fill is still in flight waits for the fill.
    if (dataMoved)
      trans.set_response_status(tlm::TLM_OK_RESPONSE);
    else
      forwardServed(trans, false);
    const sc_time tagsDone = portStart + hitLatency_;
    const sc_time ready = fillsDone > tagsDone.value() ? timeFromValue(fillsDone) : tagsDone;
    delay = ready + transfer - now;
    return;
  }
  // A miss holds an MSHR from the tag lookup until the fill returns.
  const sc_time mshrStart = ch.mshrs.acquire(portStart + hitLatency_, now);
  const sc_time done = downstream(mshrStart) + transfer;
  ch.mshrs.hold(mshrStart, done, now);
  if (traceProbe)
    traceProbe->mshrHeld(static_cast<size_t>(&ch - channels_.data()), mshrStart, done);
  for (size_t k = 0; k < touched; ++k)
    if (lines[k].way != CacheTags::kNoWay) ch.tags.filling(lines[k], done.value());
  delay = done - now;
  // A refused access (e.g. outside every allocation) brings no line in.
  if (trans.is_response_error())
    for (uint64_t l = first; l <= last; ++l) ch.tags.invalidate(channelLocal(l * line));
}

unsigned int Cache::transport_dbg(int, tlm::tlm_generic_payload& trans) {
  return memory->transport_dbg(trans);
}

bool Cache::get_direct_mem_ptr(int, tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) {
  return memory->get_direct_mem_ptr(trans, dmi);
}

void Cache::invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) {
  dmi_.forget(start, end);
  for (unsigned i = 0; i < socket.size(); ++i) socket[i]->invalidate_direct_mem_ptr(start, end);
}

}  // namespace vgpu
