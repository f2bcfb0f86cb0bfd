// DS instructions executed at issue in functional mode (isa/DsAtIssue.h): the data moves between
// the VGPRs and the workgroup's LDS bytes without a MemRequest, by the LDS's element rules
// (LdsElementRules.h), which the LDS block applies to requests. Most of this file is those rules
// specialised for the shapes workgroup tiles have (every lane on, one address per quarter-wave
// or consecutive dwords), which is where functional mode spends its LDS time.
#include "lds/LdsAtIssue.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "isa/Atomics.h"
#include "isa/Memory.h"
#include "lds/LdsElementRules.h"

namespace vgpu::lds {

using namespace isa;

namespace {

// Lanes `exec` of one element of a DS access at issue (dsAtIssue) to one dword per lane:
// f(l, p) with p the lane's dword at LDS offset addr[l] + offset (32-bit), nullptr when that
// is at or past `limit` (out of range). Locals only, so that the loop keeps them in registers
// while it stores to the VGPRs.
template <class F>
void forDwordLanes(const uint32_t* addr, uint32_t offset, uint8_t* lds, uint64_t limit,
                   uint64_t exec, F f) {
  auto lane = [&](int l) {
    const uint32_t o = addr[l] + offset;
    f(l, o < limit ? lds + o : nullptr);
  };
  if (exec == ~0ull) {
    for (int l = 0; l < kWaveSize; ++l) lane(l);
  } else {
    for (uint64_t b = exec; b != 0; b &= b - 1) lane(__builtin_ctzll(b));
  }
}

// Whether lanes `exec` are one run of lanes (from `first`, `run` of them) whose dwords are
// consecutive LDS dwords inside the allocation (`limit` as above), from offset `start`: then
// the element moves as one block.
bool dwordRun(const uint32_t* addr, uint32_t offset, uint64_t exec, uint64_t limit, int& first,
              int& run, uint32_t& start) {
  if (exec == 0) return false;
  first = __builtin_ctzll(exec);
  const uint64_t fromFirst = exec >> first;
  if (((fromFirst + 1) & fromFirst) != 0 || !lanesStep(addr, nullptr, exec, 4)) return false;
  run = 64 - __builtin_clzll(fromFirst);
  const uint64_t begin = uint64_t{addr[first]} + offset, last = begin + 4 * (run - 1);
  start = static_cast<uint32_t>(begin);
  return last <= 0xffffffffu && last < limit;  // no lane wraps past 2^32, all in range
}

constexpr int kQuarterWave = 16;  // lanes: a row of a 16-wide workgroup

// Whether each of the kLanes lanes of `v` (a multiple of 4) is at most `bound` (SSE2 compares
// signed: the sign bits flipped).
template <int kLanes>
bool lanesAtMost(const uint32_t* v, uint32_t bound) {
#if defined(__SSE2__)
  const __m128i sign = _mm_set1_epi32(static_cast<int>(0x80000000u));
  const __m128i limit = _mm_xor_si128(_mm_set1_epi32(static_cast<int>(bound)), sign);
  __m128i above = _mm_setzero_si128();
#pragma GCC unroll 4
  for (int i = 0; i < kLanes; i += 4)
    above = _mm_or_si128(
        above,
        _mm_cmpgt_epi32(
            _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(v + i)), sign), limit));
  return _mm_movemask_epi8(above) == 0;
#else
  uint32_t above = 0;
  for (int l = 0; l < kLanes; ++l) above |= v[l] > bound ? 1u : 0u;
  return above == 0;
#endif
}

// A quarter-wave's dwords (64 bytes) as four moves (a memcpy of this size compiles to `rep movs`,
// slow to start).
inline void copyQuarterWave(void* to, const void* from) {
#if defined(__SSE2__)
#pragma GCC unroll 4
  for (int i = 0; i < 4; ++i)
    _mm_storeu_si128(static_cast<__m128i*>(to) + i,
                     _mm_loadu_si128(static_cast<const __m128i*>(from) + i));
#else
  std::memcpy(to, from, 4 * kQuarterWave);
#endif
}

// How a quarter-wave of lanes addresses its elements.
enum class QuarterWave : uint8_t { Uniform, Consecutive, Other };

