// The compute unit's wave slots (SIMDs x slots per SIMD) and what its resident workgroups hold
// of it: slots, VGPRs and SGPRs per SIMD, and LDS. It finds room for a workgroup (waves spread
// over the SIMDs round-robin, each SIMD with room for the wave's registers; the LDS first fit),
// places and frees workgroups, keeps the bit masks the sequencer scans (slots taken, waves ready
// to issue), and keeps finished waves, workgroups and wave states for the next ones (no
// allocation per wave).
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "common/PlatformConfig.h"
#include "cu/ResidentWave.h"
#include "cu/WorkgroupLaunch.h"

namespace vgpu {

class WaveSlots {
 public:
  explicit WaveSlots(const PlatformConfig& config);

  uint32_t count() const { return static_cast<uint32_t>(waves_.size()); }
  // The wave in `slot`, nullptr when the slot is free.
  ResidentWave* operator[](uint32_t slot) const { return waves_[slot].get(); }
  // Every slot in order, free ones as nullptr.
  const std::vector<std::unique_ptr<ResidentWave>>& all() const { return waves_; }
  uint32_t resident() const { return resident_; }

  // The slot each wave of a workgroup needing `r` would get, into `placement`; false if it
  // does not fit now (slots, registers, LDS).
  bool find(const WorkgroupResources& r, std::vector<uint32_t>& placement) const;
  // Places the launch's waves in the slots find() gave them, Ready from `startCycle`, and
  // allocates the workgroup's LDS in `ldsStorage` (nullptr: no LDS attached). A wave whose
  // state the launch holds starts now; the others are resident but do not issue until
  // startUnstarted writes their registers.
  ResidentWorkgroup& place(WorkgroupLaunch& launch, uint8_t* ldsStorage, uint64_t startCycle);
  // Whether placed waves wait for their registers.
  bool unstarted() const { return !unstarted_.empty(); }
  // Writes their initial registers (the workgroup's initialState, reusing ended waves' states)
  // and makes them issuable, in launch order.
  void startUnstarted();
  // Frees an ended wave's slot and registers; its state and storage are kept for reuse. `w` is
  // a spare from here on. True when it was the workgroup's last wave: then the workgroup's LDS
  // is free too, and the workgroup a spare.
  bool release(ResidentWave& w);

  // Bit i of word i / 64: slot i holds a wave in the Ready state. The sequencer visits these.
  const std::vector<uint64_t>& issuable() const { return issuable_; }
  // Sets the wave's issuable bit as its state says (after every change of state).
  void markIssuable(const ResidentWave& w) {
    const uint64_t bit = uint64_t{1} << (w.slot % 64);
    uint64_t& word = issuable_[w.slot / 64];
    word = w.state == ResidentWave::State::Ready ? word | bit : word & ~bit;
  }

 private:
  const uint32_t simds_, slotsPerSimd_, vgprsPerSimdLane_, sgprsPerSimd_, ldsBytes_;
  std::vector<std::unique_ptr<ResidentWave>> waves_;           // per slot, nullptr = free
  std::vector<uint64_t> taken_, issuable_;                     // bit masks per slot
  std::vector<uint32_t> vgprsUsed_, sgprsUsed_;                // per SIMD
  std::vector<std::pair<uint32_t, uint32_t>> ldsAllocations_;  // (base, size), sorted by base
  uint32_t nextSimd_ = 0;
  uint32_t resident_ = 0;
  std::vector<std::unique_ptr<ResidentWorkgroup>> groups_;
  // Kept for reuse.
  std::vector<std::unique_ptr<ResidentWave>> spareWaves_;
  std::vector<std::unique_ptr<ResidentWorkgroup>> spareGroups_;
  std::vector<std::unique_ptr<isa::WaveState>> spareStates_;
  std::vector<uint32_t> unstarted_;  // slots of placed waves without registers yet
  // find()'s working copies, kept between calls.
  mutable std::vector<uint64_t> findTaken_;
  mutable std::vector<uint32_t> findVgprs_, findSgprs_;
};

}  // namespace vgpu
