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

#endif
