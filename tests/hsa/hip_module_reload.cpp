// Two code objects with the same kernel, loaded, run and unloaded in turn (hipModuleLoadData,
// hipModuleUnload): each load takes the place the last one freed, so the GPU decoded and fetched
// the other module's instructions at the same addresses. Every run must execute the module just
// loaded: the loader's writes reach the instruction decode cache's watched pages and drop what it
// decoded, while the instruction cache, whose hits read those pages through DMI that allows reads
// only, keeps only their timing. Checks the output against the module's own formula and that the
// addresses were really reused.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <vector>

#include "../hip_apps/HipCheck.h"  // CHECK: a failed HIP call ends the program

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: hip_module_reload MODULE1.co MODULE2.co\n");
    return 2;
  }
  std::vector<char> images[2];
  for (int m = 0; m < 2; ++m) {
    std::ifstream file(argv[1 + m], std::ios::binary);
    images[m].assign(std::istreambuf_iterator<char>(file), {});
    if (images[m].empty()) {
      std::fprintf(stderr, "cannot read %s\n", argv[1 + m]);
      return 2;
    }
  }
  constexpr int kLanes = 64;
  int* out = nullptr;
  CHECK(hipMalloc(&out, kLanes * sizeof(int)));
  int failures = 0;
  hipDeviceptr_t firstPlace = nullptr;
  for (int round = 0; round < 4; ++round) {
    const int module = 1 + round % 2;
    hipModule_t loaded;
    CHECK(hipModuleLoadData(&loaded, images[module - 1].data()));
    hipFunction_t fill;
    CHECK(hipModuleGetFunction(&fill, loaded, "fill"));
    hipDeviceptr_t place;
    size_t bytes;
    CHECK(hipModuleGetGlobal(&place, &bytes, loaded, "loaded"));
    if (round == 0) firstPlace = place;
    void* args[] = {&out};
    CHECK(hipModuleLaunchKernel(fill, 1, 1, 1, kLanes, 1, 1, 0, nullptr, args, nullptr));
    CHECK(hipDeviceSynchronize());
    int host[kLanes];
    CHECK(hipMemcpy(host, out, sizeof host, hipMemcpyDeviceToHost));
    int marker = 0;
    CHECK(hipMemcpy(&marker, place, sizeof marker, hipMemcpyDeviceToHost));
    int wrong = 0;
    for (int i = 0; i < kLanes; ++i) wrong += host[i] != module * 1000 + i ? 1 : 0;
    const bool samePlace = place == firstPlace;
    std::printf("round %d: module %d, globals %s, marker %d, %d of %d lanes wrong\n", round, module,
                samePlace ? "where round 0 put them" : "elsewhere", marker, wrong, kLanes);
    if (wrong != 0 || marker != module || !samePlace) ++failures;
    CHECK(hipModuleUnload(loaded));
  }
  CHECK(hipFree(out));
  std::printf("%s\n", failures == 0 ? "PASS" : "FAIL");
  return failures == 0 ? 0 : 1;
}
