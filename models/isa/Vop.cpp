// The VALU executor, written once for VOP1/VOP2/VOPC/VOP3 and their DPP and SDWA forms:
// operand fetch with input modifiers, the opcode's lane function, output modifiers and
// write-back under EXEC (Vega ISA guide ch. 6 "Vector ALU Operations", 12.7 - 12.11). Ops of
// 32- and 64-bit operands without modifiers take a fast path (execValuInPlace) that reads the
// operands in place; everything else, and every fault, goes through the general path.
#include <algorithm>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "isa/FloatMode.h"
#include "isa/Valu.h"

namespace vgpu::isa {
namespace {

uint64_t signBit(Ty t) {
  if (is16(t)) return 0x8000ull;
  if (is64(t)) return 0x8000000000000000ull;
  return 0x80000000ull;
}

// SDWA operand select (12.9): BYTE_0..3 = 0..3, WORD_0/1 = 4/5, DWORD = 6.
uint64_t sdwaSelect(uint64_t v, unsigned sel, bool sextend) {
  v &= 0xffffffffull;
  if (sel <= 3) {
    const uint64_t x = (v >> (8 * sel)) & 0xff;
    return sextend ? (sext(x, 8) & 0xffffffffull) : x;
  }
  if (sel <= 5) {
    const uint64_t x = (v >> (16 * (sel - 4))) & 0xffff;
    return sextend ? (sext(x, 16) & 0xffffffffull) : x;
  }
  return v;
}

// DPP source lane for destination lane `lane` (12.10), or -1 when the source is out of range.
int dppSourceLane(unsigned ctrl, int lane) {
  const int row = lane & ~15, inRow = lane & 15;
  if (ctrl <= 0xff) return (lane & ~3) | ((ctrl >> (2 * (lane & 3))) & 3);
  if (ctrl >= 0x101 && ctrl <= 0x10f) {  // row_shl: read from a higher lane of the row
    const int s = inRow + static_cast<int>(ctrl & 15);
    return s < 16 ? row + s : -1;
  }
  if (ctrl >= 0x111 && ctrl <= 0x11f) {  // row_shr: read from a lower lane of the row
    const int s = inRow - static_cast<int>(ctrl & 15);
    return s >= 0 ? row + s : -1;
  }
  if (ctrl >= 0x121 && ctrl <= 0x12f) return row + ((inRow - static_cast<int>(ctrl & 15)) & 15);
  switch (ctrl) {
    case 0x130:
      return lane + 1 < kWaveSize ? lane + 1 : -1;  // wave_shl:1
    case 0x134:
      return (lane + 1) & 63;  // wave_rol:1
    case 0x138:
      return lane - 1;  // wave_shr:1
    case 0x13c:
      return (lane - 1) & 63;  // wave_ror:1
    case 0x140:
      return row + (15 - inRow);  // row_mirror
    case 0x141:
      return (lane & ~7) + (7 - (lane & 7));  // row_half_mirror
    case 0x142:
      return row >= 16 ? row - 1 : -1;  // row_bcast:15
    case 0x143:
      return lane >= 32 ? 31 : -1;  // row_bcast:31
    default:
      return -1;
  }
}

double outputMod(double v, unsigned omod) {
  switch (omod) {
    case 1:
      return v * 2.0;
    case 2:
      return v * 4.0;
    case 3:
      return v * 0.5;
    default:
      return v;
  }
}

// Output modifiers on a float result (6.2.2): omod then clamp to [0, 1] (NaN -> 0).
uint64_t applyOutputMods(uint64_t r, Ty t, unsigned omod, bool clamp) {
  if (!isFloat(t) || (omod == 0 && !clamp)) return r;
  if (t == Ty::F64) {
    double v = outputMod(asF64(r), omod);
    if (clamp) v = v > 1.0 ? 1.0 : (v >= 0.0 ? v : 0.0);
    return bitsF64(v);
  }
  if (t == Ty::F16) {
    float v = static_cast<float>(outputMod(asF16(r), omod));
    if (clamp) v = v > 1.0f ? 1.0f : (v >= 0.0f ? v : 0.0f);
    return bitsF16(v);
  }
  float v = static_cast<float>(outputMod(asF32(r), omod));
  if (clamp) v = v > 1.0f ? 1.0f : (v >= 0.0f ? v : 0.0f);
  return bitsF32(v);
}

// Lanes whose byte is non-zero, as a mask (compare results, carries): 16 lanes per SSE2
// compare where the host has it (every x86-64 does), else one lane at a time.
uint64_t laneMask(const uint8_t* bits, uint64_t enabled) {
  uint64_t m = 0;
#if defined(__SSE2__)
  const __m128i zero = _mm_setzero_si128();
  for (int k = 0; k < kWaveSize / 16; ++k) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bits + 16 * k));
    const auto isZero = static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, zero)));
    m |= static_cast<uint64_t>(~isZero & 0xffffu) << (16 * k);
  }
