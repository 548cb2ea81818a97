/* PME reciprocal space against a direct Ewald k-space sum written here:
 *   E = k / (2 pi V) sum_{m != 0} exp(-pi^2 m^2 / alpha^2) / m^2 |S(m)|^2,
 *   S(m) = sum_j q_j exp(2 pi i m . r_j),
 *   F_j = (2 k q_j / V) sum_m exp(-pi^2 m^2/alpha^2)/m^2 m Im(conj(S) e^{2 pi i m . r_j}),
 * with m = (n_x/L_x, n_y/L_y, n_z/L_z), |n| <= 14 per axis (exp(-pi^2 m^2/alpha^2)
 * < 1e-20 beyond). The PME error must fall as the grid grows (order 5) and be
 * below 1e-6 in energy at a 48^3 grid (spacing 0.31 A). Also: odd, prime and
 * non-cubic grids, orders 4 and 6, and the net-force bound of PME. */
#include "ref_testsys.h"
#include "testlib.h"

#include <stdio.h>

static double ewald_direct(const vkmd_system *sys, double alpha, double k, double *f)
{
    const int nmax = 14;
    const double *len = sys->box.len;
    const double volume = len[0] * len[1] * len[2];
    const int32_t n = sys->atom_count;
    double *c = malloc(sizeof *c * (size_t)n), *s = malloc(sizeof *s * (size_t)n);
    double energy = 0;
    for (int nx = -nmax; nx <= nmax; ++nx)
        for (int ny = -nmax; ny <= nmax; ++ny)
            for (int nz = -nmax; nz <= nmax; ++nz) {
                if (nx == 0 && ny == 0 && nz == 0)
                    continue;
                double m[3] = {nx / len[0], ny / len[1], nz / len[2]};
                double m2 = m[0] * m[0] + m[1] * m[1] + m[2] * m[2];
                double g = exp(-M_PI * M_PI * m2 / (alpha * alpha)) / m2;
                if (g < 1e-30)
                    continue;
                double sr = 0, si = 0;
                for (int32_t j = 0; j < n; ++j) {
                    const double *x = &sys->positions[3 * j];
                    double th = 2 * M_PI * (m[0] * x[0] + m[1] * x[1] + m[2] * x[2]);
                    c[j] = cos(th);
                    s[j] = sin(th);
                    sr += sys->atoms[j].charge * c[j];
                    si += sys->atoms[j].charge * s[j];
                }
                energy += g * (sr * sr + si * si);
                if (f)
                    for (int32_t j = 0; j < n; ++j) {
                        double im = sr * s[j] - si * c[j];
                        double sc = 2 * k * sys->atoms[j].charge / volume * g * im;
                        for (int d = 0; d < 3; ++d)
                            f[3 * j + d] += sc * m[d];
                    }
            }
    free(c);
    free(s);
    return k / (2 * M_PI * volume) * energy;
}

