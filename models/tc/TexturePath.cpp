#include "tc/TexturePath.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "common/MemoryExtensions.h"
#include "trace/Probes.h"

namespace vgpu {

using namespace sc_core;

TexturePath::TexturePath(sc_module_name name, const CacheConfig& l1Config, sc_time clockPeriod)
    : sc_module(name),
      socket("socket"),
      vectorL1("vector_l1", l1Config, clockPeriod, Cache::WritePolicy::WriteThroughNoAllocate),
      toL1_("to_l1"),
      period_(clockPeriod),
      lineBytes_(l1Config.lineBytes),
      timed_(l1Config.timed),
      lineData_(l1Config.lineBytes),
      byteEnable_(l1Config.lineBytes) {
  socket.register_b_transport(this, &TexturePath::b_transport);
  socket.register_transport_dbg(this, &TexturePath::transport_dbg);
  socket.register_get_direct_mem_ptr(this, &TexturePath::get_direct_mem_ptr);
  toL1_.register_invalidate_direct_mem_ptr(this, &TexturePath::invalidate_direct_mem_ptr);
  toL1_.bind(vectorL1.socket);
}

void TexturePath::b_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
  auto* ext = trans.get_extension<WaveAccessExtension>();
  if (ext == nullptr || ext->request == nullptr) {
    trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  isa::MemRequest& req = *ext->request;
  ++instructions;
  const sc_time now = sc_time_stamp();
  const sc_time arrival = now + delay;
  // The address unit sends one line (or one atomic lane) per cycle; the instruction's data is
  // back when its slowest transaction is.
  sc_time nextSend = arrival;
  sc_time done = arrival;
  uint32_t transactions = 0;
  auto send = [&](tlm::tlm_generic_payload& p) {
    if (timed_) nextSend = addressUnit_.reserve(nextSend, period_);
    sc_time d = nextSend - now;
    if (traceProbe)
      traceProbe->lineSent(static_cast<uint64_t>(nextSend / period_), p.get_address(),
                           p.get_data_length(), p.get_command() == tlm::TLM_WRITE_COMMAND);
    toL1_->b_transport(p, d);
    if (traceProbe) traceProbe->lineDone();
    done = std::max(done, now + d);
    nextSend += period_;
    ++transactions;
  };

  auto fail = [&](uint64_t address) {
    req.faulted = true;
    req.faultAddress = address;
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
  };

  if (req.op == isa::MemOp::Atomic) {
    // One read-modify-write per lane and element, in lane order.
    for (int lane = 0; lane < 64; ++lane) {
      if (!((req.laneMask >> lane) & 1)) continue;
      for (int e = 0; e < req.elementsPerLane; ++e) {
        tlm::tlm_generic_payload p;
        AtomicExtension atomic;
        atomic.op = req.atomic;
        atomic.compare = req.cmpElement(lane, e);
        atomic.returnsData = req.atomicReturnsData;
        p.set_command(tlm::TLM_WRITE_COMMAND);
        p.set_address(req.addr[lane][e]);
        p.set_data_ptr(req.element(lane, e));
        p.set_data_length(req.elementBytes);
        p.set_streaming_width(req.elementBytes);
        p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        p.set_extension(&atomic);
        send(p);
        p.clear_extension(&atomic);
        ++laneAccesses;
        if (p.is_response_error()) {
          fail(req.addr[lane][e]);
          delay = done - now;
          return;
        }
      }
    }
  } else {
    // Split every lane's element into per-line chunks, then group them by line.
    std::vector<Chunk>& chunks = chunks_;  // reused: no allocation per instruction
    chunks.clear();
    for (int lane = 0; lane < 64; ++lane) {
      if (!((req.laneMask >> lane) & 1)) continue;
      for (int e = 0; e < req.elementsPerLane; ++e) {
        uint64_t a = req.addr[lane][e];
        // A buffer range check may keep only the first dwords of a lane's element.
        uint32_t left = req.laneBytes[lane] ? req.laneBytes[lane] : req.elementBytes;
        uint16_t dataOffset = static_cast<uint16_t>(req.element(lane, e) - req.data.data());
        while (left > 0) {
          const uint64_t line = a - a % lineBytes_;
          const uint32_t n = std::min<uint64_t>(left, line + lineBytes_ - a);
          chunks.push_back({line, static_cast<uint16_t>(a - line), static_cast<uint16_t>(n),
                            dataOffset, static_cast<uint16_t>(chunks.size()), req.addr[lane][e]});
          a += n, left -= n, dataOffset += n;
        }
        ++laneAccesses;
      }
    }
    // Stable (ties keep their creation order): lanes stay in ascending order within a line,
    // so the highest lane's store wins. A plain sort on (line, order) needs no buffer.
    auto inOrder = [](const Chunk& x, const Chunk& y) {
      return x.line != y.line ? x.line < y.line : x.order < y.order;
    };
    if (!std::is_sorted(chunks.begin(), chunks.end(), inOrder))  // usually already sorted
      std::sort(chunks.begin(), chunks.end(), inOrder);

    const bool isStore = req.op == isa::MemOp::Store;
    std::vector<uint8_t>& lineData = lineData_;
    std::vector<uint8_t>& byteEnable = byteEnable_;
    std::fill(lineData.begin(), lineData.end(), 0);  // as a fresh buffer per instruction
    for (size_t i = 0; i < chunks.size();) {
      size_t j = i;
      uint32_t lo = lineBytes_, hi = 0;
      std::fill(byteEnable.begin(), byteEnable.end(), TLM_BYTE_DISABLED);
      for (; j < chunks.size() && chunks[j].line == chunks[i].line; ++j) {
        const Chunk& c = chunks[j];
        lo = std::min<uint32_t>(lo, c.lineOffset);
        hi = std::max<uint32_t>(hi, c.lineOffset + c.bytes);
        std::fill_n(byteEnable.begin() + c.lineOffset, c.bytes, TLM_BYTE_ENABLED);
        if (isStore) std::memcpy(&lineData[c.lineOffset], &req.data[c.dataOffset], c.bytes);
      }
      const bool gaps = std::any_of(byteEnable.begin() + lo, byteEnable.begin() + hi,
                                    [](uint8_t b) { return b == TLM_BYTE_DISABLED; });
      tlm::tlm_generic_payload p;
      p.set_command(isStore ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
      p.set_address(chunks[i].line + lo);
      p.set_data_ptr(&lineData[lo]);
      p.set_data_length(hi - lo);
      p.set_streaming_width(hi - lo);
      if (gaps) {
        p.set_byte_enable_ptr(&byteEnable[lo]);
        p.set_byte_enable_length(hi - lo);
      }
      p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      send(p);
      if (p.is_response_error()) {
        fail(chunks[i].elementAddress);
        delay = done - now;
        return;
      }
      if (!isStore)
        for (size_t k = i; k < j; ++k)
          std::memcpy(&req.data[chunks[k].dataOffset], &lineData[chunks[k].lineOffset],
                      chunks[k].bytes);
      i = j;
    }
  }
  lineTransactions += transactions;
  delay = std::max(done, arrival + period_) - now;
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

unsigned int TexturePath::transport_dbg(tlm::tlm_generic_payload& trans) {
  return toL1_->transport_dbg(trans);
}

bool TexturePath::get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) {
  return toL1_->get_direct_mem_ptr(trans, dmi);
}

void TexturePath::invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) {
  socket->invalidate_direct_mem_ptr(start, end);
}

}  // namespace vgpu
