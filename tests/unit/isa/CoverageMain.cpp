// vgpu_isa_coverage: runs every ISA test in one process, then writes the coverage report
// (isa-coverage.md in the build tree) from the union of executed opcodes and of the opcodes
// whose results a value-checking test compared (ValueCheck.h), and fails unless every
// non-graphics gfx906 opcode was executed by at least one test.
#include <gtest/gtest.h>

#include <fstream>
#include <iostream>

#include "ValueCheck.h"
#include "WaveRunner.h"
#include "isa/Coverage.h"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  const int testsFailed = RUN_ALL_TESTS();
  std::vector<std::string> missing;
  const std::string report = vgpu::isa::coverageReport(vgpu::isa::test::WaveRunner::executedOps(),
                                                       vgpu::isa::test::valueChecked(), &missing);
  std::ofstream(VGPU_ISA_COVERAGE_OUT) << report;
  std::cout << report.substr(report.rfind("\nTotals")) << "report: " << VGPU_ISA_COVERAGE_OUT
            << "\n";
  for (const std::string& m : missing) std::cout << "not executed: " << m << "\n";
  return (testsFailed != 0 || !missing.empty()) ? 1 : 0;
}
