/* vkmd Vulkan interop: the Vulkan objects behind a vkmd context and the
 * device buffers of a dynamics, for programs that record their own Vulkan
 * work on vkmd's device (a viewer drawing the atoms where they are).
 * Include after (or instead of) vkmd.h; needs the Vulkan headers.
 *
 * Everything returned is owned by vkmd and valid until the handle it came
 * from is destroyed. Work that reads vkmd's buffers must be ordered after
 * vkmd's own: vkmd calls return with the device idle for its queue (they
 * wait for their submissions), and a program must wait for its own work on
 * those buffers before the next vkmd call. */
#ifndef VKMD_VULKAN_H
#define VKMD_VULKAN_H

#include "vkmd.h"

#include <vulkan/vulkan.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Presentation support, for a context whose device also draws into a window
 * (the window system's instance extensions and its present test). */
typedef struct vkmd_context_present_desc {
    const char *const *instance_extensions; /* e.g. glfwGetRequiredInstanceExtensions */
    uint32_t instance_extension_count;
    /* 1 if `family` of `physical` can present to the program's surface. */
    int (*present_support)(void *user, VkInstance instance, VkPhysicalDevice physical,
                           uint32_t family);
    void *present_user; /* passed to present_support */
} vkmd_context_present_desc;

/* vkmd_context_create for a device that can also present: the instance gets
 * the extensions, the device VK_KHR_swapchain and a graphics queue that can
 * present (vkmd_context_vk_graphics_queue). Errors: those of
 * vkmd_context_create; VKMD_ERROR_UNSUPPORTED when the chosen device cannot
 * present. */
VKMD_API vkmd_result vkmd_context_create_presentable(const vkmd_context_desc *desc,
                                                     const vkmd_context_present_desc *present,
                                                     vkmd_context **out_ctx);

VKMD_API VkInstance vkmd_context_vk_instance(const vkmd_context *ctx);
VKMD_API VkPhysicalDevice vkmd_context_vk_physical_device(const vkmd_context *ctx);
VKMD_API VkDevice vkmd_context_vk_device(const vkmd_context *ctx);

/* The compute queue vkmd submits to, and its family (out_family may be
 * NULL). vkmd submits only from inside its own calls. */
VKMD_API VkQueue vkmd_context_vk_queue(const vkmd_context *ctx, uint32_t *out_family);

/* The graphics queue of a presentable context and its family
 * (VK_NULL_HANDLE and UINT32_MAX otherwise). It may be the compute queue
 * itself. */
VKMD_API VkQueue vkmd_context_vk_graphics_queue(const vkmd_context *ctx, uint32_t *out_family);

/* The dynamics' positions (vec4 fp32 per atom, xyz in A, w unused; the
 * position rounded to float in every precision mode) and velocities (vec4
 * per atom, xyz A/fs, w = 1/mass in 1/amu) as storage buffers; out_bytes
 * (may be NULL) gets each buffer's size. */
VKMD_API VkBuffer vkmd_dynamics_vk_positions(const vkmd_dynamics *dyn, VkDeviceSize *out_bytes);
VKMD_API VkBuffer vkmd_dynamics_vk_velocities(const vkmd_dynamics *dyn, VkDeviceSize *out_bytes);

#ifdef __cplusplus
}
#endif
#endif
