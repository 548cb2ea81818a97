/* Checked Vulkan calls: VKMD_VK_CHECK evaluates a Vulkan call once and, when it
 * does not return VK_SUCCESS, records "file:line: vkCall -> VK_ERROR_NAME" with
 * vkmd_fail(), stores the mapped vkmd_result in `res` and jumps to the
 * function's `cleanup` label. Never wrap a Vulkan call in assert().
 *
 * Mapping: VK_ERROR_DEVICE_LOST -> VKMD_ERROR_DEVICE_LOST,
 * VK_ERROR_OUT_OF_DEVICE_MEMORY -> VKMD_ERROR_DEVICE_MEMORY,
 * VK_ERROR_OUT_OF_HOST_MEMORY -> VKMD_ERROR_OUT_OF_MEMORY,
 * VK_ERROR_{LAYER,EXTENSION,FEATURE}_NOT_PRESENT -> VKMD_ERROR_UNSUPPORTED,
 * VK_ERROR_INCOMPATIBLE_DRIVER -> VKMD_ERROR_NO_DEVICE, anything else
 * (including positive codes such as VK_TIMEOUT) -> VKMD_ERROR_VULKAN. */
#ifndef VKMD_VK_CHECK_H
#define VKMD_VK_CHECK_H

#include "core/result.h"

#include <vulkan/vulkan.h>

/* "VK_ERROR_DEVICE_LOST" etc.; "VK_RESULT_<n>" for unknown codes (static storage). */
const char *vkmd_vk_result_name(VkResult r);

/* The vkmd_result a VkResult maps to (VKMD_OK for VK_SUCCESS). */
vkmd_result vkmd_vk_map_result(VkResult r);

/* Records "file:line: vkFunction -> VK_NAME" (call text cut at its first '(')
 * and returns the mapped code. Used by VKMD_VK_CHECK. */
vkmd_result vkmd_vk_fail(VkResult r, const char *file, int line, const char *call);

/* Prefixes the current error detail: vkmd_fail(code, "<prefix>: <detail>").
 * (vkmd_fail cannot take vkmd_last_error() as an argument: same buffer.) */
vkmd_result vkmd_vk_fail_prefix(vkmd_result code, const char *prefix);

/* Requires `vkmd_result res` and a `cleanup` label in scope. */
#define VKMD_VK_CHECK(call)                                                                        \
    do {                                                                                           \
        VkResult vkmd_vk_check_r_ = (call);                                                        \
        if (vkmd_vk_check_r_ != VK_SUCCESS) {                                                      \
            res = vkmd_vk_fail(vkmd_vk_check_r_, __FILE__, __LINE__, #call);                       \
            goto cleanup;                                                                          \
        }                                                                                          \
    } while (0)

#endif
