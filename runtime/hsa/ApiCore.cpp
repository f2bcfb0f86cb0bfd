// Initialisation, system and agent queries, ISAs, caches, regions and memory pools (HSA Runtime
// Programmer's Reference Manual 1.2, chapter 2; hsa.h, and hsa_ext_amd.h for the hsa_amd_*
// memory functions).
#include <sys/mman.h>

#include <cstdlib>
#include <cstring>

#include "runtime/hsa/HsaRuntime.h"

using vgpu::hsa::Agent;
using vgpu::hsa::Allocation;
using vgpu::hsa::GpuPort;
using vgpu::hsa::Pool;
using vgpu::hsa::Runtime;

#define VGPU_RUNTIME(rt)        \
  Runtime* rt = Runtime::get(); \
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED

namespace {

// hsa_ext_amd.h declares the AMD status codes in an enum of their own.
constexpr hsa_status_t kInvalidPool = hsa_status_t(HSA_STATUS_ERROR_INVALID_MEMORY_POOL);

Agent* agentOf(Runtime* rt, hsa_agent_t a) {
  return rt->isAgent(a) ? reinterpret_cast<Agent*>(a.handle) : nullptr;
}
Pool* poolOf(Runtime* rt, uint64_t handle) {
  return rt->isPool(handle) ? reinterpret_cast<Pool*>(handle) : nullptr;
}
hsa_agent_t handleOf(Agent& a) {
  return hsa_agent_t{reinterpret_cast<uint64_t>(&a)};
}

// The single wavefront size of the ISA (hsa.h, hsa_isa_iterate_wavefronts).
struct Wavefront {
  uint32_t size = 64;
} gWavefront;

// The DMA engine's dependencies: the handles of `count` signals, each one a signal of the runtime
// (HSA_STATUS_ERROR_INVALID_SIGNAL otherwise).
hsa_status_t dependencyHandles(Runtime* rt, uint32_t count, const hsa_signal_t* signals,
                               std::vector<uint64_t>& handles) {
  for (uint32_t i = 0; i < count; ++i) {
    if (!rt->isSignal(signals[i])) return HSA_STATUS_ERROR_INVALID_SIGNAL;
    handles.push_back(signals[i].handle);
  }
  return HSA_STATUS_SUCCESS;
}

bool supportedExtension(uint16_t extension, uint16_t major) {
  return (extension == HSA_EXTENSION_AMD_LOADER || extension == HSA_EXTENSION_AMD_PROFILER ||
          extension == HSA_EXTENSION_IMAGES) &&
         major == 1;
}

}  // namespace

