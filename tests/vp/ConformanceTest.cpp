// TLM-2.0 base-protocol conformance of the GPU's sockets: a ProtocolChecker on every boundary
// while real kernels run, and directed checks of the external targets (MMIO register file and
// device memory as the host sees it) and of debug transport and DMI on the memory-like targets.
#include <gtest/gtest.h>

#include <cstring>

#include "CheckedSystem.h"
#include "KernelCases.h"
#include "common/RefusedAddressExtension.h"
#include "cp/MmioRegisters.h"
#include "platforms/Platform.h"

namespace vgpu::test {
namespace {

using namespace sc_core;

PlatformConfig twoCus() {
  PlatformConfig config = loadPlatform("tiny");
  config.computeUnits = 2;
  return config;
}

// One b_transport from the host's side of a checker; returns the response status.
tlm::tlm_response_status access(tlm::tlm_fw_transport_if<>& to, tlm::tlm_command cmd,
                                uint64_t address, uint8_t* data, unsigned length,
                                uint8_t* byteEnables = nullptr, unsigned byteEnableLength = 0,
                                unsigned streamingWidth = 0) {
  tlm::tlm_generic_payload p;
  p.set_command(cmd);
  p.set_address(address);
  p.set_data_ptr(data);
  p.set_data_length(length);
  p.set_streaming_width(streamingWidth ? streamingWidth : length);
  p.set_byte_enable_ptr(byteEnables);
  p.set_byte_enable_length(byteEnableLength);
  p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_time delay = SC_ZERO_TIME;
  to.b_transport(p, delay);
  wait(delay);
  return p.get_response_status();
}

unsigned debug(tlm::tlm_fw_transport_if<>& to, tlm::tlm_command cmd, uint64_t address,
               uint8_t* data, unsigned length) {
  tlm::tlm_generic_payload p;
  p.set_command(cmd);
  p.set_address(address);
  p.set_data_ptr(data);
  p.set_data_length(length);
  p.set_streaming_width(length);
  return to.transport_dbg(p);
}

void expectNoViolations(const CheckedSystem& sys) {
  for (const ProtocolChecker* c : sys.checkers())
    for (const std::string& v : c->violations()) ADD_FAILURE() << v;
}

// vector_add and matmul run with a checker on every boundary: results right, each boundary
// carried traffic, no rule broken anywhere.
TEST(Conformance, KernelsCrossEveryBoundaryWithoutViolations) {
  CheckedSystem sys(twoCus());
  std::vector<std::string> failures;
  sys.run([&](Runtime& rt) {
    for (const std::string name : {"vector_add", "matmul_64"}) {
      const KernelCase c = kernelCase(name);
      const Module& m = rt.loadModule(kernelDir() + "/" + c.codeObject);
      std::vector<uint64_t> buffers;
      rt.launch(rt.kernel(m, c.kernel), c.launch, uploadArgs(rt, c, buffers));
      rt.synchronize();
      std::vector<std::vector<uint8_t>> out(c.args.size());
      for (size_t i = 0; i < c.args.size(); ++i)
        if (c.args[i].isBuffer) {
          out[i].resize(c.args[i].bytes.size());
          rt.copyFromDevice(out[i].data(), buffers[i], out[i].size());
        }
      const std::string diff = checkAgainstReference(c, out);
      if (!diff.empty()) failures.push_back(name + ": " + diff);
    }
  });
  EXPECT_TRUE(failures.empty()) << failures.front();
  // 2 CUs x (lds, tc, scalar, instruction) + 2 vector L1s + 1 SQC x 2 + cp + l2->fabric +
  // fabric->dram + the decoded-instruction cache's reads of code from DRAM.
  EXPECT_EQ(sys.internal.size(), 2u * 4 + 2 + 2 + 3 + 1);
  for (const ProtocolChecker* c : sys.checkers()) {
    EXPECT_GT(c->transports, 0u) << c->name() << " saw no traffic";
    EXPECT_GT(c->okResponses, 0u) << c->name();
  }
  ASSERT_NE(sys.checker("l2->fabric"), nullptr);
  ASSERT_NE(sys.checker("fabric->dram"), nullptr);
  ASSERT_NE(sys.checker("cu1->lds"), nullptr);
  expectNoViolations(sys);
}

// The checker itself catches a broken target: one that leaves the response INCOMPLETE and
// writes a disabled byte.
struct BrokenTarget : sc_module, tlm::tlm_fw_transport_if<> {
  tlm::tlm_target_socket<> socket{"socket"};
  explicit BrokenTarget(sc_module_name n) : sc_module(n) { socket.bind(*this); }
  void b_transport(tlm::tlm_generic_payload& t, sc_time&) override {
    if (t.get_byte_enable_ptr() != nullptr) {
      std::memset(t.get_data_ptr(), 0xee, t.get_data_length());  // ignores byte enables
      t.set_response_status(tlm::TLM_OK_RESPONSE);
    } else {
      t.set_address(t.get_address() + 4);  // changes the address, leaves INCOMPLETE
    }
  }
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload&, tlm::tlm_phase&,
                                     sc_time&) override {
    return tlm::TLM_COMPLETED;
  }
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& t, tlm::tlm_dmi& dmi) override {
    dmi.set_start_address(t.get_address() + 1);  // a range without the address
    dmi.set_end_address(t.get_address() + 8);
    return false;
  }
  unsigned int transport_dbg(tlm::tlm_generic_payload& t) override {
    return t.get_data_length() + 1;
  }
};

