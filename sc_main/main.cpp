// vgpu-sim: run, list and disassemble AMD gfx906/gfx900 kernels on the SystemC GPU model.
// The command-line contract is documented in README.md and `vgpu-sim help`.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <systemc>

#include "activity/ProgressMeter.h"
#include "activity/RunSummary.h"
#include "common/AtomicFile.h"
#include "common/Error.h"
#include "common/Hex.h"
#include "gpu/Gpu.h"
#include "gpu/StatisticsJson.h"
#include "isa/Isa.h"
#include "isa/OpInfo.h"
#include "loader/CodeObject.h"
#include "loader/Elf.h"
#include "loader/KernelListing.h"
#include "loader/OffloadBundle.h"
#include "platforms/Platform.h"
#include "runtime/Runtime.h"
#include "sc_main/CommandLine.h"
#include "sc_main/HtmlReport.h"
#include "sc_main/PlatformOptions.h"

namespace {

using namespace vgpu;

// An output file's directory must exist and be writable before anything is simulated, so a
// typo in a path costs no simulation time and leaves no other output behind.
void checkOutputPath(const std::string& path, const std::string& option) {
  const size_t slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash + 1);
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    throw InputError(option + " '" + path + "': directory '" + dir + "' does not exist");
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    throw InputError(option + " '" + path + "': directory '" + dir + "' is not writable");
}

// The output files of run and exec.
void checkOutputPaths(const cli::Options& o) {
  if (!o.statsPath.empty()) checkOutputPath(o.statsPath, "--stats");
  if (!o.reportPath.empty()) checkOutputPath(o.reportPath, "--report");
  if (!o.vcdPath.empty()) checkOutputPath(o.vcdPath, "--vcd");
  if (!o.rtlVcdPath.empty()) checkOutputPath(o.rtlVcdPath, "--rtl-vcd");
  if (!o.timelinePath.empty()) checkOutputPath(o.timelinePath, "--timeline");
}

std::vector<uint8_t> readFile(const std::string& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(what + " '" + path + "': cannot open");
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error))  // a pipe, a device: as it streams
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
  // A file: one read of its size (a character at a time cost more than some whole kernels).
  std::vector<uint8_t> bytes(static_cast<size_t>(std::filesystem::file_size(path, error)));
  if (error ||
      !in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size())))
    throw InputError(what + " '" + path + "': cannot read");
  return bytes;
}

std::string argKindName(const cli::ArgSpec& a) {
  return a.kindName();
}

// What an argument's metadata type (OpenCL's .type_name; HIP gives none) takes: integer types
// an integer kind (either signedness), float types a float kind, bool bool:. Unknown and
// aggregate types take anything of the right size (bytes: always fits).
enum class TypeClass { Unknown, Integer, Float, Bool };

TypeClass typeClass(const std::string& typeName) {
  static const char* const kIntegers[] = {
      "char",           "signed char",   "uchar",    "unsigned char", "short",
      "unsigned short", "ushort",        "int",      "unsigned int",  "uint",
      "long",           "unsigned long", "ulong",    "size_t",        "ptrdiff_t",
      "intptr_t",       "uintptr_t",     "int8_t",   "uint8_t",       "int16_t",
      "uint16_t",       "int32_t",       "uint32_t", "int64_t",       "uint64_t"};
  for (const char* t : kIntegers)
    if (typeName == t) return TypeClass::Integer;
  if (typeName == "half" || typeName == "float" || typeName == "double" || typeName == "_Float16")
    return TypeClass::Float;
  if (typeName == "bool" || typeName == "_Bool") return TypeClass::Bool;
  return TypeClass::Unknown;
}

