// Several AQL queues: kernels of different queues run at the same time on shared compute units;
// barrier-AND/OR packets hold only their own queue until their dependency signals are 0.
#include <gtest/gtest.h>

#include <algorithm>

#include "CheckedSystem.h"
#include "KernelCases.h"
#include "common/Error.h"
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

// A kernel case launched on a queue: its buffers, to check after the run.
struct Launched {
  KernelCase c;
  std::vector<uint64_t> buffers;
};

// Loads the case's code object and uploads its buffers; launching is separate, so several
// launches can follow each other closely.
struct Prepared : Launched {
  Kernel kernel;
  std::vector<KernelArg> args;
};
Prepared prepare(Runtime& rt, const std::string& name) {
  Prepared p;
  p.c = kernelCase(name);
  const Module& m = rt.loadModule(kernelDir() + "/" + p.c.codeObject);
  p.kernel = rt.kernel(m, p.c.kernel);
  p.args = uploadArgs(rt, p.c, p.buffers);
  return p;
}

Launched launchCase(Runtime& rt, Queue q, const std::string& name, Signal completion = {}) {
  Prepared p = prepare(rt, name);
  rt.launch(q, p.kernel, p.c.launch, p.args, completion);
  return p;
}

std::string check(Runtime& rt, const Launched& l) {
  std::vector<std::vector<uint8_t>> out(l.c.args.size());
  for (size_t i = 0; i < l.c.args.size(); ++i)
    if (l.c.args[i].isBuffer) {
      out[i].resize(l.c.args[i].bytes.size());
      rt.copyFromDevice(out[i].data(), l.buffers[i], out[i].size());
    }
  return checkAgainstReference(l.c, out);
}

uint32_t mmioRead(CheckedSystem& sys, uint32_t reg) {
  uint32_t v = 0;
  tlm::tlm_generic_payload p;
  p.set_command(tlm::TLM_READ_COMMAND);
  p.set_address(reg);
  p.set_data_ptr(reinterpret_cast<uint8_t*>(&v));
  p.set_data_length(4);
  p.set_streaming_width(4);
  p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_time delay = SC_ZERO_TIME;
  sys.mmioChecker.b_transport(p, delay);
  wait(delay);
  return v;
}

// Four queues, one kernel each: all four are on the GPU at the same time, and every result is
// right. The dispatcher takes workgroups from each in turn, so each one starts before any ends.
TEST(Queues, ConcurrentKernelsFromFourQueuesShareTheComputeUnits) {
  CheckedSystem sys(twoCus());
  std::vector<std::string> diffs;
  sys.run([&](Runtime& rt) {
    EXPECT_EQ(rt.queueCount(), mmio::kQueues);
    std::vector<Queue> queues = {Queue{0}, rt.createQueue(), rt.createQueue(), rt.createQueue()};
    EXPECT_EQ(queues[3].index, 3u);
    std::vector<Prepared> launched;
    for (size_t i = 0; i < queues.size(); ++i) launched.push_back(prepare(rt, "matmul_64"));
    for (size_t i = 0; i < queues.size(); ++i)
      rt.launch(queues[i], launched[i].kernel, launched[i].c.launch, launched[i].args);
    rt.synchronize();
    for (const Prepared& l : launched) {
      const std::string d = check(rt, l);
      if (!d.empty()) diffs.push_back(l.c.name + ": " + d);
    }
    EXPECT_EQ(mmioRead(sys, mmio::kDispatches), 4u);
    for (uint32_t q = 0; q < 4; ++q)
      EXPECT_EQ(mmioRead(sys, mmio::queueRegister(q, mmio::kQDispatches)), 1u);
  });
  EXPECT_TRUE(diffs.empty()) << diffs.front();
  const auto& d = sys.gpu.dispatches();
  ASSERT_EQ(d.size(), 4u);
  std::vector<uint32_t> queuesSeen;
  uint64_t latestStart = 0, earliestEnd = UINT64_MAX;
  for (const auto& r : d) {
    queuesSeen.push_back(r.queue);
    latestStart = std::max(latestStart, r.startCycle);
    earliestEnd = std::min(earliestEnd, r.endCycle);
    EXPECT_FALSE(r.faulted);
  }
  std::sort(queuesSeen.begin(), queuesSeen.end());
  EXPECT_EQ(queuesSeen, (std::vector<uint32_t>{0, 1, 2, 3}));
  EXPECT_LT(latestStart, earliestEnd) << "the four dispatches never ran at the same time";
  for (const ProtocolChecker* c : sys.checkers()) EXPECT_TRUE(c->violations().empty());
}

