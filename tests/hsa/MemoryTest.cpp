// Memory pools, pinned memory, copies and fills.
#include <cstring>
#include <numeric>

#include "HsaFixture.h"

namespace vgpu::hsa::test {
namespace {

using Memory = HsaFixture;

constexpr uint32_t kFine = HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED;
constexpr uint32_t kKernarg = kFine | HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT;
constexpr uint32_t kCoarse = HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED;

TEST_F(Memory, CpuHasFineKernargAndCoarsePoolsGpuHasDeviceAndGroup) {
  std::vector<uint32_t> flags;
  for (hsa_amd_memory_pool_t p : pools(cpu_)) {
    uint32_t f = 0;
    ASSERT_EQ(hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &f),
              HSA_STATUS_SUCCESS);
    flags.push_back(f);
  }
  EXPECT_EQ(flags, (std::vector<uint32_t>{kFine, kKernarg, kCoarse}));
  EXPECT_EQ(pools(gpu_).size(), 2u);
  size_t granule = 0;
  ASSERT_EQ(hsa_amd_memory_pool_get_info(pool(gpu_, kCoarse),
                                         HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE, &granule),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(granule, 4096u);
}

TEST_F(Memory, TheCpuNeverTouchesDeviceMemory) {
  hsa_amd_memory_pool_access_t access;
  ASSERT_EQ(hsa_amd_agent_memory_pool_get_info(cpu_, pool(gpu_, kCoarse),
                                               HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS, &access),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(access, HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED);
  ASSERT_EQ(hsa_amd_agent_memory_pool_get_info(gpu_, pool(cpu_, kFine),
                                               HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS, &access),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(access, HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT);
  uint32_t hops = 0;
  ASSERT_EQ(hsa_amd_agent_memory_pool_get_info(gpu_, pool(cpu_, kFine),
                                               HSA_AMD_AGENT_MEMORY_POOL_INFO_NUM_LINK_HOPS, &hops),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(hops, 1u);
  hsa_amd_memory_pool_link_info_t link{};
  ASSERT_EQ(hsa_amd_agent_memory_pool_get_info(gpu_, pool(cpu_, kFine),
                                               HSA_AMD_AGENT_MEMORY_POOL_INFO_LINK_INFO, &link),
            HSA_STATUS_SUCCESS);
  EXPECT_TRUE(link.atomic_support_64bit);
}

TEST_F(Memory, SystemAllocationsArePageAlignedAndExposedUntilFreed) {
  for (uint32_t flags : {kFine, kKernarg, kCoarse}) {
    void* p = nullptr;
    ASSERT_EQ(hsa_amd_memory_pool_allocate(pool(cpu_, flags), 40, 0, &p), HSA_STATUS_SUCCESS);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 4096, 0u);
    EXPECT_TRUE(port_->isExposed(p, 4096));
    std::memset(p, 0xab, 40);  // host memory: the CPU may write it
    const hsa_agent_t gpu = gpu_;
    EXPECT_EQ(hsa_amd_agents_allow_access(1, &gpu, nullptr, p), HSA_STATUS_SUCCESS);
    ASSERT_EQ(hsa_amd_memory_pool_free(p), HSA_STATUS_SUCCESS);
    EXPECT_FALSE(port_->isExposed(p, 1));
  }
}

TEST_F(Memory, DeviceAllocationsGoToThePort) {
  void* p = nullptr;
  ASSERT_EQ(hsa_amd_memory_pool_allocate(pool(gpu_, kCoarse), 1 << 20, 0, &p), HSA_STATUS_SUCCESS);
  EXPECT_TRUE(port_->isDeviceAllocation(reinterpret_cast<uint64_t>(p)));
  EXPECT_EQ(port_->deviceBytesInUse(), 1u << 20);
  EXPECT_EQ(hsa_amd_memory_pool_allocate(pool(gpu_, 0, true), 64, 0, &p),
            HSA_STATUS_ERROR_INVALID_ALLOCATION)
      << "group memory is allocated per dispatch, not by the runtime";
  void* q = nullptr;
  ASSERT_EQ(hsa_amd_memory_pool_allocate(pool(gpu_, kCoarse), 100, 0, &q), HSA_STATUS_SUCCESS);
  EXPECT_EQ(port_->deviceBytesInUse(), (1u << 20) + 4096) << "rounded to the 4 KiB granule";
  ASSERT_EQ(hsa_amd_memory_pool_free(q), HSA_STATUS_SUCCESS);
  EXPECT_EQ(port_->deviceBytesInUse(), 1u << 20);
  EXPECT_EQ(hsa_amd_memory_pool_free(q), HSA_STATUS_ERROR_INVALID_ALLOCATION);
}

TEST_F(Memory, LockExposesTheRangeAtItsHostAddress) {
  std::vector<uint8_t> buffer(8192);
  void* agentPtr = nullptr;
  hsa_agent_t gpu = gpu_;
  ASSERT_EQ(hsa_amd_memory_lock_to_pool(buffer.data(), buffer.size(), &gpu, 1, pool(cpu_, kFine), 0,
                                        &agentPtr),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(agentPtr, buffer.data());
  EXPECT_TRUE(port_->isExposed(buffer.data(), buffer.size()));
  hsa_amd_pointer_info_t info{};
  info.size = sizeof info;
  ASSERT_EQ(hsa_amd_pointer_info(buffer.data() + 100, &info, nullptr, nullptr, nullptr),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(info.type, HSA_EXT_POINTER_TYPE_LOCKED);
  EXPECT_EQ(info.hostBaseAddress, buffer.data());
  EXPECT_EQ(info.sizeInBytes, buffer.size());
  EXPECT_EQ(info.userData, nullptr);
  int tag = 0;
  ASSERT_EQ(hsa_amd_pointer_info_set_userdata(buffer.data() + 8, &tag), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_amd_pointer_info(buffer.data(), &info, nullptr, nullptr, nullptr),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(info.userData, &tag);
  void* device = nullptr;
  ASSERT_EQ(hsa_amd_memory_pool_allocate(pool(gpu_, kCoarse), 4096, 0, &device),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_amd_memory_lock(device, 4096, nullptr, 0, &agentPtr),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_amd_memory_unlock(buffer.data()), HSA_STATUS_SUCCESS);
  EXPECT_FALSE(port_->isExposed(buffer.data(), 1));
  ASSERT_EQ(hsa_amd_pointer_info(buffer.data(), &info, nullptr, nullptr, nullptr),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(info.type, HSA_EXT_POINTER_TYPE_UNKNOWN);
}

TEST_F(Memory, HsaMemoryCopyAndFillReachDeviceMemoryThroughThePort) {
  void* device = nullptr;
  ASSERT_EQ(hsa_amd_memory_pool_allocate(pool(gpu_, kCoarse), 4096, 0, &device),
            HSA_STATUS_SUCCESS);
  std::vector<uint32_t> in(1024), out(1024, 0);
  std::iota(in.begin(), in.end(), 7u);
  ASSERT_EQ(hsa_memory_copy(device, in.data(), 4096), HSA_STATUS_SUCCESS);
  std::vector<uint32_t> seen(1024);
  port_->readDevice(reinterpret_cast<uint64_t>(device), seen.data(), 4096);
  EXPECT_EQ(seen, in);
  ASSERT_EQ(hsa_memory_copy(out.data(), device, 4096), HSA_STATUS_SUCCESS);
  EXPECT_EQ(out, in);
  ASSERT_EQ(hsa_amd_memory_fill(device, 0xdeadbeef, 1024), HSA_STATUS_SUCCESS);
  port_->readDevice(reinterpret_cast<uint64_t>(device), seen.data(), 4096);
  EXPECT_EQ(seen, std::vector<uint32_t>(1024, 0xdeadbeef));
}

TEST_F(Memory, AsyncCopyGoesToTheDmaEngineWithItsSignals) {
  void* staging = nullptr;
  void* device = nullptr;
  ASSERT_EQ(hsa_amd_memory_pool_allocate(pool(cpu_, kCoarse), 4096, 0, &staging),
            HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_amd_memory_pool_allocate(pool(gpu_, kCoarse), 4096, 0, &device),
            HSA_STATUS_SUCCESS);
  std::memset(staging, 0x5a, 4096);
  hsa_signal_t done, dep;
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &done), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_create(0, 0, nullptr, &dep), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_amd_memory_async_copy(device, gpu_, staging, cpu_, 4096, 1, &dep, done),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1, UINT64_MAX,
                                      HSA_WAIT_STATE_BLOCKED),
            0);
  std::vector<uint8_t> seen(4096);
  port_->readDevice(reinterpret_cast<uint64_t>(device), seen.data(), 4096);
  EXPECT_EQ(seen, std::vector<uint8_t>(4096, 0x5a));
  hsa_amd_profiling_async_copy_time_t t{};
  ASSERT_EQ(hsa_amd_profiling_get_async_copy_time(done, &t), HSA_STATUS_SUCCESS);
  EXPECT_GT(t.end, t.start);
  EXPECT_GT(t.start, 0u);
}

}  // namespace
}  // namespace vgpu::hsa::test
