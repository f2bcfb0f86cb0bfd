// The instruction decode cache on a DRAM, driven by a tester initiator that plays the other
// writers (the host port, a kernel store, a debugger): instructions are decoded from the bytes in
// memory once per address, a write to their page (transaction, atomic or debug) drops them, and
// DRAM revokes and then refuses DMI over pages holding decoded instructions.
#include <gtest/gtest.h>

#include <cstdint>

#include "MappedDeviceMemory.h"
#include "TlmTester.h"
#include "cu/InstructionDecodeCache.h"
#include "dram/Dram.h"
#include "isa/Atomics.h"

namespace vgpu {
namespace {

using test::cycles;
using test::TesterInitiator;

// gfx9 encodings (llvm-mc-15 -arch=amdgcn -mcpu=gfx906 -show-encoding).
constexpr uint32_t kSNop0 = 0xbf800000;           // s_nop 0
constexpr uint32_t kSEndpgm = 0xbf810000;         // s_endpgm
constexpr uint32_t kSMovB32Literal = 0xbe8000ff;  // s_mov_b32 s0, <literal>

struct Bench {
  DramConfig config = test::fixedLatencyDram(16ull << 20, 10);
  Dram dram{"dram", config, cycles(1)};
  InstructionDecodeCache cache{"decoded", isa::GfxTarget::Gfx906, dram};
  TesterInitiator init{"init"};
  uint64_t base = 0;  // 3 pages, page-aligned
  Bench() {
    init.socket.bind(dram.socket);
    cache.memory.bind(dram.socket);
    const uint64_t a = test::mapDeviceMemory(dram, 4 * kWatchedPageBytes);
    base = (a + kWatchedPageBytes - 1) / kWatchedPageBytes * kWatchedPageBytes;
  }
  std::string text(uint64_t pc) {
    const isa::Instruction* in = cache.at(pc);
    return in ? isa::disassemble(*in, isa::GfxTarget::Gfx906) : "(none)";
  }
};

TEST(InstructionDecodeCache, DecodesOncePerAddressFromMemory) {
  Bench b;
  b.init.body([&](TesterInitiator& i) {
    i.write32(b.base, kSNop0);
    i.write32(b.base + 4, kSEndpgm);
    const isa::Instruction* first = b.cache.at(b.base);
    ASSERT_NE(first, nullptr);
    EXPECT_EQ(b.text(b.base), "s_nop 0");
    EXPECT_EQ(b.text(b.base + 4), "s_endpgm");
    EXPECT_EQ(b.cache.at(b.base), first);  // the same entry: decoded once
    EXPECT_EQ(b.cache.decodes, 2u);
    EXPECT_EQ(b.cache.at(b.base + 2), nullptr);              // not 4-byte aligned
    EXPECT_EQ(b.cache.at(b.base - (64ull << 20)), nullptr);  // outside every allocation
  });
  test::simulate();
}

TEST(InstructionDecodeCache, WritesDropTheDecodedInstructionsOfTheirPage) {
  Bench b;
  b.init.body([&](TesterInitiator& i) {
    i.write32(b.base + 8, kSNop0);
    const isa::Instruction* entry = b.cache.at(b.base + 8);
    EXPECT_EQ(b.text(b.base + 8), "s_nop 0");
    // A plain write (the host port, a kernel store in timing mode).
    i.write32(b.base + 8, kSEndpgm);
    EXPECT_EQ(entry->pc, InstructionDecodeCache::kNoPc);  // a stale next-instruction guess fails
    EXPECT_EQ(b.text(b.base + 8), "s_endpgm");
    EXPECT_EQ(b.cache.at(b.base + 8), entry);  // the entry keeps its address
    // A debugger's write.
    uint32_t nop = kSNop0;
    EXPECT_EQ(i.debug(tlm::TLM_WRITE_COMMAND, b.base + 8, &nop, 4), 4u);
    EXPECT_EQ(b.text(b.base + 8), "s_nop 0");
    // An atomic (a kernel's global_atomic_swap).
    uint32_t swap = kSEndpgm;
    EXPECT_TRUE(i.atomic(b.base + 8, isa::AtomicOp::Swap, &swap, 4).ok());
    EXPECT_EQ(b.text(b.base + 8), "s_endpgm");
    EXPECT_EQ(b.cache.decodes, 4u);
    EXPECT_EQ(b.cache.pagesDropped, 3u);
  });
  test::simulate();
}

TEST(InstructionDecodeCache, AnInstructionRunningIntoTheNextPageIsDroppedByWritesToIt) {
  Bench b;
  b.init.body([&](TesterInitiator& i) {
    const uint64_t pc = b.base + kWatchedPageBytes - 4;
    i.write32(pc, kSMovB32Literal);
    i.write32(pc + 4, 0x1234);  // the literal, in the next page
    EXPECT_EQ(b.text(pc), "s_mov_b32 s0, 0x1234");
    i.write32(pc + 4, 0x5678);
    EXPECT_EQ(b.text(pc), "s_mov_b32 s0, 0x5678");
  });
  test::simulate();
}

TEST(InstructionDecodeCache, DramRevokesAndRefusesDmiOverDecodedPages) {
  Bench b;
  b.init.body([&](TesterInitiator& i) {
    tlm::tlm_dmi dmi;
    ASSERT_TRUE(i.dmi(b.base + kWatchedPageBytes, dmi, tlm::TLM_WRITE_COMMAND));
    i.write32(b.base + kWatchedPageBytes, kSNop0);
    ASSERT_NE(b.cache.at(b.base + kWatchedPageBytes), nullptr);
    // Revoked over the decoded page.
    bool revoked = false;
    for (const auto& [start, end] : i.invalidations)
      revoked = revoked ||
                (start <= b.base + kWatchedPageBytes && end >= b.base + 2 * kWatchedPageBytes - 1);
    EXPECT_TRUE(revoked);
    // Refused there, and granted around it without covering it.
    EXPECT_FALSE(i.dmi(b.base + kWatchedPageBytes + 64, dmi, tlm::TLM_WRITE_COMMAND));
    EXPECT_LE(dmi.get_start_address(), b.base + kWatchedPageBytes + 64);
    EXPECT_GE(dmi.get_end_address(), b.base + kWatchedPageBytes + 64);
    ASSERT_TRUE(i.dmi(b.base, dmi, tlm::TLM_WRITE_COMMAND));
    EXPECT_LT(dmi.get_end_address(), b.base + kWatchedPageBytes);
    ASSERT_TRUE(i.dmi(b.base + 2 * kWatchedPageBytes, dmi, tlm::TLM_WRITE_COMMAND));
    EXPECT_GE(dmi.get_start_address(), b.base + 2 * kWatchedPageBytes);
    // Once written (and its decoded instructions dropped), the page is ordinary memory again.
    i.write32(b.base + kWatchedPageBytes, kSEndpgm);
    EXPECT_TRUE(i.dmi(b.base + kWatchedPageBytes + 64, dmi, tlm::TLM_WRITE_COMMAND));
  });
  test::simulate();
}

}  // namespace
}  // namespace vgpu
