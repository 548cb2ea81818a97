/* Reference scaled 1-4 interactions: LJ / scnb + coulomb_k q_i q_j / (scee r).
 * CHARMM (chamber) systems take the LJ from their own 1-4 tables (lj14_a,
 * lj14_b), with scnb = scee = 1.
 *
 * Surprises: 1-4 pairs are also in the exclusion list, so the non-bonded pass
 * skips them and the Ewald excluded-pair correction removes their reciprocal
 * part; here they get plain 1/r Coulomb at any distance (no cutoff, no erfc),
 * exactly like OpenMM's NonbondedForce exceptions. The distance is the minimum
 * image when periodic (OpenMM 7.7 exceptions default to plain differences; the
 * two agree for whole molecules). */
#include "ref/ref.h"
#include "ref/ref_forms.h"

#include <math.h>

void ref_pairs14(const vkmd_system *sys, double coulomb_k, double *f, double *out_lj14,
                 double *out_coulomb14)
{
    const double *x = sys->positions;
    const int32_t nt = sys->lj_type_count;
    double e_lj = 0, e_coul = 0;
    for (int32_t n = 0; n < sys->pair14_count; ++n) {
        const vkmd_pair14 *p = &sys->pairs14[n];
        const vkmd_atom *ai = &sys->atoms[p->i], *aj = &sys->atoms[p->j];
        double d[3];
        ref_delta(&sys->box, &x[3 * p->i], &x[3 * p->j], d); /* r_j - r_i */
        double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        double inv_r = 1.0 / sqrt(r2);
        int32_t t = ai->lj_type * nt + aj->lj_type;
        /* scee/scnb of 0 mean "no such term" in some prmtops; treat as off. */
        double lj_scale = p->scnb != 0 ? 1.0 / p->scnb : 0.0;
        double q_scale = p->scee != 0 ? 1.0 / p->scee : 0.0;
        double f_lj, f_coul;
        const double *lj_a = sys->lj14_a ? sys->lj14_a : sys->lj_a;
        const double *lj_b = sys->lj14_b ? sys->lj14_b : sys->lj_b;
        e_lj += form_lj(inv_r * inv_r, lj_a[t] * lj_scale, lj_b[t] * lj_scale, &f_lj);
        e_coul += form_coulomb(inv_r, coulomb_k * ai->charge * aj->charge * q_scale, &f_coul);
        if (f) {
            double s = f_lj + f_coul; /* force on i is s (r_i - r_j) = -s d */
            for (int c = 0; c < 3; ++c) {
                f[3 * p->i + c] -= s * d[c];
                f[3 * p->j + c] += s * d[c];
            }
        }
    }
    *out_lj14 = e_lj;
    *out_coulomb14 = e_coul;
}
