// Value checks for the LDS (DS) and vector memory (FLAT, GLOBAL, MUBUF) instructions: loads,
// stores and atomics on one lane (EXEC = 1) with the memory's starting value, the data sent and
// the expected memory and returned values worked out here from the Vega ISA reference guide
// (section 12.13 "DS Instructions", 12.15 "MUBUF Instructions", 12.18 "FLAT, Scratch and Global
// Instructions"; atomics return the old value when GLC=1 / the _rtn form is used).
#include <gtest/gtest.h>

#include "ValueCheck.h"

namespace vgpu::isa::test {
namespace {

// One atomic: memory value, data (and second data for cmpst / mskor / wrap), new memory value.
struct Atomic {
  std::string op;
  uint64_t mem, data, data2, newMem;
};

// 32-bit atomics; names in the DS spelling (buffer/global use the names in `vmemName`).
const std::vector<Atomic>& atomics32() {
  static const std::vector<Atomic> a = {
      {"add", 0xffffffff, 2, 0, 1},
      {"sub", 1, 2, 0, 0xffffffff},
      {"rsub", 1, 5, 0, 4},
      {"inc", 7, 7, 0, 0},
      {"inc", 6, 7, 0, 7},
      {"dec", 0, 9, 0, 9},
      {"dec", 10, 9, 0, 9},
      {"dec", 5, 9, 0, 4},
      {"min_i", 0xfffffffe, 3, 0, 0xfffffffe},
      {"max_i", 0xfffffffe, 3, 0, 3},
      {"min_u", 0xfffffffe, 3, 0, 3},
      {"max_u", 0xfffffffe, 3, 0, 0xfffffffe},
      {"and", 0xff0f, 0x0ff0, 0, 0x0f00},
      {"or", 0xf000, 0x000f, 0, 0xf00f},
      {"xor", 0xff00, 0x0ff0, 0, 0xf0f0},
      // mskor: MEM = (MEM & ~DATA) | DATA2
      {"mskor", 0xffff, 0x0ff0, 0x0a50, 0xfa5f},
      {"wrxchg", 5, 9, 0, 9},
      // cmpst: MEM = MEM == DATA ? DATA2 : MEM
      {"cmpst", 10, 10, 99, 99},
      {"cmpst", 11, 10, 99, 11},
      {"cmpst_f", 0x80000000, 0, 0x3f800000, 0x3f800000},           // -0 == +0
      {"cmpst_f", 0x7fc00000, 0x7fc00000, 0x3f800000, 0x7fc00000},  // NaN != NaN
      // float min/max/add
      {"min_f", 0x40000000, 0xbf800000, 0, 0xbf800000},
      {"max_f", 0x40000000, 0xbf800000, 0, 0x40000000},
      {"add_f", 0x3fc00000, 0x40100000, 0, 0x40700000},  // 1.5 + 2.25 = 3.75
      // wrap: MEM = MEM >= DATA ? MEM - DATA : MEM + DATA2
      {"wrap", 5, 4, 10, 1},
      {"wrap", 3, 4, 10, 13},
  };
  return a;
}

const std::vector<Atomic>& atomics64() {
  static const std::vector<Atomic> a = {
      {"add", 0xffffffffull, 1, 0, 0x100000000ull},
      {"sub", 0x100000000ull, 1, 0, 0xffffffffull},
      {"rsub", 1, 0x100000001ull, 0, 0x100000000ull},
      {"inc", 0x100000000ull, 0x100000000ull, 0, 0},
      {"inc", 0xffffffffull, 0x100000000ull, 0, 0x100000000ull},
      {"dec", 0, 0x500000000ull, 0, 0x500000000ull},
      {"dec", 0x100000000ull, 0x500000000ull, 0, 0xffffffffull},
      {"min_i", 0xffffffff00000000ull, 1, 0, 0xffffffff00000000ull},
      {"max_i", 0xffffffff00000000ull, 1, 0, 1},
      {"min_u", 0xffffffff00000000ull, 1, 0, 1},
      {"max_u", 0xffffffff00000000ull, 1, 0, 0xffffffff00000000ull},
      {"and", 0xff000000ffull, 0xf0000000f0ull, 0, 0xf0000000f0ull},
      {"or", 0x100000000ull, 1, 0, 0x100000001ull},
      {"xor", 0x300000003ull, 0x100000001ull, 0, 0x200000002ull},
      {"mskor", 0xffff0000ffffull, 0xff000000ff0ull, 0x5a000000a50ull, 0xf5af0000fa5full},
      {"wrxchg", 5, 0x900000009ull, 0, 0x900000009ull},
      {"cmpst", 0x100000001ull, 0x100000001ull, 0x700000007ull, 0x700000007ull},
      {"cmpst", 0x100000001ull, 0x200000001ull, 0x700000007ull, 0x100000001ull},
      {"cmpst_f", 0x8000000000000000ull, 0, 0x3ff0000000000000ull, 0x3ff0000000000000ull},
      {"cmpst_f", 0x4000000000000000ull, 0x3ff0000000000000ull, 7, 0x4000000000000000ull},
      {"min_f", 0x4000000000000000ull, 0xbff0000000000000ull, 0, 0xbff0000000000000ull},
      {"max_f", 0x4000000000000000ull, 0xbff0000000000000ull, 0, 0x4000000000000000ull},
  };
  return a;
}

// The DS opcode of an atomic in the table: width 32 or 64, with or without _rtn.
std::string dsName(const Atomic& a, bool wide, bool rtn) {
  std::string op = a.op, type;
  if (op == "min_i" || op == "max_i") {
    type = wide ? "i64" : "i32";
    op.resize(3);
  } else if (op == "min_u" || op == "max_u") {
    type = wide ? "u64" : "u32";
    op.resize(3);
  } else if (op == "min_f" || op == "max_f" || op == "add_f" || op == "cmpst_f") {
    type = wide ? "f64" : "f32";
    op.resize(op.size() - 2);
  } else if (op == "add" || op == "sub" || op == "rsub" || op == "inc" || op == "dec") {
    type = wide ? "u64" : "u32";
  } else {
    type = wide ? "b64" : "b32";
  }
  if (op == "wrxchg") return "ds_wrxchg_rtn_" + type;
  return "ds_" + op + (rtn ? "_rtn_" : "_") + type;
}

TEST(MemoryValues, DsAtomicsMatchDefinitions) {
  std::vector<Case> cases;
  for (const bool wide : {false, true}) {
    for (const Atomic& a : wide ? atomics64() : atomics32()) {
      for (const bool rtn : {true, false}) {
        if ((a.op == "wrxchg" || a.op == "wrap") && !rtn) continue;
        const bool two = a.op == "mskor" || a.op == "cmpst" || a.op == "cmpst_f" || a.op == "wrap";
        const std::string data = wide ? "v[4:5]" : "v4", data2 = wide ? "v[6:7]" : "v6";
        const std::string dst = wide ? "v[2:3]" : "v2";
        Case c;
        c.text = dsName(a, wide, rtn) + " " + (rtn ? dst + ", " : "") + "v0, " + data +
                 (two ? ", " + data2 : "") + " offset:16";
        c.in = {{"exec", 1},
                {"v0", 0x100},
                {"lds:0x110", lo(a.mem)},
                {"lds:0x114", hi(a.mem)},
                {"v4", lo(a.data)},
                {"v5", hi(a.data)},
                {"v6", lo(a.data2)},
                {"v7", hi(a.data2)},
                {"v2", 0x5555},
                {"v3", 0x6666}};
        if (!wide) c.in[3] = {"lds:0x114", 0x12345678};  // the next dword is not touched
        c.out = {{"lds:0x110", lo(a.newMem)}, {"lds:0x114", wide ? hi(a.newMem) : 0x12345678}};
        if (rtn) {
          c.out.push_back({"v2@0", lo(a.mem)});
          if (wide) c.out.push_back({"v3@0", hi(a.mem)});
        } else {
          c.out.push_back({"v2@0", 0x5555});
        }
        cases.push_back(c);
      }
    }
  }
  checkCases(cases);
}

TEST(MemoryValues, DsLoadsAndStoresMatchDefinitions) {
  const Val one = {"exec", 1}, addr = {"v0", 0x100};
  const std::vector<Val> bytes = {one,
                                  addr,
                                  {"lds:0x100", 0x84838281},
                                  {"lds:0x104", 0x88878685},
                                  {"lds:0x108", 0x8c8b8a89},
                                  {"lds:0x10c", 0x908f8e8d},
                                  {"lds:0x200", 0xaaaa0001},
                                  {"lds:0x300", 0xbbbb0002},
                                  {"v2", 0x11112222}};
  checkCases({
      {"ds_read_b32 v2, v0 offset:4", bytes, {{"v2@0", 0x88878685}}},
      {"ds_read_b64 v[2:3], v0 offset:8", bytes, {{"v2@0", 0x8c8b8a89}, {"v3@0", 0x908f8e8d}}},
      {"ds_read_b96 v[2:4], v0", bytes, {{"v2@0", 0x84838281}, {"v4@0", 0x8c8b8a89}}},
      {"ds_read_b128 v[2:5], v0", bytes, {{"v3@0", 0x88878685}, {"v5@0", 0x908f8e8d}}},
      {"ds_read_u8 v2, v0 offset:1", bytes, {{"v2@0", 0x82}}},
      {"ds_read_i8 v2, v0 offset:1", bytes, {{"v2@0", 0xffffff82}}},
      {"ds_read_u16 v2, v0 offset:2", bytes, {{"v2@0", 0x8483}}},
      {"ds_read_i16 v2, v0 offset:2", bytes, {{"v2@0", 0xffff8483}}},
      {"ds_read_u8_d16 v2, v0 offset:3", bytes, {{"v2@0", 0x11110084}}},
      {"ds_read_i8_d16 v2, v0 offset:3", bytes, {{"v2@0", 0x1111ff84}}},
      {"ds_read_u16_d16 v2, v0 offset:4", bytes, {{"v2@0", 0x11118685}}},
      {"ds_read_u8_d16_hi v2, v0 offset:3", bytes, {{"v2@0", 0x00842222}}},
      {"ds_read_i8_d16_hi v2, v0 offset:3", bytes, {{"v2@0", 0xff842222}}},
      {"ds_read_u16_d16_hi v2, v0 offset:4", bytes, {{"v2@0", 0x86852222}}},
      // read2: offsets in dwords (qwords for b64), st64 in units of 64 of them.
      {"ds_read2_b32 v[2:3], v0 offset0:1 offset1:3",
       bytes,
       {{"v2@0", 0x88878685}, {"v3@0", 0x908f8e8d}}},
      {"ds_read2_b64 v[2:5], v0 offset0:1 offset1:0",
       bytes,
       {{"v2@0", 0x8c8b8a89}, {"v3@0", 0x908f8e8d}, {"v4@0", 0x84838281}}},
      {"ds_read2st64_b32 v[2:3], v0 offset0:1 offset1:0",
       bytes,
       {{"v2@0", 0xaaaa0001}, {"v3@0", 0x84838281}}},
      {"ds_read2st64_b64 v[2:5], v0 offset0:0 offset1:1",
       bytes,
       {{"v2@0", 0x84838281}, {"v4@0", 0xbbbb0002}}},
      {"ds_write_b32 v0, v2 offset:8",
       bytes,
       {{"lds:0x108", 0x11112222}, {"lds:0x104", 0x88878685}}},
      {"ds_write_b8 v0, v2 offset:1", bytes, {{"lds:0x100", 0x84832281}}},
      {"ds_write_b16 v0, v2 offset:2", bytes, {{"lds:0x100", 0x22228281}}},
      {"ds_write_b8_d16_hi v0, v2 offset:1", bytes, {{"lds:0x100", 0x84831181}}},
      {"ds_write_b16_d16_hi v0, v2", bytes, {{"lds:0x100", 0x84831111}}},
      {"ds_write_b64 v0, v[4:5] offset:8",
       {one, addr, {"v4", 7}, {"v5", 8}},
       {{"lds:0x108", 7}, {"lds:0x10c", 8}}},
      {"ds_write_b96 v0, v[4:6]",
       {one, addr, {"v4", 7}, {"v6", 9}},
       {{"lds:0x100", 7}, {"lds:0x108", 9}}},
      {"ds_write_b128 v0, v[4:7]",
       {one, addr, {"v5", 8}, {"v7", 10}},
       {{"lds:0x104", 8}, {"lds:0x10c", 10}}},
      {"ds_write2_b32 v0, v4, v5 offset0:1 offset1:3",
       {one, addr, {"v4", 7}, {"v5", 8}},
       {{"lds:0x104", 7}, {"lds:0x10c", 8}, {"lds:0x108", 0}}},
      {"ds_write2_b64 v0, v[4:5], v[6:7] offset0:0 offset1:2",
       {one, addr, {"v4", 7}, {"v5", 8}, {"v6", 9}, {"v7", 10}},
       {{"lds:0x100", 7}, {"lds:0x104", 8}, {"lds:0x110", 9}, {"lds:0x114", 10}}},
      {"ds_write2st64_b32 v0, v4, v5 offset0:0 offset1:1",
       {one, addr, {"v4", 7}, {"v5", 8}},
       {{"lds:0x100", 7}, {"lds:0x200", 8}}},
      {"ds_write2st64_b64 v0, v[4:5], v[6:7] offset0:0 offset1:1",
       {one, addr, {"v4", 7}, {"v5", 8}, {"v6", 9}, {"v7", 10}},
       {{"lds:0x100", 7}, {"lds:0x300", 9}, {"lds:0x304", 10}}},
      // wrxchg2: two exchanges, both old values returned.
      {"ds_wrxchg2st64_rtn_b32 v[2:3], v0, v4, v5 offset0:0 offset1:1",
       {one, addr, {"v4", 7}, {"v5", 8}, {"lds:0x100", 1}, {"lds:0x200", 2}},
       {{"v2@0", 1}, {"v3@0", 2}, {"lds:0x100", 7}, {"lds:0x200", 8}}},
      {"ds_wrxchg2_rtn_b64 v[10:13], v0, v[4:5], v[6:7] offset0:0 offset1:2",
       {one,
        addr,
        {"v4", 7},
        {"v5", 8},
        {"v6", 9},
        {"v7", 10},
        {"lds:0x100", 1},
        {"lds:0x104", 2},
        {"lds:0x110", 3},
        {"lds:0x114", 4}},
       {{"v10@0", 1},
        {"v11@0", 2},
        {"v12@0", 3},
        {"v13@0", 4},
        {"lds:0x100", 7},
        {"lds:0x104", 8},
        {"lds:0x110", 9},
        {"lds:0x114", 10}}},
      {"ds_wrxchg2st64_rtn_b64 v[10:13], v0, v[4:5], v[6:7] offset0:0 offset1:1",
       {one, addr, {"v4", 7}, {"v5", 8}, {"v6", 9}, {"v7", 10}, {"lds:0x100", 1}, {"lds:0x300", 3}},
       {{"v10@0", 1}, {"v12@0", 3}, {"lds:0x100", 7}, {"lds:0x300", 9}, {"lds:0x304", 10}}},
      {"ds_wrxchg2_rtn_b32 v[2:3], v0, v4, v5 offset0:0 offset1:2",
       {one, addr, {"v4", 7}, {"v5", 8}, {"lds:0x100", 1}, {"lds:0x108", 2}},
       {{"v2@0", 1}, {"v3@0", 2}, {"lds:0x100", 7}, {"lds:0x108", 8}}},
  });
}

// Flat (to a global address), global and buffer memory; v[0:1] = 0x3000, the buffer resource
// s[4:7] has base 0x3000 and 0x1000 bytes (raw, dword format).
TEST(MemoryValues, VectorMemoryAtomicsMatchDefinitions) {
  const std::vector<Val> common = {{"exec", 1},
                                   {"v0", 0x3000},
                                   {"v1", 0},
                                   {"s4", 0x3000},
                                   {"s5", 0},
                                   {"s6", 0x1000},
                                   {"s7", (4u << 12) | (4u << 15)}};
  std::vector<Case> cases;
  for (const bool wide : {false, true}) {
    for (const Atomic& a : wide ? atomics64() : atomics32()) {
      std::string op = a.op;
      // Names of the vector memory atomics (section 12.15 / 12.18).
      if (op == "rsub" || op == "mskor" || op == "wrap" || op == "cmpst_f" || op == "min_f" ||
          op == "max_f" || op == "add_f")
        continue;
      if (op == "min_i") op = "smin";
      if (op == "max_i") op = "smax";
      if (op == "min_u") op = "umin";
      if (op == "max_u") op = "umax";
      if (op == "wrxchg") op = "swap";
      if (op == "cmpst") op = "cmpswap";
      const std::string x2 = wide ? "_x2" : "";
      // cmpswap: DATA[0] = the source, DATA[1] = the compare value (swapped from DS cmpst).
      const bool cmp = op == "cmpswap";
      const std::string data = cmp ? (wide ? "v[4:7]" : "v[4:5]") : (wide ? "v[4:5]" : "v4");
      std::vector<Val> in = common;
      in.push_back({"mem:0x3040", lo(a.mem)});
      in.push_back({"mem:0x3044", wide ? hi(a.mem) : 0x12345678});
      if (cmp && wide) {
        in.insert(
            in.end(),
            {{"v4", lo(a.data2)}, {"v5", hi(a.data2)}, {"v6", lo(a.data)}, {"v7", hi(a.data)}});
      } else if (cmp) {
        in.insert(in.end(), {{"v4", lo(a.data2)}, {"v5", lo(a.data)}});
      } else {
        in.insert(in.end(), {{"v4", lo(a.data)}, {"v5", hi(a.data)}});
      }
      const std::vector<Val> out = {{"mem:0x3040", lo(a.newMem)},
                                    {"mem:0x3044", wide ? hi(a.newMem) : 0x12345678},
                                    {"v4@0", lo(a.mem)}};
      std::vector<Val> outHi = out;
      if (wide) outHi.push_back({"v5@0", hi(a.mem)});
      // The returned value goes to the data VGPR(s) for MUBUF; to vdst for FLAT/GLOBAL.
      cases.push_back(
          {"buffer_atomic_" + op + x2 + " " + data + ", off, s[4:7], 0 offset:64 glc", in, outHi});
      std::vector<Val> flatOut = out;
      flatOut[2] = {"v8@0", lo(a.mem)};
      if (wide) flatOut.push_back({"v9@0", hi(a.mem)});
      cases.push_back({"global_atomic_" + op + x2 + " " + (wide ? "v[8:9]" : "v8") + ", v[0:1], " +
                           data + ", off offset:64 glc",
                       in, flatOut});
      cases.push_back({"flat_atomic_" + op + x2 + " " + (wide ? "v[8:9]" : "v8") + ", v[0:1], " +
                           data + " offset:64 glc",
                       in, flatOut});
    }
  }
  checkCases(cases);
}

TEST(MemoryValues, VectorMemoryLoadsAndStoresMatchDefinitions) {
  std::vector<Val> in = {{"exec", 1},
                         {"v0", 0x3000},
                         {"v1", 0},
                         {"s4", 0x3000},
                         {"s5", 0},
                         {"s6", 0x1000},
                         {"s7", (4u << 12) | (4u << 15)},
                         {"mem:0x3040", 0x84838281},
                         {"mem:0x3044", 0x88878685},
                         {"mem:0x3048", 0x8c8b8a89},
                         {"mem:0x304c", 0x908f8e8d},
                         {"v8", 0x11112222},
                         {"v9", 0x33334444},
                         {"v10", 0x55556666},
                         {"v11", 0x77778888}};
  struct Ld {
    std::string op, dst;
    std::vector<Val> out;
  };
  const std::vector<Ld> loads = {
      {"load_dword", "v2", {{"v2@0", 0x84838281}}},
      {"load_dwordx2", "v[2:3]", {{"v3@0", 0x88878685}}},
      {"load_dwordx3", "v[2:4]", {{"v4@0", 0x8c8b8a89}}},
      {"load_dwordx4", "v[2:5]", {{"v5@0", 0x908f8e8d}}},
      {"load_ubyte", "v2", {{"v2@0", 0x81}}},
      {"load_sbyte", "v2", {{"v2@0", 0xffffff81}}},
      {"load_ushort", "v2", {{"v2@0", 0x8281}}},
      {"load_sshort", "v2", {{"v2@0", 0xffff8281}}},
  };
  struct St {
    std::string op, src;
    std::vector<Val> out;
  };
  const std::vector<St> stores = {
      {"store_dword", "v8", {{"mem:0x3040", 0x11112222}, {"mem:0x3044", 0x88878685}}},
      {"store_dwordx2", "v[8:9]", {{"mem:0x3044", 0x33334444}, {"mem:0x3048", 0x8c8b8a89}}},
      {"store_dwordx3", "v[8:10]", {{"mem:0x3048", 0x55556666}, {"mem:0x304c", 0x908f8e8d}}},
      {"store_dwordx4", "v[8:11]", {{"mem:0x304c", 0x77778888}}},
      {"store_byte", "v8", {{"mem:0x3040", 0x84838222}}},
      {"store_short", "v8", {{"mem:0x3040", 0x84832222}}},
      {"store_byte_d16_hi", "v8", {{"mem:0x3040", 0x84838211}}},
      {"store_short_d16_hi", "v8", {{"mem:0x3040", 0x84831111}}},
  };
  std::vector<Case> cases;
  for (const Ld& l : loads) {
    cases.push_back({"buffer_" + l.op + " " + l.dst + ", off, s[4:7], 0 offset:64", in, l.out});
    cases.push_back({"global_" + l.op + " " + l.dst + ", v[0:1], off offset:64", in, l.out});
    cases.push_back({"flat_" + l.op + " " + l.dst + ", v[0:1] offset:64", in, l.out});
  }
  for (const St& s : stores) {
    cases.push_back({"buffer_" + s.op + " " + s.src + ", off, s[4:7], 0 offset:64", in, s.out});
    cases.push_back({"global_" + s.op + " v[0:1], " + s.src + ", off offset:64", in, s.out});
    cases.push_back({"flat_" + s.op + " v[0:1], " + s.src + " offset:64", in, s.out});
  }
  // d16 loads: the low or high half of the destination, the other half kept.
  const std::vector<Ld> d16 = {
      {"load_ubyte_d16", "v8", {{"v8@0", 0x11110081}}},
      {"load_sbyte_d16", "v8", {{"v8@0", 0x1111ff81}}},
      {"load_short_d16", "v8", {{"v8@0", 0x11118281}}},
      {"load_ubyte_d16_hi", "v8", {{"v8@0", 0x00812222}}},
      {"load_sbyte_d16_hi", "v8", {{"v8@0", 0xff812222}}},
      {"load_short_d16_hi", "v8", {{"v8@0", 0x82812222}}},
  };
  for (const Ld& l : d16) {
    cases.push_back({"buffer_" + l.op + " " + l.dst + ", off, s[4:7], 0 offset:64", in, l.out});
    cases.push_back({"global_" + l.op + " " + l.dst + ", v[0:1], off offset:64", in, l.out});
    cases.push_back({"flat_" + l.op + " " + l.dst + ", v[0:1] offset:64", in, l.out});
  }
  // global with an SGPR base: address = s[2:3] + v0 (32-bit offset) + offset.
  std::vector<Val> saddr = in;
  saddr.insert(saddr.end(), {{"s2", 0x3000}, {"s3", 0}, {"v0", 0x8}});
  cases.push_back({"global_load_dword v2, v0, s[2:3] offset:64", saddr, {{"v2@0", 0x8c8b8a89}}});
  checkCases(cases);
}

// Lane permutes (section 12.13: ds_bpermute pulls data[addr/4], ds_permute pushes to lane
// addr/4; ds_swizzle in bit mode reads lane ((id & and_mask) | or_mask) ^ xor_mask within 32)
// and formatted buffer access with the V#'s format 32_32_32_32 UINT or the instruction's.
TEST(MemoryValues, LanePermutesAndFormattedBufferMatchDefinitions) {
  Case bperm{"ds_bpermute_b32 v2, v0, v1", {}, {}}, perm{"ds_permute_b32 v2, v0, v1", {}, {}};
  Case swz{"ds_swizzle_b32 v2, v1 offset:0x041f", {}, {}};
  for (int l = 0; l < 64; ++l) {
    const std::string at = "@" + std::to_string(l);
    const int next = (l + 1) % 64;
    for (Case* c : {&bperm, &perm, &swz}) {
      c->in.push_back({"v0" + at, static_cast<uint64_t>(next * 4)});
      c->in.push_back({"v1" + at, static_cast<uint64_t>(l + 100)});
    }
    bperm.out.push_back({"v2" + at, static_cast<uint64_t>(next + 100)});
    perm.out.push_back({"v2@" + std::to_string(next), static_cast<uint64_t>(l + 100)});
    swz.out.push_back({"v2" + at, static_cast<uint64_t>((l ^ 1) + 100)});
  }
  // V# word 3 (section 8.1.5 "Buffer Resource"): DST_SEL_X..W = 4..7 (x, y, z, w) in bits 11:0,
  // NUM_FORMAT 4 (UINT) in 14:12, DATA_FORMAT 14 (32_32_32_32) in 18:15.
  std::vector<Val> in = {{"exec", 1},
                         {"s4", 0x3000},
                         {"s5", 0},
                         {"s6", 0x1000},
                         {"s7", 4u | (5u << 3) | (6u << 6) | (7u << 9) | (4u << 12) | (14u << 15)},
                         {"mem:0x3040", 11},
                         {"mem:0x3044", 22},
                         {"mem:0x3048", 33},
                         {"mem:0x304c", 44},
                         {"v8", 5},
                         {"v9", 6},
                         {"v10", 7},
                         {"v11", 8}};
  std::vector<Case> cases = {bperm, perm, swz};
  const std::string fmt = " off, s[4:7], 0 offset:64";
  cases.push_back({"buffer_load_format_x v2," + fmt, in, {{"v2@0", 11}}});
  cases.push_back({"buffer_load_format_xy v[2:3]," + fmt, in, {{"v2@0", 11}, {"v3@0", 22}}});
  cases.push_back({"buffer_load_format_xyz v[2:4]," + fmt, in, {{"v4@0", 33}}});
  cases.push_back({"buffer_load_format_xyzw v[2:5]," + fmt, in, {{"v2@0", 11}, {"v5@0", 44}}});
  cases.push_back({"buffer_store_format_x v8," + fmt, in, {{"mem:0x3040", 5}}});
  cases.push_back(
      {"buffer_store_format_xy v[8:9]," + fmt, in, {{"mem:0x3040", 5}, {"mem:0x3044", 6}}});
  cases.push_back(
      {"buffer_store_format_xyz v[8:10]," + fmt, in, {{"mem:0x3044", 6}, {"mem:0x3048", 7}}});
  cases.push_back(
      {"buffer_store_format_xyzw v[8:11]," + fmt, in, {{"mem:0x3040", 5}, {"mem:0x304c", 8}}});
  const std::string tfmt = " off, s[4:7], dfmt:14, nfmt:4, 0 offset:64";
  cases.push_back({"tbuffer_load_format_x v2," + tfmt, in, {{"v2@0", 11}}});
  cases.push_back({"tbuffer_load_format_xy v[2:3]," + tfmt, in, {{"v3@0", 22}}});
  cases.push_back({"tbuffer_load_format_xyz v[2:4]," + tfmt, in, {{"v4@0", 33}}});
  cases.push_back({"tbuffer_load_format_xyzw v[2:5]," + tfmt, in, {{"v5@0", 44}}});
  cases.push_back({"tbuffer_store_format_x v8," + tfmt, in, {{"mem:0x3040", 5}}});
  cases.push_back({"tbuffer_store_format_xy v[8:9]," + tfmt, in, {{"mem:0x3044", 6}}});
  cases.push_back({"tbuffer_store_format_xyz v[8:10]," + tfmt, in, {{"mem:0x3048", 7}}});
  cases.push_back({"tbuffer_store_format_xyzw v[8:11]," + tfmt, in, {{"mem:0x304c", 8}}});
  checkCases(cases);
}

// Scratch (section 9.5 "Scratch / private swizzling"): a lane's private address A is at
// FLAT_SCRATCH + (A / 4) * 4 * 64 + lane * 4 + A % 4 with 4-byte elements. Lane 1 with
// A = v0 + 8 = 12: dword 3 of its private space is at 0x100304. Only accesses of one dword or
// less: where a dwordx2-x4 access's later dwords land depends on the swizzle element size,
// which this test does not settle (those opcodes stay without a value check).
TEST(MemoryValues, ScratchLoadsAndStoresMatchDefinitions) {
  const std::vector<Val> in = {{"exec", 2},
                               {"flat_scratch", 0x100000},
                               {"v0", 4},
                               {"mem:0x100304", 0x84838281},
                               {"mem:0x100404", 0x88878685},
                               {"mem:0x100504", 0x8c8b8a89},
                               {"mem:0x100604", 0x908f8e8d},
                               {"v8", 0x11112222},
                               {"v9", 0x33334444},
                               {"v10", 0x55556666},
                               {"v11", 0x77778888}};
  const std::string at = ", v0, off offset:8";
  std::vector<Case> cases = {
      {"scratch_load_dword v2" + at, in, {{"v2@1", 0x84838281}}},
      {"scratch_load_ubyte v2" + at, in, {{"v2@1", 0x81}}},
      {"scratch_load_sbyte v2" + at, in, {{"v2@1", 0xffffff81}}},
      {"scratch_load_ushort v2" + at, in, {{"v2@1", 0x8281}}},
      {"scratch_load_sshort v2" + at, in, {{"v2@1", 0xffff8281}}},
      {"scratch_load_ubyte_d16 v8" + at, in, {{"v8@1", 0x11110081}}},
      {"scratch_load_sbyte_d16 v8" + at, in, {{"v8@1", 0x1111ff81}}},
      {"scratch_load_short_d16 v8" + at, in, {{"v8@1", 0x11118281}}},
      {"scratch_load_ubyte_d16_hi v8" + at, in, {{"v8@1", 0x00812222}}},
      {"scratch_load_sbyte_d16_hi v8" + at, in, {{"v8@1", 0xff812222}}},
      {"scratch_load_short_d16_hi v8" + at, in, {{"v8@1", 0x82812222}}},
      {"scratch_store_dword v0, v8, off offset:8", in, {{"mem:0x100304", 0x11112222}}},
      {"scratch_store_byte v0, v8, off offset:8", in, {{"mem:0x100304", 0x84838222}}},
      {"scratch_store_short v0, v8, off offset:8", in, {{"mem:0x100304", 0x84832222}}},
      {"scratch_store_byte_d16_hi v0, v8, off offset:8", in, {{"mem:0x100304", 0x84838211}}},
      {"scratch_store_short_d16_hi v0, v8, off offset:8", in, {{"mem:0x100304", 0x84831111}}},
  };
  checkCases(cases);
}

// DS src2 forms (section 12.13, DS_*_SRC2_*): no data operand; the second value comes from LDS at
// B = A + 4 * {offset1[6], offset1[6:0], offset0} (offset1[7] = 0), A = the address in v0, and
// DS[A] = DS[A] op DS[B] (rsub: DS[B] - DS[A]; write: DS[B]); the 64-bit forms work on the
// qwords at A and B. Here A = 0x100, offset:16, B = 0x140; one lane.
TEST(MemoryValues, DsSrc2FormsMatchDefinitions) {
  std::vector<Case> cases;
  auto src2 = [&](const std::string& op, uint32_t a, uint32_t b, uint32_t r) {
    cases.push_back({op + " v0 offset:16",
                     {{"exec", 1}, {"v0", 0x100}, {"lds:0x100", a}, {"lds:0x140", b}},
                     {{"lds:0x100", r}, {"lds:0x140", b}}});
  };
  auto src2x2 = [&](const std::string& op, uint64_t a, uint64_t b, uint64_t r) {
    cases.push_back({op + " v0 offset:16",
                     {{"exec", 1},
                      {"v0", 0x100},
                      {"lds:0x100", lo(a)},
                      {"lds:0x104", hi(a)},
                      {"lds:0x140", lo(b)},
                      {"lds:0x144", hi(b)}},
                     {{"lds:0x100", lo(r)}, {"lds:0x104", hi(r)}, {"lds:0x144", hi(b)}}});
  };
  src2("ds_add_src2_u32", 0xffffffff, 2, 1);
  src2("ds_sub_src2_u32", 1, 2, 0xffffffff);
  src2("ds_rsub_src2_u32", 1, 5, 4);
  src2("ds_inc_src2_u32", 7, 7, 0);  // DS[A] >= DS[B] ? 0 : DS[A] + 1
  src2("ds_inc_src2_u32", 6, 7, 7);
  src2("ds_dec_src2_u32", 0, 9, 9);  // DS[A] == 0 || DS[A] > DS[B] ? DS[B] : DS[A] - 1
  src2("ds_dec_src2_u32", 5, 9, 4);
  src2("ds_min_src2_i32", 0xfffffffe, 3, 0xfffffffe);
  src2("ds_max_src2_i32", 0xfffffffe, 3, 3);
  src2("ds_min_src2_u32", 0xfffffffe, 3, 3);
  src2("ds_max_src2_u32", 0xfffffffe, 3, 0xfffffffe);
  src2("ds_and_src2_b32", 0xff0f, 0x0ff0, 0x0f00);
  src2("ds_or_src2_b32", 0xf000, 0x000f, 0xf00f);
  src2("ds_xor_src2_b32", 0xff00, 0x0ff0, 0xf0f0);
  src2("ds_write_src2_b32", 5, 9, 9);
  src2("ds_min_src2_f32", f32(2.0f), f32(-1.0f), f32(-1.0f));
  src2("ds_max_src2_f32", f32(2.0f), f32(-1.0f), f32(2.0f));
  src2("ds_add_src2_f32", f32(1.5f), f32(2.25f), f32(3.75f));
  src2x2("ds_add_src2_u64", 0xffffffffull, 1, 0x100000000ull);
  src2x2("ds_sub_src2_u64", 0x100000000ull, 1, 0xffffffffull);
  src2x2("ds_rsub_src2_u64", 1, 0x100000001ull, 0x100000000ull);
  src2x2("ds_inc_src2_u64", 0x100000000ull, 0x100000000ull, 0);
  src2x2("ds_inc_src2_u64", 0xffffffffull, 0x100000000ull, 0x100000000ull);
  src2x2("ds_dec_src2_u64", 0, 0x500000000ull, 0x500000000ull);
  src2x2("ds_dec_src2_u64", 0x100000000ull, 0x500000000ull, 0xffffffffull);
  src2x2("ds_min_src2_i64", 0xffffffff00000000ull, 1, 0xffffffff00000000ull);
  src2x2("ds_max_src2_i64", 0xffffffff00000000ull, 1, 1);
  src2x2("ds_min_src2_u64", 0xffffffff00000000ull, 1, 1);
  src2x2("ds_max_src2_u64", 0xffffffff00000000ull, 1, 0xffffffff00000000ull);
  src2x2("ds_and_src2_b64", 0xff000000ffull, 0xf0000000f0ull, 0xf0000000f0ull);
  src2x2("ds_or_src2_b64", 0x100000000ull, 1, 0x100000001ull);
  src2x2("ds_xor_src2_b64", 0x300000003ull, 0x100000001ull, 0x200000002ull);
  src2x2("ds_write_src2_b64", 5, 0x900000009ull, 0x900000009ull);
  src2x2("ds_min_src2_f64", f64(2.0), f64(-1.0), f64(-1.0));
  src2x2("ds_max_src2_f64", f64(2.0), f64(-1.0), f64(2.0));
  checkCases(cases);
}

// DS_APPEND / DS_CONSUME (Vega ISA guide section 12.13, for LDS and GDS alike): add / subtract
// count_bits(exec_mask) to / from the value in DS memory at M0.base + instr_offset and return
// the pre-operation value to the VGPRs of every active lane. (The disabled version of this
// test followed the CDNA3 guide, which addresses an LDS counter at instr_offset alone; LLVM's
// llvm.amdgcn.ds.append.ll test, gfx900 included, also passes the LDS address in M0.)
// M0 = 0x100, offset 64: the counter is the dword at 0x140. Lanes 0, 1 and 3 are active.
TEST(MemoryValues, DsAppendConsumeCountActiveLanesAtM0PlusTheOffset) {
  const uint64_t lanes = 0b1011;
  checkCases({
      {"ds_append v2 offset:64",
       {{"exec", lanes}, {"m0", 0x100}, {"lds:0x140", 10}, {"lds:0x40", 77}, {"v2", 0xdead}},
       {{"lds:0x140", 13},
        {"lds:0x40", 77},
        {"v2@0", 10},
        {"v2@1", 10},
        {"v2@3", 10},
        {"v2@2", 0xdead}}},
      {"ds_consume v2 offset:64",
       {{"exec", lanes}, {"m0", 0x100}, {"lds:0x140", 10}, {"v2", 0xdead}},
       {{"lds:0x140", 7}, {"v2@0", 10}, {"v2@1", 10}, {"v2@3", 10}, {"v2@2", 0xdead}}},
      // The counter wraps: 1 - 3.
      {"ds_consume v2 offset:64",
       {{"exec", lanes}, {"m0", 0x100}, {"lds:0x140", 1}},
       {{"lds:0x140", 0xfffffffe}, {"v2@0", 1}}},
      // No offset: the counter is at M0.base.
      {"ds_append v2",
       {{"exec", 0xff00000000000000ull}, {"m0", 0x200}, {"lds:0x200", 5}},
       {{"lds:0x200", 13}, {"v2@63", 5}, {"v2@0", 0}}},
  });
}

// DS_WRITE_ADDTID_B32 / DS_READ_ADDTID_B32 (section 12.13): lane l stores / loads the dword at
// M0[15:0] + offset + 4 * l; inactive lanes neither store nor load.
TEST(MemoryValues, DsAddtidMatchesDefinitions) {
  checkCases({
      {"ds_write_addtid_b32 v1 offset:16",
       {{"exec", 0b101}, {"m0", 0xffff0100}, {"v1@0", 0xa}, {"v1@1", 0xb}, {"v1@2", 0xc}},
       {{"lds:0x110", 0xa}, {"lds:0x114", 0}, {"lds:0x118", 0xc}}},
      {"ds_read_addtid_b32 v2 offset:16",
       {{"exec", 0b101},
        {"m0", 0xffff0100},
        {"lds:0x110", 0xa},
        {"lds:0x114", 0xb},
        {"lds:0x118", 0xc},
        {"v2", 0xdead}},
       {{"v2@0", 0xa}, {"v2@1", 0xdead}, {"v2@2", 0xc}}},
  });
}

// DS_CONDXCHG32_RTN_B64 (section 12.13): ADDR0 = (ADDR + offset) & 0xfff8, ADDR1 = ADDR0 + 4;
// both dwords are returned, and dword k of LDS takes DATA's dword k with bit 31 cleared only
// when that bit is set.
TEST(MemoryValues, DsCondxchg32MatchesDefinition) {
  checkCases({
      {"ds_condxchg32_rtn_b64 v[2:3], v0, v[4:5] offset:8",
       {{"exec", 1},
        {"v0", 0x100},
        {"lds:0x108", 0x11},
        {"lds:0x10c", 0x22},
        {"v4", 0x80000005},
        {"v5", 0x00000007}},
       {{"v2@0", 0x11}, {"v3@0", 0x22}, {"lds:0x108", 5}, {"lds:0x10c", 0x22}}},
      {"ds_condxchg32_rtn_b64 v[2:3], v0, v[4:5]",
       {{"exec", 1},
        {"v0", 0x100},
        {"lds:0x100", 0x33},
        {"lds:0x104", 0x44},
        {"v4", 0x00000001},
        {"v5", 0xffffffff}},
       {{"v2@0", 0x33}, {"v3@0", 0x44}, {"lds:0x100", 0x33}, {"lds:0x104", 0x7fffffff}}},
  });
}

// The same with an address that is not a multiple of 8: ADDR0 = 0x104 & 0xfff8 = 0x100. The
// Vega ISA guide (section 12.13) describes DS_CONDXCHG32_RTN_B64 as a conditional write
// exchange of two dwords without an address computation of its own; AMD's CDNA and RDNA guides
// define the same opcode with the address aligned down to 8 bytes, which is what is checked.
TEST(MemoryValues, DsCondxchg32AlignsTheAddressTo8Bytes) {
  checkCases({
      {"ds_condxchg32_rtn_b64 v[2:3], v0, v[4:5]",
       {{"exec", 1},
        {"v0", 0x104},
        {"lds:0x100", 0x33},
        {"lds:0x104", 0x44},
        {"v4", 0x00000001},
        {"v5", 0xffffffff}},
       {{"v2@0", 0x33}, {"v3@0", 0x44}, {"lds:0x100", 0x33}, {"lds:0x104", 0x7fffffff}}},
  });
}

// Loads into the LDS (lds=1; Vega ISA guide 8.1, buffer load to LDS, which GLOBAL and SCRATCH
// loads of a byte, short or dword share): the memory address is the one without lds; the data
// goes to the LDS instead of a VGPR, lane l's dword at M0[15:0] + the instruction offset + 4 * l
// (LLVM's AMDGPU intrinsic documentation: the instruction offset applies to the memory and the
// LDS address alike), bytes and shorts extended to a dword as they would be into a VGPR.
TEST(MemoryValues, LoadsIntoLdsGoToM0PlusOffsetPlusFourPerLane) {
  checkCases({
      // Lanes 0 and 1 read 0x3008 and 0x3018 (v[2:3] + 8) into LDS 0x108 and 0x10c; no VGPR
      // changes (v0 is the encoding's unused destination field).
      {"global_load_dword v[2:3], off offset:8 lds",
       {{"exec", 3},
        {"m0", 0x100},
        {"v2@0", 0x3000},
        {"v2@1", 0x3010},
        {"v3", 0},
        {"v0", 0x5555},
        {"mem:0x3008", 0xaaaa},
        {"mem:0x3018", 0xbbbb}},
       {{"lds:0x108", 0xaaaa}, {"lds:0x10c", 0xbbbb}, {"v0@0", 0x5555}, {"v2@1", 0x3010}}},
      // An SGPR address: s[6:7] + v2 - 4 = 0x3010; M0[31:16] is not part of the LDS address:
      // 0x200 - 4 = 0x1fc; the signed byte 0x80 sign-extended.
      {"global_load_sbyte v2, s[6:7] offset:-4 lds",
       {{"exec", 1},
        {"m0", 0x70200},
        {"s6", 0x3000},
        {"s7", 0},
        {"v2", 0x14},
        {"mem:0x3010", 0x80}},
       {{"lds:0x1fc", 0xffffff80}}},
      // Scratch: private address 1 + 4 = 5, swizzled: FLAT_SCRATCH + (5 / 4) * 256 + 4 l + 5 % 4,
      // so byte 1 of lane 0's dword at 0x100100 and of lane 1's at 0x100104.
      {"scratch_load_ubyte v1, off offset:4 lds",
       {{"exec", 3},
        {"m0", 0x200},
        {"flat_scratch", 0x100000},
        {"v1", 1},
        {"mem:0x100100", 0x44332211},
        {"mem:0x100104", 0x88776655}},
       {{"lds:0x204", 0x22}, {"lds:0x208", 0x66}}},
      // Scratch with an SGPR address: private address 8, FLAT_SCRATCH + 2 * 256 + 4 l.
      {"scratch_load_ushort off, s5 lds",
       {{"exec", 1},
        {"m0", 0x300},
        {"flat_scratch", 0x100000},
        {"s5", 8},
        {"mem:0x100200", 0xfedc8765}},
       {{"lds:0x300", 0x8765}}},
  });
}

// BUFFER_STORE_LDS_DWORD (section 12.17): stores lane l's LDS dword, at M0[15:0] + the
// instruction offset + 4 * l as for the loads into the LDS, to the buffer address, which has no
// VGPR part: base + soffset + offset + l * stride with ADD_TID_ENABLE (section 8.1.5). V#: base
// 0x3000, stride 4, ADD_TID_ENABLE (DATA_FORMAT 0: with ADD_TID_ENABLE it holds stride bits).
// Lane 0: LDS 0x104 to 0x3000 + 0x10 + 4 = 0x3014; lane 1: LDS 0x108 to 0x3018.
TEST(MemoryValues, BufferStoreLdsDwordStoresLdsDwordsToTheBuffer) {
  checkCases({
      {"buffer_store_lds_dword s[4:7], s0 offset:4 lds",
       {{"exec", 3},
        {"m0", 0x100},
        {"s0", 0x10},
        {"s4", 0x3000},
        {"s5", 4u << 16},
        {"s6", 0x1000},
        {"s7", 1u << 23},
        {"lds:0x104", 0xcafe},
        {"lds:0x108", 0xbeef},
        {"mem:0x301c", 0x77}},
       {{"mem:0x3014", 0xcafe}, {"mem:0x3018", 0xbeef}, {"mem:0x301c", 0x77}}},
  });
}

// D16 formatted buffer accesses (section 12.15 MUBUF / 12.16 MTBUF, *_FORMAT_D16_*): each
// component is converted to 16 bits and packed two to a VGPR, x in bits 15:0; a half VGPR left
// over (d16_x, the z of d16_xyz) keeps its high half, d16_hi_x uses and keeps the other half.
// Stores write each stored component, converted from 16 bits to the format, at its channel
// offset. Surfaces (V# word 3 as in the test above): 16_16_16_16 UINT (DATA_FORMAT 12,
// NUM_FORMAT 4) with x..w = 0x1111..0x4444 at 0x3040; 32_32_32_32 UINT (14, 4), where a
// component is zero-extended; 32_32_32_32 FLOAT (14, 7), where 1.5 converts to 0x3e00 and back.
uint32_t word3(uint32_t dfmt, uint32_t nfmt) {
  return 4u | (5u << 3) | (6u << 6) | (7u << 9) | (nfmt << 12) | (dfmt << 15);
}
std::vector<Val> d16State(uint32_t dfmt, uint32_t nfmt) {
  return {{"exec", 1},
          {"s4", 0x3000},
          {"s5", 0},
          {"s6", 0x1000},
          {"s7", word3(dfmt, nfmt)},
          {"mem:0x3040", 0x22221111},
          {"mem:0x3044", 0x44443333},
          {"mem:0x3048", 0x55555555},
          {"v2", 0xdeadbeef},
          {"v3", 0xdeadbeef},
          {"v8", 0x66665555},
          {"v9", 0x88887777}};
}
std::string d16At(bool typed, uint32_t dfmt, uint32_t nfmt) {
  return typed ? ", off, s[4:7], dfmt:" + std::to_string(dfmt) + ", nfmt:" + std::to_string(nfmt) +
                     ", 0 offset:64"
               : ", off, s[4:7], 0 offset:64";
}

TEST(MemoryValues, D16FormattedBufferMatchesDefinitions) {
  std::vector<Case> cases;
  for (const bool typed : {false, true}) {
    const std::string p = typed ? "tbuffer_" : "buffer_";
    const std::vector<Val> in = d16State(12, 4), in32 = d16State(14, 4);
    const std::string at = d16At(typed, 12, 4), at32 = d16At(typed, 14, 4);
    cases.push_back({p + "load_format_d16_x v2" + at, in, {{"v2@0", 0xdead1111}}});
    cases.push_back({p + "load_format_d16_xy v2" + at, in, {{"v2@0", 0x22221111}}});
    cases.push_back(
        {p + "load_format_d16_xyz v[2:3]" + at, in, {{"v2@0", 0x22221111}, {"v3@0", 0xdead3333}}});
    cases.push_back(
        {p + "load_format_d16_xyzw v[2:3]" + at, in, {{"v2@0", 0x22221111}, {"v3@0", 0x44443333}}});
    cases.push_back({p + "store_format_d16_xy v8" + at, in, {{"mem:0x3040", 0x66665555}}});
    cases.push_back({p + "store_format_d16_xyzw v[8:9]" + at,
                     in,
                     {{"mem:0x3040", 0x66665555}, {"mem:0x3044", 0x88887777}}});
    cases.push_back({p + "store_format_d16_x v8" + at32, in32, {{"mem:0x3040", 0x5555}}});
    cases.push_back({p + "store_format_d16_xyz v[8:9]" + at32,
                     in32,
                     {{"mem:0x3040", 0x5555}, {"mem:0x3044", 0x6666}, {"mem:0x3048", 0x7777}}});
  }
  const std::string at = d16At(false, 12, 4);
  cases.push_back({"buffer_load_format_d16_hi_x v2" + at, d16State(12, 4), {{"v2@0", 0x1111beef}}});
  cases.push_back(
      {"buffer_store_format_d16_hi_x v8" + at, d16State(14, 4), {{"mem:0x3040", 0x6666}}});
  std::vector<Val> fin = d16State(14, 7);
  fin.push_back({"mem:0x3040", f32(1.5f)});
  fin.push_back({"v8", 0x12343e00});
  cases.push_back({"buffer_load_format_d16_x v2" + at, fin, {{"v2@0", 0xdead3e00}}});
  cases.push_back({"buffer_store_format_d16_x v8" + at, fin, {{"mem:0x3040", f32(1.5f)}}});
  checkCases(cases);
}

}  // namespace
}  // namespace vgpu::isa::test
