// VOPC: vector compares and v_cmpx (Vega ISA guide 12.9 "VOPC Instructions"). The 198 opcodes
// are a regular grid (type x condition x cmp/cmpx), so the table is generated from it; each
// entry's lane function is a template instance (one vectorisable loop per condition and type).
#include <array>
#include <cstring>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "isa/ValuMath.h"

namespace vgpu::isa {
namespace {

enum Kind { kF16, kF32, kF64, kI16, kU16, kI32, kU32, kI64, kU64 };

template <int K>
auto value(uint64_t v) {
  if constexpr (K == kF16)
    return h(v);
  else if constexpr (K == kF32)
    return f(v);
  else if constexpr (K == kF64)
    return dbl(v);
  else if constexpr (K == kI16)
    return i16(v);
  else if constexpr (K == kU16)
    return u16(v);
  else if constexpr (K == kI32)
    return i32(v);
  else if constexpr (K == kU32)
    return u32(v);
  else if constexpr (K == kI64)
    return i64(v);
  else
    return v;
}

// Float conditions 0..15: F LT EQ LE GT LG GE O U NGE NLG NGT NLE NEQ NLT TRU.
template <int C, class T>
bool floatCond(T a, T b) {
  switch (C) {
    case 0:
      return false;
    case 1:
      return a < b;
    case 2:
      return a == b;
    case 3:
      return a <= b;
    case 4:
      return a > b;
    case 5:
      return a < b || a > b;
    case 6:
      return a >= b;
    case 7:
      return !std::isnan(a) && !std::isnan(b);
    case 8:
      return std::isnan(a) || std::isnan(b);
    case 9:
      return !(a >= b);
    case 10:
      return !(a < b || a > b);
    case 11:
      return !(a > b);
    case 12:
      return !(a <= b);
    case 13:
      return !(a == b);
    case 14:
      return !(a < b);
    default:
      return true;
  }
}
// Integer conditions 0..7: F LT EQ LE GT NE GE T.
template <int C, class T>
bool intCond(T a, T b) {
  switch (C) {
    case 0:
      return false;
    case 1:
      return a < b;
    case 2:
      return a == b;
    case 3:
      return a <= b;
    case 4:
      return a > b;
    case 5:
      return a != b;
    case 6:
      return a >= b;
    default:
      return true;
  }
}

// 64-bit integer condition C on 32-bit halves (a = ah:al, b = bh:bl): the same answer as
// intCond on the 64-bit values (which the other forms use), in operations SSE2 has (it has no
// 64-bit compares), so the loop over every lane (compareAll64) vectorises.
template <int C, bool Signed>
bool intCond64(uint32_t al, uint32_t ah, uint32_t bl, uint32_t bh) {
  const bool hiLess = Signed ? static_cast<int32_t>(ah) < static_cast<int32_t>(bh) : ah < bh;
  const bool hiMore = Signed ? static_cast<int32_t>(ah) > static_cast<int32_t>(bh) : ah > bh;
  const bool hiEqual = ah == bh;
  const bool less = hiLess | (hiEqual & (al < bl));
  const bool more = hiMore | (hiEqual & (al > bl));
  const bool equal = hiEqual & (al == bl);
  switch (C) {
    case 0:
      return false;
    case 1:
      return less;
    case 2:
      return equal;
    case 3:
      return !more;
    case 4:
      return more;
    case 5:
      return !equal;
    case 6:
      return !less;
    default:
      return true;
  }
}

// One lane of a compare (Valu.h lanes::*: instantiated in every loop form).
template <int K, int C>
struct CompareLane {
  __attribute__((always_inline)) static void run(ValuLaneState&, int, uint64_t a, uint64_t b,
                                                 uint64_t, bool, uint64_t&, bool& cc) {
    if constexpr (K == kF16 || K == kF32 || K == kF64) {
      cc = floatCond<C>(value<K>(a), value<K>(b));
    } else {
      cc = intCond<C>(value<K>(a), value<K>(b));
    }
  }
};

template <int K>
struct ClassLane {
  __attribute__((always_inline)) static void run(ValuLaneState&, int, uint64_t bits, uint64_t mask,
                                                 uint64_t, bool, uint64_t&, bool& cc) {
    bool quiet;
    if constexpr (K == kF16) {
      // A binary16 denormal is a normal number once widened to float: classify it from its
      // bits (exponent 0, mantissa not 0), bit 4 (-denormal) or 7 (+denormal) of the mask.
      if (((bits >> 10) & 0x1f) == 0 && (bits & 0x3ff) != 0) {
        cc = (u32(mask) >> (((bits >> 15) & 1) ? 4 : 7)) & 1;
        return;
      }
      quiet = (bits >> 9) & 1;
    } else if constexpr (K == kF32)
      quiet = (bits >> 22) & 1;
    else
      quiet = (bits >> 51) & 1;
    cc = math::fpClass(value<K>(bits), u32(mask), quiet);
  }
};

// A 64-bit integer compare over every lane, its sources as dword pairs (the halves go straight
// to intCond64, so the loop is 32-bit operations only and vectorises), results into L.cc.
template <int K, int C>
void compareAll64(ValuLaneState& L, const ValuOperands& s) {
  const uint32_t* __restrict a0 = s.lo[0];
  const uint32_t* __restrict a1 = s.hi[0];
  const uint32_t* __restrict b0 = s.lo[1];
  const uint32_t* __restrict b1 = s.hi[1];
  alignas(16) uint8_t cc[kWaveSize];
  for (int i = 0; i < kWaveSize; ++i) cc[i] = intCond64<C, K == kI64>(a0[i], a1[i], b0[i], b1[i]);
  std::memcpy(L.cc, cc, sizeof cc);
}

// The compare's kernel: its in-place forms, with the loop above for 64-bit integers.
template <int K, int C>
ValuKernel compareKernel() {
  ValuKernel k = valuKernel<CompareLane<K, C>, false>();
  if constexpr (K == kI64 || K == kU64) {
    static constexpr ValuLaneForms forms =
        lanes::formsOf<CompareLane<K, C>, false>(&compareAll64<K, C>);
    k.forms = &forms;
  }
  return k;
}

template <int K, int... C>
std::array<ValuKernel, sizeof...(C)> compareKernels(std::integer_sequence<int, C...>) {
  return {compareKernel<K, C>()...};
}

struct Grid {
  int base;  // opcode of the F condition
  const char* type;
  Ty ty;
  bool isFloat;
  const ValuKernel* kernels;
};

std::vector<OpInfo> buildTable() {
  static const auto f16 = compareKernels<kF16>(std::make_integer_sequence<int, 16>{});
  static const auto f32 = compareKernels<kF32>(std::make_integer_sequence<int, 16>{});
  static const auto f64 = compareKernels<kF64>(std::make_integer_sequence<int, 16>{});
  static const auto i16 = compareKernels<kI16>(std::make_integer_sequence<int, 8>{});
  static const auto u16 = compareKernels<kU16>(std::make_integer_sequence<int, 8>{});
  static const auto i32 = compareKernels<kI32>(std::make_integer_sequence<int, 8>{});
  static const auto u32 = compareKernels<kU32>(std::make_integer_sequence<int, 8>{});
  static const auto i64 = compareKernels<kI64>(std::make_integer_sequence<int, 8>{});
  static const auto u64 = compareKernels<kU64>(std::make_integer_sequence<int, 8>{});
  static const char* const kFloatConds[] = {"f", "lt",  "eq",  "le",  "gt",  "lg",  "ge",  "o",
                                            "u", "nge", "nlg", "ngt", "nle", "neq", "nlt", "tru"};
  static const char* const kIntConds[] = {"f", "lt", "eq", "le", "gt", "ne", "ge", "t"};
  const Grid grids[] = {
      {0x20, "f16", Ty::F16, true, f16.data()},  {0x40, "f32", Ty::F32, true, f32.data()},
      {0x60, "f64", Ty::F64, true, f64.data()},  {0xa0, "i16", Ty::I16, false, i16.data()},
      {0xa8, "u16", Ty::B16, false, u16.data()}, {0xc0, "i32", Ty::I32, false, i32.data()},
      {0xc8, "u32", Ty::B32, false, u32.data()}, {0xe0, "i64", Ty::I64, false, i64.data()},
      {0xe8, "u64", Ty::B64, false, u64.data()},
  };
  static std::deque<std::string> names;  // stable storage for the generated mnemonics
  std::vector<OpInfo> ops;
  auto add = [&](int opcode, std::string name, Ty a, Ty b, const ValuKernel& fn, bool cmpx) {
    names.push_back(std::move(name));
    OpInfo o;
    o.name = names.back().c_str();
    o.enc = Enc::Vopc;
    o.opcode = static_cast<int16_t>(opcode);
    o.vop3 = static_cast<int16_t>(opcode);  // VOPC opcodes are VOP3 opcodes 0..255
    o.dst = Ty::B64;
    o.src0 = a;
    o.src1 = b;
    o.flags = cmpx ? static_cast<uint32_t>(kCmpx) : 0u;
    o.exec = execValu;
    o.valu = fn.wide;
    // The in-place forms for 32- and 64-bit operands.
    o.valuForms = isDwordsType(a) && isDwordsType(b) ? fn.forms : nullptr;
    o.issue = IssueType::Valu;
    o.exec = valuExecutor(o);
    ops.push_back(o);
  };
  // Class tests: 0x10.. (f32, f64, f16), each followed by its cmpx form.
  const struct {
    int op;
    const char* t;
    Ty ty;
    ValuKernel fn;
  } classes[] = {
      {0x10, "f32", Ty::F32, valuKernel<ClassLane<kF32>, false>()},
      {0x12, "f64", Ty::F64, valuKernel<ClassLane<kF64>, false>()},
      {0x14, "f16", Ty::F16, valuKernel<ClassLane<kF16>, false>()},
  };
  for (const auto& c : classes) {
    add(c.op, std::string("v_cmp_class_") + c.t, c.ty, Ty::B32, c.fn, false);
    add(c.op + 1, std::string("v_cmpx_class_") + c.t, c.ty, Ty::B32, c.fn, true);
  }
  for (const Grid& g : grids) {
    const int conds = g.isFloat ? 16 : 8;
    // Float grids put cmpx 16 opcodes after cmp; 16-bit integer grids interleave i16/u16
    // blocks of 8 with their cmpx blocks 16 later; 32/64-bit likewise.
    const int cmpxOffset = 16;
    for (int c = 0; c < conds; ++c) {
      const char* cond = g.isFloat ? kFloatConds[c] : kIntConds[c];
      add(g.base + c, std::string("v_cmp_") + cond + "_" + g.type, g.ty, g.ty, g.kernels[c], false);
      add(g.base + cmpxOffset + c, std::string("v_cmpx_") + cond + "_" + g.type, g.ty, g.ty,
          g.kernels[c], true);
    }
  }
  return ops;
}

}  // namespace

OpTable vopcTable() {
  static const std::vector<OpInfo> ops = buildTable();
  return {ops.data(), static_cast<int>(ops.size())};
}

}  // namespace vgpu::isa
