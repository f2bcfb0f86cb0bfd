// Signals, signal groups and AQL queue indices (HSA Runtime Programmer's Reference
// Manual 1.2, chapter 2; hsa.h). A signal handle is the address of its amd_signal_t
// (amd_hsa_signal.h); the value is changed with atomics in the memory order the function's name
// gives, and host-side changes wake the runtime's waiters.
#include <algorithm>
#include <cstring>
#include <vector>

#include "runtime/hsa/HsaRuntime.h"

using vgpu::hsa::Runtime;

#define VGPU_RUNTIME(rt)        \
  Runtime* rt = Runtime::get(); \
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED

namespace {

int64_t* valueOf(hsa_signal_t s) {
  return vgpu::hsa::signalValue(s);
}

using vgpu::hsa::satisfied;

void changed(hsa_signal_t s) {
  if (Runtime* rt = Runtime::get()) rt->signalChanged(reinterpret_cast<amd_signal_t*>(s.handle));
}

hsa_signal_value_t wait(hsa_signal_t s, hsa_signal_condition_t condition,
                        hsa_signal_value_t compare, uint64_t timeout, int order) {
  int64_t* p = valueOf(s);
  hsa_signal_value_t v = __atomic_load_n(p, order);
  if (satisfied(v, condition, compare)) return v;
  Runtime* rt = Runtime::get();
  if (rt == nullptr) return v;
  rt->waitUntil(
      [&] {
        v = __atomic_load_n(p, order);
        return satisfied(v, condition, compare);
      },
      timeout);
  return v;
}

struct SignalGroup {
  std::vector<hsa_signal_t> signals;
};

}  // namespace

extern "C" {

hsa_status_t HSA_API hsa_signal_create(hsa_signal_value_t initial_value, uint32_t num_consumers,
                                       const hsa_agent_t* consumers, hsa_signal_t* signal) {
  VGPU_RUNTIME(rt);
  if (signal == nullptr || (num_consumers > 0 && consumers == nullptr))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  amd_signal_t* s = rt->createSignal(initial_value, AMD_SIGNAL_KIND_USER);
  if (s == nullptr) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  signal->handle = reinterpret_cast<uint64_t>(s);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_amd_signal_create(hsa_signal_value_t initial_value, uint32_t num_consumers,
                                           const hsa_agent_t* consumers, uint64_t attributes,
                                           hsa_signal_t* signal) {
  VGPU_RUNTIME(rt);
  if (attributes & HSA_AMD_SIGNAL_IPC) return vgpu::hsa::unsupported("hsa_amd_signal_create (IPC)");
  return hsa_signal_create(initial_value, num_consumers, consumers, signal);
}

hsa_status_t HSA_API hsa_signal_destroy(hsa_signal_t signal) {
  VGPU_RUNTIME(rt);
  if (signal.handle == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return rt->destroySignal(reinterpret_cast<amd_signal_t*>(signal.handle))
             ? HSA_STATUS_SUCCESS
             : HSA_STATUS_ERROR_INVALID_SIGNAL;
}

hsa_status_t HSA_API hsa_amd_signal_value_pointer(hsa_signal_t signal,
                                                  volatile hsa_signal_value_t** value_ptr) {
  VGPU_RUNTIME(rt);
  if (!rt->isSignal(signal)) return HSA_STATUS_ERROR_INVALID_SIGNAL;
  if (value_ptr == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *value_ptr = valueOf(signal);
  return HSA_STATUS_SUCCESS;
}

// ---- loads and stores ----
#define VGPU_SIGNAL_LOAD(suffix, order)                                 \
  hsa_signal_value_t HSA_API hsa_signal_load_##suffix(hsa_signal_t s) { \
    return __atomic_load_n(valueOf(s), order);                          \
  }
VGPU_SIGNAL_LOAD(relaxed, __ATOMIC_RELAXED)
VGPU_SIGNAL_LOAD(acquire, __ATOMIC_ACQUIRE)
VGPU_SIGNAL_LOAD(scacquire, __ATOMIC_ACQUIRE)

#define VGPU_SIGNAL_STORE(suffix, order)                                             \
  void HSA_API hsa_signal_store_##suffix(hsa_signal_t s, hsa_signal_value_t value) { \
    __atomic_store_n(valueOf(s), value, order);                                      \
    changed(s);                                                                      \
  }
VGPU_SIGNAL_STORE(relaxed, __ATOMIC_RELAXED)
VGPU_SIGNAL_STORE(release, __ATOMIC_RELEASE)
VGPU_SIGNAL_STORE(screlease, __ATOMIC_RELEASE)

// Silent stores need not wake waiters (hsa.h, hsa_signal_silent_store_relaxed).
void HSA_API hsa_signal_silent_store_relaxed(hsa_signal_t s, hsa_signal_value_t value) {
  __atomic_store_n(valueOf(s), value, __ATOMIC_RELAXED);
}
void HSA_API hsa_signal_silent_store_screlease(hsa_signal_t s, hsa_signal_value_t value) {
  __atomic_store_n(valueOf(s), value, __ATOMIC_RELEASE);
}

// ---- read-modify-write ----
#define VGPU_SIGNAL_RMW(op, builtin, suffix, order)                                   \
  void HSA_API hsa_signal_##op##_##suffix(hsa_signal_t s, hsa_signal_value_t value) { \
    builtin(valueOf(s), value, order);                                                \
    changed(s);                                                                       \
  }
#define VGPU_SIGNAL_RMW_ALL(op, builtin)                    \
  VGPU_SIGNAL_RMW(op, builtin, relaxed, __ATOMIC_RELAXED)   \
  VGPU_SIGNAL_RMW(op, builtin, acquire, __ATOMIC_ACQUIRE)   \
  VGPU_SIGNAL_RMW(op, builtin, scacquire, __ATOMIC_ACQUIRE) \
  VGPU_SIGNAL_RMW(op, builtin, release, __ATOMIC_RELEASE)   \
  VGPU_SIGNAL_RMW(op, builtin, screlease, __ATOMIC_RELEASE) \
  VGPU_SIGNAL_RMW(op, builtin, acq_rel, __ATOMIC_ACQ_REL)   \
  VGPU_SIGNAL_RMW(op, builtin, scacq_screl, __ATOMIC_ACQ_REL)
VGPU_SIGNAL_RMW_ALL(add, __atomic_fetch_add)
VGPU_SIGNAL_RMW_ALL(subtract, __atomic_fetch_sub)
VGPU_SIGNAL_RMW_ALL(and, __atomic_fetch_and)
VGPU_SIGNAL_RMW_ALL(or, __atomic_fetch_or)
VGPU_SIGNAL_RMW_ALL(xor, __atomic_fetch_xor)

#define VGPU_SIGNAL_EXCHANGE(suffix, order)                                           \
  hsa_signal_value_t HSA_API hsa_signal_exchange_##suffix(hsa_signal_t s,             \
                                                          hsa_signal_value_t value) { \
    hsa_signal_value_t old = __atomic_exchange_n(valueOf(s), value, order);           \
    changed(s);                                                                       \
    return old;                                                                       \
  }
