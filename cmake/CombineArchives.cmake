# cmake -DAR=<ar> -DMRI=<script> -P CombineArchives.cmake: runs GNU ar's MRI script (VgpuPackage).
execute_process(COMMAND ${AR} -M INPUT_FILE ${MRI} RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "combining the model libraries failed (${AR} -M ${MRI}): ${err}")
endif()
