// Hand-written kernels whose cycle counts follow from the timing rules of models/cu and
// models/lds; tests/timing/TimingTest.cpp states each rule and checks it.
.amdgcn_target "amdgcn-amd-amdhsa--gfx906"
.text
.globl valu16
.p2align 8
.type valu16,@function
valu16:
  .rept 16
  v_add_f32 v1, v1, v0
  .endr
  s_endpgm
.Lvalu16_end:
.size valu16, .Lvalu16_end-valu16

.globl valu32
.p2align 8
.type valu32,@function
valu32:
  .rept 32
  v_add_f32 v1, v1, v0
  .endr
  s_endpgm
.Lvalu32_end:
.size valu32, .Lvalu32_end-valu32

.globl fma64_16
.p2align 8
.type fma64_16,@function
fma64_16:
  .rept 16
  v_fma_f64 v[2:3], v[2:3], v[2:3], v[2:3]
  .endr
  s_endpgm
.Lfma64_16_end:
.size fma64_16, .Lfma64_16_end-fma64_16

.globl fma32_16
.p2align 8
.type fma32_16,@function
fma32_16:
  .rept 16
  v_fma_f32 v1, v1, v1, v1
  .endr
  s_endpgm
.Lfma32_16_end:
.size fma32_16, .Lfma32_16_end-fma32_16

.globl load_wait_then_valu
.p2align 8
.type load_wait_then_valu,@function
load_wait_then_valu:
  s_load_dwordx2 s[2:3], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v4, s2
  v_mov_b32 v5, s3
  global_load_dword v1, v[4:5], off
  s_waitcnt vmcnt(0)
  .rept 16
  v_add_f32 v1, v1, v0
  .endr
  s_endpgm
.Lload_wait_then_valu_end:
.size load_wait_then_valu, .Lload_wait_then_valu_end-load_wait_then_valu

.globl load_valu_then_wait
.p2align 8
.type load_valu_then_wait,@function
load_valu_then_wait:
  s_load_dwordx2 s[2:3], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v4, s2
  v_mov_b32 v5, s3
  global_load_dword v1, v[4:5], off
  .rept 16
  v_add_f32 v1, v1, v0
  .endr
  s_waitcnt vmcnt(0)
  s_endpgm
.Lload_valu_then_wait_end:
.size load_valu_then_wait, .Lload_valu_then_wait_end-load_valu_then_wait

.globl lds_stride0
.p2align 8
.type lds_stride0,@function
lds_stride0:
  v_mov_b32 v1, 0
  .rept 8
  ds_read_b32 v2, v1
  .endr
  s_waitcnt lgkmcnt(0)
  s_endpgm
.Llds_stride0_end:
.size lds_stride0, .Llds_stride0_end-lds_stride0

.globl lds_stride1
.p2align 8
.type lds_stride1,@function
lds_stride1:
  v_lshlrev_b32 v1, 2, v0
  .rept 8
  ds_read_b32 v2, v1
  .endr
  s_waitcnt lgkmcnt(0)
  s_endpgm
.Llds_stride1_end:
.size lds_stride1, .Llds_stride1_end-lds_stride1

.globl lds_stride2
.p2align 8
.type lds_stride2,@function
lds_stride2:
  v_lshlrev_b32 v1, 3, v0
  .rept 8
  ds_read_b32 v2, v1
  .endr
  s_waitcnt lgkmcnt(0)
  s_endpgm
.Llds_stride2_end:
.size lds_stride2, .Llds_stride2_end-lds_stride2

.globl lds_stride32
.p2align 8
.type lds_stride32,@function
lds_stride32:
  v_lshlrev_b32 v1, 7, v0
  .rept 8
  ds_read_b32 v2, v1
  .endr
  s_waitcnt lgkmcnt(0)
  s_endpgm
.Llds_stride32_end:
.size lds_stride32, .Llds_stride32_end-lds_stride32

.globl barrier_stamp
.p2align 8
.type barrier_stamp,@function
barrier_stamp:
  s_load_dwordx2 s[2:3], s[0:1], 0x0
  v_lshrrev_b32 v6, 6, v0
  v_cmp_eq_u32 vcc, 0, v6
  s_and_saveexec_b64 s[10:11], vcc
  s_cbranch_execz .Lbarrier_join
  .rept 64
  v_add_f32 v1, v1, v0
  .endr
.Lbarrier_join:
  s_or_b64 exec, exec, s[10:11]
  s_barrier
  s_memtime s[4:5]
  s_waitcnt lgkmcnt(0)
  v_lshlrev_b32 v6, 3, v6
  v_mov_b32 v5, s3
  v_add_co_u32 v4, vcc, s2, v6
  v_addc_co_u32 v5, vcc, v5, 0, vcc
  v_mov_b32 v2, s4
  v_mov_b32 v3, s5
  global_store_dwordx2 v[4:5], v[2:3], off
  s_endpgm
.Lbarrier_stamp_end:
.size barrier_stamp, .Lbarrier_stamp_end-barrier_stamp

.globl lds_bpermute8
.p2align 8
.type lds_bpermute8,@function
lds_bpermute8:
  v_lshlrev_b32 v1, 2, v0
  .rept 8
  ds_bpermute_b32 v2, v1, v0
  .endr
  s_waitcnt lgkmcnt(0)
  s_endpgm
.Llds_bpermute8_end:
.size lds_bpermute8, .Llds_bpermute8_end-lds_bpermute8

