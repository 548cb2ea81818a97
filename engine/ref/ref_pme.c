/* Reference smooth PME reciprocal space (Essmann et al., J. Chem. Phys. 103,
 * 8577 (1995)) in double precision with FFTW3, written to reproduce OpenMM's
 * Reference platform to rounding.
 *
 * Conventions that matter for bit-level agreement with OpenMM:
 * - Grid index and fraction: t = frac(x / L) * K, i0 = (int)t, w = t - i0;
 *   charges spread FORWARD onto i0 .. i0 + order - 1 (mod K) with weights
 *   M_n(w + n - 1 - j). That is Essmann's grid translated by n - 1 points, which
 *   changes neither energy nor forces.
 * - B-spline moduli |b(m)|^2 are the squared DFT of M_n(1 .. n-1). For odd
 *   orders (the default 5) and even K the modulus at m = K/2 is exactly zero;
 *   OpenMM replaces every modulus below 1e-7 by the mean of its two neighbours,
 *   in index order (a replaced value feeds the next one), and so do we.
 * - The m = 0 term is left out (no neutralising background here; see
 *   vkmd_ewald_net_charge_energy for the plasma term).
 * - FFTW's r2c keeps kz = 0 .. K2/2 only; every other kz stands for itself and
 *   its conjugate, so its energy counts twice. The backward c2r is unnormalised
 *   like OpenMM's backward FFT, which the force formula expects.
 * - A triclinic box (reduced, lower-triangular vectors) goes through its
 *   reciprocal vectors as OpenMM's Reference PME does: fractions
 *   t_d = r_d* . x, wave vectors m = sum_d m_d r_d*, forces
 *   F = -q sum_d (dE/dt_d) K_d r_d*. Rectangular boxes keep the divisions by
 *   the edges (the same bits as before triclinic boxes existed).
 * - Triclinic boxes and even grids: the Nyquist index K/2 stands for the
 *   wave number -K/2 (OpenMM's rule), so the entry of index (K/2, y, z) and
 *   its mirror (K/2, K - y, K - z) have kernels at m = (-K/2) a* + ... and
 *   (-K/2) a* - ..., which differ when the box is not rectangular. OpenMM's
 *   Reference PME, a full complex FFT, applies each and keeps the real part
 *   of the inverse transform; with FFTW's half-complex transforms the same
 *   result comes from the kernel averaged with its mirror's (the real part
 *   of the inverse is the transform with the symmetrised kernel, and the
 *   energy sum is unchanged because |S|^2 is symmetric). Elsewhere the two
 *   kernels are equal bit for bit. Without this the reciprocal energy of a
 *   truncated octahedron on a 36x34x30 grid was 3e-8 relative off OpenMM's.
 * - Any grid size works (FFTW handles primes such as 17, slowly). The plan is
 *   made with FFTW_ESTIMATE on every call: the reference favours simplicity. */
#include "ref/ref.h"

#include <fftw3.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The wave number of grid index i on a grid of k points (OpenMM's rule: the
 * upper half, and the Nyquist index of an even grid, are negative). */
static int freq_of(int i, int k)
{
    return i < (k + 1) / 2 ? i : i - k;
}

/* The Ewald kernel at m = ix a* + iy b* + iz c* (a triclinic box's
 * reciprocal rows `recip`), with the B-spline moduli product `den`. */
static double tri_eterm(const double recip[3][3], int ix, int iy, int iz, double pre, double kfac,
                        double den)
{
    const double mx = ix * recip[0][0];
    const double my = ix * recip[0][1] + iy * recip[1][1];
    const double mz = ix * recip[0][2] + iy * recip[1][2] + iz * recip[2][2];
    const double m2 = mx * mx + my * my + mz * mz;
    return pre * exp(-kfac * m2) / (m2 * den);
}

