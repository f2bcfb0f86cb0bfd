// Code objects and executables (hsa.h, hsa_code_object_reader_* and hsa_executable_*) over
// the project's loader (models/loader/CodeObject.h), placed in device memory as the C++ runtime
// does (models/runtime/Runtime.cpp, Runtime::loadModule).
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>

#include "common/Error.h"
#include "runtime/hsa/HsaRuntime.h"

namespace vgpu::hsa {

namespace {

// ELF e_flags target features of code object v4 and later (LLVM AMDGPUUsage, "ELF Header",
// EF_AMDGPU_FEATURE_XNACK_V4 / EF_AMDGPU_FEATURE_SRAMECC_V4): 0 unsupported, 1 any, 2 off, 3 on.
constexpr uint32_t kXnackShift = 8, kSrameccShift = 10;
uint32_t feature(uint32_t flags, uint32_t shift) {
  return (flags >> shift) & 3;
}

// Whether a code object built for `object` runs on the agent's ISA (a target ID with xnack off,
// and sramecc on for gfx906): the processor must match (a gfx906 also runs gfx900 code, as the
// C++ runtime allows), and a feature the object requires must be the agent's setting.
hsa_status_t checkIsa(const loader::CodeObject& object, const std::string& agentProcessor) {
  const std::string processor = object.processor();
  if (processor != agentProcessor && !(agentProcessor == "gfx906" && processor == "gfx900"))
    return HSA_STATUS_ERROR_INVALID_ISA;
  if (object.codeObjectVersion() >= 4) {
    const uint32_t flags = object.elfFlags();
    if (feature(flags, kXnackShift) == 3) return HSA_STATUS_ERROR_INVALID_ISA;  // xnack+
    if (processor == "gfx906" && agentProcessor == "gfx906" &&
        feature(flags, kSrameccShift) == 2)  // sramecc- on an sramecc+ agent
      return HSA_STATUS_ERROR_INVALID_ISA;
  }
  return HSA_STATUS_SUCCESS;
}

bool endsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// What the loader's errors say when a code object is for another processor
// (models/loader/CodeObject.cpp).
constexpr char kSupportedText[] = "vgpu runs gfx906 and gfx900";

constexpr uint8_t kSttObject = 1;
constexpr uint8_t kStbGlobal = 1, kStbWeak = 2;

}  // namespace

hsa_status_t Runtime::loadCodeObject(Executable& e, Agent& agent, const CodeObjectReader& r,
                                     hsa_loaded_code_object_t* out) {
  if (e.frozen) return HSA_STATUS_ERROR_FROZEN_EXECUTABLE;
  if (!agent.gpu) return HSA_STATUS_ERROR_INVALID_AGENT;
  auto lco = std::make_unique<LoadedCodeObject>();
  try {
    lco->object = loader::CodeObject::fromBytes(r.bytes, r.name, isa_.processor);
  } catch (const std::exception& ex) {
    std::fprintf(stderr, "vgpu: %s\n", ex.what());
    // Code for another processor (the loader names the supported ones) is an ISA mismatch;
    // anything else is a bad code object.
    return std::string(ex.what()).find(kSupportedText) != std::string::npos
               ? HSA_STATUS_ERROR_INVALID_ISA
               : HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  }
  if (hsa_status_t s = checkIsa(lco->object, isa_.processor); s != HSA_STATUS_SUCCESS) {
    std::fprintf(stderr, "vgpu: code object %s is for %s (e_flags 0x%x), not %s\n", r.name.c_str(),
                 lco->object.target().c_str(), lco->object.elfFlags(), isa_.name.c_str());
    return s;
  }
  const std::vector<uint8_t>& image = lco->object.image();
  const uint64_t bytes = std::max<uint64_t>(image.size(), 256);
  std::optional<uint64_t> base = port_->allocateDevice(bytes, kPageBytes);
  if (!base) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  {
    std::lock_guard<std::mutex> lock(memoryMutex_);
    Allocation a;
    a.bytes = bytes;
    a.device = true;
    allocations_[*base] = a;  // pool nullptr: freed with the executable, not by the application
  }
  lco->base = *base;
  lco->bytes = image.size();
  lco->hostImage = lco->object.relocatedImage(*base);
  port_->writeDevice(*base, lco->hostImage.data(), lco->hostImage.size());
  lco->storage = r.bytes;
  lco->executable = &e;
  lco->agent = &agent;
  // Only what the host knows goes to the GPU's debug interface: names and placement.
  port_->codeObjectLoaded(*base, image.size());
  for (const loader::KernelInfo& k : lco->object.kernels())
    port_->nameKernel(*base + k.descriptorAddress, k.name);

  // Symbols: kernels by their descriptor symbol (NAME.kd, code object v3 and later), and the
  // global and weak data objects (HIP __device__ and __constant__ variables).
  for (const loader::KernelInfo& k : lco->object.kernels()) {
    auto s = std::make_unique<ExecutableSymbol>();
    s->executable = &e;
    s->agent = &agent;
    s->name = k.symbol.empty() ? k.name + ".kd" : k.symbol;
    s->kernel = true;
    s->address = *base + k.descriptorAddress;
    s->size = 64;
    s->kernargSize = k.kernargSegmentSize;
    s->kernargAlign = std::max<uint32_t>(k.kernargSegmentAlign, 16);
    s->groupSize = k.groupSegmentFixedSize;
    s->privateSize = k.privateSegmentFixedSize;
    s->dynamicCallStack = k.usesDynamicStack;
    e.symbols.push_back(std::move(s));
  }
  for (const loader::Symbol& sym : lco->object.symbols()) {
    if (sym.type != kSttObject || (sym.binding != kStbGlobal && sym.binding != kStbWeak)) continue;
    if (endsWith(sym.name, ".kd")) continue;
    auto s = std::make_unique<ExecutableSymbol>();
    s->executable = &e;
    s->agent = &agent;
    s->name = sym.name;
    s->address = *base + sym.value;
    s->size = sym.size;
    e.symbols.push_back(std::move(s));
  }
  if (out != nullptr) out->handle = reinterpret_cast<uint64_t>(lco.get());
  e.objects.push_back(std::move(lco));
  return HSA_STATUS_SUCCESS;
}

void Runtime::destroyExecutable(Executable* e) {
  for (const auto& lco : e->objects) {
    port_->codeObjectUnloaded(lco->base);
    {
      std::lock_guard<std::mutex> lock(memoryMutex_);
      allocations_.erase(lco->base);
    }
    port_->freeDevice(lco->base);
  }
  delete e;
}

}  // namespace vgpu::hsa
