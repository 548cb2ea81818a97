/* Force and energy accumulators every GPU pass adds into: int64 fixed point
 * (VKMD_FIXED_SCALE = 2^32 per kcal/mol/A or kcal/mol; layouts in
 * shaders/common/vkmd_layout.h). Fixed point makes the sums independent of
 * thread order, so two evaluations are bitwise identical.
 *
 * A step records vkmd_accum_record_clear, then the passes, then reads back
 * when it needs numbers on the host. */
#ifndef VKMD_FORCES_ACCUM_H
#define VKMD_FORCES_ACCUM_H

#include "common/vkmd_layout.h"
#include "vk/buffer.h"

typedef struct vkmd_accum {
    vkmd_vk_buffer forces;   /* int64 [3 * atom_count], planes x | y | z */
    vkmd_vk_buffer energies; /* int64 [VKMD_ENERGY_SLOT_COUNT] */
    int32_t atom_count;
} vkmd_accum;

/* Creates both buffers (uninitialised: record a clear before the first pass).
 * force_staging as in vkmd_vk_buffer_desc. Errors: VKMD_ERROR_INVALID_ARGUMENT
 * (atom_count <= 0), buffer errors. */
vkmd_result vkmd_accum_create(vkmd_vk_context *ctx, int32_t atom_count, int force_staging,
                              vkmd_accum *out_accum);

/* Zeroed struct: no-op. */
void vkmd_accum_destroy(vkmd_vk_context *ctx, vkmd_accum *accum);

/* Records zero fills of both buffers and the transfer->compute barrier. */
void vkmd_accum_record_clear(VkCommandBuffer cb, const vkmd_accum *accum);

/* Reads both buffers back (waits for the queue's earlier work) and converts:
 * out_forces [3 * atom_count] kcal/mol/A, atom-major (x, y, z per atom), may be
 * NULL; out_slots [VKMD_ENERGY_SLOT_COUNT] kcal/mol, may be NULL. */
vkmd_result vkmd_accum_readback(vkmd_vk_context *ctx, const vkmd_accum *accum, double *out_forces,
                                double *out_slots);

#endif
