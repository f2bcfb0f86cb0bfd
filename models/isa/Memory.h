// Helpers shared by the memory-instruction families (DS, MUBUF/MTBUF, FLAT, SMEM): filling a
// MemRequest and describing how completeMemory() writes the returned data back.
#pragma once

#include <algorithm>
#include <cstring>

#include "isa/Operands.h"

namespace vgpu::isa {

// MemRequest::Writeback::kind values (opaque to the compute unit).
enum WritebackKind : uint8_t { kWbNone = 0, kWbVgpr = 1, kWbSgpr = 2, kWbLds = 3 };
// Writeback::flags: bits [3:0] = LoadExt; bit 4 = buffer format conversion (parameters in
// Writeback::format, laid out by vmem::wbfmt in VectorMemoryInternal.h).
constexpr uint8_t kWbFormat = 0x10;
// Writeback::flags bit 5: broadcast lane `aux`'s returned data to every written lane
// (ds_append / ds_consume).
constexpr uint8_t kWbBroadcast = 0x20;
// Writeback::flags bit 6: image load: format conversion, DST_SEL and dmask packing (parameters
// in Writeback::format, see Mimg.cpp).
constexpr uint8_t kWbImage = 0x40;
// Writeback::flags bit 7: buffer load with TFE: the VGPR after the `count` data VGPRs receives
// the fetch status (Vega ISA guide 12.17 MUBUF TFE).
constexpr uint8_t kWbTfe = 0x80;

// Resets `mem` for a new request (zeroed data so lanes that are not sent read back as 0).
inline void beginRequest(MemRequest& mem, MemSpace space, MemOp op, WaitCounter counter) {
  // data[] is zero past what the last request's shape covers (a fresh request is all zero, and
  // elements are written only inside the shape): only that part needs clearing. A dword access
  // clears 256 bytes, not the whole kilobyte, most of which it would bring back into the host's
  // caches for nothing.
  std::memset(mem.data.data(), 0, mem.dataBytesUsed());
  mem.space = space;
  mem.op = op;
  mem.atomic = AtomicOp::None;
  mem.atomicReturnsData = false;
  mem.atomicChangedMemory = false;
  mem.counter = counter;
  mem.glc = mem.slc = false;
  mem.image = false;
  mem.crossLane = MemRequest::CrossLane::None;
  mem.laneMask = 0;
  mem.elementBytes = 4;
  mem.elementsPerLane = 1;
  mem.faulted = false;
  mem.faultAddress = 0;
  mem.writeback = MemRequest::Writeback{};
  mem.ldsData = MemRequest::kNoLdsData;
  mem.laneBytes.fill(0);
  mem.texels.clear();
  // Compare values are read by atomics only: other requests neither clear nor allocate them.
  if (op == MemOp::Atomic) mem.cmp.assign(MemRequest::kDataBytes, 0);
}

inline void setVgprWriteback(MemRequest& mem, int reg, int dwords, LoadExt ext, uint64_t lanes) {
  mem.writeback.kind = kWbVgpr;
  mem.writeback.reg = static_cast<uint16_t>(reg);
  mem.writeback.count = static_cast<uint8_t>(dwords);
  mem.writeback.flags = static_cast<uint8_t>(ext);
  mem.writeback.lanes = lanes;
}

// Copies `bytes` of lane `lane`'s VGPRs starting at `reg` to `dst` (store data). `hi16` takes
// the high half of the first VGPR (d16_hi stores).
inline void gatherVgprBytes(const WaveState& w, int reg, int bytes, int lane, bool hi16,
                            uint8_t* dst) {
  if (hi16) {
    const uint32_t v = w.v(static_cast<uint32_t>(reg))[lane] >> 16;
    std::memcpy(dst, &v, static_cast<size_t>(bytes < 4 ? bytes : 4));
    return;
  }
  for (int k = 0; k * 4 < bytes; ++k) {
    const uint32_t v = w.v(static_cast<uint32_t>(reg + k))[lane];
    const int n = bytes - k * 4 < 4 ? bytes - k * 4 : 4;
    if (n == 4)  // whole dwords: a fixed-size copy is one move, not a call to memcpy
      std::memcpy(dst + 4 * k, &v, 4);
    else
      std::memcpy(dst + 4 * k, &v, static_cast<size_t>(n));
  }
}

// The value a load with extension `ext` writes to a lane's VGPR from the returned bytes `p`;
// `old` is the VGPR's value, half of which the D16 forms keep.
inline uint32_t extendLoad(const uint8_t* p, LoadExt ext, uint32_t old) {
  const uint32_t b = p[0], s16 = static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8);
  switch (ext) {
    case LoadExt::U8:
      return b;
    case LoadExt::I8:
      return static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(b)));
    case LoadExt::U16:
      return s16;
    case LoadExt::I16:
      return static_cast<uint32_t>(static_cast<int32_t>(static_cast<int16_t>(s16)));
    case LoadExt::D16LoU8:
      return (old & 0xffff0000u) | b;
    case LoadExt::D16LoI8:
      return (old & 0xffff0000u) |
             (static_cast<uint32_t>(static_cast<int16_t>(static_cast<int8_t>(b))) & 0xffff);
    case LoadExt::D16Lo16:
      return (old & 0xffff0000u) | s16;
    case LoadExt::D16HiU8:
      return (old & 0xffff) | (b << 16);
    case LoadExt::D16HiI8:
      return (old & 0xffff) |
             (static_cast<uint32_t>(static_cast<int16_t>(static_cast<int8_t>(b))) << 16);
    case LoadExt::D16Hi16:
      return (old & 0xffff) | (s16 << 16);
    default:
      return old;
  }
}

