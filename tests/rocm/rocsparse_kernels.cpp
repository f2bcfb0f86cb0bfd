// Debian's rocSPARSE 5.3 through its public API on the GPU, checked against CPU code
// (SparseCpu.h, and this file for the conversions): CSR SpMV (rocsparse_scsrmv without and with
// rocsparse_scsrmv_analysis, whose adaptive kernels then run; also transposed), COO SpMV, CSR times
// dense (rocsparse_scsrmm), and the conversions csr2coo, coo2csr, csr2csc, nnz counting and
// dense2csr, on random sparse matrices with empty rows and one long row (values and tolerances:
// SparseCpu.h).
#include <rocsparse/rocsparse.h>

#include <algorithm>

#include "RocmCheck.h"
#include "SparseCpu.h"

using namespace rocmcheck;

namespace {

rocsparse_handle gHandle;
rocsparse_mat_descr gDescr;

void spmv(const Csr& a, bool integers, unsigned seed) {
  const DeviceCsr d(a);
  const float alpha = 2.0f, beta = -1.0f;
  for (int transpose = 0; transpose < 2; ++transpose) {
    const int rows = transpose ? a.n : a.m, cols = transpose ? a.m : a.n;
    const std::vector<float> x = randomVector(cols, integers, seed + 1);
    const std::vector<float> y0 = randomVector(rows, integers, seed + 2);
    std::vector<double> want, bound;
    cpuSpmv(a, transpose, alpha, x, beta, y0, want, bound);
    float* dx = toDevice(x);
    const rocsparse_operation op =
        transpose ? rocsparse_operation_transpose : rocsparse_operation_none;
    // Without analysis (info = nullptr), then, not transposed, with it (the adaptive path).
    for (int adaptive = 0; adaptive < (transpose ? 1 : 2); ++adaptive) {
      rocsparse_mat_info info = nullptr;
      if (adaptive) {
        LIB_OK(rocsparse_create_mat_info(&info));
        LIB_OK(rocsparse_scsrmv_analysis(gHandle, op, a.m, a.n, a.nnz(), gDescr, d.val, d.rowPtr,
                                         d.col, info));
      }
      float* dy = toDevice(y0);
      LIB_OK(rocsparse_scsrmv(gHandle, op, a.m, a.n, a.nnz(), &alpha, gDescr, d.val, d.rowPtr,
                              d.col, info, dx, &beta, dy));
      const std::vector<float> y = toHost(dy, rows);
      const std::string what = a.name + (transpose ? ": csrmv transposed" : ": csrmv") +
                               (adaptive ? " (adaptive, after csrmv_analysis)" : "");
      keep(what, y, !integers && (transpose || adaptive));
      compare(y, want, bound, integers, what);
      HIP_OK(hipFree(dy));
      if (info) LIB_OK(rocsparse_destroy_mat_info(info));
    }
    if (!transpose) {
      // COO SpMV on the same matrix, its row indices from the CPU.
      std::vector<int> rowInd;
      for (int i = 0; i < a.m; ++i)
        for (int k = a.rowPtr[i]; k < a.rowPtr[i + 1]; ++k) rowInd.push_back(i);
      int* dRow = toDevice(rowInd);
      float* dy = toDevice(y0);
      LIB_OK(rocsparse_scoomv(gHandle, op, a.m, a.n, a.nnz(), &alpha, gDescr, d.val, dRow, d.col,
                              dx, &beta, dy));
      const std::vector<float> y = toHost(dy, rows);
      keep(a.name + ": coomv", y, !integers);
      compare(y, want, bound, integers, a.name + ": coomv");
      HIP_OK(hipFree(dy));
      HIP_OK(hipFree(dRow));
    }
    HIP_OK(hipFree(dx));
  }
}

// C (m x k) = alpha A B + beta C, B (n x k) and C column-major.
void spmm(const Csr& a, bool integers, unsigned seed) {
  const DeviceCsr d(a);
  const int k = 5;
  const float alpha = 1.0f, beta = 2.0f;
  const std::vector<float> b = randomVector(static_cast<size_t>(a.n) * k, integers, seed + 3);
  const std::vector<float> c0 = randomVector(static_cast<size_t>(a.m) * k, integers, seed + 4);
  std::vector<double> want, bound;
  for (int j = 0; j < k; ++j) {
    std::vector<float> x(b.begin() + static_cast<size_t>(j) * a.n,
                         b.begin() + static_cast<size_t>(j + 1) * a.n);
    std::vector<float> y0(c0.begin() + static_cast<size_t>(j) * a.m,
                          c0.begin() + static_cast<size_t>(j + 1) * a.m);
    std::vector<double> w, bd;
    cpuSpmv(a, false, alpha, x, beta, y0, w, bd);
    want.insert(want.end(), w.begin(), w.end());
    bound.insert(bound.end(), bd.begin(), bd.end());
  }
  float* dB = toDevice(b);
  float* dC = toDevice(c0);
  LIB_OK(rocsparse_scsrmm(gHandle, rocsparse_operation_none, rocsparse_operation_none, a.m, k, a.n,
                          a.nnz(), &alpha, gDescr, d.val, d.rowPtr, d.col, dB, a.n, &beta, dC,
                          a.m));
  const std::vector<float> c = toHost(dC, c0.size());
  keep(a.name + ": csrmm", c);
  compare(c, want, bound, integers, a.name + ": csrmm (5 columns)");
  HIP_OK(hipFree(dB));
  HIP_OK(hipFree(dC));
}

template <class T>
void expectSame(const std::vector<T>& got, const std::vector<T>& want, const std::string& what) {
  check(got.size() == want.size() &&
            std::memcmp(got.data(), want.data(), want.size() * sizeof(T)) == 0,
        what + ": differs from the CPU");
}

void conversions(const Csr& a) {
  const DeviceCsr d(a);
  // csr2coo: the row index of every entry.
  std::vector<int> rowInd;
  for (int i = 0; i < a.m; ++i)
    for (int k = a.rowPtr[i]; k < a.rowPtr[i + 1]; ++k) rowInd.push_back(i);
  int* dRow = nullptr;
  HIP_OK(hipMalloc(&dRow, std::max(1, a.nnz()) * sizeof(int)));
  LIB_OK(rocsparse_csr2coo(gHandle, d.rowPtr, a.nnz(), a.m, dRow, rocsparse_index_base_zero));
  std::vector<int> got = toHost(dRow, a.nnz());
  keep(a.name + ": csr2coo", got);
  expectSame(got, rowInd, a.name + ": csr2coo");
  // coo2csr back from the CPU's row indices.
  int* dPtr = nullptr;
  HIP_OK(hipMalloc(&dPtr, (a.m + 1) * sizeof(int)));
  HIP_OK(hipMemcpy(dRow, rowInd.data(), rowInd.size() * sizeof(int), hipMemcpyHostToDevice));
  LIB_OK(rocsparse_coo2csr(gHandle, dRow, a.nnz(), a.m, dPtr, rocsparse_index_base_zero));
  got = toHost(dPtr, a.m + 1);
  keep(a.name + ": coo2csr", got);
  expectSame(got, a.rowPtr, a.name + ": coo2csr");
  HIP_OK(hipFree(dRow));
  HIP_OK(hipFree(dPtr));

  // csr2csc: the transpose in CSR form, row indices ascending within each column.
  std::vector<int> colPtr(a.n + 1, 0), cscRow(a.nnz());
  std::vector<float> cscVal(a.nnz());
  for (int c : a.col) ++colPtr[c + 1];
  for (int j = 0; j < a.n; ++j) colPtr[j + 1] += colPtr[j];
  std::vector<int> next(colPtr.begin(), colPtr.end() - 1);
  for (int i = 0; i < a.m; ++i)
    for (int k = a.rowPtr[i]; k < a.rowPtr[i + 1]; ++k) {
      cscRow[next[a.col[k]]] = i;
      cscVal[next[a.col[k]]++] = a.val[k];
    }
  size_t bufferBytes = 0;
  LIB_OK(rocsparse_csr2csc_buffer_size(gHandle, a.m, a.n, a.nnz(), d.rowPtr, d.col,
                                       rocsparse_action_numeric, &bufferBytes));
  void* buffer = nullptr;
  HIP_OK(hipMalloc(&buffer, std::max<size_t>(bufferBytes, 4)));
  float* dCscVal = nullptr;
  int *dCscRow = nullptr, *dColPtr = nullptr;
  HIP_OK(hipMalloc(&dCscVal, std::max(1, a.nnz()) * sizeof(float)));
  HIP_OK(hipMalloc(&dCscRow, std::max(1, a.nnz()) * sizeof(int)));
  HIP_OK(hipMalloc(&dColPtr, (a.n + 1) * sizeof(int)));
  LIB_OK(rocsparse_scsr2csc(gHandle, a.m, a.n, a.nnz(), d.val, d.rowPtr, d.col, dCscVal, dCscRow,
                            dColPtr, rocsparse_action_numeric, rocsparse_index_base_zero, buffer));
  const std::vector<int> gotPtr = toHost(dColPtr, a.n + 1), gotRow = toHost(dCscRow, a.nnz());
  const std::vector<float> gotVal = toHost(dCscVal, a.nnz());
  keep(a.name + ": csr2csc column pointers", gotPtr);
  keep(a.name + ": csr2csc row indices", gotRow);
  keep(a.name + ": csr2csc values", gotVal);
  expectSame(gotPtr, colPtr, a.name + ": csr2csc column pointers");
  expectSame(gotRow, cscRow, a.name + ": csr2csc row indices");
  expectSame(gotVal, cscVal, a.name + ": csr2csc values");
  HIP_OK(hipFree(buffer));
  HIP_OK(hipFree(dCscVal));
  HIP_OK(hipFree(dCscRow));
  HIP_OK(hipFree(dColPtr));

  // The dense column-major matrix (leading dimension m + 3): nnz per row, then dense2csr.
  const int ld = a.m + 3;
  std::vector<float> dense(static_cast<size_t>(ld) * a.n, 0.0f);
  for (int i = 0; i < a.m; ++i)
    for (int k = a.rowPtr[i]; k < a.rowPtr[i + 1]; ++k)
      dense[static_cast<size_t>(a.col[k]) * ld + i] = a.val[k];
  std::vector<int> perRow(a.m);
  for (int i = 0; i < a.m; ++i) perRow[i] = a.rowPtr[i + 1] - a.rowPtr[i];
  float* dDense = toDevice(dense);
  int* dPerRow = nullptr;
  HIP_OK(hipMalloc(&dPerRow, a.m * sizeof(int)));
  int total = -1;
  LIB_OK(rocsparse_snnz(gHandle, rocsparse_direction_row, a.m, a.n, gDescr, dDense, ld, dPerRow,
                        &total));
  const std::vector<int> gotPerRow = toHost(dPerRow, a.m);
  keep(a.name + ": nnz per row", gotPerRow);
  expectSame(gotPerRow, perRow, a.name + ": nnz per row of the dense matrix");
  check(total == a.nnz(), a.name + ": nnz of the dense matrix " + std::to_string(total));
  float* dVal = nullptr;
  int *dRowPtr = nullptr, *dCol = nullptr;
  HIP_OK(hipMalloc(&dVal, std::max(1, a.nnz()) * sizeof(float)));
  HIP_OK(hipMalloc(&dRowPtr, (a.m + 1) * sizeof(int)));
  HIP_OK(hipMalloc(&dCol, std::max(1, a.nnz()) * sizeof(int)));
  LIB_OK(rocsparse_sdense2csr(gHandle, a.m, a.n, gDescr, dDense, ld, dPerRow, dVal, dRowPtr, dCol));
  const std::vector<int> gotRowPtr = toHost(dRowPtr, a.m + 1), gotCol = toHost(dCol, a.nnz());
  const std::vector<float> gotV = toHost(dVal, a.nnz());
  keep(a.name + ": dense2csr row pointers", gotRowPtr);
  keep(a.name + ": dense2csr column indices", gotCol);
  keep(a.name + ": dense2csr values", gotV);
  expectSame(gotRowPtr, a.rowPtr, a.name + ": dense2csr row pointers");
  expectSame(gotCol, a.col, a.name + ": dense2csr column indices");
  expectSame(gotV, a.val, a.name + ": dense2csr values");
  HIP_OK(hipFree(dDense));
  HIP_OK(hipFree(dPerRow));
  HIP_OK(hipFree(dVal));
  HIP_OK(hipFree(dRowPtr));
  HIP_OK(hipFree(dCol));
}

}  // namespace

