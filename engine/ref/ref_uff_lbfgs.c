/* CPU double L-BFGS on one UFF molecule (see ref_uff_lbfgs.h). Sums run
 * over coordinates in index order. */
#include "ref/ref_uff_lbfgs.h"
#include "ref/ref_uff.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ARMIJO  1e-4 /* RDKit's FUNCTOL: sufficient decrease */
#define MOVETOL 1e-7 /* RDKit's MOVETOL: smallest step, relative to the coordinates */
#define CURV    3e-8 /* RDKit's EPS: curvature guard of the (s, y) update */
#define NOISE   1e-5 /* relative energy change treated as flat (the device's float energies) */

static double dot(const double *a, const double *b, int32_t n)
{
    double s = 0;
    for (int32_t i = 0; i < n; ++i)
        s += a[i] * b[i];
    return s;
}

static double max_rel(const double *d, const double *x, int32_t n)
{
    double m = 0;
    for (int32_t i = 0; i < n; ++i) {
        const double ax = fabs(x[i]) > 1.0 ? fabs(x[i]) : 1.0;
        const double r = fabs(d[i]) / ax;
        m = r > m ? r : m;
    }
    return m;
}

/* Energy and gradient (dE/dx) at x. */
static vkmd_result eval(const vkmd_uff_terms *t, const double *x, double *out_e, double *g)
{
    vkmd_uff_energy e;
    vkmd_result res = vkmd_ref_uff_compute(t, x, &e, g);
    if (res != VKMD_OK)
        return res;
    for (int32_t i = 0; i < 3 * t->atom_count; ++i)
        g[i] = -g[i];
    *out_e = e.total;
    return VKMD_OK;
}

/* RDKit's cubic / quadratic backtrack (Numerical Recipes 9.7): the next
 * lambda after `de` = E - E0 at lambda was not low enough; lambda2, de2:
 * the trial before (lambda2 = 0: none). */
static double backtrack(double lambda, double lambda2, double de, double de2, double slope)
{
    double tmp;
    if (lambda2 == 0) {
        tmp = -slope / (2.0 * (de - slope));
    } else {
        const double r1 = de - lambda * slope, r2 = de2 - lambda2 * slope;
        const double a = (r1 / (lambda * lambda) - r2 / (lambda2 * lambda2)) / (lambda - lambda2);
        const double b = (-lambda2 * r1 / (lambda * lambda) + lambda * r2 / (lambda2 * lambda2)) /
                         (lambda - lambda2);
        if (a == 0) {
            tmp = -slope / (2.0 * b);
        } else {
            const double disc = b * b - 3 * a * slope;
            if (disc < 0)
                tmp = 0.5 * lambda;
            else if (b <= 0)
                tmp = (-b + sqrt(disc)) / (3 * a);
            else
                tmp = -slope / (b + sqrt(disc));
        }
        if (tmp > 0.5 * lambda)
            tmp = 0.5 * lambda;
    }
    return tmp >= 0.1 * lambda ? tmp : 0.1 * lambda; /* also for a NaN */
}

static void set_identity(double *h, int32_t n, double c)
{
    memset(h, 0, sizeof *h * (size_t)n * n);
    for (int32_t i = 0; i < n; ++i)
        h[(size_t)i * n + i] = c;
}

/* Dense BFGS: the inverse Hessian's update with (s, y) when the curvature
 * guard passes (RDKit's form), then d = -H g. */
static void dense_direction(double *h, int32_t n, const double *s, const double *y, const double *g,
                            double *hy, double *d)
{
    const double sy = dot(s, y, n), yy = dot(y, y, n), ss = dot(s, s, n);
    if (sy > sqrt(CURV * yy * ss)) {
        for (int32_t i = 0; i < n; ++i)
            hy[i] = dot(h + (size_t)i * n, y, n);
        const double fae = dot(y, hy, n), fac = 1.0 / sy, fad = 1.0 / fae;
        for (int32_t i = 0; i < n; ++i) {
            const double ui = fac * s[i] - fad * hy[i];
            for (int32_t j = 0; j < n; ++j) {
                const double uj = fac * s[j] - fad * hy[j];
                h[(size_t)i * n + j] += fac * s[i] * s[j] - fad * hy[i] * hy[j] + fae * ui * uj;
            }
        }
    }
    for (int32_t i = 0; i < n; ++i)
        d[i] = -dot(h + (size_t)i * n, g, n);
}

