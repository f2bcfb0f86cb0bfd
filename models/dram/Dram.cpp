#include "dram/Dram.h"

#include <algorithm>
#include <iterator>
#include <vector>

#include "common/MemoryExtensions.h"
#include "common/RefusedAddressExtension.h"
#include "common/SimTime.h"
#include "isa/Atomics.h"
#include "trace/Probes.h"

namespace vgpu {

using namespace sc_core;

Dram::Dram(sc_module_name name, const DramConfig& config, sc_time clockPeriod)
    : sc_module(name),
      socket("socket"),
      config_(config),
      period_(clockPeriod),
      latency_(config.controllerLatencyNs, SC_NS),
      tRCD_(config.tRCDns, SC_NS),
      tCL_(config.tCLns, SC_NS),
      tRP_(config.tRPns, SC_NS),
      tRAS_(config.tRASns, SC_NS),
      tCCD_(config.tCCDns, SC_NS),
      nsPerByte_(std::max(1u, config.channels) / std::max(1e-3, config.peakBandwidthGBs)),
      interleave_(std::max(1u, config.interleaveBytes)),
      channelCount_(std::max(1u, config.channels)),
      chunksPerRow_(std::max<uint64_t>(1, config.rowBytes / std::max(1u, config.interleaveBytes))),
      bankCount_(std::max(1u, config.banksPerChannel)),
      map_(config.sizeBytes) {
  channels_.resize(channelCount_.value());
  for (auto& c : channels_) c.banks.resize(bankCount_.value());
  socket.register_b_transport(this, &Dram::b_transport);
  socket.register_transport_dbg(this, &Dram::transport_dbg);
  socket.register_get_direct_mem_ptr(this, &Dram::get_direct_mem_ptr);
}

bool Dram::unmap(uint64_t base) {
  const DeviceMemoryMap::Range* r = map_.find(base);
  if (r == nullptr || r->base != base) return false;
  const uint64_t end = r->base + r->size - 1;
  // During elaboration the sockets may not be bound yet, and nobody holds DMI.
  if (sc_core::sc_get_status() & ~(sc_core::SC_ELABORATION | sc_core::SC_BEFORE_END_OF_ELABORATION))
    for (unsigned i = 0; i < socket.size(); ++i) socket[i]->invalidate_direct_mem_ptr(base, end);
  return map_.unmap(base);
}

void Dram::watchPage(uint64_t page, PageWriteListener& listener) {
  if (!watched_.emplace(page, &listener).second) return;
  const uint64_t start = page << kWatchedPageShift;
  for (unsigned i = 0; i < socket.size(); ++i)
    socket[i]->invalidate_direct_mem_ptr(start, start + kWatchedPageBytes - 1);
}

void Dram::reportWatchedWrite(uint64_t address, uint64_t bytes) {
  const uint64_t last = (address + bytes - 1) >> kWatchedPageShift;
  for (auto it = watched_.lower_bound(address >> kWatchedPageShift);
       it != watched_.end() && it->first <= last;) {
    const uint64_t page = it->first;
    PageWriteListener* listener = it->second;
    it = watched_.erase(it);
    listener->watchedPageWritten(page);
  }
}

bool Dram::access(tlm::tlm_generic_payload& trans, Mode mode, AtomicExtension* atomic) {
  const uint64_t addr = trans.get_address();
  const unsigned len = trans.get_data_length();
  uint8_t* data = trans.get_data_ptr();
  const bool debug = mode == Mode::Debug;
  const uint8_t* be = debug ? nullptr : trans.get_byte_enable_ptr();
  const unsigned beLen = trans.get_byte_enable_length();
  auto enabled = [&](unsigned i) { return be == nullptr || be[i % beLen] == TLM_BYTE_ENABLED; };
  // The access as runs of enabled bytes (offset, length): the whole of it without byte enables.
  const auto forEachEnabledRun = [&](auto&& access) {
    if (be == nullptr) return access(0u, len);
    for (unsigned i = 0; i < len;) {
      if (!enabled(i)) {
        ++i;
        continue;
      }
      unsigned run = i;
      while (run < len && enabled(run)) ++run;
      access(i, run - i);
      i = run;
    }
  };

  if (data == nullptr || len == 0 || (be != nullptr && beLen == 0)) {
    trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return false;
  }
  if (!debug && trans.get_streaming_width() < len) {  // streaming (FIFO) access is not memory-like
    trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return false;
  }
  if (!debug) {
    // Every enabled byte must lie in a mapped range (adjacent ranges may share an access).
    bool ok = true;
    forEachEnabledRun([&](unsigned i, unsigned n) { ok = ok && map_.covers(addr + i, n); });
    if (!ok) {
      ++addressErrors;
      trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      // The first refused byte, for an initiator that asks (a refused access ends the wave
      // that made it, so a byte at a time costs nothing that matters).
      if (auto* refused = trans.get_extension<RefusedAddressExtension>()) {
        uint64_t first = ~uint64_t{0};
        forEachEnabledRun([&](unsigned i, unsigned n) {
          for (unsigned k = 0; k < n && first == ~uint64_t{0}; ++k)
            if (!map_.covers(addr + i + k, 1)) first = addr + i + k;
        });
        refused->address = first;
        refused->valid = first != ~uint64_t{0};
      }
      return false;
    }
  }
  const bool counted = mode == Mode::Normal;

  if (atomic != nullptr && !debug) {
    if (trans.get_command() != tlm::TLM_WRITE_COMMAND || (len != 4 && len != 8) || be != nullptr) {
      trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
      return false;
    }
    uint8_t memory[8], old[8];
    store_.read(addr, memory, len);
    if (isa::applyAtomic(atomic->op, len, memory, data, atomic->compare, old))
      atomic->changedMemory = true;
    store_.write(addr, memory, len);
    noteWrite(addr, len);
    if (atomic->returnsData) std::copy(old, old + len, data);
    if (counted) ++atomics;
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    return true;
  }

  switch (trans.get_command()) {
    case tlm::TLM_READ_COMMAND:
      forEachEnabledRun([&](unsigned i, unsigned n) { store_.read(addr + i, data + i, n); });
      if (counted) ++reads, bytesRead += len;
      break;
    case tlm::TLM_WRITE_COMMAND:
      forEachEnabledRun([&](unsigned i, unsigned n) { store_.write(addr + i, data + i, n); });
      noteWrite(addr, len);
      if (counted) ++writes, bytesWritten += len;
      break;
    case tlm::TLM_IGNORE_COMMAND:
      break;
  }
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
  return true;
}

uint64_t Dram::busiestChannelBusyCycles() const {
  sc_time busiest = SC_ZERO_TIME;
  for (const auto& c : channels_) busiest = std::max(busiest, c.bus.busyTime());
  return static_cast<uint64_t>(busiest / period_);
}

sc_time Dram::schedule(uint64_t address, uint64_t bytes, const sc_time& at, const sc_time& now) {
  // Address map: [interleave bytes] within a channel, then the channel, then columns of the
  // row, then the bank, then the row.
  const uint64_t chunk = interleave_.quotient(address);
  Channel& ch = channels_[channelCount_.remainder(chunk)];
  const uint64_t inChannel = channelCount_.quotient(chunk);
  const uint64_t rowInChannel = chunksPerRow_.quotient(inChannel);
  Bank& bank = ch.banks[bankCount_.remainder(rowInChannel)];
  const auto row = static_cast<int64_t>(bankCount_.quotient(rowInChannel));

  // The bank is occupied from the first command it takes for this access until it can take
  // the next: tCCD for a row hit; activate (after precharge on a conflict) plus tRCD otherwise.
  //
  // The open row and the last activation are the bank's state after its latest activation.
  // Under temporal decoupling a request can arrive before that activation (its initiator lags
  // the one that caused it). To the open row it is a hit, as a controller serving a row's
  // requests together would make it. To another row it pays a conflict in the gap of the bank's
  // calendar where it falls, and leaves the state after the latest activation as it was:
  // queueing it behind an activation of its future instead would make every lagging request
  // wait for the most advanced initiator, and with them every later one.
  const sc_time arrival = at + latency_;
  const bool inOrder = arrival >= bank.activatedAt;
  sc_time ready;
  auto rowOutcome = trace::DramProbe::Row::Hit;  // for the trace
  if (bank.openRow == row) {
    ++rowHits;
    const sc_time start = bank.commands.reserve(arrival, tCCD_, now);
    ready = start + tCL_;
  } else {
    const bool conflict = bank.openRow >= 0;
    conflict ? ++rowConflicts : ++rowMisses;
    rowOutcome = conflict ? trace::DramProbe::Row::Conflict : trace::DramProbe::Row::Miss;
    // Precharge may not begin before tRAS after the previous activate.
    const sc_time earliest =
        conflict && inOrder ? std::max(arrival, bank.activatedAt + tRAS_) : arrival;
    const sc_time occupancy = (conflict ? tRP_ : SC_ZERO_TIME) + tRCD_ + tCCD_;
    const sc_time start = bank.commands.reserve(earliest, occupancy, now);
    const sc_time activated = start + (conflict ? tRP_ : SC_ZERO_TIME);
    if (activated >= bank.activatedAt) bank.openRow = row, bank.activatedAt = activated;
    ready = activated + tRCD_ + tCL_;
  }
  const sc_time burst = burstTime(bytes);
  const sc_time busStart = ch.bus.reserve(ready, burst, now);
  if (traceProbe)
    traceProbe->access(static_cast<uint32_t>(&ch - channels_.data()), at, busStart,
                       busStart + burst, rowOutcome, address, bytes);
  return busStart + burst;
}

sc_time Dram::unknownBurstTime(uint64_t bytes) {
  const sc_time t(static_cast<double>(bytes) * nsPerByte_, SC_NS);
  if (bytes < burstTimes_.size()) burstTimes_[bytes] = t, burstKnown_[bytes] = true;
  return t;
}

void Dram::b_transport(int, tlm::tlm_generic_payload& trans, sc_time& delay) {
  using Role = MemoryRoleExtension::Role;
  const auto* role = trans.get_extension<MemoryRoleExtension>();
  if (role != nullptr && role->role == Role::TimingOnly) {
    ++writebacks;
    const sc_time now = currentTime();
    delay = schedule(trans.get_address(), trans.get_data_length(), now + delay, now) - now;
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  if (role != nullptr && role->role == Role::DataMoved) {
    // The initiator read or wrote the bytes through DMI already: counted and timed as any
    // access, nothing to move.
    const unsigned len = trans.get_data_length();
    if (trans.get_command() == tlm::TLM_READ_COMMAND) ++reads, bytesRead += len;
    if (trans.get_command() == tlm::TLM_WRITE_COMMAND) {
      ++writes, bytesWritten += len;
      noteWrite(trans.get_address(), len);
    }
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    trans.set_dmi_allowed(true);
  }
  const bool served = role != nullptr && role->role == Role::ServedAbove;
  if (role == nullptr || served) {
    auto* atomic = trans.get_extension<AtomicExtension>();
    if (access(trans, served ? Mode::ServedAbove : Mode::Normal, atomic))
      trans.set_dmi_allowed(atomic == nullptr);
  }
  if (!served && config_.timed) {
    const sc_time now = currentTime();
    delay = schedule(trans.get_address(), trans.get_data_length(), now + delay, now) - now;
  }
}

unsigned int Dram::transport_dbg(int, tlm::tlm_generic_payload& trans) {
  // A debugger may look anywhere in device memory, mapped or not, without advancing time.
  if (trans.get_data_length() == 0 || trans.get_command() == tlm::TLM_IGNORE_COMMAND) return 0;
  return access(trans, Mode::Debug, nullptr) ? trans.get_data_length() : 0;
}

bool Dram::get_direct_mem_ptr(int, tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) {
  const uint64_t addr = trans.get_address();
  const DeviceMemoryMap::Range* a = map_.find(addr);
  if (a == nullptr) {
    // Deny with the largest range we can vouch for: just this address.
    dmi.set_start_address(addr);
    dmi.set_end_address(addr);
    return false;
  }
  // One backing page at most, clipped to the mapped range: DMI needs contiguous host memory.
  const uint64_t pageStart = addr - addr % BackingStore::kPageBytes;
  uint64_t start = std::max(pageStart, a->base);
  uint64_t end = std::min(pageStart + BackingStore::kPageBytes, a->base + a->size) - 1;
  // Watched pages: their writes must come here to be reported, so DMI over one (that page
  // alone) allows reads only, and only to a request for reading (TLM-2.0: a grant gives at
  // least the access asked); a region around them stops short of them.
  bool readOnly = false;
  if (!watched_.empty()) {
    const uint64_t page = addr >> kWatchedPageShift;
    auto above = watched_.lower_bound(page);
    if (above != watched_.end() && above->first == page) {
      start = std::max(start, page << kWatchedPageShift);
      end = std::min(end, ((page + 1) << kWatchedPageShift) - 1);
      readOnly = true;
    } else {
      if (above != watched_.end()) end = std::min(end, (above->first << kWatchedPageShift) - 1);
      if (above != watched_.begin())
        start = std::max(start, (std::prev(above)->first + 1) << kWatchedPageShift);
    }
  }
  dmi.set_start_address(start);
  dmi.set_end_address(end);
  if (readOnly && !trans.is_read()) return false;
  dmi.set_dmi_ptr(store_.page(addr) + (start - pageStart));
  if (readOnly)
    dmi.allow_read();
  else
    dmi.allow_read_write();
  dmi.set_read_latency(latency_);
  dmi.set_write_latency(latency_);
  return true;
}

}  // namespace vgpu
