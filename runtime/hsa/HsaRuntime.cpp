#include "runtime/hsa/HsaRuntime.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>

#include "common/Apertures.h"

namespace vgpu::hsa {

uint64_t Runtime::kPageBytes = 4096;

namespace {

std::mutex gLifeMutex;  // hsa_init / hsa_shut_down
Runtime* gRuntime = nullptr;
uint32_t gRefCount = 0;
GpuPortFactory gFactory;

std::mutex gUnsupportedMutex;
std::set<std::string> gUnsupportedSeen;

// How often the runtime's thread asks the GPU for queue errors, which it may report without
// writing system memory.
constexpr auto kErrorPollInterval = std::chrono::milliseconds(50);
// Waiters sleep until a host-side signal change or the GPU's system-memory notification. A
// signal can still change unannounced (device code writing host memory the port does not
// report, an application writing through hsa_amd_signal_value_pointer, a silent store), so a
// waiter also looks again after this long: slow enough that a missing notification is plain to
// see (and the tests can tell), and no hang.
constexpr auto kUnannouncedChangePoll = std::chrono::seconds(1);

template <typename T>
void put(void* value, T v) {
  std::memcpy(value, &v, sizeof v);
}
void putString(void* value, const std::string& s, size_t capacity) {
  char* out = static_cast<char*>(value);
  std::memset(out, 0, capacity);
  std::memcpy(out, s.data(), std::min(s.size(), capacity - 1));
}

// The product name HIP shows (hipDeviceProp_t.name): the product the platform models, from its
// description up to the first " (" or ":", and the platform's name.
std::string productName(const PlatformConfig& p) {
  std::string product = p.description;
  size_t cut = std::min(product.find(" ("), product.find(':'));
  if (cut != std::string::npos) product.resize(cut);
  if (product.empty()) product = p.processor;
  return product + " (vgpu " + p.name + ")";
}

// Chip ids of the products the two ISAs stand for (Linux amdgpu's PCI id tables): 0x66a1 is a
// Vega 20 (MI50/MI60), 0x687f a Vega 10 (RX Vega 64). ROCclr only uses it for reports.
uint32_t chipId(const PlatformConfig& p) {
  return p.processor == "gfx900" ? 0x687f : 0x66a1;
}

uint64_t physicalMemoryBytes() {
  long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
  return pages > 0 && size > 0 ? uint64_t(pages) * uint64_t(size) : 0;
}

void setExtensionBits(void* value) {
  uint8_t bits[128] = {};
  for (unsigned ext : {unsigned(HSA_EXTENSION_AMD_PROFILER), unsigned(HSA_EXTENSION_AMD_LOADER),
                       unsigned(HSA_EXTENSION_IMAGES)})
    bits[ext / 8] |= uint8_t(1u << (ext % 8));
  std::memcpy(value, bits, sizeof bits);
}

}  // namespace

void setGpuPortFactory(GpuPortFactory factory) {
  std::lock_guard<std::mutex> lock(gLifeMutex);
  gFactory = std::move(factory);
}

hsa_status_t unsupported(const char* name, hsa_status_t status) {
  std::lock_guard<std::mutex> lock(gUnsupportedMutex);
  if (gUnsupportedSeen.insert(name).second)
    std::fprintf(stderr, "vgpu: %s is not supported by the simulated GPU\n", name);
  return status;
}

Runtime* Runtime::get() {
  return gRuntime;
}

hsa_status_t Runtime::init() {
  std::lock_guard<std::mutex> lock(gLifeMutex);
  if (gRefCount == UINT32_MAX) return HSA_STATUS_ERROR_REFCOUNT_OVERFLOW;
  if (gRefCount == 0) {
    try {
      std::unique_ptr<GpuPort> port = gFactory ? gFactory() : defaultGpuPort();
      if (!port) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
      gRuntime = new Runtime(std::move(port));
    } catch (const std::exception& e) {
      std::fprintf(stderr, "vgpu: cannot start the simulated GPU: %s\n", e.what());
      return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    }
  }
  ++gRefCount;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t Runtime::shutDown() {
  std::lock_guard<std::mutex> lock(gLifeMutex);
  if (gRefCount == 0) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (--gRefCount == 0) {
    delete gRuntime;
    gRuntime = nullptr;
  }
  return HSA_STATUS_SUCCESS;
}

Runtime::Runtime(std::unique_ptr<GpuPort> port) : port_(std::move(port)) {
  cpu_.gpu = false;
  gpu_.gpu = true;
  for (Pool* p : {&cpuFine_, &cpuKernarg_, &cpuCoarse_}) {
    p->owner = &cpu_;
    cpu_.pools.push_back(p);
  }
  for (Pool* p : {&gpuDevice_, &gpuGroup_}) {
    p->owner = &gpu_;
    gpu_.pools.push_back(p);
  }
  const PlatformConfig& p = platform();
  isa_.processor = p.processor;
  // Target IDs (LLVM AMDGPUUsage, "Target ID"): gfx906 as on an MI50/MI60 (SRAM ECC on, XNACK
  // off), which is how Debian's ROCm libraries are built; gfx900 has no SRAM ECC feature.
  isa_.name = p.processor == "gfx900" ? "amdgcn-amd-amdhsa--gfx900:xnack-"
                                      : "amdgcn-amd-amdhsa--" + p.processor + ":sramecc+:xnack-";
  caches_ = {{"L1", 1, p.vectorL1.sizeBytes}, {"L2", 2, p.l2.sizeBytes}};
  port_->setSystemMemoryWritten([this] { wakeAll(); });
  eventThread_ = std::thread([this] { eventLoop(); });
}

Runtime::~Runtime() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    ++generation_;
  }
  changed_.notify_all();
  eventThread_.join();
  for (auto& [q, queue] : queues_) port_->destroyQueue(queue->portQueue);
  for (Executable* e : executables) destroyExecutable(e);
  for (CodeObjectReader* r : readers) delete r;
  port_->setSystemMemoryWritten([] {});
  for (void* page : signalPages_) {
    port_->withdrawSystemMemory(page);
    munmap(page, kPageBytes);
  }
  for (auto& [base, a] : allocations_) {
    if (a.device) {
      port_->freeDevice(base);
    } else {
      port_->withdrawSystemMemory(reinterpret_cast<void*>(base));
      if (a.pool != nullptr) munmap(reinterpret_cast<void*>(base), a.bytes);
    }
  }
}