// Checks --arg against the kernel's metadata before anything is simulated.
void checkArgs(const loader::KernelInfo& k, const std::vector<cli::ArgSpec>& args) {
  const auto meta = k.explicitArgs();
  if (meta.size() != args.size()) {
    std::ostringstream os;
    os << "kernel '" << k.name << "' takes " << meta.size() << " argument"
       << (meta.size() == 1 ? "" : "s") << ", " << args.size() << " --arg given:\n"
       << loader::describeArgs(k);
    throw InputError(os.str());
  }
  for (size_t i = 0; i < args.size(); ++i) {
    const cli::ArgSpec& a = args[i];
    const bool local = meta[i].valueKind == "dynamic_shared_pointer";
    const bool pointer = meta[i].takesPointer() && !local;
    std::string label = meta[i].name;
    if (!meta[i].typeName.empty())
      label += (label.empty() ? "type " : ", type ") + meta[i].typeName;
    const std::string name = label.empty() ? "" : " (" + label + ")";
    const std::string which =
        "--arg " + std::to_string(i + 1) + ": kernel argument " + std::to_string(i) + name;
    // AMDGPUUsage, code object metadata: a dynamic_shared_pointer (an OpenCL __local pointer)
    // is passed as the 32-bit offset of its memory in the group segment, which the runtime
    // allocates: the user gives the size.
    if (local && !a.isLocal())
      throw InputError(which +
                       " is a __local pointer (dynamic group segment): give local:BYTES, the LDS "
                       "bytes per workgroup it points to, not " +
                       argKindName(a));
    if (!local && a.isLocal())
      throw InputError(
          which + " is a " +
          (pointer ? meta[i].valueKind + " pointer"
                   : std::to_string(meta[i].size) + "-byte " + meta[i].valueKind + " value") +
          "; local:BYTES is only for __local pointer arguments");
    if (local) continue;
    if (pointer && !a.isBuffer())
      throw InputError(which + " is a " +
                       (meta[i].valueKind == "global_buffer" ? std::string("global buffer")
                                                             : meta[i].valueKind + " pointer") +
                       "; give file:PATH or zeros:BYTES, not " + argKindName(a));
    if (!pointer && a.isBuffer())
      throw InputError(which + " is a " + std::to_string(meta[i].size) + "-byte " +
                       meta[i].valueKind +
                       " value; give a scalar (i8:, u8:, i16:, u16:, i32:, u32:, i64:, u64:, "
                       "f16:, f32:, f64:, bool:) or bytes:HEX, not " +
                       argKindName(a));
    if (pointer) continue;
    // The kind against the type the metadata names (a float's bits are not the int it means).
    const TypeClass t = typeClass(meta[i].typeName);
    const bool integerKind =
        !a.isFloat() && a.kind != cli::ArgSpec::Kind::Bool && a.kind != cli::ArgSpec::Kind::Bytes;
    if ((t == TypeClass::Integer && (a.isFloat() || a.kind == cli::ArgSpec::Kind::Bool)) ||
        (t == TypeClass::Float && (integerKind || a.kind == cli::ArgSpec::Kind::Bool)) ||
        (t == TypeClass::Bool && (a.isFloat() || integerKind)))
      throw InputError(which + " takes " +
                       (t == TypeClass::Integer ? "an integer"
                        : t == TypeClass::Float ? "a floating-point value"
                                                : "a bool") +
                       ", not " + argKindName(a) + ":" + a.text + " (" +
                       (a.isFloat()                          ? "a floating-point value"
                        : a.kind == cli::ArgSpec::Kind::Bool ? "a bool"
                                                             : "an integer") +
                       "); give " +
                       (t == TypeClass::Integer ? "i8: u8: i16: u16: i32: u32: i64: or u64:"
                        : t == TypeClass::Float ? "f16: f32: or f64:"
                                                : "bool:") +
                       " of its " + std::to_string(meta[i].size) +
                       " bytes, or bytes:HEX for raw bits");
    // bytes: takes any size, so its size is checked here, against what the kernel expects.
    if (a.sizeBytes() != meta[i].size)
      throw InputError(which + " is " + std::to_string(meta[i].size) + " bytes, but " +
                       argKindName(a) +
                       (a.kind == cli::ArgSpec::Kind::Bytes ? ": gives " : " is ") +
                       std::to_string(a.sizeBytes()));
  }
}

// local:BYTES arguments are placed in the group segment after the kernel's own LDS, each at
// the alignment its metadata gives (.pointee_align; AMDGPUUsage, code object metadata), in
// argument order. Returns each argument's offset (0 for the others) and adds the bytes used to
// `dynamicLds`.
std::vector<uint32_t> placeLocalArgs(const loader::KernelInfo& k,
                                     const std::vector<cli::ArgSpec>& args, uint32_t& dynamicLds) {
  const auto meta = k.explicitArgs();
  std::vector<uint32_t> offsets(args.size(), 0);
  uint64_t end = k.groupSegmentFixedSize;
  bool any = false;
  for (size_t i = 0; i < args.size(); ++i) {
    if (!args[i].isLocal()) continue;
    // Without .pointee_align, 16 bytes: the largest scalar or 4-vector of 32-bit elements.
    const uint64_t align = meta[i].pointeeAlign ? meta[i].pointeeAlign : 16;
    end = (end + align - 1) / align * align;
    offsets[i] = static_cast<uint32_t>(end);
    end += args[i].bytes;
    any = true;
  }
  if (any) {
    const uint64_t total = end - k.groupSegmentFixedSize + dynamicLds;
    if (total > 65536)
      throw InputError("the local: arguments and --dynamic-lds need " + std::to_string(total) +
                       " bytes of LDS on top of the kernel's " +
                       std::to_string(k.groupSegmentFixedSize) + "; a workgroup has at most 65536");
    dynamicLds = static_cast<uint32_t>(total);
  }
  return offsets;
}

