// The state behind vgpu's libhsa-runtime64.so.1: agents, pools, signals, queues, executables,
// all over one GpuPort. The exported hsa_* functions (Api*.cpp) are thin wrappers around it.
// Handles given to the application are addresses of the objects below (signals: of their
// amd_signal_t; queues: of the hsa_queue_t inside their amd_queue_t), as ROCr's are.
#pragma once

#include <hsa/amd_hsa_queue.h>
#include <hsa/amd_hsa_signal.h>
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsa/hsa_ven_amd_loader.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "loader/CodeObject.h"
#include "runtime/hsa/GpuPort.h"

namespace vgpu::hsa {

// How hsa_init() gets its GPU; tests install a fake port. An empty factory restores the
// default, defaultGpuPort(). Takes effect at the next first hsa_init().
using GpuPortFactory = std::function<std::unique_ptr<GpuPort>()>;
void setGpuPortFactory(GpuPortFactory factory);
// The GPU of the shared library: openSimulatedGpu() (DefaultGpuPort.cpp, linked only into
// libhsa-runtime64, so that vgpu_hsa_core does not depend on the model).
std::unique_ptr<GpuPort> defaultGpuPort();

// The words of a CU mask as the GPU holds it (Queue::cuMask) for a GPU of `cus` CUs, from the
// first `bits` bits of `mask` as hsa_amd_queue_cu_set_mask takes them: bit i enables CU i, bits
// past `bits` and past the GPU's CUs enable nothing, and `bits` 0 enables every CU.
std::vector<uint32_t> cuMaskWords(uint32_t cus, uint32_t bits, const uint32_t* mask);

// Whether a signal's value `v` meets `c` against `x` (hsa_signal_condition_t, hsa.h).
bool satisfied(hsa_signal_value_t v, hsa_signal_condition_t c, hsa_signal_value_t x);

// The GPU agent's HSA_EXT_AGENT_INFO_IMAGE_* attributes (ApiImage.cpp).
hsa_status_t imageAgentInfo(int attribute, void* value);

// Prints "vgpu: NAME is not supported by the simulated GPU" once per NAME, returns `status`.
hsa_status_t unsupported(const char* name, hsa_status_t status = HSA_STATUS_ERROR);

struct Isa {
  std::string name;  // amdgcn-amd-amdhsa--gfx906:sramecc+:xnack-
  std::string processor;
};

struct Cache {
  std::string name;
  uint8_t level = 0;
  uint32_t bytes = 0;
};

struct Agent {
  bool gpu = false;
  std::vector<struct Pool*> pools;
};

struct Pool {
  enum class Kind { CpuFine, CpuKernarg, CpuCoarse, GpuDevice, GpuGroup };
  Kind kind;
  Agent* owner = nullptr;
  bool system() const {
    return kind == Kind::CpuFine || kind == Kind::CpuKernarg || kind == Kind::CpuCoarse;
  }
};

struct Allocation {
  uint64_t bytes = 0;
  Pool* pool = nullptr;  // nullptr: memory locked (pinned) by the application
  bool device = false;
  uint32_t lockCount = 0;    // for locked ranges
  void* userData = nullptr;  // hsa_amd_pointer_info_set_userdata
};

struct Queue {
  amd_queue_t* amd = nullptr;  // in exposed system memory
  void* ring = nullptr;
  uint64_t ringBytes = 0;
  uint32_t portQueue = 0;
  amd_signal_t* doorbell = nullptr;
  void (*callback)(hsa_status_t, hsa_queue_t*, void*) = nullptr;
  void* callbackData = nullptr;
  bool errorReported = false;
  std::atomic<uint64_t> rung{0};  // the largest packet count given to ringDoorbell()
  bool profiling = false;
  // hsa_amd_queue_cu_set_mask's mask as the GPU holds it: bit i of word w enables CU 32w + i,
  // bits past the GPU's CUs clear (hsa_amd_queue_cu_get_mask reads it back).
  std::vector<uint32_t> cuMask;
};

struct AsyncHandler {
  hsa_signal_t signal;
  hsa_signal_condition_t condition;
  hsa_signal_value_t value;
  hsa_amd_signal_handler handler;
  void* arg;
};

struct CodeObjectReader {
  std::vector<uint8_t> bytes;
  std::string name;
};

struct ExecutableSymbol;
struct LoadedCodeObject {
  struct Executable* executable = nullptr;
  Agent* agent = nullptr;
  loader::CodeObject object;
  std::vector<uint8_t> storage;    // the code object's bytes (the loader extension reports them)
  std::vector<uint8_t> hostImage;  // the relocated image as written to device memory
  uint64_t base = 0;               // device address of the image
  uint64_t bytes = 0;
};

struct ExecutableSymbol {
  struct Executable* executable = nullptr;
  Agent* agent = nullptr;
  std::string name;
  bool kernel = false;
  uint64_t address = 0;  // kernel descriptor or variable address
  uint64_t size = 0;
  hsa_symbol_linkage_t linkage = HSA_SYMBOL_LINKAGE_PROGRAM;
  uint32_t kernargSize = 0, kernargAlign = 0, groupSize = 0, privateSize = 0;
  bool dynamicCallStack = false;
};

struct Executable {
  hsa_profile_t profile = HSA_PROFILE_FULL;
  hsa_default_float_rounding_mode_t rounding = HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR;
  bool frozen = false;
  std::vector<std::unique_ptr<LoadedCodeObject>> objects;
  std::vector<std::unique_ptr<ExecutableSymbol>> symbols;
};

class Runtime {
 public:
  explicit Runtime(std::unique_ptr<GpuPort> port);
  ~Runtime();

