// The dispatcher (SPI) on its own, over stand-in compute units: each has a number of wave slots
// and an LDS size, offers slots only when the workgroup fits, records what it is given, "runs"
// every workgroup for a fixed number of cycles and then reports it finished, as a CU does.
//
// Expected values are worked out by hand: workgroup counts and partial edge groups from the AQL
// grid and workgroup sizes (HSA PSA 1.2, "Kernel Dispatch Packet": grid sizes count work-items),
// the initial SGPRs and VGPRs from LLVM AMDGPUUsage ("Initial Kernel Execution State" for GFX9:
// workgroup IDs in the system SGPRs COMPUTE_PGM_RSRC2 enables, right after the user SGPRs;
// work-item IDs in v0..v2), the LDS allocation granule of 512 bytes (AMDGPUUsage,
// COMPUTE_PGM_RSRC2.LDS_SIZE: 128-dword granularity on GFX7-GFX9; tiny.json keeps that default),
// and the order from the dispatcher's documented policy (Dispatcher.h: round-robin over CUs with
// room; one workgroup of each active dispatch in turn).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "TlmTester.h"
#include "dispatcher/Dispatcher.h"
#include "platforms/Platform.h"

namespace vgpu {
namespace {

using sc_core::sc_time;
using sc_core::sc_time_stamp;
using test::cycles;

// What a stand-in CU was given.
struct Launch {
  const KernelDispatch* dispatch = nullptr;
  uint32_t cu = 0;
  std::array<uint32_t, 3> groupId{};
  WorkgroupResources resources;
  std::vector<uint32_t> slots;
  std::vector<std::shared_ptr<isa::WaveState>> waves;  // (shared: a Launch is copied)
  sc_time at;
};

class StandInCu : public sc_core::sc_module, public ComputeUnitPort {
 public:
  SC_HAS_PROCESS(StandInCu);
  StandInCu(sc_core::sc_module_name name, uint32_t id, uint32_t slots, uint32_t ldsBytes,
            uint32_t runCycles, ComputeUnitListener& listener, std::vector<Launch>& log)
      : sc_module(name),
        id_(id),
        slots_(slots, false),
        ldsBytes_(ldsBytes),
        run_(runCycles),
        listener_(listener),
        log_(log) {
    SC_THREAD(run);
  }

  uint32_t id() const override { return id_; }
  uint32_t waveSlots() const override { return static_cast<uint32_t>(slots_.size()); }
  bool findSlots(const WorkgroupResources& r, std::vector<uint32_t>& placement) const override {
    ++searched;
    placement.clear();
    offered_.clear();
    if (halted || ldsUsed_ + r.ldsBytes > ldsBytes_) return false;
    for (uint32_t s = 0; s < slots_.size() && placement.size() < r.waves; ++s)
      if (!slots_[s]) placement.push_back(s);
    if (placement.size() < r.waves) return false;
    offered_ = placement;
    return true;
  }
  void launch(WorkgroupLaunch& g) override {
    Launch l;
    l.dispatch = g.dispatch;
    l.cu = id_;
    l.groupId = g.groupId;
    l.resources = g.resources;
    l.at = sc_time_stamp();
    for (auto& w : g.waves) {
      l.slots.push_back(w.slot);
      // The registers a CU writes when the wave starts, from what the dispatcher handed over.
      EXPECT_EQ(w.state, nullptr);
      l.waves.push_back(g.initialState(*g.dispatch, w.where, g.extent, nullptr));
    }
    // Launched only where findSlots offered room, in exactly the offered slots.
    EXPECT_EQ(l.slots, offered_) << "cu " << id_;
    EXPECT_EQ(l.waves.size(), g.resources.waves);
    for (uint32_t s : l.slots) {
      EXPECT_FALSE(slots_.at(s)) << "slot " << s << " taken twice";
      slots_.at(s) = true;
    }
    ldsUsed_ += g.resources.ldsBytes;
    wavesUsed_ += g.resources.waves;
    maxWavesUsed = std::max(maxWavesUsed, wavesUsed_);
    offered_.clear();
    running_.push_back({sc_time_stamp() + cycles(run_), g.dispatch, l.slots, g.resources});
    log_.push_back(std::move(l));
    wake_.notify(sc_core::SC_ZERO_TIME);
  }

