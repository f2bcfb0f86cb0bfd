// Parsing of the vgpu-sim command line (kept apart from main so tests and fuzzers can call it).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace vgpu::cli {

struct ArgSpec {
  enum class Kind { File, Zeros, I32, U32, I64, U64, F32, F64 } kind = Kind::I32;
  std::string path;     // File: input file
  uint64_t bytes = 0;   // Zeros: size
  std::string outPath;  // File/Zeros: write the buffer back here after the run
  std::string text;     // the scalar as written
  uint64_t bits = 0;    // scalar value, bit pattern in the low sizeBytes() bytes
  bool isBuffer() const { return kind == Kind::File || kind == Kind::Zeros; }
  uint32_t sizeBytes() const;
};

struct Options {
  std::string command;  // run, list, disasm, platforms, help
  std::string codeObject, kernel;
  uint32_t grid[3] = {1, 1, 1};
  uint32_t block[3] = {1, 1, 1};
  bool gridGiven = false, blockGiven = false;
  std::vector<ArgSpec> args;
  std::string platform = "vega20";
  uint32_t dynamicLds = 0;
  uint64_t globalOffset[3] = {0, 0, 0};
  std::string statsPath;
  uint64_t maxCycles = 0;
  std::optional<uint64_t> watchdogCycles;  // --watchdog-cycles; unset: the platform's
  bool functionalMode = false;             // --mode functional
  bool quiet = false;
  // --check-hazards: report missing software-inserted wait states (isa/HazardChecker.h)
  bool checkHazards = false;
  bool progress = false;   // --progress: progress on stderr even when it is not a terminal
  std::string reportPath;  // --report: the HTML report
  std::string ldsArbiter;  // --lds-arbiter rtl|cpp; empty: the platform's lds.arbiter
  std::string vcdPath;     // --vcd: the model's activity (models/trace)
  std::string rtlVcdPath;  // --rtl-vcd: waveform of the RTL LDS arbiter of compute unit 0
  // --vcd-window START:END, in GPU cycles: the window of both VCDs.
  uint64_t vcdStart = 0, vcdEnd = ~uint64_t{0};
  std::vector<std::string> vcdScope;  // --vcd-scope cu0,l2,...: blocks in --vcd; empty: all
  std::string timelinePath;           // --timeline: Chrome/Perfetto trace-event JSON
  uint64_t timelineStart = 0, timelineEnd = ~uint64_t{0};  // --timeline-window START:END
  std::vector<std::string> timelineScope;                  // --timeline-scope
};

// Throws vgpu::InputError with a message naming the problem.
Options parse(const std::vector<std::string>& argv);
ArgSpec parseArg(const std::string& spec);

const char* usage();

}  // namespace vgpu::cli