void warn(const std::string& message) {
  std::fprintf(stderr, "vgpu-sim: warning: %s\n", message.c_str());
}

// The first instruction of kernel `k` that reads or writes LDS memory, or nullptr. Not LDS
// memory: ds_swizzle/ds_permute/ds_bpermute (lanes only), ds_gws_* and ds_nop, and any DS
// instruction with its GDS bit (bit 16 of the DS format, Vega ISA guide "DS") set.
struct LdsAccess {
  std::string mnemonic;
  uint64_t offset = 0;  // in the code object, as vgpu-sim disasm prints it
};
std::optional<LdsAccess> firstLdsAccess(const loader::CodeObject& object,
                                        const loader::KernelInfo& k) {
  const auto& image = object.image();
  const uint64_t from = std::min<uint64_t>(k.entryAddress, image.size());
  const uint64_t to =
      std::min<uint64_t>(k.codeSize ? k.entryAddress + k.codeSize : object.textEnd(), image.size());
  if (to <= from) return std::nullopt;
  const isa::Program program = isa::Program::decode(
      std::vector<uint8_t>(image.begin() + static_cast<long>(from),
                           image.begin() + static_cast<long>(to)),
      from, object.processor() == "gfx900" ? isa::GfxTarget::Gfx900 : isa::GfxTarget::Gfx906);
  for (const isa::Instruction& inst : program.instructions()) {
    if (inst.op == nullptr || inst.op->enc != isa::Enc::Ds || (inst.words[0] >> 16) & 1) continue;
    const std::string name = inst.op->name;
    if (name.rfind("ds_swizzle", 0) == 0 || name.rfind("ds_permute", 0) == 0 ||
        name.rfind("ds_bpermute", 0) == 0 || name.rfind("ds_gws", 0) == 0 || name == "ds_nop")
      continue;
    return LdsAccess{name, inst.pc};
  }
  return std::nullopt;
}

// Launch mistakes that run without error but not as meant: warned about on stderr.
void warnAboutLaunch(const cli::Options& o, const loader::CodeObject& object,
                     const loader::KernelInfo& k, uint32_t dynamicLds) {
  static const char kAxis[] = "xyz";
  const bool isHip = object.offloadKind().rfind("hip", 0) == 0;  // "hip", "hipv4"
  for (int d = 0; d < 3; ++d)
    if (o.grid[d] < o.block[d]) {
      const uint64_t meant = uint64_t{o.grid[d]} * o.block[d];
      warn("--grid " + std::to_string(o.grid[d]) + " is smaller than one workgroup (--block " +
           std::to_string(o.block[d]) + ") in " + kAxis[d] +
           ": grid is given in work-items, not workgroups, so this runs one partial workgroup; "
           "for " +
           std::to_string(o.grid[d]) + " workgroups of " + std::to_string(o.block[d]) +
           " give --grid " + std::to_string(meant));
    } else if (o.grid[d] % o.block[d] != 0 && isHip) {
      // OpenCL 2.0 allows a partial last workgroup, and the HIP headers' blockDim reads the
      // same local size OpenCL's does (the dispatch packet's workgroup size, clamped to what
      // is left of the grid): HIP code indexing by blockIdx * blockDim goes wrong there.
      const uint32_t partial = o.grid[d] % o.block[d];
      const uint64_t whole = (uint64_t{o.grid[d]} / o.block[d] + 1) * o.block[d];
      warn("--grid " + std::to_string(o.grid[d]) + " is not a multiple of --block " +
           std::to_string(o.block[d]) + " in " + kAxis[d] + ": the last workgroup has " +
           std::to_string(partial) + " work-items and this HIP kernel's blockDim." + kAxis[d] +
           " is " + std::to_string(partial) + " there, so blockIdx." + kAxis[d] + " * blockDim." +
           kAxis[d] + " + threadIdx." + kAxis[d] +
           " is not a global index (hipLaunchKernel launches whole blocks only); give --grid " +
           std::to_string(whole) + " and let the kernel skip the work-items past the end");
    }
  // A kernel that allocates no LDS of its own but accesses LDS takes all of it from the launch
  // (HIP's extern __shared__, an OpenCL kernel's __local pointers): the metadata and kernel
  // descriptor say nothing more (group_segment_fixed_size 0), the code does.
  if (k.groupSegmentFixedSize == 0 && dynamicLds == 0)
    if (const auto access = firstLdsAccess(object, k))
      warn("kernel '" + k.name + "' accesses LDS (" + access->mnemonic + " at offset " +
           hex(access->offset) +
           ") but allocates none of its own and none was given: an extern __shared__ array "
           "needs --dynamic-lds BYTES (accesses outside the allocation read zeros and write "
           "nothing)");
}

