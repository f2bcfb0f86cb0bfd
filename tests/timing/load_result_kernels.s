// When a load's data reaches its registers, seen by the program (tests/timing/TimingTest.cpp:
// ReadingALoadsDestinationBeforeItsWaitGetsTheValueBefore and
// OfTwoLoadsIntoOneRegisterTheSecondsDataStays). Apart from timing_kernels.s, whose cycle
// counts depend on where its code and descriptors lie.
.amdgcn_target "amdgcn-amd-amdhsa--gfx906"
.text
// v[4:5] = the buffer (the kernel's argument, also in s[2:3]) + 4 x the lane's index.
.macro lane_address
  s_load_dwordx2 s[2:3], s[0:1], 0x0
  v_lshlrev_b32 v3, 2, v0
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v5, s3
  v_add_co_u32 v4, vcc, s2, v3
  v_addc_co_u32 v5, vcc, v5, 0, vcc
.endm

// Lane l stores 42 to dword 16 + l of the buffer and waits for the store; then loads it back
// into v1, which held 7. load_read_before_wait copies v1 to v2 before waiting for the load,
// load_read_after_wait after; both store v2 to dword 80 + l and v1 to dword 144 + l.
.globl load_read_before_wait
.p2align 8
.type load_read_before_wait,@function
load_read_before_wait:
  lane_address
  v_mov_b32 v1, 42
  global_store_dword v[4:5], v1, off offset:64
  s_waitcnt vmcnt(0)
  v_mov_b32 v1, 7
  global_load_dword v1, v[4:5], off offset:64
  v_mov_b32 v2, v1
  s_waitcnt vmcnt(0)
  global_store_dword v[4:5], v2, off offset:320
  global_store_dword v[4:5], v1, off offset:576
  s_endpgm
.Lload_read_before_wait_end:
.size load_read_before_wait, .Lload_read_before_wait_end-load_read_before_wait

.globl load_read_after_wait
.p2align 8
.type load_read_after_wait,@function
load_read_after_wait:
  lane_address
  v_mov_b32 v1, 42
  global_store_dword v[4:5], v1, off offset:64
  s_waitcnt vmcnt(0)
  v_mov_b32 v1, 7
  global_load_dword v1, v[4:5], off offset:64
  s_waitcnt vmcnt(0)
  v_mov_b32 v2, v1
  global_store_dword v[4:5], v2, off offset:320
  global_store_dword v[4:5], v1, off offset:576
  s_endpgm
.Lload_read_after_wait_end:
.size load_read_after_wait, .Lload_read_after_wait_end-load_read_after_wait

// The same for a scalar load: s4 holds 7, then is loaded with the buffer's address (its low
// half) from the kernel arguments; s5 is copied from s4 before the wait. Lane l stores s5 to
// dword 80 + l, s4 to dword 144 + l, and the address as loaded and waited for before (s2) to
// dword 208 + l.
.globl scalar_load_read_before_wait
.p2align 8
.type scalar_load_read_before_wait,@function
scalar_load_read_before_wait:
  lane_address
  s_mov_b32 s4, 7
  s_load_dword s4, s[0:1], 0x0
  s_mov_b32 s5, s4
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v1, s5
  global_store_dword v[4:5], v1, off offset:320
  v_mov_b32 v1, s4
  global_store_dword v[4:5], v1, off offset:576
  v_mov_b32 v1, s2
  global_store_dword v[4:5], v1, off offset:832
  s_endpgm
.Lscalar_load_read_before_wait_end:
.size scalar_load_read_before_wait, .Lscalar_load_read_before_wait_end-scalar_load_read_before_wait

// Two loads into one register, no instruction between them: lane l loads 1 (dword 16 + l),
// then 2 (dword 272 + l) into v6, waits, and stores v6 to dword 80 + l. Vector memory returns in
// order, so v6 holds the second load's 2.
.globl load_twice_into_one_register
.p2align 8
.type load_twice_into_one_register,@function
load_twice_into_one_register:
  lane_address
  v_mov_b32 v1, 1
  global_store_dword v[4:5], v1, off offset:64
  v_mov_b32 v1, 2
  global_store_dword v[4:5], v1, off offset:1088
  s_waitcnt vmcnt(0)
  global_load_dword v6, v[4:5], off offset:64
  global_load_dword v6, v[4:5], off offset:1088
  s_waitcnt vmcnt(0)
  global_store_dword v[4:5], v6, off offset:320
  s_endpgm
.Lload_twice_into_one_register_end:
.size load_twice_into_one_register, .Lload_twice_into_one_register_end-load_twice_into_one_register

.rodata
.p2align 6

// Every kernel here: 8 VGPRs, 16 SGPRs, the kernarg segment pointer in s[0:1], no LDS.
.macro descriptor name
.amdhsa_kernel \name
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_group_segment_fixed_size 0
.end_amdhsa_kernel
.endm

descriptor load_read_before_wait
descriptor load_read_after_wait
descriptor scalar_load_read_before_wait
descriptor load_twice_into_one_register

.amdgpu_metadata
---
amdhsa.version: [ 1, 1 ]
amdhsa.kernels:
  - .name: load_read_before_wait
    .symbol: load_read_before_wait.kd
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
  - .name: load_read_after_wait
    .symbol: load_read_after_wait.kd
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
  - .name: scalar_load_read_before_wait
    .symbol: scalar_load_read_before_wait.kd
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
  - .name: load_twice_into_one_register
    .symbol: load_twice_into_one_register.kd
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
