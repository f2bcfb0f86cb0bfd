// Functional mode: plain loads, stores and atomics of the vector memory encodings completed at
// issue on the bytes ExecContext::directMemory maps, without a MemRequest. The executors
// (isa/Mubuf.cpp, isa/Flat.cpp) describe the lanes (DirectLanes); the movers here copy the data
// in the order the texture path would apply it.
#include <algorithm>
#include <cstring>

#include "isa/Atomics.h"
#include "isa/VectorMemoryInternal.h"

namespace vgpu::isa::vmem {
namespace {

// The smallest and largest of lanes `lanes` (not none) of VGPR `v`.
void lanesRange(const uint32_t* v, uint64_t lanes, uint32_t& low, uint32_t& high) {
  low = ~0u;
  high = 0;
  if (lanes == ~0ull) {
    for (int l = 0; l < kWaveSize; ++l) {
      low = v[l] < low ? v[l] : low;
      high = v[l] > high ? v[l] : high;
    }
    return;
  }
  for (uint64_t b = lanes; b != 0; b &= b - 1) {
    const uint32_t x = v[__builtin_ctzll(b)];
    low = x < low ? x : low;
    high = x > high ? x : high;
  }
}

// An atomic's read-modify-writes at issue, one per lane in ascending lane order as the memory
// side applies them: source data from the VGPRs from `reg` (compare-and-swap: the compare
// value in the VGPRs after it), the value memory held before to the VGPRs from `returnReg`
// (atomics with glc; -1: none).
template <class Element>
void atomicLanes(ExecArgs& x, const DirectLanes& d, int reg, int returnReg, Element element) {
  const MemDesc& m = x.op.mem;
  WaveState& w = x.w;
  const bool wide = m.bytes == 8;
  const int dwords = wide ? 2 : 1;
  const int cmpReg = reg + (m.atomic == AtomicOp::CmpSwap ? dwords : 0);
  auto operand = [&](int r, int l) {
    const uint64_t lo = w.v(static_cast<uint32_t>(r))[l];
    return wide ? lo | (uint64_t{w.v(static_cast<uint32_t>(r + 1))[l]} << 32) : lo;
  };
  bool changed = false;
  for (uint64_t b = d.lanes; b != 0; b &= b - 1) {
    const int l = __builtin_ctzll(b);
    uint8_t* p = element(l);
    const uint64_t src = operand(reg, l),
                   cmp = m.atomic == AtomicOp::CmpSwap ? operand(cmpReg, l) : 0;
    uint64_t old = 0;
    if (wide) {
      std::memcpy(&old, p, 8);
      const uint64_t updated = atomicResult<uint64_t, int64_t, double>(m.atomic, old, src, cmp);
      std::memcpy(p, &updated, 8);
      changed |= updated != old;
    } else {
      uint32_t old32;
      std::memcpy(&old32, p, 4);
      const uint32_t updated = atomicResult<uint32_t, int32_t, float>(
          m.atomic, old32, static_cast<uint32_t>(src), static_cast<uint32_t>(cmp));
      std::memcpy(p, &updated, 4);
      changed |= updated != old32;
      old = old32;
    }
    if (returnReg < 0) continue;
    w.v(static_cast<uint32_t>(returnReg))[l] = static_cast<uint32_t>(old);
    if (wide) w.v(static_cast<uint32_t>(returnReg + 1))[l] = static_cast<uint32_t>(old >> 32);
  }
  if (changed) x.r.atomicChangedMemory = true;
}

// `run` consecutive bytes or shorts at `p` (LoadExt U8, I8, U16 or I16), each extended into
// the dword at `r` of its lane.
template <class Run>
void extendRun(uint32_t* r, const uint8_t* p, LoadExt ext, Run run) {
  if (ext == LoadExt::U8) {
    for (int i = 0; i < run; ++i) r[i] = p[i];
  } else if (ext == LoadExt::I8) {
    for (int i = 0; i < run; ++i)
      r[i] = static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(p[i])));
  } else {
    for (int i = 0; i < run; ++i) {
      uint16_t h;
      std::memcpy(&h, p + 2 * i, 2);
      r[i] = ext == LoadExt::U16
                 ? h
                 : static_cast<uint32_t>(static_cast<int32_t>(static_cast<int16_t>(h)));
    }
  }
}