// The hidden argument through which kernel `k` calls the host (printf), or "": OpenCL's printf
// writes to hidden_printf_buffer, HIP's printf (and other host calls) use
// hidden_hostcall_buffer (AMDGPUUsage, code object metadata). vgpu-sim passes neither (null).
std::string hostCallArgument(const loader::KernelInfo& k) {
  for (const loader::KernelArg& a : k.args)
    if (a.valueKind == "hidden_printf_buffer" || a.valueKind == "hidden_hostcall_buffer")
      return a.valueKind;
  return "";
}

std::string printfNote(const loader::KernelInfo& k, const std::string& argument) {
  return "kernel '" + k.name + "' calls printf (or another host service): its metadata has " +
         argument +
         ", a buffer the host runtime must provide and serve while the kernel runs; vgpu-sim run "
         "provides none, so the kernel faults when it reaches the call (remove the printf, or "
         "write what it would print to a buffer of its own)";
}

// Buffer arguments lie between guards of this many bytes that are never mapped, with or
// without --check-memory (the addresses, and so the timing, are the same either way).
constexpr uint64_t kBufferGuardBytes = 64 * 1024;

// A buffer argument as --check-memory names it.
struct BufferArg {
  size_t index = 0;        // among the explicit arguments (kernel argument N, --arg N + 1)
  std::string name, type;  // the metadata's .name and .type_name; either may be empty
  uint64_t address = 0, bytes = 0;
};

// --check-memory: the buffer argument whose guards hold `address`, and how far outside its bytes
// the access was; "" if the address is in no buffer's guards.
std::string nameStrayAccess(const std::vector<BufferArg>& buffers, uint64_t address) {
  for (const BufferArg& b : buffers) {
    const uint64_t mappedEnd = b.address + Runtime::allocationBytes(b.bytes);
    if (address + kBufferGuardBytes < b.address || address >= mappedEnd + kBufferGuardBytes)
      continue;
    if (address >= b.address && address < b.address + b.bytes) continue;  // inside: not it
    const bool before = address < b.address;
    const uint64_t distance = before ? b.address - address : address - (b.address + b.bytes);
    std::ostringstream os;
    os << "memory check: the access to " << hex(address) << " is " << distance << " byte"
       << (distance == 1 ? "" : "s") << (before ? " before the start of" : " past the end of");
    os << " kernel argument " << b.index;
    if (!b.name.empty()) os << " '" << b.name << "'";
    os << " (" << (b.type.empty() ? "" : b.type + ", ") << "--arg " << b.index + 1
       << "): a buffer of " << b.bytes << " bytes at " << hex(b.address) << ", offset "
       << (before ? "-" : "") << (before ? b.address - address : address - b.address) << " in it";
    return os.str();
  }
  return "";
}

struct RunOutcome {
  bool faulted = false;
  std::string fault;
};

nlohmann::json statisticsJson(const cli::Options& o, const PlatformConfig& platform, Gpu& gpu,
                              double hostSeconds, const RunOutcome& outcome) {
  nlohmann::json j = gpuStatisticsJson(platform, gpu);
  j["kernel"] = o.kernel;
  j["code_object"] = o.codeObject;
  j["host_seconds"] = hostSeconds;
  j["simulated_seconds"] = j["cycles"].get<uint64_t>() / (platform.clockMHz * 1e6);
  j["faulted"] = outcome.faulted;
  if (outcome.faulted) j["fault"] = outcome.fault;
  return j;
}

uint64_t cycles(const nlohmann::json& s) {
  return s["cycles"];
}

void printSummary(const nlohmann::json& s) {
  const uint64_t cycles = s["cycles"];
  const uint64_t insts = s["wave_instructions"];
  const double clock = s["clock_mhz"];
  char perCycle[64];
  if (s["mode"] == "functional")  // unit latencies: an instruction rate would mislead
    std::snprintf(perCycle, sizeof perCycle, "functional mode: no IPC");
  else
    std::snprintf(perCycle, sizeof perCycle, "%.2f per cycle",
                  cycles ? double(insts) / cycles : 0.0);
  std::printf(
      "kernel %s on %s: %llu cycles (%.3f us at %.0f MHz), %llu wave instructions "
      "(%s), %llu workgroups, %llu waves, %.3f s host time\n",
      s["kernel"].get<std::string>().c_str(), s["platform"].get<std::string>().c_str(),
      static_cast<unsigned long long>(cycles), cycles / clock, clock,
      static_cast<unsigned long long>(insts), perCycle,
      static_cast<unsigned long long>(s["workgroups"].get<uint64_t>()),
      static_cast<unsigned long long>(s["waves"].get<uint64_t>()), s["host_seconds"].get<double>());
}