// Two kernels one after the other on one queue, then the same two on two queues: sharing the
// compute units, the concurrent pair finishes sooner.
TEST(Queues, ConcurrentQueuesFinishSoonerThanOneQueue) {
  uint64_t concurrentEnd = 0, serialEnd = 0;
  CheckedSystem sys(twoCus());
  const sc_time period(sys.gpu.config().clockPeriodNs(), SC_NS);
  sys.run([&](Runtime& rt) {
    const Queue q1 = rt.createQueue();
    std::vector<Prepared> p;
    for (int i = 0; i < 4; ++i) p.push_back(prepare(rt, "matmul_64"));
    rt.launch(Queue{0}, p[0].kernel, p[0].c.launch, p[0].args);  // warms the queue and caches
    rt.synchronize();
    // Serial: two kernels on queue 0.
    const uint64_t t0 = static_cast<uint64_t>(sc_time_stamp() / period);
    rt.launch(Queue{0}, p[0].kernel, p[0].c.launch, p[0].args);
    rt.launch(Queue{0}, p[1].kernel, p[1].c.launch, p[1].args);
    rt.synchronize();
    serialEnd = sys.gpu.dispatches().back().endCycle - t0;
    // Concurrent: one on each of two queues.
    const uint64_t t1 = static_cast<uint64_t>(sc_time_stamp() / period);
    rt.launch(Queue{0}, p[2].kernel, p[2].c.launch, p[2].args);
    rt.launch(q1, p[3].kernel, p[3].c.launch, p[3].args);
    rt.synchronize();
    for (const Prepared& l : p) EXPECT_EQ(check(rt, l), "");
    const auto& d = sys.gpu.dispatches();
    ASSERT_EQ(d.size(), 5u);
    concurrentEnd = std::max(d[3].endCycle, d[4].endCycle) - t1;
  });
  EXPECT_LT(concurrentEnd, serialEnd);
}

// Barrier-AND: the queue's next kernel waits until every dependency is 0; another queue's
// kernel runs meanwhile. A dependency may be another queue's completion signal.
TEST(Queues, BarrierAndHoldsItsQueueUntilEveryDependencyIsZero) {
  CheckedSystem sys(twoCus());
  sc_time bothSet, otherDone;
  sys.run([&](Runtime& rt) {
    const Queue a = rt.createQueue(), b = rt.createQueue();
    const Signal s1 = rt.createSignal(1), s2 = rt.createSignal(1), fromB = rt.createSignal(1);
    const Signal barrierDone = rt.createSignal(1), kernelDone = rt.createSignal(1);
    rt.barrier(a, BarrierKind::And, {s1, s2, fromB}, barrierDone);
    const Launched held = launchCase(rt, a, "vector_add", kernelDone);
    const Launched other = launchCase(rt, b, "block_reduce", fromB);
    rt.waitSignal(fromB);  // queue b is not held by queue a's barrier
    otherDone = sc_time_stamp();
    EXPECT_EQ(rt.signalValue(barrierDone), 1);
    EXPECT_EQ(rt.signalValue(kernelDone), 1);
    EXPECT_TRUE(mmioRead(sys, mmio::queueRegister(a.index, mmio::kQStatus)) & mmio::kQueueBarrier);
    rt.setSignal(s1, 0);
    wait(sc_time(5, SC_US));  // many barrier polls later: s2 is still 1
    EXPECT_EQ(rt.signalValue(barrierDone), 1);
    EXPECT_EQ(rt.signalValue(kernelDone), 1);
    rt.setSignal(s2, 0);
    bothSet = sc_time_stamp();
    rt.waitSignal(kernelDone);
    EXPECT_EQ(rt.signalValue(barrierDone), 0);
    rt.synchronize();
    EXPECT_EQ(check(rt, held), "");
    EXPECT_EQ(check(rt, other), "");
  });
  EXPECT_LT(otherDone, bothSet);
  const auto& d = sys.gpu.dispatches();
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].kernel, "block_reduce");  // queue b's, first despite being launched second
  EXPECT_EQ(d[1].kernel, "vector_add");
  const double period = sys.gpu.config().clockPeriodNs() * 1e-9;
  EXPECT_GE(double(d[1].startCycle) * period, bothSet.to_seconds() - period);
}

// Barrier-OR: the queue goes on as soon as any dependency is 0.
TEST(Queues, BarrierOrReleasesOnAnyDependency) {
  CheckedSystem sys(twoCus());
  sys.run([&](Runtime& rt) {
    const Queue a = rt.createQueue();
    const Signal s1 = rt.createSignal(1), s2 = rt.createSignal(1), s3 = rt.createSignal(2);
    const Signal kernelDone = rt.createSignal(1);
    rt.barrier(a, BarrierKind::Or, {s1, s2, s3});
    const Launched held = launchCase(rt, a, "vector_add", kernelDone);
    wait(sc_time(5, SC_US));
    EXPECT_EQ(rt.signalValue(kernelDone), 1) << "an OR barrier with no zero dependency released";
    rt.setSignal(s3, 1);  // not zero yet
    wait(sc_time(5, SC_US));
    EXPECT_EQ(rt.signalValue(kernelDone), 1);
    rt.setSignal(s2, 0);
    rt.waitSignal(kernelDone);
    rt.synchronize(a);
    EXPECT_EQ(check(rt, held), "");
    EXPECT_EQ(mmioRead(sys, mmio::queueRegister(a.index, mmio::kQStatus)), 0u);
  });
}

// More queues than the GPU has: a clear error.
TEST(Queues, CreatingMoreQueuesThanTheGpuHasIsAnInputError) {
  CheckedSystem sys(twoCus());
  EXPECT_THROW(sys.run([&](Runtime& rt) {
    for (uint32_t i = 0; i < mmio::kQueues; ++i) rt.createQueue();
  }),
               InputError);
}

}  // namespace
}  // namespace vgpu::test
