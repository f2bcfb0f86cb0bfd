// Sequencer-visible instructions.
  s_waitcnt vmcnt(3) expcnt(2) lgkmcnt(1)
  s_waitcnt vmcnt(40)
  s_nop 3
  s_sleep 2
  s_barrier
  s_sendmsg sendmsg(MSG_INTERRUPT)
  s_trap 2
  s_endpgm
