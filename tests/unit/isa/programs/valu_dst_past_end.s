// A 64-bit VALU result pair that reaches past the allocation (8 VGPRs: v[7:8]), after a
// carry-out to an SGPR pair.
  v_add_co_u32_e64 v0, s[2:3], v1, v2
  v_mad_u64_u32 v[7:8], s[4:5], v1, v2, v[2:3]
  s_endpgm