int runCommand(const cli::Options& o) {
  const PlatformConfig platform = cli::platformForOptions(o);
  // From a fat bundle, the entry for the platform's processor.
  auto object = loader::CodeObject::loadFile(o.codeObject, platform.processor);
  const loader::KernelInfo* info = object.findKernel(o.kernel);
  if (info == nullptr) {
    std::ostringstream os;
    os << o.codeObject << ": no kernel named '" << o.kernel << "'; kernels in it:";
    for (const auto& k : object.kernels()) os << " " << k.name;
    throw InputError(os.str());
  }
  checkArgs(*info, o.args);
  uint32_t dynamicLds = o.dynamicLds;
  const std::vector<uint32_t> localOffsets = placeLocalArgs(*info, o.args, dynamicLds);
  warnAboutLaunch(o, object, *info, dynamicLds);
  const std::string hostCall = hostCallArgument(*info);
  const std::string printfHint = hostCall.empty() ? "" : printfNote(*info, hostCall);
  if (!printfHint.empty()) warn(printfHint);
  // Read input files up front: a missing file is bad input, found before simulating.
  std::vector<std::vector<uint8_t>> inputs(o.args.size());
  for (size_t i = 0; i < o.args.size(); ++i)
    if (o.args[i].kind == cli::ArgSpec::Kind::File) {
      inputs[i] = readFile(o.args[i].path, "--arg file");
      if (inputs[i].empty()) throw InputError("--arg file '" + o.args[i].path + "' is empty");
    }
  checkOutputPaths(o);
  for (size_t i = 0; i < o.args.size(); ++i)
    if (!o.args[i].outPath.empty())
      checkOutputPath(o.args[i].outPath, "--arg " + std::to_string(i + 1) + " out=");

  Simulation sim(platform);
  if (!o.reportPath.empty()) sim.gpu().enableActivitySampling();
  if (o.checkHazards) sim.gpu().enableHazardChecks();
  if (o.profileInstructions) sim.gpu().enableInstructionProfile(o.profileInstructions);
  // Progress only where someone watches: a terminal, or asked for with --progress.
  std::unique_ptr<ProgressMeter> progress;
  const bool terminal = ::isatty(::fileno(stderr)) != 0;
  if (!o.quiet && (terminal || o.progress)) {
    ProgressOptions po;
    po.inPlace = terminal;
    progress = std::make_unique<ProgressMeter>("progress", sim.gpu(), po);
  }
  RunOutcome outcome;
  std::vector<std::vector<uint8_t>> outputs(o.args.size());
  std::vector<BufferArg> bufferArgs;
  const auto start = std::chrono::steady_clock::now();
  try {
    sim.run([&](Runtime& rt) {
      const Module& m = rt.loadModule(std::move(object), o.codeObject);
      const Kernel k = rt.kernel(m, o.kernel);
      std::vector<KernelArg> args;
      std::vector<uint64_t> buffers(o.args.size(), 0);
      const auto meta = k.info->explicitArgs();
      for (size_t i = 0; i < o.args.size(); ++i) {
        const cli::ArgSpec& a = o.args[i];
        if (a.isBuffer()) {
          const bool file = a.kind == cli::ArgSpec::Kind::File;
          const uint64_t bytes = file ? inputs[i].size() : a.bytes;
          buffers[i] = rt.mallocGuarded(bytes, kBufferGuardBytes, o.checkMemory);
          if (file)
            rt.copyToDevice(buffers[i], inputs[i].data(), bytes);
          else
            rt.memset(buffers[i], 0, bytes);
          args.push_back(KernelArg::pointer(buffers[i]));
          bufferArgs.push_back({i, meta[i].name, meta[i].typeName, buffers[i], bytes});
        } else if (a.isLocal()) {
          // The kernarg holds the 32-bit group-segment offset of the argument's LDS.
          KernelArg arg = KernelArg::value(localOffsets[i]);
          arg.kind = KernelArg::Kind::Pointer;
          args.push_back(arg);
        } else {
          KernelArg arg;
          arg.bytes = a.valueBytes();
          args.push_back(arg);
        }
      }
      LaunchConfig c;
      c.grid = {o.grid[0], o.grid[1], o.grid[2]};
      c.block = {o.block[0], o.block[1], o.block[2]};
      c.dynamicLdsBytes = dynamicLds;
      c.globalOffset = {o.globalOffset[0], o.globalOffset[1], o.globalOffset[2]};
      rt.launch(k, c, args);
      rt.synchronize();
      for (size_t i = 0; i < o.args.size(); ++i)
        if (!o.args[i].outPath.empty()) {
          const uint64_t n =
              o.args[i].kind == cli::ArgSpec::Kind::File ? inputs[i].size() : o.args[i].bytes;
          outputs[i].resize(n);
          rt.copyFromDevice(outputs[i].data(), buffers[i], n);
        }
    });
  } catch (const KernelFault& f) {
    outcome.faulted = true;
    outcome.fault = f.what();
    // The GPU's FAULT_ADDRESS register, as Runtime read it when the queue reported the fault.
    if (o.checkMemory)
      if (const auto address = f.refusedAddress()) {
        const std::string named = nameStrayAccess(bufferArgs, *address);
        if (!named.empty()) outcome.fault += "\n  " + named;
      }
    // A fault at a small address is the call writing through the null buffer: say so.
    if (!printfHint.empty()) outcome.fault += "\n  note: probably printf: " + printfHint;
  }
  const double hostSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (progress) progress->finish();

  // A window outside the kernel would otherwise leave an empty trace without a word.
  for (const std::string& w : sim.gpu().emptyTraceWindows()) warn(w);
  const nlohmann::json stats = statisticsJson(o, platform, sim.gpu(), hostSeconds, outcome);
  // Statistics are written even for a faulted kernel: they show how far it got.
  if (!o.statsPath.empty()) writeFileAtomically(o.statsPath, stats.dump(2) + "\n");
  if (!o.reportPath.empty()) writeFileAtomically(o.reportPath, renderHtmlReport(stats));
  // --check-hazards: every finding on stderr, faulted or not (a missing wait state may be why).
  if (o.checkHazards) {
    const auto findings = sim.gpu().hazardFindings();
    for (const auto& f : findings)
      std::fprintf(stderr, "vgpu-sim: %s\n", isa::describeHazard(f).c_str());
    if (findings.empty() && !o.quiet)
      std::fprintf(
          stderr, "vgpu-sim: hazard check: all required wait states present (%llu instructions)\n",
          static_cast<unsigned long long>(sim.gpu().hazardChecker()->instructionsChecked()));
  }
  // The summary goes to stderr, after the one-line result on stdout.
  auto summary = [&] {
    if (o.quiet) return;
    std::fflush(stdout);
    std::string text = formatRunSummary(summarizeRun(stats));
    if (!o.reportPath.empty()) text += "  report     " + o.reportPath + "\n";
    std::fputs(text.c_str(), stderr);
  };
  if (outcome.faulted) {
    summary();
    std::fprintf(stderr, "vgpu-sim: %s\n", outcome.fault.c_str());
    return 3;
  }
  for (size_t i = 0; i < o.args.size(); ++i)
    if (!o.args[i].outPath.empty())
      writeFileAtomically(o.args[i].outPath, outputs[i].data(), outputs[i].size());
  if (!o.quiet) printSummary(stats);
  summary();
  if (!o.quiet && (!o.vcdPath.empty() || !o.rtlVcdPath.empty() || !o.timelinePath.empty())) {
    const uint64_t start = stats["start_cycle"], end = start + cycles(stats);
    auto written = [&](const std::string& path, const char* what) {
      if (!path.empty()) std::printf("%s: %s\n", what, path.c_str());
    };
    written(o.vcdPath, "model activity (VCD)");
    written(o.timelinePath, "timeline (trace-event JSON, ui.perfetto.dev)");
    written(o.rtlVcdPath, "waveform of compute unit 0's LDS arbiter");
    std::printf(
        "the kernel ran in GPU cycles %llu..%llu, the cycles --vcd-window and "
        "--timeline-window take (kernel+START:END counts from its start)\n",
        static_cast<unsigned long long>(start), static_cast<unsigned long long>(end));
  }
  return 0;
}

