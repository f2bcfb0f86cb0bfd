// Every DPP lane-selection control of a VOP1 move, through hipcc's __builtin_amdgcn_update_dpp
// (v_mov_b32_dpp), against a CPU model of the Vega ISA guide's data-parallel-primitives table:
// quad_perm, row_shl/shr/ror 1..15, wave_shl/rol/shr/ror by 1, row_mirror, row_half_mirror,
// row_bcast:15 and row_bcast:31. Each control runs four ways: bound_ctrl off (a lane whose source
// is out of its row or the wave keeps the old value), bound_ctrl on (it gets 0), row_mask 0xa
// (rows 0 and 2 keep the old value) and bank_mask 0x5 (banks 1 and 3 of every row, lanes 4-7
// and 12-15, keep it). Exits non-zero on any lane that differs.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <vector>

#include "../hip_apps/HipCheck.h"  // CHECK: a failed HIP call ends the program

// The controls' encodings (LLVM's AMDGPU DPP enum, the ISA guide's DPP_CTRL field).
constexpr int kControls = 21, kWays = 4;
constexpr int kControl[kControls] = {0x1b,  0xe4,  0x39,  0x00,  0x101, 0x105, 0x10f,
                                     0x111, 0x113, 0x11f, 0x121, 0x127, 0x12f, 0x130,
                                     0x134, 0x138, 0x13c, 0x140, 0x141, 0x142, 0x143};

// The four ways of one control (the builtin takes its control and masks as constants).
template <int kCtrl>
__device__ void dppWays(int old, int v, int* o) {
  o[0] = __builtin_amdgcn_update_dpp(old, v, kCtrl, 0xf, 0xf, false);
  o[1] = __builtin_amdgcn_update_dpp(old, v, kCtrl, 0xf, 0xf, true);
  o[2] = __builtin_amdgcn_update_dpp(old, v, kCtrl, 0xa, 0xf, false);
  o[3] = __builtin_amdgcn_update_dpp(old, v, kCtrl, 0xf, 0x5, true);
}

// Control kIndex and the ones after it (C++11, as hipcc compiles by default: no fold).
template <int kIndex>
struct EveryControl {
  __device__ static void run(int old, int v, int* o) {
    dppWays<kControl[kIndex]>(old, v, o + kIndex * kWays);
    EveryControl<kIndex + 1>::run(old, v, o);
  }
};
template <>
struct EveryControl<kControls> {
  __device__ static void run(int, int, int*) {}
};

__global__ void dppMoves(const int* in, int* out) {
  const int lane = threadIdx.x;
  EveryControl<0>::run(-1000 - lane, in[blockIdx.x * 64 + lane],
                       out + (blockIdx.x * 64 + lane) * kControls * kWays);
}

// The lane lane `i` reads under `control`, or -1 when that lane is outside the row (or wave).
int sourceLane(int control, int i) {
  const int row = i & ~15, inRow = i & 15;
  if (control <= 0xff) return (i & ~3) + ((control >> (2 * (i & 3))) & 3);  // quad_perm
  if (control >= 0x101 && control <= 0x10f) {                               // row_shl
    const int n = control - 0x100;
    return inRow + n < 16 ? i + n : -1;
  }
  if (control >= 0x111 && control <= 0x11f) {  // row_shr
    const int n = control - 0x110;
    return inRow - n >= 0 ? i - n : -1;
  }
  if (control >= 0x121 && control <= 0x12f) return row + ((inRow - (control - 0x120)) & 15);
  switch (control) {
    case 0x130:
      return i + 1 < 64 ? i + 1 : -1;  // wave_shl:1
    case 0x134:
      return (i + 1) & 63;  // wave_rol:1
    case 0x138:
      return i >= 1 ? i - 1 : -1;  // wave_shr:1
    case 0x13c:
      return (i - 1) & 63;  // wave_ror:1
    case 0x140:
      return row + 15 - inRow;  // row_mirror
    case 0x141:
      return (i & ~7) + 7 - (i & 7);  // row_half_mirror
    case 0x142:
      return row == 0 ? -1 : row - 1;  // row_bcast:15, lane 15 of the row before
    case 0x143:
      return row < 32 ? -1 : 31;  // row_bcast:31, lane 31 to rows 2 and 3
    default:
      return -1;
  }
}

int main() {
  const int waves = 4, n = waves * 64, perLane = kControls * kWays;
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[i] = i * 7 + 3;
  int *dIn = nullptr, *dOut = nullptr;
  CHECK(hipMalloc(&dIn, n * sizeof(int)));
  CHECK(hipMalloc(&dOut, n * perLane * sizeof(int)));
  CHECK(hipMemcpy(dIn, in.data(), n * sizeof(int), hipMemcpyHostToDevice));
  dppMoves<<<waves, 64>>>(dIn, dOut);
  CHECK(hipGetLastError());
  std::vector<int> out(n * perLane);
  CHECK(hipMemcpy(out.data(), dOut, out.size() * sizeof(int), hipMemcpyDeviceToHost));
  int bad = 0;
  for (int w = 0; w < waves; ++w)
    for (int i = 0; i < 64; ++i)
      for (int c = 0; c < kControls; ++c) {
        const int old = -1000 - i, from = sourceLane(kControl[c], i);
        const int value = from >= 0 ? in[w * 64 + from] : 0;
        const int keepOld = from >= 0 ? value : old, zero = from >= 0 ? value : 0;
        const int want[kWays] = {keepOld, zero, ((0xa >> (i / 16)) & 1) ? keepOld : old,
                                 ((0x5 >> ((i & 15) / 4)) & 1) ? zero : old};
        for (int k = 0; k < kWays; ++k) {
          const int got = out[(w * 64 + i) * perLane + c * kWays + k];
          if (got != want[k] && bad++ < 10)
            std::printf("control 0x%x, way %d, lane %d: %d, want %d\n", kControl[c], k, i, got,
                        want[k]);
        }
      }
  std::printf("%s: %d DPP controls x %d ways x %d lanes\n", bad ? "FAILED" : "passed", kControls,
              kWays, n);
  return bad ? 1 : 0;
}