// The shape of each quarter-wave of `addr` for elements of `elementBytes`; false if some lane's
// address is above `bound`.
bool quarterWaves(const uint32_t* addr, uint32_t elementBytes, uint32_t bound,
                  QuarterWave (&shapes)[kWaveSize / kQuarterWave]) {
  for (int q = 0; q < kWaveSize / kQuarterWave; ++q) {
    const uint32_t* lanes = addr + q * kQuarterWave;
    const uint32_t a0 = lanes[0];
#if defined(__SSE2__)
    // Four lanes per compare: against the first lane's address and against it stepped; then,
    // for a quarter-wave of neither shape (whose highest address is not known), against the
    // bound.
    const __m128i first = _mm_set1_epi32(static_cast<int>(a0));
    const int eb = static_cast<int>(elementBytes);
    const __m128i step4 = _mm_set1_epi32(4 * eb);
    __m128i stepped = _mm_add_epi32(first, _mm_setr_epi32(0, eb, 2 * eb, 3 * eb));
    __m128i uniform = _mm_set1_epi32(-1), consecutive = uniform;
#pragma GCC unroll 4
    for (int i = 0; i < kQuarterWave; i += 4) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(lanes + i));
      uniform = _mm_and_si128(uniform, _mm_cmpeq_epi32(v, first));
      consecutive = _mm_and_si128(consecutive, _mm_cmpeq_epi32(v, stepped));
      stepped = _mm_add_epi32(stepped, step4);
    }
    if (_mm_movemask_epi8(uniform) == 0xffff) {
      if (a0 > bound) return false;
      shapes[q] = QuarterWave::Uniform;
      continue;
    }
    if (_mm_movemask_epi8(consecutive) == 0xffff) {
      if (uint64_t{a0} + uint64_t{elementBytes} * (kQuarterWave - 1) > bound) return false;
      shapes[q] = QuarterWave::Consecutive;
      continue;
    }
    if (!lanesAtMost<kQuarterWave>(lanes, bound)) return false;
    shapes[q] = QuarterWave::Other;
#else
    uint32_t uniform = 0, consecutive = 0, above = 0;
    for (int i = 0; i < kQuarterWave; ++i) {
      uniform |= lanes[i] ^ a0;
      consecutive |= lanes[i] ^ (a0 + elementBytes * static_cast<uint32_t>(i));
      above |= lanes[i] > bound ? 1u : 0u;
    }
    if (above != 0) return false;
    shapes[q] = uniform == 0       ? QuarterWave::Uniform
                : consecutive == 0 ? QuarterWave::Consecutive
                                   : QuarterWave::Other;
#endif
  }
  return true;
}

