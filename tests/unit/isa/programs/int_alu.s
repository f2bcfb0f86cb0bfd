// Integer VALU/SALU with inline constants, literals and carry chains. v0 = lane id.
  v_mov_b32 v1, -1
  v_add_co_u32 v2, vcc, v0, v1            // lane + 0xffffffff: carry for lanes >= 1
  v_addc_co_u32 v3, vcc, 0, 0, vcc        // v3 = carry
  v_mul_lo_u32 v4, v0, s2                 // s2 = 0x10001 (set by the test)
  v_mul_hi_u32 v5, v0, s3                 // s3 = 0x80000000
  v_mad_u64_u32 v[6:7], s[10:11], v0, s3, v[8:9]   // v[8:9] = 0xffffffff_00000000 + lane
  v_lshl_add_u32 v10, v0, 2, 5
  v_lshl_or_b32 v11, v0, 4, 3
  v_add3_u32 v12, v0, v0, s2
  v_sub_u32 v13, 0, v0
  v_ashrrev_i32 v14, 1, v13
  v_lshlrev_b64 v[16:17], 33, v[0:1]
  v_lshrrev_b64 v[18:19], 4, v[16:17]
  v_ffbh_u32 v20, v0
  v_cmp_gt_u32 vcc, 32, v0
  v_cndmask_b32 v21, 7, v0, vcc           // lanes < 32: lane, else 7
  v_cmp_lt_i32_e64 s[12:13], v14, -4
  v_cndmask_b32_e64 v22, 1, 2, s[12:13]
  v_min_u32 v23, 9, v0
  v_readfirstlane_b32 s20, v10
  v_or_b32 v24, 0x100, v0
  v_and_b32 v25, 3, v0
  v_subrev_u32 v26, 64, v0
  v_mbcnt_lo_u32_b32 v27, -1, 0
  v_mbcnt_hi_u32_b32 v27, -1, v27
  v_bfe_u32 v28, v24, 4, 6
  v_alignbit_b32 v29, v0, v24, 8
  s_mov_b32 s21, 0x7fffffff
  s_add_u32 s22, s21, s21                 // 0xfffffffe, no carry
  s_addc_u32 s23, s21, 1                  // 0x80000000
  s_sub_i32 s24, 5, 9
  s_mul_i32 s25, s24, -3
  s_lshl_b64 s[26:27], s[2:3], 8
  s_ashr_i32 s28, s24, 1
  s_cselect_b32 s29, 11, 22
  s_bfe_u32 s30, 0xabcd, s33              // s33 = 0x40004: offset 4, width 4 -> 0xc
  s_movk_i32 s31, 0x8000                  // sign-extended
  s_min_u32 s32, s2, s3
  s_endpgm