  bool halted = false;            // set by a test that plays a fault here
  mutable uint32_t searched = 0;  // findSlots calls
  void setRunCycles(uint32_t cycles) { run_ = cycles; }
  uint32_t maxWavesUsed = 0;

 private:
  struct Running {
    sc_time end;
    const KernelDispatch* dispatch;
    std::vector<uint32_t> slots;
    WorkgroupResources resources;
  };
  void run() {
    while (true) {
      if (running_.empty()) {
        sc_core::wait(wake_);
        continue;
      }
      sc_time next = running_.front().end;
      for (const Running& r : running_) next = std::min(next, r.end);
      if (next > sc_time_stamp()) {
        sc_core::wait(next - sc_time_stamp(), wake_);
        continue;
      }
      // Workgroups end in launch order among those due now.
      for (size_t i = 0; i < running_.size();) {
        if (running_[i].end > sc_time_stamp()) {
          ++i;
          continue;
        }
        const Running r = running_[i];
        running_.erase(running_.begin() + static_cast<long>(i));
        for (uint32_t s : r.slots) slots_[s] = false;
        listener_.roomMade(id_);
        ldsUsed_ -= r.resources.ldsBytes;
        wavesUsed_ -= r.resources.waves;
        if (!halted) listener_.workgroupFinished(id_, r.dispatch);
      }
    }
  }

  uint32_t id_;
  std::vector<bool> slots_;
  uint32_t ldsBytes_, ldsUsed_ = 0, wavesUsed_ = 0;
  uint32_t run_;
  ComputeUnitListener& listener_;
  std::vector<Launch>& log_;
  mutable std::vector<uint32_t> offered_;
  std::vector<Running> running_;
  sc_core::sc_event wake_;
};

struct DispatcherBench {
  PlatformConfig config;
  Dispatcher dispatcher{"dispatcher", config};
  std::vector<Launch> log;
  std::vector<std::unique_ptr<StandInCu>> cus;
  test::TestThread host{"host"};  // plays the command processor

