// Signals: values in every memory order, waits woken by other threads and by the GPU's
// notification, timeouts, wait_any and async handlers.
#include <hsa/amd_hsa_signal.h>
#include <sys/resource.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "HsaFixture.h"

namespace vgpu::hsa::test {
namespace {

using Signals = HsaFixture;
using Clock = std::chrono::steady_clock;

double cpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_utime.tv_sec + u.ru_stime.tv_sec + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

TEST_F(Signals, LiveInExposedMemoryAsAmdSignals) {
  hsa_signal_t s;
  ASSERT_EQ(hsa_signal_create(42, 0, nullptr, &s), HSA_STATUS_SUCCESS);
  auto* amd = reinterpret_cast<amd_signal_t*>(s.handle);
  EXPECT_EQ(s.handle % 64, 0u);
  EXPECT_TRUE(port_->isExposed(amd, sizeof *amd));
  EXPECT_EQ(amd->kind, AMD_SIGNAL_KIND_USER);
  EXPECT_EQ(amd->value, 42);
  volatile hsa_signal_value_t* value = nullptr;
  ASSERT_EQ(hsa_amd_signal_value_pointer(s, &value), HSA_STATUS_SUCCESS);
  EXPECT_EQ(value, &amd->value);
  ASSERT_EQ(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_signal_destroy(s), HSA_STATUS_ERROR_INVALID_SIGNAL);
}

TEST_F(Signals, ArithmeticAndBitwiseOperations) {
  hsa_signal_t s;
  ASSERT_EQ(hsa_signal_create(10, 0, nullptr, &s), HSA_STATUS_SUCCESS);
  hsa_signal_add_screlease(s, 5);
  EXPECT_EQ(hsa_signal_load_scacquire(s), 15);
  hsa_signal_subtract_relaxed(s, 3);
  EXPECT_EQ(hsa_signal_load_relaxed(s), 12);
  hsa_signal_and_acq_rel(s, 0b0110);
  EXPECT_EQ(hsa_signal_load_acquire(s), 0b0100);
  hsa_signal_or_release(s, 0b0001);
  EXPECT_EQ(hsa_signal_load_relaxed(s), 0b0101);
  hsa_signal_xor_scacq_screl(s, 0b1111);
  EXPECT_EQ(hsa_signal_load_relaxed(s), 0b1010);
  EXPECT_EQ(hsa_signal_exchange_scacquire(s, 77), 0b1010);
  EXPECT_EQ(hsa_signal_cas_screlease(s, 1, 2), 77) << "a failed CAS returns what it saw";
  EXPECT_EQ(hsa_signal_load_relaxed(s), 77);
  EXPECT_EQ(hsa_signal_cas_acq_rel(s, 77, 3), 77);
  EXPECT_EQ(hsa_signal_load_relaxed(s), 3);
  hsa_signal_store_relaxed(s, -1);
  EXPECT_EQ(hsa_signal_load_relaxed(s), -1);
  hsa_signal_silent_store_screlease(s, 9);
  EXPECT_EQ(hsa_signal_load_relaxed(s), 9);
  hsa_signal_destroy(s);
}

TEST_F(Signals, WaitWakesOnAStoreFromAnotherThreadWithoutSpinning) {
  hsa_signal_t s;
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &s), HSA_STATUS_SUCCESS);
  const double cpuBefore = cpuSeconds();
  const auto before = Clock::now();
  std::thread producer([s] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    hsa_signal_store_screlease(s, 0);
  });
  const hsa_signal_value_t v =
      hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_LT, 1, UINT64_MAX, HSA_WAIT_STATE_BLOCKED);
  const auto waited = Clock::now() - before;
  producer.join();
  EXPECT_EQ(v, 0);
  EXPECT_GE(waited, std::chrono::milliseconds(250));
  EXPECT_LT(waited, std::chrono::seconds(5));
  EXPECT_LT(cpuSeconds() - cpuBefore, 0.15) << "the wait must sleep, not spin";
  hsa_signal_destroy(s);
}

TEST_F(Signals, WaitWakesWhenTheGpuWritesTheSignal) {
  hsa_signal_t s;
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &s), HSA_STATUS_SUCCESS);
  auto* amd = reinterpret_cast<amd_signal_t*>(s.handle);
  const auto before = Clock::now();
  std::thread gpu([this, amd] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    __atomic_fetch_sub(const_cast<int64_t*>(&amd->value), 1, __ATOMIC_RELEASE);  // as the GPU does
    port_->gpuWroteSystemMemory();
  });
  // Bounded (5 s), so that a missing wake-up fails instead of hanging.
  EXPECT_EQ(hsa_signal_wait_relaxed(s, HSA_SIGNAL_CONDITION_EQ, 0, 5 * FakeGpuPort::kFrequency,
                                    HSA_WAIT_STATE_ACTIVE),
            0);
  // The runtime looks at a signal again after 1 s without notification; the GPU wrote at 100 ms.
  EXPECT_LT(Clock::now() - before, std::chrono::milliseconds(700)) << "woken by the notification";
  gpu.join();
  hsa_signal_destroy(s);
}

