/* Generalized Born reference (see ref_gb.h). Three passes over all pairs:
 * the descreening sums I_i (ordered pairs: I_i sees j's scaled radius),
 * the energy with dE/dB_i, then the forces of the Born radii,
 * dE/dB_i dB_i/dI_i dI_i/dr_ij along each ordered pair. */
#include "ref/ref_gb.h"

#include "ref/ref_forms.h"

#include <math.h>
#include <stdlib.h>

/* dI_i/dr of the pair (i, j) at distance r and its value; 0 beyond the
 * cutoff (cut2 > 0) is the caller's. */
static double descreen(const vkmd_gb_params *p, int32_t i, int32_t j, double r, double *out_di_dr)
{
    double di;
    double sum = form_gb_hct_integral(r, p->offset_radius[i], p->scaled_radius[j], &di);
    if (p->neck_scale > 0 && r <= p->radius[i] + p->radius[j] + p->neck_cut_a) {
        double d0, m0, dn;
        vkmd_gb_neck_lookup(p->radius[i], p->radius[j], &d0, &m0);
        sum += p->neck_scale * form_gb_neck(r, d0, m0, &dn);
        di += p->neck_scale * dn;
    }
    *out_di_dr = di;
    return sum;
}

/* r_ij and (x_j - x_i) of a pair; 0 when beyond the cutoff. */
static int pair_in_range(const double *xyz, int32_t i, int32_t j, double cut2, double d[3],
                         double *out_r2)
{
    for (int k = 0; k < 3; ++k)
        d[k] = xyz[3 * j + k] - xyz[3 * i + k];
    *out_r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    return cut2 <= 0 || *out_r2 < cut2;
}

vkmd_result ref_gb_compute(const vkmd_gb_params *p, const double *xyz, double *out_gb_energy,
                           double *out_nonpolar_energy, double *forces, double *out_born_radii)
{
    if (!xyz)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "generalized Born: no positions");
    const int32_t n = p->atom_count;
    const vkmd_gb_settings *s = &p->settings;
    const double cut2 = s->cutoff_a > 0 ? s->cutoff_a * s->cutoff_a : 0;
    const double inv_cut = s->cutoff_a > 0 ? 1.0 / s->cutoff_a : 0;
    const double inv_in = 1.0 / s->solute_dielectric, inv_out = 1.0 / s->solvent_dielectric;
    const int rescale = s->model != VKMD_GB_HCT;
    double *sum = calloc((size_t)n, sizeof *sum);
    double *born = calloc((size_t)n, sizeof *born);
    double *db_di = calloc((size_t)n, sizeof *db_di);
    double *de_db = calloc((size_t)n, sizeof *de_db);
    if (!sum || !born || !db_di || !de_db) {
        free(sum), free(born), free(db_di), free(de_db);
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "generalized Born: out of memory for %d atoms",
                         n);
    }

    /* Born radii. */
    for (int32_t i = 0; i < n; ++i)
        for (int32_t j = 0; j < n; ++j) {
            double d[3], r2, di;
            if (j != i && pair_in_range(xyz, i, j, cut2, d, &r2))
                sum[i] += descreen(p, i, j, sqrt(r2), &di);
        }
    for (int32_t i = 0; i < n; ++i)
        born[i] = form_gb_born_radius(sum[i], p->offset_radius[i], p->radius[i], rescale,
                                      p->alpha[i], p->beta[i], p->gamma[i], &db_di[i]);

    /* Energy: self, ACE, pairs. */
    double e_pol = 0, e_np = 0;
    for (int32_t i = 0; i < n; ++i) {
        double g;
        const double kqq = p->coulomb_k * p->charge[i] * p->charge[i];
        e_pol += form_gb_self(born[i], kqq, p->kappa_per_a, inv_in, inv_out, &g);
        de_db[i] += g;
        if (s->nonpolar) {
            e_np += form_gb_ace(born[i], p->radius[i], s->probe_radius_a, p->ace_factor, &g);
            de_db[i] += g;
        }
    }
    for (int32_t i = 0; i < n; ++i)
        for (int32_t j = i + 1; j < n; ++j) {
            double d[3], r2, f_over_r, gi, gj;
            if (!pair_in_range(xyz, i, j, cut2, d, &r2))
                continue;
            const double kqq = p->coulomb_k * p->charge[i] * p->charge[j];
            e_pol += form_gb_pair(r2, born[i], born[j], kqq, p->kappa_per_a, inv_in, inv_out,
                                  inv_cut, &f_over_r, &gi, &gj);
            de_db[i] += gi;
            de_db[j] += gj;
            for (int k = 0; forces && k < 3; ++k) {
                forces[3 * i + k] -= f_over_r * d[k];
                forces[3 * j + k] += f_over_r * d[k];
            }
        }

    /* Forces through the Born radii: I_i depends on r_ij. */
    for (int32_t i = 0; forces && i < n; ++i) {
        const double c = de_db[i] * db_di[i];
        if (c == 0)
            continue;
        for (int32_t j = 0; j < n; ++j) {
            double d[3], r2, di;
            if (j == i || !pair_in_range(xyz, i, j, cut2, d, &r2))
                continue;
            const double r = sqrt(r2);
            descreen(p, i, j, r, &di);
            const double g = c * di / r; /* dE/dr_ij / r */
            for (int k = 0; k < 3; ++k) {
                forces[3 * i + k] += g * d[k];
                forces[3 * j + k] -= g * d[k];
            }
        }
    }
    for (int32_t i = 0; out_born_radii && i < n; ++i)
        out_born_radii[i] = born[i];
    *out_gb_energy = e_pol;
    *out_nonpolar_energy = e_np;
    free(sum), free(born), free(db_di), free(de_db);
    return VKMD_OK;
}

vkmd_result ref_gb_energy_forces(const vkmd_system *sys, const vkmd_gb_settings *settings,
                                 const double *xyz, double *out_gb_energy,
                                 double *out_nonpolar_energy, double *forces,
                                 double *out_born_radii)
{
    vkmd_gb_params p;
    VKMD_TRY_RETURN(vkmd_gb_params_build(sys, settings, &p));
    vkmd_result res =
        ref_gb_compute(&p, xyz, out_gb_energy, out_nonpolar_energy, forces, out_born_radii);
    vkmd_gb_params_destroy(&p);
    return res;
}
