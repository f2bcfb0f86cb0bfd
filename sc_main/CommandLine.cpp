#include "sc_main/CommandLine.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <vector>

#include <boost/program_options.hpp>

#include "common/Error.h"

namespace vgpu::cli {

namespace po = boost::program_options;

uint32_t ArgSpec::sizeBytes() const {
  switch (kind) {
    case Kind::I8:
    case Kind::U8:
    case Kind::Bool:
      return 1;
    case Kind::I16:
    case Kind::U16:
    case Kind::F16:
      return 2;
    case Kind::I32:
    case Kind::U32:
    case Kind::F32:
    case Kind::Local:  // a 32-bit group-segment offset (AMDGPUUsage: dynamic_shared_pointer)
      return 4;
    case Kind::Bytes:
      return static_cast<uint32_t>(data.size());
    default:
      return 8;
  }
}

const char* ArgSpec::kindName() const {
  switch (kind) {
    case Kind::File:
      return "file";
    case Kind::Zeros:
      return "zeros";
    case Kind::I8:
      return "i8";
    case Kind::U8:
      return "u8";
    case Kind::I16:
      return "i16";
    case Kind::U16:
      return "u16";
    case Kind::I32:
      return "i32";
    case Kind::U32:
      return "u32";
    case Kind::I64:
      return "i64";
    case Kind::U64:
      return "u64";
    case Kind::F16:
      return "f16";
    case Kind::F32:
      return "f32";
    case Kind::F64:
      return "f64";
    case Kind::Bool:
      return "bool";
    case Kind::Bytes:
      return "bytes";
    case Kind::Local:
      return "local";
  }
  return "?";
}

uint16_t halfBits(double value) {
  // From the binary64 bits straight to binary16, rounded to nearest, ties to even, as IEEE 754
  // converts (no detour through binary32, which could round twice).
  uint64_t x;
  std::memcpy(&x, &value, 8);
  const uint16_t sign = static_cast<uint16_t>((x >> 48) & 0x8000);
  const int64_t exponent = static_cast<int64_t>((x >> 52) & 0x7ff);
  uint64_t mantissa = x & ((uint64_t{1} << 52) - 1);
  if (exponent == 0x7ff)  // infinity, or a quiet NaN
    return static_cast<uint16_t>(sign | 0x7c00 | (mantissa ? 0x200 : 0));
  const int64_t e = exponent - 1023 + 15;                      // the binary16 biased exponent
  if (e >= 0x1f) return static_cast<uint16_t>(sign | 0x7c00);  // overflow: infinity
  uint64_t bits;
  int64_t shift;  // mantissa bits dropped
  if (e <= 0) {   // a binary16 subnormal (or zero): the implicit bit joins the mantissa
    if (e < -11) return sign;
    mantissa |= uint64_t{1} << 52;
    shift = 42 + 1 - e;
    bits = 0;
  } else {
    shift = 42;
    bits = static_cast<uint64_t>(e) << 10;
  }
  const uint64_t kept = mantissa >> shift;
  const uint64_t rest = mantissa & ((uint64_t{1} << shift) - 1), half = uint64_t{1} << (shift - 1);
  bits += kept;
  if (rest > half || (rest == half && (kept & 1))) ++bits;  // may carry into the exponent
  return static_cast<uint16_t>(sign | bits);
}

std::vector<uint8_t> ArgSpec::valueBytes() const {
  if (kind == Kind::Bytes) return data;
  std::vector<uint8_t> out(sizeBytes());
  std::memcpy(out.data(), &bits, out.size());  // little-endian, as the GPU reads it
  return out;
}

namespace {

[[noreturn]] void bad(const std::string& what) {
  throw InputError(what);
}

// ---- values ---------------------------------------------------------------------------------

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
void parseOffsets(const std::string& s, const std::string& what, uint64_t out[3]) {
  const std::vector<uint64_t> v = parseTriple(s, what);
  for (size_t d = 0; d < 3; ++d) out[d] = d < v.size() ? v[d] : 0;
}

// START:END in GPU cycles, both inclusive: absolute (from the start of the simulation), or
// with "kernel+" counted from the start of the first kernel dispatch (`fromKernel`).
void parseWindow(const std::string& w, const std::string& what, uint64_t& start, uint64_t& end,
                 bool& fromKernel) {
  static const std::string kKernel = "kernel+";
  fromKernel = w.compare(0, kKernel.size(), kKernel) == 0;
  const std::string cycles = fromKernel ? w.substr(kKernel.size()) : w;
  const size_t colon = cycles.find(':');
  if (colon == std::string::npos)
    bad(what + ": expected START:END or kernel+START:END ('" + w + "')");
  start = parseUnsigned(cycles.substr(0, colon), what + " START", ~uint64_t{0});
  end = parseUnsigned(cycles.substr(colon + 1), what + " END", ~uint64_t{0});
  if (end < start) bad(what + ": END is before START ('" + w + "')");
}

// A comma-separated list of block names, appended to `scope`.
void parseScope(const std::string& list, const std::string& what, std::vector<std::string>& scope) {
  for (size_t start = 0;;) {
    const size_t comma = list.find(',', start);
    const std::string block =
        list.substr(start, comma == std::string::npos ? comma : comma - start);
    if (block.empty()) bad(what + ": empty block name in '" + list + "' (e.g. cu0,l2,dram)");
    scope.push_back(block);
    if (comma == std::string::npos) return;
    start = comma + 1;
  }
}

// A switch is on when given without a value; with one (--quiet=false, quiet = no in a file,
// VGPU_QUIET=0) it can also turn off what a source further down turned on.
bool parseSwitch(const std::string& s, const std::string& what) {
  std::string v = s;
  for (char& c : v) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (v == "true" || v == "1" || v == "yes" || v == "on") return true;
  if (v == "false" || v == "0" || v == "no" || v == "off") return false;
  bad(what + ": '" + s + "' is not a switch value (true/false, 1/0, yes/no, on/off)");
}

std::string requireFileName(const std::string& path, const std::string& what) {
  if (path.empty()) bad(what + " needs a file name");
  return path;
}

template <typename T>
uint64_t bitsOf(T v) {
  uint64_t b = 0;
  std::memcpy(&b, &v, sizeof v);
  return b;
}

// bytes:HEX. The digits are the bytes in memory order (the first pair is the byte at the
// argument's lowest address), so a struct is written as it lies in the kernarg segment rather
// than as one number whose byte order the reader must reverse. '_' may separate digits.
std::vector<uint8_t> parseHexBytes(const std::string& value, const std::string& where) {
  std::string digits;
  for (char c : value) {
    if (c == '_') continue;
    if (!std::isxdigit(static_cast<unsigned char>(c)))
      bad(where + ": '" + std::string(1, c) + "' is not a hexadecimal digit");
    digits += c;
  }
  if (digits.empty()) bad(where + ": missing value");
  if (digits.size() % 2)
    bad(where + ": " + std::to_string(digits.size()) +
        " hexadecimal digits; each byte takes two (in memory order)");
  std::vector<uint8_t> bytes(digits.size() / 2);
  for (size_t i = 0; i < bytes.size(); ++i)
    bytes[i] = static_cast<uint8_t>(std::stoul(digits.substr(2 * i, 2), nullptr, 16));
  return bytes;
}

}  // namespace

ArgSpec parseArg(const std::string& spec) {
  ArgSpec a;
  const size_t colon = spec.find(':');
  if (colon == std::string::npos)
    bad("--arg '" + spec +
        "': expected KIND:VALUE (file:, zeros:, local:, i8:, u8:, i16:, u16:, i32:, u32:, i64:, "
        "u64:, f16:, f32:, f64:, bool:, bytes:)");
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
  if (kind == "local") {
    // An OpenCL __local pointer argument: BYTES of LDS per workgroup for it to point to.
    a.kind = ArgSpec::Kind::Local;
    a.bytes = parseUnsigned(value, where, 65536);
    if (a.bytes == 0) bad(where + ": a __local argument needs at least 1 byte");
    return a;
  }
  if (kind == "bool") {
    std::string v = value;
    for (char& c : v) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (v == "true" || v == "1")
      a.bits = 1;
    else if (v == "false" || v == "0")
      a.bits = 0;
    else
      bad(where + ": '" + value + "' is not a bool (true, false, 1 or 0)");
    a.kind = ArgSpec::Kind::Bool;
    return a;
  }
  if (kind == "bytes") {
    a.kind = ArgSpec::Kind::Bytes;
    a.data = parseHexBytes(value, where);
    return a;
  }
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
  // Integers: the kind's width and signedness.
  struct IntegerKind {
    const char* name;
    ArgSpec::Kind kind;
    unsigned bits;
    bool isSigned;
  };
  static const IntegerKind kIntegers[] = {
      {"i8", ArgSpec::Kind::I8, 8, true},    {"u8", ArgSpec::Kind::U8, 8, false},
      {"i16", ArgSpec::Kind::I16, 16, true}, {"u16", ArgSpec::Kind::U16, 16, false},
      {"i32", ArgSpec::Kind::I32, 32, true}, {"u32", ArgSpec::Kind::U32, 32, false},
      {"i64", ArgSpec::Kind::I64, 64, true}, {"u64", ArgSpec::Kind::U64, 64, false},
  };
  const IntegerKind* integer = nullptr;
  for (const IntegerKind& k : kIntegers)
    if (kind == k.name) integer = &k;
  if (integer != nullptr && integer->isSigned) {
    const long long v = std::strtoll(value.c_str(), &end, base);
    if (*end || errno == ERANGE) bad(where + ": '" + value + "' is not an integer");
    const long long max = integer->bits == 64 ? std::numeric_limits<long long>::max()
                                              : (1ll << (integer->bits - 1)) - 1;
    if (v < -max - 1 || v > max)
      bad(where + ": " + value + " does not fit in " + std::to_string(integer->bits) + " bits");
    a.kind = integer->kind;
    a.bits = static_cast<uint64_t>(v);
    if (integer->bits < 64) a.bits &= (uint64_t{1} << integer->bits) - 1;
  } else if (integer != nullptr) {
    if (value[0] == '-') bad(where + ": '" + value + "' is negative");
    const unsigned long long v = std::strtoull(value.c_str(), &end, base);
    if (*end || errno == ERANGE) bad(where + ": '" + value + "' is not an unsigned integer");
    if (integer->bits < 64 && v >> integer->bits)
      bad(where + ": " + value + " does not fit in " + std::to_string(integer->bits) + " bits");
    a.kind = integer->kind;
    a.bits = v;
  } else if (kind == "f16") {
    const double v = std::strtod(value.c_str(), &end);
    if (*end) bad(where + ": '" + value + "' is not a number");
    if (std::isfinite(v) && std::fabs(v) >= 65520.0)  // rounds to infinity in binary16
      bad(where + ": " + value + " is out of range for f16 (largest 65504)");
    a.kind = ArgSpec::Kind::F16;
    a.bits = halfBits(v);
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
        "' (file, zeros, local, i8, u8, i16, u16, i32, u32, i64, u64, f16, f32, f64, bool, "
        "bytes)");
  }
  return a;
}

