/* Positions buffer helpers (see positions.h). */
#include "forces/positions.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

vkmd_result vkmd_positions_create(vkmd_vk_context *ctx, int32_t atom_count, int force_staging,
                                  vkmd_vk_buffer *out_buf)
{
    if (atom_count <= 0)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "positions buffer for %d atoms", atom_count);
    const vkmd_vk_buffer_desc d = {
        .size = 16 * (VkDeviceSize)atom_count, .force_staging = force_staging, .name = "positions"};
    return vkmd_vk_buffer_create(ctx, &d, out_buf);
}

vkmd_result vkmd_positions_create_extra(vkmd_vk_context *ctx, int32_t atom_count, int mode,
                                        int force_staging, vkmd_vk_buffer *out_buf)
{
    memset(out_buf, 0, sizeof *out_buf);
    if (mode == VKMD_POSITIONS_FP32)
        return VKMD_OK;
    if (mode != VKMD_POSITIONS_SPLIT_FLOAT && mode != VKMD_POSITIONS_SPLIT_INT)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "positions: unknown mode %d", mode);
    if (atom_count <= 0)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "positions buffer for %d atoms", atom_count);
    const vkmd_vk_buffer_desc d = {.size = 32 * (VkDeviceSize)atom_count,
                                   .force_staging = force_staging,
                                   .name = "positions (split parts)"};
    return vkmd_vk_buffer_create(ctx, &d, out_buf);
}

vkmd_result vkmd_positions_extra_binding(const vkmd_vk_buffer *positions,
                                         const vkmd_vk_buffer *extra, int mode, int32_t atom_count,
                                         const char *who, const vkmd_vk_buffer **out_binding)
{
    *out_binding = positions;
    if (mode == VKMD_POSITIONS_FP32)
        return VKMD_OK;
    if (mode != VKMD_POSITIONS_SPLIT_FLOAT && mode != VKMD_POSITIONS_SPLIT_INT)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s: unknown positions mode %d", who, mode);
    if (!extra || extra->size < 32 * (VkDeviceSize)atom_count)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "%s: %s positions need a split-parts buffer of %d atoms", who,
                         vkmd_positions_mode_name(mode), atom_count);
    *out_binding = extra;
    return VKMD_OK;
}

const char *vkmd_positions_mode_name(int mode)
{
    switch (mode) {
    case VKMD_POSITIONS_FP32:
        return "fp32";
    case VKMD_POSITIONS_SPLIT_FLOAT:
        return "split-float";
    case VKMD_POSITIONS_SPLIT_INT:
        return "split-int";
    default:
        return "?";
    }
}

vkmd_result vkmd_positions_mode_parse(const char *name, int *out_mode)
{
    for (int m = VKMD_POSITIONS_FP32; m <= VKMD_POSITIONS_SPLIT_INT; ++m)
        if (!strcmp(name, vkmd_positions_mode_name(m))) {
            *out_mode = m;
            return VKMD_OK;
        }
    return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                     "positions '%s': expected fp32, split-float or split-int", name);
}

static vkmd_result check_size(const char *what, const vkmd_vk_buffer *buf, VkDeviceSize size,
                              int32_t atom_count)
{
    if (atom_count <= 0 || !buf || buf->size < size)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "positions %s: %d atoms, buffer of %llu bytes", what, atom_count,
                         buf ? (unsigned long long)buf->size : 0ull);
    return VKMD_OK;
}

vkmd_result vkmd_positions_upload(vkmd_vk_context *ctx, vkmd_vk_buffer *buf, const double *xyz,
                                  int32_t atom_count)
{
    return vkmd_positions_upload_mode(ctx, buf, NULL, VKMD_POSITIONS_FP32, xyz, atom_count);
}

