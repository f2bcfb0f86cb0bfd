// Flat-address apertures of the simulated GPU (gfx9 src_shared_base / src_private_base). A flat
// address inside the shared aperture reaches the workgroup's LDS, inside the private aperture
// the work-item's scratch. Both lie far above device memory, which starts at 4 GiB.
#pragma once

#include <cstdint>

namespace vgpu {

constexpr uint64_t kSharedApertureBase = 0x1000ull << 32;
constexpr uint64_t kPrivateApertureBase = 0x2000ull << 32;

}  // namespace vgpu
