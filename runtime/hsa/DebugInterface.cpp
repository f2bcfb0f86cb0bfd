// _amdgpu_r_debug: the data object ROCr exports for ROCgdb, an r_debug (glibc <link.h>, 40 bytes)
// whose r_map lists the loaded GPU code objects. vgpu's GPU is not debugged through ROCgdb, so
// the list stays empty (r_version 0: "not yet initialised" in glibc's convention); the symbol
// is exported so that the library's symbol set matches the real one.
#include <link.h>

extern "C" {
__attribute__((visibility("default"))) struct r_debug _amdgpu_r_debug = {};
}

static_assert(sizeof(struct r_debug) == 40, "the exported object is 40 bytes in ROCr");
