// VALU fast path (Vop.cpp execValuInPlace) against the general path: 32- and 64-bit ops, scalar
// and VGPR-pair sources, carries through VCC and SGPR pairs (VOP3B), sources that are also the
// destination, compares into VCC and SGPR pairs, v_cmpx. v0 = lane id; v1..v7, s[0:3] set by
// the test.
  v_add_u32 v8, v0, v1
  v_add_co_u32 v9, vcc, v1, v2
  v_addc_co_u32 v10, vcc, v2, v3, vcc
  v_add_co_u32_e64 v11, s[10:11], v1, v3
  v_addc_co_u32_e64 v12, s[12:13], v2, v3, s[10:11]
  v_sub_co_u32_e64 v13, s[14:15], v1, v2
  v_subb_co_u32 v14, vcc, v3, v1, vcc
  v_cndmask_b32_e64 v15, v1, v2, s[12:13]
  v_mad_u64_u32 v[16:17], s[16:17], v1, v2, v[2:3]
  v_mad_u64_u32 v[2:3], s[18:19], v2, 3, v[2:3]
  v_lshrrev_b64 v[18:19], 1, v[2:3]
  v_lshrrev_b64 v[3:4], v0, v[3:4]
  v_lshlrev_b64 v[20:21], 3, s[2:3]
  v_ashrrev_i64 v[22:23], 5, v[4:5]
  v_cmp_gt_u64 vcc, v[4:5], v[6:7]
  v_cmp_lt_i64_e64 s[20:21], v[6:7], s[2:3]
  v_cmp_eq_u32_e64 s[22:23], v1, v2
  v_cmp_le_u64_e64 s[26:27], v[4:5], v[6:7]
  v_cmp_ge_i64_e64 s[28:29], v[4:5], v[6:7]
  v_cmp_eq_u64_e64 s[30:31], v[4:5], v[6:7]
  v_cmp_ne_i64_e64 s[32:33], v[6:7], v[4:5]
  v_cmp_gt_i64_e64 s[34:35], v[6:7], v[4:5]
  v_cmp_lt_u64_e64 s[36:37], v[6:7], v[4:5]
  v_cndmask_b32 v24, v5, v6, vcc
  v_add_f64 v[26:27], v[4:5], 1.0
  v_mul_f64 v[28:29], v[26:27], s[2:3]
  v_cvt_f32_f64 v30, v[26:27]
  v_cvt_f64_u32 v[32:33], v1
  v_mul_lo_u32 v34, v1, v2
  v_mul_hi_u32 v35, v1, s1
  v_lshl_or_b32 v36, v0, 2, 3
  v_add_u32 v1, v1, v1
  v_xor_b32 v37, v1, v2
  v_mov_b32 v38, s1
  v_add_f32 v39, v1, v5
  // Scalar first sources, uniform in the loops over every lane: shifts by a constant or an
  // SGPR, carries, compares, 64-bit ops (a destination pair that is a source pair too).
  v_lshlrev_b32 v46, 3, v1
  v_ashrrev_i32 v47, 31, v2
  v_lshrrev_b32_e64 v48, s0, v1
  v_add_co_u32 v49, vcc, s1, v2
  v_addc_co_u32 v50, vcc, 9, v3, vcc
  v_cmp_gt_i32 vcc, s0, v1
  v_cndmask_b32 v51, v1, v2, vcc
  v_lshlrev_b64 v[52:53], 2, v[1:2]
  v_lshlrev_b64 v[54:55], v0, v[1:2]
  v_add_f64 v[56:57], s[2:3], v[4:5]
  v_mul_lo_u32 v58, s0, v1
  v_mad_u64_u32 v[60:61], s[38:39], s0, v1, v[2:3]
  v_lshlrev_b64 v[2:3], 1, v[2:3]
  v_subrev_co_u32 v62, vcc, 7, v62
  // Floats of every kind (the VGPRs hold random bits: NaNs, infinities, denormals).
  v_fma_f32 v41, v1, v2, v5
  v_fmac_f32 v63, v3, v4
  v_max_f32 v59, v1, s3
  v_ldexp_f32 v57, v2, v0
  v_cmpx_lt_u32 vcc, v1, v2
  v_add_u32 v40, v1, v2
  v_mad_u64_u32 v[42:43], s[24:25], v1, v2, 0
  v_sub_u32 v44, v2, v1
  v_mov_b32 v45, v44
  s_endpgm