namespace {

// ---- the option table -----------------------------------------------------------------------

// The sources an option may come from. Options that describe one kernel launch are not read
// from the environment: a variable set for a whole session (or for every kernel a HIP program
// launches under the HSA runtime) cannot mean one grid or one argument list.
enum class Reach {
  CommandLine,  // --options, --help
  File,         // the command line and option files
  Everywhere,   // the command line, option files and VGPU_* variables
};

enum class Shape {
  Value,   // one value; within a source the last occurrence wins
  Switch,  // no value (on), or =true/false
  List,    // every occurrence adds (within one source)
};

struct Row {
  const char* name;   // long name, without "--"
  char shortName;     // 0: none
  const char* value;  // the value's placeholder in help (nullptr for switches)
  const char* unit;
  const char* byDefault;
  Reach reach;
  Shape shape;
  const char* help;
  // Puts one value into the options; `what` is how messages name the option ("--grid").
  void (*apply)(Options& o, const std::string& value, const std::string& what);
};

// Every option of vgpu-sim, once. The command line, option files, the environment and the help
// text are all generated from these rows.
const std::vector<Row>& table() {
  static const std::vector<Row> rows = {
      {"grid", 0, "X[,Y[,Z]]", "work-items", "required by run; a missing dimension is 1",
       Reach::File, Shape::Value,
       "the total number of work-items per dimension (the AQL/OpenCL convention), not "
       "workgroups: HIP's <<<16, 256>>> is --grid 4096 --block 256 (a grid smaller than one "
       "workgroup in a dimension is warned about)",
       [](Options& o, const std::string& v, const std::string& what) {
         parseDims(v, what, o.grid);
         o.gridGiven = true;
       }},
      {"block", 0, "X[,Y[,Z]]", "work-items", "required by run; a missing dimension is 1",
       Reach::File, Shape::Value,
       "the workgroup size per dimension, at most 1024 work-items in all",
       [](Options& o, const std::string& v, const std::string& what) {
         parseDims(v, what, o.block);
         o.blockGiven = true;
       }},
      {"arg", 0, "SPEC", "one kernel argument", "none", Reach::File, Shape::List,
       "one per explicit kernel argument, in order (SPEC below); the hidden arguments are filled "
       "in by the runtime",
       [](Options& o, const std::string& v, const std::string&) { o.args.push_back(parseArg(v)); }},
      {"dynamic-lds", 0, "BYTES", "bytes", "0", Reach::File, Shape::Value,
       "LDS allocated per workgroup on top of the kernel's own (at most 65536): the memory of a "
       "HIP extern __shared__ array (hipLaunchKernelGGL's sharedMemBytes); a kernel that "
       "accesses LDS but has none of its own is warned about when this is not given",
       [](Options& o, const std::string& v, const std::string& what) {
         o.dynamicLds = static_cast<uint32_t>(parseUnsigned(v, what, 65536));
       }},
      {"global-offset", 0, "X[,Y[,Z]]", "work-items", "0,0,0", Reach::File, Shape::Value,
       "the OpenCL global work offset (clEnqueueNDRangeKernel's global_work_offset): "
       "get_global_id() counts from it",
       [](Options& o, const std::string& v, const std::string& what) {
         parseOffsets(v, what, o.globalOffset);
       }},
      {"platform", 0, "NAME|FILE.json", "platform name or JSON file", "vega20", Reach::Everywhere,
       Shape::Value,
       "the GPU to simulate: a built-in platform or its product name (mi50 for vega20, "
       "radeon-vii, vega64; vgpu-sim platforms lists them) or a JSON file; from a fat bundle "
       "run takes the code object for the platform's processor",
       [](Options& o, const std::string& v, const std::string& what) { o.platform = v; }},
      {"mode", 0, "timing|functional", "keyword", "timing", Reach::Everywhere, Shape::Value,
       "functional runs the same instructions with unit latencies: the same results, cycles not "
       "meaningful, much faster",
       [](Options& o, const std::string& v, const std::string&) {
         if (v != "timing" && v != "functional")
           bad("--mode must be timing or functional, not '" + v + "'");
         o.functionalMode = v == "functional";
       }},
      {"stats", 0, "FILE.json", "file", "none", Reach::Everywhere, Shape::Value,
       "writes the run's statistics as JSON (also when the kernel faults)",
       [](Options& o, const std::string& v, const std::string& what) { o.statsPath = v; }},
      {"max-cycles", 0, "N", "GPU cycles", "0 (no limit)", Reach::Everywhere, Shape::Value,
       "stops a kernel still running after N cycles (a runaway loop) and prints the state of "
       "every wave",
       [](Options& o, const std::string& v, const std::string& what) {
         o.maxCycles = parseUnsigned(v, what, ~uint64_t{0});
       }},
      {"watchdog-cycles", 0, "N", "GPU cycles",
       "the platform's watchdog_cycles (10000000 in the built-in platforms); 0: never",
       Reach::Everywhere, Shape::Value,
       "reports a deadlock when a wave waits at one s_barrier, s_waitcnt or GWS instruction for "
       "more than N cycles, with the state of every wave",
       [](Options& o, const std::string& v, const std::string& what) {
         o.watchdogCycles = parseUnsigned(v, what, ~uint64_t{0});
       }},
      {"perturb-latency", 0, "SEED", "seed", "0 (off)", Reach::Everywhere, Shape::Value,
       "timing mode: adds random extra latency (a sequence fixed by SEED) to every memory access "
       "within the hardware's return-order rules, to test the model and kernels: results must "
       "not change",
       [](Options& o, const std::string& v, const std::string& what) {
         o.perturbLatencySeed = parseUnsigned(v, what, ~uint64_t{0});
       }},
      {"check-hazards", 0, nullptr, "switch", "off", Reach::Everywhere, Shape::Switch,
       "reports every place a wave issued two instructions with fewer wait states between them "
       "than the ISA requires (Vega ISA guide 4.5, table 8; the hardware does not check these): "
       "PC, both "
       "instructions, wait states required and present, on stderr and in --stats \"hazards\"",
       [](Options& o, const std::string& v, const std::string& what) {
         o.checkHazards = parseSwitch(v, what);
       }},
      {"check-memory", 0, nullptr, "switch", "off", Reach::File, Shape::Switch,
       "maps exactly the bytes of each buffer argument (file:, zeros:), which lie between "
       "64 KiB guards that are never mapped (with or without this option, so a kernel that stays "
       "inside its buffers runs identically): a load, store or atomic touching any byte outside "
       "faults (exit 3), and the report names the argument and how far past its end (or before "
       "its start) the access was; vgpu-sim run only",
       [](Options& o, const std::string& v, const std::string& what) {
         o.checkMemory = parseSwitch(v, what);
       }},
      {"quiet", 'q', nullptr, "switch", "off", Reach::Everywhere, Shape::Switch,
       "prints neither the result line, the summary nor progress",
       [](Options& o, const std::string& v, const std::string& what) {
         o.quiet = parseSwitch(v, what);
       }},
      {"progress", 0, nullptr, "switch", "off (progress shows on a terminal only)",
       Reach::Everywhere, Shape::Switch,
       "shows the progress line while a run takes longer than a second also when stderr is not "
       "a terminal, one line per update",
       [](Options& o, const std::string& v, const std::string& what) {
         o.progress = parseSwitch(v, what);
       }},
      {"report", 0, "FILE.html", "file", "none", Reach::Everywhere, Shape::Value,
       "writes one self-contained HTML page with the run's charts (occupancy, bandwidth, stalls, "
       "LDS conflicts over time)",
       [](Options& o, const std::string& v, const std::string& what) {
         o.reportPath = requireFileName(v, what);
       }},
      {"profile-instructions", 0, "N", "instructions", "0 (off)", Reach::Everywhere, Shape::Value,
       "adds the N instructions issued most often to --stats (instruction_profile) and --report "
       "(needs one of them): "
       "per code-object offset (as vgpu-sim disasm prints it) the disassembly, the times waves "
       "issued it and the wave-cycles they stalled at it by reason; costs host time only when "
       "on",
       [](Options& o, const std::string& v, const std::string& what) {
         o.profileInstructions = static_cast<uint32_t>(parseUnsigned(v, what, 1u << 20));
       }},
      {"lds-arbiter", 0, "cpp|rtl", "keyword", "the platform's lds.arbiter (cpp)",
       Reach::Everywhere, Shape::Value,
       "the LDS bank-conflict arbiter: C++, or the Verilated RTL when built with VGPU_RTL_COSIM",
       [](Options& o, const std::string& v, const std::string& what) {
         if (v != "cpp" && v != "rtl") bad(what + ": '" + v + "' is not an arbiter (cpp or rtl)");
         o.ldsArbiter = v;
       }},
      {"rtl-vcd", 0, "FILE.vcd", "file", "none", Reach::Everywhere, Shape::Value,
       "writes the RTL LDS arbiter's waveform (compute unit 0; needs --lds-arbiter rtl)",
       [](Options& o, const std::string& v, const std::string& what) {
         o.rtlVcdPath = requireFileName(v, what);
       }},
      {"vcd", 0, "FILE.vcd", "file", "none", Reach::Everywhere, Shape::Value,
       "writes the model's activity as a VCD (waves, VALU busy, issue, LDS banks and conflicts, "
       "cache hits/misses/MSHRs, L2 and DRAM channels, command processor)",
       [](Options& o, const std::string& v, const std::string& what) {
         o.vcdPath = requireFileName(v, what);
       }},
      {"vcd-window", 0, "[kernel+]START:END", "GPU cycles", "the whole run", Reach::Everywhere,
       Shape::Value,
       "keeps the GPU cycles START..END in --vcd and --rtl-vcd, counted from the start of the "
       "simulation (which moves with the size of the inputs: host copies come first) or, with "
       "kernel+, from the start of the first kernel dispatch (--vcd only); a window that keeps "
       "no activity is warned about",
       [](Options& o, const std::string& v, const std::string& what) {
         parseWindow(v, what, o.vcdStart, o.vcdEnd, o.vcdFromKernel);
       }},
      {"vcd-scope", 0, "BLOCK,...", "block names", "every block", Reach::Everywhere, Shape::List,
       "keeps the named blocks in --vcd: cuN (with its ldsN and tcN), sqcN, l2, dram, cp",
       [](Options& o, const std::string& v, const std::string& what) {
         parseScope(v, what, o.vcdScope);
       }},
      {"timeline", 0, "FILE.json", "file", "none", Reach::Everywhere, Shape::Value,
       "writes a trace-event JSON for ui.perfetto.dev (a slice per instruction per wave slot, "
       "unit tracks, memory transactions as flows)",
       [](Options& o, const std::string& v, const std::string& what) {
         o.timelinePath = requireFileName(v, what);
       }},
      {"timeline-window", 0, "[kernel+]START:END", "GPU cycles", "the whole run", Reach::Everywhere,
       Shape::Value,
       "keeps the GPU cycles START..END in --timeline (as --vcd-window, also kernel+START:END)",
       [](Options& o, const std::string& v, const std::string& what) {
         parseWindow(v, what, o.timelineStart, o.timelineEnd, o.timelineFromKernel);
       }},
      {"timeline-scope", 0, "BLOCK,...", "block names", "every block", Reach::Everywhere,
       Shape::List, "keeps the named blocks in --timeline (as --vcd-scope)",
       [](Options& o, const std::string& v, const std::string& what) {
         parseScope(v, what, o.timelineScope);
       }},
      {"options", 0, "FILE", "file", "none", Reach::CommandLine, Shape::Value,
       "reads more options from FILE, one \"name = value\" per line (names without --; # starts "
       "a comment); the command line wins over it",
       // Read before the other rows are applied (parse()); nothing to set here.
       [](Options&, const std::string& v, const std::string& what) { requireFileName(v, what); }},
      {"help", 'h', nullptr, "switch", "off", Reach::CommandLine, Shape::Switch,
       "prints the command's options instead of running it",
       [](Options&, const std::string& v, const std::string& what) { parseSwitch(v, what); }},
  };
  return rows;
}

std::string environmentName(const std::string& option) {
  std::string name = "VGPU_";
  for (char c : option)
    name += c == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return name;
}

const Row* findRow(const std::string& name) {
  for (const Row& r : table())
    if (name == r.name) return &r;
  return nullptr;
}

// The Program_options description of the rows that `source` may set. Parsed options point at
// their description, so each lives as long as the program.
po::options_description build(Reach source) {
  po::options_description desc;
  for (const Row& r : table()) {
    if (r.reach < source) continue;
    const std::string names = r.shortName ? std::string(r.name) + "," + r.shortName : r.name;
    if (r.shape == Shape::List)
      desc.add_options()(names.c_str(), po::value<std::vector<std::string>>());
    else if (r.shape == Shape::Switch)
      desc.add_options()(names.c_str(), po::value<std::string>()->implicit_value("true"));
    else
      desc.add_options()(names.c_str(), po::value<std::string>());
  }
  return desc;
}

const po::options_description& describe(Reach source) {
  static const po::options_description commandLine = build(Reach::CommandLine);
  static const po::options_description file = build(Reach::File);
  static const po::options_description environment = build(Reach::Everywhere);
  return source == Reach::CommandLine ? commandLine : source == Reach::File ? file : environment;
}

// Optimal string alignment distance: a misspelt option is often two letters swapped. One flat
// table: this runs for every unknown name, which is most of what a fuzzer feeds the parser.
size_t editDistance(const std::string& a, const std::string& b) {
  const size_t w = b.size() + 1;
  std::vector<size_t> d((a.size() + 1) * w);
  for (size_t i = 0; i <= a.size(); ++i) d[i * w] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[j] = j;
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t best = d[(i - 1) * w + j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      best = std::min(best, d[(i - 1) * w + j] + 1);
      best = std::min(best, d[i * w + j - 1] + 1);
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        best = std::min(best, d[(i - 2) * w + j - 2] + 1);
      d[i * w + j] = best;
    }
  return d[a.size() * w + b.size()];
}

// " (did you mean --grid?)" for an unknown name close to one of `source`'s options.
std::string suggestion(std::string name, Reach source, const std::string& prefix) {
  name.erase(0, name.find_first_not_of('-'));
  name = name.substr(0, name.find('='));
  constexpr size_t kMaxEdits = 2;  // further away, a guess misleads more than it helps
  const Row* best = nullptr;
  size_t bestDistance = kMaxEdits + 1;
  for (const Row& r : table()) {
    const size_t length = std::strlen(r.name);
    // Lengths further apart need more edits than that: no table to fill (a long token, such as
    // a whole line of an option file without '=', would cost its length times each name's).
    if (r.reach < source ||
        std::max(length, name.size()) - std::min(length, name.size()) > kMaxEdits)
      continue;
    const size_t d = editDistance(name, r.name);
    if (d < bestDistance) best = &r, bestDistance = d;
  }
  return best ? " (did you mean " + prefix + best->name + "?)" : "";
}

// Within one source the last occurrence of a value or switch wins (so a script can append
// `--platform tiny` to a command line that already names one); list options keep every one.
void keepLastOccurrences(po::parsed_options& parsed) {
  std::set<std::string> seen;
  auto& options = parsed.options;
  for (size_t i = options.size(); i-- > 0;) {
    const Row* row = findRow(options[i].string_key);
    if (row == nullptr || row->shape == Shape::List) continue;
    if (!seen.insert(options[i].string_key).second) options.erase(options.begin() + long(i));
  }
}

// One source of options, in the precedence order they are stored in.
struct Source {
  enum class Kind { CommandLine, File, Environment } kind;
  std::string fileName;  // File
  po::parsed_options parsed;

