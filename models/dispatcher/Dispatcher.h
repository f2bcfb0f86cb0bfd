// The workgroup dispatcher (SPI): hands the workgroups of every active kernel dispatch to compute
// units, each to the next CU (round-robin) with room for it (wave slots, VGPRs, SGPRs, LDS),
// writes every wave's initial registers, and tells the command processor when a dispatch is done.
//
// Several dispatches (from different AQL queues) may be active at once: they share the CUs. The
// dispatcher takes one workgroup from each active dispatch in turn (round-robin over dispatches,
// in submission order), so a dispatch whose next workgroup does not fit yet does not hold back
// another one whose workgroups do (the ACE/SPI arbitration between queues, simplified).
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <systemc>

#include "activity/ActivitySampler.h"
#include "common/PlatformConfig.h"
#include "cu/ComputeUnit.h"
#include "dispatcher/KernelDispatch.h"

namespace vgpu {

// What became of a submitted dispatch; owned jointly by the dispatcher and the submitter.
struct DispatchProgress {
  std::shared_ptr<const KernelDispatch> dispatch;
  bool done = false;     // every workgroup finished, or the dispatch faulted
  bool faulted = false;  // `fault` says why
  std::string fault;
  std::optional<uint64_t> faultAddress;  // a memory violation's first refused byte
  uint64_t workgroups = 0, waves = 0;    // placed on compute units so far
  sc_core::sc_time endTime;              // when it became done
};

// What the command processor sees of the dispatcher: it submits a dispatch and learns when one
// is done. An interface so that the command processor can be tested on its own.
class DispatcherPort {
 public:
  virtual ~DispatcherPort() = default;
  // Starts the dispatch next to every other active one; returns at once.
  virtual std::shared_ptr<DispatchProgress> submit(
      std::shared_ptr<const KernelDispatch> dispatch) = 0;
  // Notified whenever a dispatch becomes done.
  virtual const sc_core::sc_event& finishedEvent() const = 0;
};

class Dispatcher : public sc_core::sc_module, public DispatcherPort, public ComputeUnitListener {
 public:
  SC_HAS_PROCESS(Dispatcher);
  Dispatcher(sc_core::sc_module_name name, const PlatformConfig& config);

  // The compute units, in the order workgroups go round them; a CU's id() is its index here.
  void attach(const std::vector<ComputeUnitPort*>& cus);

  // Starts placing the dispatch's workgroups next to every other active dispatch; returns at
  // once. finishedEvent() is notified whenever a dispatch becomes done.
  std::shared_ptr<DispatchProgress> submit(std::shared_ptr<const KernelDispatch> dispatch) override;
  const sc_core::sc_event& finishedEvent() const override { return finished_; }
  // Dispatches submitted and not yet done.
  size_t activeDispatches() const;
  // Notified whenever a dispatch is submitted (progress reports wake on it).
  const sc_core::sc_event& submittedEvent() const { return submitted_; }
  // The report's timeline (vgpu-sim --report) starts with the first dispatch submitted.
  void attachActivity(ActivitySampler* sampler) { activity_ = sampler; }

  // ComputeUnitListener
  void workgroupFinished(uint32_t cuId, const KernelDispatch* dispatch) override;
  void kernelFaulted(uint32_t cuId, const KernelDispatch* dispatch,
                     const WaveFault& fault) override;
  void roomMade(uint32_t cuId) override { mayHaveRoom_[cuId / 64] |= uint64_t{1} << (cuId % 64); }

  uint64_t workgroupsDispatched = 0, wavesDispatched = 0;

 private:
  struct Active {
    std::shared_ptr<DispatchProgress> progress;
    std::array<uint32_t, 3> groups{};
    uint64_t total = 0, next = 0;  // workgroups in the grid; the next one to place (linear)
    uint64_t outstanding = 0;      // placed and not finished
    std::vector<uint32_t> perCu;   // outstanding workgroups per compute unit
    WorkgroupResources resources;  // without the wave count (per workgroup, edges differ)
  };
  void run();
  // Places the next workgroup of `a` on a CU with room; false if none has room now.
  bool placeNext(Active& a);
  Active* find(const KernelDispatch* dispatch);
  void finish(Active& a, bool faulted, const std::string& fault,
              std::optional<uint64_t> faultAddress = std::nullopt);
  void retireIdle();

  PlatformConfig config_;
  std::vector<ComputeUnitPort*> cus_;
  uint32_t nextCu_ = 0;
  size_t nextDispatch_ = 0;  // round-robin position among active dispatches
  // Submission order. A faulted dispatch stays here until its last placed workgroup ends.
  std::vector<std::unique_ptr<Active>> active_;
  sc_core::sc_event changed_, finished_, submitted_;
  ActivitySampler* activity_ = nullptr;
  // The CUs that may have room, searched for it: a CU that refused a workgroup refuses one
  // needing as much or more until a wave on it ends (roomMade). With every CU full, each ending
  // workgroup would otherwise have every CU searched again (about a million searches in a
  // 60-CU vector_add of 16,384 workgroups). A bit per CU; refusedNeeds_ is what each CU whose
  // bit is clear refused, refusedMost_ at least the largest of those needs.
  std::vector<uint64_t> mayHaveRoom_;
  std::vector<WorkgroupResources> refusedNeeds_;
  WorkgroupResources refusedMost_;
  bool mayHaveRoom(size_t index) const { return (mayHaveRoom_[index / 64] >> (index % 64)) & 1; }
  // The first CU index in [from, to) that may have room, or `to`.
  size_t nextMayHaveRoom(size_t from, size_t to) const;
  // placeNext's working storage, kept between workgroups.
  std::vector<uint32_t> slots_;
  WorkgroupLaunch launch_;
};

}  // namespace vgpu