TEST(Conformance, CheckerReportsABrokenTarget) {
  struct Top : sc_module {
    tlm::tlm_initiator_socket<> out{"out"};
    ProtocolChecker checker{"checker"};
    BrokenTarget target{"target"};
    struct Bw : tlm::tlm_bw_transport_if<> {
      tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload&, tlm::tlm_phase&,
                                         sc_time&) override {
        return tlm::TLM_COMPLETED;
      }
      void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}
    } bw;
    SC_HAS_PROCESS(Top);
    explicit Top(sc_module_name n) : sc_module(n) {
      out.bind(bw);
      out.bind(checker.target);
      checker.initiator.bind(target.socket);
      SC_THREAD(drive);
    }
    void drive() {
      uint8_t data[8] = {};
      uint8_t be[8] = {0xff, 0, 0xff, 0, 0xff, 0, 0xff, 0};
      access(*out.operator->(), tlm::TLM_READ_COMMAND, 0x100, data, 8, be, 8);
      access(*out.operator->(), tlm::TLM_READ_COMMAND, 0x100, data, 8);
      tlm::tlm_generic_payload p;
      p.set_address(0x200);
      p.set_command(tlm::TLM_READ_COMMAND);
      tlm::tlm_dmi dmi;
      out->get_direct_mem_ptr(p, dmi);
      debug(*out.operator->(), tlm::TLM_READ_COMMAND, 0x300, data, 4);
    }
  } top("top");
  sc_start();
  std::string all;
  for (const std::string& v : top.checker.violations()) all += v + "\n";
  EXPECT_NE(all.find("TLM_INCOMPLETE_RESPONSE"), std::string::npos) << all;
  EXPECT_NE(all.find("byte enable is off"), std::string::npos) << all;
  EXPECT_NE(all.find("changed the address"), std::string::npos) << all;
  EXPECT_NE(all.find("does not contain the requested address"), std::string::npos) << all;
  EXPECT_NE(all.find("transport_dbg returned 5 bytes"), std::string::npos) << all;
}

