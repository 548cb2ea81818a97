/* Positions buffer helpers (see positions.h). */
#include "forces/positions.h"

#include <stdlib.h>

vkmd_result vkmd_positions_create(vkmd_vk_context *ctx, int32_t atom_count, int force_staging,
                                  vkmd_vk_buffer *out_buf)
{
    if (atom_count <= 0)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "positions buffer for %d atoms", atom_count);
    const vkmd_vk_buffer_desc d = {
        .size = 16 * (VkDeviceSize)atom_count, .force_staging = force_staging, .name = "positions"};
    return vkmd_vk_buffer_create(ctx, &d, out_buf);
}

vkmd_result vkmd_positions_upload(vkmd_vk_context *ctx, vkmd_vk_buffer *buf, const double *xyz,
                                  int32_t atom_count)
{
    VkDeviceSize size = 16 * (VkDeviceSize)atom_count;
    if (atom_count <= 0 || buf->size < size)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "positions upload: %d atoms into a buffer of %llu bytes", atom_count,
                         (unsigned long long)buf->size);
    float *p = calloc(4 * (size_t)atom_count, sizeof *p);
    if (!p)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "positions upload: %d atoms", atom_count);
    for (int32_t i = 0; i < atom_count; ++i)
        for (int c = 0; c < 3; ++c)
            p[4 * i + c] = (float)xyz[3 * i + c];
    vkmd_result res = vkmd_vk_buffer_upload(ctx, buf, 0, p, size);
    free(p);
    return res;
}

vkmd_result vkmd_positions_readback(vkmd_vk_context *ctx, const vkmd_vk_buffer *buf,
                                    double *out_xyz, int32_t atom_count)
{
    VkDeviceSize size = 16 * (VkDeviceSize)atom_count;
    if (atom_count <= 0 || buf->size < size)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "positions readback: %d atoms from a buffer of %llu bytes", atom_count,
                         (unsigned long long)buf->size);
    float *p = malloc(sizeof *p * 4 * (size_t)atom_count);
    if (!p)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "positions readback: %d atoms", atom_count);
    vkmd_result res = vkmd_vk_buffer_readback(ctx, buf, 0, p, size);
    if (res == VKMD_OK)
        for (int32_t i = 0; i < atom_count; ++i)
            for (int c = 0; c < 3; ++c)
                out_xyz[3 * i + c] = p[4 * i + c];
    free(p);
    return res;
}
