#include "fuzz/FuzzTargets.h"

#include <algorithm>
#include <cstring>
#include <memory>

#include "common/Error.h"
#include "isa/Isa.h"
#include "isa/MemRequest.h"
#include "isa/WaveState.h"
#include "loader/CodeObject.h"
#include "loader/KernelListing.h"
#include "loader/Metadata.h"
#include "loader/Msgpack.h"
#include "loader/OffloadBundle.h"
#include "platforms/Platform.h"
#include "sc_main/CommandLine.h"

namespace vgpu::fuzz {

namespace {

// Where the image is loaded: any base works; one above 4 GiB gives 64-bit relocations and
// branch targets non-zero high halves.
constexpr uint64_t kLoadBase = 0x100000000ull;

// Decodes and disassembles [start, end) of an image as the runtime and `vgpu-sim disasm` do.
void decodeText(const std::vector<uint8_t>& image, uint64_t start, uint64_t end,
                isa::GfxTarget target) {
  start = std::min<uint64_t>(start, image.size());
  end = std::min<uint64_t>(std::max(end, start), image.size());
  const std::vector<uint8_t> text(image.begin() + static_cast<long>(start),
                                  image.begin() + static_cast<long>(end));
  const isa::Program program = isa::Program::decode(text, kLoadBase + start, target);
  for (const auto& inst : program.instructions()) (void)isa::disassemble(inst, target);
}

}  // namespace

void runLoader(const uint8_t* data, size_t size) {
  const std::vector<uint8_t> bytes(data, data + size);
  try {
    const auto object = loader::CodeObject::fromBytes(bytes, "fuzz.co");
    (void)loader::describeKernels(object);
    for (const auto& k : object.kernels()) {
      (void)loader::describeArgs(k);
      (void)k.descriptor.vgprCount();
    }
    const auto image = object.relocatedImage(kLoadBase);
    decodeText(image, object.textStart(), object.textEnd(),
               object.processor() == "gfx900" ? isa::GfxTarget::Gfx900 : isa::GfxTarget::Gfx906);
  } catch (const InputError&) {
  }
  try {
    if (loader::bundle::isBundle(data, size))
      for (const auto& e : loader::bundle::readEntries(data, size, "fuzz.co"))
        (void)loader::bundle::describeTriple(e.triple);
  } catch (const InputError&) {
  }
  try {
    (void)loader::parseMetadata(data, size, "fuzz.co");
  } catch (const InputError&) {
  }
}

void runIsa(const uint8_t* data, size_t size) {
  if (size < 1) return;
  const isa::GfxTarget target = (data[0] & 1) ? isa::GfxTarget::Gfx900 : isa::GfxTarget::Gfx906;
  // 4 to 256 VGPRs, as a kernel descriptor may allocate.
  const uint32_t vgprs = ((data[0] >> 1) % 64 + 1) * 4;
  ++data, --size;
  const std::vector<uint8_t> code(data, data + size - size % 4);
  const isa::Program program = isa::Program::decode(code, kLoadBase, target);

  auto wave = std::make_unique<isa::WaveState>();
  wave->resizeVgprs(vgprs);
  // Registers from the input's own bytes, so operands reach unusual values (and the code's
  // bytes double as data, as in a real wave whose registers hold anything).
  for (size_t i = 0; i < wave->sgpr.size() && !code.empty(); ++i)
    std::memcpy(&wave->sgpr[i], &code[(i * 4) % code.size()],
                std::min<size_t>(4, code.size() - (i * 4) % code.size()));
  for (size_t i = 0; i < wave->vgpr.size() && !code.empty(); ++i)
    wave->vgpr[i] = static_cast<uint32_t>(code[i % code.size()]) * 0x01010101u;
  wave->exec = ~0ull;
  std::vector<uint8_t> lds(64 * 1024, 0);
  isa::ExecContext ctx;
  ctx.target = target;
  ctx.ldsSize = static_cast<uint32_t>(lds.size());
  ctx.ldsData = lds.data();
  auto mem = std::make_unique<isa::MemRequest>();
  for (const auto& inst : program.instructions()) {
    (void)isa::disassemble(inst, target);
    wave->pc = inst.pc;
    *mem = isa::MemRequest{};
    const isa::StepResult r = isa::execute(inst, *wave, *mem, ctx);
    // Memory instructions come back with whatever their request holds, as a load of those
    // bytes would.
    if (r.kind == isa::StepKind::Memory) isa::completeMemory(*wave, *mem);
  }
}

void runPlatform(const uint8_t* data, size_t size) {
  try {
    (void)parsePlatform(std::string(reinterpret_cast<const char*>(data), size), "fuzz.json");
  } catch (const InputError&) {
  }
}

void runCommandLine(const uint8_t* data, size_t size) {
  std::vector<std::string> argv(1);
  for (size_t i = 0; i < size; ++i) {
    if (data[i] == 0 || data[i] == '\n')
      argv.emplace_back();
    else
      argv.back() += static_cast<char>(data[i]);
  }
  // --options would read whatever file the input spells (/dev/stdin waits for a terminal);
  // option files' text goes through parseOptionText below instead.
  const bool namesAFile = std::any_of(
      argv.begin(), argv.end(), [](const std::string& a) { return a.rfind("--options", 0) == 0; });
  try {
    if (!namesAFile) (void)cli::parse(argv);
  } catch (const InputError&) {
  }
  // The same bytes as the text of an option file: its lines reach the same option table.
  try {
    (void)cli::parseOptionText(std::string(reinterpret_cast<const char*>(data), size), "fuzz.cfg");
  } catch (const InputError&) {
  }
}

const std::vector<Target>& targets() {
  static const std::vector<Target> all{{"loader", runLoader},
                                       {"isa", runIsa},
                                       {"platform", runPlatform},
                                       {"command_line", runCommandLine}};
  return all;
}

}  // namespace vgpu::fuzz
