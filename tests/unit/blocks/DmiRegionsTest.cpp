// DmiRegions against a memory stand-in that grants read-write regions, read-only regions and
// denials: what each access is given, and when the memory is asked again.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>

#include "common/DmiRegions.h"

namespace vgpu {
namespace {

using Access = DmiRegions::Access;

// Memory from 0x1000 to 0x2fff: [0x1000, 0x1fff] read-write, [0x2000, 0x2fff] read-only (a
// page of decoded code); everything else denied, one 4 KiB page at a time.
struct Memory {
  std::array<uint8_t, 0x2000> bytes{};
  int asked = 0;
  bool operator()(tlm::tlm_generic_payload& p, tlm::tlm_dmi& dmi) {
    ++asked;
    const uint64_t address = p.get_address();
    const uint64_t page = address & ~uint64_t{0xfff};
    dmi.set_start_address(page);
    dmi.set_end_address(page + 0xfff);
    if (page != 0x1000 && page != 0x2000) return false;
    dmi.set_dmi_ptr(bytes.data() + (page - 0x1000));
    if (page == 0x1000)
      dmi.allow_read_write();
    else
      dmi.allow_read();
    return true;
  }
};

TEST(DmiRegions, AReadOnlyRegionServesReadsAndRefusesReadWriteWithoutAskingAgain) {
  Memory memory;
  DmiRegions regions;
  auto ask = [&](tlm::tlm_generic_payload& p, tlm::tlm_dmi& d) { return memory(p, d); };
  EXPECT_EQ(regions.find(0x2010, 4, ask, Access::Read), memory.bytes.data() + 0x1010);
  EXPECT_EQ(memory.asked, 1);
  EXPECT_EQ(regions.find(0x2010, 4, ask), nullptr);  // read-write by default
  EXPECT_EQ(regions.find(0x2ffc, 4, ask, Access::ReadWrite), nullptr);
  EXPECT_EQ(regions.find(0x2020, 8, ask, Access::Read), memory.bytes.data() + 0x1020);
  EXPECT_EQ(memory.asked, 1);  // every answer from the region kept
}

TEST(DmiRegions, AReadWriteRegionServesBothAndTheRegionsStayApart) {
  Memory memory;
  DmiRegions regions;
  auto ask = [&](tlm::tlm_generic_payload& p, tlm::tlm_dmi& d) { return memory(p, d); };
  EXPECT_EQ(regions.find(0x1008, 4, ask), memory.bytes.data() + 8);
  EXPECT_EQ(regions.find(0x1008, 4, ask, Access::Read), memory.bytes.data() + 8);
  EXPECT_EQ(regions.find(0x2008, 4, ask, Access::Read), memory.bytes.data() + 0x1008);
  EXPECT_EQ(regions.find(0x2008, 4, ask), nullptr);
  EXPECT_EQ(regions.find(0x1ffc, 4, ask), memory.bytes.data() + 0xffc);  // back to the first
  EXPECT_EQ(memory.asked, 2);
  // Across the two regions: neither holds it whole.
  EXPECT_EQ(regions.find(0x1ffe, 4, ask, Access::Read), nullptr);
  // Denied: asked once, then remembered.
  EXPECT_EQ(regions.find(0x3000, 4, ask, Access::Read), nullptr);
  EXPECT_EQ(regions.find(0x3004, 4, ask, Access::Read), nullptr);
  EXPECT_EQ(memory.asked, 3);
}

TEST(DmiRegions, ForgettingARegionAsksTheMemoryAgain) {
  Memory memory;
  DmiRegions regions;
  auto ask = [&](tlm::tlm_generic_payload& p, tlm::tlm_dmi& d) { return memory(p, d); };
  EXPECT_NE(regions.find(0x2000, 4, ask, Access::Read), nullptr);
  regions.forget(0x2000, 0x2fff);
  EXPECT_NE(regions.find(0x2000, 4, ask, Access::Read), nullptr);
  EXPECT_EQ(memory.asked, 2);
}

}  // namespace
}  // namespace vgpu