// Writes lane `lane`'s loaded bytes `p` to its VGPRs from `reg`, as completeMemory() does: one
// extended dword (ext != None), else `dwords` whole dwords.
inline void scatterLaneLoad(WaveState& w, int reg, int dwords, LoadExt ext, int lane,
                            const uint8_t* p) {
  if (ext != LoadExt::None) {
    uint32_t& r = w.v(static_cast<uint32_t>(reg))[lane];
    r = extendLoad(p, ext, r);
    return;
  }
  for (int k = 0; k < dwords; ++k)
    std::memcpy(&w.v(static_cast<uint32_t>(reg + k))[lane], p + 4 * k, 4);
}

// Whether all 64 lanes of VGPR `v` hold lane0 + l * step (modulo 2^32), and those of `upper`
// (when given) `high`: lanesStep's loop over every lane, eight lanes per step (SSE2) or sixteen
// (AVX2, lanesAvx2()), the mismatches gathered in one register.
#if VGPU_LANES_AVX2
__attribute__((target("avx2"))) inline bool allLanesStepAvx2(const uint32_t* v,
                                                             const uint32_t* upper, uint32_t lane0,
                                                             uint32_t step, uint32_t high) {
  const auto s = static_cast<int>(step);
  const __m256i step8 = _mm256_set1_epi32(8 * s), step16 = _mm256_set1_epi32(16 * s);
  const __m256i highs = _mm256_set1_epi32(static_cast<int>(high));
  __m256i e0 = _mm256_add_epi32(_mm256_set1_epi32(static_cast<int>(lane0)),
                                _mm256_setr_epi32(0, s, 2 * s, 3 * s, 4 * s, 5 * s, 6 * s, 7 * s));
  __m256i e1 = _mm256_add_epi32(e0, step8);
  __m256i bad = _mm256_setzero_si256();
  const auto* p = reinterpret_cast<const __m256i*>(v);
  const auto* q = reinterpret_cast<const __m256i*>(upper);
  for (int i = 0; i < kWaveSize / 8; i += 2) {
    bad = _mm256_or_si256(bad, _mm256_xor_si256(_mm256_loadu_si256(p + i), e0));
    bad = _mm256_or_si256(bad, _mm256_xor_si256(_mm256_loadu_si256(p + i + 1), e1));
    if (upper) {
      bad = _mm256_or_si256(bad, _mm256_xor_si256(_mm256_loadu_si256(q + i), highs));
      bad = _mm256_or_si256(bad, _mm256_xor_si256(_mm256_loadu_si256(q + i + 1), highs));
    }
    e0 = _mm256_add_epi32(e0, step16);
    e1 = _mm256_add_epi32(e1, step16);
  }
  return _mm256_testz_si256(bad, bad) != 0;
}
#endif
inline bool allLanesStep(const uint32_t* v, const uint32_t* upper, uint32_t lane0, uint32_t step,
                         uint32_t high) {
#if VGPU_LANES_AVX2
  if (lanesAvx2()) return allLanesStepAvx2(v, upper, lane0, step, high);
#endif
#if defined(__SSE2__)
  const auto s = static_cast<int>(step);
  const __m128i step4 = _mm_set1_epi32(4 * s), step8 = _mm_set1_epi32(8 * s);
  const __m128i highs = _mm_set1_epi32(static_cast<int>(high));
  __m128i e0 =
      _mm_add_epi32(_mm_set1_epi32(static_cast<int>(lane0)), _mm_setr_epi32(0, s, 2 * s, 3 * s));
  __m128i e1 = _mm_add_epi32(e0, step4);
  __m128i bad = _mm_setzero_si128();
  const auto* p = reinterpret_cast<const __m128i*>(v);
  const auto* q = reinterpret_cast<const __m128i*>(upper);
  for (int i = 0; i < kWaveSize / 4; i += 2) {
    bad = _mm_or_si128(bad, _mm_xor_si128(_mm_loadu_si128(p + i), e0));
    bad = _mm_or_si128(bad, _mm_xor_si128(_mm_loadu_si128(p + i + 1), e1));
    if (upper) {
      bad = _mm_or_si128(bad, _mm_xor_si128(_mm_loadu_si128(q + i), highs));
      bad = _mm_or_si128(bad, _mm_xor_si128(_mm_loadu_si128(q + i + 1), highs));
    }
    e0 = _mm_add_epi32(e0, step8);
    e1 = _mm_add_epi32(e1, step8);
  }
  return _mm_movemask_epi8(_mm_cmpeq_epi32(bad, _mm_setzero_si128())) == 0xffff;
#else
  uint32_t differ = 0;
  for (int l = 0; l < kWaveSize; ++l, lane0 += step)
    differ |= (v[l] ^ lane0) | (upper ? upper[l] ^ high : 0);
  return differ == 0;
#endif
}

