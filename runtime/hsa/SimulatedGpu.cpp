// The GpuPort of vgpu's HSA runtime: the SystemC GPU model running on a thread of its own inside
// the application's process.
//
// SystemC is not thread-safe: every SystemC call happens on the simulation thread. Host threads
// hand it requests through a primitive channel's async_request_update(), the one entry SystemC
// offers other threads (IEEE 1666-2011, 5.15.6); the channel is attached as "suspending", so
// when the GPU has nothing to do the simulation sleeps until the next request instead of
// ending, and an idle GPU costs no host time.
//
// The host side of the platform is built here as host software would see it:
//   - the GPU's registers and device memory through its MMIO and host-memory sockets;
//   - the process's memory as the GPU's system memory (ProcessMemory): the ranges the runtime
//     exposed (pools, queues, signals, locked buffers), addressed 1:1 by their host addresses;
//   - a DMA engine (DmaEngine) between system and device memory over the system link;
//   - an interrupt handler that reads the queues' READ_INDEX and errors when the GPU interrupts.
#include <cxxabi.h>
#include <sys/mman.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <exception>
#include <future>
#include <map>
#include <mutex>
#include <thread>
#include <utility>

#include <systemc>
#include <tlm>

#include "activity/RunSummary.h"
#include "common/DmiRegions.h"
#include "common/Error.h"
#include "cp/Aql.h"
#include "cp/MmioRegisters.h"
#include "gpu/Gpu.h"
#include "gpu/StatisticsJson.h"
#include "platforms/Platform.h"
#include "runtime/DeviceMemoryAllocator.h"
#include "runtime/hsa/GpuPort.h"
#include "sc_main/CommandLine.h"
#include "sc_main/HtmlReport.h"
#include "sc_main/PlatformOptions.h"

namespace vgpu::hsa {
namespace {

using namespace sc_core;

// Kernel descriptor fields (LLVM AMDGPUUsage, "Kernel Descriptor"): the private segment size.
constexpr uint32_t kKdPrivateSegmentFixedSize = 4;
// How often the DMA engine looks at its dependency signals while it waits (simulated time).
const sc_time kDependencyPoll(1, SC_US);

// Requests from host threads, run on the simulation thread in the order they were posted.
class RequestChannel : public sc_prim_channel {
 public:
  explicit RequestChannel(const char* name) : sc_prim_channel(name) {
    suspending_ = async_attach_suspending();
  }
  bool suspending() const { return suspending_; }
  void post(std::function<void()> work) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      queue_.push_back(std::move(work));
    }
    async_request_update();
  }
  std::deque<std::function<void()>> take() {
    std::lock_guard<std::mutex> lock(mutex_);
    return std::exchange(queue_, {});
  }
  const sc_event& posted() const { return posted_; }

 private:
  void update() override { posted_.notify(SC_ZERO_TIME); }
  std::mutex mutex_;
  std::deque<std::function<void()>> queue_;
  sc_event posted_;
  bool suspending_ = false;
};

// This process's memory as the GPU's system memory: only the ranges the runtime exposed answer;
// anything else gets TLM_ADDRESS_ERROR_RESPONSE, which the GPU reports as a memory fault.
class ProcessMemory : public sc_module {
 public:
  tlm_utils::simple_target_socket<ProcessMemory> socket;

  explicit ProcessMemory(sc_module_name name) : sc_module(name), socket("socket") {
    socket.register_b_transport(this, &ProcessMemory::b_transport);
    socket.register_transport_dbg(this, &ProcessMemory::transport_dbg);
    socket.register_get_direct_mem_ptr(this, &ProcessMemory::get_direct_mem_ptr);
  }

