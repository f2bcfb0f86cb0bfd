// Debian's rocPRIM 5.3 (librocprim-dev: header-only, so its kernels are compiled here by hipcc
// for gfx906, as a user's program would) through its public device-wide API on the GPU, every
// result checked against the C++ standard library on the CPU. rocPRIM is what hipCUB and
// rocThrust are built on; its algorithms lean on what a simple kernel does not: decoupled
// look-back scans (workgroups waiting on flags other workgroups publish with atomics),
// LDS-heavy block sorts and exchanges, DPP and ds_bpermute wave operations, and kernels chained
// through temporary storage. All data are integers, so the digest is the same on every
// platform and in both modes.
#include <rocprim/rocprim.hpp>

#include <map>
#include <numeric>
#include <random>

#include "RocmCheck.h"

using namespace rocmcheck;

namespace {

Digest gDigest;
std::mt19937_64 gRng(20261127);

// rocPRIM's two-phase calls: the first with null storage asks for the temporary bytes, the
// second runs. `call(storage, bytes)` makes one call of the algorithm.
template <class Call>
void runWithStorage(const char* what, Call call) {
  size_t bytes = 0;
  hipError_t e = call(nullptr, bytes);
  if (e != hipSuccess) {
    std::printf("FAIL: %s (size query) = %s\n", what, hipGetErrorString(e));
    std::exit(1);
  }
  void* storage = nullptr;
  HIP_OK(hipMalloc(&storage, std::max<size_t>(bytes, 4)));
  e = call(storage, bytes);
  if (e != hipSuccess) {
    std::printf("FAIL: %s = %s\n", what, hipGetErrorString(e));
    std::exit(1);
  }
  HIP_OK(hipDeviceSynchronize());
  HIP_OK(hipFree(storage));
}

template <class T>
std::vector<T> randomValues(size_t n, uint64_t modulo) {
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(modulo == 0 ? gRng() : gRng() % modulo);
  return v;
}

template <class T>
void expectEqual(const std::vector<T>& got, const std::vector<T>& want, const std::string& what) {
  gDigest.add(got);
  size_t first = got.size();
  size_t bad = got.size() == want.size() ? 0 : 1;
  for (size_t i = 0; i < std::min(got.size(), want.size()); ++i)
    if (got[i] != want[i]) first = std::min(first, i), ++bad;
  check(bad == 0, what + ": " + std::to_string(bad) + " of " + std::to_string(want.size()) +
                      " elements differ" +
                      (first < got.size() ? ", first at " + std::to_string(first) : ""));
}

// A radix sort configuration whose merge-sort path ends at 8 blocks of 1,024 keys instead of
// the default 1,024 blocks, so that a test-sized input takes rocPRIM's multi-pass path (per
// digit: an upsweep counting digits, a scan of the counts, a downsweep scattering keys) that
// the default configuration keeps for inputs above a million keys. The other parameters are
// rocPRIM 5.3's defaults for gfx900/gfx906 and 4-byte keys
// (rocprim/device/device_radix_sort_config.hpp, radix_sort_config_900).
using MultiPassSort =
    rocprim::radix_sort_config<7, 6, rocprim::kernel_config<256, 2>,
                               rocprim::kernel_config<256, 17>, rocprim::kernel_config<256, 15>,
                               rocprim::kernel_config<1024, 1>, 8>;

void radixSortKeys() {
  // rocPRIM 5.3 picks the path by size: one block up to 2,560 keys, block sorts and merges up
  // to 1,024 x 1,024, the multi-pass sort above that (or above MultiPassSort's 8,192).
  for (size_t n : {size_t{1000}, size_t{2560}, size_t{30011}}) {
    std::vector<uint32_t> keys = randomValues<uint32_t>(n, 0);
    uint32_t* in = toDevice(keys);
    uint32_t* out = toDevice(std::vector<uint32_t>(n));
    runWithStorage("radix_sort_keys",
                   [&](void* s, size_t& b) { return rocprim::radix_sort_keys(s, b, in, out, n); });
    std::vector<uint32_t> want = keys;
    std::sort(want.begin(), want.end());
    expectEqual(toHost(out, n), want, "radix_sort_keys of " + std::to_string(n) + " keys");

    runWithStorage("radix_sort_keys (multi-pass)", [&](void* s, size_t& b) {
      return rocprim::radix_sort_keys<MultiPassSort>(s, b, in, out, n);
    });
    expectEqual(toHost(out, n), want,
                "radix_sort_keys, multi-pass configuration, of " + std::to_string(n) + " keys");

    runWithStorage("radix_sort_keys_desc", [&](void* s, size_t& b) {
      return rocprim::radix_sort_keys_desc(s, b, in, out, n);
    });
    std::reverse(want.begin(), want.end());
    expectEqual(toHost(out, n), want, "radix_sort_keys_desc of " + std::to_string(n) + " keys");

    // Bits [4, 20) only: keys equal in those bits keep their input order (the sort is stable).
    runWithStorage("radix_sort_keys (bits 4..19)", [&](void* s, size_t& b) {
      return rocprim::radix_sort_keys<MultiPassSort>(s, b, in, out, n, 4, 20);
    });
    want = keys;
    std::stable_sort(want.begin(), want.end(), [](uint32_t a, uint32_t b) {
      return ((a >> 4) & 0xffff) < ((b >> 4) & 0xffff);
    });
    expectEqual(toHost(out, n), want, "radix_sort_keys on bits 4 to 19 of " + std::to_string(n));
    HIP_OK(hipFree(in));
    HIP_OK(hipFree(out));
  }
}

void radixSortPairs() {
  // 64-bit keys with many repeats (values 0..999 in the high bits), values their input index:
  // a stable sort leaves equal keys' values ascending.
  const size_t n = 20000;
  std::vector<uint64_t> keys(n);
  for (auto& k : keys) k = (gRng() % 1000) << 40 | (gRng() % 3);
  std::vector<int32_t> values(n);
  std::iota(values.begin(), values.end(), 0);
  uint64_t* kin = toDevice(keys);
  uint64_t* kout = toDevice(std::vector<uint64_t>(n));
  int32_t* vin = toDevice(values);
  int32_t* vout = toDevice(std::vector<int32_t>(n));
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return keys[a] < keys[b]; });
  std::vector<uint64_t> wantKeys(n);
  std::vector<int32_t> wantValues(n);
  for (size_t i = 0; i < n; ++i) wantKeys[i] = keys[order[i]], wantValues[i] = values[order[i]];
  runWithStorage("radix_sort_pairs", [&](void* s, size_t& b) {
    return rocprim::radix_sort_pairs(s, b, kin, kout, vin, vout, n);
  });
  expectEqual(toHost(kout, n), wantKeys, "radix_sort_pairs keys (64-bit)");
  expectEqual(toHost(vout, n), wantValues, "radix_sort_pairs values (stable order)");
  HIP_OK(hipMemset(kout, 0, n * 8));
  HIP_OK(hipMemset(vout, 0, n * 4));
  using MultiPass64 =
      rocprim::radix_sort_config<7, 6, rocprim::kernel_config<256, 2>,
                                 rocprim::kernel_config<256, 15>, rocprim::kernel_config<256, 12>,
                                 rocprim::kernel_config<1024, 1>, 8>;
  runWithStorage("radix_sort_pairs (multi-pass)", [&](void* s, size_t& b) {
    return rocprim::radix_sort_pairs<MultiPass64>(s, b, kin, kout, vin, vout, n);
  });
  expectEqual(toHost(kout, n), wantKeys, "radix_sort_pairs keys (64-bit, multi-pass)");
  expectEqual(toHost(vout, n), wantValues, "radix_sort_pairs values (multi-pass, stable order)");
  for (void* p : {static_cast<void*>(kin), static_cast<void*>(kout), static_cast<void*>(vin),
                  static_cast<void*>(vout)})
    HIP_OK(hipFree(p));
}

