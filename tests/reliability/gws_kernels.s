// Global wave sync across workgroups (tests/reliability/GwsTest.cpp). Assembled twice, with
// -mcpu=gfx906 and -mcpu=gfx900 (no .amdgcn_target: the target comes from -mcpu).
// One wave (EXEC = lane 0) per workgroup; s2 = workgroup id g; N = 8 workgroups.
// GWS resources: 0 the barrier, 1 the "barrier initialised" gate, 2 + g wave g's turn.
// Output dwords: [g] the GDS value wave g found, [32 + g] the value it left, [64 + g] its
// arrival flag, [128 + g] the arrival flags it saw after the barrier.
.text

.globl gws_ordered
.p2align 8
.type gws_ordered,@function
gws_ordered:
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  s_mov_b64 exec, 1
  s_mov_b32 s6, s2
  v_mov_b32 v1, 7                     // N - 1: the barrier's count
  v_mov_b32 v3, s6
  v_lshlrev_b32 v3, 2, v3             // 4 * g
  s_mov_b32 m0, 0                     // GWS resource 0 + offset
  s_nop 0
  s_cmp_eq_u32 s6, 0
  s_cbranch_scc0 .Lwait_init
  // Wave 0: barrier 0 waits for N waves, then the gate lets the N - 1 others through.
  ds_gws_init v1 gds
  ds_gws_sema_br v1 offset:1 gds
  s_waitcnt lgkmcnt(0)
  s_branch .Linit_done
.Lwait_init:
  ds_gws_sema_p offset:1 gds
  s_waitcnt lgkmcnt(0)
.Linit_done:
  // Arrive: flag [64 + g] = 1, then the device-wide barrier.
  v_mov_b32 v2, 1
  s_waitcnt lgkmcnt(0)
  global_store_dword v3, v2, s[4:5] offset:256
  s_waitcnt vmcnt(0)
  ds_gws_barrier v1 gds
  s_waitcnt lgkmcnt(0)
  // Every flag is set once the barrier let this wave go (glc: past the vector L1).
  v_mov_b32 v4, 0
  global_load_dword v5, v4, s[4:5] offset:256 glc
  global_load_dword v6, v4, s[4:5] offset:260 glc
  global_load_dword v7, v4, s[4:5] offset:264 glc
  global_load_dword v8, v4, s[4:5] offset:268 glc
  global_load_dword v9, v4, s[4:5] offset:272 glc
  global_load_dword v10, v4, s[4:5] offset:276 glc
  global_load_dword v11, v4, s[4:5] offset:280 glc
  global_load_dword v12, v4, s[4:5] offset:284 glc
  s_waitcnt vmcnt(0)
  v_add_u32 v5, v5, v6
  v_add_u32 v5, v5, v7
  v_add_u32 v5, v5, v8
  v_add_u32 v5, v5, v9
  v_add_u32 v5, v5, v10
  v_add_u32 v5, v5, v11
  v_add_u32 v5, v5, v12
  global_store_dword v3, v5, s[4:5] offset:512
  // Wave g > 0 waits for its turn (resource 2 + g, given by wave g - 1).
  s_cmp_eq_u32 s6, 0
  s_cbranch_scc1 .Lturn
  s_add_u32 s7, s6, 2
  s_lshl_b32 m0, s7, 16
  s_nop 0
  ds_gws_sema_p gds
  s_waitcnt lgkmcnt(0)
.Lturn:
  // GDS[0] = GDS[0] * 3 + g + 1: the result depends on the order of the updates.
  s_mov_b32 m0, 0xffff                // GDS window: base 0, 0xffff bytes
  s_nop 0
  ds_read_b32 v13, v4 gds
  s_waitcnt lgkmcnt(0)
  v_mul_lo_u32 v14, v13, 3
  s_add_u32 s8, s6, 1
  v_add_u32 v14, s8, v14
  ds_write_b32 v4, v14 gds
  s_waitcnt lgkmcnt(0)
  global_store_dword v3, v13, s[4:5]
  global_store_dword v3, v14, s[4:5] offset:128
  // Wave g + 1's turn.
  s_add_u32 s7, s6, 3
  s_lshl_b32 m0, s7, 16
  s_nop 0
  ds_gws_sema_v gds
  s_waitcnt vmcnt(0) lgkmcnt(0)
  s_endpgm
.Lgws_ordered_end:
.size gws_ordered, .Lgws_ordered_end-gws_ordered

.globl gws_sema_p_forever
.p2align 8
.type gws_sema_p_forever,@function
gws_sema_p_forever:
  // Resource 5 is never signalled: only the watchdog can end this.
  s_mov_b32 m0, 0x50000
  s_nop 0
  ds_gws_sema_p gds
  s_waitcnt lgkmcnt(0)
  s_endpgm
.Lgws_sema_p_forever_end:
.size gws_sema_p_forever, .Lgws_sema_p_forever_end-gws_sema_p_forever

.rodata
.p2align 6
.amdhsa_kernel gws_ordered
  .amdhsa_next_free_vgpr 16
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_group_segment_fixed_size 0
.end_amdhsa_kernel

.amdhsa_kernel gws_sema_p_forever
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_group_segment_fixed_size 0
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 1 ]
amdhsa.kernels:
  - .name: gws_ordered
    .symbol: gws_ordered.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 16
    .vgpr_count: 16
    .max_flat_workgroup_size: 1024
    .args:
      - { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
  - .name: gws_sema_p_forever
    .symbol: gws_sema_p_forever.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 16
    .vgpr_count: 8
    .max_flat_workgroup_size: 1024
    .args:
      - { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
...
.end_amdgpu_metadata
