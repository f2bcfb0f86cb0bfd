// Hand-written kernels that fault or hang, one per kind the simulator must stop cleanly
// (tests/reliability/FaultTest.cpp runs each through vgpu-sim).
.amdgcn_target "amdgcn-amd-amdhsa--gfx906"
.text

.globl illegal_encoding
.p2align 8
.type illegal_encoding,@function
illegal_encoding:
  // An SOP1 word whose opcode (0xff) no gfx9 instruction has: llvm-objdump prints .long.
  s_mov_b32 s4, 1
  .long 0xbe80ff00
  s_endpgm
.Lillegal_encoding_end:
.size illegal_encoding, .Lillegal_encoding_end-illegal_encoding

.globl memory_violation
.p2align 8
.type memory_violation,@function
memory_violation:
  // A store to address 0x10, below every allocation the runtime makes.
  v_mov_b32 v4, 0x10
  v_mov_b32 v5, 0
  global_store_dword v[4:5], v0, off
  s_waitcnt vmcnt(0)
  s_endpgm
.Lmemory_violation_end:
.size memory_violation, .Lmemory_violation_end-memory_violation

.globl misaligned_buffer_atomic
.p2align 8
.type misaligned_buffer_atomic,@function
misaligned_buffer_atomic:
  // A raw buffer V# over the argument buffer (4 KiB of records, 32-bit dwords), and an atomic
  // two bytes into it: atomics must be aligned to their size whatever the alignment mode.
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  s_mov_b32 s6, 0x1000
  s_mov_b32 s7, 0x27000
  v_mov_b32 v1, 2
  v_mov_b32 v2, 1
  buffer_atomic_add v2, v1, s[4:7], 0 offen
  s_waitcnt vmcnt(0)
  s_endpgm
.Lmisaligned_buffer_atomic_end:
.size misaligned_buffer_atomic, .Lmisaligned_buffer_atomic_end-misaligned_buffer_atomic

.globl misaligned_global_atomic
.p2align 8
.type misaligned_global_atomic,@function
misaligned_global_atomic:
  // A 64-bit atomic four bytes into the argument buffer: aligned to a dword, not to its size.
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v4, s4
  v_mov_b32 v5, s5
  v_mov_b32 v2, 1
  v_mov_b32 v3, 0
  global_atomic_add_x2 v[4:5], v[2:3], off offset:4
  s_waitcnt vmcnt(0)
  s_endpgm
.Lmisaligned_global_atomic_end:
.size misaligned_global_atomic, .Lmisaligned_global_atomic_end-misaligned_global_atomic

.globl lds_out_of_range
.p2align 8
.type lds_out_of_range,@function
lds_out_of_range:
  // The workgroup allocates 256 bytes of LDS; this writes at byte 4096 and reads it back into
  // the argument buffer.
  s_load_dwordx2 s[2:3], s[0:1], 0x0
  v_mov_b32 v1, 4096
  v_mov_b32 v2, 0x1234
  ds_write_b32 v1, v2
  ds_read_b32 v3, v1
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v4, s2
  v_mov_b32 v5, s3
  global_store_dword v[4:5], v3, off
  s_waitcnt vmcnt(0)
  s_endpgm
.Llds_out_of_range_end:
.size lds_out_of_range, .Llds_out_of_range_end-lds_out_of_range

.globl trap_without_handler
.p2align 8
.type trap_without_handler,@function
trap_without_handler:
  s_mov_b32 s4, 1
  s_trap 2
  s_endpgm
.Ltrap_without_handler_end:
.size trap_without_handler, .Ltrap_without_handler_end-trap_without_handler