#else
  for (int i = 0; i < kWaveSize; ++i) m |= static_cast<uint64_t>(bits[i] != 0) << i;
#endif
  return m & enabled;
}

// Lanes whose bit is set in `mask`, as bytes 0/1 (the carry in of the loops over every lane):
// 16 lanes per step with SSE2, else one at a time.
void maskToBytes(uint64_t mask, uint8_t* out) {
#if defined(__SSE2__)
  const __m128i bit = _mm_setr_epi8(1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128);
  const __m128i one = _mm_set1_epi8(1);
  for (int k = 0; k < kWaveSize / 16; ++k) {
    const __m128i m = _mm_cvtsi32_si128(static_cast<int>((mask >> (16 * k)) & 0xffff));
    __m128i v = _mm_unpacklo_epi8(m, m);  // byte 0 twice, byte 1 twice
    v = _mm_unpacklo_epi16(v, v);         // byte 0 four times, byte 1 four times
    v = _mm_unpacklo_epi32(v, v);         // byte 0 in bytes 0-7, byte 1 in bytes 8-15
    const __m128i set = _mm_cmpeq_epi8(_mm_and_si128(v, bit), bit);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 16 * k), _mm_and_si128(set, one));
  }
#else
  for (int l = 0; l < kWaveSize; ++l) out[l] = (mask >> l) & 1;
#endif
}

alignas(64) const uint32_t kZeroLanes[kWaveSize] = {};

// out[l] = in[l] for the lanes set in `mask`: a copy when every lane is, else a select four
// lanes at a time (SSE2) or lane by lane.
void maskedStore(uint32_t* out, const uint32_t* in, uint64_t mask) {
#if defined(__SSE2__)
  if (mask == ~uint64_t{0}) {
    copyWaveDwords(out, in);
    return;
  }
  // Lane-select masks for each 4-bit group of EXEC; every group blended, without branches (the
  // fast path stores this way only with more than half the lanes on).
  alignas(16) static const uint32_t kNibble[16][4] = {
      {0, 0, 0, 0},     {~0u, 0, 0, 0},     {0, ~0u, 0, 0},     {~0u, ~0u, 0, 0},
      {0, 0, ~0u, 0},   {~0u, 0, ~0u, 0},   {0, ~0u, ~0u, 0},   {~0u, ~0u, ~0u, 0},
      {0, 0, 0, ~0u},   {~0u, 0, 0, ~0u},   {0, ~0u, 0, ~0u},   {~0u, ~0u, 0, ~0u},
      {0, 0, ~0u, ~0u}, {~0u, 0, ~0u, ~0u}, {0, ~0u, ~0u, ~0u}, {~0u, ~0u, ~0u, ~0u}};
  for (int g = 0; g < kWaveSize / 4; ++g, mask >>= 4) {
    const unsigned nibble = static_cast<unsigned>(mask & 15);
    auto* o = reinterpret_cast<__m128i*>(out + 4 * g);
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + 4 * g));
    const __m128i m = _mm_load_si128(reinterpret_cast<const __m128i*>(kNibble[nibble]));
    _mm_storeu_si128(o, _mm_or_si128(_mm_and_si128(m, v), _mm_andnot_si128(m, _mm_loadu_si128(o))));
  }
#else
  if (mask == ~uint64_t{0}) {
    std::memcpy(out, in, kWaveSize * sizeof(uint32_t));
    return;
  }
  for (; mask != 0; mask &= mask - 1) {
    const int l = __builtin_ctzll(mask);
    out[l] = in[l];
  }
#endif
}

