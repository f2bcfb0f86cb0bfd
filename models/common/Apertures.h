// Flat-address apertures of the simulated GPU (gfx9 src_shared_base / src_private_base). A flat
// address inside the shared aperture reaches the workgroup's LDS, inside the private aperture
// the work-item's scratch. Each is a 4 GiB window.
//
// Where: the values Linux's amdkfd gives gfx9 (kfd_flat_memory.c: the LDS aperture at 1 << 48,
// scratch at 2 << 48), above every 48-bit address of device and host memory. The hardware
// register SH_MEM_BASES holds bits 63:48 of each (s_getreg hwreg(HW_REG_SH_MEM_BASES), which
// LLVM reads to turn a private or LDS pointer into a flat one), so an aperture must have them
// nonzero: below 2^48 such a pointer would come out as its bare offset.
#pragma once

#include <cstdint>

namespace vgpu {

constexpr uint64_t kSharedApertureBase = 1ull << 48;
constexpr uint64_t kPrivateApertureBase = 2ull << 48;
static_assert((kSharedApertureBase & 0xffffffffffffull) == 0 &&
                  (kPrivateApertureBase & 0xffffffffffffull) == 0,
              "SH_MEM_BASES keeps only bits 63:48 of the apertures");

}  // namespace vgpu
