#include "Assemble.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace vgpu::isa {

std::vector<uint8_t> assemble(const std::string& source) {
  // One file per process and test: the tests run in parallel (one process each).
  std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  for (char& c : name)
    if (c == '/') c = '_';
  const std::string file = "/tmp/vgpu-asm-" + std::to_string(::getpid()) + "-" + name + ".s";
  std::ofstream(file) << source << "\n";
  const std::string cmd =
      std::string(VGPU_LLVM_MC) + " -arch=amdgcn -mcpu=gfx906 -show-encoding " + file + " 2>&1";
  FILE* pipe = ::popen(cmd.c_str(), "r");
  std::string out;
  if (pipe) {
    char buf[512];
    while (std::fgets(buf, sizeof buf, pipe)) out += buf;
    const int status = ::pclose(pipe);
    EXPECT_EQ(status, 0) << "llvm-mc-15 failed on:\n" << source << "\n" << out;
  } else {
    ADD_FAILURE() << "cannot run " << cmd;
  }
  std::remove(file.c_str());
  std::vector<uint8_t> bytes;
  for (size_t p = out.find("encoding: ["); p != std::string::npos;
       p = out.find("encoding: [", p + 1)) {
    const size_t end = out.find(']', p);
    for (size_t q = out.find("0x", p); q != std::string::npos && q < end; q = out.find("0x", q + 2))
      bytes.push_back(static_cast<uint8_t>(std::strtoul(out.c_str() + q, nullptr, 16)));
  }
  EXPECT_FALSE(bytes.empty()) << out;
  return bytes;
}

}  // namespace vgpu::isa
