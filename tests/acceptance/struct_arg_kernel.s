// A hand-written kernel with a 12-byte by-value struct argument, for `vgpu-sim run --arg
// bytes:HEX` (tests/acceptance/CliTest.cpp): struct_arg(struct { uint32_t a, b, c; } p,
// uint32_t* out) stores p whole into out[3 * i .. 3 * i + 2] for every work-item i, so the
// output shows every byte of the argument where the kernel found it.
.amdgcn_target "amdgcn-amd-amdhsa--gfx906"
.text

.globl struct_arg
.p2align 8
.type struct_arg,@function
struct_arg:
  s_load_dwordx4 s[4:7], s[0:1], 0x0   // p.a, p.b, p.c and the padding after them
  s_load_dwordx2 s[8:9], s[0:1], 0x10  // out
  s_lshl_b32 s10, s2, 6                // workgroup id x (s2, after the kernarg pointer) * 64
  s_waitcnt lgkmcnt(0)
  v_add_u32 v0, s10, v0                // global id
  v_mul_u32_u24 v4, 12, v0             // its record's byte offset
  v_mov_b32 v1, s4
  v_mov_b32 v2, s5
  v_mov_b32 v3, s6
  global_store_dwordx3 v4, v[1:3], s[8:9]
  s_endpgm
.Lstruct_arg_end:
.size struct_arg, .Lstruct_arg_end-struct_arg

.rodata
.p2align 6
.amdhsa_kernel struct_arg
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_system_sgpr_workgroup_id_x 1
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 1 ]
amdhsa.kernels:
  - .name: struct_arg
    .symbol: struct_arg.kd
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 16
    .vgpr_count: 8
    .max_flat_workgroup_size: 64
    .args:
      - { .name: p, .offset: 0, .size: 12, .value_kind: by_value }
      - { .name: out, .offset: 16, .size: 8, .value_kind: global_buffer, .address_space: global }
...
.end_amdgpu_metadata