// A load or store of kElements elements of kDwords whole dwords for every lane, each lane's
// elements at LDS offsets addr[l] + offset[e], all inside the allocation (checked by the
// caller), with the effect of dsAtIssue's general loops (lanes in ascending order, each lane's
// elements in turn) but no range check per lane, and quarter-waves (16 lanes, a row of a 16-wide
// workgroup) whose lanes share one address (a row broadcast) or, for dword elements, address
// consecutive dwords, moved at once. A load's lane reads its address before it writes its
// destination VGPRs (which may include the address VGPR).
template <int kElements, int kDwords>
void loadEveryLane(const uint32_t* addr, const QuarterWave* shapes, const uint8_t* lds,
                   const uint64_t offset[2], uint32_t* r) {
  const uint32_t o[2] = {static_cast<uint32_t>(offset[0]), static_cast<uint32_t>(offset[1])};
  for (int g = 0; g < kWaveSize; g += kQuarterWave) {
    const QuarterWave shape = shapes[g / kQuarterWave];
    const uint32_t a0 = addr[g];
    if (shape == QuarterWave::Uniform) {
      for (int e = 0; e < kElements; ++e) {
        for (int k = 0; k < kDwords; ++k) {
          uint32_t v;
          std::memcpy(&v, lds + a0 + o[e] + 4 * k, 4);
          uint32_t* row = &r[static_cast<size_t>(e * kDwords + k) * kWaveSize + g];
          for (int i = 0; i < kQuarterWave; ++i) row[i] = v;
        }
      }
      continue;
    }
    if (kDwords == 1 && shape == QuarterWave::Consecutive) {
      for (int e = 0; e < kElements; ++e)
        copyQuarterWave(&r[static_cast<size_t>(e) * kWaveSize + g], lds + a0 + o[e]);
      continue;
    }
    for (int l = g; l < g + kQuarterWave; ++l) {
      const uint32_t a = addr[l];
#pragma GCC unroll 2
      for (int e = 0; e < kElements; ++e) {
        const uint8_t* p = lds + a + o[e];
#pragma GCC unroll 4
        for (int k = 0; k < kDwords; ++k)
          std::memcpy(&r[static_cast<size_t>(e * kDwords + k) * kWaveSize + l], p + 4 * k, 4);
      }
    }
  }
}
template <int kElements, int kDwords>
void storeEveryLane(const uint32_t* addr, const QuarterWave* shapes, uint8_t* lds,
                    const uint64_t offset[2], const uint32_t* data0, const uint32_t* data1) {
  const uint32_t o[2] = {static_cast<uint32_t>(offset[0]), static_cast<uint32_t>(offset[1])};
  const uint32_t* data[2] = {data0, data1};
  // Consecutive dwords of two elements move as two blocks only if the blocks do not overlap
  // (else lane l's second dword and lane l + 1's first would land in the other order).
  const uint32_t apart = o[0] > o[1] ? o[0] - o[1] : o[1] - o[0];
  const bool blocks = kDwords == 1 && (kElements == 1 || apart >= 4 * kQuarterWave);
  for (int g = 0; g < kWaveSize; g += kQuarterWave) {
    const QuarterWave shape = shapes[g / kQuarterWave];
    const uint32_t a0 = addr[g];
    if (shape == QuarterWave::Uniform) {
      // Every lane writes the same bytes: the last lane's elements are what remains.
      const int last = g + kQuarterWave - 1;
      for (int e = 0; e < kElements; ++e)
        for (int k = 0; k < kDwords; ++k)
          std::memcpy(lds + a0 + o[e] + 4 * k, &data[e][static_cast<size_t>(k) * kWaveSize + last],
                      4);
      continue;
    }
    if (blocks && shape == QuarterWave::Consecutive) {
      for (int e = 0; e < kElements; ++e) copyQuarterWave(lds + a0 + o[e], &data[e][g]);
      continue;
    }
    for (int l = g; l < g + kQuarterWave; ++l) {
      const uint32_t a = addr[l];
#pragma GCC unroll 2
      for (int e = 0; e < kElements; ++e) {
        uint8_t* p = lds + a + o[e];
#pragma GCC unroll 4
        for (int k = 0; k < kDwords; ++k)
          std::memcpy(p + 4 * k, &data[e][static_cast<size_t>(k) * kWaveSize + l], 4);
      }
    }
  }
}

// The loads and stores above for the shapes DS has (read/write_b32..b128, read2/write2 of b32
// and b64), when every lane's address is at most `bound`; false (nothing moved) otherwise.
bool moveEveryLane(bool load, int elements, int dwords, const uint32_t* addr, uint32_t bound,
                   uint8_t* lds, const uint64_t offset[2], uint32_t* dst, const uint32_t* data0,
                   const uint32_t* data1) {
  const int shape = elements * 8 + dwords;
  if (shape != 8 + 1 && shape != 8 + 2 && shape != 8 + 3 && shape != 8 + 4 && shape != 16 + 1 &&
      shape != 16 + 2)
    return false;
  QuarterWave q[kWaveSize / kQuarterWave];
  if (!quarterWaves(addr, 4 * static_cast<uint32_t>(dwords), bound, q)) return false;
  auto move = [&](auto kElements, auto kDwords) {
    constexpr int e = decltype(kElements)::value, d = decltype(kDwords)::value;
    if (load)
      loadEveryLane<e, d>(addr, q, lds, offset, dst);
    else
      storeEveryLane<e, d>(addr, q, lds, offset, data0, data1);
  };
  using One = std::integral_constant<int, 1>;
  using Two = std::integral_constant<int, 2>;
  switch (shape) {
    case 8 + 1:
      move(One{}, One{});
      break;
    case 8 + 2:
      move(One{}, Two{});
      break;
    case 8 + 3:
      move(One{}, std::integral_constant<int, 3>{});
      break;
    case 8 + 4:
      move(One{}, std::integral_constant<int, 4>{});
      break;
    case 16 + 1:
      move(Two{}, One{});
      break;
    default:
      move(Two{}, Two{});
      break;
  }
  return true;
}

