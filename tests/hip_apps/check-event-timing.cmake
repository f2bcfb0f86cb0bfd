# Runs hip_event_timing under vgpu-sim exec --mode timing --stats and compares its
# hipEventElapsedTime figures with the kernel's dispatch record (see hip_event_timing.cpp):
#   kernel_pair_ns - empty_pair_ns == packet_end_ns - packet_start_ns   (to within 3 ns)
# elapsed(b, c) is end_ts(c) - end_ts(b): b's completion-signal decrement (a read-modify-write
# of system memory over the system link, after b's end_ts is taken), the kernel's packet, the
# kernel's retirement (no completion signal: nothing to wait for) and c's own processing (the
# packet read over the link). elapsed(a, b) is a's decrement and b's processing, the same
# work for the packet processor (about 1120 ns on tiny and vega20: two link round trips of
# 500 ns and their L2 accesses). Each of the three durations compared is a difference of two
# timestamps truncated to whole nanoseconds (the packet processor's clock period is not a whole
# number of ns), off by less than 1 ns: 3 ns in all.
# Arguments: -DSIM= -DPLATFORM= -DPROGRAM= -DSTATS=
execute_process(
  COMMAND ${SIM} exec --platform ${PLATFORM} --mode timing --quiet --stats ${STATS} -- ${PROGRAM}
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc TIMEOUT 100)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "hip_event_timing failed (${rc})")
endif()
string(REGEX MATCH "empty_pair_ns ([0-9]+)" _ "${out}")
set(empty ${CMAKE_MATCH_1})
string(REGEX MATCH "kernel_pair_ns ([0-9]+)" _ "${out}")
set(pair ${CMAKE_MATCH_1})
if(empty STREQUAL "" OR pair STREQUAL "")
  message(FATAL_ERROR "no elapsed times in the output")
endif()
file(READ ${STATS} json)
string(JSON count LENGTH "${json}" dispatches)
set(kernel "")
math(EXPR last "${count} - 1")
foreach(i RANGE ${last})
  string(JSON name GET "${json}" dispatches ${i} kernel)
  if(name MATCHES "timedWork")
    string(JSON start GET "${json}" dispatches ${i} packet_start_ns)
    string(JSON end GET "${json}" dispatches ${i} packet_end_ns)
    math(EXPR kernel "${end} - ${start}")
  endif()
endforeach()
if(kernel STREQUAL "")
  message(FATAL_ERROR "no dispatch record of timedWork in ${STATS}")
endif()
math(EXPR difference "${pair} - ${empty} - ${kernel}")
message("hipEventElapsedTime around the kernel ${pair} ns, around nothing ${empty} ns; "
        "kernel record ${kernel} ns; difference ${difference} ns")
if(difference LESS -3 OR difference GREATER 3)
  message(FATAL_ERROR "the elapsed time minus the markers' time is not the kernel's time")
endif()
