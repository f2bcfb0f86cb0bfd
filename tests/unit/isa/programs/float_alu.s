// Float VALU with inline constants and modifiers. v0 = lane id.
  v_cvt_f32_u32 v1, v0                    // f = lane
  v_add_f32 v2, 0.5, v1
  v_mul_f32_e64 v3, -v1, |v4|             // v4 = -2.0 (set by the test)
  v_add_f32_e64 v5, v1, 1.0 clamp         // clamps to [0, 1]
  v_mul_f32_e64 v6, v1, 4.0 div:2
  v_mov_b32 v7, 1.0
  v_fmac_f32 v7, v1, v1                   // 1 + lane^2
  v_ldexp_f32 v8, v1, 3
  v_rcp_iflag_f32 v9, v7
  v_cvt_u32_f32 v10, v8
  v_fma_f32 v11, v1, 0.15915494, -1.0
  v_cvt_f64_f32 v[12:13], v1
  v_add_f64 v[14:15], v[12:13], 0.5
  v_mul_f64 v[16:17], v[14:15], -4.0
  v_max_f32 v18, 0x41200000, v1           // max(10.0, lane)
  v_cvt_f16_f32 v19, v1
  v_add_f16 v20, v19, 2.0
  v_cvt_f32_f16 v21, v20
  v_cmp_gt_f32 vcc, 0x41000000, v1        // lane < 8
  v_cndmask_b32 v22, 0, 1.0, vcc
  // Division v1 / v7 the way clang expands it.
  v_div_scale_f32 v23, s[10:11], v7, v7, v1
  v_div_scale_f32 v24, vcc, v1, v7, v1
  v_rcp_f32 v25, v23
  v_fma_f32 v26, -v23, v25, 1.0
  v_fma_f32 v25, v26, v25, v25
  v_mul_f32 v26, v24, v25
  v_fma_f32 v27, -v23, v26, v24
  v_fma_f32 v26, v27, v25, v26
  v_fma_f32 v27, -v23, v26, v24
  v_div_fmas_f32 v27, v27, v25, v26
  v_div_fixup_f32 v28, v27, v7, v1
  v_pk_add_f16 v29, v30, v30              // v30 = (1.5, -2.0) halves
  v_pk_mul_f16 v31, v30, v30 op_sel:[1,0] op_sel_hi:[0,1]
  s_endpgm
