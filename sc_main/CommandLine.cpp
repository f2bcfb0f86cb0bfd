#include "sc_main/CommandLine.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <vector>

#include "common/Error.h"

namespace vgpu::cli {

const char* usage() {
  return R"(usage:
  vgpu-sim run CODE_OBJECT KERNEL --grid X[,Y[,Z]] --block X[,Y[,Z]] [--arg SPEC]...
           [--platform NAME|FILE.json] [--dynamic-lds BYTES] [--global-offset X[,Y[,Z]]]
           [--stats FILE.json] [--max-cycles N] [--watchdog-cycles N]
           [--mode timing|functional] [--quiet]
           [--lds-arbiter cpp|rtl] [--rtl-vcd FILE.vcd]
           [--vcd FILE.vcd] [--vcd-window START:END] [--vcd-scope BLOCK,...]
           [--timeline FILE.json [--timeline-window START:END] [--timeline-scope BLOCK,...]]
           [--report FILE.html] [--progress] [--check-hazards]
  vgpu-sim list CODE_OBJECT            kernels, with each argument's name, kind and size
  vgpu-sim disasm CODE_OBJECT [KERNEL] disassembly, as llvm-objdump prints it
  vgpu-sim platforms                   built-in platforms

--grid is the total number of work-items per dimension, --block the workgroup size.
One --arg per explicit kernel argument, in order:
  file:PATH[,out=PATH]   global buffer holding the file's bytes (written back to out=)
  zeros:BYTES[,out=PATH] zeroed global buffer
  i32:V u32:V i64:V u64:V f32:V f64:V   scalars
--lds-arbiter picks the LDS bank-conflict arbiter: cpp (default) or rtl (the Verilated RTL,
when built with VGPU_RTL_COSIM). --rtl-vcd writes the RTL arbiter's waveform (compute unit 0).
--vcd writes the model's activity as a VCD (waves, VALU busy, issue, LDS banks and conflicts,
cache hits/misses/MSHRs, L2 and DRAM channels, command processor); --timeline writes a
trace-event JSON for ui.perfetto.dev (a slice per instruction per wave slot, unit tracks,
memory transactions as flows). --vcd-window and --timeline-window keep the GPU cycles
START..END (--vcd-window also for --rtl-vcd); --vcd-scope and --timeline-scope keep the named
blocks (comma-separated): cuN (with its ldsN and tcN), sqcN, l2, dram, cp.
--report writes one self-contained HTML page with the run's charts (occupancy, bandwidth,
stalls, LDS conflicts over time). A summary of the run goes to stderr at the end, and a progress
line while a run takes longer than a second on a terminal (--progress: also when stderr is not
a terminal; --quiet: neither).
--max-cycles stops a kernel still running after N cycles (a runaway loop). --watchdog-cycles
reports a deadlock when a wave waits at one s_barrier or s_waitcnt for more than N cycles
(default 10000000; 0: never); either prints the state of every wave.
--check-hazards reports every place a wave issued two instructions with fewer wait states
between them than the ISA requires (seed 004 table 8; the hardware does not check these):
PC, both instructions, wait states required and present, on stderr and in --stats "hazards".
Exit codes: 0 success, 2 bad input, 3 the kernel faulted.
)";
}

uint32_t ArgSpec::sizeBytes() const {
  switch (kind) {
    case Kind::I32:
    case Kind::U32:
    case Kind::F32:
      return 4;
    default:
      return 8;
  }
}

namespace {

[[noreturn]] void bad(const std::string& what) {
  throw InputError(what);
}

uint64_t parseUnsigned(const std::string& s, const std::string& what, uint64_t max) {
  if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos)
    bad(what + ": '" + s + "' is not a non-negative integer");
  errno = 0;
  const unsigned long long v = std::strtoull(s.c_str(), nullptr, 10);
  if (errno == ERANGE || v > max)
    bad(what + ": " + s + " is too large (at most " + std::to_string(max) + ")");
  return v;
}

