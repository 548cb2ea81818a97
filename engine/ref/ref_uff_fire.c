/* CPU double FIRE on one UFF molecule (see ref_uff_fire.h, sim/uff_fire.h;
 * FIRE's update itself is ref_fire.c, shared with the AMBER reference).
 * Sums run over atoms in index order, as the device's fixed-order
 * reductions do, though the two paths still part after some hundred steps
 * (float against double forces): tests compare minima, not paths. */
#include "ref/ref_uff_fire.h"
#include "ref/ref_fire.h"
#include "ref/ref_uff.h"
#include "system/uff_lbfgs_settings.h"

#include <math.h>
#include <stdlib.h>

vkmd_result vkmd_ref_uff_fire(const vkmd_uff_terms *t, const vkmd_uff_fire_params *params,
                              double *xyz, vkmd_uff_fire_result *out)
{
    vkmd_result res = VKMD_OK;
    const vkmd_uff_fire_params p = vkmd_uff_fire_params_resolve(params);
    const int32_t n = t->atom_count;
    *out = (vkmd_uff_fire_result){0};
    double *f = calloc(3 * (size_t)n, sizeof *f);
    double *v = calloc(3 * (size_t)n, sizeof *v);
    if (!f || !v) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "FIRE reference of %d atoms", n);
        goto cleanup;
    }
    ref_fire_state fire = ref_fire_start(&p.fire);
    for (int32_t step = 0;; ++step) {
        vkmd_uff_energy e;
        VKMD_TRY(vkmd_ref_uff_compute(t, xyz, &e, f));
        double fmax, frms, fnorm;
        fnorm = sqrt(vkmd_uff_force_norms(f, n, &fmax, &frms));
        if (step == 0)
            out->energy_initial = e.total;
        out->energy_final = e.total;
        out->fmax = fmax;
        out->frms = frms;
        out->steps = step;
        const double crit = p.criterion == VKMD_UFF_FIRE_RMS_FORCE ? frms : fmax;
        if (crit < p.ftol) {
            out->converged = 1;
            break;
        }
        if (step >= p.max_steps)
            break;
        double pw = 0, v2 = 0;
        for (int32_t i = 0; i < 3 * n; ++i) {
            pw += f[i] * v[i];
            v2 += v[i] * v[i];
        }
        const ref_fire_step move = ref_fire_update(&p.fire, pw, fnorm, sqrt(v2), step, &fire);
        for (int32_t a = 0; a < n; ++a) {
            double dx[3];
            /* unit masses: the acceleration is the force */
            ref_fire_move_atom(&p.fire, &move, f + 3 * a, f + 3 * a, v + 3 * a, dx);
            for (int c = 0; c < 3; ++c)
                xyz[3 * a + c] += dx[c];
        }
    }
cleanup:
    free(f);
    free(v);
    return res;
}
