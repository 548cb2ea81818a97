/* Fault injection from VKMD_FAULT (see fault.h). */
#include "vk/fault.h"
#include "core/log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct {
    int parsed;
    int bad;          /* malformed VKMD_FAULT */
    int site;         /* -1: no fault */
    long long target; /* 1-based call number that fails */
    VkResult error;
    long long calls[3];
} fault = {.site = -1};

static void parse(void)
{
    fault.parsed = 1;
    const char *s = getenv("VKMD_FAULT");
    if (!s || !*s)
        return;
    char site[16], kind[32];
    long long n = 0;
    char end = 0;
    if (sscanf(s, "%15[a-z]:%lld:%31[a-z_]%c", site, &n, kind, &end) == 3 && n >= 1) {
        if (!strcmp(site, "submit") && !strcmp(kind, "device_lost")) {
            fault.site = VKMD_VK_FAULT_SUBMIT;
            fault.error = VK_ERROR_DEVICE_LOST;
        } else if (!strcmp(site, "alloc") && !strcmp(kind, "oom")) {
            fault.site = VKMD_VK_FAULT_ALLOC;
            fault.error = VK_ERROR_OUT_OF_DEVICE_MEMORY;
        } else if (!strcmp(site, "compile") && !strcmp(kind, "oom")) {
            fault.site = VKMD_VK_FAULT_COMPILE;
            fault.error = VK_ERROR_OUT_OF_HOST_MEMORY;
        }
        fault.target = n;
    }
    if (fault.site < 0) {
        fault.bad = 1;
        vkmd_log_error("VKMD_FAULT='%s': expected submit:N:device_lost, alloc:N:oom or "
                       "compile:N:oom (N >= 1)",
                       s);
        return;
    }
    vkmd_log_warn("VKMD_FAULT: %s call %lld will fail with %s", site, n,
                  fault.site == VKMD_VK_FAULT_SUBMIT  ? "VK_ERROR_DEVICE_LOST"
                  : fault.site == VKMD_VK_FAULT_ALLOC ? "VK_ERROR_OUT_OF_DEVICE_MEMORY"
                                                      : "VK_ERROR_OUT_OF_HOST_MEMORY");
}

VkResult vkmd_vk_fault(vkmd_vk_fault_site site)
{
    if (!fault.parsed)
        parse();
    if (fault.bad)
        return VK_ERROR_INITIALIZATION_FAILED;
    if (fault.site != (int)site)
        return VK_SUCCESS;
    const long long call = ++fault.calls[site];
    if (call == fault.target || (site == VKMD_VK_FAULT_SUBMIT && call > fault.target))
        return fault.error;
    return VK_SUCCESS;
}

static int64_t device_bytes;

void vkmd_vk_memory_note(int64_t bytes)
{
    device_bytes += bytes;
}

vkmd_result vkmd_vk_memory_check(const vkmd_vk_context *ctx, const char *what)
{
    const double mib = 1024.0 * 1024.0;
    uint64_t heap =
        ctx->info.device_local_bytes ? ctx->info.device_local_bytes : ctx->info.host_bytes;
    const char *pretend = getenv("VKMD_DEVICE_HEAP_MB");
    if (pretend && *pretend) {
        char *end = NULL;
        errno = 0;
        const double v = strtod(pretend, &end);
        if (end == pretend || *end || errno || !(v > 0) || v > 1e9)
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "VKMD_DEVICE_HEAP_MB='%s': expected a size in MiB > 0", pretend);
        heap = (uint64_t)(v * mib);
    }
    if (heap == 0 || device_bytes <= (int64_t)heap)
        return VKMD_OK;
    return vkmd_fail(VKMD_ERROR_DEVICE_MEMORY,
                     "%s needs %.4g MiB of device memory; %s has %.4g MiB%s", what,
                     (double)device_bytes / mib, ctx->info.name, (double)heap / mib,
                     pretend && *pretend ? " (VKMD_DEVICE_HEAP_MB)" : "");
}
