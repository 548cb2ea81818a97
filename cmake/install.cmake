# `cmake --install build --prefix P`: libvkmd.so (with its soname link), the
# public headers (vkmd.h, vkmd_vulkan.h; the engine's own headers stay
# private), the vkmd command, a pkg-config file (lib/pkgconfig/vkmd.pc) and
# a CMake package (lib/cmake/vkmd: find_package(vkmd), target vkmd::vkmd).
# Both find the prefix from where they are installed, so any --prefix works.
include(CMakePackageConfigHelpers)

# include/vkmd.h's version macros are the library's: they must say the
# project's version (the soname comes from it).
file(STRINGS ${CMAKE_SOURCE_DIR}/include/vkmd.h vkmd_header_version
     REGEX "^#define VKMD_VERSION_(MAJOR|MINOR|PATCH) +[0-9]+")
string(REGEX REPLACE "[^;]*MAJOR +([0-9]+);[^;]*MINOR +([0-9]+);[^;]*PATCH +([0-9]+)" "\\1.\\2.\\3"
                     vkmd_header_version "${vkmd_header_version}")
if(NOT vkmd_header_version STREQUAL PROJECT_VERSION)
  message(FATAL_ERROR "include/vkmd.h says version ${vkmd_header_version}, the project "
                      "${PROJECT_VERSION}: update VKMD_VERSION_* and VKMD_VERSION_STRING")
endif()

install(TARGETS vkmd_shared EXPORT vkmdTargets LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES ${CMAKE_SOURCE_DIR}/include/vkmd.h ${CMAKE_SOURCE_DIR}/include/vkmd_vulkan.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS vkmd RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

set(vkmd_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/vkmd)
install(EXPORT vkmdTargets NAMESPACE vkmd:: DESTINATION ${vkmd_cmake_dir})
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/vkmdConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/vkmdConfig.cmake
                              INSTALL_DESTINATION ${vkmd_cmake_dir})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/vkmdConfigVersion.cmake
                                 COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_BINARY_DIR}/vkmdConfig.cmake ${CMAKE_BINARY_DIR}/vkmdConfigVersion.cmake
        DESTINATION ${vkmd_cmake_dir})

# vkmd.pc: prefix relative to the file's own directory (${pcfiledir}).
file(RELATIVE_PATH vkmd_pc_to_prefix /p/${CMAKE_INSTALL_LIBDIR}/pkgconfig /p)
string(REGEX REPLACE "/$" "" vkmd_pc_to_prefix "${vkmd_pc_to_prefix}")
configure_file(${CMAKE_SOURCE_DIR}/cmake/vkmd.pc.in ${CMAKE_BINARY_DIR}/vkmd.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/vkmd.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
