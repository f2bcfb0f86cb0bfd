// Scalar loads, global loads/stores/atomics, LDS and scratch. v0 = lane id.
// s[4:5] -> kernarg: [0] = address of array A (u32 x 64), [8] = address of B (u32 x 64)
  s_load_dwordx4 s[8:11], s[4:5], 0x0
  s_load_dword s12, s[4:5], 0x10
  s_waitcnt lgkmcnt(0)
  v_lshlrev_b32 v1, 2, v0
  v_mov_b32 v3, s9
  v_add_co_u32 v2, vcc, s8, v1
  v_addc_co_u32 v3, vcc, v3, 0, vcc
  global_load_dword v4, v[2:3], off
  global_load_ubyte v5, v[2:3], off offset:1
  global_load_sshort v6, v[2:3], off offset:2
  s_waitcnt vmcnt(0)
  v_add_u32 v7, s12, v4
  v_mov_b32 v9, s11
  v_add_co_u32 v8, vcc, s10, v1
  v_addc_co_u32 v9, vcc, v9, 0, vcc
  global_store_dword v[8:9], v7, off
  v_mov_b32 v10, s10
  v_mov_b32 v11, s11
  global_atomic_add v12, v[10:11], v0, off offset:256 glc
  ds_write_b32 v1, v7
  ds_write_b32 v1, v0 offset:512
  s_waitcnt vmcnt(0) lgkmcnt(0)
  ds_read2_b32 v[14:15], v1 offset1:1
  ds_read2st64_b32 v[16:17], v1 offset1:2
  ds_add_u32 v1, v0 offset:512
  ds_read_b32 v18, v1 offset:512
  buffer_store_dword v7, off, s[0:3], 0 offset:16
  buffer_store_dword v0, v1, s[0:3], 0 offen offset:2048
  s_waitcnt vmcnt(0) lgkmcnt(0)
  buffer_load_dword v19, off, s[0:3], 0 offset:16
  buffer_load_dword v20, v1, s[0:3], 0 offen offset:2048
  buffer_load_dword v21, v1, s[0:3], 0 offen offset:4
  s_waitcnt vmcnt(0)
  s_endpgm