int listCommand(const cli::Options& o) {
  const auto object = loader::CodeObject::loadFile(o.codeObject);
  std::printf("%s: %s, code object v%u\n%s", o.codeObject.c_str(), object.processor().c_str(),
              object.codeObjectVersion(), loader::describeKernels(object).c_str());
  return 0;
}

int disasmCommand(const cli::Options& o) {
  const auto object = loader::CodeObject::loadFile(o.codeObject);
  const isa::GfxTarget target =
      object.processor() == "gfx900" ? isa::GfxTarget::Gfx900 : isa::GfxTarget::Gfx906;
  const auto& image = object.image();
  const uint64_t start = std::min<uint64_t>(object.textStart(), image.size());
  const uint64_t end = std::min<uint64_t>(object.textEnd(), image.size());
  const std::vector<uint8_t> text(image.begin() + static_cast<long>(start),
                                  image.begin() + static_cast<long>(end));
  const isa::Program program = isa::Program::decode(text, start, target);

  uint64_t from = start, to = end;
  if (!o.kernel.empty()) {
    const loader::KernelInfo* k = object.findKernel(o.kernel);
    if (k == nullptr) {
      std::ostringstream os;
      os << o.codeObject << ": no kernel named '" << o.kernel << "'; kernels in it:";
      for (const auto& kk : object.kernels()) os << " " << kk.name;
      throw InputError(os.str());
    }
    from = k->entryAddress;
    to = k->codeSize ? k->entryAddress + k->codeSize : end;
  }
  // Function symbols name the places where a new function starts, as llvm-objdump prints them.
  std::map<uint64_t, std::string> labels;
  for (const auto& s : object.symbols())
    if (s.type == 2 /* STT_FUNC */ && s.value >= from && s.value < to) labels[s.value] = s.name;
  for (const auto& inst : program.instructions()) {
    if (inst.pc < from || inst.pc >= to) continue;
    auto label = labels.find(inst.pc);
    if (label != labels.end())
      std::printf("\n%016llx <%s>:\n", static_cast<unsigned long long>(inst.pc),
                  label->second.c_str());
    std::string line = "\t" + isa::disassemble(inst, target);
    if (line.size() < 60) line.resize(60, ' ');
    std::printf("%s // %012llX:", line.c_str(), static_cast<unsigned long long>(inst.pc));
    for (unsigned w = 0; w < inst.sizeBytes / 4 && w < 3; ++w) std::printf(" %08X", inst.words[w]);
    std::printf("\n");
  }
  return 0;
}

