/* Tile shader builds (see tile.h). */
#include "forces/tile.h"
#include "forces/fixed_point.h"
#include "vk/spirv.h"

#include <stdio.h>
#include <stdlib.h>

vkmd_result vkmd_tile_shader(const vkmd_vk_context *ctx, const char *pass, const char *shader,
                             uint32_t wg, int fixed, const char **out_name, uint32_t *out_wg)
{
    *out_name = NULL;
    *out_wg = 0;
    const int shuffle = ctx->info.features.subgroup_shuffle;
    const int words = fixed && vkmd_fixed_mode_of(ctx) == VKMD_FIXED_MODE_WORDS;
    const char *suffix = shuffle ? (words ? "+words" : "") : (words ? "+sharedwords" : "+shared");
    char name[128];
    snprintf(name, sizeof name, "%s%s", shader, suffix);
    const vkmd_spirv *s = vkmd_spirv_find(name);
    if (!s)
        return vkmd_fail(VKMD_ERROR_UNSUPPORTED,
                         "%s: no %s build of %s for %s (subgroup shuffles %s, fixed point %s; "
                         "shaders/variants.cmake)",
                         pass, suffix[0] ? suffix + 1 : "default", shader, ctx->info.name,
                         shuffle ? "yes" : "no", words ? "32-bit words" : "int64");
    *out_name = s->name;
    *out_wg = shuffle ? wg : 8;
    return VKMD_OK;
}

uint32_t vkmd_tile_split(const vkmd_vk_context *ctx)
{
    const char *e = getenv("VKMD_TILE_SPLIT");
    if (e && *e) {
        long v = strtol(e, NULL, 10);
        if (v >= 1 && v <= 64)
            return (uint32_t)v;
    }
    return ctx->info.type == VK_PHYSICAL_DEVICE_TYPE_CPU ? 1u : 8u;
}
