// AQL queues: creation, write and read indices, doorbells and error reports.
#include <hsa/amd_hsa_queue.h>
#include <hsa/amd_hsa_signal.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "HsaFixture.h"

namespace vgpu::hsa::test {
namespace {

using Queues = HsaFixture;

struct ErrorLog {
  std::atomic<int> calls{0};
  std::atomic<hsa_status_t> status{HSA_STATUS_SUCCESS};
  std::atomic<hsa_queue_t*> queue{nullptr};
};

void onError(hsa_status_t status, hsa_queue_t* queue, void* data) {
  auto* log = static_cast<ErrorLog*>(data);
  log->status = status;
  log->queue = queue;
  ++log->calls;
}

TEST_F(Queues, CreateGivesTheGpuARingInExposedMemory) {
  hsa_queue_t* q = nullptr;
  ASSERT_EQ(hsa_queue_create(gpu_, 4096, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, UINT32_MAX,
                             UINT32_MAX, &q),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(q->size, 4096u);
  EXPECT_TRUE(port_->isExposed(q->base_address, 4096 * 64));
  EXPECT_TRUE(port_->isExposed(q, sizeof(amd_queue_t)));
  ASSERT_EQ(port_->queueCount(), 1u);
  EXPECT_EQ(port_->queue(0).ring, q->base_address);
  EXPECT_EQ(port_->queue(0).packets, 4096u);
  const auto* doorbell = reinterpret_cast<const amd_signal_t*>(q->doorbell_signal.handle);
  EXPECT_EQ(doorbell->kind, AMD_SIGNAL_KIND_DOORBELL);
  // Every packet starts INVALID so the packet processor stops at it.
  const auto* header = static_cast<const uint16_t*>(q->base_address);
  EXPECT_EQ(header[0] & 0xff, HSA_PACKET_TYPE_INVALID);
  EXPECT_EQ(header[4095 * 32] & 0xff, HSA_PACKET_TYPE_INVALID);
  const auto* amd = reinterpret_cast<const amd_queue_t*>(q);
  EXPECT_EQ(amd->max_cu_id, 63u);  // mi60: 64 CUs
  // The flat apertures' high halves: amdkfd's gfx9 LDS aperture 1 << 48, scratch 2 << 48.
  EXPECT_EQ(amd->group_segment_aperture_base_hi, 0x10000u);
  EXPECT_EQ(amd->private_segment_aperture_base_hi, 0x20000u);
  EXPECT_FALSE(amd->queue_properties & AMD_QUEUE_PROPERTIES_ENABLE_PROFILING);
  ASSERT_EQ(hsa_amd_profiling_set_profiler_enabled(q, 1), HSA_STATUS_SUCCESS);
  EXPECT_TRUE(amd->queue_properties & AMD_QUEUE_PROPERTIES_ENABLE_PROFILING);
  hsa_queue_t* q2 = nullptr;
  ASSERT_EQ(hsa_queue_create(gpu_, 64, HSA_QUEUE_TYPE_SINGLE, nullptr, nullptr, 0, 0, &q2),
            HSA_STATUS_SUCCESS);
  EXPECT_NE(q->id, q2->id);
  ASSERT_EQ(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
  EXPECT_FALSE(port_->queue(0).live);
  ASSERT_EQ(hsa_queue_destroy(q2), HSA_STATUS_SUCCESS);
}

TEST_F(Queues, ACooperativeQueueIsCreatedLikeAnyOther) {
  hsa_queue_t* q = nullptr;
  ASSERT_EQ(hsa_queue_create(gpu_, 256, HSA_QUEUE_TYPE_COOPERATIVE, nullptr, nullptr, UINT32_MAX,
                             UINT32_MAX, &q),
            HSA_STATUS_SUCCESS);
  ASSERT_EQ(port_->queueCount(), 1u);
  EXPECT_EQ(port_->queue(0).ring, q->base_address);
  EXPECT_EQ(port_->queue(0).packets, 256u);
  ASSERT_EQ(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
  EXPECT_EQ(
      hsa_queue_create(gpu_, 256, static_cast<hsa_queue_type32_t>(7), nullptr, nullptr, 0, 0, &q),
      HSA_STATUS_ERROR_INVALID_QUEUE_CREATION);
}

TEST_F(Queues, SetPriorityReachesTheGpusQueueAndRefusesWhatIsNotAPriority) {
  hsa_queue_t* q = nullptr;
  ASSERT_EQ(hsa_queue_create(gpu_, 64, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, UINT32_MAX,
                             UINT32_MAX, &q),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(port_->queue(0).priority, 1u);  // normal (hsa_ext_amd.h: the default)
  ASSERT_EQ(hsa_amd_queue_set_priority(q, HSA_AMD_QUEUE_PRIORITY_HIGH), HSA_STATUS_SUCCESS);
  EXPECT_EQ(port_->queue(0).priority, 2u);
  ASSERT_EQ(hsa_amd_queue_set_priority(q, HSA_AMD_QUEUE_PRIORITY_LOW), HSA_STATUS_SUCCESS);
  EXPECT_EQ(port_->queue(0).priority, 0u);
  EXPECT_EQ(hsa_amd_queue_set_priority(q, static_cast<hsa_amd_queue_priority_t>(3)),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(port_->queue(0).priority, 0u);
  hsa_queue_t notAQueue{};
  EXPECT_EQ(hsa_amd_queue_set_priority(&notAQueue, HSA_AMD_QUEUE_PRIORITY_HIGH),
            HSA_STATUS_ERROR_INVALID_QUEUE);
  ASSERT_EQ(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
}

// mi60 has 64 CUs: two words of mask. Bit i is CU i; bits past num_cu_mask_count and past the
// GPU's CUs enable nothing; 0 bits means every CU (hsa_ext_amd.h).
TEST_F(Queues, CuMaskReachesTheGpuAndReadsBack) {
  hsa_queue_t* q = nullptr;
  ASSERT_EQ(hsa_queue_create(gpu_, 64, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, UINT32_MAX,
                             UINT32_MAX, &q),
            HSA_STATUS_SUCCESS);
  uint32_t got[3] = {1, 2, 3};
  ASSERT_EQ(hsa_amd_queue_cu_get_mask(q, 96, got), HSA_STATUS_SUCCESS);
  EXPECT_EQ(std::vector<uint32_t>(got, got + 3), (std::vector<uint32_t>{~0u, ~0u, 0}));
  const uint32_t cus1and3[1] = {0xa};
  ASSERT_EQ(hsa_amd_queue_cu_set_mask(q, 32, cus1and3), HSA_STATUS_SUCCESS);
  EXPECT_EQ(port_->queue(0).cuMask, (std::vector<uint32_t>{0xa, 0}));
  ASSERT_EQ(hsa_amd_queue_cu_get_mask(q, 64, got), HSA_STATUS_SUCCESS);
  EXPECT_EQ(got[0], 0xau);
  EXPECT_EQ(got[1], 0u);
  // CU 63 and CUs 64..95, which mi60 does not have.
  const uint32_t high[3] = {0, 0x80000000u, ~0u};
  ASSERT_EQ(hsa_amd_queue_cu_set_mask(q, 96, high), HSA_STATUS_SUCCESS);
  EXPECT_EQ(port_->queue(0).cuMask, (std::vector<uint32_t>{0, 0x80000000u}));
  ASSERT_EQ(hsa_amd_queue_cu_set_mask(q, 0, nullptr), HSA_STATUS_SUCCESS);
  EXPECT_EQ(port_->queue(0).cuMask, (std::vector<uint32_t>{~0u, ~0u}));
  // Refused, the mask unchanged: no CU of the GPU, a size that is not whole words, no array.
  const uint32_t none[3] = {0, 0, ~0u};
  EXPECT_EQ(hsa_amd_queue_cu_set_mask(q, 96, none), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_amd_queue_cu_set_mask(q, 33, none), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_amd_queue_cu_set_mask(q, 32, nullptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(port_->queue(0).cuMask, (std::vector<uint32_t>{~0u, ~0u}));
  EXPECT_EQ(hsa_amd_queue_cu_get_mask(q, 0, got), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_amd_queue_cu_get_mask(q, 32, nullptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  hsa_queue_t notAQueue{};
  EXPECT_EQ(hsa_amd_queue_cu_set_mask(&notAQueue, 32, cus1and3), HSA_STATUS_ERROR_INVALID_QUEUE);
  EXPECT_EQ(hsa_amd_queue_cu_get_mask(&notAQueue, 32, got), HSA_STATUS_ERROR_INVALID_QUEUE);
  ASSERT_EQ(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
}

TEST_F(Queues, RejectsSizesThatAreNotPowersOfTwoOrTooLarge) {
  hsa_queue_t* q = nullptr;
  EXPECT_NE(hsa_queue_create(gpu_, 1000, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, 0, 0, &q),
            HSA_STATUS_SUCCESS);
  EXPECT_NE(hsa_queue_create(gpu_, 262144, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, 0, 0, &q),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_queue_create(cpu_, 64, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, 0, 0, &q),
            HSA_STATUS_ERROR_INVALID_AGENT);
  EXPECT_EQ(port_->queueCount(), 0u);
}

TEST_F(Queues, WriteIndexFunctions) {
  hsa_queue_t* q = nullptr;
  ASSERT_EQ(hsa_queue_create(gpu_, 64, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, 0, 0, &q),
            HSA_STATUS_SUCCESS);
  const auto* amd = reinterpret_cast<const amd_queue_t*>(q);
  EXPECT_EQ(hsa_queue_load_write_index_relaxed(q), 0u);
  EXPECT_EQ(hsa_queue_add_write_index_screlease(q, 1), 0u);
  EXPECT_EQ(hsa_queue_add_write_index_relaxed(q, 3), 1u);
  EXPECT_EQ(hsa_queue_load_write_index_scacquire(q), 4u);
  EXPECT_EQ(amd->write_dispatch_id, 4u) << "the index lives in the amd_queue_t the GPU reads";
  EXPECT_EQ(hsa_queue_cas_write_index_scacq_screl(q, 3, 10), 4u) << "failed CAS";
  EXPECT_EQ(hsa_queue_cas_write_index_acquire(q, 4, 10), 4u);
  EXPECT_EQ(hsa_queue_load_write_index_acquire(q), 10u);
  hsa_queue_store_write_index_release(q, 20);
  EXPECT_EQ(hsa_queue_load_write_index_relaxed(q), 20u);
  port_->setReadIndex(0, 7);
  EXPECT_EQ(hsa_queue_load_read_index_scacquire(q), 7u);
  EXPECT_EQ(hsa_queue_load_read_index_relaxed(q), 7u);
  hsa_queue_destroy(q);
}

TEST_F(Queues, DoorbellStoreRingsWithThePacketCount) {
  hsa_queue_t* q = nullptr;
  ASSERT_EQ(hsa_queue_create(gpu_, 64, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, 0, 0, &q),
            HSA_STATUS_SUCCESS);
  // ROCclr writes packet 0, then stores its id into the doorbell.
  const uint64_t id = hsa_queue_add_write_index_screlease(q, 1);
  hsa_signal_store_screlease(q->doorbell_signal, int64_t(id));
  const uint64_t id2 = hsa_queue_add_write_index_screlease(q, 2);
  hsa_signal_store_relaxed(q->doorbell_signal, int64_t(id2 + 1));
  // A producer of a MULTI queue that rings late with an older id tells the GPU nothing new.
  hsa_signal_store_screlease(q->doorbell_signal, int64_t(id));
  EXPECT_EQ(port_->queue(0).doorbells, (std::vector<uint64_t>{1, 3}));
  hsa_queue_destroy(q);
}

TEST_F(Queues, GpuErrorIsReportedOnceThroughTheCallback) {
  ErrorLog log;
  hsa_queue_t* q = nullptr;
  ASSERT_EQ(hsa_queue_create(gpu_, 64, HSA_QUEUE_TYPE_MULTI, onError, &log, 0, 0, &q),
            HSA_STATUS_SUCCESS);
  testing::internal::CaptureStderr();
  port_->setQueueError(0, "wave 3 at pc 0x100: memory violation");
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (log.calls == 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(log.calls, 1);
  EXPECT_EQ(log.status, HSA_STATUS_ERROR_EXCEPTION);
  EXPECT_EQ(log.queue, q);
  EXPECT_NE(err.find("memory violation"), std::string::npos) << err;
  hsa_queue_destroy(q);
}

// A memory violation also reaches the system event handlers (hsa_ext_amd.h,
// HSA_AMD_GPU_MEMORY_FAULT_EVENT: the GPU agent, the address, why), every one registered, before
// the queue's callback; an error that is not one does not.
struct FaultLog {
  std::atomic<int> calls{0};
  std::atomic<int> queueCallbacksBefore{-1};
  hsa_amd_gpu_memory_fault_info_t info{};
  ErrorLog* queueLog = nullptr;
};

hsa_status_t onSystemEvent(const hsa_amd_event_t* event, void* data) {
  auto* log = static_cast<FaultLog*>(data);
  if (event->event_type == HSA_AMD_GPU_MEMORY_FAULT_EVENT) {
    log->info = event->memory_fault;
    log->queueCallbacksBefore = log->queueLog->calls.load();
    ++log->calls;
  }
  return HSA_STATUS_SUCCESS;
}

TEST_F(Queues, MemoryViolationReachesTheSystemEventHandlersFirst) {
  EXPECT_EQ(hsa_amd_register_system_event_handler(nullptr, nullptr),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ErrorLog log;
  FaultLog first, second;
  first.queueLog = second.queueLog = &log;
  ASSERT_EQ(hsa_amd_register_system_event_handler(onSystemEvent, &first), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_amd_register_system_event_handler(onSystemEvent, &second), HSA_STATUS_SUCCESS);
  hsa_queue_t *q = nullptr, *other = nullptr;
  ASSERT_EQ(hsa_queue_create(gpu_, 64, HSA_QUEUE_TYPE_MULTI, onError, &log, 0, 0, &q),
            HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_queue_create(gpu_, 64, HSA_QUEUE_TYPE_MULTI, onError, &log, 0, 0, &other),
            HSA_STATUS_SUCCESS);
  testing::internal::CaptureStderr();
  auto waitForCallbacks = [&](int n) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (log.calls < n && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  };
  port_->setQueueError(0, "memory violation: access to 0x7f0000001000", 0x7f0000001000ull);
  waitForCallbacks(1);
  port_->setQueueError(1, "s_trap 2 with no trap handler installed");
  waitForCallbacks(2);
  testing::internal::GetCapturedStderr();
  EXPECT_EQ(log.calls, 2);
  for (FaultLog* f : {&first, &second}) {
    EXPECT_EQ(f->calls, 1);
    EXPECT_EQ(f->info.agent.handle, gpu_.handle);
    EXPECT_EQ(f->info.virtual_address, 0x7f0000001000ull);
    EXPECT_EQ(f->info.fault_reason_mask, uint32_t{HSA_AMD_MEMORY_FAULT_PAGE_NOT_PRESENT});
  }
  EXPECT_EQ(first.queueCallbacksBefore, 0) << "the queue's callback came first";
  hsa_queue_destroy(q);
  hsa_queue_destroy(other);
}

}  // namespace
}  // namespace vgpu::hsa::test