// Up to this many active lanes a 32-bit op runs lane by lane on just those (results straight
// into the destination); above, over every lane (vectorised) into a buffer and a masked store.
// Measured with callgrind on collatz.
constexpr int kSparseLanesNarrow = 32;
// The same with the AVX2 build of the loops over every lane (twice the lanes per operation).
constexpr int kSparseLanesNarrowAvx2 = 20;
// The same limit for 64-bit compares, which vectorise on 32-bit halves (VopCompare.cpp).
constexpr int kSparseLanesCompare64 = 16;
// And for other 64-bit ops (sparse64 / full64): most 64-bit bodies vectorise only in part (SSE2
// has no 64-bit compares or variable shifts), but the loop over every lane has no per-lane bit
// search either.
constexpr int kSparseLanesWide = 32;

// out[l] = v for every lane.
inline void fillLanes(uint32_t* out, uint32_t v) {
#if defined(__SSE2__)
  const __m128i x = _mm_set1_epi32(static_cast<int>(v));
  auto* o = reinterpret_cast<__m128i*>(out);
  for (int k = 0; k < kWaveSize / 4; k += 4) {
    _mm_store_si128(o + k, x);
    _mm_store_si128(o + k + 1, x);
    _mm_store_si128(o + k + 2, x);
    _mm_store_si128(o + k + 3, x);
  }
#else
  for (int l = 0; l < kWaveSize; ++l) out[l] = v;
#endif
}

// What the fast path writes besides a vector result: nothing, a carry-out mask (VOP3B sdst or
// VCC), or (a compare) only the compare mask.
enum ValuResult { kVectorResult, kCarryResult, kCompareResult };

