// EXEC masking, saveexec, branches and a scalar loop. v0 = lane id.
  v_mov_b32 v1, 0
  v_cmp_gt_u32 vcc, 16, v0                // lanes 0..15
  s_and_saveexec_b64 s[0:1], vcc
  s_cbranch_execz skip
  v_mov_b32 v1, 1                         // only lanes 0..15
skip:
  s_or_b64 exec, exec, s[0:1]
  v_cmp_eq_u32 vcc, 0, v1                 // lanes 16..63
  s_andn2_saveexec_b64 s[2:3], vcc        // exec = vcc & ~exec = 0 -> skip
  s_cbranch_execnz bad
  s_mov_b64 exec, s[2:3]
  s_mov_b32 s4, 0
  s_mov_b32 s5, 0
loop:
  s_add_i32 s4, s4, 3
  s_add_u32 s5, s5, 1
  s_cmp_lt_u32 s5, 10
  s_cbranch_scc1 loop
  v_cmpx_lt_u32 vcc, v0, 4                // exec = lanes 0..3
  v_mov_b32 v2, 5
  s_mov_b64 exec, -1
  s_cmp_eq_u32 s4, 30
  s_cselect_b64 s[6:7], -1, 0
  s_branch done
bad:
  s_mov_b32 s4, 0xbad
done:
  s_getpc_b64 s[8:9]
  s_endpgm
