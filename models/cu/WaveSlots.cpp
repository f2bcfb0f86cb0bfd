#include "cu/WaveSlots.h"

#include <algorithm>

namespace vgpu {

WaveSlots::WaveSlots(const PlatformConfig& config)
    : simds_(config.cu.simdsPerCu),
      slotsPerSimd_(config.cu.waveSlotsPerSimd),
      vgprsPerSimdLane_(config.cu.vgprsPerSimdLane),
      sgprsPerSimd_(config.cu.sgprsPerSimd),
      ldsBytes_(config.lds.sizeBytes),
      waves_(simds_ * slotsPerSimd_),
      taken_((waves_.size() + 63) / 64),
      issuable_(taken_.size()),
      vgprsUsed_(simds_, 0),
      sgprsUsed_(simds_, 0) {}

bool WaveSlots::find(const WorkgroupResources& r, std::vector<uint32_t>& placement) const {
  // Too few free slots: the search below would fail too (the dispatcher asks every CU of a full
  // GPU each time a workgroup ends).
  if (waves_.size() - resident_ < r.waves) return false;
  if (r.ldsBytes > 0) {  // first fit in the LDS
    uint32_t cursor = 0;
    bool fits = false;
    for (const auto& [base, size] : ldsAllocations_) {
      if (base - cursor >= r.ldsBytes) {
        fits = true;
        break;
      }
      cursor = base + size;
    }
    if (!fits && ldsBytes_ - cursor < r.ldsBytes) return false;
  }
  // Working copies: the slots taken (a bit per slot, as taken_) and registers used.
  std::vector<uint64_t>& taken = findTaken_;
  taken.assign(taken_.begin(), taken_.end());
  std::vector<uint32_t>& vgprs = findVgprs_;
  std::vector<uint32_t>& sgprs = findSgprs_;
  vgprs.assign(vgprsUsed_.begin(), vgprsUsed_.end());
  sgprs.assign(sgprsUsed_.begin(), sgprsUsed_.end());
  placement.clear();
  uint32_t simd = nextSimd_;
  for (uint32_t w = 0; w < r.waves; ++w) {
    bool placed = false;
    for (uint32_t tries = 0; tries < simds_ && !placed; ++tries, simd = (simd + 1) % simds_) {
      if (vgprs[simd] + r.vgprsPerWave > vgprsPerSimdLane_ ||
          sgprs[simd] + r.sgprsPerWave > sgprsPerSimd_)
        continue;
      for (uint32_t slot = simd * slotsPerSimd_; slot < (simd + 1) * slotsPerSimd_; ++slot) {
        uint64_t& word = taken[slot / 64];
        const uint64_t bit = uint64_t{1} << (slot % 64);
        if (word & bit) continue;
        word |= bit;
        vgprs[simd] += r.vgprsPerWave;
        sgprs[simd] += r.sgprsPerWave;
        placement.push_back(slot);
        placed = true;
        break;
      }
    }
    if (!placed) return false;
  }
  return true;
}

ResidentWorkgroup& WaveSlots::place(WorkgroupLaunch& launch, uint8_t* ldsStorage,
                                    uint64_t startCycle) {
  std::unique_ptr<ResidentWorkgroup> group;
  if (spareGroups_.empty()) {
    group = std::make_unique<ResidentWorkgroup>();
  } else {
    group = std::move(spareGroups_.back());
    spareGroups_.pop_back();
    std::vector<uint32_t> slots = std::move(group->slots);  // keeps its storage
    *group = ResidentWorkgroup{};
    group->slots = std::move(slots);
    group->slots.clear();
  }
  group->dispatch = launch.dispatch;
  group->groupId = launch.groupId;
  group->extent = launch.extent;
  group->resources = launch.resources;
  group->initialState = launch.initialState;
  group->wavesTotal = static_cast<uint32_t>(launch.waves.size());
  if (launch.resources.ldsBytes > 0) {
    uint32_t cursor = 0;
    auto it = ldsAllocations_.begin();
    for (; it != ldsAllocations_.end(); ++it) {
      if (it->first - cursor >= launch.resources.ldsBytes) break;
      cursor = it->first + it->second;
    }
    group->ldsBase = cursor;
    ldsAllocations_.insert(it, {cursor, launch.resources.ldsBytes});
  }
  group->lds = ldsStorage ? ldsStorage + group->ldsBase : nullptr;

  uint32_t index = 0;
  group->slots.reserve(launch.waves.size());
  for (auto& wl : launch.waves) {
    const uint32_t simd = wl.slot / slotsPerSimd_;
    std::unique_ptr<ResidentWave> w;
    if (spareWaves_.empty()) {
      w = std::make_unique<ResidentWave>();
    } else {
      w = std::move(spareWaves_.back());
      spareWaves_.pop_back();
      *w = ResidentWave{};
    }
    w->s = std::move(wl.state);
    w->where = wl.where;
    w->group = group.get();
    w->slot = wl.slot;
    w->simd = simd;
    w->indexInGroup = index++;
    w->readyCycle = startCycle;
    vgprsUsed_[simd] += launch.resources.vgprsPerWave;
    sgprsUsed_[simd] += launch.resources.sgprsPerWave;
    waves_[wl.slot] = std::move(w);
    taken_[wl.slot / 64] |= uint64_t{1} << (wl.slot % 64);
    if (waves_[wl.slot]->s)
      issuable_[wl.slot / 64] |= uint64_t{1} << (wl.slot % 64);  // Ready
    else
      unstarted_.push_back(wl.slot);
    ++resident_;
    nextSimd_ = (simd + 1) % simds_;
    group->slots.push_back(wl.slot);
  }
  std::sort(group->slots.begin(), group->slots.end());
  groups_.push_back(std::move(group));
  return *groups_.back();
}

bool WaveSlots::release(ResidentWave& w) {
  ResidentWorkgroup* g = w.group;
  vgprsUsed_[w.simd] -= g->resources.vgprsPerWave;
  sgprsUsed_[w.simd] -= g->resources.sgprsPerWave;
  ++g->wavesEnded;
  --resident_;
  taken_[w.slot / 64] &= ~(uint64_t{1} << (w.slot % 64));
  issuable_[w.slot / 64] &= ~(uint64_t{1} << (w.slot % 64));
  spareStates_.push_back(std::move(w.s));
  spareWaves_.push_back(std::move(waves_[w.slot]));  // w is a spare from here on
  if (g->wavesEnded < g->wavesTotal) return false;
  if (g->resources.ldsBytes > 0)
    ldsAllocations_.erase(std::find_if(ldsAllocations_.begin(), ldsAllocations_.end(),
                                       [&](const auto& a) { return a.first == g->ldsBase; }));
  const auto ended =
      std::find_if(groups_.begin(), groups_.end(), [&](const auto& p) { return p.get() == g; });
  spareGroups_.push_back(std::move(*ended));
  groups_.erase(ended);
  return true;
}

void WaveSlots::startUnstarted() {
  for (const uint32_t slot : unstarted_) {
    ResidentWave& w = *waves_[slot];
    std::unique_ptr<isa::WaveState> reuse;
    if (!spareStates_.empty()) {
      reuse = std::move(spareStates_.back());
      spareStates_.pop_back();
    }
    const ResidentWorkgroup& g = *w.group;
    w.s = g.initialState(*g.dispatch, w.where, g.extent, std::move(reuse));
    markIssuable(w);
  }
  unstarted_.clear();
}

}  // namespace vgpu
