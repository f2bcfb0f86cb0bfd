// Debian's rocSPARSE 5.3 solvers and sparse products through its public API on the GPU:
// triangular solves (rocsparse_scsrsv_*: lower, lower transposed, upper), the incomplete LU
// factorisation ILU(0) (rocsparse_scsrilu0_*) and the sparse matrix product (csrgemm). The
// solvers' kernels make rows wait for the rows they depend on by spinning on flags in global
// memory that other workgroups set, so they also check that waves of one workgroup see what
// another wrote, with the dependency chains running across compute units.
//
// Every expected value is exact, so results must equal the CPU's whatever the order of the
// GPU's sums (integers below 2^24 are exact in float):
// - a solve T y = b is set up from a chosen integer solution x, with b = T x computed on the CPU
//   and a diagonal of +-1: if the rows y depends on are exact, row i's sum is an exact integer
//   and its division by +-1 exact, so y = x exactly, by induction over the rows;
// - ILU(0) runs on A = L U, the product of a unit lower and an upper triangular integer matrix
//   with a diagonal of +-1, stored with the pattern of L + U as well as of the product: the
//   exact factors then fit in A's pattern, so ILU(0) is the exact LU factorisation (Saad,
//   "Iterative Methods for Sparse Linear Systems", 2nd ed., 10.3: ILU(0) is exact when no fill
//   falls outside the pattern), and with pivots of +-1 every step is exact in integers;
// - csrgemm's entries are sums of products of small integers.
#include <rocsparse/rocsparse.h>

#include <algorithm>
#include <map>
#include <random>

#include "RocmCheck.h"
#include "SparseCpu.h"

using namespace rocmcheck;

