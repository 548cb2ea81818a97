/* Result code names and the thread-local error detail. */
#include "core/result.h"

#include <stdarg.h>
#include <stdio.h>

static _Thread_local char last_error[1024];

const char *vkmd_result_str(vkmd_result r)
{
    switch (r) {
    case VKMD_OK:
        return "ok";
    case VKMD_ERROR_INVALID_ARGUMENT:
        return "invalid argument";
    case VKMD_ERROR_OUT_OF_MEMORY:
        return "out of host memory";
    case VKMD_ERROR_IO:
        return "i/o error";
    case VKMD_ERROR_PARSE:
        return "parse error";
    case VKMD_ERROR_UNSUPPORTED:
        return "unsupported";
    case VKMD_ERROR_NO_DEVICE:
        return "no Vulkan device";
    case VKMD_ERROR_VULKAN:
        return "Vulkan error";
    case VKMD_ERROR_DEVICE_LOST:
        return "Vulkan device lost";
    case VKMD_ERROR_DEVICE_MEMORY:
        return "out of device memory";
    case VKMD_ERROR_VALIDATION:
        return "Vulkan validation error";
    case VKMD_ERROR_NUMERIC:
        return "numerical error";
    case VKMD_ERROR_CAPACITY:
        return "device buffer too small";
    case VKMD_ERROR_STOPPED:
        return "stopped on request";
    case VKMD_RESULT_COUNT:
        break;
    }
    return "unknown error";
}

vkmd_result vkmd_fail(vkmd_result code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return code;
}

const char *vkmd_last_error(void)
{
    return last_error;
}

void vkmd_error_clear(void)
{
    last_error[0] = '\0';
}
