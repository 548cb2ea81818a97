# VkFFT (Debian libvkfft-dev: one header, Vulkan backend) for the PME pass.
# Defines the interface target vkmd_vkfft: the patched header's directory
# (searched before /usr/include), VKFFT_BACKEND=0, and glslang, which VkFFT
# uses at plan creation to compile its kernels (a static C++ library, hence
# stdc++ and Threads).
#
# VkFFT 1.2.26's header needs two fixes, applied at configure time to a copy
# written into the build tree (the system header is never modified):
# 1. `VkCommandBuffer commandBuffer = {};` (3 places): an empty initializer,
#    which gcc 12 rejects in C.
# 2. Its positional glslang_resource_t initializer (2 places) predates the 9
#    max_*_ext mesh fields that glslang >= 11.12 inserts before
#    maxDualSourceDrawBuffersEXT. In C it only warns, every later value lands
#    one field off and `limits` stays zero, and then every FFT kernel fails to
#    parse at run time. The fix inserts glslang's default values for the EXT
#    mesh fields (256, 256, 128, 128, 128, 128, 128, 128, 4).
# A warning is printed if either string stops matching (another VkFFT version):
# the copy is then written unchanged and the build may fail or misbehave.
find_path(VKFFT_INCLUDE_DIR vkFFT.h)
if(NOT VKFFT_INCLUDE_DIR)
  message(FATAL_ERROR "vkFFT.h not found: install the Debian package libvkfft-dev")
endif()
# Threads first: glslang's exported targets name Threads::Threads.
find_package(Threads REQUIRED)
find_package(glslang CONFIG REQUIRED)

set(vkfft_header ${VKFFT_INCLUDE_DIR}/vkFFT.h)
set(vkfft_gen_dir ${CMAKE_BINARY_DIR}/generated/vkfft)
file(READ ${vkfft_header} vkfft_text)

set(vkfft_cb_old "VkCommandBuffer commandBuffer = {};")
set(vkfft_cb_new "VkCommandBuffer commandBuffer = VK_NULL_HANDLE;")
set(vkfft_mesh_old "/* .maxDualSourceDrawBuffersEXT = */ 1,")
set(vkfft_mesh_new "/* mesh EXT limits (glslang defaults) */ 256, 256, 128, 128, 128, 128, 128, 128, 4,
				/* .maxDualSourceDrawBuffersEXT = */ 1,")

foreach(fix cb mesh)
  string(FIND "${vkfft_text}" "${vkfft_${fix}_old}" vkfft_pos)
  if(vkfft_pos EQUAL -1)
    message(WARNING "vkfft.cmake: '${vkfft_${fix}_old}' not found in ${vkfft_header}; that fix "
                    "is not applied (a VkFFT version other than 1.2.26?)")
  else()
    string(REPLACE "${vkfft_${fix}_old}" "${vkfft_${fix}_new}" vkfft_text "${vkfft_text}")
  endif()
endforeach()

# Written through a temporary so that an unchanged header keeps its time stamp
# (configure_file COPYONLY only copies when the content differs).
file(WRITE ${vkfft_gen_dir}/vkFFT.h.tmp "${vkfft_text}")
configure_file(${vkfft_gen_dir}/vkFFT.h.tmp ${vkfft_gen_dir}/vkFFT.h COPYONLY)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${vkfft_header})

add_library(vkmd_vkfft INTERFACE)
# SYSTEM: the header's own warnings are not ours (-Werror); -isystem
# directories are searched before /usr/include, so this copy wins.
target_include_directories(vkmd_vkfft SYSTEM BEFORE INTERFACE ${vkfft_gen_dir})
target_compile_definitions(vkmd_vkfft INTERFACE VKFFT_BACKEND=0)
target_link_libraries(vkmd_vkfft INTERFACE glslang::SPIRV glslang::glslang Vulkan::Vulkan
                      Threads::Threads stdc++ m)