namespace {

rocsparse_handle gHandle;

// A square triangular integer matrix: `perRow` random off-diagonal entries in -2..2 (never 0) in
// each row, on the lower or upper side, and a diagonal of +1 or -1.
Csr randomTriangular(const std::string& name, int m, int perRow, bool lower, unsigned seed) {
  std::mt19937 rng(seed);
  Csr a;
  a.name = name, a.m = a.n = m;
  a.rowPtr.push_back(0);
  for (int i = 0; i < m; ++i) {
    std::map<int, float> row;
    const int others = lower ? i : m - 1 - i;
    for (int k = 0; k < perRow && others > 0; ++k) {
      const int offset = 1 + static_cast<int>(rng() % others);
      const int v = static_cast<int>(rng() % 4);  // -2, -1, 1, 2
      row[lower ? i - offset : i + offset] = static_cast<float>(v < 2 ? v - 2 : v - 1);
    }
    row[i] = (rng() & 1) ? 1.0f : -1.0f;
    for (const auto& e : row) a.col.push_back(e.first), a.val.push_back(e.second);
    a.rowPtr.push_back(a.nnz());
  }
  return a;
}

// b = op(T) x on the CPU (exact: small integers).
std::vector<float> multiply(const Csr& t, bool transpose, const std::vector<float>& x) {
  std::vector<float> b(t.m, 0.0f);
  for (int i = 0; i < t.m; ++i)
    for (int k = t.rowPtr[i]; k < t.rowPtr[i + 1]; ++k) {
      if (transpose)
        b[t.col[k]] += t.val[k] * x[i];
      else
        b[i] += t.val[k] * x[t.col[k]];
    }
  return b;
}

// compare() (SparseCpu.h) with exact values: every element equal.
void exactlyEqual(const std::vector<float>& got, const std::vector<float>& want,
                  const std::string& what) {
  compare(got, std::vector<double>(want.begin(), want.end()), {}, true, what);
}

// Solves op(T) y = alpha b for y, b made from a chosen integer solution.
void triangularSolve(const Csr& t, bool lower, bool transpose, unsigned seed) {
  const std::vector<float> x = randomVector(t.m, true, seed);
  const float alpha = 1.0f;
  const std::vector<float> b = multiply(t, transpose, x);
  const DeviceCsr d(t);
  rocsparse_mat_descr descr;
  rocsparse_mat_info info;
  LIB_OK(rocsparse_create_mat_descr(&descr));
  LIB_OK(rocsparse_set_mat_fill_mode(
      descr, lower ? rocsparse_fill_mode_lower : rocsparse_fill_mode_upper));
  LIB_OK(rocsparse_create_mat_info(&info));
  const rocsparse_operation op =
      transpose ? rocsparse_operation_transpose : rocsparse_operation_none;
  size_t bytes = 0;
  LIB_OK(rocsparse_scsrsv_buffer_size(gHandle, op, t.m, t.nnz(), descr, d.val, d.rowPtr, d.col,
                                      info, &bytes));
  void* buffer = nullptr;
  HIP_OK(hipMalloc(&buffer, std::max<size_t>(bytes, 4)));
  LIB_OK(rocsparse_scsrsv_analysis(gHandle, op, t.m, t.nnz(), descr, d.val, d.rowPtr, d.col, info,
                                   rocsparse_analysis_policy_reuse, rocsparse_solve_policy_auto,
                                   buffer));
  float* db = toDevice(b);
  float* dy = toDevice(std::vector<float>(t.m, 0.0f));
  LIB_OK(rocsparse_scsrsv_solve(gHandle, op, t.m, t.nnz(), &alpha, descr, d.val, d.rowPtr, d.col,
                                info, db, dy, rocsparse_solve_policy_auto, buffer));
  rocsparse_int pivot = -1;
  check(rocsparse_csrsv_zero_pivot(gHandle, descr, info, &pivot) == rocsparse_status_success,
        t.name + ": csrsv reports a zero pivot at row " + std::to_string(pivot));
  const std::string what = t.name + (transpose ? ": csrsv transposed" : ": csrsv");
  const std::vector<float> y = toHost(dy, t.m);
  keep(what, y);
  exactlyEqual(y, x, what);
  HIP_OK(hipFree(buffer));
  HIP_OK(hipFree(db));
  HIP_OK(hipFree(dy));
  LIB_OK(rocsparse_destroy_mat_info(info));
  LIB_OK(rocsparse_destroy_mat_descr(descr));
}

// ILU(0) of A = L U; the result holds L's strict lower part and U in A's pattern.
void incompleteLu(int m, int perRow, unsigned seed) {
  const Csr l = randomTriangular("L", m, perRow, true, seed);
  const Csr u = randomTriangular("U", m, perRow, false, seed + 1);
  // L with a unit diagonal; A = L U with the positions of L and U kept even where it is 0.
  std::vector<std::map<int, float>> lRows(m), uRows(m), aRows(m);
  for (int i = 0; i < m; ++i) {
    for (int k = l.rowPtr[i]; k < l.rowPtr[i + 1]; ++k)
      lRows[i][l.col[k]] = l.col[k] == i ? 1.0f : l.val[k];
    for (int k = u.rowPtr[i]; k < u.rowPtr[i + 1]; ++k) uRows[i][u.col[k]] = u.val[k];
  }
  for (int i = 0; i < m; ++i) {
    for (const auto& e : lRows[i]) aRows[i][e.first] += 0.0f;
    for (const auto& e : uRows[i]) aRows[i][e.first] += 0.0f;
    for (const auto& lik : lRows[i])
      for (const auto& ukj : uRows[lik.first]) aRows[i][ukj.first] += lik.second * ukj.second;
  }
  Csr a;
  a.name = "ILU(0) of L U, " + std::to_string(m) + " rows";
  a.m = a.n = m;
  a.rowPtr.push_back(0);
  std::vector<float> want;
  for (int i = 0; i < m; ++i) {
    for (const auto& e : aRows[i]) {
      const int j = e.first;
      a.col.push_back(j), a.val.push_back(e.second);
      // The factors' entry at (i, j): L's below the diagonal, U's on and above it, else 0.
      const auto& f = j < i ? lRows[i] : uRows[i];
      const auto it = f.find(j);
      want.push_back(it == f.end() ? 0.0f : it->second);
    }
    a.rowPtr.push_back(a.nnz());
  }
  const DeviceCsr d(a);
  rocsparse_mat_descr descr;
  rocsparse_mat_info info;
  LIB_OK(rocsparse_create_mat_descr(&descr));
  LIB_OK(rocsparse_create_mat_info(&info));
  size_t bytes = 0;
  LIB_OK(rocsparse_scsrilu0_buffer_size(gHandle, m, a.nnz(), descr, d.val, d.rowPtr, d.col, info,
                                        &bytes));
  void* buffer = nullptr;
  HIP_OK(hipMalloc(&buffer, std::max<size_t>(bytes, 4)));
  LIB_OK(rocsparse_scsrilu0_analysis(gHandle, m, a.nnz(), descr, d.val, d.rowPtr, d.col, info,
                                     rocsparse_analysis_policy_reuse, rocsparse_solve_policy_auto,
                                     buffer));
  LIB_OK(rocsparse_scsrilu0(gHandle, m, a.nnz(), descr, d.val, d.rowPtr, d.col, info,
                            rocsparse_solve_policy_auto, buffer));
  rocsparse_int pivot = -1;
  check(rocsparse_csrilu0_zero_pivot(gHandle, info, &pivot) == rocsparse_status_success,
        a.name + ": csrilu0 reports a zero pivot at row " + std::to_string(pivot));
  const std::vector<float> got = toHost(d.val, a.nnz());
  keep(a.name, got);
  exactlyEqual(got, want, a.name + " (" + std::to_string(a.nnz()) + " entries)");
  HIP_OK(hipFree(buffer));
  LIB_OK(rocsparse_destroy_mat_info(info));
  LIB_OK(rocsparse_destroy_mat_descr(descr));
}

// C = A B for integer matrices: C's pattern (columns ascending in each row) and values.
void sparseProduct(const Csr& a, const Csr& b) {
  std::vector<int> wantPtr{0}, wantCol;
  std::vector<float> wantVal;
  for (int i = 0; i < a.m; ++i) {
    std::map<int, float> row;
    for (int k = a.rowPtr[i]; k < a.rowPtr[i + 1]; ++k)
      for (int t = b.rowPtr[a.col[k]]; t < b.rowPtr[a.col[k] + 1]; ++t)
        row[b.col[t]] += a.val[k] * b.val[t];
    for (const auto& e : row) wantCol.push_back(e.first), wantVal.push_back(e.second);
    wantPtr.push_back(static_cast<int>(wantCol.size()));
  }
  const DeviceCsr da(a), db(b);
  rocsparse_mat_descr descr;
  rocsparse_mat_info info;
  LIB_OK(rocsparse_create_mat_descr(&descr));
  LIB_OK(rocsparse_create_mat_info(&info));
  const rocsparse_operation none = rocsparse_operation_none;
  const float alpha = 1.0f;
  size_t bytes = 0;
  LIB_OK(rocsparse_scsrgemm_buffer_size(gHandle, none, none, a.m, b.n, a.n, &alpha, descr, a.nnz(),
                                        da.rowPtr, da.col, descr, b.nnz(), db.rowPtr, db.col,
                                        nullptr, nullptr, 0, nullptr, nullptr, info, &bytes));
  void* buffer = nullptr;
  HIP_OK(hipMalloc(&buffer, std::max<size_t>(bytes, 4)));
  int* cPtr = nullptr;
  HIP_OK(hipMalloc(&cPtr, (a.m + 1) * sizeof(int)));
  rocsparse_int nnz = -1;
  LIB_OK(rocsparse_csrgemm_nnz(gHandle, none, none, a.m, b.n, a.n, descr, a.nnz(), da.rowPtr,
                               da.col, descr, b.nnz(), db.rowPtr, db.col, nullptr, 0, nullptr,
                               nullptr, descr, cPtr, &nnz, info, buffer));
  const std::string what = a.name + " times " + b.name + ": csrgemm";
  check(nnz == static_cast<int>(wantCol.size()),
        what + ": " + std::to_string(nnz) + " entries, expected " + std::to_string(wantCol.size()));
  float* cVal = nullptr;
  int* cCol = nullptr;
  HIP_OK(hipMalloc(&cVal, std::max(1, nnz) * sizeof(float)));
  HIP_OK(hipMalloc(&cCol, std::max(1, nnz) * sizeof(int)));
  LIB_OK(rocsparse_scsrgemm(gHandle, none, none, a.m, b.n, a.n, &alpha, descr, a.nnz(), da.val,
                            da.rowPtr, da.col, descr, b.nnz(), db.val, db.rowPtr, db.col, nullptr,
                            nullptr, 0, nullptr, nullptr, nullptr, descr, cVal, cPtr, cCol, info,
                            buffer));
  const std::vector<int> gotPtr = toHost(cPtr, a.m + 1);
  keep(what + " row pointers", gotPtr);
  check(gotPtr == wantPtr, what + ": row pointers differ from the CPU's");
  if (nnz == static_cast<int>(wantCol.size())) {
    const std::vector<int> gotCol = toHost(cCol, nnz);
    const std::vector<float> gotVal = toHost(cVal, nnz);
    keep(what + " columns", gotCol);
    keep(what + " values", gotVal);
    check(gotCol == wantCol, what + ": column indices differ from the CPU's");
    exactlyEqual(gotVal, wantVal, what + " values");
  }
  HIP_OK(hipFree(buffer));
  HIP_OK(hipFree(cPtr));
  HIP_OK(hipFree(cVal));
  HIP_OK(hipFree(cCol));
  LIB_OK(rocsparse_destroy_mat_info(info));
  LIB_OK(rocsparse_destroy_mat_descr(descr));
}

}  // namespace

