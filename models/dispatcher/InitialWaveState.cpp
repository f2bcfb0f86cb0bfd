#include "dispatcher/InitialWaveState.h"

#include <algorithm>

namespace vgpu {

namespace {

// kernel_code_properties bits (AMDGPUUsage, "Kernel Descriptor").
constexpr uint16_t kPrivateSegmentBuffer = 1 << 0;
constexpr uint16_t kDispatchPtr = 1 << 1;
constexpr uint16_t kQueuePtr = 1 << 2;
constexpr uint16_t kKernargSegmentPtr = 1 << 3;
constexpr uint16_t kDispatchId = 1 << 4;
constexpr uint16_t kFlatScratchInit = 1 << 5;
constexpr uint16_t kPrivateSegmentSize = 1 << 6;

class SgprWriter {
 public:
  explicit SgprWriter(isa::WaveState& w) : w_(w) {}
  void put32(uint32_t v) {
    if (next_ < isa::kNumSgprs) w_.sgpr[next_] = v;
    ++next_;
  }
  void put64(uint64_t v) {
    put32(static_cast<uint32_t>(v));
    put32(static_cast<uint32_t>(v >> 32));
  }
  void seek(uint32_t index) { next_ = std::max(next_, index); }

 private:
  isa::WaveState& w_;
  uint32_t next_ = 0;
};

}  // namespace

std::array<uint32_t, 3> workgroupExtent(const KernelDispatch& d,
                                        const std::array<uint32_t, 3>& groupId) {
  std::array<uint32_t, 3> n{};
  for (int i = 0; i < 3; ++i) {
    const uint64_t start = static_cast<uint64_t>(groupId[i]) * d.workgroupSize[i];
    n[i] = static_cast<uint32_t>(
        std::min<uint64_t>(d.workgroupSize[i], d.gridSize[i] > start ? d.gridSize[i] - start : 0));
  }
  return n;
}

std::unique_ptr<isa::WaveState> makeInitialWaveState(const KernelDispatch& d,
                                                     const WavePlacement& where,
                                                     std::unique_ptr<isa::WaveState> reuse) {
  return makeInitialWaveState(d, where, workgroupExtent(d, where.groupId), std::move(reuse));
}

std::unique_ptr<isa::WaveState> makeInitialWaveState(const KernelDispatch& d,
                                                     const WavePlacement& where,
                                                     const std::array<uint32_t, 3>& extent,
                                                     std::unique_ptr<isa::WaveState> reuse) {
  std::unique_ptr<isa::WaveState> w = std::move(reuse);
  if (w) {
    std::vector<uint32_t> vgprs = std::move(w->vgpr);
    *w = isa::WaveState{};
    w->vgpr = std::move(vgprs);
  } else {
    w = std::make_unique<isa::WaveState>();
  }
  w->resizeVgprs(std::max<uint32_t>(d.vgprsPerWave, 3));  // zeroes them
  w->pc = d.entryPc;
  w->hwId = where.hwId;

  // MODE from COMPUTE_PGM_RSRC1: FLOAT_MODE [19:12] -> MODE[7:0] (round and denorm modes),
  // DX10_CLAMP [21] -> MODE[8], IEEE_MODE [23] -> MODE[9].
  const uint32_t rsrc1 = d.computePgmRsrc1;
  w->mode = ((rsrc1 >> 12) & 0xff) | (((rsrc1 >> 21) & 1) << 8) | (((rsrc1 >> 23) & 1) << 9);

  const uint64_t waveScratchOffset =
      static_cast<uint64_t>(where.scratchSlot) * d.scratchBytesPerWave;
  SgprWriter s(*w);
  const uint16_t props = d.kernelCodeProperties;
  if (props & kPrivateSegmentBuffer) {
    for (uint32_t dword : isa::makeScratchResource(
             d.scratchBase, static_cast<uint32_t>(std::min<uint64_t>(d.scratchBytes, 0xffffffffu))))
      s.put32(dword);
  }
  if (props & kDispatchPtr) s.put64(d.packetAddress);
  if (props & kQueuePtr) s.put64(d.queueAddress);
  if (props & kKernargSegmentPtr) s.put64(d.kernargAddress);
  if (props & kDispatchId) s.put64(d.dispatchId);
  // GFX9: the base of the queue's scratch memory; the kernel prolog adds the wave offset.
  if (props & kFlatScratchInit) s.put64(d.scratchBase);
  if (props & kPrivateSegmentSize) s.put32(d.privateSegmentBytes);

  // System SGPRs start right after the user SGPRs (COMPUTE_PGM_RSRC2.USER_SGPR).
  const uint32_t rsrc2 = d.computePgmRsrc2;
  s.seek((rsrc2 >> 1) & 0x1f);
  if ((rsrc2 >> 7) & 1) s.put32(where.groupId[0]);
  if ((rsrc2 >> 8) & 1) s.put32(where.groupId[1]);
  if ((rsrc2 >> 9) & 1) s.put32(where.groupId[2]);
  if ((rsrc2 >> 10) & 1) {
    // Workgroup info (no LLVM-generated code reads it): bit 31 marks the first wave.
    s.put32(where.waveInGroup == 0 ? (1u << 31) : 0);
  }
  if (rsrc2 & 1) s.put32(static_cast<uint32_t>(waveScratchOffset));
  w->flatScratch = 0;  // set by the kernel prolog from flat scratch init

  // Work-item IDs: v0 = x, v1 = y, v2 = z as enabled by ENABLE_VGPR_WORKITEM_ID.
  const uint32_t items = extent[0] * extent[1] * extent[2];
  const uint32_t idsEnabled = (rsrc2 >> 11) & 3;
  // The wave's work-items are the flat IDs from waveInGroup * 64 on, x fastest: count the IDs
  // up lane by lane from the first one's.
  const uint32_t firstItem = where.waveInGroup * 64;
  const uint32_t lanes = items > firstItem ? std::min<uint32_t>(64, items - firstItem) : 0;
  w->exec = lanes == 64 ? ~0ull : (1ull << lanes) - 1;
  if (lanes == 0) return w;
  uint32_t x = firstItem % extent[0], y = firstItem / extent[0] % extent[1],
           z = firstItem / (extent[0] * extent[1]);
  uint32_t* ids[3] = {w->v(0), idsEnabled >= 1 ? w->v(1) : nullptr,
                      idsEnabled >= 2 ? w->v(2) : nullptr};
  if (x + lanes <= extent[0]) {  // within one row (1D workgroups): x counts up, y and z stay
    if (lanes == 64) {           // a loop of fixed length, which vectorises
      for (uint32_t lane = 0; lane < 64; ++lane) ids[0][lane] = x + lane;
    } else {
      for (uint32_t lane = 0; lane < lanes; ++lane) ids[0][lane] = x + lane;
    }
    if (ids[1]) std::fill_n(ids[1], lanes, y);
    if (ids[2]) std::fill_n(ids[2], lanes, z);
    return w;
  }
  for (uint32_t lane = 0; lane < lanes; ++lane) {
    ids[0][lane] = x;
    if (ids[1]) ids[1][lane] = y;
    if (ids[2]) ids[2][lane] = z;
    if (++x == extent[0]) {
      x = 0;
      if (++y == extent[1]) {
        y = 0;
        ++z;
      }
    }
  }
  return w;
}

uint32_t hwIdOf(const PlatformConfig& config, uint32_t cu, uint32_t waveSlot, uint32_t queue) {
  const uint32_t perSimd = std::max<uint32_t>(1, config.cu.waveSlotsPerSimd);
  const PlatformConfig::CuLocation where = config.cuLocation(cu);
  return ((waveSlot % perSimd) & 0xf) | ((waveSlot / perSimd) & 3) << 4 |
         (where.cuInEngine & 0xf) << 8 | (where.shaderEngine & 3) << 13 | (queue & 7) << 24 |
         1u << 30;
}

}  // namespace vgpu