// MMIO: registers answer 4- and 8-byte aligned accesses; the rest get the proper error.
TEST(Conformance, MmioErrorsAndIdentification) {
  CheckedSystem sys(twoCus());
  sys.run([&](Runtime&) {
    auto& mmio = sys.mmioChecker;
    uint8_t buf[16] = {};
    auto u32 = [&] {
      uint32_t v;
      std::memcpy(&v, buf, 4);
      return v;
    };
    EXPECT_EQ(access(mmio, tlm::TLM_READ_COMMAND, mmio::kId, buf, 4), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(u32(), mmio::kIdValue);
    access(mmio, tlm::TLM_READ_COMMAND, mmio::kVersion, buf, 4);
    EXPECT_EQ(u32(), 0x00030003u);
    // The device aperture: 4 GiB up, the platform's DRAM size (tiny: platforms/tiny.json).
    uint64_t u64 = 0;
    access(mmio, tlm::TLM_READ_COMMAND, mmio::kDeviceMemoryBaseLo, buf, 8);
    std::memcpy(&u64, buf, 8);
    EXPECT_EQ(u64, 0x1'0000'0000ull);
    access(mmio, tlm::TLM_READ_COMMAND, mmio::kDeviceMemorySizeLo, buf, 8);
    std::memcpy(&u64, buf, 8);
    EXPECT_EQ(u64, twoCus().dram.sizeBytes);
    // MEM_MAP refuses a range outside the aperture and one overlapping a mapped range.
    auto memMap = [&](uint64_t base, uint64_t size, uint32_t command) {
      std::memcpy(buf, &base, 8);
      access(mmio, tlm::TLM_WRITE_COMMAND, mmio::kMemMapBaseLo, buf, 8);
      std::memcpy(buf, &size, 8);
      access(mmio, tlm::TLM_WRITE_COMMAND, mmio::kMemMapSizeLo, buf, 8);
      std::memcpy(buf, &command, 4);
      access(mmio, tlm::TLM_WRITE_COMMAND, mmio::kMemMapCommand, buf, 4);
      access(mmio, tlm::TLM_READ_COMMAND, mmio::kMemMapStatus, buf, 4);
      return u32();
    };
    EXPECT_EQ(memMap(0x8000'0000ull, 4096, mmio::kMemMapMap), 1u);
    EXPECT_EQ(memMap(0x1'0000'0000ull + (64ull << 20), 4096, mmio::kMemMapMap), 0u);
    EXPECT_EQ(memMap(0x1'0000'0000ull + (64ull << 20) + 256, 4096, mmio::kMemMapMap), 1u);
    EXPECT_EQ(memMap(0x1'0000'0000ull + (64ull << 20), 0, mmio::kMemMapUnmap), 0u);
    EXPECT_EQ(memMap(0x1'0000'0000ull + (64ull << 20), 0, mmio::kMemMapUnmap), 1u);
    // TIMESTAMP counts simulated nanoseconds.
    wait(sc_time(2, SC_US));
    access(mmio, tlm::TLM_READ_COMMAND, mmio::kTimestampLo, buf, 8);
    std::memcpy(&u64, buf, 8);
    EXPECT_NEAR(static_cast<double>(u64), sc_time_stamp().to_seconds() * 1e9, 10.0);
    access(mmio, tlm::TLM_READ_COMMAND, mmio::kQueueCount, buf, 4);
    EXPECT_EQ(u32(), mmio::kQueues);
    access(mmio, tlm::TLM_READ_COMMAND, mmio::kQueueStrideReg, buf, 4);
    EXPECT_EQ(u32(), mmio::kQueueStride);
    access(mmio, tlm::TLM_READ_COMMAND, mmio::kCapabilities, buf, 4);
    EXPECT_EQ(u32() & 0xff, 0xffu);
    access(mmio, tlm::TLM_READ_COMMAND, mmio::kComputeUnits, buf, 4);
    EXPECT_EQ(u32(), 2u);
    // A 64-bit LO/HI pair in one access: queue 3's base.
    uint64_t base = 0x1'2345'6780ull;
    std::memcpy(buf, &base, 8);
    EXPECT_EQ(access(mmio, tlm::TLM_WRITE_COMMAND, mmio::queueRegister(3, mmio::kQBaseLo), buf, 8),
              tlm::TLM_OK_RESPONSE);
    std::memset(buf, 0, 8);
    access(mmio, tlm::TLM_READ_COMMAND, mmio::queueRegister(3, mmio::kQBaseHi), buf, 4);
    EXPECT_EQ(u32(), 1u);
    access(mmio, tlm::TLM_READ_COMMAND, mmio::queueRegister(3, mmio::kQBaseLo), buf, 4);
    EXPECT_EQ(u32(), 0x23456780u);

    // Unmapped: at and beyond the end of the map, and straddling it.
    EXPECT_EQ(access(mmio, tlm::TLM_READ_COMMAND, mmio::kEnd, buf, 4),
              tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(access(mmio, tlm::TLM_WRITE_COMMAND, 0x10000, buf, 4),
              tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(access(mmio, tlm::TLM_READ_COMMAND, mmio::kEnd - 4, buf, 8),
              tlm::TLM_ADDRESS_ERROR_RESPONSE);
    // Wrong sizes and alignment.
    EXPECT_EQ(access(mmio, tlm::TLM_READ_COMMAND, mmio::kId, buf, 2),
              tlm::TLM_BURST_ERROR_RESPONSE);
    EXPECT_EQ(access(mmio, tlm::TLM_READ_COMMAND, mmio::kId + 2, buf, 4),
              tlm::TLM_BURST_ERROR_RESPONSE);
    EXPECT_EQ(access(mmio, tlm::TLM_READ_COMMAND, mmio::kVersion, buf, 8),
              tlm::TLM_BURST_ERROR_RESPONSE);
    EXPECT_EQ(access(mmio, tlm::TLM_READ_COMMAND, mmio::kId, buf, 16),
              tlm::TLM_BURST_ERROR_RESPONSE);
    EXPECT_EQ(access(mmio, tlm::TLM_READ_COMMAND, mmio::kId, buf, 8, nullptr, 0, 4),
              tlm::TLM_BURST_ERROR_RESPONSE);  // streaming
    // Byte enables are refused, not ignored.
    uint8_t be[4] = {0xff, 0xff, 0, 0};
    EXPECT_EQ(access(mmio, tlm::TLM_WRITE_COMMAND, mmio::kIrqEnable, buf, 4, be, 4),
              tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    // Debug reads of registers work; debug writes are refused.
    EXPECT_EQ(debug(mmio, tlm::TLM_READ_COMMAND, mmio::kId, buf, 8), 8u);
    EXPECT_EQ(u32(), mmio::kIdValue);
    EXPECT_EQ(debug(mmio, tlm::TLM_WRITE_COMMAND, mmio::kIrqEnable, buf, 4), 0u);
  });
  EXPECT_GT(sys.mmioChecker.errorResponses, 8u);
  expectNoViolations(sys);
}

// Device memory as the host sees it: byte enables honoured on writes and reads, accesses
// outside every allocation refused, streaming refused.
TEST(Conformance, HostMemoryByteEnablesAndAddressErrors) {
  CheckedSystem sys(twoCus());
  sys.run([&](Runtime& rt) {
    auto& mem = sys.memoryChecker;
    const uint64_t a = rt.malloc(256);
    std::vector<uint8_t> ones(64, 0x11), twos(64, 0x22), got(64);
    rt.copyToDevice(a, ones.data(), 64);
    uint8_t be[4] = {TLM_BYTE_ENABLED, TLM_BYTE_DISABLED, TLM_BYTE_DISABLED, TLM_BYTE_ENABLED};
    EXPECT_EQ(access(mem, tlm::TLM_WRITE_COMMAND, a, twos.data(), 64, be, 4), tlm::TLM_OK_RESPONSE);
    rt.copyFromDevice(got.data(), a, 64);
    for (unsigned i = 0; i < 64; ++i)
      EXPECT_EQ(got[i], (i % 4 == 0 || i % 4 == 3) ? 0x22 : 0x11) << "byte " << i;
    std::vector<uint8_t> readBack(64, 0x77);
    EXPECT_EQ(access(mem, tlm::TLM_READ_COMMAND, a, readBack.data(), 64, be, 4),
              tlm::TLM_OK_RESPONSE);
    for (unsigned i = 0; i < 64; ++i)
      EXPECT_EQ(readBack[i], (i % 4 == 0 || i % 4 == 3) ? 0x22 : 0x77) << "byte " << i;

    EXPECT_EQ(access(mem, tlm::TLM_READ_COMMAND, a + 256, got.data(), 4),
              tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(access(mem, tlm::TLM_READ_COMMAND, 0x1000, got.data(), 4),
              tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(access(mem, tlm::TLM_READ_COMMAND, a, got.data(), 8, nullptr, 0, 4),
              tlm::TLM_BURST_ERROR_RESPONSE);
  });
  EXPECT_GT(sys.memoryChecker.okResponses, 0u);
  expectNoViolations(sys);
}

// Runtime::mallocGuarded (vgpu-sim run --check-memory): exact, only the bytes asked for are
// mapped; otherwise the allocation rounded to 256 bytes; the 64 KiB guards never are. DRAM names
// the first byte it refused to an initiator that attaches a RefusedAddressExtension.
TEST(Conformance, GuardedBuffersAndTheFirstRefusedByte) {
  CheckedSystem sys(twoCus());
  sys.run([&](Runtime& rt) {
    auto& mem = sys.memoryChecker;
    constexpr uint64_t kGuard = 64 * 1024;
    const uint64_t exact = rt.mallocGuarded(4002, kGuard, true);
    const uint64_t rounded = rt.mallocGuarded(4002, kGuard, false);
    EXPECT_EQ(rounded - exact, 4096 + 2 * kGuard) << "each buffer has its own guards";
    std::vector<uint8_t> bytes(8, 0x5a);
    EXPECT_EQ(access(mem, tlm::TLM_WRITE_COMMAND, exact + 4001, bytes.data(), 1),
              tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(access(mem, tlm::TLM_READ_COMMAND, exact + 4000, bytes.data(), 4),
              tlm::TLM_ADDRESS_ERROR_RESPONSE)
        << "bytes 4002 and 4003 were not asked for";
    EXPECT_EQ(access(mem, tlm::TLM_READ_COMMAND, exact - 1, bytes.data(), 1),
              tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(access(mem, tlm::TLM_READ_COMMAND, rounded + 4092, bytes.data(), 4),
              tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(access(mem, tlm::TLM_READ_COMMAND, rounded + 4096, bytes.data(), 1),
              tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(access(mem, tlm::TLM_READ_COMMAND, rounded - kGuard, bytes.data(), 1),
              tlm::TLM_ADDRESS_ERROR_RESPONSE);

    // The first refused byte: 8 bytes from 3998 stop being mapped at 4002; with bytes 4002 and
    // 4003 disabled, the first refused enabled byte is 4004.
    auto firstRefused = [&](uint64_t address, uint8_t* enables, unsigned enableLength) {
      RefusedAddressExtension refused;
      tlm::tlm_generic_payload p;
      p.set_command(tlm::TLM_READ_COMMAND);
      p.set_address(address);
      p.set_data_ptr(bytes.data());
      p.set_data_length(8);
      p.set_streaming_width(8);
      p.set_byte_enable_ptr(enables);
      p.set_byte_enable_length(enableLength);
      p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      p.set_extension(&refused);
      sc_time delay = SC_ZERO_TIME;
      mem.b_transport(p, delay);
      p.clear_extension(&refused);
      EXPECT_EQ(p.get_response_status(), tlm::TLM_ADDRESS_ERROR_RESPONSE);
      EXPECT_TRUE(refused.valid);
      return refused.address;
    };
    EXPECT_EQ(firstRefused(exact + 3998, nullptr, 0), exact + 4002);
    uint8_t enables[8];
    for (uint8_t& e : enables) e = TLM_BYTE_ENABLED;
    enables[4] = enables[5] = TLM_BYTE_DISABLED;
    EXPECT_EQ(firstRefused(exact + 3998, enables, 8), exact + 4004);

    // Freed with its guards: the same request gets the same addresses again.
    rt.free(rounded);
    rt.free(exact);
    EXPECT_EQ(rt.mallocGuarded(4002, kGuard, true), exact);
  });
  expectNoViolations(sys);
}

// A debugger reads and writes device memory through every memory-like target (host port,
// L2, vector L1 via the texture path, scalar and instruction caches, DRAM) and the LDS, without
// simulated time passing.
TEST(Conformance, DebugTransportOnEveryMemoryLikeTarget) {
  CheckedSystem sys(twoCus());
  sys.run([&](Runtime& rt) {
    const uint64_t a = rt.malloc(4096);
    const sc_time before = sc_time_stamp();
    auto through = [&](const std::string& where) -> tlm::tlm_fw_transport_if<>& {
      if (where == "host") return sys.memoryChecker;
      return *const_cast<ProtocolChecker*>(sys.checker(where));
    };
    const std::vector<std::string> paths = {"host",
                                            "l2->fabric",
                                            "fabric->dram",
                                            "cp->l2",
                                            "cu0->tc",
                                            "cu1->scalar_cache",
                                            "tc1.vector_l1->l2",
                                            "sqc0.instruction->l2",
                                            "cu0->instruction_cache"};
    for (size_t i = 0; i < paths.size(); ++i) {
      ASSERT_TRUE(paths[i] == "host" || sys.checker(paths[i]) != nullptr) << paths[i];
      uint8_t pattern[16];
      for (unsigned b = 0; b < 16; ++b) pattern[b] = static_cast<uint8_t>(i * 16 + b);
      EXPECT_EQ(debug(through(paths[i]), tlm::TLM_WRITE_COMMAND, a + 64 * i, pattern, 16), 16u)
          << paths[i];
      // Read back through the next path: every path sees the same memory.
      uint8_t back[16] = {};
      const std::string& other = paths[(i + 1) % paths.size()];
      EXPECT_EQ(debug(through(other), tlm::TLM_READ_COMMAND, a + 64 * i, back, 16), 16u) << other;
      EXPECT_EQ(std::memcmp(back, pattern, 16), 0) << paths[i] << " then " << other;
    }
    // The LDS is a memory of its own: a debugger writes and reads it too.
    uint8_t lds[8] = {1, 2, 3, 4, 5, 6, 7, 8}, ldsBack[8] = {};
    auto& toLds = *const_cast<ProtocolChecker*>(sys.checker("cu1->lds"));
    EXPECT_EQ(debug(toLds, tlm::TLM_WRITE_COMMAND, 128, lds, 8), 8u);
    EXPECT_EQ(debug(toLds, tlm::TLM_READ_COMMAND, 128, ldsBack, 8), 8u);
    EXPECT_EQ(std::memcmp(lds, ldsBack, 8), 0);
    EXPECT_EQ(sc_time_stamp(), before) << "debug transport must not advance time";
    // And the host sees what the debugger wrote.
    uint8_t host[16];
    rt.copyFromDevice(host, a + 64 * 3, 16);
    EXPECT_EQ(host[0], 3 * 16);
  });
  EXPECT_GT(sys.checker("fabric->dram")->debugTransports, 0u);
  expectNoViolations(sys);
}

// DRAM offers DMI on allocations (through the host port and to the L2) and revokes it when the
// allocation is freed; unallocated addresses are denied.
TEST(Conformance, DmiOfferedByDramAndInvalidatedOnFree) {
  CheckedSystem sys(twoCus());
  sys.run([&](Runtime& rt) {
    const uint64_t a = rt.malloc(8192);
    const uint32_t word = 0xcafef00d;
    rt.copyToDevice(a + 16, &word, 4);
    auto requestDmi = [](tlm::tlm_fw_transport_if<>& to, uint64_t address, tlm::tlm_dmi& dmi) {
      tlm::tlm_generic_payload p;
      p.set_command(tlm::TLM_READ_COMMAND);
      p.set_address(address);
      return to.get_direct_mem_ptr(p, dmi);
    };
    tlm::tlm_dmi dmi;
    ASSERT_TRUE(requestDmi(sys.memoryChecker, a + 16, dmi));
    EXPECT_LE(dmi.get_start_address(), a + 16);
    EXPECT_GE(dmi.get_end_address(), a + 16 + 3);
    EXPECT_TRUE(dmi.is_read_write_allowed());
    uint32_t viaDmi;
    std::memcpy(&viaDmi, dmi.get_dmi_ptr() + (a + 16 - dmi.get_start_address()), 4);
    EXPECT_EQ(viaDmi, word);
    tlm::tlm_dmi l2Dmi;
    auto& l2ToDram = *const_cast<ProtocolChecker*>(sys.checker("l2->fabric"));
    ASSERT_TRUE(requestDmi(l2ToDram, a + 4096, l2Dmi));
    // Reads through the checker compare with the bytes behind the grant (stale-DMI check).
    uint32_t read = 0;
    EXPECT_EQ(access(sys.memoryChecker, tlm::TLM_READ_COMMAND, a + 16,
                     reinterpret_cast<uint8_t*>(&read), 4),
              tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(read, word);
    EXPECT_EQ(sys.memoryChecker.dmiRegions().size(), 1u);
    EXPECT_EQ(l2ToDram.dmiRegions().size(), 1u);

    tlm::tlm_dmi denied;
    EXPECT_FALSE(requestDmi(sys.memoryChecker, a + 64 * 1024 * 1024, denied));

    rt.free(a);  // the mapping changes: every grant into it is revoked
    EXPECT_TRUE(sys.memoryChecker.dmiRegions().empty());
    EXPECT_TRUE(l2ToDram.dmiRegions().empty());
    EXPECT_GT(sys.memoryChecker.invalidations, 0u);
    EXPECT_GT(l2ToDram.invalidations, 0u);
    EXPECT_FALSE(requestDmi(sys.memoryChecker, a + 16, denied));
  });
  EXPECT_GT(sys.memoryChecker.dmiDataChecks, 0u);
  expectNoViolations(sys);
}

}  // namespace
}  // namespace vgpu::test