int platformsCommand() {
  for (const auto& p : builtinPlatforms()) {
    std::string aliases;
    for (const std::string& a : p.aliases) aliases += (aliases.empty() ? "" : ", ") + a;
    std::printf("%-10s %s%s\n", p.name.c_str(), p.description.c_str(),
                aliases.empty() ? "" : (" (also: " + aliases + ")").c_str());
  }
  return 0;
}

// The file execvp runs for `program`: itself when it names a path, else the first executable
// of that name on PATH; empty when there is none.
std::string programFile(const std::string& program) {
  if (program.find('/') != std::string::npos) return program;
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    const std::string candidate = (dir.empty() ? std::string(".") : dir) + "/" + program;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return {};
}

// The GPU processors a program's own device code is built for: the amdgcn entries of the clang
// offload bundles that hipcc puts in the host executable's .hip_fatbin section (one bundle per
// translation unit, each starting on its own alignment). Empty when the file is not an ELF
// executable with such a section (a script, a program whose GPU code is all in libraries), or
// cannot be read: the check it serves is only a hint.
std::set<std::string> fatbinProcessors(const std::string& file) {
  std::set<std::string> processors;
  const int fd = file.empty() ? -1 : open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return processors;
  struct stat st {};
  void* map = MAP_FAILED;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
    map = mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (map == MAP_FAILED) return processors;
  const auto* data = static_cast<const uint8_t*>(map);
  const size_t size = static_cast<size_t>(st.st_size);
  try {
    loader::elf::ElfFile elf(data, size, file);
    if (const loader::elf::Section* fatbin = elf.findSection(".hip_fatbin")) {
      const uint8_t* section = data + fatbin->offset;
      for (uint64_t at = 0; at + loader::bundle::kMagicSize <= fatbin->size; at += 8) {
        if (!loader::bundle::isBundle(section + at, fatbin->size - at)) continue;
        for (const auto& entry : loader::bundle::readEntries(section + at, fatbin->size - at, file))
          if (entry.isAmdhsa) processors.insert(entry.processor);
      }
    }
  } catch (const InputError&) {
    processors.clear();  // not an ELF file, or a malformed bundle: no hint
  }
  munmap(map, size);
  return processors;
}

