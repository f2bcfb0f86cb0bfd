// An OpenMP offload program (clang-15 -fopenmp, LLVM 15's libomptarget and its AMDGPU plugin,
// Debian's libomp-15-dev) on the simulated GPU through vgpu's libhsa-runtime64: target regions
// with maps, teams and parallel loops, a reduction, a device allocation with omp_target_alloc and
// omp_target_memcpy, each result checked against the same computation on the CPU. With the
// argument "fault", a target region stores through a pointer into no memory.
//
// It ends with _Exit after flushing: LLVM 15's plugin, built to load the HSA library with
// dlopen (as Debian's is), crashes in its own teardown at exit, after main (the program's
// offload descriptor is unregistered after the plugin's state was destroyed), whatever the HSA
// runtime underneath.
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { N = 20000 };
static float a[N], b[N], c[N];

static int fail(const char* what, long i) {
  printf("FAILED: %s at %ld\n", what, i);
  fflush(stdout);
  _Exit(1);
}

int main(int argc, char** argv) {
  if (omp_get_num_devices() != 1) fail("one device", omp_get_num_devices());
  if (argc > 1 && strcmp(argv[1], "fault") == 0) {
    int* nowhere = (int*)0x7f0000001000ull;
#pragma omp target is_device_ptr(nowhere)
    nowhere[0] = 1;
    // The model's command processor signals a faulted kernel's completion (hardware does not),
    // so the region may return before the runtime's thread reports the fault (within 50 ms);
    // the plugin's queue callback then aborts the program.
    sleep(10);
    fail("no abort after the fault", 0);
  }

  for (int i = 0; i < N; ++i) a[i] = (float)(i % 97), b[i] = (float)(2 * (i % 89));
#pragma omp target teams distribute parallel for map(to : a, b) map(from : c)
  for (int i = 0; i < N; ++i) c[i] = a[i] * 0.5f + b[i];
  for (int i = 0; i < N; ++i)
    if (c[i] != a[i] * 0.5f + b[i]) fail("c = a / 2 + b", i);

  long sum = 0, expected = 0;
#pragma omp target teams distribute parallel for reduction(+ : sum) map(to : b)
  for (int i = 0; i < N; ++i) sum += (long)b[i];
  for (int i = 0; i < N; ++i) expected += (long)b[i];
  if (sum != expected) fail("the sum of b", sum);

  int onHost = 1, teams = 0;
#pragma omp target teams num_teams(8) map(from : onHost, teams)
  {
    if (omp_get_team_num() == 0) {
      onHost = omp_is_initial_device();
      teams = omp_get_num_teams();
    }
  }
  if (onHost) fail("the region ran on the host", 0);
  if (teams < 1 || teams > 8) fail("num_teams(8)", teams);

  const int device = omp_get_default_device(), host = omp_get_initial_device();
  int* d = (int*)omp_target_alloc(N * sizeof(int), device);
  if (d == NULL) fail("omp_target_alloc", 0);
#pragma omp target teams distribute parallel for is_device_ptr(d)
  for (int i = 0; i < N; ++i) d[i] = 3 * i + 1;
  static int back[N];
  if (omp_target_memcpy(back, d, N * sizeof(int), 0, 0, host, device) != 0)
    fail("omp_target_memcpy", 0);
  for (int i = 0; i < N; ++i)
    if (back[i] != 3 * i + 1) fail("d = 3 i + 1", i);
  omp_target_free(d, device);

  printf("OpenMP offload: all results match the CPU (sum %ld, %d teams)\n", sum, teams);
  fflush(stdout);
  _Exit(0);
}
