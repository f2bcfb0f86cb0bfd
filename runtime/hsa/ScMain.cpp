// Debian's libsystemc-2.3.4.so is linked with BIND_NOW and refers to sc_main (its own main()
// calls it), so a shared library that brings SystemC into a program without one must define it.
// The simulated GPU runs SystemC on a thread of its own and never goes through SystemC's main().
// It is exported (exports.map, version node VGPU_SYSTEMC, apart from ROCr's ROCR_1): ld.so binds
// libsystemc's reference to it when HIP loads this library.
#include <cstdio>

extern "C" int sc_main(int, char*[]) {
  std::fprintf(stderr, "vgpu: libhsa-runtime64 has no SystemC main program\n");
  return 1;
}