// The fast path: an op of 32- and 64-bit operands without modifiers (e32, or e64 without
// abs/neg/omod/clamp/op_sel) in a mode that changes nothing (the default float mode, or an op
// MODE does not touch), with every VGPR inside the allocation. VGPR sources are read in place
// (a 64-bit source as its two registers) and scalars read once; the lane body runs on just the
// active lanes or on all 64 (OpInfo::valuForms), a scalar src0 then uniform in the loop, the
// other scalars broadcast. Anything else, including every fault, is left to the general path:
// returns false before changing any state. Instantiated per operand shape (valuExecutor):
// `Sources` read (src0 .. src2, a carry-in not counted), `Wide` some operand 64-bit, `Result`
// what is written.
template <int Sources, bool Wide, ValuResult Result>
__attribute__((always_inline)) inline bool execValuInPlace(ExecArgs& x) {
  const Instruction& in = x.in;
  const OpInfo& op = x.op;
  WaveState& w = x.w;
  // The form (e32, or e64 without modifiers) and every VGPR inside the allocation, as worked out
  // at decode (valuVgprLimit).
  if (w.numVgprs < in.vgprLimit) return false;
  const uint32_t flags = op.flags;
  constexpr bool vopc = Result == kCompareResult;
  if ((w.mode & kModeGprIdxEnable) ||
      (!vopc && (w.mode & fpmode::kFieldsMask) != fpmode::kDefault && !(flags & kFpBitwise)))
    return false;
  const int dstDwords = vopc ? 0 : (Wide && is64(op.dst) ? 2 : 1);  // a compare's is a mask
  const int dstReg = in.f[fld::kDst] - opnd::kVgpr0;

  // Sources: VGPRs in place (pairs for 64-bit types), scalars read into `scalar`.
  ValuOperands s{{kZeroLanes, kZeroLanes, kZeroLanes}, {kZeroLanes, kZeroLanes, kZeroLanes}};
  uint64_t scalar[Sources] = {};
  unsigned scalars = 0;  // bit k: source k is a scalar
  const auto source = [&](int k, Ty t) {
    const int code = in.f[fld::kSrc0 + k];
    if (code >= opnd::kVgpr0) {
      s.lo[k] = w.v(static_cast<uint32_t>(code - opnd::kVgpr0));
      if (Wide && is64(t)) s.hi[k] = s.lo[k] + kWaveSize;  // the pair's second VGPR
    } else {
      scalar[k] = readScalar(in, w, x.ctx, code, Wide ? t : Ty::B32);
      scalars |= 1u << k;
    }
  };
  source(0, op.src0);
  if constexpr (Sources >= 2) source(1, op.src1);
  if constexpr (Sources >= 3) source(2, (flags & kAccumulate) ? op.dst : op.src2);

  ValuLaneState L;
  L.w = &w;
  L.in = &in;
  L.ctx = &x.ctx;
  const uint64_t exec = w.exec;
  L.exec = exec;
  L.writeMask = exec;
  const bool carryIn = flags & kCarryIn;
  const uint64_t carryMask =
      !carryIn ? 0
               : (in.f[fld::kForm] == kE64 ? readScalar(in, w, x.ctx, in.f[fld::kSrc2], Ty::B64)
                                           : w.vcc);
  const ValuLaneForms& forms = *op.valuForms;
  // The loop: 64-bit integer compares over every lane on 32-bit halves; else over every lane
  // with more than half of them on, lane by lane below.
  const int active = exec == ~uint64_t{0} ? kWaveSize : bitCount(exec);  // every lane: usual
  const bool compare64 =
      Wide && Result == kCompareResult && forms.compare64 && active > kSparseLanesCompare64;
  const bool full =
      !compare64 && active > (Wide ? kSparseLanesWide
                                   : (lanesAvx2() ? kSparseLanesNarrowAvx2 : kSparseLanesNarrow));
  const bool uniformA = full && (scalars & 1);
  // The scalars the loop reads as lanes, broadcast.
  alignas(16) uint32_t splat[Sources][2][kWaveSize];
  for (int k = uniformA ? 1 : 0; k < Sources; ++k) {
    if (!((scalars >> k) & 1)) continue;
    fillLanes(splat[k][0], static_cast<uint32_t>(scalar[k]));
    s.lo[k] = splat[k][0];
    if (scalar[k] >> 32) {
      fillLanes(splat[k][1], static_cast<uint32_t>(scalar[k] >> 32));
      s.hi[k] = splat[k][1];
    }
  }

  uint64_t ccMask = 0;  // carry / compare out of the active lanes
  uint32_t* const dlo = !vopc ? w.v(static_cast<uint32_t>(dstReg)) : nullptr;
  uint32_t* const dhi = dstDwords == 2 ? w.v(static_cast<uint32_t>(dstReg + 1)) : nullptr;
  // The full loops' results before their masked store, and what goes nowhere (a compare's
  // result lanes, the high dwords of a 32-bit result).
  alignas(16) uint32_t buffer[2][kWaveSize];
  if (compare64) {
    forms.compare64(L, s);
    ccMask = laneMask(L.cc, exec);
  } else if (!full) {
    ccMask = (Wide ? forms.sparse64 : forms.sparse32)(L, s, dlo ? dlo : buffer[0],
                                                      dhi ? dhi : buffer[1], exec, carryMask);
  } else {
    if (carryIn) maskToBytes(carryMask, L.cin);
    // With every lane on and a destination that is none of the sources, the loop writes the
    // destination itself; else buffers and a masked store.
    const auto isSource = [&](const uint32_t* d) {
      for (int k = 0; k < 3; ++k)
        if (d == s.lo[k] || (Wide && d == s.hi[k])) return true;
      return false;
    };
    const bool direct = !vopc && exec == ~uint64_t{0} && !isSource(dlo) && !(dhi && isSource(dhi));
    uint32_t* const outLo = direct ? dlo : buffer[0];
    uint32_t* const outHi = direct && dhi ? dhi : buffer[1];
    ccMask = (Wide ? forms.full64 : forms.full32)[lanesAvx2()][uniformA](
                 L, s, scalar[0], outLo, outHi, Result != kVectorResult) &
             exec;
    if (!vopc && !direct) {
      maskedStore(dlo, buffer[0], exec);
      if (dhi) maskedStore(dhi, buffer[1], exec);
    }
  }
  if constexpr (Result == kCompareResult) {
    // Compare: inactive lanes read as 0 in the result mask (6.4).
    writeScalar(w, in.f[fld::kDst], 2, ccMask);
    if (flags & kCmpx) w.exec = ccMask;
  } else if constexpr (Result == kCarryResult) {
    writeScalar(w, in.f[fld::kSdst], 2, ccMask);
  }
  w.pc += in.sizeBytes;
  return true;
}

// Every other VALU instruction: operands widened to 64-bit lanes with their modifiers.
__attribute__((noinline)) void execValuGeneral(ExecArgs& x);

