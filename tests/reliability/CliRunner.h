// Runs vgpu-sim as a user does (a shell command with its own temporary directory), for the
// reliability tests: exit code, stdout and stderr of each run.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>
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

// A directory of its own for one test, removed afterwards.
class ScratchDir {
 public:
  ScratchDir() {
    path_ = std::filesystem::temp_directory_path() /
            ("vgpu-reliability-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() { std::filesystem::remove_all(path_); }
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

inline void writeBytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
}

inline std::string shellQuote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// `args` is appended to the vgpu-sim command line as written (quote paths with shellQuote).
inline SimResult runVgpuSim(const std::string& args, const ScratchDir& dir,
                            const std::string& tag = "run") {
  const std::string out = dir.file(tag + ".stdout"), err = dir.file(tag + ".stderr");
  const std::string cmd =
      shellQuote(VGPU_SIM_PATH) + " " + args + " >" + shellQuote(out) + " 2>" + shellQuote(err);
  const int status = std::system(cmd.c_str());
  SimResult r;
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

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
