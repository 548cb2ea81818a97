/* Replicas of UFF molecules placed above a surface (system/uff_surface.h):
 * every replica's atoms one after another, each atom's surface channel, and
 * the coordinates translated in z so that the replica's lowest atom is at a
 * given height above the top layer (x, y kept). What the direct sums, the
 * grid (CPU reference, ref/ref_uff_surface.h) and the device pass
 * (sim/uff_surface_eval.h) evaluate. Host data, no Vulkan. */
#ifndef VKMD_SYSTEM_UFF_SURFACE_REPLICAS_H
#define VKMD_SYSTEM_UFF_SURFACE_REPLICAS_H

#include "system/uff_batch.h"
#include "system/uff_surface.h"

typedef struct vkmd_uff_surface_replicas {
    int32_t count;      /* replicas */
    int32_t atom_count; /* atoms of every replica */
    int32_t *offset;    /* [count] replica r's first atom */
    int32_t *channel;   /* [atom_count] surface channel of each atom */
    double *xyz;        /* [3 * atom_count] placed coordinates, A */
} vkmd_uff_surface_replicas;

/* Distinct UFF labels of `mol_count` typed molecules, in order of first
 * appearance, into out_labels (room for the sum of their atom counts);
 * returns the count. */
int32_t vkmd_uff_surface_labels_of(const vkmd_uff_typing *const *types, int32_t mol_count,
                                   char (*out_labels)[VKMD_UFF_LABEL_MAX]);

/* Places `count` replicas (reps[r].molecule indexes types; coordinates
 * borrowed) above surface s with each lowest atom height_a A above the top
 * layer, into *out (overwritten; free with vkmd_uff_surface_replicas_free).
 * Errors: VKMD_ERROR_INVALID_ARGUMENT (an atom type without a channel),
 * VKMD_ERROR_OUT_OF_MEMORY; *out is zeroed on failure. */
vkmd_result vkmd_uff_surface_replicas_place(const vkmd_uff_surface *s,
                                            const vkmd_uff_typing *const *types,
                                            const vkmd_uff_replica *reps, int32_t count,
                                            double height_a, vkmd_uff_surface_replicas *out);

/* Frees and zeroes. Safe on a zeroed struct. */
void vkmd_uff_surface_replicas_free(vkmd_uff_surface_replicas *p);

#endif
