#include "dispatcher/Dispatcher.h"

#include <algorithm>

#include "dispatcher/InitialWaveState.h"

namespace vgpu {

using namespace sc_core;

Dispatcher::Dispatcher(sc_module_name name, const PlatformConfig& config)
    : sc_module(name), config_(config) {}

void Dispatcher::attach(const std::vector<ComputeUnit*>& cus) {
  cus_ = cus;
}

bool Dispatcher::execute(const KernelDispatch& d) {
  faulted_ = false;
  fault_.clear();
  const auto groups = d.workgroups();
  WorkgroupResources res;
  res.vgprsPerWave = d.vgprsPerWave;
  res.sgprsPerWave = d.sgprsPerWave;
  res.ldsBytes = (d.groupSegmentBytes + config_.lds.allocGranuleBytes - 1) /
                 config_.lds.allocGranuleBytes * config_.lds.allocGranuleBytes;

  for (uint32_t z = 0; z < groups[2] && !faulted_; ++z)
    for (uint32_t y = 0; y < groups[1] && !faulted_; ++y)
      for (uint32_t x = 0; x < groups[0] && !faulted_; ++x) {
        const std::array<uint32_t, 3> id{x, y, z};
        const auto extent = workgroupExtent(d, id);
        res.waves = (extent[0] * extent[1] * extent[2] + 63) / 64;
        ComputeUnit* cu = nullptr;
        std::vector<uint32_t> slots;
        while (cu == nullptr && !faulted_) {
          for (size_t i = 0; i < cus_.size(); ++i) {
            ComputeUnit* c = cus_[(nextCu_ + i) % cus_.size()];
            if (auto found = c->findSlots(res)) {
              cu = c;
              slots = std::move(*found);
              nextCu_ = static_cast<uint32_t>((nextCu_ + i + 1) % cus_.size());
              break;
            }
          }
          if (cu == nullptr) wait(changed_);
        }
        if (faulted_) break;
        WorkgroupLaunch launch;
        launch.dispatch = &d;
        launch.groupId = id;
        launch.resources = res;
        for (uint32_t w = 0; w < res.waves; ++w) {
          WavePlacement where;
          where.groupId = id;
          where.waveInGroup = w;
          // Scratch is laid out per wave slot of the GPU (cu * slots per CU + slot).
          where.scratchSlot = cu->id() * cu->waveSlots() + slots[w];
          launch.waves.push_back({makeInitialWaveState(d, where), slots[w]});
        }
        ++workgroupsDispatched;
        wavesDispatched += res.waves;
        ++outstanding_;
        cu->launch(std::move(launch));
      }
  while (outstanding_ > 0 && !faulted_) wait(changed_);
  return !faulted_;
}

void Dispatcher::workgroupFinished(uint32_t) {
  --outstanding_;
  changed_.notify(SC_ZERO_TIME);
}

void Dispatcher::kernelFaulted(const std::string& message) {
  if (!faulted_) fault_ = message;
  faulted_ = true;
  changed_.notify(SC_ZERO_TIME);
}

}  // namespace vgpu