  // Any thread. `watched`: the GPU's writes must come through b_transport (no DMI), so that
  // `written` hears of them at once (signals).
  void expose(uint64_t base, uint64_t bytes, bool watched = false) {
    if (bytes == 0) return;
    std::lock_guard<std::mutex> lock(mutex_);
    auto [it, added] = ranges_.try_emplace(base, Range{bytes, 0, watched});
    if (!added) it->second.bytes = std::max(it->second.bytes, bytes);
    it->second.watched |= watched;
    ++it->second.count;
  }
  // Simulation thread (it revokes DMI).
  void withdraw(uint64_t base) {
    uint64_t bytes = 0;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto it = ranges_.find(base);
      if (it == ranges_.end()) return;
      bytes = it->second.bytes;
      if (--it->second.count > 0) return;
      ranges_.erase(it);
    }
    socket->invalidate_direct_mem_ptr(base, base + bytes - 1);
  }
  struct Holding {
    uint64_t base = 0, bytes = 0;  // bytes 0: none
    bool watched = false;
  };
  // The exposed range holding [address, address + bytes) whole.
  Holding rangeHolding(uint64_t address, uint64_t bytes) const {
    std::lock_guard<std::mutex> lock(mutex_);
    // Ranges may nest (a locked buffer inside a pool allocation): look at every one that
    // starts at or below the address.
    for (auto it = ranges_.upper_bound(address); it != ranges_.begin();) {
      --it;
      if (address - it->first < it->second.bytes &&
          bytes <= it->second.bytes - (address - it->first))
        return {it->first, it->second.bytes, it->second.watched};
    }
    return {};
  }
  bool holds(uint64_t address, uint64_t bytes) const {
    return rangeHolding(address, bytes).bytes != 0;
  }

  std::function<void()> written;  // after the GPU wrote signal memory (waiters look again)

 private:
  struct Range {
    uint64_t bytes;
    uint32_t count;
    bool watched;
  };
  // Performs the access; false (response set) when refused. `watched`: it fell in signal memory.
  bool access(tlm::tlm_generic_payload& t, bool* watched = nullptr) {
    const uint64_t address = t.get_address();
    const unsigned n = t.get_data_length();
    uint8_t* data = t.get_data_ptr();
    const Holding h = data == nullptr || n == 0 ? Holding{} : rangeHolding(address, n);
    if (h.bytes == 0) {
      t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return false;
    }
    if (watched != nullptr) *watched = h.watched;
    auto* memory = reinterpret_cast<uint8_t*>(address);
    const uint8_t* be = t.get_byte_enable_ptr();
    const unsigned beLen = t.get_byte_enable_length();
    const bool write = t.get_command() == tlm::TLM_WRITE_COMMAND;
    if (t.get_command() != tlm::TLM_IGNORE_COMMAND) {
      for (unsigned i = 0; i < n;) {
        if (be != nullptr && be[i % beLen] != TLM_BYTE_ENABLED) {
          ++i;
          continue;
        }
        unsigned run = i;
        while (run < n && (be == nullptr || be[run % beLen] == TLM_BYTE_ENABLED)) ++run;
        write ? std::memcpy(memory + i, data + i, run - i)
              : std::memcpy(data + i, memory + i, run - i);
        i = run;
      }
    }
    t.set_response_status(tlm::TLM_OK_RESPONSE);
    return true;
  }
  void b_transport(tlm::tlm_generic_payload& t, sc_time&) {
    bool watched = false;
    if (!access(t, &watched)) return;
    t.set_dmi_allowed(!watched);
    if (watched && t.get_command() == tlm::TLM_WRITE_COMMAND && written) written();
  }
  unsigned int transport_dbg(tlm::tlm_generic_payload& t) {
    return access(t) ? t.get_data_length() : 0;
  }
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& t, tlm::tlm_dmi& dmi) {
    const Holding h = rangeHolding(t.get_address(), 1);
    if (h.bytes == 0 || h.watched) {
      dmi.set_start_address(h.watched ? h.base : t.get_address());
      dmi.set_end_address(h.watched ? h.base + h.bytes - 1 : t.get_address());
      return false;
    }
    dmi.set_dmi_ptr(reinterpret_cast<uint8_t*>(h.base));
    dmi.set_start_address(h.base);
    dmi.set_end_address(h.base + h.bytes - 1);
    dmi.allow_read_write();
    return true;
  }

  mutable std::mutex mutex_;
  std::map<uint64_t, Range> ranges_;  // by base
};

// The platform: the GPU, the process memory behind its system-memory socket, and the host's
// side of its registers, interrupt and DMA.
class GpuSystem : public sc_module {
 public:
  Gpu gpu;
  ProcessMemory memory;
  RequestChannel requests;
  sc_signal<bool> irq;
  tlm_utils::simple_initiator_socket<GpuSystem> mmio, deviceMemory;

  struct QueueState {
    bool used = false;
    uint64_t ring = 0;
    uint32_t packets = 0;
    uint64_t scanned = 0;  // packets looked at for their scratch needs
    std::atomic<uint64_t> readIndex{0};
    std::string error;  // the fault report, once the GPU reported one (guarded by hostMutex)
    std::optional<uint64_t> faultAddress;  // its memory violation's address (hostMutex too)
    uint64_t scratchBase = 0, scratchBytes = 0;
    std::vector<uint64_t> outgrownScratch;
  };
  struct DmaJob {
    GpuPort::RectCopy rect;  // a linear copy is one row of one layer
    std::vector<uint64_t> dependencies;
    uint64_t completion;
  };
  // What the DMA engine did, for the statistics.
  struct CopyRecord {
    uint64_t bytes;
    bool fromDevice, toDevice;
    uint64_t startNs, endNs;
    bool failed;
  };
  std::vector<CopyRecord> copies;

  SC_HAS_PROCESS(GpuSystem);
  GpuSystem(sc_module_name name, const PlatformConfig& config)
      : sc_module(name),
        gpu("gpu", config),
        memory("process_memory"),
        requests("requests"),
        irq("irq"),
        mmio("mmio"),
        deviceMemory("device_memory"),
        config_(config),
        allocator_(config.dram.sizeBytes) {
    mmio.bind(gpu.mmioSocket());
    deviceMemory.bind(gpu.hostMemorySocket());
    gpu.systemMemorySocket().bind(memory.socket);
    gpu.irq.bind(irq);
    memory.written = [this] {
      if (systemMemoryWritten) systemMemoryWritten();
    };
    SC_THREAD(serve);
    SC_THREAD(handleInterrupts);
    SC_THREAD(runDma);
  }

