// Value checks for the scalar ALU (SOP2, SOPK, SOP1, SOPC) and the scalar memory instructions
// (SMEM loads, stores and atomics): one table row per case, expected values worked out from
// the opcode definitions of the Vega ISA reference guide (sections 12.1 SOP2, 12.2 SOPK, 12.3
// SOP1, 12.4 SOPC, 12.6 SMEM; scalar atomics return the memory's old value with GLC=1).
#include <gtest/gtest.h>

#include "ValueCheck.h"

namespace vgpu::isa::test {
namespace {

TEST(ScalarValues, Sop2MatchesDefinitions) {
  checkCases({
      {"s_add_u32 s2, s0, s1", {{"s0", 0xffffffff}, {"s1", 2}}, {{"s2", 1}, {"scc", 1}}},
      {"s_add_u32 s2, s0, s1", {{"s0", 5}, {"s1", 7}, {"scc", 1}}, {{"s2", 12}, {"scc", 0}}},
      {"s_sub_u32 s2, s0, s1", {{"s0", 1}, {"s1", 2}}, {{"s2", 0xffffffff}, {"scc", 1}}},
      {"s_sub_u32 s2, s0, s1", {{"s0", 9}, {"s1", 2}, {"scc", 1}}, {{"s2", 7}, {"scc", 0}}},
      {"s_add_i32 s2, s0, s1", {{"s0", 0x7fffffff}, {"s1", 1}}, {{"s2", 0x80000000}, {"scc", 1}}},
      {"s_add_i32 s2, s0, s1",
       {{"s0", 0xffffffff}, {"s1", 1}, {"scc", 1}},
       {{"s2", 0}, {"scc", 0}}},
      {"s_sub_i32 s2, s0, s1", {{"s0", 0x80000000}, {"s1", 1}}, {{"s2", 0x7fffffff}, {"scc", 1}}},
      {"s_sub_i32 s2, s0, s1",
       {{"s0", 3}, {"s1", 5}, {"scc", 1}},
       {{"s2", 0xfffffffe}, {"scc", 0}}},
      {"s_addc_u32 s2, s0, s1",
       {{"s0", 0xfffffffe}, {"s1", 1}, {"scc", 1}},
       {{"s2", 0}, {"scc", 1}}},
      {"s_addc_u32 s2, s0, s1", {{"s0", 3}, {"s1", 4}, {"scc", 1}}, {{"s2", 8}, {"scc", 0}}},
      {"s_subb_u32 s2, s0, s1",
       {{"s0", 5}, {"s1", 5}, {"scc", 1}},
       {{"s2", 0xffffffff}, {"scc", 1}}},
      {"s_subb_u32 s2, s0, s1", {{"s0", 9}, {"s1", 5}, {"scc", 1}}, {{"s2", 3}, {"scc", 0}}},
      {"s_min_i32 s2, s0, s1", {{"s0", 0xfffffffb}, {"s1", 3}}, {{"s2", 0xfffffffb}, {"scc", 1}}},
      {"s_min_i32 s2, s0, s1", {{"s0", 4}, {"s1", 3}, {"scc", 1}}, {{"s2", 3}, {"scc", 0}}},
      {"s_min_u32 s2, s0, s1",
       {{"s0", 0xfffffffb}, {"s1", 3}, {"scc", 1}},
       {{"s2", 3}, {"scc", 0}}},
      {"s_min_u32 s2, s0, s1", {{"s0", 2}, {"s1", 3}}, {{"s2", 2}, {"scc", 1}}},
      {"s_max_i32 s2, s0, s1",
       {{"s0", 0xfffffffb}, {"s1", 3}, {"scc", 1}},
       {{"s2", 3}, {"scc", 0}}},
      {"s_max_i32 s2, s0, s1", {{"s0", 7}, {"s1", 3}}, {{"s2", 7}, {"scc", 1}}},
      {"s_max_u32 s2, s0, s1", {{"s0", 0xfffffffb}, {"s1", 3}}, {{"s2", 0xfffffffb}, {"scc", 1}}},
      {"s_max_u32 s2, s0, s1", {{"s0", 1}, {"s1", 3}, {"scc", 1}}, {{"s2", 3}, {"scc", 0}}},
      {"s_cselect_b32 s2, s0, s1", {{"s0", 11}, {"s1", 22}, {"scc", 1}}, {{"s2", 11}}},
      {"s_cselect_b32 s2, s0, s1", {{"s0", 11}, {"s1", 22}}, {{"s2", 22}}},
      {"s_cselect_b64 s[4:5], s[0:1], s[2:3]",
       {{"s0", 1}, {"s1", 2}, {"s2", 3}, {"s3", 4}},
       {{"s4", 3}, {"s5", 4}}},
      {"s_and_b32 s2, s0, s1", {{"s0", 0xf0f0}, {"s1", 0x0ff0}}, {{"s2", 0x00f0}, {"scc", 1}}},
      {"s_and_b32 s2, s0, s1",
       {{"s0", 0xf000}, {"s1", 0x0ff0}, {"scc", 1}},
       {{"s2", 0}, {"scc", 0}}},
      {"s_or_b32 s2, s0, s1", {{"s0", 0xf000}, {"s1", 0x000f}}, {{"s2", 0xf00f}, {"scc", 1}}},
      {"s_xor_b32 s2, s0, s1", {{"s0", 0xff00}, {"s1", 0x0ff0}}, {{"s2", 0xf0f0}, {"scc", 1}}},
      {"s_xor_b32 s2, s0, s1", {{"s0", 5}, {"s1", 5}, {"scc", 1}}, {{"s2", 0}, {"scc", 0}}},
      {"s_andn2_b32 s2, s0, s1", {{"s0", 0xff}, {"s1", 0x0f}}, {{"s2", 0xf0}, {"scc", 1}}},
      {"s_orn2_b32 s2, s0, s1", {{"s0", 0x1}, {"s1", 0xfffffff0}}, {{"s2", 0xf}, {"scc", 1}}},
      {"s_nand_b32 s2, s0, s1",
       {{"s0", 0xffffffff}, {"s1", 0xffffffff}, {"scc", 1}},
       {{"s2", 0}, {"scc", 0}}},
      {"s_nor_b32 s2, s0, s1", {{"s0", 0xf0}, {"s1", 0x0f}}, {{"s2", 0xffffff00}, {"scc", 1}}},
      {"s_xnor_b32 s2, s0, s1", {{"s0", 0xf0}, {"s1", 0xff}}, {{"s2", 0xfffffff0}, {"scc", 1}}},
      {"s_and_b64 s[4:5], s[0:1], s[2:3]",
       {{"s0", 0xff}, {"s1", 0xf0000000}, {"s2", 0x0f}, {"s3", 0x30000000}},
       {{"s4", 0x0f}, {"s5", 0x30000000}, {"scc", 1}}},
      {"s_or_b64 s[4:5], s[0:1], s[2:3]",
       {{"s0", 0}, {"s1", 0}, {"s2", 0}, {"s3", 0}, {"scc", 1}},
       {{"s4", 0}, {"s5", 0}, {"scc", 0}}},
      {"s_or_b64 s[4:5], s[0:1], s[2:3]",
       {{"s0", 1}, {"s1", 0}, {"s2", 0}, {"s3", 2}},
       {{"s4", 1}, {"s5", 2}, {"scc", 1}}},
      {"s_xor_b64 s[4:5], s[0:1], s[2:3]",
       {{"s0", 3}, {"s1", 0x80000000}, {"s2", 1}, {"s3", 0x80000000}},
       {{"s4", 2}, {"s5", 0}, {"scc", 1}}},
      {"s_andn2_b64 s[4:5], s[0:1], s[2:3]",
       {{"s0", 0xff}, {"s1", 0xff}, {"s2", 0x0f}, {"s3", 0xf0}},
       {{"s4", 0xf0}, {"s5", 0x0f}, {"scc", 1}}},
      {"s_orn2_b64 s[4:5], s[0:1], s[2:3]",
       {{"s0", 0}, {"s1", 1}, {"s2", 0xffffffff}, {"s3", 0xfffffff0}},
       {{"s4", 0}, {"s5", 0xf}, {"scc", 1}}},
      {"s_nand_b64 s[4:5], s[0:1], s[2:3]",
       {{"s0", 0xffffffff}, {"s1", 0}, {"s2", 0xffff}, {"s3", 0}},
       {{"s4", 0xffff0000}, {"s5", 0xffffffff}, {"scc", 1}}},
      {"s_nor_b64 s[4:5], s[0:1], s[2:3]",
       {{"s0", 0xffffffff}, {"s1", 0xffff0000}, {"s2", 0}, {"s3", 0x0000ffff}, {"scc", 1}},
       {{"s4", 0}, {"s5", 0}, {"scc", 0}}},
      {"s_xnor_b64 s[4:5], s[0:1], s[2:3]",
       {{"s0", 0xf}, {"s1", 0}, {"s2", 0xf}, {"s3", 0xffffffff}},
       {{"s4", 0xffffffff}, {"s5", 0}, {"scc", 1}}},
      {"s_lshl_b32 s2, s0, s1", {{"s0", 0x80000001}, {"s1", 33}}, {{"s2", 2}, {"scc", 1}}},
      {"s_lshl_b32 s2, s0, s1",
       {{"s0", 0x80000000}, {"s1", 1}, {"scc", 1}},
       {{"s2", 0}, {"scc", 0}}},
      {"s_lshr_b32 s2, s0, s1", {{"s0", 0x80000000}, {"s1", 31}}, {{"s2", 1}, {"scc", 1}}},
      {"s_ashr_i32 s2, s0, s1", {{"s0", 0x80000000}, {"s1", 4}}, {{"s2", 0xf8000000}, {"scc", 1}}},
      {"s_ashr_i32 s2, s0, s1",
       {{"s0", 0x40000000}, {"s1", 0x24}},
       {{"s2", 0x04000000}, {"scc", 1}}},
      {"s_lshl_b64 s[4:5], s[0:1], s2",
       {{"s0", 0x80000001}, {"s1", 0}, {"s2", 0x41}},
       {{"s4", 2}, {"s5", 1}, {"scc", 1}}},
      {"s_lshr_b64 s[4:5], s[0:1], s2",
       {{"s0", 0}, {"s1", 0x80000000}, {"s2", 63}},
       {{"s4", 1}, {"s5", 0}, {"scc", 1}}},
      {"s_ashr_i64 s[4:5], s[0:1], s2",
       {{"s0", 0}, {"s1", 0x80000000}, {"s2", 36}},
       {{"s4", 0xf8000000}, {"s5", 0xffffffff}, {"scc", 1}}},
      {"s_bfm_b32 s2, s0, s1", {{"s0", 4}, {"s1", 8}}, {{"s2", 0xf00}}},
      {"s_bfm_b32 s2, s0, s1", {{"s0", 0x21}, {"s1", 0x3f}}, {{"s2", 0x80000000}}},
      {"s_bfm_b64 s[4:5], s0, s1", {{"s0", 8}, {"s1", 28}}, {{"s4", 0xf0000000}, {"s5", 0xf}}},
      {"s_mul_i32 s2, s0, s1", {{"s0", 0xfffffffd}, {"s1", 7}}, {{"s2", 0xffffffeb}}},
      {"s_mul_i32 s2, s0, s1", {{"s0", 0x10000}, {"s1", 0x10001}}, {{"s2", 0x10000}}},
      {"s_mul_hi_u32 s2, s0, s1", {{"s0", 0xffffffff}, {"s1", 0xffffffff}}, {{"s2", 0xfffffffe}}},
      {"s_mul_hi_i32 s2, s0, s1", {{"s0", 0xffffffff}, {"s1", 0xffffffff}}, {{"s2", 0}}},
      {"s_mul_hi_i32 s2, s0, s1", {{"s0", 0x80000000}, {"s1", 2}}, {{"s2", 0xffffffff}}},
      // s_bfe: offset S1[4:0] (S1[5:0] for 64 bits), width S1[22:16].
      {"s_bfe_u32 s2, s0, s1", {{"s0", 0xabcd1234}, {"s1", 0x80004}}, {{"s2", 0x23}, {"scc", 1}}},
      {"s_bfe_u32 s2, s0, s1",
       {{"s0", 0xabcd1234}, {"s1", 0x4}, {"scc", 1}},
       {{"s2", 0}, {"scc", 0}}},
      {"s_bfe_i32 s2, s0, s1",
       {{"s0", 0xabcd1284}, {"s1", 0x40004}},
       {{"s2", 0xfffffff8}, {"scc", 1}}},
      {"s_bfe_i32 s2, s0, s1", {{"s0", 0xabcd1274}, {"s1", 0x40004}}, {{"s2", 0x7}, {"scc", 1}}},
      // A signed field reaching the top bit takes it as its sign (as v_bfe_i32): offset 25,
      // width 31 of 0xd4ca690a is 0xd4ca690a >> 25 arithmetically; width 40 of 0x80000000 at 4.
      {"s_bfe_i32 s2, s0, s1",
       {{"s0", 0xd4ca690a}, {"s1", 0x1f0019}},
       {{"s2", 0xffffffea}, {"scc", 1}}},
      {"s_bfe_i32 s2, s0, s1",
       {{"s0", 0x80000000}, {"s1", 0x280004}},
       {{"s2", 0xf8000000}, {"scc", 1}}},
      {"s_bfe_i64 s[4:5], s[0:1], s2",
       {{"s0", 0}, {"s1", 0x80000000}, {"s2", 0x200030}},
       {{"s4", 0xffff8000}, {"s5", 0xffffffff}, {"scc", 1}}},
      {"s_bfe_u64 s[4:5], s[0:1], s2",
       {{"s0", 0x80000000}, {"s1", 0x12345677}, {"s2", 0x10001f}},
       {{"s4", 0xacef}, {"s5", 0}, {"scc", 1}}},
      {"s_bfe_i64 s[4:5], s[0:1], s2",
       {{"s0", 0}, {"s1", 0x00000080}, {"s2", 0x080020}},
       {{"s4", 0xffffff80}, {"s5", 0xffffffff}, {"scc", 1}}},
      {"s_bfe_i64 s[4:5], s[0:1], s2",
       {{"s0", 0xf0000000}, {"s1", 0x7}, {"s2", 0x08001c}},
       {{"s4", 0x7f}, {"s5", 0}, {"scc", 1}}},
      {"s_bfe_i64 s[4:5], s[0:1], s2",
       {{"s0", 0x0}, {"s1", 0x80000000}, {"s2", 0x000000}, {"scc", 1}},
       {{"s4", 0}, {"s5", 0}, {"scc", 0}}},
      {"s_absdiff_i32 s2, s0, s1", {{"s0", 0xfffffffe}, {"s1", 3}}, {{"s2", 5}, {"scc", 1}}},
      {"s_absdiff_i32 s2, s0, s1", {{"s0", 3}, {"s1", 3}, {"scc", 1}}, {{"s2", 0}, {"scc", 0}}},
      {"s_lshl1_add_u32 s2, s0, s1", {{"s0", 3}, {"s1", 4}}, {{"s2", 10}, {"scc", 0}}},
      {"s_lshl1_add_u32 s2, s0, s1",
       {{"s0", 0x40000000}, {"s1", 0x80000000}},
       {{"s2", 0}, {"scc", 1}}},
      {"s_lshl2_add_u32 s2, s0, s1", {{"s0", 3}, {"s1", 4}, {"scc", 1}}, {{"s2", 16}, {"scc", 0}}},
      {"s_lshl3_add_u32 s2, s0, s1", {{"s0", 3}, {"s1", 4}}, {{"s2", 28}, {"scc", 0}}},
      {"s_lshl4_add_u32 s2, s0, s1",
       {{"s0", 0x08000000}, {"s1", 0x80000001}},
       {{"s2", 1}, {"scc", 1}}},
      {"s_pack_ll_b32_b16 s2, s0, s1",
       {{"s0", 0x11112222}, {"s1", 0x33334444}},
       {{"s2", 0x44442222}}},
      {"s_pack_lh_b32_b16 s2, s0, s1",
       {{"s0", 0x11112222}, {"s1", 0x33334444}},
       {{"s2", 0x33332222}}},
      {"s_pack_hh_b32_b16 s2, s0, s1",
       {{"s0", 0x11112222}, {"s1", 0x33334444}},
       {{"s2", 0x33331111}}},
  });
}

TEST(ScalarValues, SopkMatchesDefinitions) {
  checkCases({
      {"s_movk_i32 s2, 0x8001", {}, {{"s2", 0xffff8001}}},
      {"s_movk_i32 s2, 0x7fff", {{"s2", 5}}, {{"s2", 0x7fff}}},
      {"s_cmovk_i32 s2, 0x8000", {{"s2", 5}, {"scc", 1}}, {{"s2", 0xffff8000}}},
      {"s_cmovk_i32 s2, 0x8000", {{"s2", 5}}, {{"s2", 5}}},
      {"s_addk_i32 s2, 0xffff", {{"s2", 5}}, {{"s2", 4}, {"scc", 0}}},
      {"s_addk_i32 s2, 0x1", {{"s2", 0x7fffffff}}, {{"s2", 0x80000000}, {"scc", 1}}},
      {"s_mulk_i32 s2, 0xfffe", {{"s2", 7}}, {{"s2", 0xfffffff2}}},
      {"s_cmpk_eq_i32 s2, 0xffff", {{"s2", 0xffffffff}}, {{"scc", 1}}},
      {"s_cmpk_eq_u32 s2, 0xffff", {{"s2", 0xffffffff}, {"scc", 1}}, {{"scc", 0}}},
      {"s_cmpk_eq_u32 s2, 0xffff", {{"s2", 0xffff}}, {{"scc", 1}}},
      {"s_cmpk_lg_i32 s2, 0x5", {{"s2", 5}, {"scc", 1}}, {{"scc", 0}}},
      {"s_cmpk_lg_u32 s2, 0x5", {{"s2", 6}}, {{"scc", 1}}},
      {"s_cmpk_gt_i32 s2, 0xfffe", {{"s2", 0xffffffff}}, {{"scc", 1}}},
      {"s_cmpk_gt_u32 s2, 0xfffe", {{"s2", 0x1000}, {"scc", 1}}, {{"scc", 0}}},
      {"s_cmpk_ge_i32 s2, 0x3", {{"s2", 3}}, {{"scc", 1}}},
      {"s_cmpk_ge_u32 s2, 0x8000", {{"s2", 0x7fff}, {"scc", 1}}, {{"scc", 0}}},
      {"s_cmpk_lt_i32 s2, 0x0", {{"s2", 0x80000000}}, {{"scc", 1}}},
      {"s_cmpk_lt_u32 s2, 0x0", {{"s2", 0x80000000}, {"scc", 1}}, {{"scc", 0}}},
      {"s_cmpk_le_i32 s2, 0xffff", {{"s2", 0xffffffff}}, {{"scc", 1}}},
      {"s_cmpk_le_u32 s2, 0xffff", {{"s2", 0x10000}, {"scc", 1}}, {{"scc", 0}}},
  });
}

TEST(ScalarValues, Sop1MatchesDefinitions) {
  checkCases({
      {"s_mov_b32 s2, s0", {{"s0", 0xdeadbeef}}, {{"s2", 0xdeadbeef}}},
      {"s_mov_b64 s[2:3], s[0:1]", {{"s0", 1}, {"s1", 2}}, {{"s2", 1}, {"s3", 2}}},
      {"s_cmov_b32 s2, s0", {{"s0", 9}, {"s2", 1}, {"scc", 1}}, {{"s2", 9}}},
      {"s_cmov_b32 s2, s0", {{"s0", 9}, {"s2", 1}}, {{"s2", 1}}},
      {"s_cmov_b64 s[2:3], s[0:1]", {{"s0", 9}, {"s1", 8}, {"scc", 1}}, {{"s2", 9}, {"s3", 8}}},
      {"s_not_b32 s2, s0", {{"s0", 0xffffffff}, {"scc", 1}}, {{"s2", 0}, {"scc", 0}}},
      {"s_not_b64 s[2:3], s[0:1]",
       {{"s0", 0xf}, {"s1", 0}},
       {{"s2", 0xfffffff0}, {"s3", 0xffffffff}, {"scc", 1}}},
      {"s_wqm_b32 s2, s0", {{"s0", 0x80000110}}, {{"s2", 0xf0000ff0}, {"scc", 1}}},
      {"s_wqm_b64 s[2:3], s[0:1]",
       {{"s0", 0}, {"s1", 0x20}},
       {{"s2", 0}, {"s3", 0xf0}, {"scc", 1}}},
      {"s_brev_b32 s2, s0", {{"s0", 0x00000013}}, {{"s2", 0xc8000000}}},
      {"s_brev_b64 s[2:3], s[0:1]",
       {{"s0", 1}, {"s1", 0x80000000}},
       {{"s2", 1}, {"s3", 0x80000000}}},
      {"s_brev_b64 s[2:3], s[0:1]", {{"s0", 6}, {"s1", 0}}, {{"s2", 0}, {"s3", 0x60000000}}},
      {"s_bcnt0_i32_b32 s2, s0", {{"s0", 0xffff00ff}}, {{"s2", 8}, {"scc", 1}}},
      {"s_bcnt0_i32_b32 s2, s0", {{"s0", 0xffffffff}, {"scc", 1}}, {{"s2", 0}, {"scc", 0}}},
      {"s_bcnt0_i32_b64 s2, s[0:1]",
       {{"s0", 0xffffffff}, {"s1", 0x0fffffff}},
       {{"s2", 4}, {"scc", 1}}},
      {"s_bcnt1_i32_b32 s2, s0", {{"s0", 0x80000101}}, {{"s2", 3}, {"scc", 1}}},
      {"s_bcnt1_i32_b64 s2, s[0:1]", {{"s0", 0xff}, {"s1", 0x80000000}}, {{"s2", 9}, {"scc", 1}}},
      {"s_bcnt1_i32_b64 s2, s[0:1]", {{"s0", 0}, {"s1", 0}, {"scc", 1}}, {{"s2", 0}, {"scc", 0}}},
      {"s_ff0_i32_b32 s2, s0", {{"s0", 0x0000ffff}}, {{"s2", 16}}},
      {"s_ff0_i32_b32 s2, s0", {{"s0", 0xffffffff}}, {{"s2", 0xffffffff}}},
      {"s_ff0_i32_b64 s2, s[0:1]", {{"s0", 0xffffffff}, {"s1", 0xfffffffb}}, {{"s2", 34}}},
      {"s_ff1_i32_b32 s2, s0", {{"s0", 0x00100000}}, {{"s2", 20}}},
      {"s_ff1_i32_b32 s2, s0", {{"s0", 0}}, {{"s2", 0xffffffff}}},
      {"s_ff1_i32_b64 s2, s[0:1]", {{"s0", 0}, {"s1", 0x80000000}}, {{"s2", 63}}},
      {"s_ff1_i32_b64 s2, s[0:1]", {{"s0", 0}, {"s1", 0}}, {{"s2", 0xffffffff}}},
      {"s_flbit_i32_b32 s2, s0", {{"s0", 0x00010000}}, {{"s2", 15}}},
      {"s_flbit_i32_b32 s2, s0", {{"s0", 0}}, {{"s2", 0xffffffff}}},
      {"s_flbit_i32_b64 s2, s[0:1]", {{"s0", 1}, {"s1", 0}}, {{"s2", 63}}},
      {"s_flbit_i32_b64 s2, s[0:1]", {{"s0", 0}, {"s1", 0}}, {{"s2", 0xffffffff}}},
      {"s_flbit_i32 s2, s0", {{"s0", 0xfff0ffff}}, {{"s2", 12}}},
      {"s_flbit_i32 s2, s0", {{"s0", 0x00400000}}, {{"s2", 9}}},
      {"s_flbit_i32 s2, s0", {{"s0", 0xffffffff}}, {{"s2", 0xffffffff}}},
      {"s_flbit_i32_i64 s2, s[0:1]", {{"s0", 0x7fffffff}, {"s1", 0xffffffff}}, {{"s2", 32}}},
      {"s_flbit_i32_i64 s2, s[0:1]", {{"s0", 0}, {"s1", 0}}, {{"s2", 0xffffffff}}},
      {"s_sext_i32_i8 s2, s0", {{"s0", 0x1234ff80}}, {{"s2", 0xffffff80}}},
      {"s_sext_i32_i8 s2, s0", {{"s0", 0x1234ff7f}}, {{"s2", 0x7f}}},
      {"s_sext_i32_i16 s2, s0", {{"s0", 0x12348000}}, {{"s2", 0xffff8000}}},
      {"s_bitset0_b32 s2, s0", {{"s0", 0x24}, {"s2", 0xffffffff}}, {{"s2", 0xffffffef}}},
      {"s_bitset1_b32 s2, s0", {{"s0", 0x1f}, {"s2", 1}}, {{"s2", 0x80000001}}},
      {"s_bitset0_b64 s[2:3], s0",
       {{"s0", 0x21}, {"s2", 0xffffffff}, {"s3", 0xffffffff}},
       {{"s2", 0xffffffff}, {"s3", 0xfffffffd}}},
      {"s_bitset1_b64 s[2:3], s0", {{"s0", 0x3f}}, {{"s2", 0}, {"s3", 0x80000000}}},
      {"s_quadmask_b32 s2, s0", {{"s0", 0x80000102}}, {{"s2", 0x85}, {"scc", 1}}},
      {"s_quadmask_b64 s[2:3], s[0:1]",
       {{"s0", 0}, {"s1", 0x10000000}},
       {{"s2", 0x8000}, {"s3", 0}, {"scc", 1}}},
      {"s_abs_i32 s2, s0", {{"s0", 0xfffffff9}}, {{"s2", 7}, {"scc", 1}}},
      {"s_abs_i32 s2, s0", {{"s0", 0x80000000}}, {{"s2", 0x80000000}, {"scc", 1}}},
      {"s_abs_i32 s2, s0", {{"s0", 0}, {"scc", 1}}, {{"s2", 0}, {"scc", 0}}},
      {"s_bitreplicate_b64_b32 s[2:3], s0",
       {{"s0", 0x80000005}},
       {{"s2", 0x33}, {"s3", 0xc0000000}}},
      // EXEC = 0x0000ffff_ff00ff00, S0 = 0x00ff00ff_0f0f0f0f; D = old EXEC, SCC = new EXEC != 0.
      {"s_and_saveexec_b64 s[2:3], s[0:1]",
       {{"exec", 0x0000ffffff00ff00}, {"s0", 0x0f0f0f0f}, {"s1", 0x00ff00ff}},
       {{"s2", 0xff00ff00}, {"s3", 0x0000ffff}, {"exec", 0x000000ff0f000f00}, {"scc", 1}}},
      {"s_or_saveexec_b64 s[2:3], s[0:1]",
       {{"exec", 0x0000ffffff00ff00}, {"s0", 0x0f0f0f0f}, {"s1", 0x00ff00ff}},
       {{"s2", 0xff00ff00}, {"s3", 0x0000ffff}, {"exec", 0x00ffffffff0fff0f}, {"scc", 1}}},
      {"s_xor_saveexec_b64 s[2:3], s[0:1]",
       {{"exec", 0x0000ffffff00ff00}, {"s0", 0x0f0f0f0f}, {"s1", 0x00ff00ff}},
       {{"s2", 0xff00ff00}, {"exec", 0x00ffff00f00ff00f}, {"scc", 1}}},
      {"s_andn2_saveexec_b64 s[2:3], s[0:1]",
       {{"exec", 0x0000ffffff00ff00}, {"s0", 0x0f0f0f0f}, {"s1", 0x00ff00ff}},
       {{"s2", 0xff00ff00}, {"exec", 0x00ff0000000f000f}, {"scc", 1}}},
      {"s_orn2_saveexec_b64 s[2:3], s[0:1]",
       {{"exec", 0x0000ffffff00ff00}, {"s0", 0x0f0f0f0f}, {"s1", 0x00ff00ff}},
       {{"s3", 0x0000ffff}, {"exec", 0xffff00ff0fff0fff}, {"scc", 1}}},
      {"s_nand_saveexec_b64 s[2:3], s[0:1]",
       {{"exec", 0x0000ffffff00ff00}, {"s0", 0x0f0f0f0f}, {"s1", 0x00ff00ff}},
       {{"s2", 0xff00ff00}, {"exec", 0xffffff00f0fff0ff}, {"scc", 1}}},
      {"s_nor_saveexec_b64 s[2:3], s[0:1]",
       {{"exec", 0x0000ffffff00ff00}, {"s0", 0x0f0f0f0f}, {"s1", 0x00ff00ff}},
       {{"s2", 0xff00ff00}, {"exec", 0xff00000000f000f0}, {"scc", 1}}},
      {"s_xnor_saveexec_b64 s[2:3], s[0:1]",
       {{"exec", 0x0000ffffff00ff00}, {"s0", 0x0f0f0f0f}, {"s1", 0x00ff00ff}},
       {{"s2", 0xff00ff00}, {"exec", 0xff0000ff0ff00ff0}, {"scc", 1}}},
      {"s_andn1_saveexec_b64 s[2:3], s[0:1]",
       {{"exec", 0x0000ffffff00ff00}, {"s0", 0x0f0f0f0f}, {"s1", 0x00ff00ff}},
       {{"s2", 0xff00ff00}, {"exec", 0x0000ff00f000f000}, {"scc", 1}}},
      {"s_orn1_saveexec_b64 s[2:3], s[0:1]",
       {{"exec", 0x0000ffffff00ff00}, {"s0", 0x0f0f0f0f}, {"s1", 0x00ff00ff}},
       {{"s2", 0xff00ff00}, {"exec", 0xff00fffffff0fff0}, {"scc", 1}}},
      {"s_andn1_wrexec_b64 s[2:3], s[0:1]",
       {{"exec", 0x0000ffffff00ff00}, {"s0", 0x0f0f0f0f}, {"s1", 0x00ff00ff}},
       {{"s2", 0xf000f000}, {"s3", 0x0000ff00}, {"exec", 0x0000ff00f000f000}, {"scc", 1}}},
      {"s_andn2_wrexec_b64 s[2:3], s[0:1]",
       {{"exec", 0x0000ffffff00ff00}, {"s0", 0x0f0f0f0f}, {"s1", 0x00ff00ff}},
       {{"s2", 0x000f000f}, {"s3", 0x00ff0000}, {"exec", 0x00ff0000000f000f}, {"scc", 1}}},
      {"s_and_saveexec_b64 s[2:3], s[0:1]",
       {{"exec", 0xff}, {"s0", 0xff00}, {"s1", 0}, {"scc", 1}},
       {{"s2", 0xff}, {"exec", 0}, {"scc", 0}}},
      // s_movrels: D = SGPR[S0 + M0]; s_movreld: SGPR[D + M0] = S0.
      {"s_movrels_b32 s2, s10", {{"m0", 3}, {"s13", 0x77}}, {{"s2", 0x77}}},
      {"s_movrels_b64 s[2:3], s[10:11]",
       {{"m0", 4}, {"s14", 5}, {"s15", 6}},
       {{"s2", 5}, {"s3", 6}}},
      {"s_movreld_b32 s10, s2", {{"m0", 5}, {"s2", 0x99}}, {{"s15", 0x99}, {"s10", 0}}},
      {"s_movreld_b64 s[10:11], s[2:3]",
       {{"m0", 2}, {"s2", 1}, {"s3", 2}},
       {{"s12", 1}, {"s13", 2}}},
  });
}

TEST(ScalarValues, SopcMatchesDefinitions) {
  std::vector<Case> cases;
  // (a, b, signed and unsigned relations) per row; every s_cmp_* on both an ordered pair and an
  // equal pair, signed and unsigned disagreeing on 0xffffffff vs 1.
  struct Pair {
    uint32_t a, b;
  };
  const Pair pairs[] = {{0xffffffff, 1}, {1, 0xffffffff}, {7, 7}};
  const char* ops[] = {"eq", "lg", "gt", "ge", "lt", "le"};
  for (const char* op : ops) {
    for (const char* type : {"i32", "u32"}) {
      for (const Pair& p : pairs) {
        const bool sgn = std::string(type) == "i32";
        const int64_t a = sgn ? static_cast<int32_t>(p.a) : static_cast<int64_t>(p.a);
        const int64_t b = sgn ? static_cast<int32_t>(p.b) : static_cast<int64_t>(p.b);
        const std::string o = op;
        const bool r = o == "eq"   ? a == b
                       : o == "lg" ? a != b
                       : o == "gt" ? a > b
                       : o == "ge" ? a >= b
                       : o == "lt" ? a < b
                                   : a <= b;
        cases.push_back({std::string("s_cmp_") + op + "_" + type + " s0, s1",
                         {{"s0", p.a}, {"s1", p.b}, {"scc", !r}},
                         {{"scc", r}}});
      }
    }
  }
  const std::vector<Case> bits = {
      {"s_bitcmp0_b32 s0, s1", {{"s0", 0xfffffffe}, {"s1", 0x20}}, {{"scc", 1}}},
      {"s_bitcmp0_b32 s0, s1", {{"s0", 0x00000010}, {"s1", 4}, {"scc", 1}}, {{"scc", 0}}},
      {"s_bitcmp1_b32 s0, s1", {{"s0", 0x80000000}, {"s1", 31}}, {{"scc", 1}}},
      {"s_bitcmp1_b32 s0, s1", {{"s0", 0x7fffffff}, {"s1", 31}, {"scc", 1}}, {{"scc", 0}}},
      {"s_bitcmp0_b64 s[0:1], s2",
       {{"s0", 0xffffffff}, {"s1", 0xfffffffe}, {"s2", 32}},
       {{"scc", 1}}},
      {"s_bitcmp0_b64 s[0:1], s2", {{"s1", 0x80000000}, {"s2", 0x7f}, {"scc", 1}}, {{"scc", 0}}},
      {"s_bitcmp1_b64 s[0:1], s2", {{"s1", 0x80000000}, {"s2", 63}}, {{"scc", 1}}},
      {"s_bitcmp1_b64 s[0:1], s2", {{"s0", 0xffffffff}, {"s2", 33}, {"scc", 1}}, {{"scc", 0}}},
  };
  cases.insert(cases.end(), bits.begin(), bits.end());
  checkCases(cases);
}

// Scalar memory: s[0:1] = 0x2000; memory words at 0x2000.. hold the starting values.
TEST(ScalarValues, SmemLoadsStoresAndAtomicsMatchDefinitions) {
  const Val addr0 = {"s0", 0x2000}, addr1 = {"s1", 0};
  // A buffer resource in s[4:7]: base 0x2000, 0x1000 bytes.
  const std::vector<Val> vsharp = {{"s4", 0x2000}, {"s5", 0}, {"s6", 0x1000}, {"s7", 0}};
  std::vector<Case> cases = {
      {"s_load_dword s2, s[0:1], 0x4", {addr0, addr1, {"mem:0x2004", 0x1234}}, {{"s2", 0x1234}}},
      {"s_load_dwordx2 s[2:3], s[0:1], 0x8",
       {addr0, addr1, {"mem:0x2008", 1}, {"mem:0x200c", 2}},
       {{"s2", 1}, {"s3", 2}}},
      {"s_load_dwordx4 s[8:11], s[0:1], 0x0",
       {addr0, addr1, {"mem:0x2000", 1}, {"mem:0x200c", 4}},
       {{"s8", 1}, {"s11", 4}}},
      {"s_load_dwordx8 s[8:15], s[0:1], 0x0", {addr0, addr1, {"mem:0x201c", 8}}, {{"s15", 8}}},
      {"s_load_dwordx16 s[16:31], s[0:1], 0x0", {addr0, addr1, {"mem:0x203c", 16}}, {{"s31", 16}}},
      {"s_store_dword s2, s[0:1], 0x10", {addr0, addr1, {"s2", 0xabc}}, {{"mem:0x2010", 0xabc}}},
      {"s_store_dwordx2 s[2:3], s[0:1], 0x10",
       {addr0, addr1, {"s2", 1}, {"s3", 2}},
       {{"mem:0x2010", 1}, {"mem:0x2014", 2}}},
      {"s_store_dwordx4 s[8:11], s[0:1], 0x10",
       {addr0, addr1, {"s8", 1}, {"s11", 4}},
       {{"mem:0x2010", 1}, {"mem:0x201c", 4}}},
  };
  auto withV = [&](std::vector<Val> extra) {
    extra.insert(extra.end(), vsharp.begin(), vsharp.end());
    return extra;
  };
  cases.push_back(
      {"s_buffer_load_dword s2, s[4:7], 0x8", withV({{"mem:0x2008", 77}}), {{"s2", 77}}});
  cases.push_back(
      {"s_buffer_load_dwordx2 s[2:3], s[4:7], 0x8", withV({{"mem:0x200c", 78}}), {{"s3", 78}}});
  cases.push_back(
      {"s_buffer_load_dwordx4 s[8:11], s[4:7], 0x0", withV({{"mem:0x200c", 79}}), {{"s11", 79}}});
  cases.push_back(
      {"s_buffer_load_dwordx8 s[8:15], s[4:7], 0x0", withV({{"mem:0x201c", 80}}), {{"s15", 80}}});
  cases.push_back(
      {"s_buffer_load_dwordx16 s[16:31], s[4:7], 0x0", withV({{"mem:0x203c", 81}}), {{"s31", 81}}});
  cases.push_back(
      {"s_buffer_store_dword s2, s[4:7], 0x20", withV({{"s2", 5}}), {{"mem:0x2020", 5}}});
  cases.push_back(
      {"s_buffer_store_dwordx2 s[2:3], s[4:7], 0x20", withV({{"s3", 6}}), {{"mem:0x2024", 6}}});
  cases.push_back(
      {"s_buffer_store_dwordx4 s[8:11], s[4:7], 0x20", withV({{"s11", 7}}), {{"mem:0x202c", 7}}});

  // Atomics (section 12.6 / 9.1.x): 32-bit memory value `m`, data `d` -> new memory, returned old.
  struct A {
    std::string op;
    uint32_t m, d, newMem;
  };
  const std::vector<A> a32 = {
      {"swap", 5, 9, 9},
      {"add", 0xffffffff, 2, 1},
      {"sub", 1, 2, 0xffffffff},
      {"smin", 0xfffffffe, 3, 0xfffffffe},
      {"umin", 0xfffffffe, 3, 3},
      {"smax", 0xfffffffe, 3, 3},
      {"umax", 0xfffffffe, 3, 0xfffffffe},
      {"and", 0xff0f, 0x0ff0, 0x0f00},
      {"or", 0xf000, 0x000f, 0xf00f},
      {"xor", 0xff00, 0x0ff0, 0xf0f0},
      {"inc", 7, 7, 0},  // m >= d -> 0
      {"inc", 6, 7, 7},
      {"dec", 0, 9, 9},  // m == 0 or m > d -> d
      {"dec", 10, 9, 9},
      {"dec", 5, 9, 4},
  };
  for (const bool buffer : {false, true}) {
    const std::string prefix = buffer ? "s_buffer_atomic_" : "s_atomic_";
    const std::string base = buffer ? "s[4:7]" : "s[0:1]";
    auto start = [&](std::vector<Val> v) {
      if (buffer) return withV(v);
      v.push_back(addr0);
      v.push_back(addr1);
      return v;
    };
    for (const A& x : a32) {
      cases.push_back({prefix + x.op + " s2, " + base + ", 0x40 glc",
                       start({{"mem:0x2040", x.m}, {"s2", x.d}}),
                       {{"mem:0x2040", x.newMem}, {"s2", x.m}}});
      // 64-bit: the same operation with the value in the high dword too (0x1_0000_0000 apart
      // for add/sub carries), written as 64-bit values.
    }
    // Without GLC the data register keeps the data sent.
    cases.push_back({prefix + "add s2, " + base + ", 0x40",
                     start({{"mem:0x2040", 10}, {"s2", 5}}),
                     {{"mem:0x2040", 15}, {"s2", 5}}});
    // cmpswap: DATA[0] = source, DATA[1] = compare value.
    cases.push_back({prefix + "cmpswap s[2:3], " + base + ", 0x40 glc",
                     start({{"mem:0x2040", 10}, {"s2", 99}, {"s3", 10}}),
                     {{"mem:0x2040", 99}, {"s2", 10}}});
    cases.push_back({prefix + "cmpswap s[2:3], " + base + ", 0x40 glc",
                     start({{"mem:0x2040", 11}, {"s2", 99}, {"s3", 10}}),
                     {{"mem:0x2040", 11}, {"s2", 11}}});
    // 64-bit forms on 0x2040 (low) / 0x2044 (high).
    struct A64 {
      std::string op;
      uint64_t m, d, newMem;
    };
    const std::vector<A64> a64 = {
        {"swap", 5, 0x900000009ull, 0x900000009ull},
        {"add", 0xffffffffull, 1, 0x100000000ull},
        {"sub", 0x100000000ull, 1, 0xffffffffull},
        {"smin", 0xffffffff00000000ull, 1, 0xffffffff00000000ull},
        {"umin", 0xffffffff00000000ull, 1, 1},
        {"smax", 0xffffffff00000000ull, 1, 1},
        {"umax", 0xffffffff00000000ull, 1, 0xffffffff00000000ull},
        {"and", 0xff000000ffull, 0xf0000000f0ull, 0xf0000000f0ull},
        {"or", 0x100000000ull, 1, 0x100000001ull},
        {"xor", 0x300000003ull, 0x100000001ull, 0x200000002ull},
        {"inc", 0x100000000ull, 0x100000000ull, 0},
        {"inc", 0xffffffffull, 0x100000000ull, 0x100000000ull},
        {"dec", 0, 0x500000000ull, 0x500000000ull},
        {"dec", 0x100000000ull, 0x500000000ull, 0xffffffffull},
    };
    for (const A64& x : a64) {
      if (buffer && x.op == "cmpswap") continue;
      cases.push_back({prefix + x.op + "_x2 s[2:3], " + base + ", 0x40 glc",
                       start({{"mem:0x2040", lo(x.m)},
                              {"mem:0x2044", hi(x.m)},
                              {"s2", lo(x.d)},
                              {"s3", hi(x.d)}}),
                       {{"mem:0x2040", lo(x.newMem)},
                        {"mem:0x2044", hi(x.newMem)},
                        {"s2", lo(x.m)},
                        {"s3", hi(x.m)}}});
    }
    // cmpswap_x2: DATA[1:0] = source, DATA[3:2] = compare value; returns the old value.
    cases.push_back(
        {prefix + "cmpswap_x2 s[8:11], " + base + ", 0x40 glc",
         start(
             {{"mem:0x2040", 1}, {"mem:0x2044", 2}, {"s8", 7}, {"s9", 8}, {"s10", 1}, {"s11", 2}}),
         {{"mem:0x2040", 7}, {"mem:0x2044", 8}, {"s8", 1}, {"s9", 2}}});
    if (!buffer) {
      cases.push_back({"s_atomic_cmpswap_x2 s[8:11], s[0:1], 0x40 glc",
                       start({{"mem:0x2040", 1},
                              {"mem:0x2044", 2},
                              {"s8", 7},
                              {"s9", 8},
                              {"s10", 1},
                              {"s11", 2}}),
                       {{"mem:0x2040", 7}, {"mem:0x2044", 8}, {"s8", 1}, {"s9", 2}}});
      cases.push_back({"s_atomic_cmpswap_x2 s[8:11], s[0:1], 0x40 glc",
                       start({{"mem:0x2040", 1},
                              {"mem:0x2044", 3},
                              {"s8", 7},
                              {"s9", 8},
                              {"s10", 1},
                              {"s11", 2}}),
                       {{"mem:0x2040", 1}, {"mem:0x2044", 3}, {"s8", 1}, {"s9", 3}}});
    }
  }
  checkCases(cases);
}

// Program flow (section 12.5 SOPP: the target is PC + 4 + SIMM16 * 4 when taken, else PC + 4),
// 64-bit scalar compares (12.4) and the MODE register through s_getreg / s_setreg (12.2, 4.6).
TEST(ScalarValues, BranchesCompares64AndHwregMatchDefinitions) {
  checkCases({
      {"s_branch 3", {}, {{"pcrel", 16}}},
      {"s_branch 0xfffe", {}, {{"pcrel", static_cast<uint64_t>(-4)}}},
      {"s_cbranch_scc0 2", {}, {{"pcrel", 12}}},
      {"s_cbranch_scc0 2", {{"scc", 1}}, {{"pcrel", 4}}},
      {"s_cbranch_scc1 2", {{"scc", 1}}, {{"pcrel", 12}}},
      {"s_cbranch_scc1 2", {}, {{"pcrel", 4}}},
      {"s_cbranch_vccz 2", {{"vcc", 0}}, {{"pcrel", 12}}},
      {"s_cbranch_vccz 2", {{"vcc", 1ull << 63}}, {{"pcrel", 4}}},
      {"s_cbranch_vccnz 2", {{"vcc", 1ull << 63}}, {{"pcrel", 12}}},
      {"s_cbranch_vccnz 2", {{"vcc", 0}}, {{"pcrel", 4}}},
      {"s_cbranch_execz 2", {{"exec", 0}}, {{"pcrel", 12}}},
      {"s_cbranch_execz 2", {{"exec", 1ull << 40}}, {{"pcrel", 4}}},
      {"s_cbranch_execnz 2", {{"exec", 1ull << 40}}, {{"pcrel", 12}}},
      {"s_cbranch_execnz 2", {{"exec", 0}}, {{"pcrel", 4}}},
      {"s_cmp_eq_u64 s[0:1], s[2:3]", {{"s0", 1}, {"s1", 2}, {"s2", 1}, {"s3", 2}}, {{"scc", 1}}},
      {"s_cmp_eq_u64 s[0:1], s[2:3]",
       {{"s0", 1}, {"s1", 2}, {"s2", 1}, {"s3", 3}, {"scc", 1}},
       {{"scc", 0}}},
      {"s_cmp_lg_u64 s[0:1], s[2:3]", {{"s0", 1}, {"s1", 2}, {"s2", 1}, {"s3", 3}}, {{"scc", 1}}},
      {"s_cmp_lg_u64 s[0:1], s[2:3]",
       {{"s0", 1}, {"s1", 2}, {"s2", 1}, {"s3", 2}, {"scc", 1}},
       {{"scc", 0}}},
      {"s_getreg_b32 s2, hwreg(HW_REG_MODE, 4, 4)", {{"mode", 0xa5}}, {{"s2", 0xa}}},
      {"s_setreg_b32 hwreg(HW_REG_MODE, 4, 4), s2",
       {{"mode", 0x3}, {"s2", 0x1a}},
       {{"mode", 0xa3}}},
      {"s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), 0x5", {{"mode", 0xf0}}, {{"mode", 0xf5}}},
  });
}

// Jumps, calls and the branch stack (section 12.3 SOP1 S_GETPC/S_SETPC/S_SWAPPC/S_RFE_B64,
// S_CBRANCH_JOIN, S_SET_GPR_IDX_IDX; 12.1 SOP2 S_CBRANCH_G_FORK; 12.4 SOPC S_SET_GPR_IDX_ON; 12.2
// SOPK S_CALL_B64, S_CBRANCH_I_FORK). Every case here is 4 bytes and checkCases lays them out
// one after another from 0x1000, so case i is at PC 0x1000 + 4 * i. A fork whose lanes go both
// ways runs the side with fewer lanes first (the passing side on a tie) and pushes
// { the other side's PC (high 64 bits), its mask (low 64 bits) } to SGPR[CSP * 4 .. + 3], then
// increments the branch stack pointer CSP; here CSP starts at 0, so the entry lands in s[0:3].
// A join whose S0 equals CSP goes on to the next instruction. S_SET_GPR_IDX_ON sets
// M0[7:0] = S0[7:0] and M0[15:12] = the raw mode bits (SRC0 = 1, DST = 8), keeping the rest.
TEST(ScalarValues, PcCallsForksAndGprIndexMatchDefinitions) {
  auto pc = [](uint64_t i) { return 0x1000 + 4 * i; };
  auto rel = [&](uint64_t target, uint64_t i) { return target - pc(i); };
  const std::vector<Val> gfork = {{"exec", 0xff}, {"s9", 0}, {"s10", 0x5000}, {"s11", 0}};
  auto with = [](std::vector<Val> v, std::vector<Val> more) {
    v.insert(v.end(), more.begin(), more.end());
    return v;
  };
  checkCases({
      {"s_getpc_b64 s[2:3]", {}, {{"s2", pc(1)}, {"s3", 0}, {"pcrel", 4}}},
      {"s_setpc_b64 s[0:1]", {{"s0", 0x2000}, {"s1", 0}}, {{"pcrel", rel(0x2000, 1)}}},
      {"s_swappc_b64 s[2:3], s[0:1]",
       {{"s0", 0x2000}, {"s1", 0}},
       {{"s2", pc(3)}, {"s3", 0}, {"pcrel", rel(0x2000, 2)}}},
      // S_CALL_B64: D = PC + 4, PC = PC + 4 + SIMM16 * 4.
      {"s_call_b64 s[2:3], 4", {}, {{"s2", pc(4)}, {"s3", 0}, {"pcrel", 20}}},
      {"s_call_b64 s[2:3], 0xfffe", {}, {{"s2", pc(5)}, {"pcrel", static_cast<uint64_t>(-4)}}},
      {"s_rfe_b64 s[0:1]", {{"s0", 0x3000}, {"s1", 0}}, {{"pcrel", rel(0x3000, 5)}}},
      {"s_cbranch_join s0", {{"s0", 0}, {"exec", 0xf}}, {{"pcrel", 4}, {"exec", 0xf}}},
      // i_fork: target PC + 4 + 4 * 4. All lanes pass -> jump; all fail -> next instruction.
      {"s_cbranch_i_fork s[8:9], 4",
       {{"exec", 0xff}, {"s8", 0x1ff}, {"s9", 0}},
       {{"pcrel", 20}, {"exec", 0xff}}},
      {"s_cbranch_i_fork s[8:9], 4",
       {{"exec", 0xff}, {"s8", 0xff00}, {"s9", 0}},
       {{"pcrel", 4}, {"exec", 0xff}}},
      // 7 pass, 1 fails: the failing lane runs first; { target, pass mask } is pushed.
      {"s_cbranch_i_fork s[8:9], 4",
       {{"exec", 0xff}, {"s8", 0x7f}, {"s9", 0}},
       {{"exec", 0x80}, {"pcrel", 4}, {"s0", 0x7f}, {"s1", 0}, {"s2", pc(9) + 20}, {"s3", 0}}},
      // 1 passes, 7 fail: the passing lane runs at the target; { PC + 4, fail mask } is pushed.
      {"s_cbranch_i_fork s[8:9], 4",
       {{"exec", 0xff}, {"s8", 0x1}, {"s9", 0}},
       {{"exec", 0x1}, {"pcrel", 20}, {"s0", 0xfe}, {"s1", 0}, {"s2", pc(11)}, {"s3", 0}}},
      // g_fork: target S1 (0x5000). 4 pass and 4 fail: the passing lanes go first.
      {"s_cbranch_g_fork s[8:9], s[10:11]",
       with(gfork, {{"s8", 0x0f}}),
       {{"exec", 0x0f}, {"pcrel", rel(0x5000, 11)}, {"s0", 0xf0}, {"s1", 0}, {"s2", pc(12)}}},
      {"s_cbranch_g_fork s[8:9], s[10:11]",
       with(gfork, {{"s8", 0xfe}}),
       {{"exec", 0x01}, {"pcrel", 4}, {"s0", 0xfe}, {"s2", 0x5000}, {"s3", 0}}},
      {"s_cbranch_g_fork s[8:9], s[10:11]",
       with(gfork, {{"s8", 0xfff}}),
       {{"exec", 0xff}, {"pcrel", rel(0x5000, 13)}}},
      {"s_set_gpr_idx_on s0, gpr_idx(SRC0,DST)",
       {{"m0", 0x12345678}, {"s0", 0x1ab}},
       {{"m0", 0x123496ab}}},
      {"s_set_gpr_idx_idx s0", {{"m0", 0x12345678}, {"s0", 0x1ab}}, {{"m0", 0x123456ab}}},
      // S_RFE_RESTORE_B64: PC = S0 (S1[0] sets the instruction ATC mode).
      {"s_rfe_restore_b64 s[0:1], s2",
       {{"s0", 0x3000}, {"s1", 0}, {"s2", 0}},
       {{"pcrel", rel(0x3000, 16)}}},
  });
}

// Where the Vega ISA guide keeps that state: the conditional branch stack pointer is MODE.CSP
// (MODE bits 31:29, the MODE register table of section 3.5; GCN guides since Southern Islands
// have the same field), which S_CBRANCH_*_FORK increments after writing SGPR[CSP * 4 .. + 3]
// and S_CBRANCH_JOIN, when its S0 differs from CSP, decrements before reading { PC, EXEC }
// from there (section 4.6 and the opcodes' definitions); S_SET_GPR_IDX_ON sets
// MODE.GPR_IDX_EN (bit 27).
TEST(ScalarValues, BranchStackPointerAndGprIndexEnableLiveInMode) {
  constexpr uint32_t kCsp1 = 1u << 29, kCsp2 = 2u << 29;
  checkCases({
      {"s_set_gpr_idx_on s0, gpr_idx(SRC0,DST)", {{"s0", 0x1ab}}, {{"mode", 1u << 27}}},
      {"s_cbranch_i_fork s[8:9], 4",
       {{"mode", kCsp1}, {"exec", 0xff}, {"s8", 0x7f}, {"s9", 0}},
       {{"exec", 0x80}, {"s4", 0x7f}, {"s6", 0x1004 + 20}, {"mode", kCsp2}}},
      {"s_cbranch_join s0", {{"mode", kCsp2}, {"s0", 2}}, {{"pcrel", 4}, {"mode", kCsp2}}},
      {"s_cbranch_join s0",
       {{"mode", kCsp2}, {"s0", 0}, {"s4", 0x1234}, {"s5", 0x5678}, {"s6", 0x4000}, {"s7", 0}},
       {{"exec", 0x0000567800001234ull}, {"pcrel", 0x4000 - 0x100c}, {"mode", kCsp1}}},
  });
}

// S_SET_GPR_IDX_OFF clears MODE.GPR_IDX_EN (bit 27) and keeps M0; S_SET_GPR_IDX_MODE sets
// M0[15:12] to SIMM16[3:0] (SRC1 = 2, DST = 8) and keeps the rest (section 12.5 SOPP). The
// S_CBRANCH_CDBG* branches jump when the wave's debug flags (STATUS.COND_DBG_SYS / _USER, set
// by a debugger) say so; a fresh wave has them clear, so they go on to PC + 4.
TEST(ScalarValues, GprIndexModeOffAndDebugBranchesMatchDefinitions) {
  checkCases({
      {"s_set_gpr_idx_off",
       {{"mode", (1u << 27) | 0x5}, {"m0", 0x12345678}},
       {{"mode", 0x5}, {"m0", 0x12345678}}},
      {"s_set_gpr_idx_mode gpr_idx(SRC1,DST)", {{"m0", 0x12345678}}, {{"m0", 0x1234a678}}},
      {"s_cbranch_cdbgsys 3", {}, {{"pcrel", 4}}},
      {"s_cbranch_cdbguser 3", {}, {{"pcrel", 4}}},
      {"s_cbranch_cdbgsys_or_user 3", {}, {{"pcrel", 4}}},
      {"s_cbranch_cdbgsys_and_user 3", {}, {{"pcrel", 4}}},
  });
}

// S_SETVSKIP (section 12.5 SOPC): MODE.VSKIP, bit 28 of MODE (section 3.3), = S0.u[S1.u[4:0]]:
// only S1's low five bits select (37 selects bit 5), and the rest of MODE is kept.
TEST(ScalarValues, SetvskipCopiesTheSelectedBitToModeVskip) {
  checkCases({
      {"s_setvskip s0, s1", {{"s0", 0x20}, {"s1", 5}, {"mode", 0x5}}, {{"mode", 0x10000005}}},
      {"s_setvskip s0, s1", {{"s0", 0x20}, {"s1", 37}}, {{"mode", 0x10000000}}},
      {"s_setvskip s0, s1", {{"s0", 0xffffffdf}, {"s1", 5}, {"mode", 0x10000005}}, {{"mode", 0x5}}},
  });
}

// Scalar scratch (section 12.6 SMEM, S_SCRATCH_LOAD/STORE_DWORD*) with an immediate offset:
// the address is SBASE plus the immediate (a signed byte offset); dword k at address + 4k.
const std::vector<Val>& scalarScratchState() {
  static const std::vector<Val> in = {{"s0", 0x2000},     {"s1", 0},          {"mem:0x2008", 11},
                                      {"mem:0x200c", 12}, {"mem:0x2010", 13}, {"mem:0x2014", 14},
                                      {"s2", 0xaaaa},     {"s3", 0xbbbb},     {"s8", 1},
                                      {"s11", 4}};
  return in;
}

TEST(ScalarValues, ScalarScratchWithImmediateOffsetMatchesDefinitions) {
  const std::vector<Val>& in = scalarScratchState();
  checkCases({
      {"s_scratch_load_dword s2, s[0:1], 0x8", in, {{"s2", 11}}},
      {"s_scratch_load_dwordx2 s[2:3], s[0:1], 0x8", in, {{"s2", 11}, {"s3", 12}}},
      {"s_scratch_load_dwordx4 s[8:11], s[0:1], 0x8", in, {{"s8", 11}, {"s11", 14}}},
      {"s_scratch_store_dword s2, s[0:1], 0x8", in, {{"mem:0x2008", 0xaaaa}, {"mem:0x200c", 12}}},
      {"s_scratch_store_dwordx2 s[2:3], s[0:1], 0x8",
       in,
       {{"mem:0x2008", 0xaaaa}, {"mem:0x200c", 0xbbbb}, {"mem:0x2010", 13}}},
      {"s_scratch_store_dwordx4 s[8:11], s[0:1], 0x8", in, {{"mem:0x2008", 1}, {"mem:0x2014", 4}}},
  });
}

}  // namespace
}  // namespace vgpu::isa::test