vkmd_result vkmd_positions_upload_mode(vkmd_vk_context *ctx, vkmd_vk_buffer *buf,
                                       vkmd_vk_buffer *extra, int mode, const double *xyz,
                                       int32_t atom_count)
{
    const VkDeviceSize size = 16 * (VkDeviceSize)atom_count;
    vkmd_result res = check_size("upload", buf, size, atom_count);
    if (res == VKMD_OK && mode != VKMD_POSITIONS_FP32)
        res = check_size("upload (split parts)", extra, 2 * size, atom_count);
    if (res != VKMD_OK)
        return res;
    float *p = calloc(4 * (size_t)atom_count, sizeof *p);
    uint32_t *x = mode != VKMD_POSITIONS_FP32 ? calloc(8 * (size_t)atom_count, sizeof *x) : NULL;
    if (!p || (mode != VKMD_POSITIONS_FP32 && !x)) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "positions upload: %d atoms", atom_count);
        goto cleanup;
    }
    const double range =
        mode == VKMD_POSITIONS_SPLIT_FLOAT ? VKMD_POSITIONS_FLOAT_RANGE : VKMD_POSITIONS_INT_RANGE;
    for (int32_t i = 0; i < atom_count; ++i)
        for (int c = 0; c < 3; ++c) {
            const double v = xyz[3 * i + c];
            p[4 * i + c] = (float)v;
            if (mode == VKMD_POSITIONS_FP32)
                continue;
            if (!(fabs(v) < range)) {
                res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                                "positions upload: atom %d coordinate %g A is beyond the %s range "
                                "(+-%.0f A)",
                                i + 1, v, vkmd_positions_mode_name(mode), range);
                goto cleanup;
            }
            if (mode == VKMD_POSITIONS_SPLIT_FLOAT) {
                /* coarse on the quantum grid, fine |f| <= half a quantum */
                const float coarse =
                    (float)(floor(v * VKMD_POSITIONS_QUANTA + 0.5) * VKMD_POSITIONS_QUANTUM);
                const float fine = (float)(v - (double)coarse);
                memcpy(&x[8 * i + c], &coarse, sizeof coarse);
                memcpy(&x[8 * i + 4 + c], &fine, sizeof fine);
            } else {
                double hi = floor(v);
                double lo = nearbyint((v - hi) * VKMD_POSITIONS_INT_SCALE);
                if (lo >= VKMD_POSITIONS_INT_SCALE) { /* rounded up to the next whole A */
                    hi += 1;
                    lo = 0;
                }
                x[8 * i + c] = (uint32_t)(int32_t)hi;
                x[8 * i + 4 + c] = (uint32_t)lo;
            }
        }
    res = vkmd_vk_buffer_upload(ctx, buf, 0, p, size);
    if (res == VKMD_OK && x)
        res = vkmd_vk_buffer_upload(ctx, extra, 0, x, 2 * size);
cleanup:
    free(p);
    free(x);
    return res;
}

vkmd_result vkmd_positions_readback(vkmd_vk_context *ctx, const vkmd_vk_buffer *buf,
                                    double *out_xyz, int32_t atom_count)
{
    return vkmd_positions_readback_mode(ctx, buf, NULL, VKMD_POSITIONS_FP32, out_xyz, atom_count);
}

vkmd_result vkmd_positions_readback_mode(vkmd_vk_context *ctx, const vkmd_vk_buffer *buf,
                                         const vkmd_vk_buffer *extra, int mode, double *out_xyz,
                                         int32_t atom_count)
{
    const VkDeviceSize size = 16 * (VkDeviceSize)atom_count;
    vkmd_result res = check_size("readback", buf, size, atom_count);
    if (res == VKMD_OK && mode != VKMD_POSITIONS_FP32)
        res = check_size("readback (split parts)", extra, 2 * size, atom_count);
    if (res != VKMD_OK)
        return res;
    float *p = malloc(sizeof *p * 4 * (size_t)atom_count);
    uint32_t *x = mode != VKMD_POSITIONS_FP32 ? malloc(sizeof *x * 8 * (size_t)atom_count) : NULL;
    if (!p || (mode != VKMD_POSITIONS_FP32 && !x)) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "positions readback: %d atoms", atom_count);
        goto cleanup;
    }
    res = vkmd_vk_buffer_readback(ctx, buf, 0, p, size);
    if (res == VKMD_OK && x)
        res = vkmd_vk_buffer_readback(ctx, extra, 0, x, 2 * size);
    if (res != VKMD_OK)
        goto cleanup;
    for (int32_t i = 0; i < atom_count; ++i)
        for (int c = 0; c < 3; ++c) {
            double v = p[4 * i + c];
            if (mode == VKMD_POSITIONS_SPLIT_FLOAT) {
                float coarse, fine;
                memcpy(&coarse, &x[8 * i + c], sizeof coarse);
                memcpy(&fine, &x[8 * i + 4 + c], sizeof fine);
                v = (double)coarse + fine; /* exact in double */
            } else if (mode == VKMD_POSITIONS_SPLIT_INT) {
                v = (double)(int32_t)x[8 * i + c] + x[8 * i + 4 + c] * VKMD_POSITIONS_INT_INV;
            }
            out_xyz[3 * i + c] = v;
        }
cleanup:
    free(p);
    free(x);
    return res;
}