  std::mutex hostMutex;  // allocator_, queue errors
  std::function<void()> systemMemoryWritten;
  // Called on the simulation thread when a queue has failed, before host software can see it:
  // ROCclr aborts the program on a queue error, so no exit handler would run after it.
  std::function<void()> queueFailed;
  QueueState queues[mmio::kQueues];
  DeviceMemoryAllocator& allocator() { return allocator_; }

  // --- simulation thread only ---------------------------------------------------------------
  uint32_t read32(uint32_t reg) {
    uint32_t v = 0;
    registerAccess(tlm::TLM_READ_COMMAND, reg, &v, 4);
    return v;
  }
  void write32(uint32_t reg, uint32_t value) {
    registerAccess(tlm::TLM_WRITE_COMMAND, reg, &value, 4);
  }
  uint64_t read64(uint32_t lo) {
    uint64_t v = 0;
    registerAccess(tlm::TLM_READ_COMMAND, lo, &v, 8);
    return v;
  }
  void write64(uint32_t lo, uint64_t value) {
    registerAccess(tlm::TLM_WRITE_COMMAND, lo, &value, 8);
  }
  // Device memory through the host port: DMI where DRAM grants it (no simulated time), else
  // transactions. False if an address is not mapped.
  bool deviceAccess(tlm::tlm_command command, uint64_t address, uint8_t* data, uint64_t bytes) {
    while (bytes > 0) {
      tlm::tlm_generic_payload p;
      p.set_command(command);
      p.set_address(address);
      tlm::tlm_dmi dmi;
      uint64_t n = 0;
      // (A region over a page of decoded code allows reads only: its writes go as transactions,
      // which DRAM reports to the decode cache.)
      if (deviceMemory->get_direct_mem_ptr(p, dmi) && dmi.get_start_address() <= address &&
          address <= dmi.get_end_address() && dmiAllows(dmi, command)) {
        n = std::min<uint64_t>(bytes, dmi.get_end_address() - address + 1);
        uint8_t* host = dmi.get_dmi_ptr() + (address - dmi.get_start_address());
        command == tlm::TLM_READ_COMMAND ? std::memcpy(data, host, n) : std::memcpy(host, data, n);
      } else {
        n = std::min<uint64_t>(bytes, 4096);
        p.set_data_ptr(data);
        p.set_data_length(static_cast<unsigned>(n));
        p.set_streaming_width(static_cast<unsigned>(n));
        p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        sc_time delay = SC_ZERO_TIME;
        deviceMemory->b_transport(p, delay);
        if (!p.is_response_ok()) return false;
      }
      address += n, data += n, bytes -= n;
    }
    return true;
  }
  bool mapDevice(uint64_t base, uint64_t bytes) {
    write64(mmio::kMemMapBaseLo, base);
    write64(mmio::kMemMapSizeLo, bytes);
    write32(mmio::kMemMapCommand, mmio::kMemMapMap);
    return read32(mmio::kMemMapStatus) == 0;
  }
  void unmapDevice(uint64_t base) {
    write64(mmio::kMemMapBaseLo, base);
    write32(mmio::kMemMapCommand, mmio::kMemMapUnmap);
  }
  // Queue q's two bits of QUEUE_PRIORITIES.
  void writePriority(uint32_t q, uint32_t priority) {
    const uint32_t others = read32(mmio::kQueuePriorities) & ~(3u << (2 * q));
    write32(mmio::kQueuePriorities, others | (priority & 3) << (2 * q));
  }
  // Queue q's CU mask, a word per 32 CUs (QUEUE_CU_MASK_INDEX selects, _DATA holds it).
  void writeCuMask(uint32_t q, const std::vector<uint32_t>& words) {
    for (uint32_t w = 0; w < words.size() && w < mmio::kCuMaskWords; ++w) {
      write32(mmio::kQueueCuMaskIndex, mmio::cuMaskIndex(q, w));
      write32(mmio::kQueueCuMaskData, words[w]);
    }
  }
  void ringDoorbell(uint32_t q, uint64_t writeIndex) {
    ensureScratch(q, writeIndex);
    write64(mmio::queueRegister(q, mmio::kQDoorbellLo), writeIndex);
  }
  void submitDma(DmaJob job) {
    dmaJobs_.push_back(std::move(job));
    dmaPosted_.notify(SC_ZERO_TIME);
  }

 private:
  void registerAccess(tlm::tlm_command command, uint32_t reg, void* data, unsigned bytes) {
    tlm::tlm_generic_payload p;
    p.set_command(command);
    p.set_address(reg);
    p.set_data_ptr(static_cast<uint8_t*>(data));
    p.set_data_length(bytes);
    p.set_streaming_width(bytes);
    p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_time delay = SC_ZERO_TIME;
    mmio->b_transport(p, delay);
    wait(delay);
  }

