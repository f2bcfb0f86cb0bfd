// hipGetDeviceProperties on the simulated GPU against the figures of the platform, given on the
// command line (tests/hip_apps/CMakeLists.txt reads them from platforms/*.json):
//   hip_device_properties NAME CUS GCN_ARCH_NAME GLOBAL_BYTES CLOCK_KHZ LDS_BYTES L2_BYTES
// The wave size (64) and the largest workgroup (1024 work-items) are the same on every GCN GPU
// (AMD "Vega" ISA guide, ch. 1 and 3; HIP programming guide, hipDeviceProp_t).
#include <cstring>
#include <string>

#include "HipCheck.h"

int main(int argc, char** argv) {
  if (argc != 8) {
    std::fprintf(stderr,
                 "usage: %s NAME CUS GCN_ARCH_NAME GLOBAL_BYTES CLOCK_KHZ LDS_BYTES L2_BYTES\n",
                 argv[0]);
    return 2;
  }
  int count = 0;
  CHECK(hipGetDeviceCount(&count));
  hipDeviceProp_t p;
  CHECK(hipGetDeviceProperties(&p, 0));
  Failures f;
  auto report = [&](const char* field, const std::string& got, const std::string& expected) {
    std::printf("%-18s %s\n", field, got.c_str());
    if (got != expected) {
      std::fprintf(stderr, "WRONG %s: got '%s', expected '%s'\n", field, got.c_str(),
                   expected.c_str());
      ++f.count;
    }
  };
  report("deviceCount", std::to_string(count), "1");
  report("name", p.name, argv[1]);
  report("multiProcessorCount", std::to_string(p.multiProcessorCount), argv[2]);
  report("gcnArchName", p.gcnArchName, argv[3]);
  report("totalGlobalMem", std::to_string(p.totalGlobalMem), argv[4]);
  report("clockRate", std::to_string(p.clockRate), argv[5]);
  report("warpSize", std::to_string(p.warpSize), "64");
  report("sharedMemPerBlock", std::to_string(p.sharedMemPerBlock), argv[6]);
  report("maxThreadsPerBlock", std::to_string(p.maxThreadsPerBlock), "1024");
  report("l2CacheSize", std::to_string(p.l2CacheSize), argv[7]);
  return f.count == 0 ? 0 : 1;
}
