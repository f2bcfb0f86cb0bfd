// Test binaries link SystemC, which wants an sc_main; the tests start simulations themselves
// (one per process: ctest runs each test in its own process via gtest_discover_tests).
#include <cstdlib>

#include <gtest/gtest.h>
#include <systemc>

int sc_main(int, char*[]) {
  return 0;
}

int main(int argc, char** argv) {
  ::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