// "X[,Y[,Z]]": up to three unsigned values, each at most 2^32 - 1.
std::vector<uint64_t> parseTriple(const std::string& s, const std::string& what) {
  std::vector<uint64_t> values;
  for (size_t start = 0;;) {
    if (values.size() == 3) bad(what + ": at most three dimensions ('" + s + "')");
    const size_t comma = s.find(',', start);
    values.push_back(parseUnsigned(
        s.substr(start, comma == std::string::npos ? std::string::npos : comma - start), what,
        0xffffffffu));
    if (comma == std::string::npos) return values;
    start = comma + 1;
  }
}

// Grid and workgroup sizes: missing dimensions are 1, and none may be 0.
void parseDims(const std::string& s, const std::string& what, uint32_t out[3]) {
  const std::vector<uint64_t> v = parseTriple(s, what);
  for (size_t d = 0; d < 3; ++d) {
    out[d] = d < v.size() ? static_cast<uint32_t>(v[d]) : 1;
    if (out[d] == 0) bad(what + ": every dimension must be at least 1 ('" + s + "')");
  }
}

// OpenCL global work offsets: missing dimensions and zero are 0.
void parseOffsets(const std::string& s, uint64_t out[3]) {
  const std::vector<uint64_t> v = parseTriple(s, "--global-offset");
  for (size_t d = 0; d < 3; ++d) out[d] = d < v.size() ? v[d] : 0;
}

template <typename T>
uint64_t bitsOf(T v) {
  uint64_t b = 0;
  std::memcpy(&b, &v, sizeof v);
  return b;
}

}  // namespace

ArgSpec parseArg(const std::string& spec) {
  ArgSpec a;
  const size_t colon = spec.find(':');
  if (colon == std::string::npos)
    bad("--arg '" + spec +
        "': expected KIND:VALUE (file:, zeros:, i32:, u32:, i64:, u64:, f32:, f64:)");
  const std::string kind = spec.substr(0, colon);
  std::string value = spec.substr(colon + 1);
  if (kind == "file" || kind == "zeros") {
    const size_t out = value.rfind(",out=");
    if (out != std::string::npos) {
      a.outPath = value.substr(out + 5);
      value = value.substr(0, out);
      if (a.outPath.empty()) bad("--arg '" + spec + "': out= needs a path");
    }
    if (kind == "file") {
      a.kind = ArgSpec::Kind::File;
      if (value.empty()) bad("--arg '" + spec + "': file: needs a path");
      a.path = value;
    } else {
      a.kind = ArgSpec::Kind::Zeros;
      a.bytes = parseUnsigned(value, "--arg '" + spec + "'", uint64_t{1} << 36);
      if (a.bytes == 0) bad("--arg '" + spec + "': a buffer needs at least 1 byte");
    }
    return a;
  }
  a.text = value;
  const std::string where = "--arg '" + spec + "'";
  char* end = nullptr;
  errno = 0;
  if (value.empty()) bad(where + ": missing value");
  if (std::isspace(static_cast<unsigned char>(value[0])))
    bad(where + ": '" + value + "' starts with a space");
  // Decimal, or hexadecimal with 0x; a leading zero does not mean octal.
  const bool hex =
      value.size() > 2 && (value.compare(0, 2, "0x") == 0 || value.compare(0, 2, "0X") == 0 ||
                           value.compare(0, 3, "-0x") == 0 || value.compare(0, 3, "-0X") == 0);
  const int base = hex ? 16 : 10;
  if (kind == "i32" || kind == "i64") {
    const long long v = std::strtoll(value.c_str(), &end, base);
    if (*end || errno == ERANGE) bad(where + ": '" + value + "' is not an integer");
    if (kind == "i32") {
      if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max())
        bad(where + ": " + value + " does not fit in 32 bits");
      a.kind = ArgSpec::Kind::I32;
      a.bits = bitsOf(static_cast<int32_t>(v));
    } else {
      a.kind = ArgSpec::Kind::I64;
      a.bits = bitsOf(static_cast<int64_t>(v));
    }
  } else if (kind == "u32" || kind == "u64") {
    if (value[0] == '-') bad(where + ": '" + value + "' is negative");
    const unsigned long long v = std::strtoull(value.c_str(), &end, base);
    if (*end || errno == ERANGE) bad(where + ": '" + value + "' is not an unsigned integer");
    if (kind == "u32") {
      if (v > 0xffffffffull) bad(where + ": " + value + " does not fit in 32 bits");
      a.kind = ArgSpec::Kind::U32;
      a.bits = static_cast<uint32_t>(v);
    } else {
      a.kind = ArgSpec::Kind::U64;
      a.bits = v;
    }
  } else if (kind == "f32" || kind == "f64") {
    const double v = std::strtod(value.c_str(), &end);
    if (*end) bad(where + ": '" + value + "' is not a number");
    if ((errno == ERANGE && std::isinf(v)) ||
        (kind == "f32" && std::isfinite(v) && std::fabs(v) > std::numeric_limits<float>::max()))
      bad(where + ": " + value + " is out of range for " + kind);
    if (kind == "f32") {
      a.kind = ArgSpec::Kind::F32;
      a.bits = bitsOf(static_cast<float>(v));
    } else {
      a.kind = ArgSpec::Kind::F64;
      a.bits = bitsOf(v);
    }
  } else {
    bad("--arg '" + spec + "': unknown kind '" + kind +
        "' (file, zeros, i32, u32, i64, u64, f32, f64)");
  }
  return a;
}

