// A hand-written kernel for the per-instruction profile tests (tests/report/ProfileTest.cpp),
// whose hottest instructions are known by construction: every wave (one per workgroup of 64
// work-items) loads out[i], waits for it, adds its local id to it `count` times in a
// four-instruction loop and stores it back, so out[i] += count * (i % 64). The loop body issues
// count times per wave, every other instruction once; only the s_waitcnt vmcnt(0) can wait for
// vector memory, only the s_waitcnt lgkmcnt(0) for the scalar loads.
.amdgcn_target "amdgcn-amd-amdhsa--gfx906"
.text
.globl profile_loop
.p2align 8
.type profile_loop,@function
profile_loop:
  s_load_dwordx2 s[4:5], s[0:1], 0x0   // out
  s_load_dword s6, s[0:1], 0x8         // count (at least 1)
  s_lshl_b32 s7, s2, 8                 // workgroup id x 64 work-items x 4 bytes
  v_lshlrev_b32 v2, 2, v0
  v_add_u32 v2, s7, v2
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v4, s5
  v_add_co_u32 v3, vcc, s4, v2
  v_addc_co_u32 v4, vcc, v4, 0, vcc
  global_load_dword v1, v[3:4], off
  s_waitcnt vmcnt(0)
.Lloop:
  v_add_u32 v1, v1, v0
  s_add_i32 s6, s6, -1
  s_cmp_lg_u32 s6, 0
  s_cbranch_scc1 .Lloop
  global_store_dword v[3:4], v1, off
  s_endpgm
.Lprofile_loop_end:
.size profile_loop, .Lprofile_loop_end-profile_loop

.rodata
.p2align 6
.amdhsa_kernel profile_loop
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_system_sgpr_workgroup_id_x 1
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 1 ]
amdhsa.kernels:
  - .name: profile_loop
    .symbol: profile_loop.kd
    .kernarg_segment_size: 12
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 16
    .vgpr_count: 8
    .max_flat_workgroup_size: 64
    .args:
      - { .name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: count, .offset: 8, .size: 4, .value_kind: by_value }
...
.end_amdgpu_metadata
