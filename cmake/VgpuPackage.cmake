# Installation of vgpu as a package for virtual platforms (issue 7):
#   include/vgpu/   the model's headers (models/<block>/*.h, platforms/Platform.h), included as
#                   "gpu/Gpu.h", "runtime/Runtime.h", "platforms/Platform.h", ...
#   lib/libvgpu.a   every model library (and the Verilated RTL arbiter, when built) in one archive
#   lib/cmake/vgpu/ vgpuConfig.cmake: find_package(vgpu CONFIG) gives the target vgpu::model
#   lib/pkgconfig/  vgpu.pc
#   share/vgpu/platforms/  the platform JSON files
# Included at the end of the top-level CMakeLists, once every library target exists.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# The static libraries the model consists of: everything vgpu_runtime and vgpu_platform link,
# transitively (PRIVATE dependencies of static libraries are part of the link too).
function(vgpu_collect_static_libraries target out)
  set(seen ${${out}})
  if(NOT TARGET ${target} OR ${target} IN_LIST seen)
    return()
  endif()
  get_target_property(type ${target} TYPE)
  get_target_property(aliased ${target} ALIASED_TARGET)
  get_target_property(imported ${target} IMPORTED)
  if(aliased OR imported)
    return()
  endif()
  list(APPEND seen ${target})
  set(deps "")
  if(type STREQUAL "STATIC_LIBRARY")
    get_target_property(deps ${target} LINK_LIBRARIES)
  endif()
  get_target_property(interface_deps ${target} INTERFACE_LINK_LIBRARIES)
  foreach(dep IN LISTS deps interface_deps)
    string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" dep "${dep}")
    if(dep AND NOT dep MATCHES "NOTFOUND$" AND NOT dep MATCHES "^\\$<")
      vgpu_collect_static_libraries(${dep} seen)
    endif()
  endforeach()
  set(${out} ${seen} PARENT_SCOPE)
endfunction()

set(vgpu_package_targets "")
vgpu_collect_static_libraries(vgpu_runtime vgpu_package_targets)
vgpu_collect_static_libraries(vgpu_platform vgpu_package_targets)
set(vgpu_archives "")
foreach(t IN LISTS vgpu_package_targets)
  get_target_property(type ${t} TYPE)
  if(type STREQUAL "STATIC_LIBRARY")
    list(APPEND vgpu_archives ${t})
  endif()
endforeach()

# One archive from all of them (GNU ar's MRI script keeps members with equal names apart).
set(vgpu_mri "create ${CMAKE_BINARY_DIR}/lib/libvgpu.a\n")
foreach(t IN LISTS vgpu_archives)
  string(APPEND vgpu_mri "addlib $<TARGET_FILE:${t}>\n")
endforeach()
string(APPEND vgpu_mri "save\nend\n")
file(GENERATE OUTPUT ${CMAKE_BINARY_DIR}/vgpu-archive.mri CONTENT "${vgpu_mri}")
set(vgpu_archive_files "")
foreach(t IN LISTS vgpu_archives)
  list(APPEND vgpu_archive_files $<TARGET_FILE:${t}>)
endforeach()
add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/lib/libvgpu.a
  COMMAND ${CMAKE_COMMAND} -E rm -f ${CMAKE_BINARY_DIR}/lib/libvgpu.a
  COMMAND ${CMAKE_COMMAND} -DAR=${CMAKE_AR} -DMRI=${CMAKE_BINARY_DIR}/vgpu-archive.mri
          -P ${PROJECT_SOURCE_DIR}/cmake/CombineArchives.cmake
  DEPENDS ${vgpu_archives} ${vgpu_archive_files} ${CMAKE_BINARY_DIR}/vgpu-archive.mri
  COMMENT "Combining the model libraries into libvgpu.a")
add_custom_target(vgpu_package_library ALL DEPENDS ${CMAKE_BINARY_DIR}/lib/libvgpu.a)

install(FILES ${CMAKE_BINARY_DIR}/lib/libvgpu.a DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/models/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/vgpu
  FILES_MATCHING PATTERN "*.h")
install(FILES ${PROJECT_SOURCE_DIR}/platforms/Platform.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/vgpu/platforms)
file(GLOB vgpu_platform_json ${PROJECT_SOURCE_DIR}/platforms/*.json)
install(FILES ${vgpu_platform_json} DESTINATION ${CMAKE_INSTALL_DATADIR}/vgpu/platforms)

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/vgpuConfig.cmake.in
  ${CMAKE_BINARY_DIR}/vgpuConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/vgpu)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/vgpuConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/vgpuConfig.cmake ${CMAKE_BINARY_DIR}/vgpuConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/vgpu)
# The .pc file finds its prefix relative to itself, so `cmake --install --prefix` may move it.
file(RELATIVE_PATH VGPU_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
configure_file(${PROJECT_SOURCE_DIR}/cmake/vgpu.pc.in ${CMAKE_BINARY_DIR}/vgpu.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/vgpu.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
