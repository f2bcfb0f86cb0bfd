// Agents, ISA and system attributes, against figures read by hand from platforms/mi60.json
// and platforms/vega10.json.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "HsaFixture.h"

namespace vgpu::hsa::test {
namespace {

using Agents = HsaFixture;

template <typename T>
T info(hsa_agent_t agent, int attribute) {
  T value{};
  EXPECT_EQ(hsa_agent_get_info(agent, hsa_agent_info_t(attribute), &value), HSA_STATUS_SUCCESS)
      << "attribute 0x" << std::hex << attribute;
  return value;
}

std::string text(hsa_agent_t agent, int attribute) {
  char buffer[64] = {};
  EXPECT_EQ(hsa_agent_get_info(agent, hsa_agent_info_t(attribute), buffer), HSA_STATUS_SUCCESS);
  return buffer;
}

std::string isaName(hsa_agent_t agent) {
  hsa_isa_t isa{0};
  EXPECT_EQ(hsa_agent_iterate_isas(
                agent,
                [](hsa_isa_t i, void* data) {
                  *static_cast<hsa_isa_t*>(data) = i;
                  return HSA_STATUS_SUCCESS;
                },
                &isa),
            HSA_STATUS_SUCCESS);
  uint32_t length = 0;
  EXPECT_EQ(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME_LENGTH, &length), HSA_STATUS_SUCCESS);
  std::vector<char> name(length + 1, '\0');
  EXPECT_EQ(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME, name.data()), HSA_STATUS_SUCCESS);
  EXPECT_EQ(std::strlen(name.data()) + 1, length) << "NAME_LENGTH counts the terminating NUL";
  return name.data();
}

TEST_F(Agents, CpuComesFirstThenTheGpu) {
  EXPECT_EQ(info<hsa_device_type_t>(cpu_, HSA_AGENT_INFO_DEVICE), HSA_DEVICE_TYPE_CPU);
  EXPECT_EQ(info<hsa_device_type_t>(gpu_, HSA_AGENT_INFO_DEVICE), HSA_DEVICE_TYPE_GPU);
  EXPECT_EQ(factoryCalls_, 1);
}

TEST_F(Agents, Mi60GpuAttributesComeFromThePlatform) {
  EXPECT_EQ(text(gpu_, HSA_AGENT_INFO_NAME), "gfx906");
  EXPECT_EQ(info<uint32_t>(gpu_, HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT), 64u);
  EXPECT_EQ(info<uint32_t>(gpu_, HSA_AMD_AGENT_INFO_COOPERATIVE_COMPUTE_UNIT_COUNT), 64u);
  EXPECT_TRUE(info<bool>(gpu_, HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES));
  EXPECT_FALSE(info<bool>(cpu_, HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES));
  EXPECT_EQ(info<uint32_t>(gpu_, HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY), 1800u);
  EXPECT_EQ(info<uint32_t>(gpu_, HSA_AMD_AGENT_INFO_CHIP_ID), 0x66a1u);
  EXPECT_EQ(info<uint32_t>(gpu_, HSA_AGENT_INFO_WAVEFRONT_SIZE), 64u);
  EXPECT_EQ(info<uint32_t>(gpu_, HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU), 4u);
  EXPECT_EQ(info<uint32_t>(gpu_, HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU), 40u);
  EXPECT_EQ(info<uint32_t>(gpu_, HSA_AMD_AGENT_INFO_CACHELINE_SIZE), 64u);
  EXPECT_EQ(info<uint32_t>(gpu_, HSA_AGENT_INFO_WORKGROUP_MAX_SIZE), 1024u);
  // 32 HBM2 channels of 128 bits; 1024 GB/s over 512 bytes per clock, double data rate.
  EXPECT_EQ(info<uint32_t>(gpu_, HSA_AMD_AGENT_INFO_MEMORY_WIDTH), 4096u);
  EXPECT_EQ(info<uint32_t>(gpu_, HSA_AMD_AGENT_INFO_MEMORY_MAX_FREQUENCY), 1000u);
  uint32_t caches[4] = {};
  ASSERT_EQ(hsa_agent_get_info(gpu_, HSA_AGENT_INFO_CACHE_SIZE, caches), HSA_STATUS_SUCCESS);
  EXPECT_EQ(caches[0], 16384u);
  EXPECT_EQ(caches[1], 4194304u);
  EXPECT_EQ(info<hsa_profile_t>(gpu_, HSA_AGENT_INFO_PROFILE), HSA_PROFILE_BASE);
  EXPECT_EQ(text(gpu_, HSA_AMD_AGENT_INFO_PRODUCT_NAME), "AMD Radeon Instinct MI60 (vgpu mi60)");
  EXPECT_EQ(info<uint32_t>(gpu_, HSA_AGENT_INFO_QUEUE_MAX_SIZE), 131072u);
  EXPECT_EQ(isaName(gpu_), "amdgcn-amd-amdhsa--gfx906:sramecc+:xnack-");
  uint8_t extensions[128] = {};
  ASSERT_EQ(hsa_agent_get_info(gpu_, HSA_AGENT_INFO_EXTENSIONS, extensions), HSA_STATUS_SUCCESS);
  EXPECT_TRUE(extensions[HSA_EXTENSION_AMD_LOADER / 8] & (1 << (HSA_EXTENSION_AMD_LOADER % 8)));
}