// Whether each quarter-wave (16 lanes, a row of a 16-wide workgroup) of VGPR `v` holds its
// first lane's value stepped: v[l] == v[q] + (l - q) * step for the quarter-wave from q.
inline bool quarterWavesStep(const uint32_t* v, uint32_t step) {
#if defined(__SSE2__)
  const auto s = static_cast<int>(step);
  const __m128i lanes = _mm_setr_epi32(0, s, 2 * s, 3 * s), step4 = _mm_set1_epi32(4 * s);
  __m128i bad = _mm_setzero_si128();
  for (int q = 0; q < kWaveSize; q += 16) {
    __m128i expected = _mm_add_epi32(_mm_set1_epi32(static_cast<int>(v[q])), lanes);
    for (int i = 0; i < 16; i += 4) {
      bad = _mm_or_si128(
          bad,
          _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(v + q + i)), expected));
      expected = _mm_add_epi32(expected, step4);
    }
  }
  return _mm_movemask_epi8(_mm_cmpeq_epi32(bad, _mm_setzero_si128())) == 0xffff;
#else
  uint32_t differ = 0;
  for (int l = 0; l < kWaveSize; ++l)
    differ |= v[l] ^ (v[l & ~15] + static_cast<uint32_t>(l & 15) * step);
  return differ == 0;
#endif
}

// Whether lanes `lanes` (not none) of VGPR `v` hold v[first] + (l - first) * step, without
// passing 2^32 between the first and the last lane, and (when `upper` is given) the same value
// of VGPR `upper` (the high halves of 64-bit addresses). The full-wave forms are branch-free
// loops that vectorise.
inline bool lanesStep(const uint32_t* v, const uint32_t* upper, uint64_t lanes, uint32_t step) {
  const int first = __builtin_ctzll(lanes), last = 63 - __builtin_clzll(lanes);
  // The last lane first: most patterns that are not a step fail there, before the loop.
  if (v[last] - v[first] != static_cast<uint32_t>(last - first) * step) return false;
  uint32_t expected = v[first] - static_cast<uint32_t>(first) * step;  // lane 0's
  const uint32_t high = upper ? upper[first] : 0;
  uint32_t differ = 0;
  const uint64_t fromFirst = lanes >> first;
  if (lanes != ~0ull && ((fromFirst + 1) & fromFirst) == 0) {
    // One run of lanes, from the first to the last.
    expected += static_cast<uint32_t>(first) * step;
    for (int l = first; l <= last; ++l, expected += step) {
      differ |= v[l] ^ expected;
      if (upper) differ |= upper[l] ^ high;
    }
  } else if (lanes != ~0ull) {
    for (uint64_t b = lanes; b != 0; b &= b - 1) {
      const int l = __builtin_ctzll(b);
      differ |= v[l] ^ (expected + static_cast<uint32_t>(l) * step);
      if (upper) differ |= upper[l] ^ high;
    }
  } else {
    differ = allLanesStep(v, upper, expected, step, high) ? 0 : 1;
  }
  return differ == 0 && uint64_t{v[first]} + uint64_t{step} * (last - first) <= 0xffffffffu;
}

inline void fault(ExecArgs& x, const char* why) {
  x.r.kind = StepKind::Fault;
  x.r.fault = why;
}

// Dwords a load of `bytes` with extension `ext` writes per lane.
inline int loadDwords(int bytes, LoadExt ext) {
  return ext == LoadExt::None ? (bytes + 3) / 4 : 1;
}

// Buffer resource (V#) fields (Vega ISA guide 8.1.5 "Buffer Resource").
struct BufferResource {
  uint64_t base = 0;
  uint32_t stride = 0;
  uint32_t numRecords = 0;
  bool swizzle = false;
  bool addTid = false;
  uint32_t elementSize = 4;
  uint32_t indexStride = 64;
  uint32_t dataFormat = 0, numFormat = 0;
  uint32_t dstSel = 0;  // DST_SEL_X..W, 3 bits each from bit 0
  uint32_t type = 0;    // 0: buffer; else an image resource (T#)
};
BufferResource decodeResource(const uint32_t* words);

// Buffer-load completions (VectorMemory.cpp), called by completeMemory: format conversion
// (kWbFormat) and the TFE status VGPR (kWbTfe).
void completeFormatLoad(WaveState& wave, const MemRequest& mem);
void writeTfeStatus(WaveState& wave, const MemRequest::Writeback& wb);
// Image-load completion (Mimg.cpp), called by completeMemory for kWbImage.
void completeImageLoad(WaveState& wave, const MemRequest& mem);

}  // namespace vgpu::isa