  void serve() {
    write32(mmio::kIrqEnable, mmio::kIrqPacketDone | mmio::kIrqError);
    // The queue is the truth: a notification that came while this thread was busy (in a
    // request's wait) is not lost, because the queue is looked at before every wait.
    while (true) {
      std::deque<std::function<void()>> work = requests.take();
      if (work.empty()) {
        wait(requests.posted());
        continue;
      }
      for (auto& w : work) w();
    }
  }

  // Scratch for the packets [scanned, writeIndex): the command processor's layout gives each
  // wave slot of the GPU the private segment of 64 lanes, rounded up to 1 KiB. Memory a queue
  // outgrew is freed with the queue (dispatches queued before may still use it).
  void ensureScratch(uint32_t q, uint64_t writeIndex) {
    QueueState& s = queues[q];
    uint64_t privateBytes = 0;
    for (; s.scanned < writeIndex; ++s.scanned) {
      const auto* packet = reinterpret_cast<const aql::KernelDispatchPacket*>(
          s.ring + (s.scanned % s.packets) * aql::kPacketBytes);
      if ((packet->header & aql::kHeaderTypeMask) != aql::kKernelDispatch) continue;
      uint32_t fixed = 0;
      tlm::tlm_generic_payload p;
      p.set_command(tlm::TLM_READ_COMMAND);
      p.set_address(packet->kernelObject + kKdPrivateSegmentFixedSize);
      p.set_data_ptr(reinterpret_cast<uint8_t*>(&fixed));
      p.set_data_length(4);
      deviceMemory->transport_dbg(p);
      privateBytes = std::max<uint64_t>({privateBytes, packet->privateSegmentSize, fixed});
    }
    if (privateBytes == 0) return;
    const uint64_t perWave = (privateBytes * 64 + 1023) / 1024 * 1024;
    const uint64_t needed =
        perWave * config_.computeUnits * config_.cu.simdsPerCu * config_.cu.waveSlotsPerSimd;
    if (needed <= s.scratchBytes) return;
    std::optional<uint64_t> base;
    {
      std::lock_guard<std::mutex> lock(hostMutex);
      base = allocator_.allocate(needed, 4096, "scratch");
    }
    if (!base || !mapDevice(*base, needed)) {
      std::fprintf(stderr,
                   "vgpu: no device memory for %llu bytes of scratch for queue %u: the dispatch "
                   "will be refused\n",
                   static_cast<unsigned long long>(needed), q);
      return;
    }
    if (s.scratchBytes != 0) s.outgrownScratch.push_back(s.scratchBase);
    s.scratchBase = *base, s.scratchBytes = needed;
    write64(mmio::queueRegister(q, mmio::kQScratchBaseLo), s.scratchBase);
    write64(mmio::queueRegister(q, mmio::kQScratchSizeLo), s.scratchBytes);
  }

  // The interrupt: packets completed (READ_INDEX moved, signals changed) or a queue failed.
  void handleInterrupts() {
    while (true) {
      if (!irq.read()) wait(irq.posedge_event());
      const uint32_t pending = read32(mmio::kIrqStatus);
      // A memory violation's address stays until IRQ_STATUS is cleared: read it first, when an
      // error is pending (not for every completed packet).
      uint32_t faultStatus = 0;
      uint64_t faultAddress = 0;
      if (pending & mmio::kIrqError) {
        faultStatus = read32(mmio::kFaultStatus);
        faultAddress = read64(mmio::kFaultAddressLo);
      }
      write32(mmio::kIrqStatus, pending);  // acknowledge what is pending
      const uint32_t failed = read32(mmio::kQueueErrors);
      for (uint32_t q = 0; q < mmio::kQueues; ++q) {
        QueueState& s = queues[q];
        if (!s.used) continue;
        s.readIndex.store(read64(mmio::queueRegister(q, mmio::kQReadIndexLo)),
                          std::memory_order_release);
        if (failed & (1u << q)) {
          // QUEUE_ERRORS keeps the queue's bit until it is reset: a failure is news once. Only
          // this thread sets the error, so it is still empty when set below.
          bool first;
          {
            std::lock_guard<std::mutex> lock(hostMutex);
            first = s.error.empty();
          }
          if (!first) continue;
          if (queueFailed) queueFailed();  // before host software can see the error
          std::lock_guard<std::mutex> lock(hostMutex);
          s.error = gpu.debugQueueFault(q);
          if ((faultStatus & mmio::kFaultValid) &&
              ((faultStatus >> mmio::kFaultQueueShift) & 0xff) == q)
            s.faultAddress = faultAddress;
        }
      }
      if (systemMemoryWritten) systemMemoryWritten();
    }
  }

