/* Copies of one molecule set up for Langevin dynamics (see
 * uff_md_replicas.h). */
#include "sim/uff_md_replicas.h"

#include <stdlib.h>
#include <string.h>

vkmd_result vkmd_uff_md_create_replicas(vkmd_vk_context *ctx, const vkmd_uff_molecule *m,
                                        const vkmd_uff_terms *terms, int32_t replicas,
                                        const vkmd_uff_md_params *params, vkmd_uff_md **out_md)
{
    vkmd_result res = VKMD_OK;
    vkmd_uff_batch batch = {0};
    vkmd_uff_md *md = NULL;
    const size_t na = (size_t)m->atom_count;
    double *mass = malloc(sizeof *mass * na * (size_t)replicas);
    double *xyz = malloc(3 * sizeof *xyz * na * (size_t)replicas);
    *out_md = NULL;
    if (!mass || !xyz)
        VKMD_TRY(vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%d replicas", replicas));
    VKMD_TRY(vkmd_uff_masses(m, mass));
    for (int32_t r = 0; r < replicas; ++r) {
        memcpy(mass + (size_t)r * na, mass, sizeof *mass * na);
        memcpy(xyz + 3 * (size_t)r * na, m->positions, 3 * sizeof *xyz * na);
    }
    const vkmd_uff_terms *mols[1] = {terms};
    VKMD_TRY(vkmd_uff_batch_build(mols, 1, NULL, replicas, &batch));
    VKMD_TRY(vkmd_uff_md_create(ctx, &batch, mass, params, &md));
    VKMD_TRY(vkmd_uff_md_set_state(ctx, md, xyz, NULL));
    *out_md = md;
    md = NULL;
cleanup:
    vkmd_uff_md_destroy(ctx, md);
    vkmd_uff_batch_free(&batch);
    free(mass);
    free(xyz);
    return res;
}