// Functional mode, every lane on: a load or store of whole dwords whose every element is inside
// the allocation, as the largest address says (the usual access of a workgroup's tile), done as
// moveEveryLane does it; false (nothing done) otherwise.
bool everyLaneAtIssue(const DsAtIssueAccess& a) {
  const MemDesc& m = a.m;
  if (m.op == MemOp::Atomic || m.ext != LoadExt::None || m.d16Hi || m.bytes % 4 != 0) return false;
  WaveState& w = a.w;
  const uint64_t* offset = a.offset;
  const uint64_t size = a.ldsSize, bytes = m.bytes;
  const uint64_t highest = m.elements == 2 ? std::max(offset[0], offset[1]) : offset[0];
  if (size < bytes || highest > size - bytes) return false;
  const bool load = m.op == MemOp::Load;
  if (!moveEveryLane(load, m.elements, static_cast<int>(bytes / 4),
                     w.v(static_cast<uint32_t>(a.addrReg)),
                     static_cast<uint32_t>(size - bytes - highest), a.lds, offset,
                     load ? w.v(static_cast<uint32_t>(a.vdst)) : nullptr,
                     load ? nullptr : w.v(static_cast<uint32_t>(a.data0)),
                     load || m.elements < 2 ? nullptr : w.v(static_cast<uint32_t>(a.data1))))
    return false;
  return true;
}