Options parse(const std::vector<std::string>& argv) {
  Options o;
  if (argv.empty()) bad(std::string("no command given\n") + usage());
  o.command = argv[0];
  if (o.command == "help" || o.command == "--help" || o.command == "-h") {
    o.command = "help";
    return o;
  }
  std::vector<std::string> positional;
  bool windowGiven = false, vcdScopeGiven = false, timelineFilterGiven = false;
  for (size_t i = 1; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    auto next = [&](const char* opt) -> const std::string& {
      if (i + 1 >= argv.size()) bad(std::string(opt) + " needs a value");
      return argv[++i];
    };
    if (a == "--grid")
      parseDims(next("--grid"), "--grid", o.grid), o.gridGiven = true;
    else if (a == "--block")
      parseDims(next("--block"), "--block", o.block), o.blockGiven = true;
    else if (a == "--arg")
      o.args.push_back(parseArg(next("--arg")));
    else if (a == "--platform")
      o.platform = next("--platform");
    else if (a == "--dynamic-lds")
      o.dynamicLds =
          static_cast<uint32_t>(parseUnsigned(next("--dynamic-lds"), "--dynamic-lds", 65536));
    else if (a == "--global-offset")
      parseOffsets(next("--global-offset"), o.globalOffset);
    else if (a == "--stats")
      o.statsPath = next("--stats");
    else if (a == "--max-cycles")
      o.maxCycles = parseUnsigned(next("--max-cycles"), "--max-cycles", ~uint64_t{0});
    else if (a == "--watchdog-cycles")
      o.watchdogCycles =
          parseUnsigned(next("--watchdog-cycles"), "--watchdog-cycles", ~uint64_t{0});
    else if (a == "--lds-arbiter") {
      o.ldsArbiter = next("--lds-arbiter");
      if (o.ldsArbiter != "cpp" && o.ldsArbiter != "rtl")
        bad("--lds-arbiter: '" + o.ldsArbiter + "' is not an arbiter (cpp or rtl)");
    } else if (a == "--vcd" || a == "--rtl-vcd" || a == "--timeline") {
      std::string& path = a == "--vcd"       ? o.vcdPath
                          : a == "--rtl-vcd" ? o.rtlVcdPath
                                             : o.timelinePath;
      path = next(a.c_str());
      if (path.empty()) bad(a + " needs a file name");
    } else if (a == "--vcd-window" || a == "--timeline-window") {
      const std::string w = next(a.c_str());
      const size_t colon = w.find(':');
      if (colon == std::string::npos) bad(a + ": expected START:END ('" + w + "')");
      const uint64_t start = parseUnsigned(w.substr(0, colon), a + " START", ~uint64_t{0});
      const uint64_t end = parseUnsigned(w.substr(colon + 1), a + " END", ~uint64_t{0});
      if (end < start) bad(a + ": END is before START ('" + w + "')");
      if (a == "--vcd-window")
        o.vcdStart = start, o.vcdEnd = end, windowGiven = true;
      else
        o.timelineStart = start, o.timelineEnd = end, timelineFilterGiven = true;
    } else if (a == "--vcd-scope" || a == "--timeline-scope") {
      const std::string list = next(a.c_str());
      std::vector<std::string>& scope = a == "--vcd-scope" ? o.vcdScope : o.timelineScope;
      for (size_t start = 0;;) {
        const size_t comma = list.find(',', start);
        const std::string block =
            list.substr(start, comma == std::string::npos ? comma : comma - start);
        if (block.empty()) bad(a + ": empty block name in '" + list + "' (e.g. cu0,l2,dram)");
        scope.push_back(block);
        if (comma == std::string::npos) break;
        start = comma + 1;
      }
      (a == "--vcd-scope" ? vcdScopeGiven : timelineFilterGiven) = true;
    } else if (a == "--mode") {
      const std::string& m = next("--mode");
      if (m != "timing" && m != "functional")
        bad("--mode must be timing or functional, not '" + m + "'");
      o.functionalMode = m == "functional";
    } else if (a == "--quiet" || a == "-q")
      o.quiet = true;
    else if (a == "--check-hazards")
      o.checkHazards = true;
    else if (a == "--progress")
      o.progress = true;
    else if (a == "--report") {
      o.reportPath = next("--report");
      if (o.reportPath.empty()) bad("--report needs a file name");
    } else if (a.size() > 1 && a[0] == '-')
      bad("unknown option '" + a + "'\n" + usage());
    else
      positional.push_back(a);
  }

  auto wantPositional = [&](size_t min, size_t max, const char* form) {
    if (positional.size() < min || positional.size() > max)
      bad(std::string("usage: vgpu-sim ") + form);
  };
  if (windowGiven && o.vcdPath.empty() && o.rtlVcdPath.empty())
    bad("--vcd-window needs --vcd FILE or --rtl-vcd FILE");
  if (vcdScopeGiven && o.vcdPath.empty()) bad("--vcd-scope needs --vcd FILE");
  if (timelineFilterGiven && o.timelinePath.empty())
    bad("--timeline-window and --timeline-scope need --timeline FILE");
  if (o.command == "run") {
    wantPositional(2, 2,
                   "run CODE_OBJECT KERNEL --grid X[,Y[,Z]] --block X[,Y[,Z]] [--arg SPEC]...");
    o.codeObject = positional[0];
    o.kernel = positional[1];
    if (!o.gridGiven) bad("run needs --grid (total work-items per dimension)");
    if (!o.blockGiven) bad("run needs --block (workgroup size per dimension)");
    // Each dimension is at most 2^32-1, so the product needs care: cap before multiplying.
    uint64_t items = 1;
    for (uint32_t d : o.block) items = std::min<uint64_t>(items * d, uint64_t{1} << 32);
    if (items > 1024)
      bad("--block " + std::to_string(o.block[0]) + "," + std::to_string(o.block[1]) + "," +
          std::to_string(o.block[2]) + " has " + std::to_string(items) +
          " work-items; a workgroup holds at most 1024");
  } else if (o.command == "list") {
    wantPositional(1, 1, "list CODE_OBJECT");
    o.codeObject = positional[0];
  } else if (o.command == "disasm") {
    wantPositional(1, 2, "disasm CODE_OBJECT [KERNEL]");
    o.codeObject = positional[0];
    if (positional.size() == 2) o.kernel = positional[1];
  } else if (o.command == "platforms") {
    wantPositional(0, 0, "platforms");
  } else {
    bad("unknown command '" + o.command + "'\n" + usage());
  }
  return o;
}

}  // namespace vgpu::cli
