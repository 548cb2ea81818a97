/* VkResult names and their mapping onto vkmd_result (see check.h). */
#include "vk/check.h"

#include <stdio.h>
#include <string.h>

const char *vkmd_vk_result_name(VkResult r)
{
    switch (r) {
#define NAME(x)                                                                                    \
    case x:                                                                                        \
        return #x;
        NAME(VK_SUCCESS)
        NAME(VK_NOT_READY)
        NAME(VK_TIMEOUT)
        NAME(VK_EVENT_SET)
        NAME(VK_EVENT_RESET)
        NAME(VK_INCOMPLETE)
        NAME(VK_ERROR_OUT_OF_HOST_MEMORY)
        NAME(VK_ERROR_OUT_OF_DEVICE_MEMORY)
        NAME(VK_ERROR_INITIALIZATION_FAILED)
        NAME(VK_ERROR_DEVICE_LOST)
        NAME(VK_ERROR_MEMORY_MAP_FAILED)
        NAME(VK_ERROR_LAYER_NOT_PRESENT)
        NAME(VK_ERROR_EXTENSION_NOT_PRESENT)
        NAME(VK_ERROR_FEATURE_NOT_PRESENT)
        NAME(VK_ERROR_INCOMPATIBLE_DRIVER)
        NAME(VK_ERROR_TOO_MANY_OBJECTS)
        NAME(VK_ERROR_FORMAT_NOT_SUPPORTED)
        NAME(VK_ERROR_FRAGMENTED_POOL)
        NAME(VK_ERROR_UNKNOWN)
        NAME(VK_ERROR_OUT_OF_POOL_MEMORY)
        NAME(VK_ERROR_INVALID_EXTERNAL_HANDLE)
        NAME(VK_ERROR_FRAGMENTATION)
        NAME(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
        NAME(VK_ERROR_SURFACE_LOST_KHR)
        NAME(VK_ERROR_NATIVE_WINDOW_IN_USE_KHR)
        NAME(VK_SUBOPTIMAL_KHR)
        NAME(VK_ERROR_OUT_OF_DATE_KHR)
        NAME(VK_ERROR_VALIDATION_FAILED_EXT)
#undef NAME
    default:
        break;
    }
    static _Thread_local char buf[32];
    snprintf(buf, sizeof buf, "VK_RESULT_%d", (int)r);
    return buf;
}

vkmd_result vkmd_vk_map_result(VkResult r)
{
    switch (r) {
    case VK_SUCCESS:
        return VKMD_OK;
    case VK_ERROR_DEVICE_LOST:
        return VKMD_ERROR_DEVICE_LOST;
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
        return VKMD_ERROR_DEVICE_MEMORY;
    case VK_ERROR_OUT_OF_HOST_MEMORY:
        return VKMD_ERROR_OUT_OF_MEMORY;
    case VK_ERROR_LAYER_NOT_PRESENT:
    case VK_ERROR_EXTENSION_NOT_PRESENT:
    case VK_ERROR_FEATURE_NOT_PRESENT:
        return VKMD_ERROR_UNSUPPORTED;
    case VK_ERROR_INCOMPATIBLE_DRIVER:
        return VKMD_ERROR_NO_DEVICE;
    default:
        return VKMD_ERROR_VULKAN;
    }
}

vkmd_result vkmd_vk_fail(VkResult r, const char *file, int line, const char *call)
{
    const char *paren = strchr(call, '(');
    int len = paren ? (int)(paren - call) : (int)strlen(call);
    /* Report engine-relative paths ("vk/buffer.c"), not the build machine's. */
    const char *rel = strstr(file, "engine/");
    rel = rel ? rel + 7 : file;
    return vkmd_fail(vkmd_vk_map_result(r), "%s:%d: %.*s -> %s", rel, line, len, call,
                     vkmd_vk_result_name(r));
}

vkmd_result vkmd_vk_fail_prefix(vkmd_result code, const char *prefix)
{
    char detail[512];
    snprintf(detail, sizeof detail, "%s", vkmd_last_error());
    return vkmd_fail(code, "%s: %s", prefix, detail);
}
