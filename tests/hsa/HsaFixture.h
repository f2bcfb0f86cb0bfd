// Starts the HSA runtime over a FakeGpuPort built from a real platform description.
#pragma once

#include <gtest/gtest.h>
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include <string>
#include <vector>

#include "FakeGpuPort.h"
#include "platforms/Platform.h"
#include "runtime/hsa/HsaRuntime.h"

namespace vgpu::hsa::test {

class HsaFixture : public ::testing::Test {
 protected:
  virtual std::string platformName() const { return "mi60"; }

  void SetUp() override {
    const PlatformConfig platform = loadPlatform(platformName());
    setGpuPortFactory([this, platform] {
      auto fake = std::make_unique<FakeGpuPort>(platform);
      port_ = fake.get();
      ++factoryCalls_;
      return fake;
    });
    ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
    ASSERT_NE(port_, nullptr);
    ASSERT_EQ(hsa_iterate_agents(
                  [](hsa_agent_t a, void* data) {
                    static_cast<std::vector<hsa_agent_t>*>(data)->push_back(a);
                    return HSA_STATUS_SUCCESS;
                  },
                  &agents_),
              HSA_STATUS_SUCCESS);
    ASSERT_EQ(agents_.size(), 2u);
    cpu_ = agents_[0];
    gpu_ = agents_[1];
  }

  void TearDown() override {
    while (hsa_shut_down() == HSA_STATUS_SUCCESS) {
    }
    setGpuPortFactory(nullptr);
  }

  std::vector<hsa_amd_memory_pool_t> pools(hsa_agent_t agent) {
    std::vector<hsa_amd_memory_pool_t> out;
    EXPECT_EQ(hsa_amd_agent_iterate_memory_pools(
                  agent,
                  [](hsa_amd_memory_pool_t p, void* data) {
                    static_cast<std::vector<hsa_amd_memory_pool_t>*>(data)->push_back(p);
                    return HSA_STATUS_SUCCESS;
                  },
                  &out),
              HSA_STATUS_SUCCESS);
    return out;
  }

  // The pool of `agent` whose GLOBAL_FLAGS (or segment, for the group pool) is `flags`.
  hsa_amd_memory_pool_t pool(hsa_agent_t agent, uint32_t flags, bool group = false) {
    for (hsa_amd_memory_pool_t p : pools(agent)) {
      hsa_amd_segment_t segment;
      hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &segment);
      if (group) {
        if (segment == HSA_AMD_SEGMENT_GROUP) return p;
        continue;
      }
      uint32_t f = 0;
      if (segment == HSA_AMD_SEGMENT_GLOBAL &&
          hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &f) ==
              HSA_STATUS_SUCCESS &&
          f == flags)
        return p;
    }
    ADD_FAILURE() << "no pool with flags " << flags;
    return hsa_amd_memory_pool_t{0};
  }

  FakeGpuPort* port_ = nullptr;
  int factoryCalls_ = 0;
  std::vector<hsa_agent_t> agents_;
  hsa_agent_t cpu_{0}, gpu_{0};
};

}  // namespace vgpu::hsa::test
