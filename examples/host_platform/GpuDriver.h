// The platform's own GPU driver, the way host software on a real SoC drives a device: only
// loads and stores on the system bus. It keeps the device-memory allocator (the GPU learns the
// ranges through its MEM_MAP registers), loads code objects into device memory with plain
// stores, and keeps its AQL queue, kernel arguments and completion signals in system memory,
// where the GPU reads and writes them as a bus master. Register map: docs/register-map.md;
// packets: HSA Platform System Architecture Specification 1.2, section 2.9 (AQL packets);
// kernel descriptors and kernarg layout: LLVM AMDGPUUsage, "Kernel Descriptor" and
// "Code Object V4 Metadata".
#pragma once

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "HostCpu.h"
#include "cp/Aql.h"
#include "cp/MmioRegisters.h"
#include "loader/CodeObject.h"
#include "runtime/DeviceMemoryAllocator.h"

class GpuDriver {
 public:
  // `mmio`: where the platform maps the GPU's registers; [systemBase, systemBase + systemBytes):
  // system memory the driver may use for its queue, kernargs and signals.
  GpuDriver(HostCpu& cpu, uint64_t mmio, uint64_t systemBase, uint64_t systemBytes)
      : cpu_(cpu),
        mmio_(mmio),
        systemNext_(systemBase),
        systemEnd_(systemBase + systemBytes),
        devices_(deviceAperture(cpu, mmio)) {
    if (read(vgpu::mmio::kId) != vgpu::mmio::kIdValue) throw std::runtime_error("no vgpu at MMIO");
    if (!(read(vgpu::mmio::kCapabilities) & vgpu::mmio::kCapSystemMemory))
      throw std::runtime_error("this GPU cannot reach system memory");
    // The AQL ring in system memory, every slot INVALID until a packet is published.
    ring_ = allocateSystem(kPackets * vgpu::aql::kPacketBytes, 64);
    for (uint32_t i = 0; i < kPackets; ++i)
      cpu_.store<uint16_t>(ring_ + i * vgpu::aql::kPacketBytes, vgpu::aql::kInvalid);
    write(queueRegister(vgpu::mmio::kQBaseLo), static_cast<uint32_t>(ring_));
    write(queueRegister(vgpu::mmio::kQBaseHi), static_cast<uint32_t>(ring_ >> 32));
    write(queueRegister(vgpu::mmio::kQSize), kPackets);
    write(queueRegister(vgpu::mmio::kQEnable), 1);
    write(vgpu::mmio::kIrqEnable, vgpu::mmio::kIrqPacketDone | vgpu::mmio::kIrqError);
  }

  // Device memory: allocated here, mapped for the GPU through MEM_MAP.
  uint64_t allocateDevice(uint64_t bytes) {
    const auto base = devices_.allocate(bytes, 4096);
    if (!base) throw std::runtime_error("out of device memory");
    write64(vgpu::mmio::kMemMapBaseLo, *base);
    write64(vgpu::mmio::kMemMapSizeLo, devices_.find(*base)->size);
    write(vgpu::mmio::kMemMapCommand, vgpu::mmio::kMemMapMap);
    if (read(vgpu::mmio::kMemMapStatus) != 0) throw std::runtime_error("MEM_MAP refused");
    return *base;
  }
  // System memory for the driver's own structures (never freed: a bump allocator).
  uint64_t allocateSystem(uint64_t bytes, uint64_t align) {
    const uint64_t base = (systemNext_ + align - 1) / align * align;
    if (base + bytes > systemEnd_) throw std::runtime_error("out of driver system memory");
    systemNext_ = base + bytes;
    return base;
  }

  struct Kernel {
    uint64_t descriptor = 0;
    uint32_t kernargBytes = 0;
    uint32_t groupSegmentBytes = 0;
  };
  // Copies a code object's relocated image into device memory with stores through the BAR and
  // returns where `name`'s kernel descriptor landed.
  Kernel load(const std::string& path, const std::string& name) {
    const vgpu::loader::CodeObject object = vgpu::loader::CodeObject::loadFile(path);
    const vgpu::loader::KernelInfo* info = object.findKernel(name);
    if (info == nullptr) throw std::runtime_error(path + " has no kernel " + name);
    const uint64_t base = allocateDevice(object.image().size());
    const std::vector<uint8_t> image = object.relocatedImage(base);
    for (size_t done = 0; done < image.size(); done += kStoreBytes) {
      const size_t n = std::min<size_t>(kStoreBytes, image.size() - done);
      cpu_.store(base + done, image.data() + done, static_cast<unsigned>(n));
    }
    return {base + info->descriptorAddress, info->kernargSegmentSize, info->groupSegmentFixedSize};
  }

