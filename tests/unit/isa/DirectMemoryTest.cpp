// Functional mode's direct paths (ExecContext::directMemory and dsAtIssue): plain vector
// loads and stores, SMEM loads and DS instructions complete at issue on host memory. Each
// labelled snippet of programs/direct.s runs twice from the same state, through MemRequests
// (the reference) and directly, over lane patterns that take each of the direct path's forms
// (consecutive lanes, one address for all, scattered, reversed, high halves that differ) and
// partial EXEC masks; registers, memory and LDS must come out the same. Then what the direct
// path must leave to the general one: bytes it cannot map (the request is the reference's,
// so the memory side reports the fault as before), misaligned lanes, the LDS aperture, and
// the LDS range rules.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <random>

#include "WaveRunner.h"
#include "isa/BufferFormat.h"
#include "lds/LdsAtIssue.h"

namespace vgpu::isa::test {
namespace {

constexpr uint64_t kRegion = 0x20000;  // the device memory the tests use
constexpr size_t kRegionBytes = 8192;

// Device memory [base, base + bytes.size()) as one block of host memory, as the compute unit's
// DMI regions give it.
struct Region : DirectMemory {
  uint64_t base = kRegion;
  std::vector<uint8_t> bytes;
  int maps = 0;
  uint8_t* lookup(MemSpace, uint64_t address, uint64_t n) override {
    ++maps;
    if (address < base || n > bytes.size() || address - base > bytes.size() - n) return nullptr;
    return bytes.data() + (address - base);
  }
};

uint8_t patternByte(uint64_t address) {
  return static_cast<uint8_t>(address * 131 + (address >> 8) * 7 + 1);
}

WaveRunner at(const std::string& label) {
  WaveRunner r = WaveRunner::atLabel("direct", label);
  r.ctx.ldsSize = 4096;
  for (size_t a = 0; a < r.lds.size(); ++a) r.lds[a] = static_cast<uint8_t>(a * 29 + 3);
  for (uint32_t reg = 0; reg < r.wave.numVgprs; ++reg)
    for (int l = 0; l < kWaveSize; ++l) r.v(static_cast<int>(reg), l) = 0xc0de0000u + reg * 64 + l;
  return r;
}

using Setup = std::function<void(WaveRunner&)>;

// Runs `label` through MemRequests and directly from the same state; expects the same
// registers, memory and LDS, and every memory instruction done at issue.
void expectSameAsRequests(const std::string& label, const Setup& setup,
                          uint64_t regionBase = kRegion) {
  WaveRunner reference = at(label);
  setup(reference);
  for (size_t i = 0; i < kRegionBytes; ++i)
    reference.memory.write8(regionBase + i, patternByte(regionBase + i));
  const StepResult done = reference.run(1000);
  ASSERT_EQ(done.kind, StepKind::EndProgram) << done.fault;

  WaveRunner direct = at(label);
  setup(direct);
  Region region;
  region.base = regionBase;
  region.bytes.resize(kRegionBytes);
  for (size_t i = 0; i < kRegionBytes; ++i) region.bytes[i] = patternByte(regionBase + i);
  direct.ctx.directMemory = &region;
  direct.ctx.ldsAtIssue = direct.lds.data();
  direct.ctx.dsAtIssue = lds::executeAtIssue;
  const StepResult end = direct.run(1000);
  ASSERT_EQ(end.kind, StepKind::EndProgram) << end.fault;

  for (const StepResult& e : direct.events)
    EXPECT_NE(e.kind, StepKind::Memory) << "a memory instruction took the request path";
  EXPECT_EQ(direct.wave.sgpr, reference.wave.sgpr);
  for (uint32_t reg = 0; reg < direct.wave.numVgprs; ++reg)
    for (int l = 0; l < kWaveSize; ++l)
      ASSERT_EQ(direct.v(static_cast<int>(reg), l), reference.v(static_cast<int>(reg), l))
          << "v" << reg << " lane " << l;
  for (size_t i = 0; i < kRegionBytes; ++i)
    ASSERT_EQ(region.bytes[i], reference.memory.read8(regionBase + i))
        << "byte at 0x" << std::hex << regionBase + i;
  EXPECT_EQ(direct.lds, reference.lds);
  EXPECT_EQ(direct.wave.pc, reference.wave.pc);
}

// Lane address patterns, as byte offsets into the region, and EXEC masks.
struct Lanes {
  const char* name;
  std::function<uint64_t(int)> offset;
};
const std::vector<Lanes>& lanePatterns() {
  static const std::vector<Lanes> p = {
      {"consecutive dwords", [](int l) { return 256 + 4 * l; }},
      {"consecutive bytes", [](int l) { return 301 + l; }},
      {"consecutive shorts", [](int l) { return 402 + 2 * l; }},
      {"consecutive 16 bytes", [](int l) { return 16 * l; }},
      {"one address", [](int) { return 512; }},
      {"reversed", [](int l) { return 256 + 4 * (63 - l); }},
      {"scattered",
       [](int l) {
         std::mt19937 g(static_cast<unsigned>(l) * 7919u + 1);
         return (g() % 3000) & ~uint64_t{3};
       }},
      {"unaligned scattered", [](int l) { return 1000 + 37 * l; }},
      {"pairs", [](int l) { return 2048 + 8 * (l / 2); }},
      // Rows of 16 consecutive dwords (a 16-wide workgroup's rows), apart and overlapping.
      {"rows", [](int l) { return 1024 + 4 * (l % 16) + 512 * (l / 16); }},
      {"overlapping rows", [](int l) { return 3000 + 4 * (l % 16) + 24 * (l / 16); }},
  };
  return p;
}
const uint64_t kExecMasks[] = {~0ull,      0x8000000000000001ull, 0x00ff00ff00ff00feull,
                               1ull << 17, 0xffffffff00000000ull, 0};

std::string describe(const Lanes& p, uint64_t exec) {
  char buf[40];
  std::snprintf(buf, sizeof buf, ", exec 0x%016llx", static_cast<unsigned long long>(exec));
  return p.name + std::string(buf);
}

TEST(DirectMemory, GlobalLoadsAndStoresMatchTheRequestPath) {
  for (const char* label : {"global_dword", "global_wide", "global_narrow", "flat_dword"})
    for (const Lanes& p : lanePatterns())
      for (const uint64_t exec : kExecMasks) {
        SCOPED_TRACE(std::string(label) + ", " + describe(p, exec));
        expectSameAsRequests(label, [&](WaveRunner& r) {
          r.wave.exec = exec;
          for (int l = 0; l < kWaveSize; ++l) {
            const uint64_t a = kRegion + p.offset(l);
            r.v(0, l) = static_cast<uint32_t>(a);
            r.v(1, l) = static_cast<uint32_t>(a >> 32);
          }
          // Apertures far from the region: flat addresses are global ones.
          r.ctx.sharedApertureBase = 1ull << 48;
          r.ctx.privateApertureBase = 2ull << 48;
        });
      }
}

TEST(DirectMemory, GlobalAtomicsMatchTheRequestPath) {
  // In lane order, as the memory side applies them: lanes on one address see each other's.
  for (const Lanes& p : lanePatterns())
    for (const uint64_t exec : kExecMasks) {
      SCOPED_TRACE(describe(p, exec));
      expectSameAsRequests("global_atomics", [&](WaveRunner& r) {
        r.wave.exec = exec;
        r.s(4) = static_cast<uint32_t>(kRegion);
        r.s(5) = 0;
        for (int l = 0; l < kWaveSize; ++l) {
          const uint64_t a = kRegion + (p.offset(l) & ~uint64_t{7});
          r.v(0, l) = static_cast<uint32_t>(a);
          r.v(1, l) = static_cast<uint32_t>(a >> 32);
          r.v(2, l) = static_cast<uint32_t>(l % 3 ? l : 0x7f);
          r.v(3, l) = patternByte(a + 32);  // cmpswap's compare value: some lanes match
          r.v(5, l) = static_cast<uint32_t>(p.offset(l) & ~uint64_t{7});  // saddr form
        }
        r.ctx.sharedApertureBase = 1ull << 48;
        r.ctx.privateApertureBase = 2ull << 48;
      });
    }
}

TEST(DirectMemory, GlobalSaddrForm) {
  for (const Lanes& p : lanePatterns())
    for (const uint64_t exec : kExecMasks) {
      SCOPED_TRACE(describe(p, exec));
      expectSameAsRequests("global_saddr", [&](WaveRunner& r) {
        r.wave.exec = exec;
        r.s(4) = static_cast<uint32_t>(kRegion + 16);
        r.s(5) = 0;
        for (int l = 0; l < kWaveSize; ++l) r.v(0, l) = static_cast<uint32_t>(p.offset(l));
      });
    }
}

TEST(DirectMemory, AddressesWhoseHighHalvesDiffer) {
  // Lanes on both sides of a 4 GiB boundary: the 64-bit addresses are listed lane by lane.
  const uint64_t base = 0xfffff000;
  for (const char* label : {"global_dword", "global_wide", "global_narrow"})
    for (const uint64_t exec : kExecMasks) {
      SCOPED_TRACE(std::string(label) + describe(lanePatterns()[0], exec));
      expectSameAsRequests(
          label,
          [&](WaveRunner& r) {
            r.wave.exec = exec;
            for (int l = 0; l < kWaveSize; ++l) {
              const uint64_t a = base + 4096 - 128 + 4 * l;
              r.v(0, l) = static_cast<uint32_t>(a);
              r.v(1, l) = static_cast<uint32_t>(a >> 32);
            }
          },
          base);
    }
}

TEST(DirectMemory, LoadIntoItsOwnAddressVgprs) {
  for (const Lanes& p : lanePatterns()) {
    SCOPED_TRACE(p.name);
    expectSameAsRequests("global_overwrites_address", [&](WaveRunner& r) {
      for (int l = 0; l < kWaveSize; ++l) {
        r.v(0, l) = static_cast<uint32_t>(kRegion + p.offset(l));
        r.v(1, l) = 0;
      }
    });
  }
}

TEST(DirectMemory, OverlappingStoresTheHighestLaneWins) {
  // Every lane stores its own value to one dword: the highest active lane's stays.
  WaveRunner r = at("global_dword");
  Region region;
  region.bytes.assign(kRegionBytes, 0);
  r.ctx.directMemory = &region;
  r.wave.exec = 0x0000f0f0f0f0f0f0ull;
  for (int l = 0; l < kWaveSize; ++l) {
    r.v(0, l) = static_cast<uint32_t>(kRegion + 100);
    r.v(1, l) = 0;
    r.v(3, l) = 1000u + static_cast<uint32_t>(l);
  }
  ASSERT_EQ(r.run().kind, StepKind::EndProgram);
  uint32_t stored;
  std::memcpy(&stored, &region.bytes[108], 4);
  EXPECT_EQ(stored, 1000u + 47);
  for (const StepResult& e : r.events) EXPECT_NE(e.kind, StepKind::Memory);
}

TEST(DirectMemory, ScratchFlatAndSwizzled) {
  // FLAT_SCRATCH at the region: private dword p of lane l at base + (p / 4) * 256 + l * 4.
  const std::function<uint32_t(int)> offsets[] = {
      [](int) { return 4u; },                                           // one offset: affine lanes
      [](int l) { return static_cast<uint32_t>(4 * (l % 5)); },         // per lane
      [](int l) { return static_cast<uint32_t>(l % 3 == 0 ? 6 : 2); },  // not dword aligned
  };
  for (const char* label : {"scratch_vaddr", "scratch_saddr"})
    for (const auto& offset : offsets)
      for (const uint64_t exec : kExecMasks) {
        SCOPED_TRACE(std::string(label) + describe(lanePatterns()[0], exec));
        expectSameAsRequests(label, [&](WaveRunner& r) {
          r.wave.exec = exec;
          r.wave.flatScratch = kRegion + 256;
          r.s(4) = 8;
          for (int l = 0; l < kWaveSize; ++l) r.v(0, l) = offset(l);
        });
      }
}

TEST(DirectMemory, BufferScratchAndRawBuffers) {
  const auto scratch = makeScratchResource(kRegion, 4096);
  for (const Lanes& p : lanePatterns())
    for (const uint64_t exec : kExecMasks) {
      SCOPED_TRACE(describe(p, exec));
      expectSameAsRequests("buffer_scratch", [&](WaveRunner& r) {
        r.wave.exec = exec;
        for (int k = 0; k < 4; ++k) r.s(k) = scratch[k];
        for (int l = 0; l < kWaveSize; ++l)
          r.v(0, l) = static_cast<uint32_t>(p.offset(l) % 24) & ~3u;  // dword-aligned (swizzled)
      });
      // Whole waves without an address VGPR at soffsets that keep dwords aligned or not: one
      // block each, or the general way.
      for (const uint32_t soffset : {0u, 8u, 2u, 1028u})
        expectSameAsRequests("buffer_scratch_soffset", [&](WaveRunner& r) {
          r.wave.exec = exec;
          for (int k = 0; k < 4; ++k) r.s(k) = scratch[k];
          r.s(4) = soffset;
        });
      // A raw buffer of 3000 bytes: lanes past it read 0 and drop their stores, and the
      // dwords of a wide access are range-checked one by one.
      expectSameAsRequests("buffer_raw", [&](WaveRunner& r) {
        r.wave.exec = exec;
        r.s(8) = static_cast<uint32_t>(kRegion + 64);
        r.s(9) = 0;
        r.s(10) = 3000;
        r.s(11) = (kDfmt32 << 15) | (kNfmtUint << 12);
        r.s(12) = 2990;  // soffset: not range-checked
        for (int l = 0; l < kWaveSize; ++l) r.v(0, l) = static_cast<uint32_t>(p.offset(l) + 2 * l);
      });
      // An empty buffer: every lane out of range, loads still write their zeros.
      expectSameAsRequests("buffer_raw", [&](WaveRunner& r) {
        r.wave.exec = exec;
        r.s(8) = static_cast<uint32_t>(kRegion + 64);
        r.s(9) = 0;
        r.s(10) = 0;
        r.s(11) = (kDfmt32 << 15) | (kNfmtUint << 12);
        r.s(12) = 0;
        for (int l = 0; l < kWaveSize; ++l) r.v(0, l) = static_cast<uint32_t>(p.offset(l));
      });
    }
}

TEST(DirectMemory, ScalarLoads) {
  expectSameAsRequests("smem_loads", [](WaveRunner& r) {
    r.s(4) = static_cast<uint32_t>(kRegion + 64);
    r.s(5) = 0;
    r.s(0) = static_cast<uint32_t>(kRegion + 1024);
    r.s(1) = 0;
    r.s(2) = 0x80;  // the s_buffer_load at 0x100 is out of range: zeros
    r.s(3) = (kDfmt32 << 15) | (kNfmtUint << 12);
  });
}

TEST(DirectMemory, DsLoadsStoresAndAtomicsMatchTheLdsPath) {
  for (const char* label : {"ds_ops", "ds_atomics", "ds_overwrites_address"})
    for (const Lanes& p : lanePatterns())
      for (const uint64_t exec : kExecMasks) {
        SCOPED_TRACE(std::string(label) + ", " + describe(p, exec));
        expectSameAsRequests(label, [&](WaveRunner& r) {
          r.wave.exec = exec;
          for (int l = 0; l < kWaveSize; ++l) {
            r.v(0, l) = static_cast<uint32_t>(p.offset(l) & ~uint64_t{7});
            r.v(2, l) = static_cast<uint32_t>(p.offset(l) % 2048);
          }
        });
      }
}

TEST(DirectMemory, DsTileAccessesMatchTheLdsPath) {
  // The patterns of a 16-wide workgroup's tiles, a quarter-wave (16 lanes) at a time: a row's
  // lanes on one address (a broadcast) or on consecutive elements, and rows of different
  // shapes.
  struct Tile {
    const char* name;
    std::function<uint32_t(int)> dword, quad;  // v0 (dword accesses), v2 (16-byte ones)
  };
  const Tile tiles[] = {
      {"row broadcast", [](int l) { return 64u * (l / 16); },
       [](int l) { return 256u * (l / 16); }},
      {"rows of consecutive elements", [](int l) { return 4u * (l % 16) + 128u * (l / 16); },
       [](int l) { return 16u * (l % 16) + 512u * (l / 16); }},
      {"consecutive dwords", [](int l) { return 4u * l; }, [](int l) { return 16u * l; }},
      {"rows of every shape",
       [](int l) {
         const uint32_t q = static_cast<uint32_t>(l % 16);
         switch (l / 16) {
           case 0:
             return 96u;
           case 1:
             return 256u + 4 * q;
           case 2:
             return 1024u + 4 * (15 - q);
           default:
             return (q * 997u) % 2048u & ~3u;
         }
       },
       [](int l) { return l < 32 ? 16u * (l % 16) : 2048u + 16u * (l / 16); }},
  };
  for (const Tile& t : tiles)
    for (const uint64_t exec : kExecMasks) {
      SCOPED_TRACE(testing::Message() << t.name << ", exec " << std::hex << exec);
      expectSameAsRequests("ds_tile", [&](WaveRunner& r) {
        r.wave.exec = exec;
        for (int l = 0; l < kWaveSize; ++l) {
          r.v(0, l) = t.dword(l);
          r.v(2, l) = t.quad(l);
        }
      });
    }
}

TEST(DirectMemory, DsTileWithALanePastTheEndReadsZeroThere) {
  // Every lane on and consecutive addresses but for one lane past the allocation's end: that
  // lane reads 0 (the range rules, which the request path leaves to the LDS block), the others
  // their bytes.
  WaveRunner r = at("ds_tile_read");
  r.ctx.ldsAtIssue = r.lds.data();
  r.ctx.dsAtIssue = lds::executeAtIssue;
  const std::vector<uint8_t> lds = r.lds;
  for (int l = 0; l < kWaveSize; ++l) {
    r.v(0, l) = l == 50 ? 4094u : 4u * static_cast<uint32_t>(l);
    r.v(2, l) = l == 60 ? 4088u : 16u * static_cast<uint32_t>(l % 16);
  }
  ASSERT_EQ(r.run().kind, StepKind::EndProgram);
  auto dword = [&](uint32_t a) {
    uint32_t v;
    std::memcpy(&v, &lds[a], 4);
    return v;
  };
  for (int l = 0; l < kWaveSize; ++l) {
    SCOPED_TRACE(l);
    const uint32_t a = 4u * static_cast<uint32_t>(l), q = 16u * static_cast<uint32_t>(l % 16);
    EXPECT_EQ(r.v(4, l), l == 50 ? 0u : dword(a));
    EXPECT_EQ(r.v(5, l), l == 50 ? 0u : dword(a + 64));
    for (int k = 0; k < 4; ++k) EXPECT_EQ(r.v(8 + k, l), l == 60 ? 0u : dword(q + 4 * k));
  }
}

TEST(DirectMemory, DsOutOfRangeReadsZeroAndDropsWrites) {
  // A 256-byte allocation: lane 0 inside, lane 1 straddling the end, lane 2 past it.
  WaveRunner r = at("ds_ops");
  r.ctx.ldsSize = 256;
  r.ctx.ldsAtIssue = r.lds.data();
  r.ctx.dsAtIssue = lds::executeAtIssue;
  const std::vector<uint8_t> before = r.lds;
  r.wave.exec = 0x7;
  const uint32_t addr[3] = {0, 254, 4096};
  for (int l = 0; l < 3; ++l) r.v(0, l) = addr[l];
  ASSERT_EQ(r.run().kind, StepKind::EndProgram);
  // ds_read_b32 v3: lane 0 reads what ds_write_b32 ... offset:16 did not touch (the LDS as
  // set up), lanes 1 and 2 read 0.
  uint32_t lane0;
  std::memcpy(&lane0, &before[0], 4);
  EXPECT_EQ(r.v(3, 0), lane0);
  EXPECT_EQ(r.v(3, 1), 0u);
  EXPECT_EQ(r.v(3, 2), 0u);
  // Nothing was written past the allocation.
  for (size_t a = 256; a < r.lds.size(); ++a) ASSERT_EQ(r.lds[a], before[a]) << a;

  WaveRunner atomic = at("ds_atomics");
  atomic.ctx.ldsSize = 256;
  atomic.ctx.ldsAtIssue = atomic.lds.data();
  atomic.ctx.dsAtIssue = lds::executeAtIssue;
  atomic.wave.exec = 0x2;
  atomic.v(0, 1) = 4096;
  ASSERT_EQ(atomic.run().kind, StepKind::EndProgram);
  EXPECT_EQ(atomic.v(3, 1), 0u);  // an atomic out of range returns 0
  EXPECT_EQ(atomic.v(6, 1), 0u);
}

TEST(DirectMemory, WhatItCannotMapTakesTheRequestPath) {
  // Lanes running past the mapped bytes (an allocation's end): nothing happens at issue, and
  // the request is exactly the one the path without direct memory builds, so the memory side
  // reports the fault as before.
  for (const uint64_t exec : {~0ull, 0x00ff00ff00ff00feull}) {
    SCOPED_TRACE(exec);
    auto setup = [&](WaveRunner& r) {
      r.wave.exec = exec;
      r.recordRequests = true;
      for (int l = 0; l < kWaveSize; ++l) {
        const uint64_t a = kRegion + kRegionBytes - 64 + 4 * l;
        r.v(0, l) = static_cast<uint32_t>(a);
        r.v(1, l) = static_cast<uint32_t>(a >> 32);
        r.v(3, l) = 0x5000u + static_cast<uint32_t>(l);
      }
    };
    WaveRunner reference = at("global_dword");
    setup(reference);
    WaveRunner direct = at("global_dword");
    setup(direct);
    Region region;
    region.bytes.assign(kRegionBytes, 0);
    direct.ctx.directMemory = &region;
    ASSERT_EQ(reference.run().kind, StepKind::EndProgram);
    ASSERT_EQ(direct.run().kind, StepKind::EndProgram);
    EXPECT_GT(region.maps, 0);
    EXPECT_TRUE(
        std::all_of(region.bytes.begin(), region.bytes.end(), [](uint8_t b) { return !b; }));
    ASSERT_EQ(direct.requests.size(), 2u);
    ASSERT_EQ(reference.requests.size(), 2u);
    for (size_t i = 0; i < 2; ++i) {
      const MemRequest &d = direct.requests[i], &ref = reference.requests[i];
      EXPECT_EQ(d.op, ref.op);
      EXPECT_EQ(d.laneMask, ref.laneMask);
      EXPECT_EQ(d.elementBytes, ref.elementBytes);
      EXPECT_EQ(d.writeback.kind, ref.writeback.kind);
      EXPECT_EQ(d.writeback.lanes, ref.writeback.lanes);
      for (int l = 0; l < kWaveSize; ++l) {
        if (!((ref.laneMask >> l) & 1)) continue;
        EXPECT_EQ(d.address(l, 0), ref.address(l, 0)) << l;
        EXPECT_EQ(0, std::memcmp(d.element(l, 0), ref.element(l, 0), ref.elementBytes)) << l;
      }
    }
    EXPECT_EQ(direct.wave.vgpr, reference.wave.vgpr);
  }
}

TEST(DirectMemory, FaultsAndAperturesTakeTheGeneralPath) {
  Region region;
  region.bytes.assign(kRegionBytes, 0);
  // DWORD_STRICT: a misaligned lane faults with the general path's message.
  WaveRunner strict = at("global_dword");
  strict.ctx.directMemory = &region;
  strict.wave.alignmentMode = 1;
  for (int l = 0; l < kWaveSize; ++l) {
    strict.v(0, l) = static_cast<uint32_t>(kRegion + 4 * l + (l == 5 ? 2 : 0));
    strict.v(1, l) = 0;
  }
  const StepResult fault = strict.run();
  ASSERT_EQ(fault.kind, StepKind::Fault);
  EXPECT_NE(fault.fault.find("MEMVIOL: misaligned global access: lane 5"), std::string::npos)
      << fault.fault;
  // Flat addresses in the LDS aperture go to the LDS through a request.
  WaveRunner flat = at("flat_dword");
  flat.ctx.directMemory = &region;
  flat.ctx.sharedApertureBase = 1ull << 48;
  for (int l = 0; l < kWaveSize; ++l) {
    const uint64_t a = flat.ctx.sharedApertureBase + 4 * l;
    flat.v(0, l) = static_cast<uint32_t>(a);
    flat.v(1, l) = static_cast<uint32_t>(a >> 32);
  }
  ASSERT_EQ(flat.run().kind, StepKind::EndProgram);
  ASSERT_FALSE(flat.events.empty());
  EXPECT_EQ(flat.events[0].kind, StepKind::Memory);
  EXPECT_EQ(region.maps, 0);
  // Consecutive lanes running into the aperture, only the last one in it (with the
  // instruction's offset; the address VGPRs themselves stay below it): the general path's
  // verdict, not a block copy.
  WaveRunner into = at("flat_dword");
  into.ctx.directMemory = &region;
  into.ctx.sharedApertureBase = 1ull << 48;
  for (int l = 0; l < kWaveSize; ++l) {
    into.v(0, l) = 0xffffff00u + 4 * static_cast<uint32_t>(l);  // flat_load_dword ... offset:4
    into.v(1, l) = (1u << 16) - 1;
  }
  const StepResult mixed = into.run();
  EXPECT_EQ(mixed.kind, StepKind::Fault);
  EXPECT_EQ(mixed.fault, "flat access mixing apertures not supported");
  EXPECT_EQ(region.maps, 0);
}

}  // namespace
}  // namespace vgpu::isa::test