void execValuGeneral(ExecArgs& x) {
  const Instruction& in = x.in;
  const OpInfo& op = x.op;
  WaveState& w = x.w;
  const unsigned form = in.f[fld::kForm];
  const unsigned mods = in.f[fld::kMods];
  const unsigned abs = mods & 7, neg = (mods >> 3) & 7, omod = (mods >> 7) & 3;
  const bool clamp = (mods >> 6) & 1;
  const unsigned opsel = in.f[fld::kOpsel];

  ValuLanes L;
  L.w = &w;
  L.in = &in;
  L.ctx = &x.ctx;
  L.exec = w.exec;
  L.clamp = clamp;
  L.opsel = opsel;

  const Ty types[3] = {op.src0, op.src1, (op.flags & kAccumulate) ? op.dst : op.src2};
  uint64_t* outs[3] = {L.a, L.b, L.c};
  for (int s = 0; s < 3; ++s) {
    uint64_t* out = outs[s];
    const Ty t = types[s];
    if (t == Ty::None || ((op.flags & kCarryIn) && s == 2)) {
      for (int l = 0; l < kWaveSize; ++l) out[l] = 0;
      continue;
    }
    int code = in.f[fld::kSrc0 + s];
    // s_set_gpr_idx_on: VGPR sources enabled in M0[14:12] are offset by M0[7:0] (12.4).
    if (code >= opnd::kVgpr0 && (w.mode & kModeGprIdxEnable) && ((w.m0 >> (12 + s)) & 1))
      code += static_cast<int>(w.m0 & 0xff);
    if (code >= opnd::kVgpr0 && !vgprInRange(w, code - opnd::kVgpr0, dwordsOf(t))) {
      x.r.kind = StepKind::Fault;
      x.r.fault = "VGPR operand out of the wave's allocation";
      return;
    }
    readLanes(in, w, x.ctx, code, t, out);
    if (form == kSdwa && s < 2) {
      const unsigned ext = in.f[fld::kExt1] >> (4 * s);
      for (int l = 0; l < kWaveSize; ++l) out[l] = sdwaSelect(out[l], ext & 7, (ext >> 3) & 1);
    } else if (is16(t) && t != Ty::Pk16 && t != Ty::PkF16) {  // packed: both halves
      // VOP3 op_sel picks the high half of a 16-bit source (12.8.1).
      const bool hi = form == kE64 && ((opsel >> s) & 1);
      for (int l = 0; l < kWaveSize; ++l) out[l] = (hi ? out[l] >> 16 : out[l]) & 0xffff;
    }
    if (form == kDpp && s == 0) {
      uint64_t src[kWaveSize];
      for (int l = 0; l < kWaveSize; ++l) src[l] = out[l];
      const unsigned ctrl = in.f[fld::kExt0];
      const unsigned ext1 = in.f[fld::kExt1];
      const unsigned rowMask = ext1 & 0xf, bankMask = (ext1 >> 4) & 0xf;
      const bool boundCtrl = (ext1 >> 8) & 1;
      uint64_t enabled = 0;
      for (int l = 0; l < kWaveSize; ++l) {
        const int from = dppSourceLane(ctrl, l);
        const bool valid = from >= 0 && ((w.exec >> from) & 1);
        out[l] = valid ? src[from] : 0;
        const bool laneOn = ((rowMask >> (l / 16)) & 1) && ((bankMask >> ((l & 15) / 4)) & 1) &&
                            (valid || boundCtrl);
        enabled |= static_cast<uint64_t>(laneOn) << l;
      }
      L.exec &= enabled;
    }
    const uint64_t sign = signBit(t);
    if ((abs >> s) & 1)
      for (int l = 0; l < kWaveSize; ++l) out[l] &= ~sign;
    if ((neg >> s) & 1)
      for (int l = 0; l < kWaveSize; ++l) out[l] ^= sign;
  }

  // MODE float controls (FloatMode.h): in the default mode (what clang emits for HIP and
  // OpenCL) only the always-flushing opcodes do anything here.
  const uint32_t fpMode = w.mode & fpmode::kFieldsMask;
  const bool fpAlways = op.flags & kFpFlushAlways;
  const bool fpControlled =
      (fpMode != fpmode::kDefault || fpAlways) && !(op.flags & kFpBitwise) && op.enc != Enc::Vopc;
  if (fpControlled) {
    for (int s = 0; s < 3; ++s) {
      if ((op.flags & kCarryIn) && s == 2) continue;
      if (fpmode::flushesSources(fpMode, types[s], fpAlways)) fpmode::flushLanes(outs[s], types[s]);
    }
  }

  if (op.flags & kCarryIn) {
    const uint64_t mask =
        (form == kE64) ? readScalar(in, w, x.ctx, in.f[fld::kSrc2], Ty::B64) : w.vcc;
    for (int l = 0; l < kWaveSize; ++l) L.cin[l] = (mask >> l) & 1;
  } else {
    for (int l = 0; l < kWaveSize; ++l) L.cin[l] = 0;
  }
  L.writeMask = L.exec;

  const bool vectorResult = op.dst != Ty::None && !(op.flags & kScalarDst) && op.enc != Enc::Vopc;
  {
    // The result rounds in the mode of its precision (the host's rounding follows it for the
    // lane function and the output modifiers); then denormal results flush if the mode says so.
    fpmode::HostRounding rounding(fpControlled ? fpmode::roundFor(fpMode, op.dst) : 0);
    op.valu(L);
    if (!L.fault && vectorResult) {
      if (isFloat(op.dst) && (omod != 0 || clamp))  // else applyOutputMods changes nothing
        for (int l = 0; l < kWaveSize; ++l) L.d[l] = applyOutputMods(L.d[l], op.dst, omod, clamp);
      if (fpControlled && fpmode::flushesResults(fpMode, op.dst, fpAlways))
        fpmode::flushLanes(L.d, op.dst);
    }
  }
  if (L.fault) {
    x.r.kind = StepKind::Fault;
    x.r.fault = L.fault;
    return;
  }

  if (op.enc == Enc::Vopc) {
    // Compare: inactive lanes read as 0 in the result mask (6.4).
    const uint64_t result = laneMask(L.cc, L.exec);
    writeScalar(w, in.f[fld::kDst], 2, result);
    if (op.flags & kCmpx) w.exec = result;
    w.pc += in.sizeBytes;
    return;
  }
  if (op.flags & kCarryOut) {
    writeScalar(w, in.f[fld::kSdst], 2, laneMask(L.cc, L.exec));
  }
  if (op.flags & kScalarDst) {
    writeScalar(w, in.f[fld::kDst], 1, L.scalarOut);
  } else if (op.dst != Ty::None) {
    int reg = in.f[fld::kDst] - opnd::kVgpr0;
    if ((w.mode & kModeGprIdxEnable) && ((w.m0 >> 15) & 1)) reg += static_cast<int>(w.m0 & 0xff);
    const int dwords = dwordsOf(op.dst);
    if (!vgprInRange(w, reg, dwords)) {
      x.r.kind = StepKind::Fault;
      x.r.fault = "VGPR destination out of the wave's allocation";
      return;
    }
    const uint64_t wm = L.writeMask;
    const bool sdwa = form == kSdwa;
    uint32_t* lo = w.v(static_cast<uint32_t>(reg));
    if (dwords == 2) {
      alignas(64) uint32_t halves[2][kWaveSize];
      for (int l = 0; l < kWaveSize; ++l) {
        halves[0][l] = static_cast<uint32_t>(L.d[l]);
        halves[1][l] = static_cast<uint32_t>(L.d[l] >> 32);
      }
      maskedStore(lo, halves[0], wm);
      maskedStore(w.v(static_cast<uint32_t>(reg + 1)), halves[1], wm);
    } else if (sdwa) {
      // SDWA destination select and unused-bits policy (12.9).
      const unsigned sel = in.f[fld::kExt0] & 7, unused = (in.f[fld::kExt0] >> 3) & 3;
      const unsigned shift = sel <= 3 ? 8 * sel : (sel <= 5 ? 16 * (sel - 4) : 0);
      const unsigned bits = sel <= 3 ? 8 : (sel <= 5 ? 16 : 32);
      const uint32_t field = bits == 32 ? ~0u : (((1u << bits) - 1) << shift);
      for (int l = 0; l < kWaveSize; ++l) {
        if (!((wm >> l) & 1)) continue;
        const uint32_t v = static_cast<uint32_t>(L.d[l]) << shift & field;
        uint32_t outv = v;
        if (unused == 2) {
          outv = (lo[l] & ~field) | v;
        } else if (unused == 1 && bits < 32) {
          // A byte in bits 31:24 sign-extends into nothing (a shift by 32 is undefined).
          const uint32_t top = shift + bits < 32 ? ~0u << (shift + bits) : 0u;
          const bool negative = (v >> (shift + bits - 1)) & 1;
          outv = v | (negative ? top : 0);
        }
        lo[l] = outv;
      }
    } else if (is16(op.dst) && op.dst != Ty::Pk16 && op.dst != Ty::PkF16) {
      // gfx9: 16-bit results zero the high half, except the mad/fma family, which keeps the
      // other half and can target the high half with op_sel[3].
      const bool keep = op.flags & kPreserveHi16;
      const bool toHi = keep && form == kE64 && ((opsel >> 3) & 1);
      for (int l = 0; l < kWaveSize; ++l) {
        if (!((wm >> l) & 1)) continue;
        const uint32_t v = static_cast<uint32_t>(L.d[l]) & 0xffff;
        if (!keep) {
          lo[l] = v;
        } else if (toHi) {
          lo[l] = (lo[l] & 0xffff) | (v << 16);
        } else {
          lo[l] = (lo[l] & 0xffff0000u) | v;
        }
      }
    } else {
      alignas(64) uint32_t low[kWaveSize];
      for (int l = 0; l < kWaveSize; ++l) low[l] = static_cast<uint32_t>(L.d[l]);
      maskedStore(lo, low, wm);
    }
  }
  w.pc += in.sizeBytes;
}

}  // namespace