  // The DMA engine: one copy at a time, in submission order, over the system link (or at
  // device-memory bandwidth between two device addresses).
  void runDma() {
    while (true) {
      while (dmaJobs_.empty()) wait(dmaPosted_);
      DmaJob job = std::move(dmaJobs_.front());
      dmaJobs_.pop_front();
      for (;;) {
        const bool ready =
            std::all_of(job.dependencies.begin(), job.dependencies.end(), [](uint64_t s) {
              return __atomic_load_n(reinterpret_cast<int64_t*>(s + aql::kSignalValueOffset),
                                     __ATOMIC_ACQUIRE) == 0;
            });
        if (ready) break;
        wait(kDependencyPoll);
      }
      const GpuPort::RectCopy& rect = job.rect;
      const uint64_t start = Gpu::timestampNow();
      const bool dstDevice = isDevice(rect.dst), srcDevice = isDevice(rect.src);
      // Row by row (one row for a linear copy); the first row that fails ends the copy.
      std::string problem;
      std::vector<uint8_t> staging;
      uint64_t failedSrc = rect.src, failedDst = rect.dst;
      for (uint64_t z = 0; z < rect.layers && problem.empty(); ++z)
        for (uint64_t y = 0; y < rect.rows && problem.empty(); ++y) {
          const uint64_t src = rect.src + z * rect.srcSlice + y * rect.srcPitch;
          const uint64_t dst = rect.dst + z * rect.dstSlice + y * rect.dstPitch;
          problem = copyRow(dst, dstDevice, src, srcDevice, rect.width, staging);
          failedSrc = src, failedDst = dst;
        }
      const uint64_t total = rect.width * rect.rows * rect.layers;
      if (!problem.empty()) {
        char row[96] = "";
        if (rect.rows * rect.layers > 1)
          std::snprintf(row, sizeof row, " (the row from 0x%llx to 0x%llx)",
                        static_cast<unsigned long long>(failedSrc),
                        static_cast<unsigned long long>(failedDst));
        std::fprintf(stderr, "vgpu: DMA copy of %llu bytes from 0x%llx to 0x%llx failed%s: %s\n",
                     static_cast<unsigned long long>(total),
                     static_cast<unsigned long long>(rect.src),
                     static_cast<unsigned long long>(rect.dst), row, problem.c_str());
      }
      // Time: the link's latency and bandwidth when system memory is involved; device to device
      // at DRAM's peak bandwidth, read and written.
      const double gbs = (dstDevice && srcDevice) ? config_.dram.peakBandwidthGBs / 2
                                                  : config_.systemLink.bandwidthGBs;
      const double ns = ((dstDevice && srcDevice) ? 0.0 : config_.systemLink.latencyNs) +
                        static_cast<double>(total) / gbs;
      wait(sc_time(ns, SC_NS));
      copies.push_back({total, srcDevice, dstDevice, start, Gpu::timestampNow(), !problem.empty()});
      if (job.completion != 0) {
        const uint64_t times[2] = {start, Gpu::timestampNow()};
        std::memcpy(reinterpret_cast<void*>(job.completion + aql::kSignalStartTimestampOffset),
                    times, sizeof times);
        __atomic_fetch_sub(reinterpret_cast<int64_t*>(job.completion + aql::kSignalValueOffset), 1,
                           __ATOMIC_ACQ_REL);
      }
      if (systemMemoryWritten) systemMemoryWritten();
    }
  }
  // Copies one row of a DMA job; what went wrong, or "" (staging: reused for device reads).
  std::string copyRow(uint64_t dst, bool dstDevice, uint64_t src, bool srcDevice, uint64_t bytes,
                      std::vector<uint8_t>& staging) {
    if (!srcDevice && !memory.holds(src, bytes))
      return "the source is not memory the GPU may reach";
    if (!dstDevice && !memory.holds(dst, bytes))
      return "the destination is not memory the GPU may reach";
    const uint8_t* from = reinterpret_cast<const uint8_t*>(src);
    if (srcDevice) {
      staging.resize(bytes);
      if (!deviceAccess(tlm::TLM_READ_COMMAND, src, staging.data(), bytes))
        return "the source is not mapped device memory";
      from = staging.data();
    }
    if (!dstDevice) {
      std::memcpy(reinterpret_cast<void*>(dst), from, bytes);
    } else if (!deviceAccess(tlm::TLM_WRITE_COMMAND, dst, const_cast<uint8_t*>(from), bytes)) {
      return "the destination is not mapped device memory";
    }
    return "";
  }
  bool isDevice(uint64_t address) const {
    return address >= DeviceMemoryMap::kBase &&
           address - DeviceMemoryMap::kBase < config_.dram.sizeBytes;
  }

  PlatformConfig config_;
  DeviceMemoryAllocator allocator_;
  std::deque<DmaJob> dmaJobs_;
  sc_event dmaPosted_;
};

class SimulatedGpu;
SimulatedGpu* gLive = nullptr;  // the one simulated GPU of the process
void stopAtExit();