  bool sets(const std::string& name) const {
    for (const auto& opt : parsed.options)
      if (opt.string_key == name) return true;
    return false;
  }
  // How a message about `option` from here starts: the command line names the option itself.
  std::string where(const std::string& option) const {
    switch (kind) {
      case Kind::File:
        return "option file '" + fileName + "': ";
      case Kind::Environment:
        return option.empty() ? "environment: "
                              : "environment variable " + environmentName(option) + ": ";
      default:
        return "";
    }
  }
};

// Boost's error messages replace %option%-style placeholders with the user's text, and loop
// forever when that text holds such a placeholder itself (an option file line
// "%%invalid_line%%", found by fuzzing). The message is built from a copy whose substitutions
// show '%' as '?'.
class PlaceholderSafeError : public po::error_with_option_name {
 public:
  explicit PlaceholderSafeError(const po::error_with_option_name& e)
      : po::error_with_option_name(e) {
    for (auto& [name, value] : m_substitutions) std::replace(value.begin(), value.end(), '%', '?');
  }
};
std::string errorText(const po::error& e) {
  if (const auto* named = dynamic_cast<const po::error_with_option_name*>(&e))
    return PlaceholderSafeError(*named).what();
  return e.what();
}

// `command`: whose options these are (named in the hint after an unknown one).
po::parsed_options parseCommandLine(const std::vector<std::string>& args,
                                    const std::string& command) {
  // No guessing from prefixes (--gri is an error, not --grid) and no grouped short options:
  // what was not an option before must not quietly become one.
  const int style = po::command_line_style::unix_style & ~po::command_line_style::allow_guessing &
                    ~po::command_line_style::allow_sticky;
  try {
    po::parsed_options parsed =
        po::command_line_parser(args).options(describe(Reach::CommandLine)).style(style).run();
    keepLastOccurrences(parsed);
    return parsed;
  } catch (const po::unknown_option& e) {
    bad("unknown option '" + e.get_option_name() + "'" +
        suggestion(e.get_option_name(), Reach::CommandLine, "--") + "\n(vgpu-sim help " + command +
        " lists the options)");
  } catch (const po::invalid_command_line_syntax& e) {
    if (e.kind() == po::invalid_command_line_syntax::missing_parameter)
      bad(e.get_option_name() + " needs a value");
    bad(errorText(e));
  } catch (const po::error& e) {
    bad(errorText(e));
  }
}

// One option file's lines, as Program_options reads a configuration file.
po::parsed_options parseOptionFile(const std::string& text, const std::string& fileName) {
  std::istringstream in(text);
  try {
    po::parsed_options parsed = po::parse_config_file(in, describe(Reach::File));
    keepLastOccurrences(parsed);
    return parsed;
  } catch (const po::unknown_option& e) {
    bad("option file '" + fileName + "': unknown option '" + e.get_option_name() + "'" +
        suggestion(e.get_option_name(), Reach::File, ""));
  } catch (const po::error& e) {
    bad("option file '" + fileName + "': " + errorText(e));
  }
}

// An option file is read whole up front, with a bound: --options /dev/zero must end.
std::string readOptionFile(const std::string& path) {
  constexpr size_t kMaxBytes = 1 << 20;
  std::ifstream in(path, std::ios::binary);
  if (!in) bad("--options '" + path + "': cannot open");
  std::string text(kMaxBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<size_t>(in.gcount()));
  if (in.bad()) bad("--options '" + path + "': cannot read");
  if (text.size() > kMaxBytes) bad("--options '" + path + "': larger than 1 MiB");
  return text;
}

po::parsed_options parseEnvironment() {
  try {
    return po::parse_environment(
        describe(Reach::Everywhere), [](const std::string& variable) -> std::string {
          // Only the variables of options; the rest of VGPU_* belongs to scripts and builds.
          for (const Row& r : table())
            if (r.reach == Reach::Everywhere && variable == environmentName(r.name)) return r.name;
          return "";
        });
  } catch (const po::error& e) {
    bad(std::string("environment: ") + errorText(e));
  }
}

// Puts what the sources set into `o`, each option from the first source (in precedence order)
// that sets it.
po::variables_map applySources(const std::vector<Source>& sources, Options& o) {
  po::variables_map vm;
  for (const Source& s : sources) {
    try {
      po::store(s.parsed, vm);
    } catch (const po::error& e) {
      bad(s.where("") + errorText(e));
    }
  }
  for (const Row& r : table()) {
    if (!vm.count(r.name)) continue;
    const std::string what = std::string("--") + r.name;
    const Source* from = nullptr;
    for (const Source& s : sources)
      if (s.sets(r.name)) {
        from = &s;
        break;
      }
    try {
      if (r.shape == Shape::List)
        for (const std::string& v : vm[r.name].as<std::vector<std::string>>()) r.apply(o, v, what);
      else
        r.apply(o, vm[r.name].as<std::string>(), what);
    } catch (const InputError& e) {
      if (from == nullptr || from->kind == Source::Kind::CommandLine) throw;
      bad(from->where(r.name) + e.what());
    }
  }
  return vm;
}

// Options that only make sense together, checked once every source is in.
void checkCombinations(const po::variables_map& vm, const Options& o) {
  if (vm.count("vcd-window") && o.vcdPath.empty() && o.rtlVcdPath.empty())
    bad("--vcd-window needs --vcd FILE or --rtl-vcd FILE");
  if (vm.count("vcd-scope") && o.vcdPath.empty()) bad("--vcd-scope needs --vcd FILE");
  if (o.profileInstructions && o.statsPath.empty() && o.reportPath.empty())
    bad("--profile-instructions needs --stats FILE or --report FILE (where the profile goes)");
  if ((vm.count("timeline-window") || vm.count("timeline-scope")) && o.timelinePath.empty())
    bad("--timeline-window and --timeline-scope need --timeline FILE");
}

struct Command {
  const char* name;
  const char* operands;
  size_t minOperands, maxOperands;
  const char* summary;
};

const std::vector<Command>& commands() {
  static const std::vector<Command> all = {
      {"run", "CODE_OBJECT KERNEL --grid X[,Y[,Z]] --block X[,Y[,Z]] [--arg SPEC]... [OPTION]...",
       2, 2, "runs a kernel"},
      {"list", "CODE_OBJECT", 1, 1, "kernels, with each argument's name, kind and size"},
      {"disasm", "CODE_OBJECT [KERNEL]", 1, 2, "disassembly, as llvm-objdump prints it"},
      {"exec", "[OPTION]... -- PROGRAM [ARGUMENT]...", 0, 0,
       "runs an unmodified HIP program on the model (vgpu's libhsa-runtime64 under Debian's "
       "HIP runtime); the options marked \"environment\" apply"},
      {"platforms", "", 0, 0, "built-in platforms, with the other names each is known by"},
      {"version", "", 0, 0, "vgpu-sim's version (also --version)"},
      {"help", "[COMMAND]", 0, 1, "this text, or one command's options"},
  };
  return all;
}

const Command* findCommand(const std::string& name) {
  for (const Command& c : commands())
    if (name == c.name) return &c;
  return nullptr;
}

// ---- help -----------------------------------------------------------------------------------

// `words` wrapped at 100 columns, each line indented by `indent`; a word is never split.
std::string wrapWords(const std::vector<std::string>& words, size_t indent) {
  std::string out, line(indent, ' ');
  for (const std::string& word : words) {
    if (line.size() > indent && line.size() + 1 + word.size() > 100) {
      out += line + "\n";
      line.assign(indent, ' ');
    }
    if (line.size() > indent) line += ' ';
    line += word;
  }
  return out + line + "\n";
}

std::string wrap(const std::string& text, size_t indent) {
  std::vector<std::string> words;
  std::istringstream in(text);
  for (std::string word; in >> word;) words.push_back(word);
  return wrapWords(words, indent);
}

const char* kSources =
    "Options come from the command line, from an option file (--options FILE: one "
    "\"name = value\" per line, the name without --, # starts a comment) and from VGPU_* "
    "environment variables (the name in capitals with _ for -: VGPU_PLATFORM, VGPU_MODE, "
    "VGPU_STATS, VGPU_MAX_CYCLES, ...; only the options marked so below). The command line wins "
    "over the file, the file over the environment, and the environment over the defaults (the "
    "platform's, where an option says so). Within one source the last value given wins; --arg, "
    "--vcd-scope and --timeline-scope collect every one, and a source that gives any replaces "
    "the lists of the sources below it. A switch given a value (--quiet=false) can turn off "
    "what a file or variable turned on.";

const char* kArgSpecs = R"(Kernel arguments (--arg SPEC), one per explicit argument, in order:
  file:PATH[,out=PATH]   a global buffer holding the file's bytes (written back to out=)
  zeros:BYTES[,out=PATH] a zeroed global buffer
  i8:V u8:V i16:V u16:V i32:V u32:V i64:V u64:V   integers (decimal or 0x hexadecimal)
  f16:V f32:V f64:V      floating point (f16: _Float16 / OpenCL half)
  bool:V                 true, false, 1 or 0 (one byte)
  local:BYTES            an OpenCL __local pointer: BYTES of LDS per workgroup, placed after
                         the kernel's own LDS (each aligned as its metadata says); the
                         kernel argument holds the offset
  bytes:HEX              a by-value argument of any size (a struct), its bytes in memory
                         order, two hexadecimal digits each ('_' may separate them); its size
                         must be the kernel's for that argument (vgpu-sim list shows them)
  Where the metadata gives an argument's type (OpenCL's type_name), the kind must fit it:
  an integer kind for an integer type, a float kind for a float type.
)";