// Moves a plain load's or store's data between the VGPRs from `reg` and the lanes' elements
// (`element(l)`: lane l's host pointer), lanes in ascending order: of two stores to the same
// bytes the higher lane's wins, as the texture path orders them. `contiguous`: the elements
// follow each other (no overlap), so that whole-dword data moves VGPR by VGPR.
template <class Element>
void moveLanes(ExecArgs& x, const DirectLanes& d, int reg, int returnReg, int bytes,
               bool contiguous, Element element) {
  const MemDesc& m = x.op.mem;
  if (m.op == MemOp::Atomic) return atomicLanes(x, d, reg, returnReg, element);
  WaveState& w = x.w;
  const uint64_t lanes = d.lanes;
  const int first = lanes ? __builtin_ctzll(lanes) : 0;
  // Every lane from `first` to the last one: a plain loop, else one over the set bits.
  const uint64_t fromFirst = lanes >> first;
  const bool oneRun = lanes && ((fromFirst + 1) & fromFirst) == 0;
  const int run = oneRun ? 64 - __builtin_clzll(fromFirst) : 0;
  auto forLanes = [&](auto&& f) {
    if (oneRun) {
      for (int l = first; l < first + run; ++l) f(l);
    } else {
      for (uint64_t b = lanes; b != 0; b &= b - 1) f(__builtin_ctzll(b));
    }
  };
  const bool wholeDwords = !d.partial && m.ext == LoadExt::None && !m.d16Hi && bytes % 4 == 0;
  const int dwords = bytes / 4;
  if (m.op == MemOp::Load) {
    const int count = loadDwords(bytes, m.ext);
    if (contiguous && wholeDwords && dwords == 1 && oneRun) {
      std::memcpy(w.v(static_cast<uint32_t>(reg)) + first, element(first),
                  4 * static_cast<size_t>(run));
    } else if (wholeDwords) {
      for (int k = 0; k < dwords; ++k) {
        uint32_t* r = w.v(static_cast<uint32_t>(reg + k));
        forLanes([&](int l) { std::memcpy(&r[l], element(l) + 4 * k, 4); });
      }
    } else if (contiguous && oneRun && !d.partial &&
               (m.ext == LoadExt::U8 || m.ext == LoadExt::I8 || m.ext == LoadExt::U16 ||
                m.ext == LoadExt::I16)) {
      // Consecutive bytes or shorts, extended: branch-free loops over the run (of a constant
      // length for a whole wave, which vectorises).
      uint32_t* r = w.v(static_cast<uint32_t>(reg)) + first;
      const uint8_t* p = element(first);
      if (run == kWaveSize)
        extendRun(r, p, m.ext, std::integral_constant<int, kWaveSize>{});
      else
        extendRun(r, p, m.ext, run);
    } else if (!d.partial && m.ext != LoadExt::None) {
      // Bytes and shorts, extended into one VGPR.
      uint32_t* r = w.v(static_cast<uint32_t>(reg));
      forLanes([&](int l) {
        uint8_t data[4] = {};
        if (bytes == 1)
          data[0] = *element(l);
        else
          std::memcpy(data, element(l), 2);
        r[l] = extendLoad(data, m.ext, r[l]);
      });
    } else {
      forLanes([&](int l) {
        uint8_t data[MemRequest::kMaxElementBytes] = {};  // bytes out of range read 0
        std::memcpy(data, element(l), static_cast<size_t>(d.partial ? d.inBytes[l] : bytes));
        scatterLaneLoad(w, reg, count, m.ext, l, data);
      });
    }
    static const uint8_t kZeros[MemRequest::kMaxElementBytes] = {};
    for (uint64_t b = d.written & ~lanes; b != 0; b &= b - 1)
      scatterLaneLoad(w, reg, count, m.ext, __builtin_ctzll(b), kZeros);
  } else if (contiguous && wholeDwords && dwords == 1 && oneRun) {
    std::memcpy(element(first), w.v(static_cast<uint32_t>(reg)) + first,
                4 * static_cast<size_t>(run));
  } else if (wholeDwords && (contiguous || dwords == 1)) {
    // Lanes do not overlap, or move one dword each in lane order: VGPR by VGPR.
    for (int k = 0; k < dwords; ++k) {
      const uint32_t* r = w.v(static_cast<uint32_t>(reg + k));
      forLanes([&](int l) { std::memcpy(element(l) + 4 * k, &r[l], 4); });
    }
  } else {
    // Lanes may overlap: each lane's whole element in turn, so the highest lane's bytes win.
    forLanes([&](int l) {
      uint8_t data[MemRequest::kMaxElementBytes];
      gatherVgprBytes(w, reg, bytes, l, m.d16Hi, data);
      std::memcpy(element(l), data, static_cast<size_t>(d.partial ? d.inBytes[l] : bytes));
    });
  }
}

}  // namespace

