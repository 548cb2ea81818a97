/* Fixed-point force/energy accumulators (see accum.h). */
#include "forces/accum.h"
#include "vk/barrier.h"

#include <stdlib.h>

vkmd_result vkmd_accum_create(vkmd_vk_context *ctx, int32_t atom_count, int force_staging,
                              vkmd_accum *out_accum)
{
    vkmd_result res = VKMD_OK;
    vkmd_accum a = {.atom_count = atom_count};
    *out_accum = a;
    if (atom_count <= 0)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "accumulators for %d atoms", atom_count);
    const vkmd_vk_buffer_desc fd = {
        .size = 3 * (VkDeviceSize)atom_count * sizeof(int64_t),
        .force_staging = force_staging,
        .name = "force accumulator",
    };
    const vkmd_vk_buffer_desc ed = {
        .size = VKMD_ENERGY_SLOT_COUNT * sizeof(int64_t),
        .force_staging = force_staging,
        .name = "energy accumulator",
    };
    VKMD_TRY(vkmd_vk_buffer_create(ctx, &fd, &a.forces));
    VKMD_TRY(vkmd_vk_buffer_create(ctx, &ed, &a.energies));
    *out_accum = a;
    return VKMD_OK;
cleanup:
    vkmd_accum_destroy(ctx, &a);
    return res;
}

void vkmd_accum_destroy(vkmd_vk_context *ctx, vkmd_accum *accum)
{
    if (!accum)
        return;
    vkmd_vk_buffer_destroy(ctx, &accum->forces);
    vkmd_vk_buffer_destroy(ctx, &accum->energies);
    accum->atom_count = 0;
}

void vkmd_accum_record_clear(VkCommandBuffer cb, const vkmd_accum *accum)
{
    vkmd_vk_buffer_record_fill(cb, &accum->forces, 0);
    vkmd_vk_buffer_record_fill(cb, &accum->energies, 0);
    vkmd_vk_barrier_transfer_to_compute(cb);
}

vkmd_result vkmd_accum_readback(vkmd_vk_context *ctx, const vkmd_accum *accum, double *out_forces,
                                double *out_slots)
{
    vkmd_result res = VKMD_OK;
    const int32_t n = accum->atom_count;
    int64_t *fixed = NULL;
    if (out_forces) {
        fixed = malloc(3 * (size_t)n * sizeof *fixed);
        if (!fixed)
            return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "force readback: out of memory");
        VKMD_TRY(vkmd_vk_buffer_readback(ctx, &accum->forces, 0, fixed, accum->forces.size));
        for (int32_t i = 0; i < n; ++i)
            for (int c = 0; c < 3; ++c)
                out_forces[3 * i + c] =
                    (double)fixed[VKMD_FORCE_INDEX(c, i, n)] * VKMD_FIXED_INV_SCALE;
    }
    if (out_slots) {
        int64_t e[VKMD_ENERGY_SLOT_COUNT];
        VKMD_TRY(vkmd_vk_buffer_readback(ctx, &accum->energies, 0, e, sizeof e));
        for (int s = 0; s < VKMD_ENERGY_SLOT_COUNT; ++s)
            out_slots[s] = (double)e[s] * VKMD_FIXED_INV_SCALE;
    }
cleanup:
    free(fixed);
    return res;
}
