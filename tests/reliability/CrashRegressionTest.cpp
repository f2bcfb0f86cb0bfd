// Replays every input under tests/reliability/crashes/TARGET/ through the fuzz target TARGET
// (fuzz/FuzzTargets.h), compiled here by the normal build's compiler against the normal
// libraries. The inputs are those scripts/fuzz found crashing (it copies each one here), plus
// hand-made malformed inputs for each parser. An input that crashes, or throws anything but
// the InputError that bad input must produce, fails the test.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "fuzz/FuzzTargets.h"

namespace vgpu::fuzz {
namespace {

namespace fs = std::filesystem;

}  // namespace

void PrintTo(const Target& t, std::ostream* os) {
  *os << t.name;
}

namespace {

class CrashRegression : public ::testing::TestWithParam<Target> {};

TEST_P(CrashRegression, EveryInputIsHandled) {
  const Target& t = GetParam();
  const fs::path dir = fs::path(VGPU_CRASH_INPUTS) / t.name;
  std::vector<fs::path> inputs;
  if (fs::exists(dir))
    for (const auto& e : fs::directory_iterator(dir))
      if (e.is_regular_file()) inputs.push_back(e.path());
  std::sort(inputs.begin(), inputs.end());
  ASSERT_FALSE(inputs.empty()) << "no inputs in " << dir;
  for (const fs::path& p : inputs) {
    SCOPED_TRACE(p.string());
    std::ifstream in(p, std::ios::binary);
    const std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(in), {}};
    EXPECT_NO_THROW(t.run(bytes.data(), bytes.size()));
  }
}

INSTANTIATE_TEST_SUITE_P(Targets, CrashRegression, ::testing::ValuesIn(targets()),
                         [](const ::testing::TestParamInfo<Target>& info) {
                           return std::string(info.param.name);
                         });

}  // namespace
}  // namespace vgpu::fuzz
