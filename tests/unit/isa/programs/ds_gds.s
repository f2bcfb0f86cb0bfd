// DS range rules and the global data share (DsTest.cpp): one labelled snippet per case, run
// from its label to its s_endpgm with M0 and the VGPRs set by the test.
lds_ignores_m0:
  ds_write_b32 v0, v1 offset:16
  ds_read_b32 v2, v0 offset:16
  s_waitcnt lgkmcnt(0)
  s_endpgm
gds_write_read:
  ds_write_b32 v0, v1 gds
  ds_read_b32 v2, v0 gds
  s_waitcnt lgkmcnt(0)
  s_endpgm
gds_read:
  ds_read_b32 v2, v0 gds
  s_waitcnt lgkmcnt(0)
  s_endpgm
gds_read2:
  ds_read2_b32 v[2:3], v0 offset1:1 gds
  s_waitcnt lgkmcnt(0)
  s_endpgm
gds_add_rtn:
  ds_add_rtn_u32 v2, v0, v1 gds
  s_waitcnt lgkmcnt(0)
  s_endpgm
gds_cmpst:
  ds_cmpst_rtn_b32 v2, v0, v1, v3 gds
  s_waitcnt lgkmcnt(0)
  s_endpgm
gds_append:
  ds_append v2 offset:8 gds
  s_waitcnt lgkmcnt(0)
  s_endpgm
gds_src2:
  ds_add_src2_u32 v0 offset:4 gds
  s_waitcnt lgkmcnt(0)
  s_endpgm
// Global wave sync (gds=1 only opcodes): the resource is (M0[21:16] + offset) % 64.
gws_init:
  ds_gws_init v1 offset:3 gds
  s_endpgm
gws_v_br:
  ds_gws_sema_v gds
  ds_gws_sema_br v1 gds
  s_waitcnt lgkmcnt(0)
  s_endpgm
gws_v:
  ds_gws_sema_v offset:1 gds
  s_endpgm
gws_p:
  ds_gws_sema_p offset:1 gds
  s_endpgm
gws_release_all:
  ds_gws_sema_release_all offset:1 gds
  s_endpgm
gws_barrier:
  ds_gws_barrier v1 offset:2 gds
  s_endpgm
gws_ordered_count:
  ds_ordered_count v2, v0 offset:4 gds
  s_endpgm
