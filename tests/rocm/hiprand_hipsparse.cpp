// Debian's hipRAND and hipSPARSE 5.3 (the portable interfaces, here over rocRAND and
// rocSPARSE) through their public APIs on the GPU: hipRAND's Philox4x32-10 generator bit-exact
// against the CPU Philox of RocmCheck.h (words, uniform floats; normals within a stated
// tolerance), its Sobol32 dimension 1 (the van der Corput sequence) exact, and hipSPARSE's
// legacy hipsparseScsrmv, the generic hipsparseSpMV and hipsparseXcsr2coo against the CPU code
// of SparseCpu.h.
#include <hiprand/hiprand.h>
#include <hipsparse/hipsparse.h>

#include "RocmCheck.h"
#include "SparseCpu.h"

using namespace rocmcheck;

namespace {

Digest gDigest;

template <class T>
size_t differing(const std::vector<T>& a, const std::vector<T>& b) {
  size_t bad = 0;
  for (size_t i = 0; i < b.size(); ++i) bad += std::memcmp(&a[i], &b[i], sizeof(T)) != 0;
  return bad;
}

void hiprandPhilox() {
  const uint64_t seed = 0x00000000deadbeefULL ^ (uint64_t{0x1234} << 40);
  const size_t n = 20002;
  hiprandGenerator_t g = nullptr;
  LIB_OK(hiprandCreateGenerator(&g, HIPRAND_RNG_PSEUDO_PHILOX4_32_10));
  LIB_OK(hiprandSetPseudoRandomGeneratorSeed(g, seed));
  unsigned int* dw = nullptr;
  float* df = nullptr;
  HIP_OK(hipMalloc(&dw, n * 4));
  HIP_OK(hipMalloc(&df, n * 4));
  // Words 0..n-1, then uniforms from word n, then (offset 17) normals from word 17.
  LIB_OK(hiprandGenerate(g, dw, n));
  std::vector<uint32_t> words = toHost(dw, n);
  gDigest.add(words);
  size_t bad = differing(words, philoxStream(seed, 0, n));
  check(bad == 0, "hiprandGenerate (Philox): " + std::to_string(bad) + " words differ");
  LIB_OK(hiprandGenerateUniform(g, df, n));
  std::vector<float> u = toHost(df, n), wantU(n);
  gDigest.add(u);
  std::vector<uint32_t> next = philoxStream(seed, n, n);
  for (size_t i = 0; i < n; ++i) wantU[i] = uniformFloat(next[i]);
  bad = differing(u, wantU);
  check(bad == 0, "hiprandGenerateUniform (Philox): " + std::to_string(bad) + " floats differ");
  // Normals: Box-Muller on word pairs as rocRAND computes them (see rocrand_generators.cpp),
  // within 2e-4 (1 + |z|) standard deviations of the CPU's double-precision values.
  LIB_OK(hiprandSetGeneratorOffset(g, 17));
  const float mean = -3.0f, stddev = 0.5f;
  LIB_OK(hiprandGenerateNormal(g, df, n, mean, stddev));
  std::vector<float> z = toHost(df, n);
  gDigest.add(z);
  std::vector<uint32_t> w = philoxStream(seed, 17, n);
  size_t far = 0;
  for (size_t i = 0; i + 1 < n; i += 2) {
    const double r = std::sqrt(-2.0 * std::log((w[i] + 1.0) * std::ldexp(1.0, -32)));
    const double angle = 2 * M_PI * ((w[i + 1] + 1.0) * std::ldexp(1.0, -32));
    const double ref[2] = {r * std::sin(angle), r * std::cos(angle)};
    for (int j = 0; j < 2; ++j)
      if (std::fabs((z[i + j] - mean) / stddev - ref[j]) > 2e-4 * (1 + std::fabs(ref[j]))) ++far;
  }
  check(far == 0, "hiprandGenerateNormal (Philox): " + std::to_string(far) + " values too far");
  HIP_OK(hipFree(dw));
  HIP_OK(hipFree(df));
  LIB_OK(hiprandDestroyGenerator(g));
}

void hiprandSobol() {
  // Dimension 1 of Sobol's sequence is the van der Corput sequence in Gray-code order: point i
  // is the bit reversal of i ^ (i >> 1).
  const size_t n = 4096;
  hiprandGenerator_t g = nullptr;
  LIB_OK(hiprandCreateGenerator(&g, HIPRAND_RNG_QUASI_SOBOL32));
  unsigned int* d = nullptr;
  HIP_OK(hipMalloc(&d, n * 4));
  LIB_OK(hiprandGenerate(g, d, n));
  std::vector<uint32_t> got = toHost(d, n), want(n);
  gDigest.add(got);
  for (size_t i = 0; i < n; ++i) {
    const uint32_t gray = static_cast<uint32_t>(i ^ (i >> 1));
    uint32_t r = 0;
    for (int b = 0; b < 32; ++b) r |= ((gray >> b) & 1u) << (31 - b);
    want[i] = r;
  }
  const size_t bad = differing(got, want);
  check(bad == 0, "hiprand Sobol32 dimension 1: " + std::to_string(bad) + " points differ");
  HIP_OK(hipFree(d));
  LIB_OK(hiprandDestroyGenerator(g));
}

void hipsparse(const Csr& a, bool integers, unsigned seed) {
  hipsparseHandle_t h = nullptr;
  LIB_OK(hipsparseCreate(&h));
  hipsparseMatDescr_t descr = nullptr;
  LIB_OK(hipsparseCreateMatDescr(&descr));
  float* val = toDevice(a.val);
  int* rowPtr = toDevice(a.rowPtr);
  int* col = toDevice(a.col);
  const std::vector<float> x = randomVector(a.n, integers, seed + 1);
  const std::vector<float> y0 = randomVector(a.m, integers, seed + 2);
  const float alpha = -2.0f, beta = 3.0f;
  std::vector<double> want, bound;
  cpuSpmv(a, false, alpha, x, beta, y0, want, bound);
  float* dx = toDevice(x);

  float* dy = toDevice(y0);
  LIB_OK(hipsparseScsrmv(h, HIPSPARSE_OPERATION_NON_TRANSPOSE, a.m, a.n, a.nnz(), &alpha, descr,
                         val, rowPtr, col, dx, &beta, dy));
  std::vector<float> y = toHost(dy, a.m);
  keep(a.name + ": hipsparseScsrmv", y);
  compare(y, want, bound, integers, a.name + ": hipsparseScsrmv");

  // The generic API: CSR and dense vector descriptors, default algorithm, its buffer.
  HIP_OK(hipMemcpy(dy, y0.data(), a.m * sizeof(float), hipMemcpyHostToDevice));
  hipsparseSpMatDescr_t matA = nullptr;
  hipsparseDnVecDescr_t vecX = nullptr, vecY = nullptr;
  LIB_OK(hipsparseCreateCsr(&matA, a.m, a.n, a.nnz(), rowPtr, col, val, HIPSPARSE_INDEX_32I,
                            HIPSPARSE_INDEX_32I, HIPSPARSE_INDEX_BASE_ZERO, HIP_R_32F));
  LIB_OK(hipsparseCreateDnVec(&vecX, a.n, dx, HIP_R_32F));
  LIB_OK(hipsparseCreateDnVec(&vecY, a.m, dy, HIP_R_32F));
  size_t bytes = 0;
  LIB_OK(hipsparseSpMV_bufferSize(h, HIPSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matA, vecX, &beta,
                                  vecY, HIP_R_32F, HIPSPARSE_MV_ALG_DEFAULT, &bytes));
  void* buffer = nullptr;
  HIP_OK(hipMalloc(&buffer, std::max<size_t>(bytes, 4)));
  LIB_OK(hipsparseSpMV(h, HIPSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matA, vecX, &beta, vecY,
                       HIP_R_32F, HIPSPARSE_MV_ALG_DEFAULT, buffer));
  y = toHost(dy, a.m);
  // The default algorithm is rocSPARSE's adaptive csrmv (see SparseCpu.h, keep).
  keep(a.name + ": hipsparseSpMV", y, !integers);
  compare(y, want, bound, integers, a.name + ": hipsparseSpMV (CSR)");
  LIB_OK(hipsparseDestroySpMat(matA));
  LIB_OK(hipsparseDestroyDnVec(vecX));
  LIB_OK(hipsparseDestroyDnVec(vecY));
  HIP_OK(hipFree(buffer));

  // csr2coo: the row index of every entry.
  std::vector<int> rowInd;
  for (int i = 0; i < a.m; ++i)
    for (int k = a.rowPtr[i]; k < a.rowPtr[i + 1]; ++k) rowInd.push_back(i);
  int* dRow = nullptr;
  HIP_OK(hipMalloc(&dRow, std::max(1, a.nnz()) * sizeof(int)));
  LIB_OK(hipsparseXcsr2coo(h, rowPtr, a.nnz(), a.m, dRow, HIPSPARSE_INDEX_BASE_ZERO));
  const std::vector<int> got = toHost(dRow, a.nnz());
  keep(a.name + ": hipsparseXcsr2coo", got);
  check(got == rowInd, a.name + ": hipsparseXcsr2coo differs from the CPU");

  HIP_OK(hipFree(dRow));
  HIP_OK(hipFree(dx));
  HIP_OK(hipFree(dy));
  HIP_OK(hipFree(val));
  HIP_OK(hipFree(rowPtr));
  HIP_OK(hipFree(col));
  LIB_OK(hipsparseDestroyMatDescr(descr));
  LIB_OK(hipsparseDestroy(h));
}

}  // namespace

int main() {
  Timer total;
  printDevice();
  hiprandPhilox();
  hiprandSobol();
  printDigest("hiprand", gDigest);
  for (int integers = 1; integers >= 0; --integers) {
    const std::string kind = integers ? " (integer values)" : " (real values)";
    hipsparse(randomCsr("400x300" + kind, 400, 300, 0.01, {0, 50, 399}, 77, integers, 21),
              integers != 0, 200);
    hipsparse(randomCsr("200x3000 long row" + kind, 200, 3000, 0.003, {1, 2}, 199, integers, 22),
              integers != 0, 300);
  }
  std::printf("hiprand_hipsparse: %d failure(s), host time %.1f s\n", failures(), total.seconds());
  return failures() == 0 ? 0 : 1;
}
