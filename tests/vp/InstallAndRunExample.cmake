# ctest vp.install_and_example: installs the package from the build tree into a fresh prefix,
# builds examples/host_platform against it out of tree (find_package(vgpu CONFIG)), checks
# vgpu.pc, and runs the example platform on the test kernels compiled in the build tree.
#   cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... -DKERNEL_DIR=... -DCXX=...
#         [-DLINK_FLAGS=...] -P this
# LINK_FLAGS: the build's executable link flags, which the example needs too when the library
# is instrumented (scripts/test --sanitize links the sanitizer runtimes that way).
foreach(v BUILD_DIR SOURCE_DIR WORK_DIR KERNEL_DIR CXX)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "InstallAndRunExample.cmake needs -D${v}=...")
  endif()
endforeach()

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
# The combined library is part of the default build; bring it up to date if only some targets
# were built.
run("building libvgpu.a" ${CMAKE_COMMAND} --build ${BUILD_DIR} --target vgpu_package_library)
run("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
foreach(f include/vgpu/gpu/Gpu.h include/vgpu/runtime/Runtime.h include/vgpu/platforms/Platform.h
          include/vgpu/cp/MmioRegisters.h include/vgpu/common/MemoryExtensions.h
          lib/libvgpu.a lib/cmake/vgpu/vgpuConfig.cmake lib/pkgconfig/vgpu.pc
          share/vgpu/platforms/vega20.json)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "the installed package has no ${f}")
  endif()
endforeach()

find_program(PKG_CONFIG pkg-config)
if(PKG_CONFIG)
  set(ENV{PKG_CONFIG_PATH} ${prefix}/lib/pkgconfig)
  run("pkg-config vgpu" ${PKG_CONFIG} --cflags --libs vgpu)
  if(NOT last_output MATCHES "-I${prefix}/lib/pkgconfig/../../include/vgpu" OR
     NOT last_output MATCHES "-lvgpu")
    message(FATAL_ERROR "vgpu.pc gives unexpected flags: ${last_output}")
  endif()
endif()

run("configuring examples/host_platform" ${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples/host_platform
    -B ${WORK_DIR}/build -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=${prefix}
    -DCMAKE_CXX_COMPILER=${CXX} "-DCMAKE_EXE_LINKER_FLAGS=${LINK_FLAGS}")
run("building examples/host_platform" ${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run("running host_platform" ${WORK_DIR}/build/host_platform ${KERNEL_DIR}/vector_add.co
    ${KERNEL_DIR}/matmul_tiled.co)
message(STATUS "${last_output}")
foreach(expected "vector_add: 1000 elements in system memory match the CPU"
                 "matmul_tiled: 64x64 in device memory matches the CPU"
                 "interrupts taken")
  string(FIND "${last_output}" "${expected}" at)
  if(at LESS 0)
    message(FATAL_ERROR "host_platform did not print '${expected}':\n${last_output}")
  endif()
endforeach()
# A bad command line is one message and a non-zero exit.
execute_process(COMMAND ${WORK_DIR}/build/host_platform ${KERNEL_DIR}/vector_add.co
  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT err MATCHES "usage")
  message(FATAL_ERROR "host_platform with one code object: exit ${rc}, '${err}'")
endif()
