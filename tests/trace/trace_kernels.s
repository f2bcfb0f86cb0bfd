// A hand-written kernel for the trace tests (tests/trace/TraceTest.cpp): every wave writes and
// reads the LDS at a stride of two dwords, so each half-wave puts two distinct dwords in each of
// 16 banks: every DS instruction takes 4 bank cycles instead of 2, i.e. 2 conflict cycles
// (LdsBankArbiter.h). It also loads and stores global memory (flows through the texture path,
// vector L1, L2 and DRAM), loads its kernel argument through the scalar cache, and waits at a
// barrier and at s_waitcnt (stalled waves).
.amdgcn_target "amdgcn-amd-amdhsa--gfx906"
.text
.globl lds_stride2
.p2align 8
.type lds_stride2,@function
lds_stride2:
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  s_lshl_b32 s6, s2, 9               // workgroup id x 128 work-items x 4 bytes
  v_lshlrev_b32 v1, 3, v0            // LDS byte address: 8 x local id (stride 2 dwords)
  ds_write_b32 v1, v0
  s_waitcnt lgkmcnt(0)
  s_barrier
  .rept 8
  ds_read_b32 v2, v1
  .endr
  s_waitcnt lgkmcnt(0)
  v_lshlrev_b32 v3, 2, v0
  v_add_u32 v3, s6, v3
  v_mov_b32 v5, s5
  v_add_co_u32 v4, vcc, s4, v3
  v_addc_co_u32 v5, vcc, v5, 0, vcc
  global_load_dword v6, v[4:5], off
  s_waitcnt vmcnt(0)
  v_add_u32 v6, v6, v2
  global_store_dword v[4:5], v6, off
  s_endpgm
.Llds_stride2_end:
.size lds_stride2, .Llds_stride2_end-lds_stride2

.rodata
.p2align 6
.amdhsa_kernel lds_stride2
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_group_segment_fixed_size 2048
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 1 ]
amdhsa.kernels:
  - .name: lds_stride2
    .symbol: lds_stride2.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 2048
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 16
    .vgpr_count: 8
    .max_flat_workgroup_size: 128
    .args:
      - { .name: data, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
...
.end_amdgpu_metadata
