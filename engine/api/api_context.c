/* vkmd_context: a Vulkan device for the public API (include/vkmd.h). The
 * device string is read as `vkmd run --device` reads it ("gpu" = the best). */
#include "api/api_context.h"

#include <stdlib.h>
#include <string.h>

vkmd_result vkmd_api_context_create(const vkmd_context_desc *desc,
                                    const vkmd_vk_context_desc *extra, vkmd_context **out_ctx)
{
    if (!out_ctx)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "vkmd_context_create: out_ctx is NULL");
    *out_ctx = NULL;
    const vkmd_context_desc none = {0};
    if (!desc)
        desc = &none;
    if (desc->validation < -1 || desc->validation > 1)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "vkmd_context_create: validation is %d, expected -1, 0 or 1",
                         desc->validation);
    vkmd_vk_context_desc vd;
    if (extra)
        vd = *extra;
    else
        memset(&vd, 0, sizeof vd);
    vd.device =
        desc->device && desc->device[0] && strcmp(desc->device, "gpu") ? desc->device : NULL;
    vd.validation = desc->validation;
    vkmd_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "vkmd_context_create: out of memory");
    vkmd_result r = vkmd_vk_context_create(&vd, &ctx->vk);
    if (r != VKMD_OK) {
        free(ctx);
        return r;
    }
    *out_ctx = ctx;
    return VKMD_OK;
}

vkmd_result vkmd_context_create(const vkmd_context_desc *desc, vkmd_context **out_ctx)
{
    return vkmd_api_context_create(desc, NULL, out_ctx);
}

void vkmd_context_destroy(vkmd_context *ctx)
{
    if (!ctx)
        return;
    vkmd_vk_context_destroy(ctx->vk);
    free(ctx);
}

const char *vkmd_context_device_name(const vkmd_context *ctx)
{
    return ctx ? ctx->vk->info.name : "";
}

uint32_t vkmd_context_validation_errors(const vkmd_context *ctx)
{
    return ctx ? vkmd_vk_context_validation_errors(ctx->vk) : 0;
}