extern "C" {

hsa_status_t HSA_API hsa_init() {
  return Runtime::init();
}

hsa_status_t HSA_API hsa_shut_down() {
  return Runtime::shutDown();
}

hsa_status_t HSA_API hsa_status_string(hsa_status_t status, const char** status_string) {
  if (status_string == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const char* s = nullptr;
  switch (status) {
    case HSA_STATUS_SUCCESS:
      s = "HSA_STATUS_SUCCESS: the function succeeded";
      break;
    case HSA_STATUS_INFO_BREAK:
      s = "HSA_STATUS_INFO_BREAK: a callback stopped the iteration";
      break;
    case HSA_STATUS_ERROR:
      s = "HSA_STATUS_ERROR: generic error";
      break;
    case HSA_STATUS_ERROR_INVALID_ARGUMENT:
      s = "HSA_STATUS_ERROR_INVALID_ARGUMENT: an argument is invalid";
      break;
    case HSA_STATUS_ERROR_INVALID_QUEUE_CREATION:
      s = "HSA_STATUS_ERROR_INVALID_QUEUE_CREATION: the queue cannot be created";
      break;
    case HSA_STATUS_ERROR_INVALID_ALLOCATION:
      s = "HSA_STATUS_ERROR_INVALID_ALLOCATION: invalid allocation";
      break;
    case HSA_STATUS_ERROR_INVALID_AGENT:
      s = "HSA_STATUS_ERROR_INVALID_AGENT: invalid agent";
      break;
    case HSA_STATUS_ERROR_INVALID_REGION:
      s = "HSA_STATUS_ERROR_INVALID_REGION: invalid region or memory pool";
      break;
    case HSA_STATUS_ERROR_INVALID_SIGNAL:
      s = "HSA_STATUS_ERROR_INVALID_SIGNAL: invalid signal";
      break;
    case HSA_STATUS_ERROR_INVALID_QUEUE:
      s = "HSA_STATUS_ERROR_INVALID_QUEUE: invalid queue";
      break;
    case HSA_STATUS_ERROR_OUT_OF_RESOURCES:
      s = "HSA_STATUS_ERROR_OUT_OF_RESOURCES: out of resources";
      break;
    case HSA_STATUS_ERROR_INVALID_PACKET_FORMAT:
      s = "HSA_STATUS_ERROR_INVALID_PACKET_FORMAT: invalid AQL packet";
      break;
    case HSA_STATUS_ERROR_RESOURCE_FREE:
      s = "HSA_STATUS_ERROR_RESOURCE_FREE: resource still in use";
      break;
    case HSA_STATUS_ERROR_NOT_INITIALIZED:
      s = "HSA_STATUS_ERROR_NOT_INITIALIZED: hsa_init has not been called";
      break;
    case HSA_STATUS_ERROR_REFCOUNT_OVERFLOW:
      s = "HSA_STATUS_ERROR_REFCOUNT_OVERFLOW: too many hsa_init calls";
      break;
    case HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS:
      s = "HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS: incompatible arguments";
      break;
    case HSA_STATUS_ERROR_INVALID_INDEX:
      s = "HSA_STATUS_ERROR_INVALID_INDEX: invalid index";
      break;
    case HSA_STATUS_ERROR_INVALID_ISA:
      s = "HSA_STATUS_ERROR_INVALID_ISA: the code object is not for this GPU's ISA";
      break;
    case HSA_STATUS_ERROR_INVALID_ISA_NAME:
      s = "HSA_STATUS_ERROR_INVALID_ISA_NAME: invalid ISA name";
      break;
    case HSA_STATUS_ERROR_INVALID_CODE_OBJECT:
      s = "HSA_STATUS_ERROR_INVALID_CODE_OBJECT: invalid code object";
      break;
    case HSA_STATUS_ERROR_INVALID_EXECUTABLE:
      s = "HSA_STATUS_ERROR_INVALID_EXECUTABLE: invalid executable";
      break;
    case HSA_STATUS_ERROR_FROZEN_EXECUTABLE:
      s = "HSA_STATUS_ERROR_FROZEN_EXECUTABLE: the executable is frozen";
      break;
    case HSA_STATUS_ERROR_INVALID_SYMBOL_NAME:
      s = "HSA_STATUS_ERROR_INVALID_SYMBOL_NAME: no symbol of that name";
      break;
    case HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED:
      s = "HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED: variable already defined";
      break;
    case HSA_STATUS_ERROR_VARIABLE_UNDEFINED:
      s = "HSA_STATUS_ERROR_VARIABLE_UNDEFINED: variable undefined";
      break;
    case HSA_STATUS_ERROR_EXCEPTION:
      s = "HSA_STATUS_ERROR_EXCEPTION: the GPU reported an exception (a faulting packet)";
      break;
    case HSA_STATUS_ERROR_INVALID_CODE_SYMBOL:
      s = "HSA_STATUS_ERROR_INVALID_CODE_SYMBOL: invalid code symbol";
      break;
    case HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL:
      s = "HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL: invalid executable symbol";
      break;
    case HSA_STATUS_ERROR_INVALID_FILE:
      s = "HSA_STATUS_ERROR_INVALID_FILE: invalid file";
      break;
    case HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER:
      s = "HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER: invalid code object reader";
      break;
    case HSA_STATUS_ERROR_INVALID_CACHE:
      s = "HSA_STATUS_ERROR_INVALID_CACHE: invalid cache";
      break;
    case HSA_STATUS_ERROR_INVALID_WAVEFRONT:
      s = "HSA_STATUS_ERROR_INVALID_WAVEFRONT: invalid wavefront";
      break;
    case HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP:
      s = "HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP: invalid signal group";
      break;
    case HSA_STATUS_ERROR_INVALID_RUNTIME_STATE:
      s = "HSA_STATUS_ERROR_INVALID_RUNTIME_STATE: invalid runtime state";
      break;
    case HSA_STATUS_ERROR_FATAL:
      s = "HSA_STATUS_ERROR_FATAL: fatal error";
      break;
    default:
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  *status_string = s;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_system_get_info(hsa_system_info_t attribute, void* value) {
  VGPU_RUNTIME(rt);
  if (value == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return rt->systemInfo(attribute, value);
}

hsa_status_t HSA_API hsa_extension_get_name(uint16_t extension, const char** name) {
  VGPU_RUNTIME(rt);
  if (name == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  switch (extension) {
    case HSA_EXTENSION_FINALIZER:
      *name = "HSA_EXTENSION_FINALIZER";
      return HSA_STATUS_SUCCESS;
    case HSA_EXTENSION_IMAGES:
      *name = "HSA_EXTENSION_IMAGES";
      return HSA_STATUS_SUCCESS;
    case HSA_EXTENSION_PERFORMANCE_COUNTERS:
      *name = "HSA_EXTENSION_PERFORMANCE_COUNTERS";
      return HSA_STATUS_SUCCESS;
    case HSA_EXTENSION_PROFILING_EVENTS:
      *name = "HSA_EXTENSION_PROFILING_EVENTS";
      return HSA_STATUS_SUCCESS;
    case HSA_EXTENSION_AMD_PROFILER:
      *name = "HSA_EXTENSION_AMD_PROFILER";
      return HSA_STATUS_SUCCESS;
    case HSA_EXTENSION_AMD_LOADER:
      *name = "HSA_EXTENSION_AMD_LOADER";
      return HSA_STATUS_SUCCESS;
    case HSA_EXTENSION_AMD_AQLPROFILE:
      *name = "HSA_EXTENSION_AMD_AQLPROFILE";
      return HSA_STATUS_SUCCESS;
    default:
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
}

hsa_status_t HSA_API hsa_system_extension_supported(uint16_t extension, uint16_t version_major,
                                                    uint16_t version_minor, bool* result) {
  VGPU_RUNTIME(rt);
  if (result == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *result = supportedExtension(extension, version_major);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_system_major_extension_supported(uint16_t extension,
                                                          uint16_t version_major,
                                                          uint16_t* version_minor, bool* result) {
  VGPU_RUNTIME(rt);
  if (result == nullptr || version_minor == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *result = supportedExtension(extension, version_major);
  // The loader table this runtime fills is hsa_ven_amd_loader_1_03_pfn_t.
  if (*result) *version_minor = extension == HSA_EXTENSION_AMD_LOADER ? 3 : 0;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_agent_extension_supported(uint16_t extension, hsa_agent_t agent,
                                                   uint16_t version_major, uint16_t version_minor,
                                                   bool* result) {
  VGPU_RUNTIME(rt);
  Agent* a = agentOf(rt, agent);
  if (a == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (result == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *result = a->gpu && supportedExtension(extension, version_major);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_agent_major_extension_supported(uint16_t extension, hsa_agent_t agent,
                                                         uint16_t version_major,
                                                         uint16_t* version_minor, bool* result) {
  VGPU_RUNTIME(rt);
  Agent* a = agentOf(rt, agent);
  if (a == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (result == nullptr || version_minor == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *result = a->gpu && supportedExtension(extension, version_major);
  if (*result) *version_minor = extension == HSA_EXTENSION_AMD_LOADER ? 3 : 0;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_iterate_agents(hsa_status_t (*callback)(hsa_agent_t agent, void* data),
                                        void* data) {
  VGPU_RUNTIME(rt);
  if (callback == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (Agent* a : {&rt->cpu(), &rt->gpu()}) {
    hsa_status_t s = callback(handleOf(*a), data);
    if (s != HSA_STATUS_SUCCESS) return s;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_agent_get_info(hsa_agent_t agent, hsa_agent_info_t attribute,
                                        void* value) {
  VGPU_RUNTIME(rt);
  Agent* a = agentOf(rt, agent);
  if (a == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (value == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return rt->agentInfo(*a, attribute, value);
}

hsa_status_t HSA_API hsa_agent_get_exception_policies(hsa_agent_t agent, hsa_profile_t profile,
                                                      uint16_t* mask) {
  VGPU_RUNTIME(rt);
  if (agentOf(rt, agent) == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (mask == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *mask = 0;  // the model raises no floating-point exceptions (neither BREAK nor DETECT)
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_agent_iterate_caches(
    hsa_agent_t agent, hsa_status_t (*callback)(hsa_cache_t cache, void* data), void* data) {
  VGPU_RUNTIME(rt);
  Agent* a = agentOf(rt, agent);
  if (a == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (callback == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (!a->gpu) return HSA_STATUS_SUCCESS;
  for (const vgpu::hsa::Cache& c : rt->caches()) {
    hsa_status_t s = callback(hsa_cache_t{reinterpret_cast<uint64_t>(&c)}, data);
    if (s != HSA_STATUS_SUCCESS) return s;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_cache_get_info(hsa_cache_t cache, hsa_cache_info_t attribute,
                                        void* value) {
  VGPU_RUNTIME(rt);
  const vgpu::hsa::Cache* c = nullptr;
  for (const vgpu::hsa::Cache& candidate : rt->caches())
    if (cache.handle == reinterpret_cast<uint64_t>(&candidate)) c = &candidate;
  if (c == nullptr) return HSA_STATUS_ERROR_INVALID_CACHE;
  if (value == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  switch (attribute) {
    case HSA_CACHE_INFO_NAME_LENGTH: {
      uint32_t n = uint32_t(c->name.size());
      std::memcpy(value, &n, sizeof n);
      return HSA_STATUS_SUCCESS;
    }
    case HSA_CACHE_INFO_NAME:
      std::memcpy(value, c->name.c_str(), c->name.size() + 1);
      return HSA_STATUS_SUCCESS;
    case HSA_CACHE_INFO_LEVEL:
      std::memcpy(value, &c->level, sizeof c->level);
      return HSA_STATUS_SUCCESS;
    case HSA_CACHE_INFO_SIZE:
      std::memcpy(value, &c->bytes, sizeof c->bytes);
      return HSA_STATUS_SUCCESS;
  }
  return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

// ---- ISA -------------------------------------------------------------------------------------

hsa_status_t HSA_API hsa_agent_iterate_isas(hsa_agent_t agent,
                                            hsa_status_t (*callback)(hsa_isa_t isa, void* data),
                                            void* data) {
  VGPU_RUNTIME(rt);
  Agent* a = agentOf(rt, agent);
  if (a == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (callback == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (!a->gpu) return HSA_STATUS_SUCCESS;
  return callback(hsa_isa_t{reinterpret_cast<uint64_t>(&rt->isa())}, data);
}

hsa_status_t HSA_API hsa_isa_from_name(const char* name, hsa_isa_t* isa) {
  VGPU_RUNTIME(rt);
  if (name == nullptr || isa == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (rt->isa().name != name) return HSA_STATUS_ERROR_INVALID_ISA_NAME;
  isa->handle = reinterpret_cast<uint64_t>(&rt->isa());
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_isa_get_info_alt(hsa_isa_t isa, hsa_isa_info_t attribute, void* value) {
  VGPU_RUNTIME(rt);
  if (!rt->isIsa(isa)) return HSA_STATUS_ERROR_INVALID_ISA;
  if (value == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const std::string& name = rt->isa().name;
  const vgpu::PlatformConfig& p = rt->platform();
  const uint32_t wgMax = p.cu.maxWavesPerWorkgroup * 64;
  switch (attribute) {
    case HSA_ISA_INFO_NAME_LENGTH: {
      uint32_t n = uint32_t(name.size() + 1);  // with the terminating NUL, as ROCr counts it
      std::memcpy(value, &n, sizeof n);
      return HSA_STATUS_SUCCESS;
    }
    case HSA_ISA_INFO_NAME:
      std::memcpy(value, name.c_str(), name.size() + 1);
      return HSA_STATUS_SUCCESS;
    case HSA_ISA_INFO_CALL_CONVENTION_COUNT: {
      uint32_t n = 1;
      std::memcpy(value, &n, sizeof n);
      return HSA_STATUS_SUCCESS;
    }
    case HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONT_SIZE: {
      uint32_t n = 64;
      std::memcpy(value, &n, sizeof n);
      return HSA_STATUS_SUCCESS;
    }
    case HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONTS_PER_COMPUTE_UNIT: {
      uint32_t n = p.cu.simdsPerCu * p.cu.waveSlotsPerSimd;
      std::memcpy(value, &n, sizeof n);
      return HSA_STATUS_SUCCESS;
    }
    case HSA_ISA_INFO_MACHINE_MODELS: {
      bool models[2] = {false, true};  // small, large
      std::memcpy(value, models, sizeof models);
      return HSA_STATUS_SUCCESS;
    }
    case HSA_ISA_INFO_PROFILES: {
      bool profiles[2] = {true, false};  // base, full
      std::memcpy(value, profiles, sizeof profiles);
      return HSA_STATUS_SUCCESS;
    }
    case HSA_ISA_INFO_DEFAULT_FLOAT_ROUNDING_MODES:
    case HSA_ISA_INFO_BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES: {
      bool modes[3] = {false, false, true};  // default, zero, near
      std::memcpy(value, modes, sizeof modes);
      return HSA_STATUS_SUCCESS;
    }
    case HSA_ISA_INFO_FAST_F16_OPERATION: {
      bool fast = false;
      std::memcpy(value, &fast, sizeof fast);
      return HSA_STATUS_SUCCESS;
    }
    case HSA_ISA_INFO_WORKGROUP_MAX_DIM: {
      uint16_t dims[3] = {uint16_t(wgMax), uint16_t(wgMax), uint16_t(wgMax)};
      std::memcpy(value, dims, sizeof dims);
      return HSA_STATUS_SUCCESS;
    }
    case HSA_ISA_INFO_WORKGROUP_MAX_SIZE:
      std::memcpy(value, &wgMax, sizeof wgMax);
      return HSA_STATUS_SUCCESS;
    case HSA_ISA_INFO_GRID_MAX_DIM: {
      hsa_dim3_t dims{UINT32_MAX, UINT32_MAX, UINT32_MAX};
      std::memcpy(value, &dims, sizeof dims);
      return HSA_STATUS_SUCCESS;
    }
    case HSA_ISA_INFO_GRID_MAX_SIZE: {
      uint64_t n = UINT32_MAX;
      std::memcpy(value, &n, sizeof n);
      return HSA_STATUS_SUCCESS;
    }
    case HSA_ISA_INFO_FBARRIER_MAX_SIZE: {
      uint32_t n = 32;
      std::memcpy(value, &n, sizeof n);
      return HSA_STATUS_SUCCESS;
    }
  }
  return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

hsa_status_t HSA_API hsa_isa_get_info(hsa_isa_t isa, hsa_isa_info_t attribute, uint32_t index,
                                      void* value) {
  if (index != 0) return HSA_STATUS_ERROR_INVALID_INDEX;  // one call convention
  return hsa_isa_get_info_alt(isa, attribute, value);
}

hsa_status_t HSA_API hsa_isa_get_exception_policies(hsa_isa_t isa, hsa_profile_t profile,
                                                    uint16_t* mask) {
  VGPU_RUNTIME(rt);
  if (!rt->isIsa(isa)) return HSA_STATUS_ERROR_INVALID_ISA;
  if (mask == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *mask = 0;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_isa_get_round_method(hsa_isa_t isa, hsa_fp_type_t fp_type,
                                              hsa_flush_mode_t flush_mode,
                                              hsa_round_method_t* round_method) {
  VGPU_RUNTIME(rt);
  if (!rt->isIsa(isa)) return HSA_STATUS_ERROR_INVALID_ISA;
  if (round_method == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *round_method = HSA_ROUND_METHOD_SINGLE;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_isa_compatible(hsa_isa_t code_object_isa, hsa_isa_t agent_isa,
                                        bool* result) {
  VGPU_RUNTIME(rt);
  if (!rt->isIsa(code_object_isa) || !rt->isIsa(agent_isa)) return HSA_STATUS_ERROR_INVALID_ISA;
  if (result == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *result = true;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_isa_iterate_wavefronts(
    hsa_isa_t isa, hsa_status_t (*callback)(hsa_wavefront_t wavefront, void* data), void* data) {
  VGPU_RUNTIME(rt);
  if (!rt->isIsa(isa)) return HSA_STATUS_ERROR_INVALID_ISA;
  if (callback == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return callback(hsa_wavefront_t{reinterpret_cast<uint64_t>(&gWavefront)}, data);
}

hsa_status_t HSA_API hsa_wavefront_get_info(hsa_wavefront_t wavefront,
                                            hsa_wavefront_info_t attribute, void* value) {
  VGPU_RUNTIME(rt);
  if (wavefront.handle != reinterpret_cast<uint64_t>(&gWavefront))
    return HSA_STATUS_ERROR_INVALID_WAVEFRONT;
  if (value == nullptr || attribute != HSA_WAVEFRONT_INFO_SIZE)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::memcpy(value, &gWavefront.size, sizeof gWavefront.size);
  return HSA_STATUS_SUCCESS;
}

// ---- regions (the HSA 1.0 view of the same memory as the pools) ------------------------------

hsa_status_t HSA_API hsa_agent_iterate_regions(
    hsa_agent_t agent, hsa_status_t (*callback)(hsa_region_t region, void* data), void* data) {
  VGPU_RUNTIME(rt);
  Agent* a = agentOf(rt, agent);
  if (a == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (callback == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (Pool* p : a->pools) {
    hsa_status_t s = callback(hsa_region_t{reinterpret_cast<uint64_t>(p)}, data);
    if (s != HSA_STATUS_SUCCESS) return s;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_region_get_info(hsa_region_t region, hsa_region_info_t attribute,
                                         void* value) {
  VGPU_RUNTIME(rt);
  Pool* p = poolOf(rt, region.handle);
  if (p == nullptr) return HSA_STATUS_ERROR_INVALID_REGION;
  if (value == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  switch (int(attribute)) {
    case HSA_REGION_INFO_SEGMENT: {
      hsa_region_segment_t s =
          p->kind == Pool::Kind::GpuGroup ? HSA_REGION_SEGMENT_GROUP : HSA_REGION_SEGMENT_GLOBAL;
      std::memcpy(value, &s, sizeof s);
      return HSA_STATUS_SUCCESS;
    }
    case HSA_REGION_INFO_ALLOC_MAX_SIZE:
      return rt->poolInfo(*p, HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE, value);
    case HSA_REGION_INFO_ALLOC_MAX_PRIVATE_WORKGROUP_SIZE: {
      uint32_t n = 0;
      std::memcpy(value, &n, sizeof n);
      return HSA_STATUS_SUCCESS;
    }
    case HSA_AMD_REGION_INFO_HOST_ACCESSIBLE: {
      bool host = p->system();
      std::memcpy(value, &host, sizeof host);
      return HSA_STATUS_SUCCESS;
    }
    case HSA_REGION_INFO_GLOBAL_FLAGS:  // same bits as the pools' (hsa_ext_amd.h)
    case HSA_REGION_INFO_SIZE:
    case HSA_REGION_INFO_RUNTIME_ALLOC_ALLOWED:
    case HSA_REGION_INFO_RUNTIME_ALLOC_GRANULE:
    case HSA_REGION_INFO_RUNTIME_ALLOC_ALIGNMENT:
      return rt->poolInfo(*p, attribute, value);
  }
  return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

// ---- memory ----------------------------------------------------------------------------------

hsa_status_t HSA_API hsa_memory_allocate(hsa_region_t region, size_t size, void** ptr) {
  VGPU_RUNTIME(rt);
  Pool* p = poolOf(rt, region.handle);
  if (p == nullptr) return HSA_STATUS_ERROR_INVALID_REGION;
  return rt->allocate(*p, size, ptr);
}

hsa_status_t HSA_API hsa_memory_free(void* ptr) {
  VGPU_RUNTIME(rt);
  return rt->free(ptr);
}

hsa_status_t HSA_API hsa_memory_copy(void* dst, const void* src, size_t size) {
  VGPU_RUNTIME(rt);
  if (dst == nullptr || src == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  rt->copy(reinterpret_cast<uint64_t>(dst), reinterpret_cast<uint64_t>(src), size);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_memory_assign_agent(void* ptr, hsa_agent_t agent,
                                             hsa_access_permission_t access) {
  VGPU_RUNTIME(rt);
  if (agentOf(rt, agent) == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  uint64_t base;
  Allocation a;
  if (!rt->findAllocation(reinterpret_cast<uint64_t>(ptr), base, a))
    return HSA_STATUS_ERROR_INVALID_ALLOCATION;
  // Ownership of coarse-grained memory (hsa.h, hsa_memory_assign_agent) needs no cache maintenance
  // in the model: the host reaches device memory only through the GPU's host port.
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_memory_register(void* ptr, size_t size) {
  VGPU_RUNTIME(rt);
  void* agentPtr = nullptr;
  return rt->lock(ptr, size, &agentPtr);
}

hsa_status_t HSA_API hsa_memory_deregister(void* ptr, size_t size) {
  VGPU_RUNTIME(rt);
  return rt->unlock(ptr);
}

hsa_status_t HSA_API hsa_amd_agent_iterate_memory_pools(
    hsa_agent_t agent, hsa_status_t (*callback)(hsa_amd_memory_pool_t memory_pool, void* data),
    void* data) {
  VGPU_RUNTIME(rt);
  Agent* a = agentOf(rt, agent);
  if (a == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (callback == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (Pool* p : a->pools) {
    hsa_status_t s = callback(hsa_amd_memory_pool_t{reinterpret_cast<uint64_t>(p)}, data);
    if (s != HSA_STATUS_SUCCESS) return s;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_amd_memory_pool_get_info(hsa_amd_memory_pool_t memory_pool,
                                                  hsa_amd_memory_pool_info_t attribute,
                                                  void* value) {
  VGPU_RUNTIME(rt);
  Pool* p = poolOf(rt, memory_pool.handle);
  if (p == nullptr) return kInvalidPool;
  if (value == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return rt->poolInfo(*p, attribute, value);
}

hsa_status_t HSA_API hsa_amd_agent_memory_pool_get_info(hsa_agent_t agent,
                                                        hsa_amd_memory_pool_t memory_pool,
                                                        hsa_amd_agent_memory_pool_info_t attribute,
                                                        void* value) {
  VGPU_RUNTIME(rt);
  Agent* a = agentOf(rt, agent);
  if (a == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  Pool* p = poolOf(rt, memory_pool.handle);
  if (p == nullptr) return kInvalidPool;
  if (value == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const bool own = p->owner == a;
  switch (attribute) {
    case HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS: {
      hsa_amd_memory_pool_access_t access;
      if (p->kind == Pool::Kind::GpuGroup) {
        access = a->gpu ? HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT
                        : HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED;
      } else if (p->kind == Pool::Kind::GpuDevice) {
        // The CPU reaches device memory only through copies (no large BAR): ROCclr then stages
        // every pageable copy through pinned memory and DMA.
        access = a->gpu ? HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT
                        : HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED;
      } else if (own || p->kind != Pool::Kind::CpuCoarse) {
        access = HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT;
      } else {
        access = HSA_AMD_MEMORY_POOL_ACCESS_DISALLOWED_BY_DEFAULT;  // allow_access grants it
      }
      std::memcpy(value, &access, sizeof access);
      return HSA_STATUS_SUCCESS;
    }
    case HSA_AMD_AGENT_MEMORY_POOL_INFO_NUM_LINK_HOPS: {
      uint32_t hops = own ? 0 : 1;
      std::memcpy(value, &hops, sizeof hops);
      return HSA_STATUS_SUCCESS;
    }
    case HSA_AMD_AGENT_MEMORY_POOL_INFO_LINK_INFO: {
      // One hop between the host and the GPU: the system-memory link (PCIe-like, with atomics).
      if (own) return HSA_STATUS_SUCCESS;
      hsa_amd_memory_pool_link_info_t link{};
      link.atomic_support_32bit = true;
      link.atomic_support_64bit = true;
      link.coherent_support = true;
      link.link_type = HSA_AMD_LINK_INFO_TYPE_PCIE;
      link.numa_distance = 20;
      std::memcpy(value, &link, sizeof link);
      return HSA_STATUS_SUCCESS;
    }
  }
  return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

hsa_status_t HSA_API hsa_amd_memory_pool_allocate(hsa_amd_memory_pool_t memory_pool, size_t size,
                                                  uint32_t flags, void** ptr) {
  VGPU_RUNTIME(rt);
  Pool* p = poolOf(rt, memory_pool.handle);
  if (p == nullptr) return kInvalidPool;
  return rt->allocate(*p, size, ptr);
}

hsa_status_t HSA_API hsa_amd_memory_pool_free(void* ptr) {
  VGPU_RUNTIME(rt);
  return rt->free(ptr);
}

hsa_status_t HSA_API hsa_amd_agents_allow_access(uint32_t num_agents, const hsa_agent_t* agents,
                                                 const uint32_t* flags, const void* ptr) {
  VGPU_RUNTIME(rt);
  if (num_agents == 0 || agents == nullptr || ptr == nullptr)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (uint32_t i = 0; i < num_agents; ++i)
    if (agentOf(rt, agents[i]) == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  uint64_t base;
  Allocation a;
  if (!rt->findAllocation(reinterpret_cast<uint64_t>(ptr), base, a))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  // Every system allocation is exposed to the GPU when it is made; device memory is the GPU's.
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_amd_memory_pool_can_migrate(hsa_amd_memory_pool_t src_memory_pool,
                                                     hsa_amd_memory_pool_t dst_memory_pool,
                                                     bool* result) {
  VGPU_RUNTIME(rt);
  if (poolOf(rt, src_memory_pool.handle) == nullptr ||
      poolOf(rt, dst_memory_pool.handle) == nullptr)
    return kInvalidPool;
  if (result == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *result = false;  // hsa_amd_memory_migrate is not offered
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_amd_memory_lock(void* host_ptr, size_t size, hsa_agent_t* agents,
                                         int num_agent, void** agent_ptr) {
  VGPU_RUNTIME(rt);
  return rt->lock(host_ptr, size, agent_ptr);
}

hsa_status_t HSA_API hsa_amd_memory_lock_to_pool(void* host_ptr, size_t size, hsa_agent_t* agents,
                                                 int num_agent, hsa_amd_memory_pool_t pool,
                                                 uint32_t flags, void** agent_ptr) {
  VGPU_RUNTIME(rt);
  Pool* p = poolOf(rt, pool.handle);
  if (p == nullptr || !p->system()) return kInvalidPool;
  return rt->lock(host_ptr, size, agent_ptr);
}

hsa_status_t HSA_API hsa_amd_memory_unlock(void* host_ptr) {
  VGPU_RUNTIME(rt);
  return rt->unlock(host_ptr);
}

hsa_status_t HSA_API hsa_amd_pointer_info(const void* ptr, hsa_amd_pointer_info_t* info,
                                          void* (*alloc)(size_t), uint32_t* num_agents_accessible,
                                          hsa_agent_t** accessible) {
  VGPU_RUNTIME(rt);
  if (ptr == nullptr || info == nullptr || info->size < sizeof(uint32_t) * 2)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  hsa_amd_pointer_info_t out{};
  out.size = uint32_t(std::min<size_t>(info->size, sizeof out));
  uint64_t base = 0;
  Allocation a;
  const bool found = rt->findAllocation(reinterpret_cast<uint64_t>(ptr), base, a);
  std::vector<hsa_agent_t> agents;
  if (found) {
    out.type =
        a.pool != nullptr || a.device ? HSA_EXT_POINTER_TYPE_HSA : HSA_EXT_POINTER_TYPE_LOCKED;
    out.agentBaseAddress = reinterpret_cast<void*>(base);
    out.hostBaseAddress = a.device ? nullptr : reinterpret_cast<void*>(base);
    out.sizeInBytes = a.bytes;
    out.userData = a.userData;
    const bool gpuOwned = a.device;
    out.agentOwner = hsa_agent_t{reinterpret_cast<uint64_t>(gpuOwned ? &rt->gpu() : &rt->cpu())};
    // Locked memory and code objects are coarse grained; pools' memory has the pool's flags.
    uint32_t flags = HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED;
    if (a.pool != nullptr) rt->poolInfo(*a.pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
    out.global_flags = flags;
    if (!a.device) agents.push_back(hsa_agent_t{reinterpret_cast<uint64_t>(&rt->cpu())});
    agents.push_back(hsa_agent_t{reinterpret_cast<uint64_t>(&rt->gpu())});
  } else {
    out.type = HSA_EXT_POINTER_TYPE_UNKNOWN;
  }
  std::memcpy(info, &out, out.size);
  if (num_agents_accessible != nullptr) *num_agents_accessible = uint32_t(agents.size());
  if (accessible != nullptr) {
    if (alloc == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    *accessible = nullptr;
    if (!agents.empty()) {
      *accessible = static_cast<hsa_agent_t*>(alloc(agents.size() * sizeof(hsa_agent_t)));
      if (*accessible == nullptr) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
      std::memcpy(*accessible, agents.data(), agents.size() * sizeof(hsa_agent_t));
    }
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_amd_pointer_info_set_userdata(const void* ptr, void* userdata) {
  VGPU_RUNTIME(rt);
  uint64_t base = 0;
  Allocation a;
  if (ptr == nullptr || !rt->findAllocation(reinterpret_cast<uint64_t>(ptr), base, a))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  rt->setUserData(base, userdata);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_amd_memory_async_copy(void* dst, hsa_agent_t dst_agent, const void* src,
                                               hsa_agent_t src_agent, size_t size,
                                               uint32_t num_dep_signals,
                                               const hsa_signal_t* dep_signals,
                                               hsa_signal_t completion_signal) {
  VGPU_RUNTIME(rt);
  if (dst == nullptr || src == nullptr || (num_dep_signals > 0 && dep_signals == nullptr))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (agentOf(rt, dst_agent) == nullptr || agentOf(rt, src_agent) == nullptr)
    return HSA_STATUS_ERROR_INVALID_AGENT;
  std::vector<uint64_t> deps;
  if (hsa_status_t s = dependencyHandles(rt, num_dep_signals, dep_signals, deps);
      s != HSA_STATUS_SUCCESS)
    return s;
  if (completion_signal.handle != 0 && !rt->isSignal(completion_signal))
    return HSA_STATUS_ERROR_INVALID_SIGNAL;
  // The DMA engine does the copy, waits for the dependencies and signals completion
  // (hsa_ext_amd.h, hsa_amd_memory_async_copy).
  rt->port().asyncCopy(reinterpret_cast<uint64_t>(dst), reinterpret_cast<uint64_t>(src), size,
                       std::move(deps), completion_signal.handle);
  return HSA_STATUS_SUCCESS;
}

// A rectangle of rows (x in bytes, y in rows, z in layers) by the DMA engine, checked as ROCr's
// SDMA path checks it (hsa_ext_amd.h: the same requirements as hsa_amd_memory_async_copy; bases,
// pitches and slices 4-byte aligned; no host-to-host copies; a GPU agent copies).
hsa_status_t HSA_API hsa_amd_memory_async_copy_rect(
    const hsa_pitched_ptr_t* dst, const hsa_dim3_t* dst_offset, const hsa_pitched_ptr_t* src,
    const hsa_dim3_t* src_offset, const hsa_dim3_t* range, hsa_agent_t copy_agent,
    hsa_amd_copy_direction_t dir, uint32_t num_dep_signals, const hsa_signal_t* dep_signals,
    hsa_signal_t completion_signal) {
  VGPU_RUNTIME(rt);
  if (dst == nullptr || src == nullptr || dst_offset == nullptr || src_offset == nullptr ||
      range == nullptr || dst->base == nullptr || src->base == nullptr ||
      (num_dep_signals == 0) != (dep_signals == nullptr) || dir == hsaHostToHost)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const Agent* agent = agentOf(rt, copy_agent);
  if (agent == nullptr || !agent->gpu) return HSA_STATUS_ERROR_INVALID_AGENT;
  std::vector<uint64_t> deps;
  if (hsa_status_t s = dependencyHandles(rt, num_dep_signals, dep_signals, deps);
      s != HSA_STATUS_SUCCESS)
    return s;
  if (!rt->isSignal(completion_signal)) return HSA_STATUS_ERROR_INVALID_SIGNAL;
  const auto aligned = [](uint64_t v) { return v % 4 == 0; };
  const auto dstBase = reinterpret_cast<uint64_t>(dst->base);
  const auto srcBase = reinterpret_cast<uint64_t>(src->base);
  if (!aligned(dstBase) || !aligned(srcBase) || !aligned(dst->pitch) || !aligned(src->pitch) ||
      !aligned(dst->slice) || !aligned(src->slice))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  // Each row within its pitch, the rows of a layer within its slice, and more than one layer
  // only where both sides say how far apart layers are.
  if (uint64_t{src_offset->x} + range->x > src->pitch ||
      uint64_t{dst_offset->x} + range->x > dst->pitch)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if ((src->slice != 0 && uint64_t{src_offset->y} + range->y > src->slice / src->pitch) ||
      (dst->slice != 0 && uint64_t{dst_offset->y} + range->y > dst->slice / dst->pitch))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (range->z > 1 && (src->slice == 0 || dst->slice == 0))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  GpuPort::RectCopy rect;
  rect.dst = dstBase + dst_offset->z * dst->slice + dst_offset->y * dst->pitch + dst_offset->x;
  rect.src = srcBase + src_offset->z * src->slice + src_offset->y * src->pitch + src_offset->x;
  rect.dstPitch = dst->pitch, rect.dstSlice = dst->slice;
  rect.srcPitch = src->pitch, rect.srcSlice = src->slice;
  rect.width = range->x, rect.rows = range->y, rect.layers = range->z;
  if (rect.width == 0 || rect.rows == 0 || rect.layers == 0) {
    // Nothing to copy. ROCr returns without touching the signal; a caller waiting for it would
    // wait for ever, so the copy completes at once instead.
    rect.width = rect.rows = rect.layers = 0;
  }
  rt->port().asyncCopyRect(rect, std::move(deps), completion_signal.handle);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_amd_memory_fill(void* ptr, uint32_t value, size_t count) {
  VGPU_RUNTIME(rt);
  if (ptr == nullptr || reinterpret_cast<uint64_t>(ptr) % 4 != 0)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const uint64_t address = reinterpret_cast<uint64_t>(ptr);
  if (rt->isDevice(address)) {
    std::vector<uint32_t> words(count, value);
    rt->port().writeDevice(address, words.data(), uint64_t(count) * 4);
  } else {
    auto* words = static_cast<uint32_t*>(ptr);
    for (size_t i = 0; i < count; ++i) words[i] = value;
  }
  return HSA_STATUS_SUCCESS;
}

// ---- profiling (hsa_ext_amd.h) ---------------------------------------------------------------

hsa_status_t HSA_API hsa_amd_profiling_set_profiler_enabled(hsa_queue_t* queue, int enable) {
  VGPU_RUNTIME(rt);
  vgpu::hsa::Queue* q = rt->findQueue(queue);
  if (q == nullptr) return HSA_STATUS_ERROR_INVALID_QUEUE;
  // The GPU writes start and end times into every completion signal, profiled or not; the
  // queue's properties say so for whoever reads them (amd_hsa_queue.h).
  q->profiling = enable != 0;
  if (q->profiling) {
    q->amd->queue_properties |= AMD_QUEUE_PROPERTIES_ENABLE_PROFILING;
  } else {
    q->amd->queue_properties &= ~uint32_t(AMD_QUEUE_PROPERTIES_ENABLE_PROFILING);
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_amd_profiling_async_copy_enable(bool enable) {
  VGPU_RUNTIME(rt);
  return HSA_STATUS_SUCCESS;  // the DMA engine always timestamps its completion signals
}

// The start and end times the GPU (a packet's completion) or the DMA engine (a copy's) wrote
// into the signal's amd_signal_t (ROCm's amd_hsa_signal.h: start_ts, end_ts).
namespace {
void readTimes(hsa_signal_t signal, uint64_t& start, uint64_t& end) {
  const auto* s = reinterpret_cast<const amd_signal_t*>(signal.handle);
  start = __atomic_load_n(&s->start_ts, __ATOMIC_ACQUIRE);
  end = __atomic_load_n(&s->end_ts, __ATOMIC_ACQUIRE);
}
}  // namespace

hsa_status_t HSA_API hsa_amd_profiling_get_dispatch_time(hsa_agent_t agent, hsa_signal_t signal,
                                                         hsa_amd_profiling_dispatch_time_t* time) {
  VGPU_RUNTIME(rt);
  if (agentOf(rt, agent) == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (!rt->isSignal(signal)) return HSA_STATUS_ERROR_INVALID_SIGNAL;
  if (time == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  readTimes(signal, time->start, time->end);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_amd_profiling_convert_tick_to_system_domain(hsa_agent_t agent,
                                                                     uint64_t agent_tick,
                                                                     uint64_t* system_tick) {
  VGPU_RUNTIME(rt);
  if (agentOf(rt, agent) == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (system_tick == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  // The system timestamp (HSA_SYSTEM_INFO_TIMESTAMP) is the GPU's own counter, so both
  // domains are one.
  *system_tick = agent_tick;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_amd_profiling_get_async_copy_time(
    hsa_signal_t signal, hsa_amd_profiling_async_copy_time_t* time) {
  VGPU_RUNTIME(rt);
  if (!rt->isSignal(signal)) return HSA_STATUS_ERROR_INVALID_SIGNAL;
  if (time == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  readTimes(signal, time->start, time->end);
  return HSA_STATUS_SUCCESS;
}

}  // extern "C"