void scansAndReductions() {
  const size_t n = 100003;  // about 50 workgroups of look-back scan, the last one partial
  std::vector<uint32_t> a = randomValues<uint32_t>(n, 1000);
  uint32_t* in = toDevice(a);
  uint32_t* out = toDevice(std::vector<uint32_t>(n));
  runWithStorage("inclusive_scan", [&](void* s, size_t& b) {
    return rocprim::inclusive_scan(s, b, in, out, n, rocprim::plus<uint32_t>());
  });
  std::vector<uint32_t> want(n);
  std::partial_sum(a.begin(), a.end(), want.begin());
  expectEqual(toHost(out, n), want, "inclusive_scan (sum)");

  runWithStorage("exclusive_scan", [&](void* s, size_t& b) {
    return rocprim::exclusive_scan(s, b, in, out, 7u, n, rocprim::maximum<uint32_t>());
  });
  uint32_t running = 7;
  for (size_t i = 0; i < n; ++i) want[i] = running, running = std::max(running, a[i]);
  expectEqual(toHost(out, n), want, "exclusive_scan (maximum, initial value 7)");

  uint64_t* sum = toDevice(std::vector<uint64_t>(1));
  std::vector<uint64_t> wide(a.begin(), a.end());
  uint64_t* win = toDevice(wide);
  runWithStorage("reduce", [&](void* s, size_t& b) {
    return rocprim::reduce(s, b, win, sum, uint64_t{0}, n, rocprim::plus<uint64_t>());
  });
  expectEqual(toHost(sum, 1), {std::accumulate(wide.begin(), wide.end(), uint64_t{0})},
              "reduce (64-bit sum)");

  // Segmented reduction: the minimum of each of 300 segments of random lengths (some empty).
  std::vector<uint32_t> offsets{0};
  while (offsets.size() < 301)
    offsets.push_back(std::min<uint32_t>(offsets.back() + gRng() % 660, n));
  offsets.back() = n;
  uint32_t* doff = toDevice(offsets);
  uint32_t* segOut = toDevice(std::vector<uint32_t>(300));
  runWithStorage("segmented_reduce", [&](void* s, size_t& b) {
    return rocprim::segmented_reduce(s, b, in, segOut, 300u, doff, doff + 1,
                                     rocprim::minimum<uint32_t>(), 12345u);
  });
  std::vector<uint32_t> wantSeg(300);
  for (size_t i = 0; i < 300; ++i) {
    uint32_t m = 12345;
    for (uint32_t j = offsets[i]; j < offsets[i + 1]; ++j) m = std::min(m, a[j]);
    wantSeg[i] = m;
  }
  expectEqual(toHost(segOut, 300), wantSeg, "segmented_reduce (minimum of 300 segments)");
  for (void* p : {static_cast<void*>(in), static_cast<void*>(out), static_cast<void*>(sum),
                  static_cast<void*>(win), static_cast<void*>(doff), static_cast<void*>(segOut)})
    HIP_OK(hipFree(p));
}