// Any DS access on the LDS at issue, by the element rules of LdsElementRules.h as the LDS block
// applies them to a request: lanes in ascending order and each lane's elements in turn (the
// highest lane's store wins, atomics apply in lane order), elements outside the allocation read
// 0 and drop their writes; returned data goes straight to the VGPRs as completeMemory() writes
// it. The loops below are that rule specialised by shape (a dword per lane, consecutive
// dwords), for speed.
// Returns whether an atomic changed the LDS.
bool generalAtIssue(const DsAtIssueAccess& a) {
  const MemDesc& m = a.m;
  WaveState& w = a.w;
  const uint64_t* offset = a.offset;
  uint8_t* const lds = a.lds;
  const uint64_t bytes = m.bytes;
  // The range rule (LdsElementRules.h): element offsets below `limit` are in range.
  const LdsWindow window{lds, a.ldsSize};
  const uint64_t limit = window.limitFor(bytes);
  const bool fits = limit != 0;
  const uint64_t lastOffset = fits ? limit - 1 : 0;
  const int vdst = a.vdst, data0 = a.data0, data1 = a.data1;
  const int addrReg = a.addrReg;
  const uint32_t* addr = w.v(static_cast<uint32_t>(addrReg));
  const uint64_t exec = w.exec;
  // Lanes in ascending order (LdsElementRules.h).
  auto forLanes = [&](auto&& f) { forEachLane(exec, f); };
  // Element e of lane l in the LDS, or nullptr outside the allocation.
  auto at = [&](int l, int e) -> uint8_t* {
    return window.element(static_cast<uint32_t>(addr[l] + offset[e]), bytes);
  };
  const bool wholeDwords = m.ext == LoadExt::None && !m.d16Hi && bytes % 4 == 0;
  const int elementDwords = static_cast<int>(bytes / 4);
  const int dwords = loadDwords(m.bytes, m.ext) * m.elements;
  bool changed = false;  // (atomics)
  if (m.op == MemOp::Load) {
    // Element by element, unless the data overwrites the address VGPR before the last
    // element's address is read.
    const bool overwritesAddress = addrReg >= vdst && addrReg < vdst + dwords;
    int first0, run0, first1, run1;
    uint32_t start0, start1;
    const uint32_t o0 = static_cast<uint32_t>(offset[0]), o1 = static_cast<uint32_t>(offset[1]);
    const bool twoDwords = wholeDwords && elementDwords == 1 && m.elements == 2;
    if (twoDwords && dwordRun(addr, o0, exec, limit, first0, run0, start0) &&
        dwordRun(addr, o1, exec, limit, first1, run1, start1)) {
      // Both elements consecutive dwords (the address VGPR was read by dwordRun).
      std::memcpy(w.v(static_cast<uint32_t>(vdst)) + first0, lds + start0,
                  4 * static_cast<size_t>(run0));
      std::memcpy(w.v(static_cast<uint32_t>(vdst + 1)) + first1, lds + start1,
                  4 * static_cast<size_t>(run1));
    } else if (twoDwords) {
      // read2 of dwords: both elements in one pass over the lanes, each lane's address read
      // before its data is written.
      static const uint8_t kZeros[4] = {};
      uint32_t* r0 = w.v(static_cast<uint32_t>(vdst));
      uint32_t* r1 = w.v(static_cast<uint32_t>(vdst + 1));
      auto lane = [&](int l) {
        const uint32_t a = addr[l], x0 = a + o0, x1 = a + o1;
        const uint8_t* p0 = x0 < limit ? lds + x0 : kZeros;
        const uint8_t* p1 = x1 < limit ? lds + x1 : kZeros;
        std::memcpy(&r0[l], p0, 4);
        std::memcpy(&r1[l], p1, 4);
      };
      if (exec == ~0ull) {
        for (int l = 0; l < kWaveSize; ++l) lane(l);
      } else {
        for (uint64_t b = exec; b != 0; b &= b - 1) lane(__builtin_ctzll(b));
      }
    } else if (wholeDwords && (m.elements == 1 || !overwritesAddress)) {
      static const uint8_t kZeros[MemRequest::kMaxElementBytes] = {};
      for (int e = 0; e < m.elements; ++e) {
        uint32_t* r = w.v(static_cast<uint32_t>(vdst + e * elementDwords));
        const uint32_t o = static_cast<uint32_t>(offset[e]);
        int first, run;
        uint32_t start;
        if (elementDwords == 1 && dwordRun(addr, o, exec, limit, first, run, start)) {
          std::memcpy(r + first, lds + start, 4 * static_cast<size_t>(run));
          continue;
        }
        // kDwords (a constant) dwords per lane; out of range: the zeros.
        auto load = [&](auto kDwords) {
          forDwordLanes(addr, o, lds, limit, exec, [&](int l, const uint8_t* p) {
            constexpr int kCount = decltype(kDwords)::value;
            p = p ? p : kZeros;
            std::memcpy(&r[l], p, 4);  // unrolled: one move per dword
            if constexpr (kCount > 1) std::memcpy(&r[kWaveSize + l], p + 4, 4);
            if constexpr (kCount > 2) std::memcpy(&r[2 * kWaveSize + l], p + 8, 4);
            if constexpr (kCount > 3) std::memcpy(&r[3 * kWaveSize + l], p + 12, 4);
          });
        };
        switch (elementDwords) {
          case 1:
            load(std::integral_constant<int, 1>{});
            break;
          case 2:
            load(std::integral_constant<int, 2>{});
            break;
          case 3:
            load(std::integral_constant<int, 3>{});
            break;
          default:
            load(std::integral_constant<int, 4>{});
            break;
        }
      }
    } else {
      forLanes([&](int l) {
        uint8_t data[MemRequest::kMaxLaneBytes] = {};
        for (int e = 0; e < m.elements; ++e)
          if (const uint8_t* p = at(l, e)) std::memcpy(data + e * bytes, p, bytes);
        scatterLaneLoad(w, vdst, dwords, m.ext, l, data);
      });
    }
  } else if (m.op == MemOp::Store) {
    int first, run;
    uint32_t start;
    if (wholeDwords && elementDwords == 1 && m.elements == 1 &&
        dwordRun(addr, static_cast<uint32_t>(offset[0]), exec, limit, first, run, start)) {
      std::memcpy(lds + start, w.v(static_cast<uint32_t>(data0)) + first,
                  4 * static_cast<size_t>(run));
    } else if (wholeDwords && elementDwords == 1 && m.elements == 1) {
      const uint32_t* r = w.v(static_cast<uint32_t>(data0));
      forDwordLanes(addr, static_cast<uint32_t>(offset[0]), lds, limit, exec,
                    [&](int l, uint8_t* p) {
                      if (p) std::memcpy(p, &r[l], 4);
                    });
    } else if (wholeDwords && elementDwords == 1) {  // write2: each lane's two dwords in turn
      const uint32_t* r0 = w.v(static_cast<uint32_t>(data0));
      const uint32_t* r1 = w.v(static_cast<uint32_t>(data1));
      forLanes([&](int l) {
        if (uint8_t* p = at(l, 0)) std::memcpy(p, &r0[l], 4);
        if (uint8_t* p = at(l, 1)) std::memcpy(p, &r1[l], 4);
      });
    } else {
      forLanes([&](int l) {
        for (int e = 0; e < m.elements; ++e) {
          uint8_t data[MemRequest::kMaxElementBytes];
          gatherVgprBytes(w, e == 0 ? data0 : data1, m.bytes, l, e == 0 && m.d16Hi, data);
          if (uint8_t* p = at(l, e)) std::memcpy(p, data, bytes);
        }
      });
    }
  } else {
    const bool compare = m.atomic == AtomicOp::CmpSwap || m.atomic == AtomicOp::FCmpSwap;
    const bool twoData = a.twoData;
    if (bytes == 4 && m.elements == 1 && m.atomic != AtomicOp::CondXchg32) {
      // One dword per lane; the operands as execDs gathers them (ds_cmpst: DATA0 is the
      // compare value, DATA1 the value written; mskor and wrap: DATA1 is the second operand).
      const uint32_t* src = w.v(static_cast<uint32_t>(compare ? data1 : data0));
      const uint32_t* cmp = compare ? w.v(static_cast<uint32_t>(data0))
                                    : (twoData ? w.v(static_cast<uint32_t>(data1)) : nullptr);
      uint32_t* r = m.returns ? w.v(static_cast<uint32_t>(vdst)) : nullptr;
      // `op` a constant for the most common atomic (counters, histograms): its loop is an add.
      // Every lane on and inside the allocation (as the largest address says): no range check
      // per lane.
      const uint32_t o = static_cast<uint32_t>(offset[0]);
      const bool inRange =
          exec == ~0ull && fits && offset[0] <= lastOffset &&
          lanesAtMost<kWaveSize>(addr, static_cast<uint32_t>(lastOffset - offset[0]));
      auto apply = [&](auto op) {
        auto update = [&](int l, uint8_t* p) {
          uint32_t old = 0;  // out of range: returns 0
          if (p) {
            std::memcpy(&old, p, 4);
            const uint32_t updated = atomicResult<uint32_t, int32_t, float>(
                static_cast<AtomicOp>(op), old, src[l], cmp ? cmp[l] : 0);
            std::memcpy(p, &updated, 4);
            changed |= updated != old;
          }
          if (r) r[l] = old;
        };
        if (inRange && !r && !cmp) {  // (no data back, one operand: a histogram's add)
          for (int l = 0; l < kWaveSize; ++l) {
            uint8_t* p = lds + addr[l] + o;
            uint32_t old;
            std::memcpy(&old, p, 4);
            const uint32_t updated =
                atomicResult<uint32_t, int32_t, float>(static_cast<AtomicOp>(op), old, src[l], 0);
            std::memcpy(p, &updated, 4);
            changed |= updated != old;
          }
        } else if (inRange) {
          for (int l = 0; l < kWaveSize; ++l) update(l, lds + addr[l] + o);
        } else {
          forDwordLanes(addr, o, lds, limit, exec, update);
        }
      };
      if (m.atomic == AtomicOp::Add)
        apply(std::integral_constant<AtomicOp, AtomicOp::Add>{});
      else
        apply(m.atomic);
    } else {
      forLanes([&](int l) {
        uint8_t source[2][MemRequest::kMaxElementBytes] = {};
        uint8_t cmp[2][MemRequest::kMaxElementBytes] = {};
        if (compare) {
          gatherVgprBytes(w, data1, m.bytes, l, false, source[0]);
          gatherVgprBytes(w, data0, m.bytes, l, false, cmp[0]);
        } else if (m.elements == 2) {  // wrxchg2: one exchange per address
          gatherVgprBytes(w, data0, m.bytes, l, false, source[0]);
          gatherVgprBytes(w, data1, m.bytes, l, false, source[1]);
        } else {
          gatherVgprBytes(w, data0, m.bytes, l, false, source[0]);
          if (twoData) gatherVgprBytes(w, data1, m.bytes, l, false, cmp[0]);
        }
        uint8_t old[MemRequest::kMaxLaneBytes] = {};  // out of range: returns 0
        for (int e = 0; e < m.elements; ++e)
          if (uint8_t* p = at(l, e)) {
            std::memcpy(old + e * bytes, source[e], bytes);
            changed |= accessElement(MemOp::Atomic, m.atomic, m.bytes, p, old + e * bytes, cmp[e]);
          }
        if (m.returns) scatterLaneLoad(w, vdst, dwords, LoadExt::None, l, old);
      });
    }
  }
  return changed;
}

}  // namespace

bool executeAtIssue(const DsAtIssueAccess& access) {
  if (access.w.exec == ~0ull && everyLaneAtIssue(access)) return false;  // (no atomics)
  return generalAtIssue(access);
}

}  // namespace vgpu::lds