.globl store_past_allocation
.p2align 8
.type store_past_allocation,@function
store_past_allocation:
  // Lanes 256 bytes apart from the argument buffer's last dword: lane 0 stores inside the
  // 4 KiB buffer, the others run past every allocation. Functional mode's direct path cannot
  // map them and leaves the store to the memory side, which reports it as in timing mode.
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_lshlrev_b32 v1, 8, v0
  v_mov_b32 v5, s5
  v_add_co_u32 v4, vcc, s4, v1
  v_addc_co_u32 v5, vcc, 0, v5, vcc
  global_store_dword v[4:5], v0, off offset:4092
  s_waitcnt vmcnt(0)
  s_endpgm
.Lstore_past_allocation_end:
.size store_past_allocation, .Lstore_past_allocation_end-store_past_allocation

.globl barrier_never_reached
.p2align 8
.type barrier_never_reached,@function
barrier_never_reached:
  // Two waves. Wave 1 waits at the barrier and would then set a flag in LDS; wave 0 spins on
  // that flag before it would reach the barrier. Neither can go on: a deadlock that only the
  // watchdog can see, since wave 0 keeps issuing.
  v_readfirstlane_b32 s8, v0
  s_lshr_b32 s8, s8, 6
  v_mov_b32 v1, 0
  s_cmp_eq_u32 s8, 0
  s_cbranch_scc1 .Lspin
  s_barrier
  v_mov_b32 v2, 1
  ds_write_b32 v1, v2
  s_waitcnt lgkmcnt(0)
  s_endpgm
.Lspin:
  ds_read_b32 v2, v1
  s_waitcnt lgkmcnt(0)
  v_cmp_eq_u32 vcc, 0, v2
  s_cbranch_vccnz .Lspin
  s_barrier
  s_endpgm
.Lbarrier_never_reached_end:
.size barrier_never_reached, .Lbarrier_never_reached_end-barrier_never_reached

.globl barrier_after_stores_then_spin
.p2align 8
.type barrier_after_stores_then_spin,@function
barrier_after_stores_then_spin:
  // barrier_never_reached, but wave 0 first stores to LDS 400 times (a few tens of thousands
  // of cycles) before it spins: while it stores it is working, and the watchdog counts wave
  // 1's wait at the barrier only from the last store.
  v_readfirstlane_b32 s8, v0
  s_lshr_b32 s8, s8, 6
  v_mov_b32 v1, 0
  s_cmp_eq_u32 s8, 0
  s_cbranch_scc1 .Lstores
  s_barrier
  v_mov_b32 v2, 1
  ds_write_b32 v1, v2
  s_waitcnt lgkmcnt(0)
  s_endpgm
.Lstores:
  s_movk_i32 s9, 400
  v_mov_b32 v3, 4
.Lstore:
  ds_write_b32 v3, v1
  s_waitcnt lgkmcnt(0)
  s_sub_u32 s9, s9, 1
  s_cmp_lg_u32 s9, 0
  s_cbranch_scc1 .Lstore
.Lspin_after_stores:
  ds_read_b32 v2, v1
  s_waitcnt lgkmcnt(0)
  v_cmp_eq_u32 vcc, 0, v2
  s_cbranch_vccnz .Lspin_after_stores
  s_barrier
  s_endpgm
.Lbarrier_after_stores_then_spin_end:
.size barrier_after_stores_then_spin, .Lbarrier_after_stores_then_spin_end-barrier_after_stores_then_spin

.globl spin_lock_holder_at_barrier
.p2align 8
.type spin_lock_holder_at_barrier,@function
spin_lock_holder_at_barrier:
  // A spin lock in global memory (the buffer's first dword, 0: free) whose holder waits at a
  // barrier: one lane of each wave tries to take it with a compare-and-swap of 0 to 1. The
  // wave that takes it waits at the barrier; the other's compare-and-swaps keep failing (the
  // lock stays 1), so it never reaches the barrier. A failing compare-and-swap changes no
  // memory: the watchdog counts the wait at the barrier from its start.
  s_load_dwordx2 s[2:3], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v4, s2
  v_mov_b32 v5, s3
  v_mov_b32 v2, 1  // the value written (DATA[0])
  v_mov_b32 v3, 0  // the value compared (DATA[1])
  s_mov_b64 exec, 1