void waveDwordsAtIssue(ExecArgs& x, int reg, uint8_t* host, bool load) {
  uint32_t* r = x.w.v(static_cast<uint32_t>(reg));
  if (load)
    copyWaveDwords(r, host);
  else
    copyWaveDwords(host, r);
  x.r.kind = StepKind::MemoryDone;
  x.w.pc += x.in.sizeBytes;
}

bool moveDirect(ExecArgs& x, const DirectLanes& d, int reg, int bytes, int returnReg) {
  const uint64_t lanes = d.lanes;
  const MemDesc& m = x.op.mem;
  if (lanes == ~0ull && d.form == DirectLanes::Form::Affine && d.stride == 4 && bytes == 4 &&
      !d.partial && m.ext == LoadExt::None && !m.d16Hi && m.op != MemOp::Atomic) {
    // The most common access of all: a whole wave's consecutive dwords, one block copy.
    uint8_t* host = x.ctx.directMemory->map(MemSpace::Vector, d.base, 4 * kWaveSize);
    if (host == nullptr) return false;
    uint32_t* r = x.w.v(static_cast<uint32_t>(reg));
    if (m.op == MemOp::Load)
      copyWaveDwords(r, host);
    else
      copyWaveDwords(host, r);
    return true;
  }
  if (lanes != 0) {
    using Form = DirectLanes::Form;
    const int first = __builtin_ctzll(lanes), last = 63 - __builtin_clzll(lanes);
    const uint64_t size = static_cast<uint64_t>(bytes);
    bool contiguous = false;
    uint64_t low, high;
    uint32_t lowOffset = 0;
    if (d.form == Form::Affine) {
      contiguous = d.stride == size;
      low = d.base + first * d.stride;
      high = d.base + last * d.stride;
    } else if (d.form == Form::Offsets) {
      uint32_t highOffset;
      lanesRange(d.offsets, lanes, lowOffset, highOffset);
      low = d.base + lowOffset;
      high = d.base + highOffset;
    } else {
      // Consecutive elements (as addr[first] + (l - first) * bytes), else the extremes.
      const uint64_t origin = d.addr[first] - first * size;
      uint64_t differ = 0;
      low = ~0ull;
      high = 0;
      auto lane = [&](int l) {
        const uint64_t a = d.addr[l];
        differ |= a ^ (origin + l * size);
        low = a < low ? a : low;
        high = a > high ? a : high;
      };
      if (lanes == ~0ull) {
        for (int l = 0; l < kWaveSize; ++l) lane(l);  // a loop of fixed length
      } else {
        for (uint64_t b = lanes; b != 0; b &= b - 1) lane(__builtin_ctzll(b));
      }
      contiguous = differ == 0;
    }
    // Lanes wrapping around the address space, or too far apart for one region.
    if (high < low || high - low > (1ull << 32)) return false;
    uint8_t* host = x.ctx.directMemory->map(MemSpace::Vector, low, high - low + size);
    if (host == nullptr) return false;
    if (contiguous) {
      uint8_t* const at = host + (d.form == Form::Affine ? 0 : d.addr[first] - low);
      moveLanes(x, d, reg, returnReg, bytes, true,
                [=](int l) { return at + static_cast<size_t>(l - first) * size; });
    } else if (d.form == Form::Affine) {
      moveLanes(x, d, reg, returnReg, bytes, false,
                [=](int l) { return host + static_cast<size_t>(l - first) * d.stride; });
    } else if (d.form == Form::Offsets) {
      const uint32_t* offsets = d.offsets;
      moveLanes(x, d, reg, returnReg, bytes, false,
                [=](int l) { return host + static_cast<size_t>(offsets[l] - lowOffset); });
    } else {
      moveLanes(x, d, reg, returnReg, bytes, false,
                [&](int l) { return host + (d.addr[l] - low); });
    }
  } else if (d.written != 0 && m.op == MemOp::Load) {
    // No lane in range (a buffer): the load's lanes still read 0.
    static const uint8_t kZeros[MemRequest::kMaxElementBytes] = {};
    for (uint64_t b = d.written; b != 0; b &= b - 1)
      scatterLaneLoad(x.w, reg, loadDwords(bytes, m.ext), m.ext, __builtin_ctzll(b), kZeros);
  }
  return true;
}

bool accessDirect(ExecArgs& x, const DirectLanes& d, int reg, int bytes, int returnReg) {
  if (!moveDirect(x, d, reg, bytes, returnReg)) return false;
  x.r.kind = StepKind::MemoryDone;
  x.w.pc += x.in.sizeBytes;
  return true;
}

}  // namespace vgpu::isa::vmem
