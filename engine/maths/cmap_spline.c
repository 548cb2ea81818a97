/* CMAP bicubic patches (see cmap_spline.h).
 *
 * The periodic spline on a uniform grid: the second derivatives M solve the
 * cyclic system M[i-1] + 4 M[i] + M[i+1] = 6 (y[i+1] - 2 y[i] + y[i-1]) / h^2,
 * solved here by Sherman-Morrison on the tridiagonal part (two Thomas
 * sweeps), the way OpenMM's SplineFitter does; the derivative at knot i is
 * then (y[i+1] - y[i]) / h - h (2 M[i] + M[i+1]) / 6. */
#include "maths/cmap_spline.h"

#include <math.h>
#include <stdlib.h>

#define TWO_PI 6.28318530717958647692

/* Solves the tridiagonal system (sub a, diagonal b, super c) for `rhs` into
 * out (n >= 2); `work` holds n doubles. */
static void thomas(int n, const double *a, const double *b, const double *c, const double *rhs,
                   double *out, double *work)
{
    double beta = b[0];
    out[0] = rhs[0] / beta;
    for (int i = 1; i < n; ++i) {
        work[i] = c[i - 1] / beta;
        beta = b[i] - a[i] * work[i];
        out[i] = (rhs[i] - a[i] * out[i - 1]) / beta;
    }
    for (int i = n - 2; i >= 0; --i)
        out[i] -= work[i + 1] * out[i + 1];
}

/* Derivatives at the n knots of the periodic spline through y[0..n-1]
 * (spacing h, y[n] = y[0] implied). `scratch` holds 7 n doubles. */
static void periodic_derivatives(int n, double h, const double *y, double *out_d, double *scratch)
{
    double *a = scratch, *b = a + n, *c = b + n, *rhs = c + n, *m = rhs + n, *z = m + n,
           *work = z + n;
    /* Cyclic system with corners alpha (row 0, column n-1) = beta (row n-1,
     * column 0) = h; Sherman-Morrison with u = (gamma, 0.., h), v = (1, 0..,
     * h / gamma). */
    const double gamma = -4.0 * h;
    for (int i = 0; i < n; ++i) {
        a[i] = h;
        b[i] = 4.0 * h;
        c[i] = h;
        const double yp = y[(i + 1) % n], ym = y[(i + n - 1) % n];
        rhs[i] = 6.0 * (yp - 2.0 * y[i] + ym) / h;
    }
    b[0] -= gamma;
    b[n - 1] -= h * h / gamma;
    thomas(n, a, b, c, rhs, m, work);
    for (int i = 0; i < n; ++i)
        z[i] = 0;
    z[0] = gamma;
    z[n - 1] = h;
    thomas(n, a, b, c, z, z, work);
    const double f = (m[0] + h * m[n - 1] / gamma) / (1.0 + z[0] + h * z[n - 1] / gamma);
    for (int i = 0; i < n; ++i)
        m[i] -= f * z[i];
    for (int i = 0; i < n; ++i) {
        const int ip = (i + 1) % n;
        out_d[i] = (y[ip] - y[i]) / h - h * (2.0 * m[i] + m[ip]) / 6.0;
    }
}

/* Cubic Hermite basis on [0, 1] as polynomial coefficients (t^0..t^3): value
 * at 0, value at 1, slope at 0, slope at 1. */
static const double HERMITE[4][4] = {
    {1, 0, -3, 2},
    {0, 0, 3, -2},
    {0, 1, -2, 1},
    {0, 0, -1, 1},
};

vkmd_result vkmd_cmap_spline_coefficients(const vkmd_cmap_map *map, double *out_c)
{
    const int n = map->resolution;
    if (n < 4)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "CMAP map: resolution %d, expected >= 4", n);
    for (int k = 0; k < n * n; ++k)
        if (!isfinite(map->grid[k]))
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "CMAP map: grid value %d is not finite",
                             k + 1);
    const size_t nn = (size_t)n * (size_t)n;
    double *e = malloc(sizeof *e * (4 * nn + 9 * (size_t)n));
    if (!e)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "CMAP map: %d x %d", n, n);
    /* e[p + n q]: p along phi, q along psi (the file is phi-major). */
    double *d1 = e + nn, *d2 = d1 + nn, *d12 = d2 + nn, *line = d12 + nn, *dl = line + n,
           *scratch = dl + n;
    for (int p = 0; p < n; ++p)
        for (int q = 0; q < n; ++q)
            e[p + n * q] = map->grid[p * n + q];
    const double h = TWO_PI / n;
    for (int q = 0; q < n; ++q) { /* d/dphi along each row */
        periodic_derivatives(n, h, &e[n * q], &d1[n * q], scratch);
    }
    for (int p = 0; p < n; ++p) { /* d/dpsi along each column */
        for (int q = 0; q < n; ++q)
            line[q] = e[p + n * q];
        periodic_derivatives(n, h, line, dl, scratch);
        for (int q = 0; q < n; ++q)
            d2[p + n * q] = dl[q];
    }
    for (int q = 0; q < n; ++q) /* d2/dphi dpsi: d/dphi of d/dpsi */
        periodic_derivatives(n, h, &d2[n * q], &d12[n * q], scratch);

    for (int t = 0; t < n; ++t) {
        for (int s = 0; s < n; ++s) {
            const int sp = (s + 1) % n, tp = (t + 1) % n;
            /* Corner k = (ca, cb): value, slopes scaled to the unit cell. */
            const int idx[2][2] = {{s + n * t, s + n * tp}, {sp + n * t, sp + n * tp}};
            double *c = &out_c[(size_t)(s + n * t) * 16];
            for (int k = 0; k < 16; ++k)
                c[k] = 0;
            for (int ca = 0; ca < 2; ++ca) {
                for (int cb = 0; cb < 2; ++cb) {
                    const int g = idx[ca][cb];
                    const double w[4] = {e[g], d1[g] * h, d2[g] * h, d12[g] * h * h};
                    /* value: H_v(a) H_v(b); d/da: H_s(a) H_v(b); d/db:
                     * H_v(a) H_s(b); cross: H_s(a) H_s(b). */
                    const double *ha[2] = {HERMITE[ca], HERMITE[2 + ca]};
                    const double *hb[2] = {HERMITE[cb], HERMITE[2 + cb]};
                    for (int kind = 0; kind < 4; ++kind) {
                        const double *pa = ha[kind & 1], *pb = hb[kind >> 1];
                        for (int i = 0; i < 4; ++i)
                            for (int j = 0; j < 4; ++j)
                                c[4 * i + j] += w[kind] * pa[i] * pb[j];
                    }
                }
            }
        }
    }
    free(e);
    return VKMD_OK;
}

void vkmd_cmap_spline_cell(double angle, int32_t resolution, int32_t *out_cell, double *out_frac)
{
    double theta = fmod(angle + 0.5 * TWO_PI, TWO_PI);
    if (theta < 0)
        theta += TWO_PI;
    const double x = theta / (TWO_PI / resolution);
    int32_t s = (int32_t)x;
    if (s >= resolution)
        s = resolution - 1;
    if (s < 0)
        s = 0;
    *out_cell = s;
    *out_frac = x - s;
}
