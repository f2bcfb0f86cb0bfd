#include "tc/TexturePath.h"

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <vector>

#include "common/MemoryExtensions.h"
#include "common/RefusedAddressExtension.h"
#include "common/SimTime.h"
#include "common/SmallCopy.h"
#include "trace/Probes.h"

namespace vgpu {

using namespace sc_core;

struct TexturePath::PieceLists {
  std::vector<uint64_t> pieceAddress, sortedAddress;
  std::vector<uint32_t> pieceData, sortedData;
  std::vector<uint16_t> pieceOrder;
  std::vector<uint64_t> sortKeys;
};

TexturePath::PieceLists& TexturePath::pieceLists(size_t maxPieces) {
  static PieceLists lists;
  if (lists.pieceAddress.size() < maxPieces) {
    lists.pieceAddress.resize(maxPieces), lists.sortedAddress.resize(maxPieces);
    lists.pieceData.resize(maxPieces), lists.sortedData.resize(maxPieces);
    lists.pieceOrder.resize(maxPieces), lists.sortKeys.resize(maxPieces);
  }
  return lists;
}

namespace {
// The most pieces a wave's elements split into: every element crosses as many line boundaries
// as it can.
size_t maxPiecesFor(uint32_t lineBytes) {
  const size_t piecesPerElement = isa::MemRequest::kMaxElementBytes / std::max(lineBytes, 1u) + 2;
  return 64 * isa::MemRequest::kElementsPerLane * piecesPerElement;
}
}  // namespace

TexturePath::TexturePath(sc_module_name name, const CacheConfig& l1Config, sc_time clockPeriod)
    : sc_module(name),
      socket("socket"),
      vectorL1("vector_l1", l1Config, clockPeriod, Cache::WritePolicy::WriteThroughNoAllocate),
      toL1_("to_l1"),
      period_(clockPeriod),
      lineBytes_(l1Config.lineBytes),
      timed_(l1Config.timed),
      pieceAddress_(pieceLists(maxPiecesFor(l1Config.lineBytes)).pieceAddress),
      sortedAddress_(pieceLists(0).sortedAddress),
      pieceData_(pieceLists(0).pieceData),
      sortedData_(pieceLists(0).sortedData),
      pieceOrder_(pieceLists(0).pieceOrder),
      sortKeys_(pieceLists(0).sortKeys),
      lineData_(l1Config.lineBytes),
      byteEnable_(l1Config.lineBytes, TLM_BYTE_DISABLED),
      allEnabled_(l1Config.lineBytes, TLM_BYTE_ENABLED) {
  if (lineBytes_ == 0 || (lineBytes_ & (lineBytes_ - 1)) != 0)
    SC_REPORT_ERROR(this->name(), "the vector L1 line size must be a power of two");
  socket.register_b_transport(this, &TexturePath::b_transport);
  socket.register_transport_dbg(this, &TexturePath::transport_dbg);
  socket.register_get_direct_mem_ptr(this, &TexturePath::get_direct_mem_ptr);
  toL1_.register_invalidate_direct_mem_ptr(this, &TexturePath::invalidate_direct_mem_ptr);
  toL1_.bind(vectorL1.socket);
  // A refused line names its first refused byte (the payload owns the extension and frees it).
  payload_.payload().set_extension(new RefusedAddressExtension);
}

namespace {
// Whether a buffer range check shortened some lane's element.
bool anyTruncated(const isa::MemRequest& req) {
  uint64_t truncated = 0;
  for (size_t i = 0; i < req.laneBytes.size(); i += 8) {
    uint64_t eight;
    std::memcpy(&eight, &req.laneBytes[i], 8);
    truncated |= eight;
  }
  return truncated != 0;
}
}  // namespace

uint32_t TexturePath::contiguousLanes(const isa::MemRequest& req) const {
  const uint64_t mask = req.laneMask;
  const uint32_t bytes = req.elementBytes;
  if (mask == 0 || !req.texels.empty() || req.elementsPerLane != 1 || (bytes & (bytes - 1)) != 0 ||
      bytes > lineBytes_)
    return 0;
  const auto first = static_cast<uint32_t>(__builtin_ctzll(mask));
  const auto count = static_cast<uint32_t>(__builtin_popcountll(mask));
  if ((mask >> first) != (count == 64 ? ~uint64_t{0} : (uint64_t{1} << count) - 1)) return 0;
  const uint64_t start = req.address(first, 0);
  // The second lane decides for a gather (the usual other case) without looking further.
  if (start % bytes != 0 || (count > 1 && req.address(first + 1, 0) != start + bytes) ||
      anyTruncated(req))
    return 0;
  // Every lane at its place: no early exit, four lanes a round.
  uint64_t offBy = 0, expected = start;
  uint32_t l = 0;
  for (; l + 4 <= count; l += 4, expected += 4 * bytes)
    offBy |= (req.address(first + l, 0) - expected) |
             (req.address(first + l + 1, 0) - expected - bytes) |
             (req.address(first + l + 2, 0) - expected - 2 * bytes) |
             (req.address(first + l + 3, 0) - expected - 3 * bytes);
  for (; l < count; ++l, expected += bytes) offBy |= req.address(first + l, 0) - expected;
  return offBy == 0 ? count : 0;
}

size_t TexturePath::split(const isa::MemRequest& req, bool& sorted) {
  uint64_t* const address = pieceAddress_.data();  // sized for the worst case
  uint32_t* const data = pieceData_.data();
  const uint32_t lineBytes = lineBytes_;  // a local: stores to data[] could alias the member
  const uint64_t lineMask = ~uint64_t{lineBytes - 1};
  const uint32_t elementBytes = req.elementBytes;
  const int elements = req.elementsPerLane;
  const bool truncated = anyTruncated(req);
  size_t n = 0;
  uint64_t lastLine = 0;
  sorted = true;  // lines in ascending order already (the usual case)
  if (!req.texels.empty()) {
    // Image sampling: the filters' texels (border texels read nothing), in the list's order.
    const size_t most = req.texels.size() * (elementBytes / lineBytes + 2);
    if (pieceAddress_.size() < most) {
      pieceAddress_.resize(most), sortedAddress_.resize(most);
      pieceData_.resize(most), sortedData_.resize(most);
      pieceOrder_.resize(most), sortKeys_.resize(most);
    }
    uint64_t* const at = pieceAddress_.data();
    uint32_t* const where = pieceData_.data();
    for (size_t i = 0; i < req.texels.size(); ++i) {
      if (!req.texels[i].fetch) continue;
      uint64_t a = req.texels[i].address;
      auto dataOffset = static_cast<uint32_t>(i * isa::MemRequest::kMaxElementBytes);
      for (uint32_t left = elementBytes; left > 0;) {
        const uint64_t line = a & lineMask;
        const auto bytes = static_cast<uint32_t>(std::min<uint64_t>(left, line + lineBytes - a));
        sorted &= line >= lastLine;
        lastLine = line;
        at[n] = a;
        where[n] = pieceData(dataOffset, bytes);
        ++n;
        a += bytes, left -= bytes, dataOffset += bytes;
      }
    }
    return n;
  }
  if (elements == 1 && !truncated) {
    // The usual instruction: one whole element per lane. If every element lies inside one
    // line, each is one piece.
    bool inside = true;
    for (uint64_t lanes = req.laneMask; lanes != 0; lanes &= lanes - 1) {
      const auto lane = static_cast<uint32_t>(__builtin_ctzll(lanes));
      const uint64_t a = req.address(lane, 0);
      const uint64_t line = a & lineMask;
      inside &= a - line + elementBytes <= lineBytes;
      sorted &= line >= lastLine;
      lastLine = line;
      address[n] = a;
      data[n] = pieceData(lane * elementBytes, elementBytes);
      ++n;
    }
    if (inside) return n;
    n = 0, lastLine = 0, sorted = true;
  }
  for (uint64_t lanes = req.laneMask; lanes != 0; lanes &= lanes - 1) {
    const int lane = __builtin_ctzll(lanes);
    // A buffer range check may keep only the first dwords of a lane's element.
    const uint32_t laneBytes = req.laneBytes[lane] ? req.laneBytes[lane] : elementBytes;
    for (int e = 0; e < elements; ++e) {
      uint64_t a = req.address(lane, e);
      auto dataOffset = static_cast<uint32_t>(req.element(lane, e) - req.data.data());
      for (uint32_t left = laneBytes; left > 0;) {
        const uint64_t line = a & lineMask;
        const auto bytes = static_cast<uint32_t>(std::min<uint64_t>(left, line + lineBytes - a));
        sorted &= line >= lastLine;
        lastLine = line;
        address[n] = a;
        data[n] = pieceData(dataOffset, bytes);
        ++n;
        a += bytes, left -= bytes, dataOffset += bytes;
      }
    }
  }
  return n;
}

void TexturePath::sortByLine(size_t n) {
  const uint64_t* address = pieceAddress_.data();
  const auto lineShift = static_cast<uint32_t>(__builtin_ctz(lineBytes_));
  // Keys of line number and piece number, so that a plain sort of integers orders by line and
  // keeps the creation order within a line (the highest lane's store to a byte wins). Line
  // numbers that do not leave room for the piece number sort through the index instead.
  uint64_t highest = 0;
  for (size_t i = 0; i < n; ++i) highest |= address[i];
  uint16_t* order = pieceOrder_.data();
  if ((highest >> lineShift) < (uint64_t{1} << 48)) {
    uint64_t* keys = sortKeys_.data();
    for (size_t i = 0; i < n; ++i) keys[i] = (address[i] >> lineShift) << 16 | i;
    std::sort(keys, keys + n);
    for (size_t i = 0; i < n; ++i) order[i] = static_cast<uint16_t>(keys[i]);
  } else {
    for (size_t i = 0; i < n; ++i) order[i] = static_cast<uint16_t>(i);
    std::sort(order, order + n, [&](uint16_t x, uint16_t y) {
      const uint64_t lx = address[x] >> lineShift, ly = address[y] >> lineShift;
      return lx != ly ? lx < ly : x < y;
    });
  }
  for (size_t i = 0; i < n; ++i) {
    sortedAddress_[i] = pieceAddress_[order[i]];
    sortedData_[i] = pieceData_[order[i]];
  }
  pieceAddress_.swap(sortedAddress_);
  pieceData_.swap(sortedData_);
}

void TexturePath::b_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
  auto* ext = trans.get_extension<WaveAccessExtension>();
  if (ext == nullptr || ext->request == nullptr) {
    trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  isa::MemRequest& req = *ext->request;
  ++instructions;
  const sc_time now = currentTime();
  const sc_time arrival = now + delay;
  // The address unit sends one line (or one atomic lane) per cycle; the instruction's data is
  // back when its slowest transaction is.
  sc_time nextSend = arrival;
  sc_time done = arrival;
  // Image instructions: the address unit turns each quad that has an active lane into texel
  // addresses, one quad per cycle (docs/images.md), in a stage of its own ahead of the line
  // requests. A line goes out once the quads of all its lanes are through; meanwhile the
  // earlier lines go out and the next instruction's quads follow.
  bool quadGated = false;
  sc_time quadStart = arrival;
  uint8_t quadDone[16] = {};  // cycles after quadStart until quad q's addresses are ready
  if (req.image) {
    ++imageInstructions;
    uint8_t quads = 0;
    for (int q = 0; q < 16; ++q) {
      quads = static_cast<uint8_t>(quads + (((req.laneMask >> (4 * q)) & 0xf) != 0));
      quadDone[q] = quads;
    }
    imageAddressCycles += quads;
    if (timed_ && quads != 0) {
      const sc_time busy = period_ * static_cast<double>(quads);
      quadStart = quadUnit_.reserve(arrival, busy, now);
      quadGated = true;
    }
  }
  // Holds the next line until the quad of `lane` (the highest lane it serves) is through.
  auto afterQuadOf = [&](uint32_t lane) {
    if (quadGated)
      nextSend = std::max(nextSend, quadStart + period_ * static_cast<double>(quadDone[lane / 4]));
  };
  uint32_t transactions = 0;
  tlm::tlm_generic_payload& p = payload_.payload();
  auto send = [&]() {
    if (timed_) nextSend = addressUnit_.reserve(nextSend, period_, now);
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

  // The DataMoved role stays on the line payload while consecutive lines go through DMI (a
  // line that does not, and so may fault, goes without it).
  bool dataMovedSet = false;
  auto markDataMoved = [&](bool moved) {
    if (moved == dataMovedSet) return;
    if (moved)
      p.set_extension(&dataMoved_);
    else
      p.clear_extension(&dataMoved_);
    dataMovedSet = moved;
  };

  // `address`: the faulting lane's element; the memory's first refused byte when it says,
  // which differs when the element (or the line's first lane) starts inside a mapped range.
  auto fail = [&](uint64_t address) {
    auto* refused = p.get_extension<RefusedAddressExtension>();
    req.faulted = true;
    req.faultAddress = refused->valid ? refused->address : address;
    refused->valid = false;
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
  };

  if (req.op == isa::MemOp::Atomic) {
    // One read-modify-write per lane and element, in lane order.
    for (uint64_t lanes = req.laneMask; lanes != 0; lanes &= lanes - 1) {
      const int lane = __builtin_ctzll(lanes);
      for (int e = 0; e < req.elementsPerLane; ++e) {
        atomic_.op = req.atomic;
        atomic_.compare = req.cmpElement(lane, e);
        atomic_.returnsData = req.atomicReturnsData;
        atomic_.changedMemory = false;
        payload_.begin(tlm::TLM_WRITE_COMMAND, req.address(lane, e), req.element(lane, e),
                       req.elementBytes);
        p.set_extension(&atomic_);
        afterQuadOf(static_cast<uint32_t>(lane));
        send();
        p.clear_extension(&atomic_);
        if (atomic_.changedMemory) req.atomicChangedMemory = true;
        ++laneAccesses;
        if (p.is_response_error()) {
          fail(req.address(lane, e));
          delay = done - now;
          return;
        }
      }
    }
  } else if (const uint32_t lanes = contiguousLanes(req); lanes != 0) {
    // The usual access: the active lanes' whole elements lie one after another. Every line
    // is covered from its first to its last byte (no byte enables), lines in address order,
    // exactly as the pieces below would group them, without building the pieces.
    laneAccesses += lanes;
    const bool isStore = req.op == isa::MemOp::Store;
    const uint32_t bytes = req.elementBytes;
    const auto firstLane = static_cast<uint32_t>(__builtin_ctzll(req.laneMask));
    const uint64_t start = req.address(firstLane, 0), end = start + uint64_t{lanes} * bytes;
    uint8_t* lineData = lineData_.data();
    for (uint64_t line = start & ~uint64_t{lineBytes_ - 1}; line < end; line += lineBytes_) {
      const uint64_t from = std::max(start, line), to = std::min(end, line + lineBytes_);
      const auto lane = static_cast<uint32_t>(firstLane + (from - start) / bytes);
      const auto count = static_cast<uint32_t>((to - from) / bytes);
      const auto length = static_cast<uint32_t>(to - from);
      // The lanes' bytes go straight to or from memory when DMI covers them, else through the
      // line buffer and the transaction.
      uint8_t* const memory = directData(from, length);
      uint8_t* const bytesAt = memory != nullptr ? memory : &lineData[from - line];
      uint8_t* const lanes = req.element(static_cast<int>(lane), 0);
      // The lanes' elements are packed in the request as in memory: one copy each way.
      if (isStore) std::memcpy(bytesAt, lanes, length);
      payload_.begin(isStore ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, from, bytesAt,
                     length);
      markDataMoved(memory != nullptr);
      afterQuadOf(lane + count - 1);
      send();
      if (p.is_response_error()) {
        fail(req.address(lane, 0));  // the first lane's element in this line
        delay = done - now;
        return;
      }
      if (!isStore) std::memcpy(lanes, bytesAt, length);
    }
  } else {
    // Split every lane's element into per-line pieces, then group them by line.
    bool sorted = true;
    const size_t count = split(req, sorted);
    laneAccesses += req.texels.empty() ? static_cast<uint64_t>(__builtin_popcountll(req.laneMask)) *
                                             req.elementsPerLane
                                       : req.texels.size();
    if (!sorted) sortByLine(count);
    const uint64_t* address = pieceAddress_.data();
    const uint32_t* data = pieceData_.data();
    const uint64_t lineMask = ~uint64_t{lineBytes_ - 1};
    const uint32_t elementBytes = req.elementBytes;

    // The line's bytes that no piece covers are neither sent nor copied back, so lineData_
    // needs no clearing; byteEnable_ is all disabled outside the line being built.
    const bool isStore = req.op == isa::MemOp::Store;
    uint8_t* byteEnable = byteEnable_.data();
    // Image sampling's texels have their own data (MemRequest::texelData).
    uint8_t* requestData = req.texels.empty() ? req.data.data() : req.texelData.data();
    for (size_t i = 0; i < count;) {
      const uint64_t line = address[i] & lineMask;
      // The pieces' bytes go straight to or from memory when DMI covers the line, else
      // through the line buffer and the transaction.
      uint8_t* const memory = directData(line, lineBytes_);
      uint8_t* const lineData = memory != nullptr ? memory : lineData_.data();
      size_t j = i;
      // Pieces that follow one another without gap or overlap (consecutive lanes on
      // consecutive elements, the usual case) cover [lo, hi) without looking at the bytes.
      const auto lo = static_cast<uint32_t>(address[i] - line);
      uint32_t hi = lo;
      bool dense = true;
      uint32_t lastLane = 0;  // the highest lane the line serves (image instructions)
      for (; j < count && (address[j] & lineMask) == line; ++j) {
        const auto offset = static_cast<uint32_t>(address[j] - line);
        const uint32_t bytes = bytesOf(data[j]);
        dense &= offset == hi;
        hi = offset + bytes;
        if (isStore) copySmall(&lineData[offset], &requestData[dataOffsetOf(data[j])], bytes);
        if (quadGated) {
          const uint32_t at = dataOffsetOf(data[j]);
          lastLane = std::max<uint32_t>(
              lastLane, req.texels.empty()
                            ? at / req.laneStride()
                            : req.texels[at / isa::MemRequest::kMaxElementBytes].lane);
        }
      }
      uint32_t first = lo, last = hi;
      bool gaps = false;
      if (!dense) {
        first = lineBytes_, last = 0;
        for (size_t k = i; k < j; ++k) {
          const auto offset = static_cast<uint32_t>(address[k] - line);
          const uint32_t bytes = bytesOf(data[k]);
          first = std::min(first, offset);
          last = std::max(last, offset + bytes);
          fillSmall(&byteEnable[offset], TLM_BYTE_ENABLED, bytes);
        }
        gaps = std::memcmp(&byteEnable[first], allEnabled_.data(), last - first) != 0;
      }
      payload_.begin(isStore ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, line + first,
                     &lineData[first], last - first);
      if (gaps) {
        p.set_byte_enable_ptr(&byteEnable[first]);
        p.set_byte_enable_length(last - first);
      }
      markDataMoved(memory != nullptr);
      afterQuadOf(lastLane);
      send();
      if (!dense) std::memset(&byteEnable[first], TLM_BYTE_DISABLED, last - first);
      if (p.is_response_error()) {
        // The fault names the address of the first lane's element in this line.
        const uint32_t offset = dataOffsetOf(data[i]);
        const auto stride = static_cast<uint32_t>(req.laneStride());
        fail(!req.texels.empty() ? req.texels[offset / isa::MemRequest::kMaxElementBytes].address
                                 : req.address(static_cast<int>(offset / stride),
                                               static_cast<int>((offset % stride) / elementBytes)));
        delay = done - now;
        return;
      }
      if (!isStore)
        for (size_t k = i; k < j; ++k)
          copySmall(&requestData[dataOffsetOf(data[k])], &lineData[address[k] - line],
                    bytesOf(data[k]));
      i = j;
    }
  }
  markDataMoved(false);
  if (!req.texels.empty()) {
    // Sampling: the filter unit weighs the footprints once their texels are back, four
    // bilinear footprints (a quad) per cycle; a point sample is one footprint, a trilinear one
    // two (docs/images.md).
    const uint64_t footprints = std::max<uint64_t>(
        static_cast<uint64_t>(__builtin_popcountll(req.laneMask)), (req.texels.size() + 3) / 4);
    const uint64_t cycles = (footprints + 3) / 4;
    filterCycles += cycles;
    if (timed_) {
      const sc_time busy = period_ * static_cast<double>(cycles);
      done = filterUnit_.reserve(done, busy, now) + busy;
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
  dmi_.forget(start, end);
  socket->invalidate_direct_mem_ptr(start, end);
}

}  // namespace vgpu