#define VGPU_SIGNAL_CAS(suffix, order)                                                             \
  hsa_signal_value_t HSA_API hsa_signal_cas_##suffix(hsa_signal_t s, hsa_signal_value_t expected,  \
                                                     hsa_signal_value_t value) {                   \
    hsa_signal_value_t observed = expected;                                                        \
    if (__atomic_compare_exchange_n(valueOf(s), &observed, value, false, order, __ATOMIC_RELAXED)) \
      changed(s);                                                                                  \
    return observed;                                                                               \
  }
#define VGPU_SIGNAL_ALL_ORDERS(macro)                                         \
  macro(relaxed, __ATOMIC_RELAXED) macro(acquire, __ATOMIC_ACQUIRE)           \
      macro(scacquire, __ATOMIC_ACQUIRE) macro(release, __ATOMIC_RELEASE)     \
          macro(screlease, __ATOMIC_RELEASE) macro(acq_rel, __ATOMIC_ACQ_REL) \
              macro(scacq_screl, __ATOMIC_ACQ_REL)
VGPU_SIGNAL_ALL_ORDERS(VGPU_SIGNAL_EXCHANGE)
VGPU_SIGNAL_ALL_ORDERS(VGPU_SIGNAL_CAS)

// ---- waits ----
hsa_signal_value_t HSA_API hsa_signal_wait_scacquire(hsa_signal_t s,
                                                     hsa_signal_condition_t condition,
                                                     hsa_signal_value_t compare_value,
                                                     uint64_t timeout_hint,
                                                     hsa_wait_state_t wait_state_hint) {
  return wait(s, condition, compare_value, timeout_hint, __ATOMIC_ACQUIRE);
}
hsa_signal_value_t HSA_API hsa_signal_wait_acquire(hsa_signal_t s, hsa_signal_condition_t condition,
                                                   hsa_signal_value_t compare_value,
                                                   uint64_t timeout_hint,
                                                   hsa_wait_state_t wait_state_hint) {
  return wait(s, condition, compare_value, timeout_hint, __ATOMIC_ACQUIRE);
}
hsa_signal_value_t HSA_API hsa_signal_wait_relaxed(hsa_signal_t s, hsa_signal_condition_t condition,
                                                   hsa_signal_value_t compare_value,
                                                   uint64_t timeout_hint,
                                                   hsa_wait_state_t wait_state_hint) {
  return wait(s, condition, compare_value, timeout_hint, __ATOMIC_RELAXED);
}

