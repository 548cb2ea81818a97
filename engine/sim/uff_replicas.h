/* UFF energies and forces of many replicas on a Vulkan device, in batches
 * (forces/pass_uff.h: one dispatch per batch of up to replicas_per_batch
 * replicas), with the device's per-interaction details of one replica: what
 * `vkmd uff energy` and `vkmd uff scan` evaluate. Consecutive full batches
 * with the same molecules keep one pass (pipeline and tables) and upload only
 * the coordinates, so a scan of many conformations builds the pass once.
 * The CPU oracle is vkmd_ref_uff_compute, once per replica. */
#ifndef VKMD_SIM_UFF_REPLICAS_H
#define VKMD_SIM_UFF_REPLICAS_H

#include "common/vkmd_layout.h"
#include "system/uff_batch.h"
#include "system/uff_terms.h"
#include "vk/context.h"

#include <stdint.h>

typedef struct vkmd_uff_replicas_desc {
    int32_t replicas_per_batch; /* 0: every replica of the call in one batch */
    int debug;                  /* 0; 1: record the details of debug_replica */
    int32_t debug_replica;      /* 0; the replica (0-based) whose details are recorded */
} vkmd_uff_replicas_desc;

/* Energies out_energy[r] and forces out_forces[r] ([3 * atoms] kcal/mol/A;
 * out_forces or any entry may be NULL) of `count` replicas of the molecules
 * `mols` (borrowed), on `ctx`. `desc` may be NULL (defaults). With
 * desc->debug and a debug replica among them, *out_debug receives its
 * records (malloc'd, *out_debug_count of them; free()); out_debug may be
 * NULL otherwise. *out_batches (may be NULL) is increased by the dispatches
 * made. A stop request (core/stop.h) seen between two batches returns
 * VKMD_ERROR_STOPPED: the replicas of the batches made (each full, of
 * replicas_per_batch) hold their results, the rest none. Errors:
 * VKMD_ERROR_OUT_OF_MEMORY, pass and Vulkan errors; nothing is returned in
 * *out_debug on failure. */
vkmd_result vkmd_uff_replicas_evaluate(vkmd_vk_context *ctx, const vkmd_uff_terms *const *mols,
                                       int32_t mol_count, const vkmd_uff_replica *reps,
                                       int32_t count, const vkmd_uff_replicas_desc *desc,
                                       vkmd_uff_energy *out_energy, double *const *out_forces,
                                       vkmd_uff_debug_record **out_debug, int32_t *out_debug_count,
                                       int32_t *out_batches);

#endif
