// A 64-bit VALU op whose VGPR pair is the last two registers of the allocation (the test
// allocates 8: v[6:7] is inside, v[7:8] is not) and ops that reach past it.
  v_lshlrev_b64 v[6:7], 1, v[4:5]
  v_mad_u64_u32 v[4:5], s[2:3], v6, v7, v[6:7]
  v_lshrrev_b64 v[0:1], 1, v[7:8]
  s_endpgm