const char* kExitCodes =
    "Exit codes: 0 success, 2 bad input, 3 the kernel faulted. Launch mistakes that still run (a "
    "grid smaller than a workgroup, a HIP kernel's grid not a multiple of its block, LDS accessed "
    "but not given, printf) are warned about on stderr.\n";

}  // namespace

std::string usage() {
  std::string s = "usage:\n";
  for (const Command& c : commands()) {
    std::string line = std::string("  vgpu-sim ") + c.name + (*c.operands ? " " : "") + c.operands;
    if (std::string(c.name) == "run") {
      s += line + "\n";
      continue;
    }
    line.resize(std::max<size_t>(line.size() + 1, 39), ' ');
    s += line + c.summary + "\n";
  }
  std::vector<std::string> options;
  for (const Row& r : table())
    options.push_back(std::string("[--") + r.name + (r.value ? std::string(" ") + r.value : "") +
                      "]");
  s += "\nOptions of run (vgpu-sim help run describes each, with its unit and default):\n";
  s += wrapWords(options, 2);
  s += "\n" + wrap(kSources, 0);
  s += "\n" + std::string(kArgSpecs) + "\n" + wrap(kExitCodes, 0);
  return s;
}

std::string help(const std::string& command) {
  const Command* c = findCommand(command);
  if (c == nullptr) bad("help: unknown command '" + command + "'\n" + usage());
  std::string s = std::string("usage: vgpu-sim ") + c->name + (*c->operands ? " " : "") +
                  c->operands + "\n" + wrap(std::string(c->summary) + ".", 2);
  if (command == "help") return s + "\n" + usage();
  if (command == "exec") {
    s += "\nThe program loads vgpu's libhsa-runtime64.so.1 instead of the system's (through\n"
         "LD_LIBRARY_PATH), so Debian's HIP runtime and ROCm libraries run on the simulated GPU\n"
         "unchanged. The options below travel to it as the VGPU_* variables named; set by hand,\n"
         "those variables work without vgpu-sim exec too. At exit the program prints a summary\n"
         "(kernels, simulated GPU time, host time) unless --quiet; --stats writes one record\n"
         "per kernel dispatch and per DMA copy.\n\nOptions:\n";
    for (const Row& r : table())
      if (r.reach == Reach::Everywhere) {
        std::string head = std::string("  --") + r.name;
        if (r.value) head += std::string(" ") + r.value;
        s += head + "\n" + wrap(r.help, 6) + wrap("environment: " + environmentName(r.name), 6);
      }
    return s;
  }
  if (command != "run") return s;
  s += "\nOptions:\n";
  for (const Row& r : table()) {
    std::string head = std::string("  --") + r.name;
    if (r.value) head += std::string(" ") + r.value;
    if (r.shortName) head += std::string(", -") + r.shortName;
    s += head + "\n" + wrap(r.help, 6);
    std::string facts = std::string("unit: ") + r.unit + "; default: " + r.byDefault;
    if (r.reach == Reach::Everywhere) facts += "; environment: " + environmentName(r.name);
    if (r.reach == Reach::CommandLine) facts += "; command line only";
    s += wrap(facts, 6);
  }
  s += "\n" + wrap(kSources, 0) + "\n" + kArgSpecs + "\n" + wrap(kExitCodes, 0);
  return s;
}