// `vgpu-sim exec [OPTION]... -- PROGRAM [ARGUMENT]...`: runs the program with vgpu's
// libhsa-runtime64.so.1 ahead of the system's on the library path, so that Debian's HIP runtime
// (libamdhip64) loads it; the options go to it as VGPU_* variables. Returns the program's exit
// status (128 + signal when a signal ended it).
int execCommand(const std::vector<std::string>& args) {
  const auto dash = std::find(args.begin(), args.end(), "--");
  // --help (or -h) among the options, with or without a program after them, as every other
  // command takes it.
  const std::vector<std::string> options(args.begin() + 1, dash);
  for (const std::string& option : options)
    if (option == "--help" || option == "-h") {
      std::fputs(cli::help("exec").c_str(), stdout);
      return 0;
    }
  if (dash == args.end() || dash + 1 == args.end())
    throw InputError("usage: vgpu-sim exec [OPTION]... -- PROGRAM [ARGUMENT]...");
  const std::vector<std::string> program(dash + 1, args.end());
  const auto variables = cli::execEnvironment(options);
  // The library sits in ../lib beside bin/vgpu-sim, in the build tree and when installed.
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe");
  const std::filesystem::path lib = self.parent_path().parent_path() / "lib";
  if (!std::filesystem::exists(lib / "libhsa-runtime64.so.1"))
    throw InputError("vgpu-sim exec needs vgpu's libhsa-runtime64.so.1 in " + lib.string() +
                     " (the vgpu_hsa_runtime target; scripts/build builds it)");
  const char* old = std::getenv("LD_LIBRARY_PATH");
  const std::string path = lib.string() + (old && *old ? ":" + std::string(old) : "");
  setenv("LD_LIBRARY_PATH", path.c_str(), 1);
  bool quiet = false;
  for (const auto& [name, value] : variables) {
    setenv(name.c_str(), value.c_str(), 1);
    if (name == "VGPU_QUIET") quiet = value != "0" && value != "false" && value != "off";
  }
  if (!quiet) setenv("VGPU_SUMMARY", "1", 1);
  // A program built for another GPU: Debian's HIP runtime stops it with "Unable to find code
  // object for all current devices", which does not say which GPU it wanted or how to build for
  // the simulated one. The platform is the one vgpu's library will read from the variables.
  const cli::Options given = cli::fromEnvironment();
  const PlatformConfig platform = cli::platformForOptions(given);
  // The program would run on without the GPU (vgpu's library refuses to start it), and fail in
  // its own words.
  checkOutputPaths(given);
  const std::set<std::string> built = fatbinProcessors(programFile(program[0]));
  if (!built.empty() && built.count(platform.processor) == 0) {
    std::string list, others;
    for (const std::string& p : built) list += (list.empty() ? "" : ", ") + p;
    for (const auto& b : builtinPlatforms())
      if (built.count(loadPlatform(b.name).processor))
        others += (others.empty() ? "" : ", ") + b.name;
    std::fprintf(
        stderr,
        "vgpu-sim: exec: '%s' holds GPU code for %s only, and the platform %s is a %s: "
        "the HIP runtime will find no code object for it (build with "
        "--offload-arch=%s%s)\n",
        program[0].c_str(), list.c_str(), platform.name.c_str(), platform.processor.c_str(),
        platform.processor.c_str(),
        others.empty() ? "" : (", or run it on a " + list + " platform: " + others).c_str());
  }
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t child = fork();
  if (child < 0) throw std::runtime_error("fork failed");
  if (child == 0) {
    std::vector<char*> argv;
    for (const std::string& a : program) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execvp(argv[0], argv.data());
    std::fprintf(stderr, "vgpu-sim: exec: cannot run '%s': %s\n", argv[0], std::strerror(errno));
    _exit(127);
  }
  int status = 0;
  while (waitpid(child, &status, 0) < 0)
    if (errno != EINTR) throw std::runtime_error("waitpid failed");
  if (WIFSIGNALED(status)) {
    std::fprintf(stderr, "vgpu-sim: exec: '%s' was ended by signal %d (%s)\n", program[0].c_str(),
                 WTERMSIG(status), strsignal(WTERMSIG(status)));
    return 128 + WTERMSIG(status);
  }
  return WEXITSTATUS(status);
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  std::vector<std::string> args(argv + 1, argv + argc);
  try {
    // exec's own syntax: the program after -- is not for the option table.
    if (!args.empty() && args[0] == "exec") return execCommand(args);
    // The command line over its --options file over the VGPU_* environment.
    const cli::Options o = cli::parse(args, cli::Environment::Read);
    if (o.command == "help") {
      std::fputs((o.helpTopic.empty() ? cli::usage() : cli::help(o.helpTopic)).c_str(), stdout);
      return 0;
    }
    if (o.command == "run") return runCommand(o);
    if (o.command == "list") return listCommand(o);
    if (o.command == "disasm") return disasmCommand(o);
    if (o.command == "platforms") return platformsCommand();
    if (o.command == "version") {
      std::printf("vgpu-sim %s\n", VGPU_VERSION);
      return 0;
    }
  } catch (const InputError& e) {
    std::fprintf(stderr, "vgpu-sim: %s\n", e.what());
    return 2;
  } catch (const KernelFault& e) {
    std::fprintf(stderr, "vgpu-sim: %s\n", e.what());
    return 3;
  } catch (const std::exception& e) {
    // Anything else is a simulator bug: say so plainly rather than crash.
    std::fprintf(stderr, "vgpu-sim: internal error: %s\n", e.what());
    return 4;
  }
  return 2;
}

int main(int argc, char* argv[]) {
  // SystemC prints a banner on first use unless told not to; vgpu-sim's output is for users.
  ::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  return sc_core::sc_elab_and_sim(argc, argv);
}