vkmd_result ref_pme(const vkmd_system *sys, const vkmd_ff_settings *s, double coulomb_k, double *f,
                    double *out_energy)
{
    *out_energy = 0;
    if (!sys->box.periodic)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "PME needs a periodic box");
    const int order = s->pme_order;
    const int k0 = s->pme_grid[0], k1 = s->pme_grid[1], k2 = s->pme_grid[2];
    if (order < 2 || order > 16 || k0 < order || k1 < order || k2 < order)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "PME grid %dx%dx%d with order %d: need 2 <= order <= 16 and every grid "
                         "dimension >= order",
                         k0, k1, k2, order);
    if (!(s->ewald_alpha > 0))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "PME needs alpha > 0 (got %g)",
                         s->ewald_alpha);
    const int32_t n = sys->atom_count;
    const int k2c = k2 / 2 + 1;
    const size_t real_size = (size_t)k0 * k1 * k2, cplx_size = (size_t)k0 * k1 * k2c;
    const int kdim[3] = {k0, k1, k2};
    const double *len = sys->box.len;
    const int tri = sys->box.triclinic;
    double recip[3][3]; /* rows a*, b*, c* (1/A); used when tri */
    vkmd_box_reciprocal(&sys->box, recip);

    vkmd_result res = VKMD_OK;
    double *grid = fftw_malloc(sizeof(double) * real_size);
    fftw_complex *kgrid = fftw_malloc(sizeof(fftw_complex) * cplx_size);
    double *moduli = malloc(sizeof(double) * (size_t)(k0 + k1 + k2));
    double *theta = malloc(sizeof(double) * 3 * (size_t)order * (size_t)n);
    double *dtheta = malloc(sizeof(double) * 3 * (size_t)order * (size_t)n);
    int *index0 = malloc(sizeof(int) * 3 * (size_t)n);
    fftw_plan fwd = NULL, bwd = NULL;
    if (!grid || !kgrid || !moduli || !theta || !dtheta || !index0) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "PME grid %dx%dx%d for %d atoms", k0, k1, k2, n);
        goto cleanup;
    }
    fwd = fftw_plan_dft_r2c_3d(k0, k1, k2, grid, kgrid, FFTW_ESTIMATE);
    bwd = fftw_plan_dft_c2r_3d(k0, k1, k2, kgrid, grid, FFTW_ESTIMATE);
    if (!fwd || !bwd) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "FFTW plan for PME grid %dx%dx%d", k0, k1, k2);
        goto cleanup;
    }
    double *mod[3] = {moduli, moduli + k0, moduli + k0 + k1};
    for (int d = 0; d < 3; ++d)
        vkmd_pme_moduli(kdim[d], order, mod[d]);

    /* Spread charges. */
    memset(grid, 0, sizeof(double) * real_size);
    for (int32_t a = 0; a < n; ++a) {
        for (int d = 0; d < 3; ++d) {
            const double *x = &sys->positions[3 * a];
            double t =
                tri ? recip[d][0] * x[0] + recip[d][1] * x[1] + recip[d][2] * x[2] : x[d] / len[d];
            t = (t - floor(t)) * kdim[d];
            int ti = (int)t;
            double *th = &theta[((size_t)a * 3 + d) * order];
            double *dth = &dtheta[((size_t)a * 3 + d) * order];
            vkmd_pme_bspline(t - ti, order, th, dth);
            index0[3 * a + d] = ti % kdim[d];
        }
        const double q = sys->atoms[a].charge;
        const double *tx = &theta[((size_t)a * 3 + 0) * order];
        const double *ty = &theta[((size_t)a * 3 + 1) * order];
        const double *tz = &theta[((size_t)a * 3 + 2) * order];
        for (int ix = 0; ix < order; ++ix) {
            int gx = (index0[3 * a] + ix) % k0;
            for (int iy = 0; iy < order; ++iy) {
                int gy = (index0[3 * a + 1] + iy) % k1;
                double qxy = q * tx[ix] * ty[iy];
                double *row = &grid[((size_t)gx * k1 + gy) * k2];
                for (int iz = 0; iz < order; ++iz)
                    row[(index0[3 * a + 2] + iz) % k2] += qxy * tz[iz];
            }
        }
    }

    fftw_execute(fwd);

    /* Convolution with the Ewald kernel: E = 1/2 sum_m eterm(m) |S(m)|^2,
     * eterm = k exp(-pi^2 m^2 / alpha^2) / (pi V m^2 B(m)). */
    const double volume = vkmd_box_volume_a3(&sys->box);
    const double kfac = M_PI * M_PI / (s->ewald_alpha * s->ewald_alpha);
    const double pre = coulomb_k / (M_PI * volume);
    double esum = 0;
    for (int x = 0; x < k0; ++x) {
        const int ix = x < (k0 + 1) / 2 ? x : x - k0;
        double mx = ix / len[0];
        for (int y = 0; y < k1; ++y) {
            const int iy = y < (k1 + 1) / 2 ? y : y - k1;
            double my = iy / len[1];
            for (int z = 0; z < k2c; ++z) {
                fftw_complex *c = &kgrid[((size_t)x * k1 + y) * k2c + z];
                if (x == 0 && y == 0 && z == 0) {
                    (*c)[0] = (*c)[1] = 0;
                    continue;
                }
                const int iz = z < (k2 + 1) / 2 ? z : z - k2;
                double mz = iz / len[2];
                double eterm;
                if (tri) {
                    /* The kernel and the one of the mirrored index (K - x,
                     * K - y, K - z), averaged: equal except on a Nyquist plane
                     * of an even grid, whose index stands for -K/2 in both
                     * entries (see the file comment). */
                    const double den = mod[0][x] * mod[1][y] * mod[2][z];
                    const int jx = freq_of((k0 - x) % k0, k0), jy = freq_of((k1 - y) % k1, k1);
                    const int jz = freq_of((k2 - z) % k2, k2);
                    eterm = 0.5 * (tri_eterm(recip, ix, iy, iz, pre, kfac, den) +
                                   tri_eterm(recip, jx, jy, jz, pre, kfac, den));
                } else {
                    double m2 = mx * mx + my * my + mz * mz;
                    eterm = pre * exp(-kfac * m2) / (m2 * mod[0][x] * mod[1][y] * mod[2][z]);
                }
                double s2 = (*c)[0] * (*c)[0] + (*c)[1] * (*c)[1];
                int twice = z != 0 && !(k2 % 2 == 0 && z == k2 / 2);
                esum += (twice ? 2.0 : 1.0) * eterm * s2;
                (*c)[0] *= eterm;
                (*c)[1] *= eterm;
            }
        }
    }
    *out_energy = 0.5 * esum;
    if (!f)
        goto cleanup;

    fftw_execute(bwd); /* grid now holds the potential convolved with the charges */

    for (int32_t a = 0; a < n; ++a) {
        const double *tx = &theta[((size_t)a * 3 + 0) * order];
        const double *ty = &theta[((size_t)a * 3 + 1) * order];
        const double *tz = &theta[((size_t)a * 3 + 2) * order];
        const double *dx = &dtheta[((size_t)a * 3 + 0) * order];
        const double *dy = &dtheta[((size_t)a * 3 + 1) * order];
        const double *dz = &dtheta[((size_t)a * 3 + 2) * order];
        double fx = 0, fy = 0, fz = 0;
        for (int ix = 0; ix < order; ++ix) {
            int gx = (index0[3 * a] + ix) % k0;
            for (int iy = 0; iy < order; ++iy) {
                int gy = (index0[3 * a + 1] + iy) % k1;
                const double *row = &grid[((size_t)gx * k1 + gy) * k2];
                for (int iz = 0; iz < order; ++iz) {
                    double g = row[(index0[3 * a + 2] + iz) % k2];
                    fx += dx[ix] * ty[iy] * tz[iz] * g;
                    fy += tx[ix] * dy[iy] * tz[iz] * g;
                    fz += tx[ix] * ty[iy] * dz[iz] * g;
                }
            }
        }
        const double q = sys->atoms[a].charge;
        if (tri) {
            const double g[3] = {fx * k0, fy * k1, fz * k2};
            for (int c = 0; c < 3; ++c)
                f[3 * a + c] -= q * (g[0] * recip[0][c] + g[1] * recip[1][c] + g[2] * recip[2][c]);
            continue;
        }
        f[3 * a + 0] -= q * fx * k0 / len[0];
        f[3 * a + 1] -= q * fy * k1 / len[1];
        f[3 * a + 2] -= q * fz * k2 / len[2];
    }

cleanup:
    if (fwd)
        fftw_destroy_plan(fwd);
    if (bwd)
        fftw_destroy_plan(bwd);
    fftw_free(grid);
    fftw_free(kgrid);
    free(moduli);
    free(theta);
    free(dtheta);
    free(index0);
    return res;
}
