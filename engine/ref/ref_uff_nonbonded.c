/* UFF van der Waals and optional Coulomb pairs, and the sum of every UFF
 * term, on the CPU in double precision (see ref_uff.h). The pair list is
 * the explicit O(N^2) list of uff_terms.h: molecules here are small. */
#include "ref/ref_uff.h"
#include "ref/ref_uff_forms.h"

#include <math.h>
#include <string.h>

double ref_uff_vdw(const vkmd_uff_terms *t, const double *pos, double *f)
{
    double e = 0.0;
    for (int32_t n = 0; n < t->pair_count; ++n) {
        const vkmd_uff_pair_term *p = &t->pairs[n];
        double d[3], r2 = 0.0;
        for (int k = 0; k < 3; ++k) {
            d[k] = pos[3 * p->i + k] - pos[3 * p->j + k];
            r2 += d[k] * d[k];
        }
        double cut = t->vdw_threshold * p->x_ij;
        if (!(r2 > 0.0) || r2 > cut * cut)
            continue; /* as RDKit: beyond the threshold, or coincident, nothing */
        double f_over_r;
        e += uff_form_vdw(1.0 / r2, p->x_ij, p->d_ij, &f_over_r);
        if (f)
            for (int k = 0; k < 3; ++k) {
                f[3 * p->i + k] += f_over_r * d[k];
                f[3 * p->j + k] -= f_over_r * d[k];
            }
    }
    return e;
}

double ref_uff_coulomb(const vkmd_uff_terms *t, const double *pos, double *f)
{
    if (!t->coulomb)
        return 0.0;
    double e = 0.0;
    for (int32_t n = 0; n < t->pair_count; ++n) {
        const vkmd_uff_pair_term *p = &t->pairs[n];
        double d[3], r2 = 0.0;
        for (int k = 0; k < 3; ++k) {
            d[k] = pos[3 * p->i + k] - pos[3 * p->j + k];
            r2 += d[k] * d[k];
        }
        double f_over_r;
        e += uff_form_coulomb(1.0 / sqrt(r2), p->qq, &f_over_r);
        if (f)
            for (int k = 0; k < 3; ++k) {
                f[3 * p->i + k] += f_over_r * d[k];
                f[3 * p->j + k] -= f_over_r * d[k];
            }
    }
    return e;
}

vkmd_result vkmd_ref_uff_compute(const vkmd_uff_terms *t, const double *pos,
                                 vkmd_uff_energy *out_energy, double *out_forces)
{
    vkmd_uff_energy e;
    memset(&e, 0, sizeof e);
    if (out_forces)
        memset(out_forces, 0, (size_t)t->atom_count * 3 * sizeof *out_forces);
    e.bond = ref_uff_bonds(t, pos, out_forces);
    e.angle = ref_uff_angles(t, pos, out_forces);
    e.torsion = ref_uff_torsions(t, pos, out_forces);
    e.inversion = ref_uff_inversions(t, pos, out_forces);
    e.vdw = ref_uff_vdw(t, pos, out_forces);
    e.coulomb = ref_uff_coulomb(t, pos, out_forces);
    e.total = e.bond + e.angle + e.torsion + e.inversion + e.vdw + e.coulomb;
    *out_energy = e;
    if (!isfinite(e.total))
        return vkmd_fail(VKMD_ERROR_NUMERIC,
                         "UFF energy is not finite (bond %g angle %g torsion %g inversion %g vdW "
                         "%g Coulomb %g): coincident atoms?",
                         e.bond, e.angle, e.torsion, e.inversion, e.vdw, e.coulomb);
    return VKMD_OK;
}
