// A gfx900 code object holding a gfx906-only instruction (v_dot2_f32_f16 v1, v2, v3, v4, its
// encoding from llvm-mc-15 -mcpu=gfx906 -show-encoding): gfx900 has no such instruction, so the
// model must stop the wave on it (tests/reliability/FaultTest.cpp).
.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
.text

.globl gfx906_only_on_gfx900
.p2align 8
.type gfx906_only_on_gfx900,@function
gfx906_only_on_gfx900:
  s_mov_b32 s4, 1
  .byte 0x01,0x40,0xa3,0xd3,0x02,0x07,0x12,0x1c
  s_endpgm
.Lgfx906_only_on_gfx900_end:
.size gfx906_only_on_gfx900, .Lgfx906_only_on_gfx900_end-gfx906_only_on_gfx900

.rodata
.p2align 6
.amdhsa_kernel gfx906_only_on_gfx900
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_group_segment_fixed_size 0
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 1 ]
amdhsa.kernels:
  - .name: gfx906_only_on_gfx900
    .symbol: gfx906_only_on_gfx900.kd
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
