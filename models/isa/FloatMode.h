// The MODE register's float controls as the VALU applies them: FP_ROUND (MODE[3:0]) and FP_DENORM
// (MODE[7:4]), each with a single-precision half and a double/half-precision half.
//
// Field layout and values: LLVM AMDGPUUsage, COMPUTE_PGM_RSRC1 FLOAT_MODE (copied to MODE[7:0] at
// wave launch) with FLOAT_ROUND_MODE_{NEAR_EVEN 0, PLUS_INFINITY 1, MINUS_INFINITY 2, ZERO 3} and
// FLOAT_DENORM_MODE_{FLUSH_SRC_DST 0, FLUSH_DST 1, FLUSH_SRC 2, FLUSH_NONE 3}; bits [1:0] of each
// field are single precision, [3:2] double and half precision (Vega ISA guide, MODE register).
// So a denorm field's bit 0 keeps denormal sources and bit 1 keeps denormal results.
//
// clang-15 emits FLOAT_MODE = 0xf0 (round to nearest even, no flushing) for HIP and OpenCL by
// default; -fgpu-flush-denormals-to-zero / -cl-denorms-are-zero make the f32 denorm field 0.
// The VALU checks for that default once per instruction and otherwise does nothing extra.
#pragma once

#include <cfenv>
#include <cstdint>

#include "isa/OpInfo.h"
#include "isa/Operands.h"

namespace vgpu::isa::fpmode {

constexpr uint32_t kFieldsMask = 0xff;
constexpr uint32_t kDefault = 0xf0;  // RNE for both, FLUSH_NONE for both

inline unsigned roundSingle(uint32_t mode) {
  return mode & 3;
}
inline unsigned roundDoubleHalf(uint32_t mode) {
  return (mode >> 2) & 3;
}
inline bool keepsDenormSourcesSingle(uint32_t mode) {
  return (mode >> 4) & 1;
}
inline bool keepsDenormResultsSingle(uint32_t mode) {
  return (mode >> 5) & 1;
}
inline bool keepsDenormSourcesDoubleHalf(uint32_t mode) {
  return (mode >> 6) & 1;
}
inline bool keepsDenormResultsDoubleHalf(uint32_t mode) {
  return (mode >> 7) & 1;
}

// Sign-preserving flush of a denormal to zero (AMDGPUUsage: "Denormal flushing is sign
// respecting"), on the operand bits.
inline uint64_t flushF32(uint64_t bits) {
  return (bits & 0x7f800000u) == 0 ? (bits & 0x80000000u) : bits;
}
inline uint64_t flushF64(uint64_t bits) {
  return (bits & 0x7ff0000000000000ull) == 0 ? (bits & 0x8000000000000000ull) : bits;
}
inline uint64_t flushF16(uint64_t bits) {
  return (bits & 0x7c00u) == 0 ? (bits & 0x8000u) : bits;
}
inline uint64_t flushPkF16(uint64_t bits) {
  return flushF16(bits & 0xffff) | (flushF16((bits >> 16) & 0xffff) << 16);
}

// Flushes the 64 lane values of float type `t` in place (no-op for non-float types).
inline void flushLanes(uint64_t* v, Ty t) {
  switch (t) {
    case Ty::F32:
      for (int l = 0; l < kWaveSize; ++l) v[l] = flushF32(v[l]);
      break;
    case Ty::F64:
      for (int l = 0; l < kWaveSize; ++l) v[l] = flushF64(v[l]);
      break;
    case Ty::F16:
      for (int l = 0; l < kWaveSize; ++l) v[l] = flushF16(v[l]);
      break;
    case Ty::PkF16:
      for (int l = 0; l < kWaveSize; ++l) v[l] = flushPkF16(v[l]);
      break;
    default:
      break;
  }
}

// Whether the operand precision of `t` (F32: single; F64, F16, PkF16: double/half) flushes
// denormal sources / results under `mode`. `always`: the opcode flushes whatever the mode says.
inline bool flushesSources(uint32_t mode, Ty t, bool always) {
  if (!isFloat(t)) return false;
  if (always) return true;
  return t == Ty::F32 ? !keepsDenormSourcesSingle(mode) : !keepsDenormSourcesDoubleHalf(mode);
}
inline bool flushesResults(uint32_t mode, Ty t, bool always) {
  if (!isFloat(t)) return false;
  if (always) return true;
  return t == Ty::F32 ? !keepsDenormResultsSingle(mode) : !keepsDenormResultsDoubleHalf(mode);
}
// Round mode for a result of type `t`; 0 (nearest even) for non-float results, whose
// conversions define their own rounding (truncation for float -> int).
inline unsigned roundFor(uint32_t mode, Ty t) {
  if (!isFloat(t)) return 0;
  return t == Ty::F32 ? roundSingle(mode) : roundDoubleHalf(mode);
}

// Sets the host's rounding (and the f32 -> f16 conversion's, f16RoundMode) to a MODE round mode
// for the lifetime of the object and restores both after: the lane functions compute with
// host float/double arithmetic, which then rounds as the instruction must. Round to nearest
// even (0) touches nothing, so the common path never calls into <cfenv>.
class HostRounding {
 public:
  explicit HostRounding(unsigned roundMode) : mode_(roundMode & 3) {
    if (mode_ == 0) return;
    static const int kHost[4] = {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO};
    saved_ = std::fegetround();
    std::fesetround(kHost[mode_]);
    f16RoundMode = static_cast<uint8_t>(mode_);
  }
  ~HostRounding() {
    if (mode_ == 0) return;
    std::fesetround(saved_);
    f16RoundMode = 0;
  }
  HostRounding(const HostRounding&) = delete;
  HostRounding& operator=(const HostRounding&) = delete;

 private:
  unsigned mode_;
  int saved_ = FE_TONEAREST;
};

}  // namespace vgpu::isa::fpmode