Options parse(const std::vector<std::string>& argv, Environment environment) {
  Options o;
  if (argv.empty()) bad("no command given\n" + usage());
  o.command = argv[0];
  if (o.command == "--version") o.command = "version";
  if (o.command == "help" || o.command == "--help" || o.command == "-h") {
    o.command = "help";
    if (argv.size() > 2) bad("usage: vgpu-sim help [COMMAND]");
    if (argv.size() == 2) {
      if (!findCommand(argv[1])) bad("help: unknown command '" + argv[1] + "'\n" + usage());
      o.helpTopic = argv[1];
    }
    return o;
  }
  const Command* command = findCommand(o.command);
  if (command == nullptr) bad("unknown command '" + o.command + "'\n" + usage());

  // Highest precedence first: po::store keeps the first value it sees of an option.
  std::vector<Source> sources;
  sources.push_back(
      {Source::Kind::CommandLine, "",
       parseCommandLine(std::vector<std::string>(argv.begin() + 1, argv.end()), o.command)});
  for (const auto& opt : sources[0].parsed.options)
    if (opt.string_key == "options") {
      const std::string path = opt.value.empty() ? std::string() : opt.value[0];
      requireFileName(path, "--options");
      sources.push_back({Source::Kind::File, path, parseOptionFile(readOptionFile(path), path)});
    }
  if (environment == Environment::Read)
    sources.push_back({Source::Kind::Environment, "", parseEnvironment()});
  const po::variables_map vm = applySources(sources, o);

  if (vm.count("help") && parseSwitch(vm["help"].as<std::string>(), "--help")) {
    o.helpTopic = o.command;
    o.command = "help";
    return o;
  }
  checkCombinations(vm, o);

  const std::vector<std::string> operands =
      po::collect_unrecognized(sources[0].parsed.options, po::include_positional);
  if (operands.size() < command->minOperands || operands.size() > command->maxOperands)
    bad(std::string("usage: vgpu-sim ") + command->name + (*command->operands ? " " : "") +
        command->operands);
  if (o.command == "run") {
    o.codeObject = operands[0];
    o.kernel = operands[1];
    if (!o.gridGiven) bad("run needs --grid (total work-items per dimension)");
    if (!o.blockGiven) bad("run needs --block (workgroup size per dimension)");
    // Each dimension is at most 2^32-1, so the product needs care: cap before multiplying.
    uint64_t items = 1;
    for (uint32_t d : o.block) items = std::min<uint64_t>(items * d, uint64_t{1} << 32);
    if (items > 1024)
      bad("--block " + std::to_string(o.block[0]) + "," + std::to_string(o.block[1]) + "," +
          std::to_string(o.block[2]) + " has " + std::to_string(items) +
          " work-items; a workgroup holds at most 1024");
  } else if (o.command == "list" || o.command == "disasm") {
    o.codeObject = operands[0];
    if (operands.size() == 2) o.kernel = operands[1];
  }
  return o;
}

