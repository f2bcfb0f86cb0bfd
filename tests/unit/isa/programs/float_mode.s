// MODE register float controls (FloatModeTest.cpp): one labelled snippet per case, each run
// from its label to its s_endpgm with MODE and the source VGPRs set by the test.
add_f32:
  v_add_f32 v2, v0, v1
  s_endpgm
mul_f32:
  v_mul_f32 v2, v0, v1
  s_endpgm
fma_f32:
  v_fma_f32 v3, v0, v1, v2
  s_endpgm
add_f64:
  v_add_f64 v[4:5], v[0:1], v[2:3]
  s_endpgm
mul_f64:
  v_mul_f64 v[4:5], v[0:1], v[2:3]
  s_endpgm
add_f16:
  v_add_f16 v2, v0, v1
  s_endpgm
mul_f16:
  v_mul_f16 v2, v0, v1
  s_endpgm
fma_f16:
  v_fma_f16 v3, v0, v1, v2
  s_endpgm
pk_add_f16:
  v_pk_add_f16 v2, v0, v1
  s_endpgm
pk_fma_f16:
  v_pk_fma_f16 v3, v0, v1, v2
  s_endpgm
cvt_f16_f32:
  v_cvt_f16_f32 v2, v0
  s_endpgm
cvt_f32_f16:
  v_cvt_f32_f16 v2, v0
  s_endpgm
cvt_f32_f64:
  v_cvt_f32_f64 v2, v[0:1]
  s_endpgm
cvt_f32_i32:
  v_cvt_f32_i32 v2, v0
  s_endpgm
cvt_f32_u32:
  v_cvt_f32_u32 v2, v0
  s_endpgm
cvt_i32_f32:
  v_cvt_i32_f32 v2, v0
  v_cvt_rpi_i32_f32 v3, v0
  v_rndne_f32 v4, v0
  s_endpgm
cvt_pkrtz:
  v_cvt_pkrtz_f16_f32 v2, v0, v1
  s_endpgm
mac_f32:
  v_mov_b32 v2, 0
  v_mac_f32 v2, v0, v1
  v_mad_f32 v3, v0, v1, 0
  v_fma_f32 v4, v0, v1, 0
  s_endpgm
mad_f16:
  v_mad_f16 v2, v0, v1, 0
  v_fma_f16 v3, v0, v1, 0
  s_endpgm
transcendental:
  v_rcp_f32 v2, v0
  v_sqrt_f32 v3, v0
  v_rcp_f16 v4, v1
  v_exp_f32 v5, -v0
  s_endpgm
min_max:
  v_max_f32 v2, v0, 0
  v_min_f32 v3, v0, 1.0
  v_max_f16 v4, v1, 0
  v_cndmask_b32 v5, v0, v1, vcc
  s_endpgm
fma_mix:
  v_fma_mix_f32 v3, v0, v1, v2 op_sel_hi:[1,1,0]
  v_fma_mixlo_f16 v4, v0, v1, v2 op_sel_hi:[1,1,0]
  s_endpgm
setreg:
  v_add_f32 v2, v0, v1
  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 2), 1
  v_add_f32 v3, v0, v1
  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 0
  v_mul_f32 v4, v0, v1
  s_endpgm