uint32_t HSA_API hsa_amd_signal_wait_any(uint32_t signal_count, hsa_signal_t* signals,
                                         hsa_signal_condition_t* conds, hsa_signal_value_t* values,
                                         uint64_t timeout_hint, hsa_wait_state_t wait_hint,
                                         hsa_signal_value_t* satisfying_value) {
  Runtime* rt = Runtime::get();
  if (rt == nullptr || signal_count == 0 || signals == nullptr || conds == nullptr ||
      values == nullptr)
    return UINT32_MAX;
  uint32_t index = UINT32_MAX;
  hsa_signal_value_t seen = 0;
  rt->waitUntil(
      [&] {
        for (uint32_t i = 0; i < signal_count; ++i) {
          hsa_signal_value_t v = __atomic_load_n(valueOf(signals[i]), __ATOMIC_ACQUIRE);
          if (satisfied(v, conds[i], values[i])) {
            index = i;
            seen = v;
            return true;
          }
        }
        return false;
      },
      timeout_hint);
  if (index != UINT32_MAX && satisfying_value != nullptr) *satisfying_value = seen;
  return index;
}

hsa_status_t HSA_API hsa_amd_signal_async_handler(hsa_signal_t signal, hsa_signal_condition_t cond,
                                                  hsa_signal_value_t value,
                                                  hsa_amd_signal_handler handler, void* arg) {
  VGPU_RUNTIME(rt);
  if (!rt->isSignal(signal)) return HSA_STATUS_ERROR_INVALID_SIGNAL;
  if (handler == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  rt->addAsyncHandler(vgpu::hsa::AsyncHandler{signal, cond, value, handler, arg});
  return HSA_STATUS_SUCCESS;
}

// ---- signal groups ----
hsa_status_t HSA_API hsa_signal_group_create(uint32_t num_signals, const hsa_signal_t* signals,
                                             uint32_t num_consumers, const hsa_agent_t* consumers,
                                             hsa_signal_group_t* signal_group) {
  VGPU_RUNTIME(rt);
  if (num_signals == 0 || signals == nullptr || signal_group == nullptr)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  auto* g = new SignalGroup;
  for (uint32_t i = 0; i < num_signals; ++i) {
    if (!rt->isSignal(signals[i])) {
      delete g;
      return HSA_STATUS_ERROR_INVALID_SIGNAL;
    }
    g->signals.push_back(signals[i]);
  }
  signal_group->handle = reinterpret_cast<uint64_t>(g);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_signal_group_destroy(hsa_signal_group_t signal_group) {
  VGPU_RUNTIME(rt);
  if (signal_group.handle == 0) return HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP;
  delete reinterpret_cast<SignalGroup*>(signal_group.handle);
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t groupWait(hsa_signal_group_t signal_group,
                              const hsa_signal_condition_t* conditions,
                              const hsa_signal_value_t* compare_values, hsa_signal_t* signal,
                              hsa_signal_value_t* value) {
  VGPU_RUNTIME(rt);
  if (signal_group.handle == 0) return HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP;
  if (conditions == nullptr || compare_values == nullptr || signal == nullptr || value == nullptr)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  auto* g = reinterpret_cast<SignalGroup*>(signal_group.handle);
  std::vector<hsa_signal_condition_t> conds(conditions, conditions + g->signals.size());
  std::vector<hsa_signal_value_t> values(compare_values, compare_values + g->signals.size());
  uint32_t i = hsa_amd_signal_wait_any(uint32_t(g->signals.size()), g->signals.data(), conds.data(),
                                       values.data(), UINT64_MAX, HSA_WAIT_STATE_BLOCKED, value);
  if (i == UINT32_MAX) return HSA_STATUS_ERROR;
  *signal = g->signals[i];
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_signal_group_wait_any_scacquire(hsa_signal_group_t signal_group,
                                                         const hsa_signal_condition_t* conditions,
                                                         const hsa_signal_value_t* compare_values,
                                                         hsa_wait_state_t wait_state_hint,
                                                         hsa_signal_t* signal,
                                                         hsa_signal_value_t* value) {
  return groupWait(signal_group, conditions, compare_values, signal, value);
}

hsa_status_t HSA_API hsa_signal_group_wait_any_relaxed(hsa_signal_group_t signal_group,
                                                       const hsa_signal_condition_t* conditions,
                                                       const hsa_signal_value_t* compare_values,
                                                       hsa_wait_state_t wait_state_hint,
                                                       hsa_signal_t* signal,
                                                       hsa_signal_value_t* value) {
  return groupWait(signal_group, conditions, compare_values, signal, value);
}

// ---- queues ----

hsa_status_t HSA_API hsa_queue_create(hsa_agent_t agent, uint32_t size, hsa_queue_type32_t type,
                                      void (*callback)(hsa_status_t status, hsa_queue_t* source,
                                                       void* data),
                                      void* data, uint32_t private_segment_size,
                                      uint32_t group_segment_size, hsa_queue_t** queue) {
  VGPU_RUNTIME(rt);
  if (agent.handle != reinterpret_cast<uint64_t>(&rt->gpu())) return HSA_STATUS_ERROR_INVALID_AGENT;
  // The segment sizes are hints (UINT32_MAX: unknown); the port gives each dispatch the
  // scratch its private segment needs.
  return rt->createQueue(size, type, callback, data, queue);
}

// Handlers of system events: the simulated GPU raises HSA_AMD_GPU_MEMORY_FAULT_EVENT when a
// kernel's access is refused (Runtime::checkQueueErrors), before the queue's callback hears of it.
hsa_status_t HSA_API hsa_amd_register_system_event_handler(hsa_amd_system_event_callback_t callback,
                                                           void* data) {
  VGPU_RUNTIME(rt);
  if (callback == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  rt->addSystemEventHandler(callback, data);
  return HSA_STATUS_SUCCESS;
}

// A queue's dispatch priority: the GPU serves queues and places workgroups of dispatches in
// order of priority (hsa_ext_amd.h: "dispatch and wavefront scheduling priority"; the model's
// wave scheduling inside a CU does not look at it).
hsa_status_t HSA_API hsa_amd_queue_set_priority(hsa_queue_t* queue,
                                                hsa_amd_queue_priority_t priority) {
  VGPU_RUNTIME(rt);
  vgpu::hsa::Queue* q = rt->findQueue(queue);
  if (q == nullptr) return HSA_STATUS_ERROR_INVALID_QUEUE;
  if (priority != HSA_AMD_QUEUE_PRIORITY_LOW && priority != HSA_AMD_QUEUE_PRIORITY_NORMAL &&
      priority != HSA_AMD_QUEUE_PRIORITY_HIGH)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  rt->port().setQueuePriority(q->portQueue, static_cast<uint32_t>(priority));
  return HSA_STATUS_SUCCESS;
}

// Which CUs a queue's workgroups may use (hipExtStreamCreateWithCUMask: ROCclr gives the stream
// a queue of its own and sets its mask). Bit i of the mask is CU i in the model's numbering, the
// dispatcher's and the statistics' cuN (on hardware the driver spreads the bits over the
// shader engines). Bits past num_cu_mask_count and past the GPU's CUs are CUs not enabled;
// num_cu_mask_count 0 enables every CU (hsa_ext_amd.h). A mask that enables none of the GPU's
// CUs is refused with HSA_STATUS_ERROR_INVALID_ARGUMENT: the queue's kernels could never run.
// There is no process-wide HSA_CU_MASK here, so HSA_STATUS_CU_MASK_REDUCED is never returned.
hsa_status_t HSA_API hsa_amd_queue_cu_set_mask(const hsa_queue_t* queue, uint32_t num_cu_mask_count,
                                               const uint32_t* cu_mask) {
  VGPU_RUNTIME(rt);
  vgpu::hsa::Queue* q = rt->findQueue(queue);
  if (q == nullptr) return HSA_STATUS_ERROR_INVALID_QUEUE;
  if (num_cu_mask_count % 32 != 0 || (num_cu_mask_count != 0 && cu_mask == nullptr))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::vector<uint32_t> words =
      vgpu::hsa::cuMaskWords(rt->platform().computeUnits, num_cu_mask_count, cu_mask);
  if (std::all_of(words.begin(), words.end(), [](uint32_t w) { return w == 0; }))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  rt->port().setQueueCuMask(q->portQueue, words);
  q->cuMask = std::move(words);
  return HSA_STATUS_SUCCESS;
}

// The first num_cu_mask_count bits of the queue's CU mask (hsa_ext_amd.h): bits past the GPU's
// CUs read 0.
hsa_status_t HSA_API hsa_amd_queue_cu_get_mask(const hsa_queue_t* queue, uint32_t num_cu_mask_count,
                                               uint32_t* cu_mask) {
  VGPU_RUNTIME(rt);
  vgpu::hsa::Queue* q = rt->findQueue(queue);
  if (q == nullptr) return HSA_STATUS_ERROR_INVALID_QUEUE;
  if (num_cu_mask_count == 0 || num_cu_mask_count % 32 != 0 || cu_mask == nullptr)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (uint32_t w = 0; w < num_cu_mask_count / 32; ++w)
    cu_mask[w] = w < q->cuMask.size() ? q->cuMask[w] : 0;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_queue_destroy(hsa_queue_t* queue) {
  VGPU_RUNTIME(rt);
  if (queue == nullptr) return HSA_STATUS_ERROR_INVALID_QUEUE;
  return rt->destroyQueue(queue);
}

hsa_status_t HSA_API hsa_queue_inactivate(hsa_queue_t* queue) {
  VGPU_RUNTIME(rt);
  if (rt->findQueue(queue) == nullptr) return HSA_STATUS_ERROR_INVALID_QUEUE;
  return vgpu::hsa::unsupported("hsa_queue_inactivate");
}

#define VGPU_WRITE_INDEX(q) \
  (&reinterpret_cast<amd_queue_t*>(const_cast<hsa_queue_t*>(q))->write_dispatch_id)

#define VGPU_LOAD_READ_INDEX(suffix)                                          \
  uint64_t HSA_API hsa_queue_load_read_index_##suffix(const hsa_queue_t* q) { \
    Runtime* rt = Runtime::get();                                             \
    return rt == nullptr ? 0 : rt->readIndex(q);                              \
  }
VGPU_LOAD_READ_INDEX(relaxed)
VGPU_LOAD_READ_INDEX(acquire)
VGPU_LOAD_READ_INDEX(scacquire)

// Only the packet processor moves the read index (HSA Platform System Architecture
// Specification 1.2, 2.8, user-mode queues); the simulated GPU keeps its own.
#define VGPU_STORE_READ_INDEX(suffix)                                                      \
  void HSA_API hsa_queue_store_read_index_##suffix(const hsa_queue_t* q, uint64_t value) { \
    vgpu::hsa::unsupported("hsa_queue_store_read_index_" #suffix);                         \
  }
VGPU_STORE_READ_INDEX(relaxed)
VGPU_STORE_READ_INDEX(release)
VGPU_STORE_READ_INDEX(screlease)

#define VGPU_LOAD_WRITE_INDEX(suffix, order)                                   \
  uint64_t HSA_API hsa_queue_load_write_index_##suffix(const hsa_queue_t* q) { \
    return __atomic_load_n(VGPU_WRITE_INDEX(q), order);                        \
  }
VGPU_LOAD_WRITE_INDEX(relaxed, __ATOMIC_RELAXED)
VGPU_LOAD_WRITE_INDEX(acquire, __ATOMIC_ACQUIRE)
VGPU_LOAD_WRITE_INDEX(scacquire, __ATOMIC_ACQUIRE)

#define VGPU_STORE_WRITE_INDEX(suffix, order)                                               \
  void HSA_API hsa_queue_store_write_index_##suffix(const hsa_queue_t* q, uint64_t value) { \
    __atomic_store_n(VGPU_WRITE_INDEX(q), value, order);                                    \
  }
VGPU_STORE_WRITE_INDEX(relaxed, __ATOMIC_RELAXED)
VGPU_STORE_WRITE_INDEX(release, __ATOMIC_RELEASE)
VGPU_STORE_WRITE_INDEX(screlease, __ATOMIC_RELEASE)

#define VGPU_CAS_WRITE_INDEX(suffix, order)                                                    \
  uint64_t HSA_API hsa_queue_cas_write_index_##suffix(const hsa_queue_t* q, uint64_t expected, \
                                                      uint64_t value) {                        \
    uint64_t observed = expected;                                                              \
    __atomic_compare_exchange_n(VGPU_WRITE_INDEX(q), &observed, value, false, order,           \
                                __ATOMIC_RELAXED);                                             \
    return observed;                                                                           \
  }
#define VGPU_ADD_WRITE_INDEX(suffix, order)                                                   \
  uint64_t HSA_API hsa_queue_add_write_index_##suffix(const hsa_queue_t* q, uint64_t value) { \
    return __atomic_fetch_add(VGPU_WRITE_INDEX(q), value, order);                             \
  }
VGPU_SIGNAL_ALL_ORDERS(VGPU_CAS_WRITE_INDEX)
VGPU_SIGNAL_ALL_ORDERS(VGPU_ADD_WRITE_INDEX)

}  // extern "C"