bool Runtime::isAgent(hsa_agent_t a) const {
  return a.handle == reinterpret_cast<uint64_t>(&cpu_) ||
         a.handle == reinterpret_cast<uint64_t>(&gpu_);
}

bool Runtime::isPool(uint64_t h) const {
  for (const Pool* p : {&cpuFine_, &cpuKernarg_, &cpuCoarse_, &gpuDevice_, &gpuGroup_})
    if (h == reinterpret_cast<uint64_t>(p)) return true;
  return false;
}

// ---- info ------------------------------------------------------------------------------------

hsa_status_t Runtime::agentInfo(const Agent& agent, int attribute, void* value) {
  const PlatformConfig& p = platform();
  const bool gpu = agent.gpu;
  switch (attribute) {
    case HSA_AGENT_INFO_NAME:
      putString(value, gpu ? p.processor : "vgpu host CPU", 64);
      return HSA_STATUS_SUCCESS;
    case HSA_AGENT_INFO_VENDOR_NAME:
      putString(value, gpu ? "AMD" : "CPU", 64);
      return HSA_STATUS_SUCCESS;
    case HSA_AGENT_INFO_FEATURE:
      put<hsa_agent_feature_t>(
          value, gpu ? HSA_AGENT_FEATURE_KERNEL_DISPATCH : HSA_AGENT_FEATURE_AGENT_DISPATCH);
      return HSA_STATUS_SUCCESS;
    case HSA_AGENT_INFO_MACHINE_MODEL:
      put<hsa_machine_model_t>(value, HSA_MACHINE_MODEL_LARGE);
      return HSA_STATUS_SUCCESS;
    case HSA_AGENT_INFO_PROFILE:
      // A dGPU is a base-profile agent (hsa.h, hsa_profile_t): its device memory is not
      // the host's.
      put<hsa_profile_t>(value, gpu ? HSA_PROFILE_BASE : HSA_PROFILE_FULL);
      return HSA_STATUS_SUCCESS;
    case HSA_AGENT_INFO_DEFAULT_FLOAT_ROUNDING_MODE:
      put<hsa_default_float_rounding_mode_t>(value, HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR);
      return HSA_STATUS_SUCCESS;
    case HSA_AGENT_INFO_BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES:
      put<hsa_default_float_rounding_mode_t>(value, HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR);
      return HSA_STATUS_SUCCESS;
    case HSA_AGENT_INFO_FAST_F16_OPERATION:
      put<bool>(value, false);
      return HSA_STATUS_SUCCESS;
    case HSA_AGENT_INFO_WAVEFRONT_SIZE:
      put<uint32_t>(value, gpu ? 64 : 0);
      return HSA_STATUS_SUCCESS;
    case HSA_AGENT_INFO_WORKGROUP_MAX_DIM: {
      uint16_t max = gpu ? uint16_t(p.cu.maxWavesPerWorkgroup * 64) : 0;
      uint16_t dims[3] = {max, max, max};
      std::memcpy(value, dims, sizeof dims);
      return HSA_STATUS_SUCCESS;
    }
    case HSA_AGENT_INFO_WORKGROUP_MAX_SIZE:
      put<uint32_t>(value, gpu ? p.cu.maxWavesPerWorkgroup * 64 : 0);
      return HSA_STATUS_SUCCESS;
    case HSA_AGENT_INFO_GRID_MAX_DIM: {
      // AQL packets carry 32-bit grid sizes (hsa.h, hsa_kernel_dispatch_packet_t).
      uint32_t m = gpu ? UINT32_MAX : 0;
      hsa_dim3_t dims{m, m, m};
      put(value, dims);
      return HSA_STATUS_SUCCESS;
    }
    case HSA_AGENT_INFO_GRID_MAX_SIZE:
      put<uint32_t>(value, gpu ? UINT32_MAX : 0);
      return HSA_STATUS_SUCCESS;
    case HSA_AGENT_INFO_FBARRIER_MAX_SIZE:
      put<uint32_t>(value, 0);
      return HSA_STATUS_SUCCESS;
    case HSA_AGENT_INFO_QUEUES_MAX:
      // How many queues the application may create; the port says when it runs out.
      put<uint32_t>(value, gpu ? 128 : 0);
      return HSA_STATUS_SUCCESS;
    case HSA_AGENT_INFO_QUEUE_MIN_SIZE:
      put<uint32_t>(value, gpu ? 64 : 0);
      return HSA_STATUS_SUCCESS;
    case HSA_AGENT_INFO_QUEUE_MAX_SIZE:
      put<uint32_t>(value, gpu ? 131072 : 0);
      return HSA_STATUS_SUCCESS;
    case HSA_AGENT_INFO_QUEUE_TYPE:
      put<hsa_queue_type32_t>(value, HSA_QUEUE_TYPE_MULTI);
      return HSA_STATUS_SUCCESS;
    case HSA_AGENT_INFO_NODE:
    case HSA_AMD_AGENT_INFO_DRIVER_NODE_ID:
      put<uint32_t>(value, gpu ? 1 : 0);
      return HSA_STATUS_SUCCESS;
    case HSA_AGENT_INFO_DEVICE:
      put<hsa_device_type_t>(value, gpu ? HSA_DEVICE_TYPE_GPU : HSA_DEVICE_TYPE_CPU);
      return HSA_STATUS_SUCCESS;
    case HSA_AGENT_INFO_CACHE_SIZE: {
      uint32_t sizes[4] = {};
      if (gpu) {
        sizes[0] = p.vectorL1.sizeBytes;
        sizes[1] = p.l2.sizeBytes;
      }
      std::memcpy(value, sizes, sizeof sizes);
      return HSA_STATUS_SUCCESS;
    }
    case HSA_AGENT_INFO_ISA:
      put<hsa_isa_t>(value, hsa_isa_t{gpu ? reinterpret_cast<uint64_t>(&isa_) : 0});
      return HSA_STATUS_SUCCESS;
    case HSA_AGENT_INFO_EXTENSIONS:
      if (gpu) {
        setExtensionBits(value);
      } else {
        std::memset(value, 0, 128);
      }
      return HSA_STATUS_SUCCESS;
    case HSA_AGENT_INFO_VERSION_MAJOR:
    case HSA_AGENT_INFO_VERSION_MINOR:
      put<uint16_t>(value, 1);
      return HSA_STATUS_SUCCESS;
    case HSA_AMD_AGENT_INFO_CHIP_ID:
      put<uint32_t>(value, gpu ? chipId(p) : 0);
      return HSA_STATUS_SUCCESS;
    case HSA_AMD_AGENT_INFO_CACHELINE_SIZE:
      put<uint32_t>(value, gpu ? p.l2.lineBytes : 64);
      return HSA_STATUS_SUCCESS;
    case HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT:
    case HSA_AMD_AGENT_INFO_COOPERATIVE_COMPUTE_UNIT_COUNT:
      put<uint32_t>(value,
                    gpu ? p.computeUnits : std::max(1u, std::thread::hardware_concurrency()));
      return HSA_STATUS_SUCCESS;
    case HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY:
      put<uint32_t>(value, gpu ? uint32_t(p.clockMHz + 0.5) : 0);
      return HSA_STATUS_SUCCESS;
    case HSA_AMD_AGENT_INFO_MAX_ADDRESS_WATCH_POINTS:
      put<uint32_t>(value, 0);
      return HSA_STATUS_SUCCESS;
    case HSA_AMD_AGENT_INFO_BDFID:
    case HSA_AMD_AGENT_INFO_DOMAIN:
    case HSA_AMD_AGENT_INFO_ASIC_REVISION:
      put<uint32_t>(value, 0);  // no PCI location: the GPU is simulated
      return HSA_STATUS_SUCCESS;
    case HSA_AMD_AGENT_INFO_MEMORY_WIDTH:
      // HBM2 channels are 128 bits wide (JEDEC JESD235).
      put<uint32_t>(value, gpu ? p.dram.channels * 128 : 0);
      return HSA_STATUS_SUCCESS;
    case HSA_AMD_AGENT_INFO_MEMORY_MAX_FREQUENCY: {
      // Peak bandwidth = width/8 bytes x 2 transfers per clock (DDR) x clock.
      double bytesPerClock = p.dram.channels * 128 / 8.0 * 2;
      put<uint32_t>(value,
                    gpu ? uint32_t(p.dram.peakBandwidthGBs * 1000.0 / bytesPerClock + 0.5) : 0);
      return HSA_STATUS_SUCCESS;
    }
    case HSA_AMD_AGENT_INFO_PRODUCT_NAME:
      putString(value, gpu ? productName(p) : "vgpu host CPU", 64);
      return HSA_STATUS_SUCCESS;
    case HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU:
      put<uint32_t>(value, gpu ? p.cu.simdsPerCu * p.cu.waveSlotsPerSimd : 0);
      return HSA_STATUS_SUCCESS;
    case HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU:
      put<uint32_t>(value, gpu ? p.cu.simdsPerCu : 0);
      return HSA_STATUS_SUCCESS;
    case HSA_AMD_AGENT_INFO_HDP_FLUSH: {
      // The host data path flush registers (amdgpu's HDP): the CPU's writes reach the model's
      // device memory only through the port, in order, so there is nothing to flush; the two
      // words give ROCclr somewhere harmless to write.
      static uint32_t registers[2];
      hsa_amd_hdp_flush_t flush{&registers[0], &registers[1]};
      put(value, flush);
      return HSA_STATUS_SUCCESS;
    }
    case HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES:
      // Cooperative queues (HSA_QUEUE_TYPE_COOPERATIVE, what ROCclr runs
      // hipLaunchCooperativeKernel on): the GPU's global wave sync (GWS) serves every queue.
      put<bool>(value, gpu);
      return HSA_STATUS_SUCCESS;
    case HSA_AMD_AGENT_INFO_SVM_DIRECT_HOST_ACCESS:
      put<bool>(value, false);
      return HSA_STATUS_SUCCESS;
    case HSA_AMD_AGENT_INFO_UUID: {
      // ROCr's form, "GPU-" and 16 hex digits, from the platform's name (stable across runs).
      uint64_t h = 1469598103934665603ull;  // FNV-1a (public domain hash)
      for (char c : p.name) h = (h ^ uint8_t(c)) * 1099511628211ull;
      char text[24];
      std::snprintf(text, sizeof text, "GPU-%016llx", static_cast<unsigned long long>(h));
      putString(value, gpu ? std::string(text) : std::string("CPU-XX"), 21);
      return HSA_STATUS_SUCCESS;
    }
    default:
      // The image extension's attributes (hsa_ext_image.h, HSA_EXT_AGENT_INFO_IMAGE_*): GPU only.
      if (gpu && attribute >= 0x3000 && attribute <= 0x300C)
        return imageAgentInfo(attribute, value);
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
}

hsa_status_t Runtime::poolInfo(const Pool& pool, int attribute, void* value) {
  const PlatformConfig& p = platform();
  const bool group = pool.kind == Pool::Kind::GpuGroup;
  const uint64_t size = pool.system() ? physicalMemoryBytes()
                        : group       ? p.lds.sizeBytes
                                      : p.dram.sizeBytes;
  switch (attribute) {
    case HSA_AMD_MEMORY_POOL_INFO_SEGMENT:
      put<hsa_amd_segment_t>(value, group ? HSA_AMD_SEGMENT_GROUP : HSA_AMD_SEGMENT_GLOBAL);
      return HSA_STATUS_SUCCESS;
    case HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS: {
      uint32_t flags = 0;
      if (pool.kind == Pool::Kind::CpuFine) flags = HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED;
      if (pool.kind == Pool::Kind::CpuKernarg)
        flags = HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED |
                HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT;
      if (pool.kind == Pool::Kind::CpuCoarse || pool.kind == Pool::Kind::GpuDevice)
        flags = HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED;
      put<uint32_t>(value, flags);
      return HSA_STATUS_SUCCESS;
    }
    case HSA_AMD_MEMORY_POOL_INFO_SIZE:
    case HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE:
      put<size_t>(value, size);
      return HSA_STATUS_SUCCESS;
    case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED:
      put<bool>(value, !group);
      return HSA_STATUS_SUCCESS;
    case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE:
    case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT:
      put<size_t>(value, group ? 0 : kPageBytes);
      return HSA_STATUS_SUCCESS;
    case HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL:
      put<bool>(value, pool.kind == Pool::Kind::CpuFine || pool.kind == Pool::Kind::CpuKernarg);
      return HSA_STATUS_SUCCESS;
    default:
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
}

hsa_status_t Runtime::systemInfo(int attribute, void* value) {
  switch (attribute) {
    case HSA_SYSTEM_INFO_VERSION_MAJOR:
    case HSA_SYSTEM_INFO_VERSION_MINOR:
      put<uint16_t>(value, 1);
      return HSA_STATUS_SUCCESS;
    case HSA_SYSTEM_INFO_TIMESTAMP:
      put<uint64_t>(value, port_->timestampNow());
      return HSA_STATUS_SUCCESS;
    case HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY:
      put<uint64_t>(value, port_->timestampFrequency());
      return HSA_STATUS_SUCCESS;
    case HSA_SYSTEM_INFO_SIGNAL_MAX_WAIT:
      put<uint64_t>(value, UINT64_MAX);
      return HSA_STATUS_SUCCESS;
    case HSA_SYSTEM_INFO_ENDIANNESS:
      put<hsa_endianness_t>(value, HSA_ENDIANNESS_LITTLE);
      return HSA_STATUS_SUCCESS;
    case HSA_SYSTEM_INFO_MACHINE_MODEL:
      put<hsa_machine_model_t>(value, HSA_MACHINE_MODEL_LARGE);
      return HSA_STATUS_SUCCESS;
    case HSA_SYSTEM_INFO_EXTENSIONS:
      setExtensionBits(value);
      return HSA_STATUS_SUCCESS;
    case HSA_AMD_SYSTEM_INFO_BUILD_VERSION:
      put<const char*>(value, "vgpu");
      return HSA_STATUS_SUCCESS;
    case HSA_AMD_SYSTEM_INFO_SVM_SUPPORTED:
    case HSA_AMD_SYSTEM_INFO_SVM_ACCESSIBLE_BY_DEFAULT:
      // No shared virtual memory (hsa_amd_svm_*): device memory is the GPU's own aperture.
      put<bool>(value, false);
      return HSA_STATUS_SUCCESS;
    default:
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
}

// ---- memory ----------------------------------------------------------------------------------

void* Runtime::allocateSystemPages(uint64_t bytes) {
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED ? nullptr : p;
}

hsa_status_t Runtime::allocate(Pool& pool, size_t bytes, void** ptr) {
  if (bytes == 0 || ptr == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (pool.kind == Pool::Kind::GpuGroup) return HSA_STATUS_ERROR_INVALID_ALLOCATION;
  const uint64_t rounded = (uint64_t(bytes) + kPageBytes - 1) / kPageBytes * kPageBytes;
  Allocation a;
  a.bytes = rounded;
  a.pool = &pool;
  uint64_t base = 0;
  if (pool.kind == Pool::Kind::GpuDevice) {
    std::optional<uint64_t> device = port_->allocateDevice(rounded, kPageBytes);
    if (!device) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    base = *device;
    a.device = true;
  } else {
    void* host = allocateSystemPages(rounded);
    if (host == nullptr) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    port_->exposeSystemMemory(host, rounded);
    base = reinterpret_cast<uint64_t>(host);
  }
  {
    std::lock_guard<std::mutex> lock(memoryMutex_);
    allocations_[base] = a;
  }
  *ptr = reinterpret_cast<void*>(base);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t Runtime::free(void* ptr) {
  if (ptr == nullptr) return HSA_STATUS_SUCCESS;
  Allocation a;
  const uint64_t base = reinterpret_cast<uint64_t>(ptr);
  {
    std::lock_guard<std::mutex> lock(memoryMutex_);
    auto it = allocations_.find(base);
    if (it == allocations_.end() || it->second.pool == nullptr)
      return HSA_STATUS_ERROR_INVALID_ALLOCATION;
    a = it->second;
    allocations_.erase(it);
  }
  if (a.device) {
    port_->freeDevice(base);
  } else {
    port_->withdrawSystemMemory(ptr);
    munmap(ptr, a.bytes);
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t Runtime::lock(void* host, size_t bytes, void** agentPtr) {
  if (host == nullptr || bytes == 0 || agentPtr == nullptr)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const uint64_t base = reinterpret_cast<uint64_t>(host);
  uint64_t containing = 0;
  Allocation inside;
  if (findAllocation(base, containing, inside) && inside.device)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;  // device memory is not the host's to lock
  bool expose = false;
  {
    std::lock_guard<std::mutex> lock(memoryMutex_);
    auto it = allocations_.find(base);
    if (it != allocations_.end() && it->second.pool != nullptr) {
      // Memory of a system pool is already visible to the GPU.
    } else if (it != allocations_.end()) {
      ++it->second.lockCount;
      it->second.bytes = std::max<uint64_t>(it->second.bytes, bytes);
    } else {
      Allocation a;
      a.bytes = bytes;
      a.lockCount = 1;
      allocations_[base] = a;
      expose = true;
    }
  }
  // The GPU reaches system memory at its host addresses (GpuPort: system memory is mapped 1:1).
  if (expose) port_->exposeSystemMemory(host, bytes);
  *agentPtr = host;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t Runtime::unlock(void* host) {
  const uint64_t base = reinterpret_cast<uint64_t>(host);
  {
    std::lock_guard<std::mutex> lock(memoryMutex_);
    auto it = allocations_.find(base);
    if (it == allocations_.end()) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    if (it->second.pool != nullptr) return HSA_STATUS_SUCCESS;  // pool memory: stays visible
    if (--it->second.lockCount > 0) return HSA_STATUS_SUCCESS;
    allocations_.erase(it);
  }
  port_->withdrawSystemMemory(host);
  return HSA_STATUS_SUCCESS;
}

bool Runtime::findAllocation(uint64_t address, uint64_t& base, Allocation& out) {
  std::lock_guard<std::mutex> lock(memoryMutex_);
  auto it = allocations_.upper_bound(address);
  if (it == allocations_.begin()) return false;
  --it;
  if (address >= it->first + it->second.bytes) return false;
  base = it->first;
  out = it->second;
  return true;
}

bool Runtime::setUserData(uint64_t base, void* userData) {
  std::lock_guard<std::mutex> lock(memoryMutex_);
  auto it = allocations_.find(base);
  if (it == allocations_.end()) return false;
  it->second.userData = userData;
  return true;
}

bool Runtime::isDevice(uint64_t address) {
  uint64_t base;
  Allocation a;
  return findAllocation(address, base, a) && a.device;
}

void Runtime::copy(uint64_t dst, uint64_t src, uint64_t bytes) {
  const bool dstDevice = isDevice(dst), srcDevice = isDevice(src);
  if (!dstDevice && !srcDevice) {
    std::memmove(reinterpret_cast<void*>(dst), reinterpret_cast<const void*>(src), bytes);
  } else if (dstDevice && !srcDevice) {
    port_->writeDevice(dst, reinterpret_cast<const void*>(src), bytes);
  } else if (!dstDevice) {
    port_->readDevice(src, reinterpret_cast<void*>(dst), bytes);
  } else {
    std::vector<uint8_t> staging(bytes);
    port_->readDevice(src, staging.data(), bytes);
    port_->writeDevice(dst, staging.data(), bytes);
  }
}

// ---- signals ---------------------------------------------------------------------------------

amd_signal_t* Runtime::createSignal(hsa_signal_value_t initial, amd_signal_kind64_t kind) {
  amd_signal_t* s = nullptr;
  {
    std::lock_guard<std::mutex> lock(signalMutex_);
    if (freeSignals_.empty()) {
      // Signals live in exposed system memory: the GPU reads, writes and decrements them, and
      // device code may use them directly (amd_hsa_signal.h). A page holds 64 of them.
      void* page = allocateSystemPages(kPageBytes);
      if (page == nullptr) return nullptr;
      port_->exposeSignalMemory(page, kPageBytes);
      signalPages_.push_back(page);
      auto* slab = static_cast<amd_signal_t*>(page);
      for (size_t i = kPageBytes / sizeof(amd_signal_t); i-- > 0;) freeSignals_.push_back(&slab[i]);
    }
    s = freeSignals_.back();
    freeSignals_.pop_back();
    liveSignals_.insert(s);
  }
  std::memset(static_cast<void*>(s), 0, sizeof *s);
  s->kind = kind;
  __atomic_store_n(const_cast<int64_t*>(&s->value), initial, __ATOMIC_RELEASE);
  return s;
}

bool Runtime::destroySignal(amd_signal_t* s) {
  std::lock_guard<std::mutex> lock(signalMutex_);
  if (liveSignals_.erase(s) == 0) return false;
  s->kind = AMD_SIGNAL_KIND_INVALID;
  freeSignals_.push_back(s);
  return true;
}

bool Runtime::isSignal(hsa_signal_t s) {
  std::lock_guard<std::mutex> lock(signalMutex_);
  return liveSignals_.count(reinterpret_cast<amd_signal_t*>(s.handle)) != 0;
}

void Runtime::signalChanged(amd_signal_t* s) {
  if (s->kind == AMD_SIGNAL_KIND_DOORBELL) {
    // The application stores the id of a packet that is ready (hsa.h, hsa_queue_t::
    // doorbell_signal); the port wants the number of packets written. On a MULTI queue
    // producers ring in any order, so the port is only ever told a larger count.
    Queue* q = nullptr;
    {
      std::lock_guard<std::mutex> lock(signalMutex_);
      auto it = doorbells_.find(s);
      if (it != doorbells_.end()) q = it->second;
    }
    if (q != nullptr) {
      const int64_t v = __atomic_load_n(const_cast<int64_t*>(&s->value), __ATOMIC_ACQUIRE);
      const uint64_t count = uint64_t(v) + 1;
      uint64_t rung = q->rung.load();
      while (count > rung && !q->rung.compare_exchange_weak(rung, count)) {
      }
      if (count > rung) port_->ringDoorbell(q->portQueue, count);
    }
    return;
  }
  wakeAll();
}

void Runtime::wakeAll() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ++generation_;
  }
  changed_.notify_all();
}

bool Runtime::waitUntil(const std::function<bool()>& check, uint64_t timeoutTicks) {
  using Clock = std::chrono::steady_clock;
  // The timeout is in HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY ticks (hsa.h,
  // hsa_signal_wait_scacquire);
  // it is measured on the host's clock, so a wait lasts at least that long in real time however
  // fast the simulation runs.
  const uint64_t freq = std::max<uint64_t>(1, port_->timestampFrequency());
  const bool forever = timeoutTicks == UINT64_MAX;
  const double seconds = double(timeoutTicks) / double(freq);
  const Clock::time_point deadline =
      forever || seconds > 1e9
          ? Clock::time_point::max()
          : Clock::now() +
                std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  for (;;) {
    checkQueueErrors();
    std::unique_lock<std::mutex> lock(mutex_);
    if (check()) return true;
    const Clock::time_point now = Clock::now();
    if (now >= deadline) return false;
    const uint64_t seen = generation_;
    auto notified = [&] { return generation_ != seen; };
    changed_.wait_until(lock, std::min(deadline, now + kUnannouncedChangePoll), notified);
  }
}

void Runtime::addAsyncHandler(const AsyncHandler& h) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    handlers_.push_back(h);
    ++generation_;
  }
  changed_.notify_all();
}

std::vector<uint32_t> cuMaskWords(uint32_t cus, uint32_t bits, const uint32_t* mask) {
  std::vector<uint32_t> words((cus + 31) / 32, 0);
  for (uint32_t cu = 0; cu < cus; ++cu)
    if (bits == 0 || (cu < bits && ((mask[cu / 32] >> (cu % 32)) & 1)))
      words[cu / 32] |= 1u << (cu % 32);
  return words;
}

bool satisfied(hsa_signal_value_t v, hsa_signal_condition_t c, hsa_signal_value_t x) {
  switch (c) {
    case HSA_SIGNAL_CONDITION_EQ:
      return v == x;
    case HSA_SIGNAL_CONDITION_NE:
      return v != x;
    case HSA_SIGNAL_CONDITION_LT:
      return v < x;
    case HSA_SIGNAL_CONDITION_GTE:
      return v >= x;
  }
  return false;
}

// The runtime's own thread: runs async signal handlers (hsa_ext_amd.h,
// hsa_amd_signal_async_handler: "handler will be invoked on a runtime thread") and reports queue
// errors while nobody waits.
void Runtime::eventLoop() {
  for (;;) {
    checkQueueErrors();
    std::vector<AsyncHandler> ready;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      if (stopping_) return;
      for (auto it = handlers_.begin(); it != handlers_.end();) {
        const int64_t v = __atomic_load_n(signalValue(it->signal), __ATOMIC_ACQUIRE);
        if (satisfied(v, it->condition, it->value)) {
          ready.push_back(*it);
          it = handlers_.erase(it);
        } else {
          ++it;
        }
      }
      if (ready.empty()) {
        const uint64_t seen = generation_;
        changed_.wait_for(lock, kErrorPollInterval,
                          [&] { return generation_ != seen || stopping_; });
        continue;
      }
    }
    for (const AsyncHandler& h : ready) {
      const int64_t v = __atomic_load_n(signalValue(h.signal), __ATOMIC_ACQUIRE);
      // A handler that returns true stays registered for the same condition.
      if (h.handler(v, h.arg)) addAsyncHandler(h);
    }
  }
}

// ---- queues ----------------------------------------------------------------------------------

hsa_status_t Runtime::createQueue(uint32_t size, hsa_queue_type32_t type,
                                  void (*callback)(hsa_status_t, hsa_queue_t*, void*), void* data,
                                  hsa_queue_t** out) {
  if (out == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (size < 64 || size > 131072 || (size & (size - 1)) != 0)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  // A cooperative queue is one whose kernels may use GWS (ROCr gives it the process's GWS
  // allocation); the simulated GPU's GWS is reachable from every queue, so it is an ordinary one.
  if (type != HSA_QUEUE_TYPE_MULTI && type != HSA_QUEUE_TYPE_SINGLE &&
      type != HSA_QUEUE_TYPE_COOPERATIVE)
    return HSA_STATUS_ERROR_INVALID_QUEUE_CREATION;
  auto q = std::make_unique<Queue>();
  q->ringBytes = uint64_t(size) * 64;
  q->ring = allocateSystemPages(q->ringBytes);
  void* header = allocateSystemPages(kPageBytes);
  if (q->ring == nullptr || header == nullptr) {
    if (q->ring) munmap(q->ring, q->ringBytes);
    if (header) munmap(header, kPageBytes);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  port_->exposeSystemMemory(q->ring, q->ringBytes);
  port_->exposeSystemMemory(header, kPageBytes);
  // Every packet starts INVALID (hsa.h, hsa_queue_create), so the packet processor does not
  // take a slot the producer has reserved but not yet written.
  auto* packets = static_cast<uint16_t*>(q->ring);
  for (uint32_t i = 0; i < size; ++i) packets[i * 32] = HSA_PACKET_TYPE_INVALID;
  std::optional<uint32_t> index = port_->createQueue(q->ring, size);
  if (!index) {
    port_->withdrawSystemMemory(q->ring);
    port_->withdrawSystemMemory(header);
    munmap(q->ring, q->ringBytes);
    munmap(header, kPageBytes);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  q->portQueue = *index;
  // Every CU, as the GPU's queue starts (createQueue resets its CU mask).
  q->cuMask = cuMaskWords(platform().computeUnits, 0, nullptr);
  q->amd = static_cast<amd_queue_t*>(header);
  q->doorbell = createSignal(-1, AMD_SIGNAL_KIND_DOORBELL);
  q->callback = callback;
  q->callbackData = data;
  hsa_queue_t& hq = q->amd->hsa_queue;
  hq.type = type;
  hq.features = HSA_QUEUE_FEATURE_KERNEL_DISPATCH | HSA_QUEUE_FEATURE_AGENT_DISPATCH;
  hq.base_address = q->ring;
  hq.doorbell_signal = hsa_signal_t{reinterpret_cast<uint64_t>(q->doorbell)};
  hq.size = size;
  hq.reserved1 = 0;
  q->doorbell->queue_ptr = q->amd;
  // The AMD fields device code and tools may read (amd_hsa_queue.h): 64-bit pointers, and the
  // largest compute-unit and wave-slot ids.
  const PlatformConfig& p = platform();
  q->amd->queue_properties = AMD_QUEUE_PROPERTIES_IS_PTR64;
  q->amd->max_cu_id = p.computeUnits - 1;
  q->amd->max_wave_id = p.cu.simdsPerCu * p.cu.waveSlotsPerSimd - 1;
  // The flat apertures' high halves, for code that finds them through the queue (code objects
  // for targets without aperture registers; gfx9 code reads SH_MEM_BASES instead).
  q->amd->group_segment_aperture_base_hi = static_cast<uint32_t>(kSharedApertureBase >> 32);
  q->amd->private_segment_aperture_base_hi = static_cast<uint32_t>(kPrivateApertureBase >> 32);
  Queue* raw = q.get();
  {
    std::lock_guard<std::mutex> lock(signalMutex_);
    doorbells_[q->doorbell] = raw;
  }
  {
    std::lock_guard<std::mutex> lock(queueMutex_);
    hq.id = nextQueueId_++;
    queues_[&hq] = std::move(q);
  }
  *out = &raw->amd->hsa_queue;
  return HSA_STATUS_SUCCESS;
}

Queue* Runtime::findQueue(const hsa_queue_t* q) {
  std::lock_guard<std::mutex> lock(queueMutex_);
  auto it = queues_.find(q);
  return it == queues_.end() ? nullptr : it->second.get();
}

hsa_status_t Runtime::destroyQueue(hsa_queue_t* hq) {
  std::unique_ptr<Queue> q;
  {
    std::lock_guard<std::mutex> lock(queueMutex_);
    auto it = queues_.find(hq);
    if (it == queues_.end()) return HSA_STATUS_ERROR_INVALID_QUEUE;
    q = std::move(it->second);
    queues_.erase(it);
  }
  port_->destroyQueue(q->portQueue);
  {
    std::lock_guard<std::mutex> lock(signalMutex_);
    doorbells_.erase(q->doorbell);
  }
  destroySignal(q->doorbell);
  port_->withdrawSystemMemory(q->ring);
  port_->withdrawSystemMemory(q->amd);
  munmap(q->ring, q->ringBytes);
  munmap(q->amd, kPageBytes);
  return HSA_STATUS_SUCCESS;
}

uint64_t Runtime::readIndex(const hsa_queue_t* hq) {
  Queue* q = findQueue(hq);
  if (q == nullptr) return 0;
  const uint64_t index = port_->readIndex(q->portQueue);
  __atomic_store_n(&q->amd->read_dispatch_id, index, __ATOMIC_RELEASE);
  return index;
}

void Runtime::addSystemEventHandler(hsa_amd_system_event_callback_t callback, void* data) {
  std::lock_guard<std::mutex> lock(systemEventMutex_);
  systemEventHandlers_.emplace_back(callback, data);
}

void Runtime::checkQueueErrors() {
  std::vector<std::pair<Queue*, std::string>> failed;
  {
    std::lock_guard<std::mutex> lock(queueMutex_);
    for (auto& [hq, q] : queues_) {
      if (q->errorReported) continue;
      std::string error = port_->queueError(q->portQueue);
      if (error.empty()) continue;
      q->errorReported = true;
      failed.emplace_back(q.get(), error);
    }
  }
  for (auto& [q, error] : failed) {
    std::fprintf(stderr, "vgpu: queue %llu: %s\n",
                 static_cast<unsigned long long>(q->amd->hsa_queue.id), error.c_str());
    if (const std::optional<uint64_t> address = port_->queueFaultAddress(q->portQueue)) {
      // The model refuses accesses outside every mapped range: a page not present
      // (hsa_amd_memory_fault_reason_t).
      hsa_amd_event_t event{};
      event.event_type = HSA_AMD_GPU_MEMORY_FAULT_EVENT;
      event.memory_fault.agent = {reinterpret_cast<uint64_t>(&gpu_)};
      event.memory_fault.virtual_address = *address;
      event.memory_fault.fault_reason_mask = HSA_AMD_MEMORY_FAULT_PAGE_NOT_PRESENT;
      std::vector<std::pair<hsa_amd_system_event_callback_t, void*>> handlers;
      {
        std::lock_guard<std::mutex> lock(systemEventMutex_);
        handlers = systemEventHandlers_;
      }
      for (const auto& [callback, data] : handlers) callback(&event, data);
    }
    // As ROCr does for a queue whose packet faulted (hsa.h, hsa_queue_create: the callback is
    // invoked when an asynchronous error is detected in the queue).
    if (q->callback != nullptr)
      q->callback(HSA_STATUS_ERROR_EXCEPTION, &q->amd->hsa_queue, q->callbackData);
  }
  if (!failed.empty()) wakeAll();
}

}  // namespace vgpu::hsa