class SimulatedGpu final : public GpuPort {
 public:
  SimulatedGpu()
      : options_(started() ? throw InputError(
                                 "hsa_init after hsa_shut_down: SystemC runs one simulation per "
                                 "process, so the simulated GPU cannot start again")
                           : cli::fromEnvironment()),
        config_(cli::platformForOptions(options_)),
        hostStart_(std::chrono::steady_clock::now()) {
    if (!options_.statsPath.empty()) checkWritable(options_.statsPath, "VGPU_STATS");
    if (!options_.reportPath.empty()) checkWritable(options_.reportPath, "VGPU_REPORT");
    // SystemC prints its banner when the first module is made, unless told not to: the
    // program's own output stays its own.
    setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
    std::promise<void> built;
    std::future<void> ready = built.get_future();
    thread_ = std::thread([this, &built] {
      try {
        sc_report_handler::set_actions("/OSCI/SystemC", SC_INFO, SC_DO_NOTHING);
        system_ = std::make_unique<GpuSystem>("vgpu", config_);
        if (options_.checkHazards) system_->gpu.enableHazardChecks();
        if (options_.profileInstructions)
          system_->gpu.enableInstructionProfile(options_.profileInstructions);
        if (!options_.reportPath.empty()) system_->gpu.enableActivitySampling();
        // ROCclr answers a queue's fault with abort(): what the run leaves behind is written
        // now (the statistics again at the end, should the program go on; the VCD and the
        // timeline end at the fault).
        system_->queueFailed = [this] {
          writeStatistics();
          try {
            system_->gpu.finishTraces();
          } catch (const std::exception& e) {
            std::fprintf(stderr, "vgpu: %s\n", e.what());
          }
        };
        if (!system_->requests.suspending())
          throw std::runtime_error("this SystemC cannot suspend for asynchronous requests");
        built.set_value();
      } catch (...) {
        built.set_exception(std::current_exception());
        return;
      }
      try {
        sc_start();
      } catch (const std::exception& e) {
        std::fprintf(stderr, "vgpu: the simulation stopped: %s\n", e.what());
      }
      system_->gpu.finishTraces();
      for (const std::string& w : system_->gpu.emptyTraceWindows())
        std::fprintf(stderr, "vgpu: warning: %s\n", w.c_str());
      report();
    });
    try {
      ready.get();
    } catch (...) {
      thread_.join();
      throw;
    }
    // ROCclr never calls hsa_shut_down: at exit the statistics and traces are written and the
    // simulation thread ends before the C++ runtime tears down what it uses.
    gLive = this;
    static const bool registered = std::atexit(stopAtExit) == 0;
    (void)registered;
  }

  ~SimulatedGpu() override {
    stop();
    gLive = nullptr;
    // The model stays until the process ends: ROCclr's own exit handlers still free memory
    // and executables after ours ran, and SystemC runs one simulation per process anyway.
    (void)system_.release();
  }

  // Ends the simulation (once): later requests are ignored.
  void stop() {
    if (stopped_.exchange(true)) return;
    system_->requests.post([] { sc_stop(); });
    thread_.join();
  }

  const PlatformConfig& platform() const override { return config_; }

  std::optional<uint64_t> allocateDevice(uint64_t bytes, uint64_t align) override {
    if (stopped_) return std::nullopt;
    std::optional<uint64_t> base;
    uint64_t size = 0;
    {
      std::lock_guard<std::mutex> lock(system_->hostMutex);
      base = system_->allocator().allocate(bytes, std::max<uint64_t>(align, 256), "hsa");
      if (!base) return std::nullopt;
      size = system_->allocator().find(*base)->size;
    }
    bool mapped = false;
    call([&] { mapped = system_->mapDevice(*base, size); });
    if (!mapped) throw std::logic_error("the GPU refused to map device memory its allocator gave");
    return base;
  }
  bool freeDevice(uint64_t address) override {
    {
      std::lock_guard<std::mutex> lock(system_->hostMutex);
      const auto* a = system_->allocator().find(address);
      if (a == nullptr || a->base != address) return false;
    }
    call([&] { system_->unmapDevice(address); });
    std::lock_guard<std::mutex> lock(system_->hostMutex);
    return system_->allocator().release(address);
  }
  uint64_t deviceBytesInUse() const override {
    std::lock_guard<std::mutex> lock(system_->hostMutex);
    return system_->allocator().bytesAllocated();
  }
  void writeDevice(uint64_t address, const void* data, uint64_t bytes) override {
    if (stopped_) return;  // the program is exiting
    bool ok = false;
    call([&] {
      ok = system_->deviceAccess(tlm::TLM_WRITE_COMMAND, address,
                                 static_cast<uint8_t*>(const_cast<void*>(data)), bytes);
    });
    if (!ok) throw std::out_of_range("device write outside mapped device memory");
  }
  void readDevice(uint64_t address, void* data, uint64_t bytes) override {
    if (stopped_) return;
    bool ok = false;
    call([&] {
      ok =
          system_->deviceAccess(tlm::TLM_READ_COMMAND, address, static_cast<uint8_t*>(data), bytes);
    });
    if (!ok) throw std::out_of_range("device read outside mapped device memory");
  }

  void exposeSystemMemory(const void* base, uint64_t bytes) override {
    system_->memory.expose(reinterpret_cast<uint64_t>(base), bytes);
  }
  void exposeSignalMemory(const void* base, uint64_t bytes) override {
    system_->memory.expose(reinterpret_cast<uint64_t>(base), bytes, true);
  }
  void withdrawSystemMemory(const void* base) override {
    const auto address = reinterpret_cast<uint64_t>(base);
    call([&] { system_->memory.withdraw(address); });
  }

