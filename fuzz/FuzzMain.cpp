// libFuzzer entry point of one fuzz target: VGPU_FUZZ_ENTRY names the function of
// FuzzTargets.h it calls (set per executable in fuzz/CMakeLists.txt).
#include "fuzz/FuzzTargets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  vgpu::fuzz::VGPU_FUZZ_ENTRY(data, size);
  return 0;
}
