/* FIRE relaxation of many replicas in one call (see uff_relax.h). */
#include "sim/uff_relax.h"

vkmd_result vkmd_uff_relax_replicas(vkmd_vk_context *ctx, const vkmd_uff_terms *terms,
                                    int32_t count, const vkmd_uff_fire_params *params,
                                    const double *start, double *out_xyz,
                                    vkmd_uff_fire_result *out_results, int32_t *out_submissions)
{
    vkmd_result res = VKMD_OK;
    vkmd_uff_batch batch = {0};
    vkmd_uff_fire *fire = NULL;
    const vkmd_uff_terms *mols[1] = {terms};
    VKMD_TRY(vkmd_uff_batch_build(mols, 1, NULL, count, &batch));
    VKMD_TRY(vkmd_uff_fire_create(ctx, &batch, params, &fire));
    VKMD_TRY(vkmd_uff_fire_run(ctx, fire, start, out_xyz, out_results));
    if (out_submissions)
        *out_submissions = vkmd_uff_fire_submissions(fire);
cleanup:
    vkmd_uff_fire_destroy(ctx, fire);
    vkmd_uff_batch_free(&batch);
    return res;
}
