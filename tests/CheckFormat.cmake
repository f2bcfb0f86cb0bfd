# Fails when any tracked C++ source differs from clang-format's output.
file(GLOB_RECURSE sources "${ROOT}/models/*.cpp" "${ROOT}/models/*.h" "${ROOT}/platforms/*.cpp"
     "${ROOT}/platforms/*.h" "${ROOT}/runtime/*.cpp" "${ROOT}/runtime/*.h" "${ROOT}/sc_main/*.cpp" "${ROOT}/sc_main/*.h" "${ROOT}/tests/*.cpp"
     "${ROOT}/tests/*.h" "${ROOT}/rtl_cosim/*.cpp" "${ROOT}/rtl_cosim/*.h"
     "${ROOT}/examples/*.cpp" "${ROOT}/examples/*.h" "${ROOT}/fuzz/*.cpp" "${ROOT}/fuzz/*.h")
execute_process(COMMAND ${CLANG_FORMAT} --dry-run -Werror ${sources}
                RESULT_VARIABLE result ERROR_VARIABLE errors)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "not clang-formatted (run clang-format -i on these):\n${errors}")
endif()
list(LENGTH sources count)
message(STATUS "${count} files clang-formatted")