std::vector<std::pair<std::string, std::string>> execEnvironment(
    const std::vector<std::string>& options) {
  const po::parsed_options parsed = parseCommandLine(options, "exec");
  std::vector<std::pair<std::string, std::string>> variables;
  for (const auto& opt : parsed.options) {
    if (opt.unregistered || opt.position_key >= 0)
      bad("exec: '" + (opt.original_tokens.empty() ? opt.string_key : opt.original_tokens[0]) +
          "' is not an option; the program and its arguments follow --");
    const Row* row = findRow(opt.string_key);
    if (row != nullptr && std::string(row->name) == "check-memory")
      bad("exec: --check-memory works with vgpu-sim run only: under exec the program's HIP "
          "runtime allocates its buffers, and vgpu's HSA runtime does not guard them");
    if (row == nullptr || row->reach != Reach::Everywhere)
      bad("exec: --" + opt.string_key +
          " describes one `vgpu-sim run` launch; the program makes its own launches");
    const std::string value = opt.value.empty() ? "1" : opt.value.back();
    // Checked now, with the option's own message, rather than in the program.
    Options ignored;
    row->apply(ignored, value, "--" + opt.string_key);
    variables.emplace_back(environmentName(opt.string_key), value);
  }
  return variables;
}

Options fromEnvironment() {
  Options o;
  const std::vector<Source> sources = {{Source::Kind::Environment, "", parseEnvironment()}};
  checkCombinations(applySources(sources, o), o);
  return o;
}

Options parseOptionText(const std::string& text, const std::string& fileName) {
  Options o;
  const std::vector<Source> sources = {
      {Source::Kind::File, fileName, parseOptionFile(text, fileName)}};
  checkCombinations(applySources(sources, o), o);
  return o;
}

}  // namespace vgpu::cli