.Lacquire:
  global_atomic_cmpswap v1, v[4:5], v[2:3], off glc
  s_waitcnt vmcnt(0)
  v_cmp_ne_u32 vcc, 0, v1
  s_cbranch_vccnz .Lacquire
  s_barrier
  global_store_dword v[4:5], v3, off  // release
  s_endpgm
.Lspin_lock_holder_at_barrier_end:
.size spin_lock_holder_at_barrier, .Lspin_lock_holder_at_barrier_end-spin_lock_holder_at_barrier

.globl lds_spin_lock_holder_at_barrier
.p2align 8
.type lds_spin_lock_holder_at_barrier,@function
lds_spin_lock_holder_at_barrier:
  // spin_lock_holder_at_barrier with the lock in LDS (ds_cmpst_rtn_b32: DATA0 is the value
  // compared, DATA1 the value written).
  v_mov_b32 v1, 0
  ds_write_b32 v1, v1
  s_waitcnt lgkmcnt(0)
  s_barrier  // the lock is initialised before either wave tries it
  v_mov_b32 v2, 0
  v_mov_b32 v3, 1
  s_mov_b64 exec, 1
.Lacquire_lds:
  ds_cmpst_rtn_b32 v4, v1, v2, v3
  s_waitcnt lgkmcnt(0)
  v_cmp_ne_u32 vcc, 0, v4
  s_cbranch_vccnz .Lacquire_lds
  s_barrier
  ds_write_b32 v1, v2  // release
  s_endpgm
.Llds_spin_lock_holder_at_barrier_end:
.size lds_spin_lock_holder_at_barrier, .Llds_spin_lock_holder_at_barrier_end-lds_spin_lock_holder_at_barrier

.globl cas_retry_then_barrier
.p2align 8
.type cas_retry_then_barrier,@function
cas_retry_then_barrier:
  // Not a hang: wave 1's 64 lanes each add 1 to the buffer's first dword by a compare-and-swap
  // retry loop (all on one address: the lowest lane still trying wins each round, so 64
  // rounds), then wait at the barrier, where wave 0 has waited all along. Every round changes
  // memory: progress, however long the loop runs.
  s_load_dwordx2 s[2:3], s[0:1], 0x0
  v_readfirstlane_b32 s8, v0
  s_lshr_b32 s8, s8, 6
  s_waitcnt lgkmcnt(0)
  s_cmp_eq_u32 s8, 0
  s_cbranch_scc1 .Lcas_wait
  v_mov_b32 v4, s2
  v_mov_b32 v5, s3
  global_load_dword v3, v[4:5], off  // the value expected
  s_waitcnt vmcnt(0)
.Lcas_round:
  v_add_u32 v2, 1, v3  // the value written: expected + 1
  global_atomic_cmpswap v1, v[4:5], v[2:3], off glc
  s_waitcnt vmcnt(0)
  v_cmp_ne_u32 vcc, v1, v3  // lanes whose compare failed try again
  v_mov_b32 v3, v1          // with the value they saw
  s_and_b64 exec, exec, vcc
  s_cbranch_execnz .Lcas_round
  s_mov_b64 exec, -1
.Lcas_wait:
  s_barrier
  s_endpgm
.Lcas_retry_then_barrier_end:
.size cas_retry_then_barrier, .Lcas_retry_then_barrier_end-cas_retry_then_barrier

.globl waitcnt_on_load
.p2align 8
.type waitcnt_on_load,@function
waitcnt_on_load:
  // One load and a wait for it: longer than a tiny --watchdog-cycles, so the watchdog reports
  // the wave waiting in s_waitcnt with its counters.
  s_load_dwordx2 s[2:3], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v4, s2
  v_mov_b32 v5, s3
  global_load_dword v1, v[4:5], off
  s_waitcnt vmcnt(0)
  s_endpgm