  std::optional<uint32_t> createQueue(void* ring, uint32_t packets) override {
    std::optional<uint32_t> index;
    call([&] {
      for (uint32_t q = 0; q < mmio::kQueues && !index; ++q) {
        GpuSystem::QueueState& s = system_->queues[q];
        if (s.used) continue;
        s.used = true;
        s.ring = reinterpret_cast<uint64_t>(ring);
        s.packets = packets;
        s.scanned = 0;
        s.readIndex.store(0);
        {
          std::lock_guard<std::mutex> lock(system_->hostMutex);
          s.error.clear();
          s.faultAddress.reset();
        }
        system_->write32(mmio::queueRegister(q, mmio::kQEnable), 0);
        system_->write64(mmio::queueRegister(q, mmio::kQBaseLo), s.ring);
        system_->write32(mmio::queueRegister(q, mmio::kQSize), packets);
        system_->write32(mmio::queueRegister(q, mmio::kQStatus), mmio::kQueueError);
        system_->writePriority(q, mmio::kPriorityNormal);
        system_->writeCuMask(q, std::vector<uint32_t>((config_.computeUnits + 31) / 32, ~0u));
        system_->write32(mmio::queueRegister(q, mmio::kQEnable), 1);
        index = q;
      }
    });
    return index;
  }
  void destroyQueue(uint32_t queue) override {
    std::vector<uint64_t> scratch;
    call([&] {
      GpuSystem::QueueState& s = system_->queues[queue];
      system_->write32(mmio::queueRegister(queue, mmio::kQEnable), 0);
      system_->write64(mmio::queueRegister(queue, mmio::kQScratchSizeLo), 0);
      scratch = s.outgrownScratch;
      if (s.scratchBytes != 0) scratch.push_back(s.scratchBase);
      s.outgrownScratch.clear();
      s.scratchBase = s.scratchBytes = 0;
      s.used = false;
    });
    for (uint64_t a : scratch) freeDevice(a);
  }
  void ringDoorbell(uint32_t queue, uint64_t writeIndex) override {
    post([this, queue, writeIndex] { system_->ringDoorbell(queue, writeIndex); });
  }
  uint64_t readIndex(uint32_t queue) override {
    return system_->queues[queue].readIndex.load(std::memory_order_acquire);
  }
  void setQueuePriority(uint32_t queue, uint32_t priority) override {
    call([&] { system_->writePriority(queue, priority); });
  }
  void setQueueCuMask(uint32_t queue, const std::vector<uint32_t>& words) override {
    call([&] { system_->writeCuMask(queue, words); });
  }
  std::string queueError(uint32_t queue) override {
    std::lock_guard<std::mutex> lock(system_->hostMutex);
    return system_->queues[queue].error;
  }
  std::optional<uint64_t> queueFaultAddress(uint32_t queue) override {
    std::lock_guard<std::mutex> lock(system_->hostMutex);
    return system_->queues[queue].faultAddress;
  }

  void asyncCopyRect(const RectCopy& rect, std::vector<uint64_t> dependencies,
                     uint64_t completion) override {
    post([this, job = GpuSystem::DmaJob{rect, std::move(dependencies), completion}] {
      system_->submitDma(job);
    });
  }

