// Runs vgpu-sim (or any shell command) as a user does, for the tests that drive the command
// line: a directory of the test's own, the exit code, stdout and stderr of each run, and small
// file helpers. Shared by the acceptance, trace, report, reliability and RTL end-to-end tests.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace vgpu::test {

struct SimResult {
  int exitCode = -1;
  std::string out, err;
};

// A directory of its own for one test (named after the process and, by default, the running
// test, so parallel ctest processes never share one), removed afterwards. A parameterized
// test's name holds a '/' ("Case/param"); it becomes '_' so the directory removed is the one
// made, not a subdirectory of it (that left an empty directory in /tmp per test run).
class ScratchDir {
 public:
  explicit ScratchDir(
      std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name()) {
    for (char& c : name)
      if (c == '/') c = '_';
    path_ = std::filesystem::temp_directory_path() /
            ("vgpu-test-" + std::to_string(::getpid()) + "-" + name);
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() { std::filesystem::remove_all(path_); }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

template <typename T>
void writeBytes(const std::string& path, const std::vector<T>& values) {
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(values.data()),
             static_cast<std::streamsize>(values.size() * sizeof(T)));
}

inline std::string shellQuote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs `command` through the shell with stdout and stderr captured in DIR/TAG.stdout and
// DIR/TAG.stderr; a command killed by a signal reports 128 + the signal, as shells do.
inline SimResult runShell(const std::string& command, const ScratchDir& dir,
                          const std::string& tag = "run") {
  const std::string out = dir.file(tag + ".stdout"), err = dir.file(tag + ".stderr");
  const int status =
      std::system((command + " >" + shellQuote(out) + " 2>" + shellQuote(err)).c_str());
  SimResult r;
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

#ifdef VGPU_SIM_PATH
// `args` is appended to the vgpu-sim command line as written (quote paths with shellQuote).
inline SimResult runVgpuSim(const std::string& args, const ScratchDir& dir,
                            const std::string& tag = "run") {
  return runShell(shellQuote(VGPU_SIM_PATH) + " " + args, dir, tag);
}
#endif

// With VGPU_RELIABILITY_LOG_DIR set (scripts/reliability-report sets it), appends `text` to
// DIR/TEST.txt, TEST being the running test's full name: the report quotes what the tests saw.
inline void recordForReport(const std::string& text) {
  const char* dir = std::getenv("VGPU_RELIABILITY_LOG_DIR");
  if (dir == nullptr || *dir == 0) return;
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = std::string(info->test_suite_name()) + "." + info->name();
  for (char& c : name)
    if (c == '/') c = '.';
  std::ofstream(std::string(dir) + "/" + name + ".txt", std::ios::app) << text;
}

}  // namespace vgpu::test
