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

// Byte (x, y, z) of a pitched buffer.
size_t at(size_t x, size_t y, size_t z, size_t pitch, size_t slice) {
  return z * slice + y * pitch + x;
}

TEST_F(Memory, AsyncCopyRectCopiesLayersOfRowsBetweenSystemAndDeviceMemory) {
  // Host: 3 layers of 8 rows, pitch 64 (slice 512). Device: pitch 128, 10 rows a layer (slice
  // 1280), 2 layers. A box of 40 bytes x 5 rows x 2 layers goes from host (8, 2, 1) to device
  // (16, 3, 0), then back from there to a second host buffer of pitch 48 (slice 384) at
  // (4, 1, 0). Expected bytes: worked out here, box by box.
  constexpr size_t kHostPitch = 64, kHostSlice = 512, kDevPitch = 128, kDevSlice = 1280;
  constexpr size_t kBackPitch = 48, kBackSlice = 384;
  void* host = nullptr;
  void* back = nullptr;
  void* device = nullptr;
  ASSERT_EQ(hsa_amd_memory_pool_allocate(pool(cpu_, kCoarse), 3 * kHostSlice, 0, &host),
            HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_amd_memory_pool_allocate(pool(cpu_, kCoarse), 2 * kBackSlice, 0, &back),
            HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_amd_memory_pool_allocate(pool(gpu_, kCoarse), 2 * kDevSlice, 0, &device),
            HSA_STATUS_SUCCESS);
  auto* h = static_cast<uint8_t*>(host);
  for (size_t i = 0; i < 3 * kHostSlice; ++i) h[i] = static_cast<uint8_t>(i * 7 + 3);
  std::vector<uint8_t> untouched(2 * kDevSlice, 0xee);
  port_->writeDevice(reinterpret_cast<uint64_t>(device), untouched.data(), untouched.size());
  std::memset(back, 0xcc, 2 * kBackSlice);

  hsa_signal_t done;
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &done), HSA_STATUS_SUCCESS);
  const hsa_pitched_ptr_t hostPtr{host, kHostPitch, kHostSlice};
  const hsa_pitched_ptr_t devPtr{device, kDevPitch, kDevSlice};
  const hsa_dim3_t hostAt{8, 2, 1}, devAt{16, 3, 0}, box{40, 5, 2};
  const uint64_t copiesBefore = port_->copies();
  ASSERT_EQ(hsa_amd_memory_async_copy_rect(&devPtr, &devAt, &hostPtr, &hostAt, &box, gpu_,
                                           hsaHostToDevice, 0, nullptr, done),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1, UINT64_MAX,
                                      HSA_WAIT_STATE_BLOCKED),
            0);
  EXPECT_EQ(port_->copies(), copiesBefore + 1);  // one DMA copy, not one per row
  std::vector<uint8_t> seen(2 * kDevSlice);
  port_->readDevice(reinterpret_cast<uint64_t>(device), seen.data(), seen.size());
  std::vector<uint8_t> expected = untouched;
  for (size_t z = 0; z < 2; ++z)
    for (size_t y = 0; y < 5; ++y)
      for (size_t x = 0; x < 40; ++x)
        expected[at(16 + x, 3 + y, z, kDevPitch, kDevSlice)] =
            h[at(8 + x, 2 + y, 1 + z, kHostPitch, kHostSlice)];
  EXPECT_EQ(seen, expected);

  hsa_signal_store_relaxed(done, 1);
  const hsa_pitched_ptr_t backPtr{back, kBackPitch, kBackSlice};
  const hsa_dim3_t backAt{4, 1, 0};
  ASSERT_EQ(hsa_amd_memory_async_copy_rect(&backPtr, &backAt, &devPtr, &devAt, &box, gpu_,
                                           hsaDeviceToHost, 0, nullptr, done),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1, UINT64_MAX,
                                      HSA_WAIT_STATE_BLOCKED),
            0);
  std::vector<uint8_t> backExpected(2 * kBackSlice, 0xcc);
  for (size_t z = 0; z < 2; ++z)
    for (size_t y = 0; y < 5; ++y)
      for (size_t x = 0; x < 40; ++x)
        backExpected[at(4 + x, 1 + y, z, kBackPitch, kBackSlice)] =
            h[at(8 + x, 2 + y, 1 + z, kHostPitch, kHostSlice)];
  const auto* b = static_cast<const uint8_t*>(back);
  EXPECT_EQ(std::vector<uint8_t>(b, b + 2 * kBackSlice), backExpected);
  hsa_amd_profiling_async_copy_time_t t{};
  ASSERT_EQ(hsa_amd_profiling_get_async_copy_time(done, &t), HSA_STATUS_SUCCESS);
  EXPECT_GT(t.end, t.start);
}