/* L-BFGS memory: m pairs in slots, `pairs` held, newest in `newest`. */
typedef struct lbfgs_memory {
    int32_t m, pairs, newest;
    double *s, *y; /* [m][n] */
} lbfgs_memory;

/* Keeps (s, y) when the curvature guard passes, then d = -H g by the
 * two-loop recursion. */
static void lbfgs_direction(lbfgs_memory *mem, int32_t n, const double *s, const double *y,
                            const double *g, double c, double *d)
{
    const int32_t m = mem->m;
    double rho[VKMD_UFF_LBFGS_MAX_MEMORY], alpha[VKMD_UFF_LBFGS_MAX_MEMORY];
    if (dot(s, y, n) > sqrt(CURV * dot(y, y, n) * dot(s, s, n))) {
        mem->newest = mem->pairs == 0 ? 0 : (mem->newest + 1) % m;
        memcpy(mem->s + (size_t)mem->newest * n, s, sizeof *s * (size_t)n);
        memcpy(mem->y + (size_t)mem->newest * n, y, sizeof *y * (size_t)n);
        mem->pairs = mem->pairs < m ? mem->pairs + 1 : m;
    }
    memcpy(d, g, sizeof *d * (size_t)n);
    double h0 = c;
    for (int32_t k = 0; k < mem->pairs; ++k) {
        const int32_t j = (mem->newest + m - k) % m;
        const double *sj = mem->s + (size_t)j * n, *yj = mem->y + (size_t)j * n;
        const double sy = dot(sj, yj, n);
        rho[j] = 1.0 / sy;
        alpha[j] = rho[j] * dot(sj, d, n);
        if (k == 0)
            h0 = sy / dot(yj, yj, n);
        for (int32_t i = 0; i < n; ++i)
            d[i] -= alpha[j] * yj[i];
    }
    for (int32_t i = 0; i < n; ++i)
        d[i] *= h0;
    for (int32_t k = mem->pairs - 1; k >= 0; --k) {
        const int32_t j = (mem->newest + m - k) % m;
        const double *sj = mem->s + (size_t)j * n, *yj = mem->y + (size_t)j * n;
        const double beta = rho[j] * dot(yj, d, n);
        for (int32_t i = 0; i < n; ++i)
            d[i] += (alpha[j] - beta) * sj[i];
    }
    for (int32_t i = 0; i < n; ++i)
        d[i] = -d[i];
}

