#include "dispatcher/Dispatcher.h"

#include <algorithm>

#include "dispatcher/InitialWaveState.h"

namespace vgpu {

using namespace sc_core;

Dispatcher::Dispatcher(sc_module_name name, const PlatformConfig& config)
    : sc_module(name), config_(config) {
  SC_THREAD(run);
}

void Dispatcher::attach(const std::vector<ComputeUnitPort*>& cus) {
  cus_ = cus;
  mayHaveRoom_.assign((cus_.size() + 63) / 64, 0);
  for (uint32_t i = 0; i < cus_.size(); ++i) roomMade(i);
  refusedNeeds_.assign(cus_.size(), WorkgroupResources{});
  refusedMost_ = WorkgroupResources{};
}

size_t Dispatcher::nextMayHaveRoom(size_t from, size_t to) const {
  while (from < to) {
    const uint64_t bits = mayHaveRoom_[from / 64] >> (from % 64);
    if (bits != 0) return std::min(to, from + static_cast<size_t>(__builtin_ctzll(bits)));
    from = (from / 64 + 1) * 64;
  }
  return to;
}

std::shared_ptr<DispatchProgress> Dispatcher::submit(std::shared_ptr<const KernelDispatch> d) {
  auto a = std::make_unique<Active>();
  a->progress = std::make_shared<DispatchProgress>();
  a->progress->dispatch = d;
  a->groups = d->workgroups();
  a->total = uint64_t{a->groups[0]} * a->groups[1] * a->groups[2];
  a->perCu.assign(cus_.size(), 0);
  a->resources.vgprsPerWave = d->vgprsPerWave;
  a->resources.sgprsPerWave = d->sgprsPerWave;
  a->resources.ldsBytes = (d->groupSegmentBytes + config_.lds.allocGranuleBytes - 1) /
                          config_.lds.allocGranuleBytes * config_.lds.allocGranuleBytes;
  auto progress = a->progress;
  active_.push_back(std::move(a));
  changed_.notify(SC_ZERO_TIME);
  submitted_.notify(SC_ZERO_TIME);
  if (activity_)
    activity_->start(
        static_cast<uint64_t>(sc_time_stamp() / sc_time(config_.clockPeriodNs(), SC_NS)));
  return progress;
}

size_t Dispatcher::activeDispatches() const {
  return static_cast<size_t>(std::count_if(active_.begin(), active_.end(),
                                           [](const auto& a) { return !a->progress->done; }));
}

namespace {
// Whether `a` needs at least what `b` does of every resource (then a CU without room for b has
// none for a: each need only takes room).
bool needsAtLeast(const WorkgroupResources& a, const WorkgroupResources& b) {
  return a.waves >= b.waves && a.vgprsPerWave >= b.vgprsPerWave &&
         a.sgprsPerWave >= b.sgprsPerWave && a.ldsBytes >= b.ldsBytes;
}
WorkgroupResources mostOf(const WorkgroupResources& a, const WorkgroupResources& b) {
  return {std::max(a.waves, b.waves), std::max(a.vgprsPerWave, b.vgprsPerWave),
          std::max(a.sgprsPerWave, b.sgprsPerWave), std::max(a.ldsBytes, b.ldsBytes)};
}
}  // namespace

bool Dispatcher::placeNext(Active& a) {
  const KernelDispatch& d = *a.progress->dispatch;
  const std::array<uint32_t, 3> id{static_cast<uint32_t>(a.next % a.groups[0]),
                                   static_cast<uint32_t>(a.next / a.groups[0] % a.groups[1]),
                                   static_cast<uint32_t>(a.next / a.groups[0] / a.groups[1])};
  const auto extent = workgroupExtent(d, id);
  WorkgroupResources res = a.resources;
  res.waves = (extent[0] * extent[1] * extent[2] + 63) / 64;
  ComputeUnitPort* cu = nullptr;
  std::vector<uint32_t>& slots = slots_;
  // Round-robin from nextCu_, passing the CUs known to refuse this workgroup: when it needs at
  // least the most any of them refused, it looks only where room may be (found a word of bits
  // at a time); else (an edge workgroup, another dispatch's) CU by CU.
  const size_t n = cus_.size();
  const bool onlyWhereRoomMayBe = needsAtLeast(res, refusedMost_);
  for (size_t pass = 0; pass < 2 && cu == nullptr; ++pass) {
    const size_t from = pass == 0 ? nextCu_ : 0, to = pass == 0 ? n : nextCu_;
    for (size_t index = from; index < to; ++index) {
      if (!mayHaveRoom(index)) {
        if (onlyWhereRoomMayBe) {
          index = nextMayHaveRoom(index, to);
          if (index == to) break;
        } else if (needsAtLeast(res, refusedNeeds_[index])) {
          continue;
        }
      }
      ComputeUnitPort* c = cus_[index];
      if (!d.mayUse(c->id())) continue;
      if (c->findSlots(res, slots)) {
        cu = c;
        nextCu_ = static_cast<uint32_t>((index + 1) % n);
        break;
      }
      mayHaveRoom_[index / 64] &= ~(uint64_t{1} << (index % 64));
      refusedNeeds_[index] = res;
      refusedMost_ = mostOf(refusedMost_, res);
    }
  }
  if (!onlyWhereRoomMayBe) {  // what the refusals hold now, for the next workgroup
    refusedMost_ = WorkgroupResources{};
    for (size_t index = 0; index < n; ++index)
      if (!mayHaveRoom(index)) refusedMost_ = mostOf(refusedMost_, refusedNeeds_[index]);
  }
  if (cu == nullptr) return false;
  WorkgroupLaunch& launch = launch_;
  launch.dispatch = &d;
  launch.groupId = id;
  launch.extent = extent;
  launch.resources = res;
  launch.initialState = &makeInitialWaveState;
  launch.waves.resize(res.waves);
  for (uint32_t w = 0; w < res.waves; ++w) {
    WavePlacement& where = launch.waves[w].where;
    where.groupId = id;
    where.waveInGroup = w;
    // Scratch is laid out per wave slot of the GPU (cu * slots per CU + slot).
    where.scratchSlot = cu->id() * cu->waveSlots() + slots[w];
    where.hwId = hwIdOf(config_, cu->id(), slots[w], d.queue);
    launch.waves[w].slot = slots[w];
    launch.waves[w].state = nullptr;
  }
  ++a.next;
  ++a.outstanding;
  ++a.perCu[cu->id()];
  ++a.progress->workgroups;
  a.progress->waves += res.waves;
  ++workgroupsDispatched;
  wavesDispatched += res.waves;
  cu->launch(launch);
  return true;
}

void Dispatcher::run() {
  while (true) {
    // One workgroup per turn, until no active dispatch can place one: the highest-priority
    // dispatch that can place one, equal priorities taking turns. A lower priority places only
    // what no higher one can (a workgroup that fits where theirs do not).
    bool placed = true;
    while (placed) {
      placed = false;
      const size_t n = active_.size();
      for (uint32_t level = KernelDispatch::kHighestPriority + 1; level-- > 0 && !placed;)
        for (size_t i = 0; i < n; ++i) {
          const size_t k = (nextDispatch_ + i) % n;
          Active& a = *active_[k];
          if (a.progress->done || a.next >= a.total) continue;
          if (std::min(a.progress->dispatch->priority, KernelDispatch::kHighestPriority) != level)
            continue;
          if (placeNext(a)) {
            placed = true;
            nextDispatch_ = (k + 1) % n;
            break;
          }
        }
    }
    wait(changed_);
  }
}

Dispatcher::Active* Dispatcher::find(const KernelDispatch* dispatch) {
  for (auto& a : active_)
    if (a->progress->dispatch.get() == dispatch) return a.get();
  return nullptr;
}

void Dispatcher::finish(Active& a, bool faulted, const std::string& fault,
                        std::optional<uint64_t> faultAddress) {
  a.progress->done = true;
  a.progress->faulted = faulted;
  a.progress->fault = fault;
  a.progress->faultAddress = faultAddress;
  a.progress->endTime = sc_time_stamp();
  finished_.notify(SC_ZERO_TIME);
}

void Dispatcher::retireIdle() {
  const size_t before = active_.size();
  active_.erase(
      std::remove_if(active_.begin(), active_.end(),
                     [](const auto& a) { return a->progress->done && a->outstanding == 0; }),
      active_.end());
  if (active_.size() != before)
    nextDispatch_ = active_.empty() ? 0 : nextDispatch_ % active_.size();
}

void Dispatcher::workgroupFinished(uint32_t cuId, const KernelDispatch* dispatch) {
  if (Active* a = find(dispatch)) {
    --a->outstanding;
    --a->perCu[cuId];
    if (!a->progress->done && a->next == a->total && a->outstanding == 0) finish(*a, false, {});
  }
  retireIdle();
  changed_.notify(SC_ZERO_TIME);
}

void Dispatcher::kernelFaulted(uint32_t cuId, const KernelDispatch* dispatch,
                               const WaveFault& fault) {
  const std::string& message = fault.message;
  // The faulting CU halts with every wave on it: the faulted dispatch ends now, and so does every
  // other dispatch with workgroups on that CU (they could never finish).
  if (Active* a = find(dispatch); a != nullptr && !a->progress->done)
    finish(*a, true, message, fault.refusedAddress);
  for (auto& a : active_) {
    if (a->progress->done || a->perCu[cuId] == 0) continue;
    finish(*a, true,
           "kernel '" + a->progress->dispatch->kernelName + "' aborted: compute unit " +
               std::to_string(cuId) + ", which ran " + std::to_string(a->perCu[cuId]) +
               " of its workgroups, halted on a fault of kernel '" + dispatch->kernelName + "':\n" +
               message);
  }
  changed_.notify(SC_ZERO_TIME);
}

}  // namespace vgpu