int main() {
  Timer total;
  printDevice();
  LIB_OK(rocsparse_create_handle(&gHandle));
  LIB_OK(rocsparse_create_mat_descr(&gDescr));
  struct Case {
    Csr a;
    bool integers;
  };
  std::vector<Case> cases;
  for (int integers = 1; integers >= 0; --integers) {
    const std::string kind = integers ? " (integer values)" : " (real values)";
    cases.push_back(
        {randomCsr("37x29" + kind, 37, 29, 0.15, {3, 10, 20, 36}, 5, integers, 11), integers != 0});
    cases.push_back(
        {randomCsr("500x400" + kind, 500, 400, 0.01, {0, 9, 18, 27, 499}, 123, integers, 12),
         integers != 0});
    // One row of 5000 entries among rows of about 10, and the first rows empty.
    cases.push_back(
        {randomCsr("300x5000 long row" + kind, 300, 5000, 0.002, {0, 1, 2, 3, 4}, 7, integers, 13),
         integers != 0});
  }
  unsigned seed = 100;
  for (const Case& c : cases) {
    Timer t;
    spmv(c.a, c.integers, seed);
    spmm(c.a, c.integers, seed);
    conversions(c.a);
    std::printf("%s: %d entries, %.1f s\n", c.a.name.c_str(), c.a.nnz(), t.seconds());
    seed += 10;
  }
  LIB_OK(rocsparse_destroy_mat_descr(gDescr));
  LIB_OK(rocsparse_destroy_handle(gHandle));
  std::printf("rocsparse_kernels: %d failure(s), host time %.1f s\n", failures(), total.seconds());
  return failures() == 0 ? 0 : 1;
}