TEST_F(Signals, WaitTimeoutIsInTimestampTicks) {
  hsa_signal_t s;
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &s), HSA_STATUS_SUCCESS);
  const uint64_t ticks = FakeGpuPort::kFrequency / 10;  // 100 ms
  const auto before = Clock::now();
  EXPECT_EQ(hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0, ticks, HSA_WAIT_STATE_BLOCKED),
            1);
  const auto waited = Clock::now() - before;
  EXPECT_GE(waited, std::chrono::milliseconds(100));
  EXPECT_LT(waited, std::chrono::seconds(2));
  hsa_signal_destroy(s);
}

TEST_F(Signals, WaitAnyReturnsTheSatisfiedSignal) {
  hsa_signal_t s[3];
  for (hsa_signal_t& x : s) ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &x), HSA_STATUS_SUCCESS);
  hsa_signal_condition_t conds[3] = {HSA_SIGNAL_CONDITION_EQ, HSA_SIGNAL_CONDITION_EQ,
                                     HSA_SIGNAL_CONDITION_EQ};
  hsa_signal_value_t values[3] = {0, 0, 0};
  std::thread t([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    hsa_signal_store_release(s[2], 0);
  });
  hsa_signal_value_t seen = 5;
  EXPECT_EQ(hsa_amd_signal_wait_any(3, s, conds, values, UINT64_MAX, HSA_WAIT_STATE_BLOCKED, &seen),
            2u);
  EXPECT_EQ(seen, 0);
  t.join();
  EXPECT_EQ(hsa_amd_signal_wait_any(3, s, conds, values, FakeGpuPort::kFrequency / 100,
                                    HSA_WAIT_STATE_BLOCKED, &seen),
            2u);
  hsa_signal_store_relaxed(s[2], 1);
  EXPECT_EQ(hsa_amd_signal_wait_any(3, s, conds, values, FakeGpuPort::kFrequency / 100,
                                    HSA_WAIT_STATE_BLOCKED, &seen),
            UINT32_MAX)
      << "timeout";
  for (hsa_signal_t& x : s) hsa_signal_destroy(x);
}

struct HandlerState {
  std::atomic<int> calls{0};
  std::atomic<bool> otherThread{false};
  std::thread::id caller;
  hsa_signal_t signal;
};

TEST_F(Signals, AsyncHandlerRunsOnARuntimeThreadAndIsReArmed) {
  HandlerState state;
  state.caller = std::this_thread::get_id();
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &state.signal), HSA_STATUS_SUCCESS);
  auto handler = [](hsa_signal_value_t value, void* arg) -> bool {
    auto* st = static_cast<HandlerState*>(arg);
    st->otherThread = std::this_thread::get_id() != st->caller;
    // The handler may call back into the runtime (ROCclr reads profiling times here).
    hsa_signal_store_relaxed(st->signal, 1);
    return ++st->calls < 2;  // re-armed once
  };
  ASSERT_EQ(hsa_amd_signal_async_handler(state.signal, HSA_SIGNAL_CONDITION_LT, 1, handler, &state),
            HSA_STATUS_SUCCESS);
  auto waitCalls = [&](int n) {
    const auto deadline = Clock::now() + std::chrono::seconds(5);
    while (state.calls < n && Clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
  };
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(state.calls, 0) << "the condition does not hold yet";
  hsa_signal_store_screlease(state.signal, 0);
  waitCalls(1);
  EXPECT_EQ(state.calls, 1);
  EXPECT_TRUE(state.otherThread);
  hsa_signal_store_screlease(state.signal, 0);
  waitCalls(2);
  EXPECT_EQ(state.calls, 2);
  hsa_signal_store_screlease(state.signal, 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(state.calls, 2) << "a handler that returned false is not called again";
  hsa_signal_destroy(state.signal);
}

TEST_F(Signals, GroupWaitAny) {
  hsa_signal_t s[2];
  for (hsa_signal_t& x : s) ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &x), HSA_STATUS_SUCCESS);
  hsa_signal_group_t group;
  ASSERT_EQ(hsa_signal_group_create(2, s, 0, nullptr, &group), HSA_STATUS_SUCCESS);
  hsa_signal_store_relaxed(s[1], 0);
  hsa_signal_condition_t conds[2] = {HSA_SIGNAL_CONDITION_EQ, HSA_SIGNAL_CONDITION_EQ};
  hsa_signal_value_t values[2] = {0, 0};
  hsa_signal_t which{0};
  hsa_signal_value_t value = 9;
  ASSERT_EQ(hsa_signal_group_wait_any_scacquire(group, conds, values, HSA_WAIT_STATE_BLOCKED,
                                                &which, &value),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(which.handle, s[1].handle);
  EXPECT_EQ(value, 0);
  EXPECT_EQ(hsa_signal_group_destroy(group), HSA_STATUS_SUCCESS);
  for (hsa_signal_t& x : s) hsa_signal_destroy(x);
}

}  // namespace
}  // namespace vgpu::hsa::test
