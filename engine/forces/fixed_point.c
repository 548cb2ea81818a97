/* Fixed-point mode of a device and the matching shader build (see
 * fixed_point.h). */
#include "forces/fixed_point.h"
#include "vk/spirv.h"

#include <stdio.h>

vkmd_fixed_mode vkmd_fixed_mode_of(const vkmd_vk_context *ctx)
{
    const vkmd_vk_features *f = &ctx->info.features;
    return f->shader_int64 && f->buffer_int64_atomics ? VKMD_FIXED_MODE_INT64
                                                      : VKMD_FIXED_MODE_WORDS;
}

const char *vkmd_fixed_mode_name(vkmd_fixed_mode mode)
{
    return mode == VKMD_FIXED_MODE_INT64 ? "int64 atomics" : "32-bit words";
}

vkmd_result vkmd_fixed_shader(const vkmd_vk_context *ctx, const char *pass, const char *shader,
                              const char **out_name)
{
    *out_name = NULL;
    if (vkmd_fixed_mode_of(ctx) == VKMD_FIXED_MODE_INT64) {
        *out_name = shader;
        return VKMD_OK;
    }
    char name[128];
    snprintf(name, sizeof name, "%s+words", shader);
    const vkmd_spirv *s = vkmd_spirv_find(name);
    if (!s)
        return vkmd_fail(VKMD_ERROR_UNSUPPORTED,
                         "%s: %s lacks shaderInt64/shaderBufferInt64Atomics and %s has no 32-bit "
                         "words build (shaders/variants.cmake)",
                         pass, ctx->info.name, shader);
    *out_name = s->name;
    return VKMD_OK;
}