void execValu(ExecArgs& x) {
  execValuGeneral(x);
}

namespace {

template <int Sources, bool Wide, ValuResult Result>
void execValuShaped(ExecArgs& x) {
  if (!execValuInPlace<Sources, Wide, Result>(x)) execValuGeneral(x);
}

template <int Sources, bool Wide>
ExecFn shapedFor(ValuResult result) {
  switch (result) {
    case kCarryResult:
      return &execValuShaped<Sources, Wide, kCarryResult>;
    case kCompareResult:
      return &execValuShaped<Sources, Wide, kCompareResult>;
    default:
      return &execValuShaped<Sources, Wide, kVectorResult>;
  }
}

}  // namespace

// What execValuInPlace needs of an instruction's form and VGPRs, worked out once: its
// operands as valuExecutor's shape reads them (sources, pairs for 64-bit types in a wide shape).
uint16_t valuVgprLimit(const Instruction& in) {
  const OpInfo& op = *in.op;
  const unsigned form = in.f[fld::kForm];
  if (!op.valuForms || op.exec != valuExecutor(op) || op.src0 == Ty::None ||
      (form != kE32 && !(form == kE64 && in.f[fld::kMods] == 0 && in.f[fld::kOpsel] == 0)))
    return 0xffff;
  const Ty src2 = (op.flags & kAccumulate) ? op.dst : op.src2;
  const int sources =
      (op.src1 == Ty::None) ? 1 : ((src2 == Ty::None || (op.flags & kCarryIn)) ? 2 : 3);
  int limit = 0;
  auto vgprs = [&](int code, Ty t) {
    if (code >= opnd::kVgpr0) limit = std::max(limit, code - opnd::kVgpr0 + (is64(t) ? 2 : 1));
  };
  if (op.enc != Enc::Vopc) vgprs(in.f[fld::kDst], op.dst);
  const Ty types[3] = {op.src0, op.src1, src2};
  for (int k = 0; k < sources; ++k) vgprs(in.f[fld::kSrc0 + k], types[k]);
  return static_cast<uint16_t>(limit);
}

ExecFn valuExecutor(const OpInfo& op) {
  if (!op.exec || !op.valuForms || op.src0 == Ty::None) return op.exec;
  const Ty src2 = (op.flags & kAccumulate) ? op.dst : op.src2;
  const int sources =
      (op.src1 == Ty::None) ? 1 : ((src2 == Ty::None || (op.flags & kCarryIn)) ? 2 : 3);
  const bool wide =
      (op.enc != Enc::Vopc && is64(op.dst)) || is64(op.src0) || is64(op.src1) || is64(src2);
  const ValuResult result = op.enc == Enc::Vopc
                                ? kCompareResult
                                : ((op.flags & kCarryOut) ? kCarryResult : kVectorResult);
  switch (sources * 2 + (wide ? 1 : 0)) {
    case 2:
      return shapedFor<1, false>(result);
    case 3:
      return shapedFor<1, true>(result);
    case 4:
      return shapedFor<2, false>(result);
    case 5:
      return shapedFor<2, true>(result);
    case 6:
      return shapedFor<3, false>(result);
    default:
      return shapedFor<3, true>(result);
  }
}

}  // namespace vgpu::isa