.Lwaitcnt_on_load_end:
.size waitcnt_on_load, .Lwaitcnt_on_load_end-waitcnt_on_load

.globl runaway_loop
.p2align 8
.type runaway_loop,@function
runaway_loop:
  s_mov_b32 s4, 0
.Lforever:
  s_add_u32 s4, s4, 1
  s_branch .Lforever
  s_endpgm
.Lrunaway_loop_end:
.size runaway_loop, .Lrunaway_loop_end-runaway_loop

.rodata
.p2align 6
.amdhsa_kernel illegal_encoding
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_group_segment_fixed_size 0
.end_amdhsa_kernel

.amdhsa_kernel memory_violation
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_group_segment_fixed_size 0
.end_amdhsa_kernel

.amdhsa_kernel misaligned_buffer_atomic
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_group_segment_fixed_size 0
.end_amdhsa_kernel

.amdhsa_kernel misaligned_global_atomic
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_group_segment_fixed_size 0
.end_amdhsa_kernel

.amdhsa_kernel lds_out_of_range
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_group_segment_fixed_size 256
.end_amdhsa_kernel

.amdhsa_kernel trap_without_handler
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_group_segment_fixed_size 0
.end_amdhsa_kernel

.amdhsa_kernel store_past_allocation
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_group_segment_fixed_size 0
.end_amdhsa_kernel
.amdhsa_kernel barrier_never_reached
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_group_segment_fixed_size 256
.end_amdhsa_kernel

.amdhsa_kernel barrier_after_stores_then_spin
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_group_segment_fixed_size 256
.end_amdhsa_kernel

.amdhsa_kernel spin_lock_holder_at_barrier
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_group_segment_fixed_size 0
.end_amdhsa_kernel

.amdhsa_kernel lds_spin_lock_holder_at_barrier
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_group_segment_fixed_size 256
.end_amdhsa_kernel

.amdhsa_kernel cas_retry_then_barrier
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_group_segment_fixed_size 0
.end_amdhsa_kernel

.amdhsa_kernel waitcnt_on_load
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_group_segment_fixed_size 0
.end_amdhsa_kernel

.amdhsa_kernel runaway_loop
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_group_segment_fixed_size 0
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 1 ]
amdhsa.kernels:
  - .name: illegal_encoding
    .symbol: illegal_encoding.kd
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
  - .name: memory_violation
    .symbol: memory_violation.kd
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
  - .name: misaligned_buffer_atomic
    .symbol: misaligned_buffer_atomic.kd
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
  - .name: misaligned_global_atomic
    .symbol: misaligned_global_atomic.kd
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
  - .name: lds_out_of_range
    .symbol: lds_out_of_range.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 256
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 16
    .vgpr_count: 8
    .max_flat_workgroup_size: 1024
    .args:
      - { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
  - .name: trap_without_handler
    .symbol: trap_without_handler.kd
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
  - .name: store_past_allocation
    .symbol: store_past_allocation.kd
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
  - .name: barrier_never_reached
    .symbol: barrier_never_reached.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 256
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 16
    .vgpr_count: 8
    .max_flat_workgroup_size: 1024
    .args:
      - { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
  - .name: barrier_after_stores_then_spin
    .symbol: barrier_after_stores_then_spin.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 256
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 16
    .vgpr_count: 8
    .max_flat_workgroup_size: 1024
    .args:
      - { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
  - .name: spin_lock_holder_at_barrier
    .symbol: spin_lock_holder_at_barrier.kd
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
  - .name: lds_spin_lock_holder_at_barrier
    .symbol: lds_spin_lock_holder_at_barrier.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 256
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 16
    .vgpr_count: 8
    .max_flat_workgroup_size: 1024
    .args:
      - { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
  - .name: cas_retry_then_barrier
    .symbol: cas_retry_then_barrier.kd
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
  - .name: waitcnt_on_load
    .symbol: waitcnt_on_load.kd
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
  - .name: runaway_loop
    .symbol: runaway_loop.kd
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
