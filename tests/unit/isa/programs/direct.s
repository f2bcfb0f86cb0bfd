// Functional mode's direct paths (DirectMemoryTest.cpp): one labelled snippet per case, run
// from its label to its s_endpgm with the registers set by the test, once through MemRequests
// and once with ExecContext::directMemory and ldsAtIssue.
global_dword:
  global_load_dword v2, v[0:1], off offset:4
  global_store_dword v[0:1], v3, off offset:8
  s_waitcnt vmcnt(0)
  s_endpgm
global_wide:
  global_load_dwordx2 v[2:3], v[0:1], off
  global_load_dwordx3 v[4:6], v[0:1], off offset:16
  global_load_dwordx4 v[8:11], v[0:1], off offset:32
  global_store_dwordx2 v[0:1], v[12:13], off offset:64
  global_store_dwordx4 v[0:1], v[14:17], off offset:96
  s_waitcnt vmcnt(0)
  s_endpgm
global_saddr:
  global_load_dword v2, v0, s[4:5] offset:-8
  global_store_dword v0, v3, s[4:5] offset:4
  s_waitcnt vmcnt(0)
  s_endpgm
global_narrow:
  global_load_ubyte v2, v[0:1], off offset:1
  global_load_sbyte v3, v[0:1], off offset:3
  global_load_sshort v4, v[0:1], off offset:2
  global_load_ushort v5, v[0:1], off
  global_load_short_d16_hi v6, v[0:1], off
  global_load_sbyte_d16 v7, v[0:1], off offset:1
  global_store_byte v[0:1], v8, off offset:5
  global_store_short_d16_hi v[0:1], v9, off offset:6
  s_waitcnt vmcnt(0)
  s_endpgm
global_overwrites_address:
  global_load_dwordx2 v[0:1], v[0:1], off
  s_waitcnt vmcnt(0)
  s_endpgm
flat_dword:
  flat_load_dword v2, v[0:1] offset:4
  flat_store_dword v[0:1], v3 offset:8
  s_waitcnt vmcnt(0) lgkmcnt(0)
  s_endpgm
scratch_vaddr:
  scratch_store_dword v0, v2, off offset:8
  scratch_load_dword v3, v0, off offset:8
  scratch_load_dwordx2 v[4:5], v0, off
  scratch_store_dwordx3 v0, v[6:8], off offset:32
  scratch_load_dwordx4 v[8:11], v0, off offset:28
  s_waitcnt vmcnt(0)
  s_endpgm
scratch_saddr:
  scratch_store_dword off, v2, s4 offset:16
  scratch_load_dword v3, off, s4 offset:16
  scratch_store_short off, v4, s4 offset:2
  scratch_store_dwordx2 off, v[6:7], s4 offset:40
  scratch_load_dwordx4 v[8:11], off, s4 offset:36
  s_waitcnt vmcnt(0)
  s_endpgm
buffer_scratch:
  buffer_store_dword v2, off, s[0:3], 0 offset:16
  buffer_store_dword v3, v0, s[0:3], 0 offen offset:32
  buffer_load_dword v4, v0, s[0:3], 0 offen offset:16
  buffer_load_dword v5, off, s[0:3], 0 offset:32
  buffer_store_byte v6, off, s[0:3], 0 offset:2
  buffer_load_ushort v7, off, s[0:3], 0 offset:2
  s_waitcnt vmcnt(0)
  s_endpgm
buffer_scratch_soffset:
  buffer_store_dword v2, off, s[0:3], s4 offset:16
  buffer_load_dword v5, off, s[0:3], s4 offset:32
  buffer_store_dword v3, off, s[0:3], s4 offset:64
  s_waitcnt vmcnt(0)
  s_endpgm
buffer_raw:
  buffer_load_dwordx4 v[2:5], v0, s[8:11], 0 offen
  buffer_store_dword v6, v0, s[8:11], 0 offen offset:64
  buffer_load_dword v7, off, s[8:11], s12 offset:8
  buffer_store_dwordx2 v[8:9], v0, s[8:11], 0 offen offset:4
  s_waitcnt vmcnt(0)
  s_endpgm
