/* L-BFGS settings (see uff_lbfgs_settings.h). */
#include "system/uff_lbfgs_settings.h"

#include <math.h>
#include <stddef.h>

vkmd_uff_lbfgs_params vkmd_uff_lbfgs_params_resolve(const vkmd_uff_lbfgs_params *p)
{
    vkmd_uff_lbfgs_params r = p ? *p : (vkmd_uff_lbfgs_params){0};
    if (r.force_tol == 0)
        r.force_tol = 1e-4;
    if (r.max_iterations == 0)
        r.max_iterations = 1000;
    if (r.max_step_a == 0)
        r.max_step_a = 0.3;
    if (r.check_interval == 0)
        r.check_interval = 64;
    return r;
}

vkmd_result vkmd_uff_lbfgs_params_check(const vkmd_uff_lbfgs_params *p)
{
    if (!(p->force_tol > 0))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "L-BFGS: force_tol %g must be > 0",
                         p->force_tol);
    if (!(p->energy_tol >= 0))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "L-BFGS: energy_tol %g must be >= 0",
                         p->energy_tol);
    if (p->max_iterations < 1)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "L-BFGS: max_iterations %d must be >= 1",
                         p->max_iterations);
    if (p->memory < 0 || p->memory > VKMD_UFF_LBFGS_MAX_MEMORY)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "L-BFGS: memory %d must be 0 (dense BFGS) or in 1..%d", p->memory,
                         VKMD_UFF_LBFGS_MAX_MEMORY);
    if (!(p->max_step_a > 0))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "L-BFGS: max_step_a %g must be > 0",
                         p->max_step_a);
    if (p->check_interval < 1)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "L-BFGS: check_interval %d must be >= 1",
                         p->check_interval);
    return VKMD_OK;
}

double vkmd_uff_rdkit_grad_scale(const double *g, int32_t n, double *out_total)
{
    double s = 0.1, gmax = -1e8;
    for (int32_t i = 0; i < n; ++i)
        gmax = 0.1 * g[i] > gmax ? 0.1 * g[i] : gmax;
    if (gmax > 10.0) {
        while (gmax * s > 10.0)
            s *= 0.5;
        *out_total = 0.1 * s;
    } else {
        *out_total = 0.1;
    }
    return s;
}

vkmd_uff_relax_result vkmd_uff_relax_result_of_fire(const vkmd_uff_fire_result *f)
{
    return (vkmd_uff_relax_result){.energy_initial = f->energy_initial,
                                   .energy_final = f->energy_final,
                                   .fmax = f->fmax,
                                   .frms = f->frms,
                                   .iterations = f->steps,
                                   .evaluations = f->steps + 1,
                                   .status = f->converged ? VKMD_UFF_RELAX_GRADIENT
                                                          : VKMD_UFF_RELAX_RUNNING,
                                   .converged = f->converged};
}

double vkmd_uff_force_norms(const double *f, int32_t atoms, double *out_fmax, double *out_frms)
{
    double m2 = 0, s2 = 0;
    for (int32_t a = 0; a < atoms; ++a) {
        const double *fa = f + 3 * (size_t)a;
        const double f2 = fa[0] * fa[0] + fa[1] * fa[1] + fa[2] * fa[2];
        m2 = f2 > m2 ? f2 : m2;
        s2 += f2;
    }
    *out_fmax = sqrt(m2);
    *out_frms = sqrt(s2 / atoms);
    return s2;
}
