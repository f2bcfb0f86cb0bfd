# Runs COMMAND (a list), keeps its standard output in OUTPUT for compare-outputs.cmake, and
# fails when the command does. The output file is removed first: a failed run leaves none.
file(REMOVE ${OUTPUT})
execute_process(COMMAND ${COMMAND} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the program failed (${rc})")
endif()
file(WRITE ${OUTPUT} "${out}")
