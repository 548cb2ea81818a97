/* Langevin dynamics of copies of one UFF molecule (sim/uff_md.h) set up in
 * one call: standard masses per atom, the batch of `replicas` copies and
 * the first conformer's coordinates in every copy, velocities drawn at the
 * temperature (each replica its own stream). What `vkmd uff md` runs. */
#ifndef VKMD_SIM_UFF_MD_REPLICAS_H
#define VKMD_SIM_UFF_MD_REPLICAS_H

#include "sim/uff_md.h"
#include "vk/context.h"

/* Creates *out_md (vkmd_uff_md_destroy) for `replicas` copies of m with its
 * terms `terms` (both borrowed during the call) and `params` (NULL:
 * defaults), in the state above. Errors: those of vkmd_uff_masses,
 * vkmd_uff_batch_build, vkmd_uff_md_create and vkmd_uff_md_set_state,
 * VKMD_ERROR_OUT_OF_MEMORY; nothing is returned on failure. */
vkmd_result vkmd_uff_md_create_replicas(vkmd_vk_context *ctx, const vkmd_uff_molecule *m,
                                        const vkmd_uff_terms *terms, int32_t replicas,
                                        const vkmd_uff_md_params *params, vkmd_uff_md **out_md);

/* Asked before every chunk of vkmd_uff_md_run_chunks: `done` steps run so
 * far, `mean_temperature_k` the replicas' mean temperature over the last
 * chunk (-1 before the first). Sets *out_steps (the next chunk; clamped to
 * the steps left, <= 0 runs none and asks again) or *out_stop. */
typedef vkmd_result (*vkmd_uff_md_chunk_fn)(void *user, int32_t done, double mean_temperature_k,
                                            int32_t *out_steps, int *out_stop);

/* Runs up to `steps` steps of the `replicas` replicas of md in the chunks
 * `next` asks for (e.g. steps between a window's frames); next NULL: all in
 * one vkmd_uff_md_run. out_mean_temperature [replicas]: each replica's
 * temperature (K) averaged over the steps run, weighted by steps (0 when
 * none); *out_done: the steps run. Errors: next's, vkmd_uff_md_run's,
 * VKMD_ERROR_OUT_OF_MEMORY. */
vkmd_result vkmd_uff_md_run_chunks(vkmd_vk_context *ctx, vkmd_uff_md *md, int32_t replicas,
                                   int32_t steps, vkmd_uff_md_chunk_fn next, void *user,
                                   double *out_mean_temperature, int32_t *out_done);

#endif