struct MultipleOf7 {
  __host__ __device__ bool operator()(int32_t x) const { return x % 7 == 0; }
};

void selectionAndRuns() {
  const size_t n = 60001;
  std::vector<int32_t> a = randomValues<int32_t>(n, 1000);
  int32_t* in = toDevice(a);
  int32_t* out = toDevice(std::vector<int32_t>(n));
  uint32_t* count = toDevice(std::vector<uint32_t>(1));

  runWithStorage("select (predicate)", [&](void* s, size_t& b) {
    return rocprim::select(s, b, in, out, count, n, MultipleOf7());
  });
  std::vector<int32_t> want;
  for (int32_t x : a)
    if (x % 7 == 0) want.push_back(x);
  const uint32_t selected = toHost(count, 1)[0];
  expectEqual(toHost(out, selected), want, "select with a predicate (multiples of 7)");

  std::vector<uint8_t> flags(n);
  for (size_t i = 0; i < n; ++i) flags[i] = (a[i] & 1) != 0;
  uint8_t* dflags = toDevice(flags);
  runWithStorage("select (flags)", [&](void* s, size_t& b) {
    return rocprim::select(s, b, in, dflags, out, count, n);
  });
  want.clear();
  for (size_t i = 0; i < n; ++i)
    if (flags[i]) want.push_back(a[i]);
  expectEqual(toHost(out, toHost(count, 1)[0]), want, "select with flags (odd values)");

  // partition: the selected in input order, then the rest in reverse input order.
  runWithStorage("partition", [&](void* s, size_t& b) {
    return rocprim::partition(s, b, in, out, count, n, MultipleOf7());
  });
  want.clear();
  for (int32_t x : a)
    if (x % 7 == 0) want.push_back(x);
  for (size_t i = n; i-- > 0;)
    if (a[i] % 7 != 0) want.push_back(a[i]);
  expectEqual(toHost(out, n), want, "partition (multiples of 7 first, the rest reversed)");
  check(toHost(count, 1)[0] == selected, "partition's selected count");

  // Runs: sorted values with repeats for run_length_encode, unsorted ones for unique.
  std::vector<int32_t> sorted = a;
  std::sort(sorted.begin(), sorted.end());
  int32_t* dsorted = toDevice(sorted);
  int32_t* uniqueOut = toDevice(std::vector<int32_t>(n));
  uint32_t* counts = toDevice(std::vector<uint32_t>(n));
  uint32_t* runs = toDevice(std::vector<uint32_t>(1));
  runWithStorage("run_length_encode", [&](void* s, size_t& b) {
    return rocprim::run_length_encode(s, b, dsorted, n, uniqueOut, counts, runs);
  });
  std::map<int32_t, uint32_t> histogram;
  for (int32_t x : a) ++histogram[x];
  const uint32_t nRuns = toHost(runs, 1)[0];
  check(nRuns == histogram.size(), "run_length_encode: " + std::to_string(nRuns) + " runs, want " +
                                       std::to_string(histogram.size()));
  std::vector<int32_t> wantUnique;
  std::vector<uint32_t> wantCounts;
  for (auto& [value, c] : histogram) wantUnique.push_back(value), wantCounts.push_back(c);
  expectEqual(toHost(uniqueOut, nRuns), wantUnique, "run_length_encode values");
  expectEqual(toHost(counts, nRuns), wantCounts, "run_length_encode counts");

  std::vector<int32_t> repeats(n);
  for (size_t i = 0; i < n; ++i) repeats[i] = a[i / 4] % 5;  // runs of four and longer
  int32_t* drep = toDevice(repeats);
  runWithStorage("unique", [&](void* s, size_t& b) {
    return rocprim::unique(s, b, drep, uniqueOut, count, n);
  });
  want = repeats;
  want.erase(std::unique(want.begin(), want.end()), want.end());
  expectEqual(toHost(uniqueOut, toHost(count, 1)[0]), want, "unique");

  // reduce_by_key: the sum of each run of equal keys.
  std::vector<uint32_t> ones(n);
  for (size_t i = 0; i < n; ++i) ones[i] = static_cast<uint32_t>(i % 97);
  uint32_t* dvals = toDevice(ones);
  runWithStorage("reduce_by_key", [&](void* s, size_t& b) {
    return rocprim::reduce_by_key(s, b, drep, dvals, n, uniqueOut, counts, runs,
                                  rocprim::plus<uint32_t>());
  });
  std::vector<int32_t> wantKeys;
  std::vector<uint32_t> wantSums;
  for (size_t i = 0; i < n; ++i) {
    if (i == 0 || repeats[i] != repeats[i - 1])
      wantKeys.push_back(repeats[i]), wantSums.push_back(0);
    wantSums.back() += ones[i];
  }
  const uint32_t nKeys = toHost(runs, 1)[0];
  expectEqual(toHost(uniqueOut, nKeys), wantKeys, "reduce_by_key keys");
  expectEqual(toHost(counts, nKeys), wantSums, "reduce_by_key sums");

  // histogram_even over [0, 1000) in 64 bins: rocPRIM's integer levels make a bin
  // (1000 - 0) / 64 = 15 wide (rocprim/device/detail/device_histogram.hpp, sample_to_bin_even),
  // so values from 960 up fall past the last bin and are not counted.
  uint32_t* bins = toDevice(std::vector<uint32_t>(64));
  runWithStorage("histogram_even", [&](void* s, size_t& b) {
    return rocprim::histogram_even(s, b, in, static_cast<unsigned>(n), bins, 65u, 0, 1000);
  });
  std::vector<uint32_t> wantBins(64);
  for (int32_t x : a)
    if (x / 15 < 64) ++wantBins[x / 15];
  expectEqual(toHost(bins, 64), wantBins, "histogram_even (64 bins)");
  for (void* p :
       {static_cast<void*>(in), static_cast<void*>(out), static_cast<void*>(count),
        static_cast<void*>(dflags), static_cast<void*>(dsorted), static_cast<void*>(uniqueOut),
        static_cast<void*>(counts), static_cast<void*>(runs), static_cast<void*>(drep),
        static_cast<void*>(dvals), static_cast<void*>(bins)})
    HIP_OK(hipFree(p));
}