  uint64_t timestampNow() override {
    uint64_t now = 0;
    call([&] { now = Gpu::timestampNow(); });
    return now;
  }
  uint64_t timestampFrequency() const override { return 1'000'000'000; }

  void setSystemMemoryWritten(std::function<void()> callback) override {
    call([&] { system_->systemMemoryWritten = callback; });
  }

  void nameKernel(uint64_t descriptor, const std::string& name) override {
    post([this, descriptor, name] { system_->gpu.debugNameKernel(descriptor, name); });
  }
  void codeObjectLoaded(uint64_t base, uint64_t bytes) override {
    post([this, base, bytes] { system_->gpu.debugCodeObjectLoaded(base, bytes); });
  }
  void codeObjectUnloaded(uint64_t base) override {
    post([this, base] { system_->gpu.debugCodeObjectUnloaded(base); });
  }

 private:
  void post(std::function<void()> work) {
    if (!stopped_) system_->requests.post(std::move(work));
  }
  // Runs `work` on the simulation thread and waits for it (not at all once stopped).
  void call(const std::function<void()>& work) {
    if (stopped_) return;
    std::mutex m;
    std::condition_variable cv;
    bool done = false;
    post([&] {
      work();
      std::lock_guard<std::mutex> lock(m);
      done = true;
      cv.notify_one();
    });
    std::unique_lock<std::mutex> lock(m);
    cv.wait(lock, [&] { return done; });
  }

  // HIP kernels' metadata names are their mangled C++ names: the summary shows them readable.
  static std::string demangled(const std::string& name) {
    int status = 0;
    char* text = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
    std::string result = status == 0 && text != nullptr ? text : name;
    std::free(text);
    return result;
  }
  static bool started() {
    static std::atomic<bool> once{false};
    return once.exchange(true);
  }
  static void writeText(const std::string& path, const std::string& text, const char* what) {
    if (std::FILE* f = std::fopen(path.c_str(), "w")) {
      std::fwrite(text.data(), 1, text.size(), f);
      std::fclose(f);
    } else {
      std::fprintf(stderr, "vgpu: cannot write the %s to '%s'\n", what, path.c_str());
    }
  }
  // The program's name (/proc/self/comm), what the statistics call the "kernel" of the run.
  static std::string programName() {
    std::FILE* f = std::fopen("/proc/self/comm", "r");
    char name[64] = {};
    if (f != nullptr) {
      if (std::fgets(name, sizeof name, f) == nullptr) name[0] = 0;
      std::fclose(f);
    }
    std::string s = name;
    if (!s.empty() && s.back() == '\n') s.pop_back();
    return s.empty() ? "program" : s;
  }
  static void checkWritable(const std::string& path, const char* what) {
    std::FILE* f = std::fopen(path.c_str(), "a");
    if (f == nullptr) throw InputError(std::string(what) + ": cannot write '" + path + "'");
    std::fclose(f);
  }

  // At the end (simulation thread, after sc_start returned): the statistics file and the
  // summary that vgpu-sim exec shows (VGPU_SUMMARY=1; vgpu-sim exec sets it unless --quiet).
  void report() {
    writeStatistics();
    const char* summary = std::getenv("VGPU_SUMMARY");
    if (summary == nullptr || std::string(summary) != "1") return;
    const Gpu& gpu = system_->gpu;
    const double hostSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - hostStart_).count();
    uint64_t kernelCycles = 0;
    std::map<std::string, uint64_t> launches;
    for (const auto& d : gpu.dispatches()) {
      kernelCycles += d.endCycle - d.startCycle;
      ++launches[d.kernel];
    }
    uint64_t copyNs = 0, copyBytes = 0;
    for (const auto& c : system_->copies) copyNs += c.endNs - c.startNs, copyBytes += c.bytes;
    const double simulatedSeconds = sc_time_stamp().to_seconds();
    std::string names;
    for (const auto& [name, count] : launches)
      names += (names.empty() ? "" : ", ") + demangled(name) +
               (count > 1 ? " x" + std::to_string(count) : "");
    std::fprintf(
        stderr,
        "vgpu: %zu kernel launch%s on %s (%s mode)%s%s\n"
        "vgpu: %llu DMA cop%s, %llu bytes; simulated GPU time %.3f us (kernels %.3f us, "
        "copies %.3f us); host time %.3f s\n",
        gpu.dispatches().size(), gpu.dispatches().size() == 1 ? "" : "es", config_.name.c_str(),
        config_.functionalMode ? "functional" : "timing", names.empty() ? "" : ": ", names.c_str(),
        static_cast<unsigned long long>(system_->copies.size()),
        system_->copies.size() == 1 ? "y" : "ies", static_cast<unsigned long long>(copyBytes),
        simulatedSeconds * 1e6, kernelCycles / config_.clockMHz, copyNs / 1e3, hostSeconds);
  }

  // VGPU_STATS and VGPU_REPORT with what the simulation did so far (simulation thread): at the
  // end, and when a queue fails (the program may then end in abort(), as ROCclr does).
  void writeStatistics() {
    const Gpu& gpu = system_->gpu;
    const double hostSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - hostStart_).count();
    const double simulatedSeconds = sc_time_stamp().to_seconds();
    if (!options_.statsPath.empty() || !options_.reportPath.empty()) {
      // vgpu-sim run's schema (README, "Statistics"), for the whole program, so that the HTML
      // report and scripts read both alike; plus the DMA copies.
      nlohmann::json j = gpuStatisticsJson(config_, gpu);
      j["kernel"] = programName();
      j["code_object"] = "";
      j["host_seconds"] = hostSeconds;
      j["simulated_seconds"] = simulatedSeconds;
      bool faulted = false;
      for (const auto& d : gpu.dispatches()) faulted |= d.faulted;
      j["faulted"] = faulted;
      nlohmann::json copies = nlohmann::json::array();
      for (const auto& c : system_->copies)
        copies.push_back({{"bytes", c.bytes},
                          {"from", c.fromDevice ? "device" : "system"},
                          {"to", c.toDevice ? "device" : "system"},
                          {"start_ns", c.startNs},
                          {"end_ns", c.endNs},
                          {"failed", c.failed}});
      j["copies"] = copies;
      if (!options_.statsPath.empty())
        writeText(options_.statsPath, j.dump(2) + "\n", "statistics");
      if (!options_.reportPath.empty())
        writeText(options_.reportPath, renderHtmlReport(j), "report");
    }
  }

  cli::Options options_;
  PlatformConfig config_;
  std::chrono::steady_clock::time_point hostStart_;
  std::unique_ptr<GpuSystem> system_;
  std::thread thread_;
  std::atomic<bool> stopped_{false};
};

void stopAtExit() {
  if (gLive != nullptr) gLive->stop();
}

}  // namespace

std::unique_ptr<GpuPort> openSimulatedGpu() {
  return std::make_unique<SimulatedGpu>();
}

}  // namespace vgpu::hsa