vkmd_result vkmd_ref_uff_lbfgs(const vkmd_uff_terms *t, const vkmd_uff_lbfgs_params *params,
                               double *xyz, vkmd_uff_relax_result *out, double *out_energy_trace,
                               int32_t trace_count)
{
    vkmd_result res = VKMD_OK;
    const vkmd_uff_lbfgs_params p = vkmd_uff_lbfgs_params_resolve(params);
    if ((res = vkmd_uff_lbfgs_params_check(&p)) != VKMD_OK)
        return res;
    const int32_t n = 3 * t->atom_count, m = p.memory;
    *out = (vkmd_uff_relax_result){0};
    lbfgs_memory mem = {.m = m};
    double *g = calloc((size_t)n, sizeof *g), *gn = calloc((size_t)n, sizeof *gn);
    double *d = calloc((size_t)n, sizeof *d), *xn = calloc((size_t)n, sizeof *xn);
    double *sv = calloc((size_t)n, sizeof *sv), *yv = calloc((size_t)n, sizeof *yv);
    double *hy = calloc((size_t)n, sizeof *hy);
    double *h = m == 0 ? calloc((size_t)n * n, sizeof *h) : NULL;
    if (m > 0) {
        mem.s = calloc((size_t)n * m, sizeof *mem.s);
        mem.y = calloc((size_t)n * m, sizeof *mem.y);
    }
    if (!g || !gn || !d || !xn || !sv || !yv || !hy || (m == 0 && !h) ||
        (m > 0 && (!mem.s || !mem.y))) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "L-BFGS reference of %d atoms", t->atom_count);
        goto cleanup;
    }
    double e = 0, c = 0.1;
    VKMD_TRY(eval(t, xyz, &e, g));
    out->evaluations = 1;
    out->energy_initial = e;
    vkmd_uff_rdkit_grad_scale(g, n, &c);
    for (int32_t i = 0; i < n; ++i)
        d[i] = -c * g[i];
    if (m == 0)
        set_identity(h, n, c);
    int32_t status = VKMD_UFF_RELAX_RUNNING;
    int fresh = 1; /* d is steepest descent with no curvature memory */
    for (int32_t iter = 1; iter <= p.max_iterations; ++iter) {
        /* Line search along d; not downhill: no memory, steepest descent. */
        double slope = dot(g, d, n), rel = max_rel(d, xyz, n);
        if (!(slope < 0 && rel > 0)) {
            mem.pairs = 0;
            if (m == 0)
                set_identity(h, n, c);
            for (int32_t i = 0; i < n; ++i)
                d[i] = -c * g[i];
            slope = dot(g, d, n);
            rel = max_rel(d, xyz, n);
            fresh = 1;
            if (!(slope < 0 && rel > 0)) {
                status = VKMD_UFF_RELAX_STEP; /* a zero gradient */
                break;
            }
        }
        double dmax = 0;
        for (int32_t i = 0; i < n; ++i)
            dmax = fabs(d[i]) > dmax ? fabs(d[i]) : dmax;
        if (dmax > p.max_step_a) {
            const double k = p.max_step_a / dmax;
            for (int32_t i = 0; i < n; ++i)
                d[i] *= k;
            slope *= k;
            rel *= k;
        }
        out->iterations = iter;
        const double lambda_min = MOVETOL / rel;
        double lambda = 1, lambda2 = 0, de2 = 0, en = 0, de = 0;
        int accepted = 0;
        for (;;) {
            for (int32_t i = 0; i < n; ++i)
                xn[i] = xyz[i] + lambda * d[i];
            VKMD_TRY(eval(t, xn, &en, gn));
            ++out->evaluations;
            de = en - e;
            const int flat =
                fabs(de) <= NOISE * (fabs(e) > 1.0 ? fabs(e) : 1.0) && dot(gn, d, n) < 0;
            if (de <= ARMIJO * lambda * slope || flat) {
                accepted = 1;
                break;
            }
            const double next = backtrack(lambda, lambda2, de, de2, slope);
            lambda2 = lambda;
            de2 = de;
            lambda = next;
            if (lambda < lambda_min)
                break;
        }
        if (!accepted && !fresh) {
            /* Stalled along a quasi-Newton direction: forget the curvature
             * and search along steepest descent once before giving up. */
            mem.pairs = 0;
            if (m == 0)
                set_identity(h, n, c);
            for (int32_t i = 0; i < n; ++i)
                d[i] = -c * g[i];
            fresh = 1;
            continue;
        }
        if (!accepted) {
            status = VKMD_UFF_RELAX_STEP; /* stalled: stay at x */
            break;
        }
        fresh = 0;
        for (int32_t i = 0; i < n; ++i) {
            sv[i] = lambda * d[i];
            yv[i] = gn[i] - g[i];
        }
        memcpy(xyz, xn, sizeof *xyz * (size_t)n);
        memcpy(g, gn, sizeof *g * (size_t)n);
        e = en;
        if (iter <= trace_count && out_energy_trace)
            out_energy_trace[iter - 1] = e;
        const double sc = vkmd_uff_rdkit_grad_scale(g, n, &c);
        double gtest = 0;
        for (int32_t i = 0; i < n; ++i) {
            const double ax = fabs(xyz[i]) > 1.0 ? fabs(xyz[i]) : 1.0;
            const double v = fabs(g[i]) * ax;
            gtest = v > gtest ? v : gtest;
        }
        const double term = e * sc > 1.0 ? e * sc : 1.0;
        if (max_rel(sv, xyz, n) < VKMD_UFF_RELAX_RDKIT_TOLX)
            status = VKMD_UFF_RELAX_STEP;
        else if (gtest * c / term < p.force_tol)
            status = VKMD_UFF_RELAX_GRADIENT;
        else if (p.energy_tol > 0 && fabs(de) <= p.energy_tol * (fabs(e) > 1.0 ? fabs(e) : 1.0))
            status = VKMD_UFF_RELAX_ENERGY;
        if (status != VKMD_UFF_RELAX_RUNNING)
            break;
        if (m == 0)
            dense_direction(h, n, sv, yv, g, hy, d);
        else
            lbfgs_direction(&mem, n, sv, yv, g, c, d);
    }
    out->status = status;
    out->converged = status != VKMD_UFF_RELAX_RUNNING;
    out->energy_final = e;
    vkmd_uff_force_norms(g, t->atom_count, &out->fmax, &out->frms);
cleanup:
    free(g);
    free(gn);
    free(d);
    free(xn);
    free(sv);
    free(yv);
    free(hy);
    free(h);
    free(mem.s);
    free(mem.y);
    return res;
}