// A page of coarse-grained system memory, a page of device memory and a completion signal at 1.
class RectCopy : public HsaFixture {
 protected:
  void SetUp() override {
    HsaFixture::SetUp();
    ASSERT_EQ(hsa_amd_memory_pool_allocate(pool(cpu_, kCoarse), 4096, 0, &host_),
              HSA_STATUS_SUCCESS);
    ASSERT_EQ(hsa_amd_memory_pool_allocate(pool(gpu_, kCoarse), 4096, 0, &device_),
              HSA_STATUS_SUCCESS);
    ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &done_), HSA_STATUS_SUCCESS);
  }
  hsa_status_t copy(const hsa_pitched_ptr_t& dst, const hsa_pitched_ptr_t& src,
                    const hsa_dim3_t& range, hsa_agent_t agent, hsa_amd_copy_direction_t dir,
                    hsa_signal_t signal) {
    const hsa_dim3_t zero{0, 0, 0};
    return hsa_amd_memory_async_copy_rect(&dst, &zero, &src, &zero, &range, agent, dir, 0, nullptr,
                                          signal);
  }
  bool completes() {
    return hsa_signal_wait_scacquire(done_, HSA_SIGNAL_CONDITION_LT, 1, UINT64_MAX,
                                     HSA_WAIT_STATE_BLOCKED) == 0;
  }
  void* host_ = nullptr;
  void* device_ = nullptr;
  hsa_signal_t done_{0};
};

TEST_F(RectCopy, RefusesWhatRocrsDmaPathRefuses) {
  const hsa_dim3_t box{32, 4, 1};
  const hsa_pitched_ptr_t h{host_, 64, 0}, d{device_, 64, 0};
  const uint64_t copiesBefore = port_->copies();
  // Pitches, slices and bases are 4-byte aligned.
  EXPECT_EQ(copy(d, hsa_pitched_ptr_t{host_, 62, 0}, box, gpu_, hsaHostToDevice, done_),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(copy(d, hsa_pitched_ptr_t{static_cast<char*>(host_) + 2, 64, 0}, box, gpu_,
                 hsaHostToDevice, done_),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(copy(hsa_pitched_ptr_t{device_, 64, 258}, h, box, gpu_, hsaHostToDevice, done_),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  // A row wider than its pitch; more rows than a slice holds; layers without slices.
  EXPECT_EQ(copy(d, h, hsa_dim3_t{68, 4, 1}, gpu_, hsaHostToDevice, done_),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(copy(hsa_pitched_ptr_t{device_, 64, 192}, h, box, gpu_, hsaHostToDevice, done_),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(copy(d, h, hsa_dim3_t{32, 4, 2}, gpu_, hsaHostToDevice, done_),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  // Host to host, a CPU copying, no completion signal.
  EXPECT_EQ(copy(h, h, box, gpu_, hsaHostToHost, done_), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(copy(d, h, box, cpu_, hsaHostToDevice, done_), HSA_STATUS_ERROR_INVALID_AGENT);
  EXPECT_EQ(copy(d, h, box, gpu_, hsaHostToDevice, hsa_signal_t{0}),
            HSA_STATUS_ERROR_INVALID_SIGNAL);
  EXPECT_EQ(port_->copies(), copiesBefore);
  EXPECT_EQ(hsa_signal_load_relaxed(done_), 1);
  // The same box within its pitches and slices is copied.
  EXPECT_EQ(copy(hsa_pitched_ptr_t{device_, 64, 256}, h, box, gpu_, hsaHostToDevice, done_),
            HSA_STATUS_SUCCESS);
  EXPECT_TRUE(completes());
  EXPECT_EQ(port_->copies(), copiesBefore + 1);
}

TEST_F(RectCopy, AnEmptyBoxCompletesAtOnce) {
  // ROCr returns without touching the signal when a dimension of the box is 0, leaving a
  // waiter waiting for ever; here the empty copy completes.
  EXPECT_EQ(copy(hsa_pitched_ptr_t{device_, 64, 0}, hsa_pitched_ptr_t{host_, 64, 0},
                 hsa_dim3_t{32, 0, 1}, gpu_, hsaHostToDevice, done_),
            HSA_STATUS_SUCCESS);
  EXPECT_TRUE(completes());
  const GpuPort::RectCopy last = port_->lastRect();
  EXPECT_EQ(last.rows * last.width * last.layers, 0u);
}

}  // namespace
}  // namespace vgpu::hsa::test
