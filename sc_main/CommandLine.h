// vgpu-sim's options, defined once in one table (CommandLine.cpp) and read from three sources
// through Boost.Program_options: the command line, an option file (--options FILE) and the
// VGPU_* environment. The command line wins over the file, the file over the environment, and
// the environment over the platform's defaults. Kept apart from main so tests, fuzzers and the
// HSA runtime library can call it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace vgpu::cli {

struct ArgSpec {
  enum class Kind {
    File,
    Zeros,
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    F16,
    F32,
    F64,
    Bool,
    Bytes,
    Local,  // local:BYTES, an OpenCL __local pointer: the kernarg holds its LDS offset
  } kind = Kind::I32;
  std::string path;           // File: input file
  uint64_t bytes = 0;         // Zeros: size; Local: the LDS bytes it points to
  std::string outPath;        // File/Zeros: write the buffer back here after the run
  std::string text;           // the value as written
  uint64_t bits = 0;          // scalar value, bit pattern in the low sizeBytes() bytes
  std::vector<uint8_t> data;  // Bytes: the by-value argument's bytes, in memory order
  bool isBuffer() const { return kind == Kind::File || kind == Kind::Zeros; }
  bool isLocal() const { return kind == Kind::Local; }
  bool isFloat() const { return kind == Kind::F16 || kind == Kind::F32 || kind == Kind::F64; }
  // The kind as written before the colon: "file", "i32", "local", ...
  const char* kindName() const;
  uint32_t sizeBytes() const;
  // The by-value argument as it lies in the kernarg segment (scalars and bytes:).
  std::vector<uint8_t> valueBytes() const;
};

struct Options {
  std::string command;    // run, list, disasm, platforms, help
  std::string helpTopic;  // help: the command asked about (`help run`, `run --help`); empty: all
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
  uint64_t perturbLatencySeed = 0;         // --perturb-latency SEED; 0: off
  bool quiet = false;
  // --check-hazards: report missing software-inserted wait states (isa/HazardChecker.h)
  bool checkHazards = false;
  // --check-memory: buffer arguments mapped byte-exactly between unmapped guards; an access
  // outside one faults and is named (vgpu-sim run only)
  bool checkMemory = false;
  bool progress = false;   // --progress: progress on stderr even when it is not a terminal
  std::string reportPath;  // --report: the HTML report
  // --profile-instructions N: the N hottest instructions in --stats and --report; 0: off
  uint32_t profileInstructions = 0;
  std::string ldsArbiter;  // --lds-arbiter rtl|cpp; empty: the platform's lds.arbiter
  std::string vcdPath;     // --vcd: the model's activity (models/trace)
  std::string rtlVcdPath;  // --rtl-vcd: waveform of the RTL LDS arbiter of compute unit 0
  // --vcd-window [kernel+]START:END, in GPU cycles: the window of both VCDs; with kernel+
  // (vcdFromKernel) counted from the start of the first kernel dispatch.
  uint64_t vcdStart = 0, vcdEnd = ~uint64_t{0};
  bool vcdFromKernel = false;
  std::vector<std::string> vcdScope;  // --vcd-scope cu0,l2,...: blocks in --vcd; empty: all
  std::string timelinePath;           // --timeline: Chrome/Perfetto trace-event JSON
  uint64_t timelineStart = 0, timelineEnd = ~uint64_t{0};  // --timeline-window START:END
  bool timelineFromKernel = false;                         // --timeline-window kernel+...
  std::vector<std::string> timelineScope;                  // --timeline-scope
};

// Whether parse() also reads the VGPU_* environment. vgpu-sim does; tests and the fuzzer
// leave it out so that nothing outside their input changes what they parse.
enum class Environment { Ignore, Read };

// The whole command line (argv without the program name): the command, its operands and
// options, the option file it names with --options, and with Environment::Read the VGPU_*
// variables beneath both. Throws vgpu::InputError with a message naming the problem (and the
// file or variable it came from).
Options parse(const std::vector<std::string>& argv, Environment environment = Environment::Ignore);

// The options set by VGPU_* environment variables alone, over the defaults, through the same
// table as the command line (VGPU_PLATFORM for --platform, VGPU_MAX_CYCLES for --max-cycles, ...;
// only the options that describe the simulator rather than one launch, see `vgpu-sim help run`).
// Its purpose: the HSA runtime library, loaded into unmodified HIP programs that have no
// vgpu-sim command line, reads its settings here so that a variable means the same to it as to
// vgpu-sim. Variables named VGPU_* that are not options are ignored (build and test scripts use
// some). Throws vgpu::InputError naming the variable on a bad value.
Options fromEnvironment();

// `vgpu-sim exec OPTION... -- PROGRAM`: the VGPU_* variables (name, value) that carry the
// options to the program's HSA runtime. Only options that reach the environment are allowed;
// each value is checked. Throws vgpu::InputError naming the problem.
std::vector<std::pair<std::string, std::string>> execEnvironment(
    const std::vector<std::string>& options);

// The options of one option file's text alone (the format of --options FILE), `fileName`
// naming it in messages.
Options parseOptionText(const std::string& text, const std::string& fileName);

// One --arg specification: file:PATH, zeros:BYTES (either with ,out=PATH), a scalar, bytes:HEX
// or local:BYTES.
ArgSpec parseArg(const std::string& spec);

// `vgpu-sim help`: the commands and every option in brief.
std::string usage();
// `vgpu-sim help COMMAND`: one command's operands and options, each with its unit, default and
// environment variable. Throws vgpu::InputError for an unknown command.
std::string help(const std::string& command);

// IEEE 754 binary16 bits of `v`, rounded to nearest even (f16: arguments).
uint16_t halfBits(double v);

}  // namespace vgpu::cli