  // The runtime between the first hsa_init and the last hsa_shut_down, or nullptr.
  static Runtime* get();
  static hsa_status_t init();
  static hsa_status_t shutDown();

  GpuPort& port() { return *port_; }
  const PlatformConfig& platform() const { return port_->platform(); }
  Agent& cpu() { return cpu_; }
  Agent& gpu() { return gpu_; }
  const Isa& isa() const { return isa_; }
  const std::vector<Cache>& caches() const { return caches_; }
  bool isAgent(hsa_agent_t a) const;
  bool isPool(uint64_t handle) const;
  bool isIsa(hsa_isa_t i) const { return i.handle == reinterpret_cast<uint64_t>(&isa_); }

  // --- info ---
  hsa_status_t agentInfo(const Agent& agent, int attribute, void* value);
  hsa_status_t poolInfo(const Pool& pool, int attribute, void* value);
  hsa_status_t systemInfo(int attribute, void* value);

  // --- memory ---
  hsa_status_t allocate(Pool& pool, size_t bytes, void** ptr);
  hsa_status_t free(void* ptr);
  hsa_status_t lock(void* host, size_t bytes, void** agentPtr);
  hsa_status_t unlock(void* host);
  // The allocation containing `address` (base, entry), or false.
  bool findAllocation(uint64_t address, uint64_t& base, Allocation& out);
  bool isDevice(uint64_t address);
  // Sets the user data of the allocation starting at `base`; false if there is none.
  bool setUserData(uint64_t base, void* userData);
  void copy(uint64_t dst, uint64_t src, uint64_t bytes);

  // --- signals ---
  amd_signal_t* createSignal(hsa_signal_value_t initial, amd_signal_kind64_t kind);
  bool destroySignal(amd_signal_t* s);
  bool isSignal(hsa_signal_t s);
  // A host-side change of a signal's value: wakes waiters, rings doorbells.
  void signalChanged(amd_signal_t* s);
  // Waits until `check` (called with mutex_ held) is true or `timeoutTicks` (HSA timestamp
  // ticks, UINT64_MAX: forever) pass; reports queue errors on the way. Returns check()'s last
  // result.
  bool waitUntil(const std::function<bool()>& check, uint64_t timeoutTicks);
  void addAsyncHandler(const AsyncHandler& h);
  void wakeAll();

  // --- queues ---
  hsa_status_t createQueue(uint32_t size, hsa_queue_type32_t type,
                           void (*callback)(hsa_status_t, hsa_queue_t*, void*), void* data,
                           hsa_queue_t** out);
  hsa_status_t destroyQueue(hsa_queue_t* q);
  Queue* findQueue(const hsa_queue_t* q);
  uint64_t readIndex(const hsa_queue_t* q);
  // Reports queue errors the GPU has flagged (once per queue): a memory violation first to the
  // system event handlers (HSA_AMD_GPU_MEMORY_FAULT_EVENT), then every error to its queue's
  // callback. Never called with mutex_ held.
  void checkQueueErrors();
  // hsa_amd_register_system_event_handler: kept in order, as ROCr keeps them (several may be).
  void addSystemEventHandler(hsa_amd_system_event_callback_t callback, void* data);

  // --- code objects ---
  std::mutex& objectsMutex() { return objectsMutex_; }
  std::set<CodeObjectReader*> readers;
  std::set<Executable*> executables;
  hsa_status_t loadCodeObject(Executable& e, Agent& agent, const CodeObjectReader& r,
                              hsa_loaded_code_object_t* out);
  void destroyExecutable(Executable* e);

  static uint64_t kPageBytes;

 private:
  void eventLoop();
  void* allocateSystemPages(uint64_t bytes);

  std::unique_ptr<GpuPort> port_;
  Agent cpu_, gpu_;
  Pool cpuFine_{Pool::Kind::CpuFine}, cpuKernarg_{Pool::Kind::CpuKernarg},
      cpuCoarse_{Pool::Kind::CpuCoarse}, gpuDevice_{Pool::Kind::GpuDevice},
      gpuGroup_{Pool::Kind::GpuGroup};
  Isa isa_;
  std::vector<Cache> caches_;

  std::mutex memoryMutex_;
  std::map<uint64_t, Allocation> allocations_;  // by base address

  std::mutex signalMutex_;  // the signal slabs and free list
  std::vector<amd_signal_t*> freeSignals_;
  std::vector<void*> signalPages_;
  std::set<amd_signal_t*> liveSignals_;
  std::map<amd_signal_t*, Queue*> doorbells_;

  std::mutex queueMutex_;
  std::map<const hsa_queue_t*, std::unique_ptr<Queue>> queues_;
  uint64_t nextQueueId_ = 0;

  std::mutex objectsMutex_;

  std::mutex systemEventMutex_;
  std::vector<std::pair<hsa_amd_system_event_callback_t, void*>> systemEventHandlers_;

  // Waiting: every change a waiter may care about bumps generation_ under mutex_ and notifies.
  std::mutex mutex_;
  std::condition_variable changed_;
  uint64_t generation_ = 0;
  std::vector<AsyncHandler> handlers_;
  bool stopping_ = false;
  std::thread eventThread_;
};

// Memory order helpers for the *_relaxed/_acquire/... variants.
inline int64_t* signalValue(hsa_signal_t s) {
  return const_cast<int64_t*>(&reinterpret_cast<amd_signal_t*>(s.handle)->value);
}

}  // namespace vgpu::hsa
