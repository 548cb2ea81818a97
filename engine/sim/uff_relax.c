/* Relaxation of many replicas in one call (see uff_relax.h). */
#include "sim/uff_relax.h"
#include "sim/uff_lbfgs.h"

#include <stdlib.h>

vkmd_uff_fire_params vkmd_uff_relax_fire_params(const vkmd_uff_relax_params *p)
{
    return (vkmd_uff_fire_params){.ftol = p->force_tol,
                                  .max_steps = p->max_iterations,
                                  .check_interval = p->check_interval,
                                  .criterion = p->fire_rms ? VKMD_UFF_FIRE_RMS_FORCE
                                                           : VKMD_UFF_FIRE_MAX_FORCE};
}

vkmd_uff_lbfgs_params vkmd_uff_relax_lbfgs_params(const vkmd_uff_relax_params *p)
{
    return (vkmd_uff_lbfgs_params){.force_tol = p->force_tol,
                                   .energy_tol = p->energy_tol,
                                   .max_iterations = p->max_iterations,
                                   .memory = p->memory,
                                   .check_interval = p->check_interval};
}

static vkmd_result relax_fire(vkmd_vk_context *ctx, const vkmd_uff_batch *batch,
                              const vkmd_uff_relax_params *p, const double *start, double *out_xyz,
                              vkmd_uff_relax_result *out_results, int32_t *out_submissions)
{
    vkmd_result res = VKMD_OK;
    vkmd_uff_fire *fire = NULL;
    vkmd_uff_fire_result *fr = NULL;
    const vkmd_uff_fire_params fp = vkmd_uff_relax_fire_params(p);
    if (out_results && !(fr = calloc((size_t)batch->replica_count, sizeof *fr)))
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "FIRE results");
    VKMD_TRY(vkmd_uff_fire_create(ctx, batch, &fp, &fire));
    VKMD_TRY(vkmd_uff_fire_run(ctx, fire, start, out_xyz, fr));
    if (out_submissions)
        *out_submissions = vkmd_uff_fire_submissions(fire);
    if (out_results)
        for (int32_t r = 0; r < batch->replica_count; ++r)
            out_results[r] = vkmd_uff_relax_result_of_fire(&fr[r]);
cleanup:
    vkmd_uff_fire_destroy(ctx, fire);
    free(fr);
    return res;
}

vkmd_result vkmd_uff_relax_batch(vkmd_vk_context *ctx, const vkmd_uff_batch *batch,
                                 const vkmd_uff_relax_params *params, const double *start,
                                 double *out_xyz, vkmd_uff_relax_result *out_results,
                                 int32_t *out_submissions)
{
    const vkmd_uff_relax_params p = params ? *params : (vkmd_uff_relax_params){0};
    if (p.minimizer == VKMD_UFF_MIN_FIRE)
        return relax_fire(ctx, batch, &p, start, out_xyz, out_results, out_submissions);
    if (p.minimizer != VKMD_UFF_MIN_LBFGS)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "relax: unknown minimizer %d",
                         (int)p.minimizer);
    vkmd_result res = VKMD_OK;
    vkmd_uff_lbfgs *lb = NULL;
    const vkmd_uff_lbfgs_params lp = vkmd_uff_relax_lbfgs_params(&p);
    VKMD_TRY(vkmd_uff_lbfgs_create(ctx, batch, &lp, &lb));
    VKMD_TRY(vkmd_uff_lbfgs_run(ctx, lb, start, out_xyz, out_results));
    if (out_submissions)
        *out_submissions = vkmd_uff_lbfgs_submissions(lb);
cleanup:
    vkmd_uff_lbfgs_destroy(ctx, lb);
    return res;
}