void mergesAndSearches() {
  const size_t n = 40000;
  std::vector<int32_t> a = randomValues<int32_t>(n, 100000);
  int32_t* in = toDevice(a);
  int32_t* out = toDevice(std::vector<int32_t>(n));
  runWithStorage("merge_sort", [&](void* s, size_t& b) {
    return rocprim::merge_sort(s, b, in, out, n, rocprim::greater<int32_t>());
  });
  std::vector<int32_t> want = a;
  std::sort(want.begin(), want.end(), std::greater<int32_t>());
  expectEqual(toHost(out, n), want, "merge_sort (descending)");

  std::vector<int32_t> x = randomValues<int32_t>(17000, 50000),
                       y = randomValues<int32_t>(22999, 50000);
  std::sort(x.begin(), x.end());
  std::sort(y.begin(), y.end());
  int32_t* dx = toDevice(x);
  int32_t* dy = toDevice(y);
  runWithStorage("merge", [&](void* s, size_t& b) {
    return rocprim::merge(s, b, dx, dy, out, x.size(), y.size());
  });
  want.resize(x.size() + y.size());
  std::merge(x.begin(), x.end(), y.begin(), y.end(), want.begin());
  expectEqual(toHost(out, want.size()), want, "merge of two sorted ranges");

  // lower_bound and upper_bound of 5,000 needles in the sorted y.
  std::vector<int32_t> needles = randomValues<int32_t>(5000, 51000);
  int32_t* dneedles = toDevice(needles);
  uint32_t* where = toDevice(std::vector<uint32_t>(needles.size()));
  std::vector<uint32_t> wantLower(needles.size()), wantUpper(needles.size());
  for (size_t i = 0; i < needles.size(); ++i) {
    wantLower[i] = std::lower_bound(y.begin(), y.end(), needles[i]) - y.begin();
    wantUpper[i] = std::upper_bound(y.begin(), y.end(), needles[i]) - y.begin();
  }
  runWithStorage("lower_bound", [&](void* s, size_t& b) {
    return rocprim::lower_bound(s, b, dy, dneedles, where, y.size(), needles.size());
  });
  expectEqual(toHost(where, needles.size()), wantLower, "lower_bound");
  runWithStorage("upper_bound", [&](void* s, size_t& b) {
    return rocprim::upper_bound(s, b, dy, dneedles, where, y.size(), needles.size());
  });
  expectEqual(toHost(where, needles.size()), wantUpper, "upper_bound");
  for (void* p : {static_cast<void*>(in), static_cast<void*>(out), static_cast<void*>(dx),
                  static_cast<void*>(dy), static_cast<void*>(dneedles), static_cast<void*>(where)})
    HIP_OK(hipFree(p));
}

}  // namespace

int main() {
  printDevice();
  Timer t;
  radixSortKeys();
  radixSortPairs();
  scansAndReductions();
  selectionAndRuns();
  mergesAndSearches();
  printDigest("rocprim", gDigest);
  std::printf("%d failures (%.1f s)\n", failures(), t.seconds());
  return failures() == 0 ? 0 : 1;
}