TEST_F(Agents, PoolsOfTheMi60) {
  size_t size = 0;
  ASSERT_EQ(hsa_amd_memory_pool_get_info(pool(gpu_, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED),
                                         HSA_AMD_MEMORY_POOL_INFO_SIZE, &size),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(size, 34359738368ull);  // 32 GB HBM2
  ASSERT_EQ(hsa_amd_memory_pool_get_info(pool(gpu_, 0, true), HSA_AMD_MEMORY_POOL_INFO_SIZE, &size),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(size, 65536u);  // LDS
}

TEST_F(Agents, SystemAttributes) {
  uint64_t frequency = 0;
  ASSERT_EQ(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &frequency),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(frequency, FakeGpuPort::kFrequency);
  uint64_t t1 = 0, t2 = 0;
  hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &t1);
  hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &t2);
  EXPECT_LT(t1, t2) << "the timestamp is the port's counter";
  bool svm = true;
  ASSERT_EQ(hsa_system_get_info(hsa_system_info_t(HSA_AMD_SYSTEM_INFO_SVM_SUPPORTED), &svm),
            HSA_STATUS_SUCCESS);
  EXPECT_FALSE(svm);
  uint16_t major = 0;
  hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major);
  EXPECT_EQ(major, 1);
  // The system timestamp is the GPU's counter: converting GPU ticks changes nothing.
  uint64_t system = 0;
  ASSERT_EQ(hsa_amd_profiling_convert_tick_to_system_domain(gpu_, 12345, &system),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(system, 12345u);
}

TEST_F(Agents, LoaderTableFillsOnlyTheLengthAsked) {
  // ROCclr asks for 24 bytes (version 1.00: three functions).
  void* table[8];
  for (void*& p : table) p = reinterpret_cast<void*>(0x1234);
  ASSERT_EQ(hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_LOADER, 1, 24, table),
            HSA_STATUS_SUCCESS);
  for (int i = 0; i < 3; ++i) {
    EXPECT_NE(table[i], nullptr);
    EXPECT_NE(table[i], reinterpret_cast<void*>(0x1234));
  }
  EXPECT_EQ(table[3], reinterpret_cast<void*>(0x1234));
  EXPECT_NE(hsa_system_get_major_extension_table(HSA_EXTENSION_FINALIZER, 1, 24, table),
            HSA_STATUS_SUCCESS)
      << "no finalizer (the image extension's table: ImageTest.cpp)";
}

TEST_F(Agents, InitIsReferenceCounted) {
  ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
  EXPECT_EQ(factoryCalls_, 1) << "a second hsa_init reuses the GPU";
  ASSERT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);
  uint16_t major = 0;
  EXPECT_EQ(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major),
            HSA_STATUS_ERROR_NOT_INITIALIZED);
  EXPECT_EQ(hsa_shut_down(), HSA_STATUS_ERROR_NOT_INITIALIZED);
}

TEST_F(Agents, UnsupportedFunctionSaysSoOnce) {
  // In a child process of its own, so that "once" does not depend on the other tests.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        hsa_amd_ipc_memory_t handle;
        const bool refused = hsa_amd_ipc_memory_create(nullptr, 0, &handle) == HSA_STATUS_ERROR &&
                             hsa_amd_ipc_memory_create(nullptr, 0, &handle) == HSA_STATUS_ERROR;
        std::fflush(stderr);
        std::_Exit(refused ? 0 : 1);
      },
      testing::ExitedWithCode(0),
      "^vgpu: hsa_amd_ipc_memory_create is not supported by the simulated GPU\n$");
}

class Vega10Agents : public HsaFixture {
 protected:
  std::string platformName() const override { return "vega10"; }
};

TEST_F(Vega10Agents, Gfx900AttributesComeFromThePlatform) {
  EXPECT_EQ(text(gpu_, HSA_AGENT_INFO_NAME), "gfx900");
  EXPECT_EQ(info<uint32_t>(gpu_, HSA_AMD_AGENT_INFO_CHIP_ID), 0x687fu);
  EXPECT_EQ(info<uint32_t>(gpu_, HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT), 64u);
  EXPECT_EQ(info<uint32_t>(gpu_, HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY), 1546u);
  EXPECT_EQ(info<uint32_t>(gpu_, HSA_AMD_AGENT_INFO_MEMORY_WIDTH), 2048u);
  EXPECT_EQ(text(gpu_, HSA_AMD_AGENT_INFO_PRODUCT_NAME), "AMD Radeon RX Vega 64 (vgpu vega10)");
  EXPECT_EQ(isaName(gpu_), "amdgcn-amd-amdhsa--gfx900:xnack-");
  size_t size = 0;
  ASSERT_EQ(hsa_amd_memory_pool_get_info(pool(gpu_, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED),
                                         HSA_AMD_MEMORY_POOL_INFO_SIZE, &size),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(size, 8589934592ull);  // 8 GB HBM2
}

}  // namespace
}  // namespace vgpu::hsa::test