int main() {
  Timer total;
  printDevice();
  LIB_OK(rocsparse_create_handle(&gHandle));
  for (const int m : {97, 2000}) {
    Timer t;
    const std::string size = std::to_string(m) + " rows";
    const Csr lower = randomTriangular("lower triangular, " + size, m, 3, true, 20 + m);
    const Csr upper = randomTriangular("upper triangular, " + size, m, 3, false, 30 + m);
    triangularSolve(lower, true, false, 40 + m);
    triangularSolve(lower, true, true, 50 + m);
    triangularSolve(upper, false, false, 60 + m);
    std::printf("triangular solves, %s: %.1f s\n", size.c_str(), t.seconds());
  }
  {
    Timer t;
    incompleteLu(400, 2, 70);
    std::printf("ILU(0): %.1f s\n", t.seconds());
  }
  {
    Timer t;
    // Integer entries in -4..4 (never 0); B with an empty row and a full one.
    sparseProduct(randomCsr("A 300x200", 300, 200, 0.04, {0, 7}, 150, true, 80),
                  randomCsr("B 200x250", 200, 250, 0.05, {3}, 100, true, 81));
    std::printf("csrgemm: %.1f s\n", t.seconds());
  }
  LIB_OK(rocsparse_destroy_handle(gHandle));
  std::printf("rocsparse_solvers: %d failure(s), host time %.1f s\n", failures(), total.seconds());
  return failures() == 0 ? 0 : 1;
}
