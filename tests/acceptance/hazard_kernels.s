// Hand-written kernels for `vgpu-sim run --check-hazards` (tests/acceptance/CliTest.cpp): the
// same work (out[i] = i for the work-items of the grid) with and without the wait states that
// Vega ISA guide 4.5, table 8 requires. Silicon would store through a stale s[4:5] in the first; the model
// executes each instruction to completion, so both produce the right result and only the hazard
// checker tells them apart.
.amdgcn_target "amdgcn-amd-amdhsa--gfx906"
.text

// Row 9 "VALU writes SGPR -> VMEM reads that SGPR": 5 wait states required, 1 present (the
// v_lshlrev_b32); row 11 "VALU writes VGPR -> DPP reads it": 2 required, 0 present.
.globl missing_wait_states
.p2align 8
.type missing_wait_states,@function
missing_wait_states:
  s_load_dwordx2 s[12:13], s[0:1], 0x0  // out
  s_lshl_b32 s8, s2, 6                 // workgroup id x (s2, after the kernarg pointer) * 64
  s_waitcnt lgkmcnt(0)
  v_add_u32 v0, s8, v0                 // global id
  v_mov_b32 v1, s12
  v_mov_b32 v2, s13
  v_readfirstlane_b32 s4, v1
  v_readfirstlane_b32 s5, v2
  v_lshlrev_b32 v3, 2, v0
  global_store_dword v3, v0, s[4:5]
  v_add_u32 v4, 1, v0
  v_mov_b32_dpp v5, v4 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf
  s_endpgm
.Lmissing_wait_states_end:
.size missing_wait_states, .Lmissing_wait_states_end-missing_wait_states

// The same with the wait states in place.
.globl enough_wait_states
.p2align 8
.type enough_wait_states,@function
enough_wait_states:
  s_load_dwordx2 s[12:13], s[0:1], 0x0
  s_lshl_b32 s8, s2, 6
  s_waitcnt lgkmcnt(0)
  v_add_u32 v0, s8, v0
  v_mov_b32 v1, s12
  v_mov_b32 v2, s13
  v_readfirstlane_b32 s4, v1
  v_readfirstlane_b32 s5, v2
  v_lshlrev_b32 v3, 2, v0
  s_nop 3
  global_store_dword v3, v0, s[4:5]
  v_add_u32 v4, 1, v0
  s_nop 1
  v_mov_b32_dpp v5, v4 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf
  s_endpgm
.Lenough_wait_states_end:
.size enough_wait_states, .Lenough_wait_states_end-enough_wait_states

.rodata
.p2align 6
.amdhsa_kernel missing_wait_states
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_system_sgpr_workgroup_id_x 1
.end_amdhsa_kernel

.amdhsa_kernel enough_wait_states
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_system_sgpr_workgroup_id_x 1
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 1 ]
amdhsa.kernels:
  - .name: missing_wait_states
    .symbol: missing_wait_states.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 16
    .vgpr_count: 8
    .max_flat_workgroup_size: 64
    .args:
      - { .name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
  - .name: enough_wait_states
    .symbol: enough_wait_states.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 16
    .vgpr_count: 8
    .max_flat_workgroup_size: 64
    .args:
      - { .name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
...
.end_amdgpu_metadata