// An LDS read, then a lane permute, then s_waitcnt lgkmcnt(1): the wait is for the read (LDS
// instructions return in order, and the permute is one), as LLVM emits it in rocPRIM's
// look-back scan. v7 copies the read's destination right after the wait; v6 gets the permute.
.globl lds_read_then_bpermute
.p2align 8
.type lds_read_then_bpermute,@function
lds_read_then_bpermute:
  s_load_dwordx2 s[2:3], s[0:1], 0x0
  v_lshlrev_b32 v1, 2, v0            // v1 = 4 x lane
  v_add_u32 v3, 100, v0
  ds_write_b32 v1, v3                // LDS dword `lane` = lane + 100
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v4, 0xdead               // the read's destination before the read
  ds_read_b32 v4, v1
  v_add_u32 v5, 4, v1
  v_and_b32 v5, 0xfc, v5             // 4 x ((lane + 1) mod 64)
  ds_bpermute_b32 v6, v5, v0         // lane + 1 mod 64
  s_waitcnt lgkmcnt(1)
  v_mov_b32 v7, v4
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v9, s3
  v_add_co_u32 v8, vcc, s2, v1
  v_addc_co_u32 v9, vcc, v9, 0, vcc
  global_store_dword v[8:9], v7, off
  global_store_dword v[8:9], v6, off offset:256
  s_endpgm
.Llds_read_then_bpermute_end:
.size lds_read_then_bpermute, .Llds_read_then_bpermute_end-lds_read_then_bpermute

// Both clocks before and after 256 VALU ops; buffer qwords 0..3: memtime, memrealtime, memtime,
// memrealtime (every lane stores the same values).
.globl clock_span
.p2align 8
.type clock_span,@function
clock_span:
  s_load_dwordx2 s[2:3], s[0:1], 0x0
  s_memtime s[4:5]
  s_memrealtime s[6:7]
  .rept 256
  v_add_f32 v1, v1, v0
  .endr
  s_memtime s[8:9]
  s_memrealtime s[10:11]
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v2, s2
  v_mov_b32 v3, s3
  v_mov_b32 v4, s4
  v_mov_b32 v5, s5
  v_mov_b32 v6, s6
  v_mov_b32 v7, s7
  global_store_dwordx4 v[2:3], v[4:7], off
  v_mov_b32 v4, s8
  v_mov_b32 v5, s9
  v_mov_b32 v6, s10
  v_mov_b32 v7, s11
  global_store_dwordx4 v[2:3], v[4:7], off offset:16
  s_endpgm
.Lclock_span_end:
.size clock_span, .Lclock_span_end-clock_span

.rodata
.p2align 6
.amdhsa_kernel valu16
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_group_segment_fixed_size 0
.end_amdhsa_kernel

.amdhsa_kernel valu32
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_group_segment_fixed_size 0
.end_amdhsa_kernel

.amdhsa_kernel fma64_16
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_group_segment_fixed_size 0
.end_amdhsa_kernel

.amdhsa_kernel fma32_16
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_group_segment_fixed_size 0
.end_amdhsa_kernel

.amdhsa_kernel load_wait_then_valu
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_group_segment_fixed_size 0
.end_amdhsa_kernel

.amdhsa_kernel load_valu_then_wait
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_group_segment_fixed_size 0
.end_amdhsa_kernel

.amdhsa_kernel lds_stride0
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_group_segment_fixed_size 16384
.end_amdhsa_kernel

.amdhsa_kernel lds_stride1
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_group_segment_fixed_size 16384
.end_amdhsa_kernel

.amdhsa_kernel lds_stride2
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_group_segment_fixed_size 16384
.end_amdhsa_kernel

.amdhsa_kernel lds_stride32
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_group_segment_fixed_size 16384
.end_amdhsa_kernel

.amdhsa_kernel barrier_stamp
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_group_segment_fixed_size 0
.end_amdhsa_kernel

.amdhsa_kernel lds_bpermute8
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_group_segment_fixed_size 16384
.end_amdhsa_kernel

.amdhsa_kernel lds_read_then_bpermute
  .amdhsa_next_free_vgpr 10
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_group_segment_fixed_size 256
.end_amdhsa_kernel

.amdhsa_kernel clock_span
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 1 ]
amdhsa.kernels:
  - .name: valu16
    .symbol: valu16.kd
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
  - .name: valu32
    .symbol: valu32.kd
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
  - .name: fma64_16
    .symbol: fma64_16.kd
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
  - .name: fma32_16
    .symbol: fma32_16.kd
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
  - .name: load_wait_then_valu
    .symbol: load_wait_then_valu.kd
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
  - .name: load_valu_then_wait
    .symbol: load_valu_then_wait.kd
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
  - .name: lds_stride0
    .symbol: lds_stride0.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 16384
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 16
    .vgpr_count: 8
    .max_flat_workgroup_size: 1024
    .args:
      - { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
  - .name: lds_stride1
    .symbol: lds_stride1.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 16384
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 16
    .vgpr_count: 8
    .max_flat_workgroup_size: 1024
    .args:
      - { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
  - .name: lds_stride2
    .symbol: lds_stride2.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 16384
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 16
    .vgpr_count: 8
    .max_flat_workgroup_size: 1024
    .args:
      - { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
  - .name: lds_stride32
    .symbol: lds_stride32.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 16384
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 16
    .vgpr_count: 8
    .max_flat_workgroup_size: 1024
    .args:
      - { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
  - .name: barrier_stamp
    .symbol: barrier_stamp.kd
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
  - .name: lds_bpermute8
    .symbol: lds_bpermute8.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 16384
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 16
    .vgpr_count: 8
    .max_flat_workgroup_size: 1024
    .args:
      - { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
  - .name: lds_read_then_bpermute
    .symbol: lds_read_then_bpermute.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 256
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 16
    .vgpr_count: 10
    .max_flat_workgroup_size: 1024
    .args:
      - { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
  - .name: clock_span
    .symbol: clock_span.kd
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
