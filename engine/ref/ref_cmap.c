/* Reference CMAP terms: each map's bicubic patches (maths/cmap_spline.h,
 * OpenMM's CMAPTorsionForce construction) evaluated at the term's (phi, psi)
 * in double, the force applied to both dihedrals with the split the other
 * dihedral terms use.
 *
 * Surprise: the patches are rebuilt on every call (a 24 x 24 map costs
 * microseconds); the reference favours one obvious path over caching. */
#include "maths/cmap_spline.h"
#include "ref/ref.h"
#include "ref/ref_forms.h"

#include <stdlib.h>

#define TWO_PI 6.28318530717958647692

vkmd_result ref_cmap(const vkmd_system *sys, double *f, double *out_energy)
{
    *out_energy = 0;
    if (sys->cmap_count == 0)
        return VKMD_OK;
    vkmd_result res = VKMD_OK;
    double **coef = calloc((size_t)sys->cmap_map_count, sizeof *coef);
    if (!coef)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "reference CMAP: %d maps", sys->cmap_map_count);
    for (int32_t m = 0; m < sys->cmap_map_count; ++m) {
        const int32_t n = sys->cmap_maps[m].resolution;
        coef[m] = malloc(sizeof **coef * 16 * (size_t)n * (size_t)n);
        if (!coef[m]) {
            res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "reference CMAP: map %d", m + 1);
            goto cleanup;
        }
        res = vkmd_cmap_spline_coefficients(&sys->cmap_maps[m], coef[m]);
        if (res != VKMD_OK)
            goto cleanup;
    }
    const double *x = sys->positions;
    double energy = 0;
    for (int32_t t = 0; t < sys->cmap_count; ++t) {
        const vkmd_cmap *c = &sys->cmaps[t];
        const int32_t n = sys->cmap_maps[c->map].resolution;
        double phi =
            ref_dihedral_angle(&sys->box, &x[3 * c->i], &x[3 * c->j], &x[3 * c->k], &x[3 * c->l]);
        double psi =
            ref_dihedral_angle(&sys->box, &x[3 * c->j], &x[3 * c->k], &x[3 * c->l], &x[3 * c->m]);
        int32_t s, u;
        double a, b, de_da, de_db;
        vkmd_cmap_spline_cell(phi, n, &s, &a);
        vkmd_cmap_spline_cell(psi, n, &u, &b);
        energy += form_cmap(&coef[c->map][(size_t)(s + n * u) * 16], a, b, &de_da, &de_db);
        if (f) {
            const double inv_delta = n / TWO_PI;
            ref_dihedral_apply(&sys->box, x, c->i, c->j, c->k, c->l, de_da * inv_delta, f);
            ref_dihedral_apply(&sys->box, x, c->j, c->k, c->l, c->m, de_db * inv_delta, f);
        }
    }
    *out_energy = energy;
cleanup:
    for (int32_t m = 0; m < sys->cmap_map_count; ++m)
        free(coef[m]);
    free(coef);
    return res;
}
