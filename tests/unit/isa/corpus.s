v_add_f32_e64 v0, -v1, |v2| clamp mul:2
v_add_f32_e64 v0, -|v1|, v2 div:2
v_add_u32_e64 v0, v1, v2 clamp
v_mad_f16 v0, v1, v2, v3 op_sel:[1,0,1,1]
v_add_f32 v0, 0.5, v1
v_add_f32 v0, 0.15915494, v1
v_add_f16 v0, 0.15915494, v1
v_add_u32 v0, 0.5, v1
v_add_u32 v0, 1.0, v1
v_mov_b32 v0, 0x3e22f983
v_add_f32 v0, 0x40490fdb, v1
v_add_f32 v0, 3.14159, v1
v_mov_b32 v0, -16
v_mov_b32 v0, 64
v_mov_b32 v0, 65
v_mov_b32 v0, -17
s_mov_b32 s0, -17
s_mov_b32 s0, 0x12345678
s_mov_b64 s[0:1], 0x12345678
s_mov_b64 s[0:1], 0.5
s_movk_i32 s0, 0xffff
s_movk_i32 s0, 0x1
s_mov_b32 s0, vcc_lo
s_mov_b32 s0, m0
s_mov_b64 s[0:1], exec
s_mov_b64 s[0:1], flat_scratch
s_mov_b32 s0, flat_scratch_hi
s_mov_b32 s0, xnack_mask_lo
s_mov_b32 s0, ttmp1
s_mov_b64 s[0:1], ttmp[2:3]
s_mov_b32 s0, src_shared_base
s_mov_b32 s0, src_private_base
s_mov_b32 s0, src_pops_exiting_wave_id
s_mov_b32 s0, src_vccz
s_mov_b32 s0, src_execz
s_mov_b32 s0, src_scc
v_mov_b32 v0, src_lds_direct
s_mov_b64 s[0:1], vcc
v_mov_b32_dpp v0, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
v_mov_b32_dpp v0, v1 row_shl:1 row_mask:0xa bank_mask:0x3 bound_ctrl:0
v_add_f32_dpp v0, -v1, |v2| row_shr:3 row_mask:0xf bank_mask:0xf
v_add_f32_dpp v0, v1, v2 row_ror:3 row_mask:0xf bank_mask:0xf
v_add_f32_dpp v0, v1, v2 wave_shl:1 row_mask:0xf bank_mask:0xf
v_add_f32_dpp v0, v1, v2 row_bcast:15 row_mask:0xf bank_mask:0xf
v_add_f32_dpp v0, v1, v2 row_mirror row_mask:0xf bank_mask:0xf
v_add_f32_dpp v0, v1, v2 row_half_mirror row_mask:0xf bank_mask:0xf
v_add_f32_sdwa v0, v1, v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD
v_add_f32_sdwa v0, -v1, |v2| clamp dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_0 src1_sel:WORD_0
v_add_u32_sdwa v0, sext(v1), v2 dst_sel:BYTE_1 dst_unused:UNUSED_SEXT src0_sel:BYTE_2 src1_sel:BYTE_3
v_add_u32_sdwa v0, s1, v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD
v_mov_b32_sdwa v0, v1 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1
v_cmp_eq_f32_sdwa vcc, v1, v2 src0_sel:WORD_1 src1_sel:DWORD
v_cmp_eq_f32_sdwa s[2:3], v1, v2 src0_sel:WORD_1 src1_sel:DWORD
v_cmp_eq_u32_e64 s[2:3], v1, 5
v_cmp_eq_f32_e64 s[2:3], -v1, |v2| clamp
v_cmpx_eq_u32 vcc, v1, v2
v_cmpx_eq_u32_e64 s[0:1], v1, v2
v_pk_add_f16 v0, v1, v2
v_pk_add_f16 v0, v1, v2 op_sel:[1,0] op_sel_hi:[0,1] neg_lo:[1,0] neg_hi:[0,1] clamp
v_pk_fma_f16 v0, v1, v2, v3 op_sel_hi:[0,0,0]
v_pk_add_f16 v0, v1, 1.0
v_pk_add_u16 v0, v1, 5
v_fma_mix_f32 v0, v1, v2, v3 op_sel:[0,0,1] op_sel_hi:[1,1,1]
v_madmk_f32 v0, v1, 0x41200000, v2
v_madak_f32 v0, v1, v2, 0x41200000
v_mac_f32 v0, v1, v2
v_mac_f32_e64 v0, v1, v2 clamp
v_fmac_f32 v0, 1.0, v2
v_readlane_b32 s0, v1, s2
v_writelane_b32 v0, s1, 3
v_div_scale_f32 v0, vcc, v1, v2, v3
v_div_scale_f32 v0, s[2:3], -v1, v2, v3
v_mad_u64_u32 v[0:1], s[2:3], v1, v2, v[4:5]
v_mad_u64_u32 v[0:1], s[2:3], v1, v2, v[4:5] clamp
v_cndmask_b32_e64 v0, v1, v2, s[4:5]
v_cndmask_b32_e64 v0, -v1, |v2|, vcc
v_cvt_f32_f16_e64 v0, |v1| clamp
v_ldexp_f32 v0, -v1, v2 clamp
v_frexp_exp_i32_f32_e64 v0, -v1
v_cmp_class_f32_e64 s[0:1], -v1, v2
v_add_co_u32_e64 v0, vcc, v1, v2
v_addc_co_u32_e64 v0, s[0:1], v1, v2, s[6:7]
v_nop
v_clrexcp
v_swap_b32 v0, v1
v_interp_p1_f32 v0, v1, attr0.x
v_interp_mov_f32 v0, p10, attr31.w
v_add_u16_sdwa v0, v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:DWORD src1_sel:DWORD
v_bfe_u32 v0, v1, 8, 4
v_lshlrev_b64 v[0:1], 2, v[0:1]
v_add_f64 v[0:1], -v[2:3], |v[4:5]| clamp
v_add_f64 v[0:1], s[2:3], 1.0
v_rcp_f64 v[0:1], 0x40100000
v_mul_f64 v[0:1], v[2:3], 4.0
v_trig_preop_f64 v[0:1], v[2:3], 3
v_cvt_pkrtz_f16_f32 v0, v1, v2
s_load_dword s0, s[2:3], -0x10
s_load_dword s0, s[2:3], s4 offset:0x10
s_load_dwordx2 s[0:1], s[2:3], 0x0 glc
s_atc_probe 7, s[4:5], 0x10
v_mad_f16 v0, v1, v2, v3 op_sel:[1,0,1,1] clamp
v_mad_u32_u16 v0, v1, v2, v3 op_sel:[1,1,0,0]
v_pack_b32_f16 v0, v1, v2 op_sel:[1,1,0]
v_add_f32_sdwa v0, v1, v2 clamp mul:2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD
v_cvt_f32_f16_sdwa v0, v1 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1
s_cmpk_eq_u32 s0, 0x1
s_addk_i32 s0, 0xfff0
v_fma_mix_f32 v0, v1, v2, v3 clamp
s_getreg_b32 s0, hwreg(1)
s_getreg_b32 s0, hwreg(2)
s_getreg_b32 s0, hwreg(3)
s_getreg_b32 s0, hwreg(4)
s_getreg_b32 s0, hwreg(5)
s_getreg_b32 s0, hwreg(6)
s_getreg_b32 s0, hwreg(7)
s_getreg_b32 s0, hwreg(8)
s_getreg_b32 s0, hwreg(9)
s_getreg_b32 s0, hwreg(10)
s_getreg_b32 s0, hwreg(11)
s_getreg_b32 s0, hwreg(12)
s_getreg_b32 s0, hwreg(13)
s_getreg_b32 s0, hwreg(14)
s_getreg_b32 s0, hwreg(15)
s_getreg_b32 s0, hwreg(16)
s_getreg_b32 s0, hwreg(17)
s_getreg_b32 s0, hwreg(18)
s_getreg_b32 s0, hwreg(19)
s_getreg_b32 s0, hwreg(20)
s_getreg_b32 s0, hwreg(21)
s_getreg_b32 s0, hwreg(22)
s_getreg_b32 s0, hwreg(23)
s_getreg_b32 s0, hwreg(24)
s_getreg_b32 s0, hwreg(HW_REG_MODE, 4, 8)
s_getreg_b32 s0, hwreg(HW_REG_MODE, 0, 32)
s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), 0x55
s_call_b64 s[0:1], 4
s_setreg_b32 hwreg(HW_REG_TRAPSTS), s2
s_sendmsg sendmsg(MSG_INTERRUPT)
s_sendmsg 3
s_sendmsg sendmsg(MSG_GS, GS_OP_EMIT, 1)
s_sendmsg 0xffff
s_waitcnt vmcnt(63) expcnt(7) lgkmcnt(15)
s_waitcnt 0
s_waitcnt vmcnt(1) lgkmcnt(2)
s_waitcnt expcnt(0)
s_waitcnt 0xffff
s_cbranch_join s2
s_set_gpr_idx_on s2, gpr_idx(SRC0,DST)
s_set_gpr_idx_off
s_endpgm_saved
s_wakeup
s_icache_inv
s_ttracedata
s_barrier
s_trap 2
s_setprio 3
s_nop 0
s_endpgm
s_rfe_b64 s[2:3]
s_memtime s[0:1]
s_memrealtime s[0:1]
s_dcache_inv
s_dcache_wb
s_dcache_inv_vol
s_dcache_wb_vol
s_load_dword s0, s[2:3], s4
s_load_dword s0, s[2:3], 0x10 glc
s_store_dword s0, s[2:3], 0x10 glc
s_atomic_add s0, s[2:3], 0x10 glc
buffer_wbinvl1_vol
buffer_wbinvl1
buffer_load_dword v1, off, s[4:7], 0
buffer_load_dword v1, v2, s[4:7], 0 idxen
buffer_load_dword v1, off, s[4:7], s2 offset:4 tfe
buffer_atomic_add v1, off, s[4:7], 0 glc
tbuffer_load_format_x v4, v2, s[8:11], 0 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT] offen offset:16
tbuffer_load_format_x v4, off, s[8:11], 0
tbuffer_load_format_xyzw v[4:7], off, s[8:11], 0 format:[BUF_DATA_FORMAT_32_32_32_32]
buffer_load_dword v1, off, s[4:7], 0 offset:4095
buffer_load_format_d16_xy v1, off, s[4:7], 0
buffer_load_dword v1, off, s[4:7], -1
buffer_load_dword v1, off, s[4:7], 0.5
buffer_load_dword v1, off, s[4:7], m0
flat_load_dword v1, v[2:3] offset:4095
global_load_dword v1, v[2:3], off offset:4095
global_load_dword v1, v[2:3], off offset:-4096
flat_load_dword v1, v[2:3] offset:16
flat_store_dword v[2:3], v1
flat_atomic_add v1, v[2:3], v4 glc
global_load_dword v1, v2, s[4:5] offset:-16
global_atomic_add v1, v[2:3], v4, off glc slc
scratch_load_dword v1, off, s4 offset:8
scratch_store_dword v1, v2, off
global_load_short_d16_hi v1, v[2:3], off
flat_load_dword v1, v[2:3] glc slc
v_interp_p1_f32_e64 v0, v1, attr0.x
v_interp_p1_f32_e64 v5, v1, attr31.w clamp
v_interp_p1_f32_e64 v5, -v1, attr3.y div:2
v_interp_p1_f32_e64 v5, |v1|, attr3.y mul:2
v_interp_p2_f32_e64 v5, v1, attr3.y
v_interp_p2_f32_e64 v5, -|v1|, attr32.z clamp mul:4
v_interp_mov_f32_e64 v5, p0, attr3.y
v_interp_mov_f32_e64 v5, p10, attr3.y
v_interp_mov_f32_e64 v5, p20, attr3.y clamp mul:4
v_interp_p1ll_f16 v5, v1, attr3.y
v_interp_p1ll_f16 v5, -v1, attr3.y high clamp mul:2
v_interp_p1ll_f16 v5, |v1|, attr0.w div:2
v_interp_p1lv_f16 v5, v1, attr3.y, v2 high
v_interp_p1lv_f16 v5, -v1, attr3.y, |v2| clamp
v_interp_p2_f16 v5, -v1, attr3.y, -v2 clamp
v_interp_p2_f16 v5, v1, attr12.x, v2 high
v_interp_p2_legacy_f16 v5, v1, attr3.y, v2
v_interp_p2_legacy_f16 v5, |v1|, attr30.w, -|v2| high clamp
v_interp_p1_f32 v5, v1, attr3.y
v_interp_p2_f32 v5, v255, attr32.w
v_interp_mov_f32 v5, p0, attr3.y
v_interp_mov_f32 v5, p10, attr0.x
v_interp_mov_f32 v5, p20, attr1.z
s_nand_saveexec_b64 s[0:1], s[2:3]
s_cmp_eq_u64 s[0:1], s[2:3]
s_cmp_lg_u64 s[0:1], 0x12345678
s_buffer_atomic_cmpswap_x2 s[0:3], s[4:7], 0x10 glc
v_pk_mul_lo_u16 v0, v1, v2
v_pk_add_i16 v0, v1, v2
v_pk_sub_i16 v0, v1, v2 clamp
v_pk_lshlrev_b16 v0, v1, v2
v_pk_lshrrev_b16 v0, v1, v2
v_pk_ashrrev_i16 v0, v1, v2
v_pk_max_i16 v0, v1, v2
v_pk_min_i16 v0, v1, v2
v_pk_sub_u16 v0, v1, v2
v_pk_max_u16 v0, v1, v2
v_pk_min_u16 v0, v1, v2 op_sel:[1,0]
v_pk_mul_f16 v0, v1, v2 neg_lo:[1,0]
v_pk_min_f16 v0, v1, v2
v_pk_max_f16 v0, v1, v2 op_sel_hi:[0,1]
buffer_load_format_d16_x v1, off, s[0:3], 0
buffer_load_format_d16_xy v1, off, s[0:3], 0
buffer_load_format_d16_xyz v[1:2], off, s[0:3], 0
buffer_load_format_d16_xyzw v[1:2], off, s[0:3], 0
buffer_load_format_d16_hi_x v1, off, s[0:3], 0
buffer_store_format_d16_x v1, off, s[0:3], 0
buffer_store_format_d16_xy v1, off, s[0:3], 0
buffer_store_format_d16_xyz v[1:2], off, s[0:3], 0
buffer_store_format_d16_xyzw v[1:2], off, s[0:3], 0
buffer_store_format_d16_hi_x v1, off, s[0:3], 0
tbuffer_load_format_d16_x v1, off, s[0:3], 0 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT]
tbuffer_load_format_d16_xy v1, off, s[0:3], 0 format:[BUF_DATA_FORMAT_32_32,BUF_NUM_FORMAT_FLOAT]
tbuffer_load_format_d16_xyz v[1:2], off, s[0:3], 0 format:[BUF_DATA_FORMAT_32_32_32,BUF_NUM_FORMAT_UINT]
tbuffer_load_format_d16_xyzw v[1:2], off, s[0:3], 0 format:[BUF_DATA_FORMAT_32_32_32_32,BUF_NUM_FORMAT_SINT]
tbuffer_store_format_d16_x v1, off, s[0:3], 0 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT]
tbuffer_store_format_d16_xy v1, off, s[0:3], 0 format:[BUF_DATA_FORMAT_32_32,BUF_NUM_FORMAT_FLOAT]
tbuffer_store_format_d16_xyz v[1:2], off, s[0:3], 0 format:[BUF_DATA_FORMAT_32_32_32,BUF_NUM_FORMAT_UINT]
tbuffer_store_format_d16_xyzw v[1:2], off, s[0:3], 0 format:[BUF_DATA_FORMAT_32_32_32_32,BUF_NUM_FORMAT_SINT]
s_endpgm_ordered_ps_done