int main(void)
{
    const double k = VKMD_COULOMB_K_OPENMM, alpha = 0.4;
    vkmd_system sys;
    testsys_random(&sys, 12, 15.0, 7.0);
    const int32_t n3 = 3 * sys.atom_count;
    double *fd = calloc((size_t)n3, sizeof *fd), *fp = calloc((size_t)n3, sizeof *fp);
    const double e_direct = ewald_direct(&sys, alpha, k, fd);
    printf("direct Ewald reciprocal: E = %.12f kcal/mol, RMS F = %.6f (48 atoms, 15 A box, "
           "alpha 0.4)\n",
           e_direct, rms(fd, n3));

    printf("order 5, grid growing: |E_pme - E_ewald| / |E_ewald| and force RMS rel error\n");
    const int grids[] = {8, 12, 16, 24, 32, 48};
    double prev = INFINITY, err_e[6], err_f[6];
    for (int g = 0; g < 6; ++g) {
        vkmd_ff_settings s = testsys_settings(7.0, alpha, grids[g], 5);
        double e;
        memset(fp, 0, sizeof *fp * (size_t)n3);
        CHECK_OK(ref_pme(&sys, &s, k, fp, &e));
        err_e[g] = fabs(e - e_direct) / fabs(e_direct);
        err_f[g] = rms_rel_error(fp, fd, n3);
        printf("  grid %2d^3: E %.12f  energy rel err %.3g  force RMS rel err %.3g\n", grids[g], e,
               err_e[g], err_f[g]);
        CHECK_MSG(err_f[g] < prev, "force error did not fall from grid %d to %d", grids[g - 1],
                  grids[g]);
        prev = err_f[g];
    }
    CHECK_MSG(err_e[5] < 1e-6, "48^3 energy error %.3g >= 1e-6", err_e[5]);
    CHECK_MSG(err_f[5] < 1e-5, "48^3 force error %.3g >= 1e-5", err_f[5]);
    CHECK_MSG(err_f[0] > 100 * err_f[5], "errors did not fall 100x from 8^3 to 48^3");

    printf("odd, prime and non-cubic grids and other orders (error vs the direct sum):\n");
    struct {
        int g[3], order;
        double limit;
    } cases[] = {
        {{17, 17, 17}, 5, 1e-3}, {{17, 19, 23}, 5, 1e-3}, {{15, 16, 17}, 4, 5e-3},
        {{20, 20, 20}, 6, 1e-4}, {{31, 31, 31}, 5, 5e-5}, {{18, 18, 18}, 3, 2e-2},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        vkmd_ff_settings s = testsys_settings(7.0, alpha, 0, cases[c].order);
        memcpy(s.pme_grid, cases[c].g, sizeof s.pme_grid);
        double e;
        memset(fp, 0, sizeof *fp * (size_t)n3);
        CHECK_OK(ref_pme(&sys, &s, k, fp, &e));
        double ee = fabs(e - e_direct) / fabs(e_direct), ef = rms_rel_error(fp, fd, n3);
        printf(
            "  grid %dx%dx%d order %d: energy rel err %.3g  force RMS rel err %.3g (limit %.0e)\n",
            cases[c].g[0], cases[c].g[1], cases[c].g[2], cases[c].order, ee, ef, cases[c].limit);
        CHECK(ee < cases[c].limit);
        CHECK(ef < cases[c].limit);
        double rel = testsys_fd(&sys, &s, term_pme, 1e-5, NULL, NULL);
        printf("    finite differences on this grid: rel RMS diff %.3g (limit 1e-6)\n", rel);
        CHECK(rel < 1e-6);
        double max_f;
        double sum = testsys_force_sum(&sys, &s, term_pme, &max_f);
        printf("    |sum F| = %.3g = %.3g x max |F| (bound 5e-2 x max |F| on these coarse grids)\n",
               sum, sum / max_f);
        CHECK(sum < 5e-2 * max_f);
    }

    printf("net force of PME shrinks with the grid: 48^3 |sum F| / max |F| < 1e-5\n");
    {
        vkmd_ff_settings s = testsys_settings(7.0, alpha, 48, 5);
        double max_f;
        double sum = testsys_force_sum(&sys, &s, term_pme, &max_f);
        printf("  |sum F| = %.3g, max |F| = %.4g, ratio %.3g\n", sum, max_f, sum / max_f);
        CHECK(sum < 1e-5 * max_f);
    }

    printf("error paths: non-periodic box and grid < order are refused\n");
    {
        vkmd_ff_settings s = testsys_settings(7.0, alpha, 4, 5);
        double e;
        CHECK(ref_pme(&sys, &s, k, NULL, &e) == VKMD_ERROR_INVALID_ARGUMENT);
        printf("  %s\n", vkmd_last_error());
        s = testsys_settings(7.0, alpha, 16, 5);
        sys.box.periodic = 0;
        CHECK(ref_pme(&sys, &s, k, NULL, &e) == VKMD_ERROR_INVALID_ARGUMENT);
        printf("  %s\n", vkmd_last_error());
        sys.box.periodic = 1;
    }
    free(fd);
    free(fp);
    vkmd_system_destroy(&sys);
    return test_finish("test_ref_pme");
}