smem_loads:
  s_load_dwordx4 s[8:11], s[4:5], 0x10
  s_load_dword s12, s[4:5], 0x4
  s_buffer_load_dwordx2 s[14:15], s[0:3], 0x8
  s_buffer_load_dword s16, s[0:3], 0x100
  s_waitcnt lgkmcnt(0)
  s_endpgm
ds_ops:
  ds_write_b32 v0, v1 offset:16
  ds_write2_b32 v0, v1, v2 offset0:1 offset1:2
  ds_write_b64 v0, v[1:2] offset:32
  ds_write_b16 v0, v1 offset:40
  ds_write_b8_d16_hi v0, v2 offset:43
  ds_read_b32 v3, v0
  ds_read2_b32 v[4:5], v0 offset0:1 offset1:3
  ds_read2st64_b32 v[6:7], v0 offset1:1
  ds_read_b128 v[8:11], v0
  ds_read_b96 v[12:14], v0 offset:4
  ds_read_u8 v15, v0 offset:1
  ds_read_i16 v16, v0 offset:2
  ds_read_u16_d16_hi v17, v0
  s_waitcnt lgkmcnt(0)
  s_endpgm
ds_tile:
  ds_write_b32 v0, v1
  ds_write2_b32 v0, v1, v3 offset0:16 offset1:32
  ds_write2_b32 v0, v3, v1 offset1:1
  ds_read2_b32 v[4:5], v0 offset1:16
  ds_read_b128 v[8:11], v2
  ds_read_b32 v3, v0 offset:4
  ds_write_b128 v2, v[8:11] offset:256
  ds_read_b64 v[6:7], v0 offset:8
  ds_write_b64 v2, v[4:5] offset:512
  ds_read2_b64 v[12:15], v2 offset1:3
  ds_read_b96 v[16:18], v2 offset:32
  ds_read2_b32 v[0:1], v0 offset1:2
  s_waitcnt lgkmcnt(0)
  s_endpgm
ds_tile_read:
  ds_read2_b32 v[4:5], v0 offset1:16
  ds_read_b128 v[8:11], v2
  s_waitcnt lgkmcnt(0)
  s_endpgm
ds_atomics:
  ds_add_u32 v0, v1
  ds_add_rtn_u32 v3, v0, v1 offset:4
  ds_max_rtn_i32 v4, v0, v2
  ds_cmpst_rtn_b32 v5, v0, v1, v2 offset:8
  ds_mskor_b32 v0, v1, v2 offset:12
  ds_wrxchg2_rtn_b32 v[6:7], v0, v1, v2 offset0:4 offset1:5
  ds_add_rtn_u64 v[8:9], v0, v[1:2] offset:24
  ds_cmpst_rtn_b64 v[10:11], v0, v[1:2], v[12:13] offset:32
  s_waitcnt lgkmcnt(0)
  s_endpgm
ds_overwrites_address:
  ds_read2_b32 v[0:1], v0 offset1:1
  ds_read_b32 v2, v2
  s_waitcnt lgkmcnt(0)
  s_endpgm
global_atomics:
  global_atomic_add v[0:1], v2, off
  global_atomic_add v3, v[0:1], v2, off offset:16 glc
  global_atomic_cmpswap v4, v[0:1], v[2:3], off offset:32 glc
  global_atomic_umax_x2 v[6:7], v[0:1], v[8:9], off offset:64 glc
  global_atomic_cmpswap_x2 v[10:11], v[0:1], v[12:15], off offset:128 glc
  global_atomic_inc v16, v5, v2, s[4:5] offset:8 glc
  flat_atomic_xor v17, v[0:1], v2 offset:24 glc
  s_waitcnt vmcnt(0) lgkmcnt(0)
  s_endpgm
