/* Host maths of Ewald sums and smooth PME shared by the device passes and
 * the CPU reference (see ewald.h). */
#include "maths/ewald.h"

#include <math.h>
#include <stdlib.h>

double vkmd_ewald_self_energy(const vkmd_system *sys, double alpha, double coulomb_k)
{
    double q2 = 0;
    for (int32_t a = 0; a < sys->atom_count; ++a)
        q2 += sys->atoms[a].charge * sys->atoms[a].charge;
    return -coulomb_k * alpha / sqrt(M_PI) * q2;
}

double vkmd_ewald_dispersion_energy(const vkmd_system *sys, double cutoff_a)
{
    if (!sys->box.periodic || sys->atom_count == 0)
        return 0;
    const int32_t nt = sys->lj_type_count;
    double *count = calloc((size_t)nt, sizeof *count);
    if (!count)
        return NAN; /* caught by vkmd_ref_compute's finiteness check */
    for (int32_t a = 0; a < sys->atom_count; ++a)
        count[sys->atoms[a].lj_type] += 1.0;
    /* A = 4 eps sigma^12 and B = 4 eps sigma^6, so OpenMM's eps sigma^12 sum
     * is sum A / 4 (and likewise for B). */
    double sum_a = 0, sum_b = 0;
    for (int32_t t = 0; t < nt; ++t)
        for (int32_t u = t; u < nt; ++u) {
            double pairs = t == u ? count[t] * (count[t] + 1.0) / 2.0 : count[t] * count[u];
            sum_a += pairs * 0.25 * sys->lj_a[t * nt + u];
            sum_b += pairs * 0.25 * sys->lj_b[t * nt + u];
        }
    free(count);
    const double n = sys->atom_count;
    const double interactions = n * (n + 1.0) / 2.0;
    sum_a /= interactions;
    sum_b /= interactions;
    const double volume = vkmd_box_volume_a3(&sys->box);
    return 8.0 * n * n * M_PI *
           (sum_a / (9.0 * pow(cutoff_a, 9)) - sum_b / (3.0 * pow(cutoff_a, 3))) / volume;
}

double vkmd_ewald_net_charge_energy(const vkmd_system *sys, double alpha, double coulomb_k)
{
    if (!sys->box.periodic)
        return 0;
    const double q = vkmd_system_net_charge(sys);
    const double volume = vkmd_box_volume_a3(&sys->box);
    return -coulomb_k * M_PI * q * q / (2.0 * volume * alpha * alpha);
}

/* B-spline weights w[j] = M_n(frac + n - 1 - j) and their derivatives with
 * respect to frac, j = 0 .. n-1 (Essmann's recursion). */
void vkmd_pme_bspline(double frac, int order, double *w, double *dw)
{
    w[0] = 1.0 - frac;
    w[1] = frac;
    for (int j = 2; j < order; ++j)
        w[j] = 0;
    for (int m = 3; m <= order; ++m) {
        if (m == order) /* derivative from order n-1: dM_n(x) = M_{n-1}(x) - M_{n-1}(x-1) */
            for (int j = 0; j < order; ++j)
                dw[j] = (j > 0 ? w[j - 1] : 0.0) - (j < order - 1 ? w[j] : 0.0);
        double div = 1.0 / (m - 1);
        for (int j = m - 1; j >= 0; --j) {
            double left = j > 0 ? w[j - 1] : 0.0;
            double right = j < m - 1 ? w[j] : 0.0;
            w[j] = div * ((frac + m - 1 - j) * left + (j + 1 - frac) * right);
        }
    }
    if (order == 2) {
        dw[0] = -1.0;
        dw[1] = 1.0;
    }
}

/* |b(m)|^2 for m = 0 .. k-1 with OpenMM's treatment of (near-)zero values
 * (the GPU pass uploads them; the reference uses them too). */
void vkmd_pme_moduli(int k, int order, double *out)
{
    double w[16], dw[16];
    vkmd_pme_bspline(0.0, order, w, dw); /* w[j] = M_n(n - 1 - j): M_n at the integers */
    for (int m = 0; m < k; ++m) {
        double sc = 0, ss = 0;
        for (int j = 1; j < order; ++j) {
            double v = w[order - 1 - j]; /* M_n(j) */
            double arg = 2.0 * M_PI * (double)m * (double)j / (double)k;
            sc += v * cos(arg);
            ss += v * sin(arg);
        }
        out[m] = sc * sc + ss * ss;
    }
    for (int m = 0; m < k; ++m)
        if (out[m] < 1e-7)
            out[m] = 0.5 * (out[(m - 1 + k) % k] + out[(m + 1) % k]);
}
