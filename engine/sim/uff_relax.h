/* FIRE relaxation of many replicas of one UFF molecule on a Vulkan device,
 * from their starts to their reports, in one call: the batch, the FIRE
 * state (sim/uff_fire.h) and its runs made and released inside. What
 * `vkmd uff relax` runs on a device; the CPU reference is
 * ref/ref_uff_fire.h, one replica at a time. */
#ifndef VKMD_SIM_UFF_RELAX_H
#define VKMD_SIM_UFF_RELAX_H

#include "sim/uff_fire.h"
#include "vk/context.h"

/* Relaxes `count` replicas of the molecule of `terms` (borrowed) from
 * start ([count][3 * atoms] A) with `params` (NULL: defaults) on ctx.
 * out_xyz (same layout; may be NULL) receives the final coordinates,
 * out_results [count] (may be NULL) each replica's report, and
 * *out_submissions (may be NULL) the host checks made. Errors: those of
 * vkmd_uff_batch_build, vkmd_uff_fire_create and vkmd_uff_fire_run. */
vkmd_result vkmd_uff_relax_replicas(vkmd_vk_context *ctx, const vkmd_uff_terms *terms,
                                    int32_t count, const vkmd_uff_fire_params *params,
                                    const double *start, double *out_xyz,
                                    vkmd_uff_fire_result *out_results, int32_t *out_submissions);

#endif