  DispatcherBench(uint32_t count, uint32_t slots, uint32_t ldsBytes, uint32_t runCycles)
      : DispatcherBench(loadPlatform("tiny"), count, slots, ldsBytes, runCycles) {}
  DispatcherBench(const PlatformConfig& platform, uint32_t count, uint32_t slots, uint32_t ldsBytes,
                  uint32_t runCycles)
      : config(platform) {
    std::vector<ComputeUnitPort*> ports;
    for (uint32_t i = 0; i < count; ++i) {
      cus.push_back(std::make_unique<StandInCu>(("cu" + std::to_string(i)).c_str(), i, slots,
                                                ldsBytes, runCycles, dispatcher, log));
      ports.push_back(cus.back().get());
    }
    dispatcher.attach(ports);
  }
  std::vector<const Launch*> launchesOf(const KernelDispatch* d) const {
    std::vector<const Launch*> out;
    for (const Launch& l : log)
      if (l.dispatch == d) out.push_back(&l);
    return out;
  }
};

std::shared_ptr<KernelDispatch> dispatchOf(std::array<uint32_t, 3> grid,
                                           std::array<uint32_t, 3> workgroup,
                                           const std::string& name = "k") {
  auto d = std::make_shared<KernelDispatch>();
  d->kernelName = name;
  d->entryPc = 0x100001000;
  d->gridSize = grid;
  d->workgroupSize = workgroup;
  d->vgprsPerWave = 40;
  d->sgprsPerWave = 32;
  // No user SGPRs; ENABLE_SGPR_WORKGROUP_ID_X/Y/Z (bits 7..9); ENABLE_VGPR_WORKITEM_ID 2 (bits
  // 12:11: v0, v1 and v2).
  d->computePgmRsrc2 = (1 << 7) | (1 << 8) | (1 << 9) | (2 << 11);
  return d;
}

uint64_t lanes(uint32_t n) {
  return n == 64 ? ~0ull : (1ull << n) - 1;
}

TEST(DispatcherBlock, EveryWorkgroupOnceInGridOrderRoundRobinOverCus) {
  DispatcherBench b(3, 40, 65536, 100);
  // 130 x 3 x 2 work-items in 64 x 2 x 1 groups: 3 x 2 x 2 = 12 workgroups; the last in x has
  // 2 columns, the last in y 1 row.
  auto d = dispatchOf({130, 3, 2}, {64, 2, 1});
  d->groupSegmentBytes = 1000;
  std::shared_ptr<DispatchProgress> progress;
  sc_time doneAt;
  b.host.body([&] {
    const sc_time start = sc_time_stamp();
    progress = b.dispatcher.submit(d);
    EXPECT_EQ(b.dispatcher.activeDispatches(), 1u);
    sc_core::wait(b.dispatcher.finishedEvent());
    doneAt = sc_time_stamp();
    // All 12 fit at once (40 slots per CU): they run together for 100 cycles.
    EXPECT_EQ(doneAt - start, cycles(100));
    EXPECT_EQ(b.dispatcher.activeDispatches(), 0u);
  });
  test::simulate();
  ASSERT_TRUE(progress);
  EXPECT_TRUE(progress->done);
  EXPECT_FALSE(progress->faulted);
  EXPECT_EQ(progress->endTime, doneAt);
  ASSERT_EQ(b.log.size(), 12u);
  uint32_t waves = 0;
  for (size_t k = 0; k < b.log.size(); ++k) {
    const Launch& l = b.log[k];
    SCOPED_TRACE("launch " + std::to_string(k));
    // Linear order, x fastest; CU k % 3.
    const std::array<uint32_t, 3> id{static_cast<uint32_t>(k % 3), static_cast<uint32_t>(k / 3 % 2),
                                     static_cast<uint32_t>(k / 6)};
    EXPECT_EQ(l.groupId, id);
    EXPECT_EQ(l.cu, k % 3);
    const uint32_t columns = id[0] < 2 ? 64 : 2, rows = id[1] == 0 ? 2 : 1;
    const uint32_t items = columns * rows;
    EXPECT_EQ(l.resources.waves, (items + 63) / 64);
    EXPECT_EQ(l.resources.vgprsPerWave, 40u);
    EXPECT_EQ(l.resources.sgprsPerWave, 32u);
    EXPECT_EQ(l.resources.ldsBytes, 1024u);  // 1000 rounded up to 128 dwords
    waves += l.resources.waves;
    for (size_t w = 0; w < l.waves.size(); ++w) {
      const isa::WaveState& s = *l.waves[w];
      SCOPED_TRACE("wave " + std::to_string(w));
      EXPECT_EQ(s.pc, 0x100001000u);
      EXPECT_EQ(s.sgpr[0], id[0]);  // workgroup IDs X, Y, Z in s0..s2
      EXPECT_EQ(s.sgpr[1], id[1]);
      EXPECT_EQ(s.sgpr[2], id[2]);
      const uint32_t here = std::min<uint32_t>(64, items - 64 * static_cast<uint32_t>(w));
      EXPECT_EQ(s.exec, lanes(here));
      for (uint32_t lane = 0; lane < here; ++lane) {
        const uint32_t flat = 64 * static_cast<uint32_t>(w) + lane;  // x fastest
        ASSERT_EQ(s.v(0)[lane], flat % columns) << "lane " << lane;
        ASSERT_EQ(s.v(1)[lane], flat / columns) << "lane " << lane;
        ASSERT_EQ(s.v(2)[lane], 0u) << "lane " << lane;
      }
    }
  }
  EXPECT_EQ(waves, 2 * (2 + 2 + 1 + 1 + 1 + 1u));
  EXPECT_EQ(progress->workgroups, 12u);
  EXPECT_EQ(progress->waves, waves);
  EXPECT_EQ(b.dispatcher.workgroupsDispatched, 12u);
  EXPECT_EQ(b.dispatcher.wavesDispatched, waves);
}

TEST(DispatcherBlock, WorkgroupsWaitForRoomAndTheDispatchEndsWithTheLast) {
  // Two CUs with 4 wave slots each; 10 workgroups of 2 waves (128 work-items) that run 100
  // cycles: 4 fit at a time, so they start in three rounds 100 cycles apart.
  DispatcherBench b(2, 4, 65536, 100);
  auto d = dispatchOf({1280, 1, 1}, {128, 1, 1});
  std::shared_ptr<DispatchProgress> progress;
  sc_time start;
  b.host.body([&] {
    start = sc_time_stamp();
    progress = b.dispatcher.submit(d);
    sc_core::wait(cycles(250));
    EXPECT_FALSE(progress->done);
    sc_core::wait(b.dispatcher.finishedEvent());
    EXPECT_EQ(sc_time_stamp() - start, cycles(300));
  });
  test::simulate();
  ASSERT_EQ(b.log.size(), 10u);
  std::set<uint32_t> groups;
  for (size_t k = 0; k < b.log.size(); ++k) {
    const Launch& l = b.log[k];
    EXPECT_TRUE(groups.insert(l.groupId[0]).second) << "group " << l.groupId[0] << " twice";
    EXPECT_EQ(l.groupId[0], k);  // in order
    EXPECT_EQ(l.resources.waves, 2u);
    EXPECT_EQ(l.at - start, cycles(100.0 * static_cast<double>(k / 4))) << "launch " << k;
  }
  EXPECT_EQ(b.log[0].cu, 0u);
  EXPECT_EQ(b.log[1].cu, 1u);
  EXPECT_EQ(b.log[2].cu, 0u);
  EXPECT_EQ(b.log[3].cu, 1u);
  for (const auto& cu : b.cus) EXPECT_EQ(cu->maxWavesUsed, 4u);
  EXPECT_TRUE(progress->done);
  EXPECT_EQ(progress->workgroups, 10u);
  EXPECT_EQ(progress->waves, 20u);
}

TEST(DispatcherBlock, AFullCuIsSearchedForRoomOnlyAfterAWaveOnItEnded) {
  // Eight CUs of one slot, each running its workgroups for a different time (100 + 7 x its
  // index cycles), so workgroups end one at a time; 80 workgroups of one wave. The GPU is full
  // from the first eight on, and each end frees one CU. A CU refusing a workgroup refuses it
  // until a wave on it ends, so the dispatcher searches a CU only to place a workgroup (80
  // times) or when it may have room again: once at the start and once after each end (8 + 80).
  // Searching every CU after every end instead takes about ten searches per workgroup (805 in
  // all, counted with that search).
  DispatcherBench b(8, 1, 65536, 100);
  for (uint32_t i = 0; i < 8; ++i) b.cus[i]->setRunCycles(100 + 7 * i);
  auto d = dispatchOf({80 * 64, 1, 1}, {64, 1, 1});
  std::shared_ptr<DispatchProgress> progress;
  b.host.body([&] {
    progress = b.dispatcher.submit(d);
    sc_core::wait(b.dispatcher.finishedEvent());
  });
  test::simulate();
  ASSERT_TRUE(progress && progress->done);
  ASSERT_EQ(b.log.size(), 80u);
  std::set<uint32_t> groups;
  for (const Launch& l : b.log) groups.insert(l.groupId[0]);
  EXPECT_EQ(groups.size(), 80u);
  // Each end is followed at once by a launch on the CU it freed (the only one with room): CU i
  // starts its workgroups 100 + 7 x i cycles apart.
  std::map<uint32_t, std::vector<sc_time>> startsOn;
  for (const Launch& l : b.log) startsOn[l.cu].push_back(l.at);
  ASSERT_EQ(startsOn.size(), 8u);
  for (const auto& [cu, starts] : startsOn)
    for (size_t k = 1; k < starts.size(); ++k)
      EXPECT_EQ(starts[k] - starts[k - 1], cycles(100 + 7 * cu)) << "cu " << cu << " launch " << k;
  uint32_t searches = 0;
  for (const auto& cu : b.cus) searches += cu->searched;
  EXPECT_LE(searches, 80u + 8u + 80u);
  EXPECT_GE(searches, 80u);
}

TEST(DispatcherBlock, ConcurrentDispatchesTakeTurnsInSubmissionOrder) {
  DispatcherBench b(1, 40, 65536, 100);
  auto first = dispatchOf({192, 1, 1}, {64, 1, 1}, "first");
  auto second = dispatchOf({192, 1, 1}, {64, 1, 1}, "second");
  std::shared_ptr<DispatchProgress> p1, p2;
  b.host.body([&] {
    p1 = b.dispatcher.submit(first);
    p2 = b.dispatcher.submit(second);
    EXPECT_EQ(b.dispatcher.activeDispatches(), 2u);
    sc_core::wait(cycles(200));
  });
  test::simulate();
  ASSERT_EQ(b.log.size(), 6u);
  const KernelDispatch* order[6] = {first.get(),  second.get(), first.get(),
                                    second.get(), first.get(),  second.get()};
  for (size_t k = 0; k < 6; ++k) {
    EXPECT_EQ(b.log[k].dispatch, order[k]) << "launch " << k;
    EXPECT_EQ(b.log[k].groupId[0], k / 2) << "launch " << k;
  }
  EXPECT_TRUE(p1->done);
  EXPECT_TRUE(p2->done);
}

TEST(DispatcherBlock, AWorkgroupThatDoesNotFitDoesNotHoldBackAnotherDispatch) {
  // One CU with 10 wave slots. The big dispatch's workgroups need 8 waves each: after the
  // first, 2 slots are left, which the small dispatch's 1-wave workgroups take.
  DispatcherBench b(1, 10, 65536, 100);
  auto big = dispatchOf({1024, 1, 1}, {512, 1, 1}, "big");
  auto small = dispatchOf({256, 1, 1}, {64, 1, 1}, "small");
  b.host.body([&] {
    b.dispatcher.submit(big);
    b.dispatcher.submit(small);
    sc_core::wait(cycles(500));
  });
  const sc_time t0 = sc_core::SC_ZERO_TIME;
  test::simulate();
  const auto bigs = b.launchesOf(big.get());
  const auto smalls = b.launchesOf(small.get());
  ASSERT_EQ(bigs.size(), 2u);
  ASSERT_EQ(smalls.size(), 4u);
  EXPECT_EQ(bigs[0]->at, t0);
  EXPECT_EQ(smalls[0]->at, t0);
  EXPECT_EQ(smalls[1]->at, t0);
  // When the first big group and the two small ones end, the second big group (8 waves) and
  // the two remaining small ones (1 each) fill the 10 slots.
  EXPECT_EQ(bigs[1]->at, t0 + cycles(100));
  EXPECT_EQ(smalls[2]->at, t0 + cycles(100));
  EXPECT_EQ(smalls[3]->at, t0 + cycles(100));
  EXPECT_EQ(b.cus[0]->maxWavesUsed, 10u);
}

// Submits `first` then `second` (in the same instant), runs, and returns the cycles at which
// each one's workgroups were placed, in order.
std::pair<std::vector<uint64_t>, std::vector<uint64_t>> placementCycles(
    DispatcherBench& b, const std::shared_ptr<KernelDispatch>& first,
    const std::shared_ptr<KernelDispatch>& second) {
  b.host.body([&] {
    b.dispatcher.submit(first);
    b.dispatcher.submit(second);
    sc_core::wait(cycles(1000));
  });
  test::simulate();
  std::pair<std::vector<uint64_t>, std::vector<uint64_t>> at;
  for (const Launch* l : b.launchesOf(first.get())) at.first.push_back(l->at / cycles(1));
  for (const Launch* l : b.launchesOf(second.get())) at.second.push_back(l->at / cycles(1));
  return at;
}

TEST(DispatcherBlock, AHigherPriorityDispatchPlacesItsWorkgroupsFirst) {
  // One CU with 2 wave slots, workgroups of 1 wave that run 100 cycles. The low-priority
  // dispatch is submitted first; the high-priority one still takes both slots at once and the
  // slot its last workgroup leaves free; the low one gets only what is left.
  DispatcherBench b(1, 2, 65536, 100);
  auto low = dispatchOf({192, 1, 1}, {64, 1, 1}, "low");
  auto high = dispatchOf({192, 1, 1}, {64, 1, 1}, "high");
  low->priority = 0;
  high->priority = 2;
  const auto [lows, highs] = placementCycles(b, low, high);
  EXPECT_EQ(highs, (std::vector<uint64_t>{0, 0, 100}));
  EXPECT_EQ(lows, (std::vector<uint64_t>{100, 200, 200}));
}

TEST(DispatcherBlock, ALowerPriorityTakesOnlyWhatNoHigherWorkgroupFits) {
  // One CU with 10 wave slots. The high-priority dispatch's workgroups need 8 waves, the low
  // one's 1: the 2 slots a big workgroup leaves go to the low dispatch, and every freed 8 go
  // back to the high one first.
  DispatcherBench b(1, 10, 65536, 100);
  auto small = dispatchOf({256, 1, 1}, {64, 1, 1}, "small");
  auto big = dispatchOf({1536, 1, 1}, {512, 1, 1}, "big");
  small->priority = 0;
  big->priority = 2;
  const auto [smalls, bigs] = placementCycles(b, small, big);
  EXPECT_EQ(bigs, (std::vector<uint64_t>{0, 100, 200}));
  EXPECT_EQ(smalls, (std::vector<uint64_t>{0, 0, 100, 100}));
  EXPECT_EQ(b.log.front().dispatch, big.get());  // placed before the small ones
}

// HW_ID (Vega ISA guide, "Hardware Registers"; HIP's amd_device_functions.h lists the same
// fields, and its __smid() is SE_ID << 4 | CU_ID): 20 CUs make 2 shader engines of 10, so CU 13
// is CU 3 of engine 1. Workgroups of 2 waves from queue 5 on CUs with 10 slots a SIMD take
// slots 0 and 1 (SIMD 0, waves 0 and 1). By the table: WAVE_ID [3:0], SIMD_ID [5:4], CU_ID
// [11:8], SE_ID [14:13], QUEUE_ID [26:24], ME_ID [31:30] = 1 (compute):
//   CU 0, slot 0:  0x45000000 (QUEUE_ID 5: 0x05000000, ME_ID 1: 0x40000000)
//   CU 13, slot 1: 0x45002301 (+ SE_ID 1: 0x2000, CU_ID 3: 0x300, WAVE_ID 1)
//   CU 19, slot 1: 0x45002901 (SE_ID 1, CU_ID 9)
TEST(DispatcherBlock, WavesStartWithTheirPlaceInHwId) {
  PlatformConfig platform = loadPlatform("tiny");
  platform.computeUnits = 20;
  DispatcherBench b(platform, 20, 40, 65536, 100);
  auto d = dispatchOf({128 * 20, 1, 1}, {128, 1, 1});
  d->queue = 5;
  b.host.body([&] {
    b.dispatcher.submit(d);
    sc_core::wait(b.dispatcher.finishedEvent());
  });
  test::simulate();
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> hwId;  // (CU, slot) -> HW_ID
  ASSERT_EQ(b.log.size(), 20u);
  for (const Launch& l : b.log) {
    ASSERT_EQ(l.slots, (std::vector<uint32_t>{0, 1}));
    for (size_t w = 0; w < l.waves.size(); ++w) hwId[{l.cu, l.slots[w]}] = l.waves[w]->hwId;
  }
  EXPECT_EQ(hwId.at({0, 0}), 0x45000000u);
  EXPECT_EQ(hwId.at({13, 1}), 0x45002301u);
  EXPECT_EQ(hwId.at({19, 1}), 0x45002901u);
  // HIP's __smid() of every CU: engine 0 gives 0..9, engine 1 16..25, all different.
  std::set<uint32_t> smid;
  for (const auto& [where, id] : hwId) smid.insert(((id >> 13) & 3) << 4 | ((id >> 8) & 0xf));
  std::set<uint32_t> want;
  for (uint32_t cu = 0; cu < 10; ++cu) want.insert({cu, 16 + cu});
  EXPECT_EQ(smid, want);
}

// A dispatch whose queue's CU mask enables CUs 1 and 3 of 4: its 8 workgroups go only there,
// taking turns (round robin over the CUs it may use), while an unmasked one uses all four.
TEST(DispatcherBlock, ACuMaskKeepsADispatchOnItsCus) {
  DispatcherBench b(4, 40, 65536, 100);
  auto masked = dispatchOf({64 * 8, 1, 1}, {64, 1, 1}, "masked");
  masked->cuMask = {0b1010};
  auto open = dispatchOf({64 * 8, 1, 1}, {64, 1, 1}, "open");
  b.host.body([&] {
    b.dispatcher.submit(masked);
    sc_core::wait(b.dispatcher.finishedEvent());
    b.dispatcher.submit(open);
    sc_core::wait(b.dispatcher.finishedEvent());
  });
  test::simulate();
  std::vector<uint32_t> maskedCus, openCus;
  for (const Launch* l : b.launchesOf(masked.get())) maskedCus.push_back(l->cu);
  for (const Launch* l : b.launchesOf(open.get())) openCus.push_back(l->cu);
  EXPECT_EQ(maskedCus, (std::vector<uint32_t>{1, 3, 1, 3, 1, 3, 1, 3}));
  EXPECT_EQ(std::set<uint32_t>(openCus.begin(), openCus.end()), (std::set<uint32_t>{0, 1, 2, 3}));
}

TEST(DispatcherBlock, AFaultEndsItsDispatchAndEveryDispatchWithWorkgroupsOnThatCu) {
  DispatcherBench b(2, 40, 65536, 1000);
  auto a = dispatchOf({64, 1, 1}, {64, 1, 1}, "a");      // 1 workgroup
  auto bee = dispatchOf({128, 1, 1}, {64, 1, 1}, "b");   // 2 workgroups
  auto later = dispatchOf({64, 1, 1}, {64, 1, 1}, "c");  // submitted after the fault
  std::shared_ptr<DispatchProgress> pa, pb, pc;
  b.host.body([&] {
    pa = b.dispatcher.submit(a);
    pb = b.dispatcher.submit(bee);
    sc_core::wait(cycles(10));
    // Placed a0 on cu0, b0 on cu1, then b1 on cu0.
    ASSERT_EQ(b.log.size(), 3u);
    EXPECT_EQ(b.log[0].dispatch, a.get());
    EXPECT_EQ(b.log[0].cu, 0u);
    EXPECT_EQ(b.log[2].dispatch, bee.get());
    EXPECT_EQ(b.log[2].cu, 0u);
    // cu0 faults in a's wave and halts.
    b.cus[0]->halted = true;
    b.dispatcher.kernelFaulted(0, a.get(), WaveFault{"memory violation at 0x10", 0x10});
    sc_core::wait(cycles(1));
    EXPECT_TRUE(pa->done);
    EXPECT_TRUE(pa->faulted);
    EXPECT_EQ(pa->fault, "memory violation at 0x10");
    EXPECT_EQ(pa->faultAddress, std::optional<uint64_t>{0x10});
    EXPECT_TRUE(pb->done);
    EXPECT_TRUE(pb->faulted);
    EXPECT_NE(pb->fault.find("aborted: compute unit 0"), std::string::npos) << pb->fault;
    EXPECT_NE(pb->fault.find("memory violation at 0x10"), std::string::npos) << pb->fault;
    EXPECT_FALSE(pb->faultAddress);  // b made no access: it was aborted
    // Another dispatch runs on the CU that is left.
    pc = b.dispatcher.submit(later);
    sc_core::wait(b.dispatcher.finishedEvent());
    EXPECT_TRUE(pc->done);
    EXPECT_FALSE(pc->faulted);
  });
  test::simulate();
  const auto cs = b.launchesOf(later.get());
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_EQ(cs[0]->cu, 1u);
}

}  // namespace
}  // namespace vgpu
