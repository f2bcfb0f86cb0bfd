// Debian's libsystemc-2.3.4.so is linked with BIND_NOW and refers to sc_main (its own main()
// calls it), so a shared library that brings SystemC into a program without one must define it.
// The simulated GPU runs SystemC on a thread of its own and never goes through SystemC's main().
#include <cstdio>

// C linkage, as SystemC declares it (sysc/kernel/sc_externs.h).
extern "C" int sc_main(int, char*[]) {
  std::fprintf(stderr, "vgpu: libhsa-runtime64 has no SystemC main program\n");
  return 1;
}
