// The guard against timing-dependent model bugs (issue 19): every kernel of the suite (the
// acceptance kernels, with the stencils and transposes whose LDS reads overlap under partial
// s_waitcnt waits, and every differential OpenCL C case) runs in functional mode, in timing
// mode, and in timing mode with the latency perturbation at five seeds. A kernel that is
// correct on hardware is correct under any latency the hardware's return-order rules allow, so
// the seven results must be the same: byte for byte, except outputs a case marks as
// order-dependent (atomics' returned values), which are compared as multisets. The acceptance
// kernels' functional results are also checked against their CPU references, so the seven
// agree on the right answer.
//
// SystemC allows one simulation per process: each run happens in a child process of its own
// (fork before any simulation exists in this one) and sends its buffers back through a pipe.
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <systemc>

#include "DiffHarness.h"
#include "KernelCases.h"
#include "platforms/Platform.h"
#include "runtime/Runtime.h"

namespace vgpu::test {
namespace {

using Buffers = std::vector<std::vector<uint8_t>>;

constexpr uint64_t kSeeds[] = {1, 2, 3, 4, 5};

bool writeAll(int fd, const void* data, size_t bytes) {
  const auto* p = static_cast<const uint8_t*>(data);
  while (bytes > 0) {
    const ssize_t n = ::write(fd, p, bytes);
    if (n <= 0) return false;
    p += n;
    bytes -= static_cast<size_t>(n);
  }
  return true;
}

// Runs `run` in a child process; returns its buffers, or sets `error` to what went wrong there
// (an exception's message, a crash, a short answer).
Buffers inChildProcess(const std::function<Buffers()>& run, std::string& error) {
  int fds[2];
  if (::pipe(fds) != 0) {
    error = "pipe failed";
    return {};
  }
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) {
    error = "fork failed";
    return {};
  }
  if (pid == 0) {
    ::close(fds[0]);
    // Answer: a status byte (0 buffers follow, 1 a message), then sizes and bytes.
    std::string message;
    try {
      const Buffers out = run();
      const uint8_t ok = 0;
      const uint64_t count = out.size();
      bool written = writeAll(fds[1], &ok, 1) && writeAll(fds[1], &count, 8);
      for (const auto& b : out) {
        const uint64_t size = b.size();
        written = written && writeAll(fds[1], &size, 8) && writeAll(fds[1], b.data(), b.size());
      }
      ::_exit(written ? 0 : 2);
    } catch (const std::exception& e) {
      message = e.what();
    } catch (...) {
      message = "unknown exception";
    }
    const uint8_t failed = 1;
    const uint64_t size = message.size();
    writeAll(fds[1], &failed, 1);
    writeAll(fds[1], &size, 8);
    writeAll(fds[1], message.data(), message.size());
    ::_exit(1);
  }
  ::close(fds[1]);
  std::vector<uint8_t> answer;
  uint8_t chunk[65536];
  for (ssize_t n; (n = ::read(fds[0], chunk, sizeof chunk)) > 0;)
    answer.insert(answer.end(), chunk, chunk + n);
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  size_t at = 0;
  auto take = [&](void* to, size_t bytes) {
    if (answer.size() - at < bytes) return false;
    std::memcpy(to, answer.data() + at, bytes);
    at += bytes;
    return true;
  };
  uint8_t kind = 0;
  uint64_t count = 0;
  if (!take(&kind, 1) || !take(&count, 8)) {
    error = "the run ended without an answer (" +
            (WIFSIGNALED(status) ? "signal " + std::to_string(WTERMSIG(status))
                                 : "exit " + std::to_string(WEXITSTATUS(status))) +
            ")";
    return {};
  }
  if (kind == 1) {
    error.assign(count, '\0');
    if (!take(error.data(), count)) error = "a truncated error message";
    return {};
  }
  Buffers out(count);
  for (auto& b : out) {
    uint64_t size = 0;
    if (!take(&size, 8) || answer.size() - at < size) {
      error = "a truncated answer";
      return {};
    }
    b.assign(answer.begin() + static_cast<std::ptrdiff_t>(at),
             answer.begin() + static_cast<std::ptrdiff_t>(at + size));
    at += size;
  }
  return out;
}

// The platform in one of the seven ways a kernel runs here.
struct Way {
  std::string name;
  bool functional = false;
  uint64_t seed = 0;
};
std::vector<Way> ways() {
  std::vector<Way> w{{"functional mode", true, 0}, {"timing mode", false, 0}};
  for (uint64_t s : kSeeds)
    w.push_back({"timing mode, --perturb-latency " + std::to_string(s), false, s});
  return w;
}
PlatformConfig configured(const std::string& platform, const Way& way) {
  PlatformConfig p = loadPlatform(platform);
  p.functionalMode = way.functional;
  p.perturbLatencySeed = way.seed;
  return p;
}

// --- the acceptance kernels --------------------------------------------------------------------

struct AcceptanceParam {
  std::string kernelCase, platform;
  friend void PrintTo(const AcceptanceParam& p, std::ostream* os) {
    *os << p.kernelCase << " on " << p.platform;
  }
};
class AcceptanceUnderPerturbation : public ::testing::TestWithParam<AcceptanceParam> {};

TEST_P(AcceptanceUnderPerturbation, SameResultsInEveryModeAndSeed) {
  const KernelCase c = kernelCase(GetParam().kernelCase);
  Buffers first;
  for (const Way& way : ways()) {
    std::string error;
    const Buffers out = inChildProcess(
        [&] { return runThroughRuntime(c, configured(GetParam().platform, way)); }, error);
    ASSERT_EQ(error, "") << c.name << " in " << way.name;
    if (way.functional) {
      EXPECT_EQ(checkAgainstReference(c, out), "") << "functional mode against the CPU";
      first = out;
      continue;
    }
    for (size_t i = 0; i < c.args.size(); ++i) {
      if (!c.args[i].isBuffer) continue;
      ASSERT_EQ(out[i].size(), first[i].size());
      size_t differ = 0, at = 0;
      for (size_t b = 0; b < out[i].size(); ++b)
        if (out[i][b] != first[i][b] && differ++ == 0) at = b;
      EXPECT_EQ(differ, 0u) << "buffer " << i << " in " << way.name
                            << " differs from functional mode in " << differ
                            << " bytes, the first at byte " << at;
    }
  }
}

std::vector<AcceptanceParam> acceptanceParams() {
  std::vector<AcceptanceParam> p;
  for (const auto& c : allKernelCases()) {
    if (c.name.find("gfx900") != std::string::npos) {
      p.push_back({c.name, "vega10"});
      continue;
    }
    // The largest inputs once, on a multi-CU platform: seven runs of each are slow on one CU.
    const bool large = c.name == "matmul_256" || c.name == "stencil2d_1024";
    if (!large) p.push_back({c.name, "tiny"});
    p.push_back({c.name, "vega20"});
    if (c.name.rfind("stencil2d_", 0) == 0 && !large) p.push_back({c.name, "mi60"});
  }
  return p;
}

INSTANTIATE_TEST_SUITE_P(Kernels, AcceptanceUnderPerturbation,
                         ::testing::ValuesIn(acceptanceParams()),
                         [](const ::testing::TestParamInfo<AcceptanceParam>& info) {
                           return info.param.kernelCase + "_on_" + info.param.platform;
                         });

// --- the differential OpenCL C cases ----------------------------------------------------------

struct DiffParam {
  std::string name, platform;
  friend void PrintTo(const DiffParam& p, std::ostream* os) {
    *os << p.name << " on " << p.platform;
  }
};
class DifferentialUnderPerturbation : public ::testing::TestWithParam<DiffParam> {};

TEST_P(DifferentialUnderPerturbation, SameResultsInEveryModeAndSeed) {
  const diff::DiffCase c = diff::findCase(GetParam().name);
  // Every run against the functional one: exact (no ulp budget), order-dependent outputs as
  // multisets, as the case marks them.
  diff::DiffCase exact = c;
  for (auto& a : exact.args) {
    a.ulps = 0;
    a.absTolerance = 0;
    for (int& u : a.fieldUlps) u = 0;
  }
  const std::string codeObject = diff::codeObjectDir() + "/" + c.program + ".co";
  Buffers first;
  for (const Way& way : ways()) {
    std::string error;
    const Buffers out = inChildProcess(
        [&] {
          return diff::runOnVgpu(c, configured(GetParam().platform, way), codeObject, c.kernel);
        },
        error);
    // Image sampling is not modelled yet (the image cases of tests/differential skip then too).
    if (c.program == "images" && error.find("not modelled") != std::string::npos)
      GTEST_SKIP() << c.name << " waits for the model's image sampling: " << error;
    ASSERT_EQ(error, "") << c.name << " in " << way.name;
    if (way.functional) {
      first = out;
      continue;
    }
    const std::string report = diff::compare(exact, first, out, "functional mode");
    EXPECT_EQ(report, "") << "in " << way.name;
  }
}

std::vector<DiffParam> diffParams() {
  std::vector<DiffParam> p;
  for (const auto& c : diff::allCases())
    for (const auto& platform : c.platforms) p.push_back({c.name, platform});
  return p;
}

INSTANTIATE_TEST_SUITE_P(Cl, DifferentialUnderPerturbation, ::testing::ValuesIn(diffParams()),
                         [](const ::testing::TestParamInfo<DiffParam>& info) {
                           return info.param.name + "_on_" + info.param.platform;
                         });

// --- the guard itself ---------------------------------------------------------------------------

// Perturbation must change timing (else the runs above prove nothing) and be deterministic.
TEST(LatencyPerturbation, ChangesCyclesDeterministically) {
  const KernelCase c = kernelCase("stencil2d_256");
  auto cycles = [&](uint64_t seed) {
    std::string error;
    const Buffers out = inChildProcess(
        [&] {
          PlatformConfig p = loadPlatform("tiny");
          p.perturbLatencySeed = seed;
          Simulation sim(p);
          uint64_t simulated = 0;
          sim.run([&](Runtime& rt) {
            const Module& m = rt.loadModule(kernelDir() + "/" + c.codeObject);
            std::vector<uint64_t> buffers;
            const double before = sc_core::sc_time_stamp().to_seconds();
            rt.launch(rt.kernel(m, c.kernel), c.launch, uploadArgs(rt, c, buffers));
            rt.synchronize();
            simulated =
                static_cast<uint64_t>((sc_core::sc_time_stamp().to_seconds() - before) * 1e12);
          });
          std::vector<uint8_t> bytes(8);
          std::memcpy(bytes.data(), &simulated, 8);
          return Buffers{bytes};
        },
        error);
    EXPECT_EQ(error, "");
    uint64_t ps = 0;
    if (out.size() == 1 && out[0].size() == 8) std::memcpy(&ps, out[0].data(), 8);
    return ps;
  };
  const uint64_t plain = cycles(0), seed1 = cycles(1), seed1Again = cycles(1), seed2 = cycles(2);
  EXPECT_GT(plain, 0u);
  EXPECT_NE(seed1, plain) << "seed 1 left the kernel's time unchanged";
  EXPECT_NE(seed2, seed1) << "seeds 1 and 2 gave the same time";
  EXPECT_EQ(seed1, seed1Again) << "the same seed must give the same time";
}

}  // namespace
}  // namespace vgpu::test