  // Launches `kernel` with `args` (the explicit arguments' bytes, in order; the hidden ones
  // stay zero) and sleeps on the interrupt until its completion signal in system memory is 0.
  void run(const Kernel& kernel, uint32_t gridX, uint32_t gridY, uint16_t blockX, uint16_t blockY,
           const std::vector<uint8_t>& args) {
    std::vector<uint8_t> kernarg(std::max<size_t>(kernel.kernargBytes, args.size()), 0);
    std::memcpy(kernarg.data(), args.data(), args.size());
    const uint64_t kernargAddress = allocateSystem(kernarg.size(), 64);
    cpu_.store(kernargAddress, kernarg.data(), static_cast<unsigned>(kernarg.size()));
    // amd_signal_t (ROCm's amd_hsa_signal.h): kind at 0, value at 8.
    const uint64_t signal = allocateSystem(vgpu::aql::kSignalBytes, 64);
    cpu_.store<int64_t>(signal + vgpu::aql::kSignalValueOffset, 1);

    vgpu::aql::KernelDispatchPacket p{};
    p.setup = gridY > 1 ? 2 : 1;
    p.workgroupSizeX = blockX, p.workgroupSizeY = blockY, p.workgroupSizeZ = 1;
    p.gridSizeX = gridX, p.gridSizeY = gridY, p.gridSizeZ = 1;
    p.groupSegmentSize = kernel.groupSegmentBytes;
    p.kernelObject = kernel.descriptor;
    p.kernargAddress = kernargAddress;
    p.completionSignal = signal;
    const uint64_t slot = ring_ + (writeIndex_ % kPackets) * vgpu::aql::kPacketBytes;
    // The body first, the header last: the packet is published when its type is valid.
    cpu_.store(slot + 2, reinterpret_cast<const uint8_t*>(&p) + 2, vgpu::aql::kPacketBytes - 2);
    cpu_.store<uint16_t>(
        slot,
        static_cast<uint16_t>(vgpu::aql::kKernelDispatch | (1u << vgpu::aql::kHeaderBarrierBit) |
                              (vgpu::aql::kScopeSystem << vgpu::aql::kHeaderAcquireShift) |
                              (vgpu::aql::kScopeSystem << vgpu::aql::kHeaderReleaseShift)));
    ++writeIndex_;
    write(queueRegister(vgpu::mmio::kQDoorbellLo), static_cast<uint32_t>(writeIndex_));
    while (cpu_.load<int64_t>(signal + vgpu::aql::kSignalValueOffset) != 0) {
      if (read(queueRegister(vgpu::mmio::kQStatus)) & vgpu::mmio::kQueueError)
        throw std::runtime_error("the GPU reports error " +
                                 std::to_string(read(queueRegister(vgpu::mmio::kQErrorCode))) +
                                 " on the queue (docs/register-map.md)");
      cpu_.waitForInterrupt();
      write(vgpu::mmio::kIrqStatus, vgpu::mmio::kIrqPacketDone);
    }
  }

  uint32_t read(uint32_t reg) { return cpu_.load<uint32_t>(mmio_ + reg); }
  void write(uint32_t reg, uint32_t value) { cpu_.store<uint32_t>(mmio_ + reg, value); }

 private:
  static constexpr uint32_t kPackets = 16;
  static constexpr size_t kStoreBytes = 4096;  // the largest store the driver issues at once
  static uint32_t queueRegister(vgpu::mmio::QueueRegister r) {
    return vgpu::mmio::queueRegister(0, r);
  }
  void write64(uint32_t lo, uint64_t value) { cpu_.store<uint64_t>(mmio_ + lo, value); }
  static vgpu::DeviceMemoryAllocator deviceAperture(HostCpu& cpu, uint64_t mmio) {
    auto pair = [&](uint32_t lo) {
      return cpu.load<uint32_t>(mmio + lo) | uint64_t{cpu.load<uint32_t>(mmio + lo + 4)} << 32;
    };
    return vgpu::DeviceMemoryAllocator(pair(vgpu::mmio::kDeviceMemorySizeLo),
                                       pair(vgpu::mmio::kDeviceMemoryBaseLo));
  }

  HostCpu& cpu_;
  uint64_t mmio_;
  uint64_t systemNext_, systemEnd_;
  vgpu::DeviceMemoryAllocator devices_;
  uint64_t ring_ = 0;
  uint64_t writeIndex_ = 0;
};
