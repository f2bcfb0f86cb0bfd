// What a VALU table entry's lane function sees (Vop.cpp runs it). Sources arrive with input
// modifiers applied (abs/neg, SDWA select, DPP permutation, op_sel half); the executor applies
// output modifiers (omod, clamp), SDWA/op_sel destination placement and EXEC masking.
#pragma once

#include <cmath>

#include "isa/Operands.h"

namespace vgpu::isa {

struct ValuLanes {
  alignas(64) uint64_t a[kWaveSize];
  alignas(64) uint64_t b[kWaveSize];
  alignas(64) uint64_t c[kWaveSize];
  alignas(64) uint64_t d[kWaveSize];
  uint8_t cin[kWaveSize];  // carry / condition in (vcc or src2 mask)
  uint8_t cc[kWaveSize];   // carry / compare result out
  uint64_t exec = 0;       // lanes enabled (EXEC, DPP masks)
  uint64_t writeMask = 0;  // lanes whose destination is written (default: exec)
  uint64_t scalarOut = 0;  // kScalarDst ops: the SGPR result
  bool clamp = false;      // integer ops saturate when set
  uint32_t opsel = 0;      // raw op_sel field (VOP3P mix ops read it)
  WaveState* w = nullptr;
  const Instruction* in = nullptr;
  const ExecContext* ctx = nullptr;
  const char* fault = nullptr;
};

// Lane function body over all 64 lanes (the loop the compiler vectorises). In the body:
// a, b, c: source bits; d: result bits; cc: carry/compare out; cin: carry in; i: lane.
// The macro writes the body twice: over the 64-bit lane arrays of ValuLanes (every form and
// width) and over 32-bit operands read in place (the fast path of plain 32-bit ops). Both see
// the sources zero-extended to 64 bits, so the body means the same in either.
#define VALU_LANES(...)                                                                   \
  ::vgpu::isa::ValuKernel {                                                               \
    [](ValuLanes& L) {                                                                    \
      for (int i = 0; i < kWaveSize; ++i) {                                               \
        [[maybe_unused]] const uint64_t a = L.a[i];                                       \
        [[maybe_unused]] const uint64_t b = L.b[i];                                       \
        [[maybe_unused]] const uint64_t c = L.c[i];                                       \
        [[maybe_unused]] const bool cin = L.cin[i] != 0;                                  \
        uint64_t d = 0;                                                                   \
        bool cc = false;                                                                  \
        __VA_ARGS__;                                                                      \
        L.d[i] = d;                                                                       \
        L.cc[i] = cc;                                                                     \
      }                                                                                   \
    },                                                                                    \
        [](ValuLanes& L, const uint32_t* __restrict A_, const uint32_t* __restrict B_,    \
           const uint32_t* __restrict C_, uint32_t* __restrict D_) {                      \
          /* Distinct arrays (D_ is the caller's buffer): lets the compiler vectorise. */ \
          uint8_t* __restrict CC_ = L.cc;                                                 \
          const uint8_t* __restrict CIN_ = L.cin;                                         \
          for (int i = 0; i < kWaveSize; ++i) {                                           \
            [[maybe_unused]] const uint64_t a = A_[i];                                    \
            [[maybe_unused]] const uint64_t b = B_[i];                                    \
            [[maybe_unused]] const uint64_t c = C_[i];                                    \
            [[maybe_unused]] const bool cin = CIN_[i] != 0;                               \
            uint64_t d = 0;                                                               \
            bool cc = false;                                                              \
            __VA_ARGS__;                                                                  \
            D_[i] = static_cast<uint32_t>(d);                                             \
            CC_[i] = cc;                                                                  \
          }                                                                               \
        }                                                                                 \
  }

// Helpers for lane bodies.
inline float f(uint64_t v) {
  return asF32(v);
}
inline uint64_t F(float x) {
  return bitsF32(x);
}
inline double dbl(uint64_t v) {
  return asF64(v);
}
inline uint64_t D(double x) {
  return bitsF64(x);
}
inline float h(uint64_t v) {
  return asF16(v);
}
inline uint64_t H(float x) {
  return bitsF16(x);
}
inline uint32_t u32(uint64_t v) {
  return static_cast<uint32_t>(v);
}
inline int32_t i32(uint64_t v) {
  return static_cast<int32_t>(v);
}
inline uint16_t u16(uint64_t v) {
  return static_cast<uint16_t>(v);
}
inline int16_t i16(uint64_t v) {
  return static_cast<int16_t>(v);
}
inline int64_t i64(uint64_t v) {
  return static_cast<int64_t>(v);
}
inline uint64_t U(int64_t v) {
  return static_cast<uint64_t>(v);
}

}  // namespace vgpu::isa
