/* Small random AMBER-like systems and finite-difference helpers shared by the
 * reference tests (tests/test_ref_*.c). Header-only so each test stays one
 * file; every function is static.
 *
 * The random system: 4-atom chains i-j-k-l (3 bonds, 2 angles, two propers
 * i-j-k-l with phases 0.3 and pi, one improper i-k-j-l, a 1-4 pair i-l, all
 * six intramolecular pairs excluded), three LJ types combined by
 * Lorentz-Berthelot, random charges made neutral. Atoms are wrapped into the
 * box one by one, so molecules straddle the boundary and every term must use
 * the minimum image. 1-4 distances stay above 2.6 A. Configurations with a non-bonded pair within
 * 0.02 A of the cutoff are redrawn, so truncation never falls inside a finite difference. */
#ifndef VKMD_TESTS_REF_TESTSYS_H
#define VKMD_TESTS_REF_TESTSYS_H

#include "ref/ref.h"
#include "system/ff_settings.h"
#include "system/system.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t testsys_rng = 0x9e3779b97f4a7c15ull;

static inline double testsys_uniform(void) /* [0, 1) */
{
    testsys_rng ^= testsys_rng << 13;
    testsys_rng ^= testsys_rng >> 7;
    testsys_rng ^= testsys_rng << 17;
    return (double)(testsys_rng >> 11) / 9007199254740992.0;
}

static inline void testsys_unit(double *v)
{
    double n;
    do {
        for (int c = 0; c < 3; ++c)
            v[c] = 2 * testsys_uniform() - 1;
        n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    } while (n < 0.1 || n > 1);
    for (int c = 0; c < 3; ++c)
        v[c] /= n;
}

/* Allocates an empty system with `n` atoms and the three LJ types. */
static inline void testsys_alloc(vkmd_system *sys, int32_t n)
{
    memset(sys, 0, sizeof *sys);
    sys->atom_count = n;
    sys->atoms = calloc((size_t)n, sizeof *sys->atoms);
    sys->positions = calloc(3 * (size_t)n, sizeof *sys->positions);
    static const double sigma[3] = {3.4, 3.0, 2.5}, eps[3] = {0.11, 0.17, 0.05};
    sys->lj_type_count = 3;
    sys->lj_a = calloc(9, sizeof *sys->lj_a);
    sys->lj_b = calloc(9, sizeof *sys->lj_b);
    for (int t = 0; t < 3; ++t)
        for (int u = 0; u < 3; ++u) {
            double s = 0.5 * (sigma[t] + sigma[u]), e = sqrt(eps[t] * eps[u]);
            sys->lj_a[3 * t + u] = 4 * e * pow(s, 12);
            sys->lj_b[3 * t + u] = 4 * e * pow(s, 6);
        }
}

static inline double testsys_min_dist2(const vkmd_system *sys, int32_t a, int32_t b)
{
    double d[3];
    ref_delta(&sys->box, &sys->positions[3 * a], &sys->positions[3 * b], d);
    return d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
}

/* `nmol` chains in a cubic box of edge `box_a`; pairs of different molecules
 * stay >= 2.6 A apart and, if cutoff_a > 0, >= 0.02 A away from it. */
static inline void testsys_random(vkmd_system *sys, int nmol, double box_a, double cutoff_a)
{
    const int32_t n = 4 * nmol;
    testsys_alloc(sys, n);
    snprintf(sys->title, sizeof sys->title, "random %d chains", nmol);
    sys->box.periodic = 1;
    sys->box.len[0] = sys->box.len[1] = sys->box.len[2] = box_a;
    sys->bond_count = 3 * nmol;
    sys->bonds = calloc((size_t)sys->bond_count, sizeof *sys->bonds);
    sys->angle_count = 2 * nmol;
    sys->angles = calloc((size_t)sys->angle_count, sizeof *sys->angles);
    sys->dihedral_count = 3 * nmol;
    sys->dihedrals = calloc((size_t)sys->dihedral_count, sizeof *sys->dihedrals);
    sys->pair14_count = nmol;
    sys->pairs14 = calloc((size_t)nmol, sizeof *sys->pairs14);
    sys->exclusion_count = 6 * nmol;
    sys->exclusions = calloc((size_t)sys->exclusion_count, sizeof *sys->exclusions);
    double qsum = 0;
    for (int32_t a = 0; a < n; ++a) {
        sys->atoms[a].charge = 1.6 * testsys_uniform() - 0.8;
        sys->atoms[a].mass = 12;
        sys->atoms[a].lj_type = (int32_t)(3 * testsys_uniform());
        sys->atoms[a].res_index = a / 4;
        qsum += sys->atoms[a].charge;
    }
    for (int32_t a = 0; a < n; ++a)
        sys->atoms[a].charge -= qsum / n;
    for (int m = 0; m < nmol; ++m) {
        int32_t i = 4 * m, j = i + 1, k = i + 2, l = i + 3;
        vkmd_bond b[3] = {{i, j, 310, 1.52}, {j, k, 280, 1.45}, {k, l, 340, 1.09}};
        memcpy(&sys->bonds[3 * m], b, sizeof b);
        vkmd_angle t[2] = {{i, j, k, 63, 1.91}, {j, k, l, 50, 2.0}};
        memcpy(&sys->angles[2 * m], t, sizeof t);
        vkmd_dihedral d[3] = {{i, j, k, l, 1.4, 0.3, 3, 0},
                              {i, j, k, l, 0.7, M_PI, 2, 0},
                              {i, k, j, l, 10.5, M_PI, 2, 1}};
        memcpy(&sys->dihedrals[3 * m], d, sizeof d);
        sys->pairs14[m] = (vkmd_pair14){i, l, 1.2, 2.0};
        vkmd_pair e[6] = {{i, j}, {i, k}, {i, l}, {j, k}, {j, l}, {k, l}};
        memcpy(&sys->exclusions[6 * m], e, sizeof e);
    }
    vkmd_system_finalize(sys, "random");
    for (int attempt = 0; attempt < 100000; ++attempt) {
        int ok = 1;
        for (int m = 0; m < nmol && ok; ++m) {
            int placed = 0;
            for (int tries = 0; tries < 1000 && !placed; ++tries) {
                double *x = &sys->positions[12 * m];
                for (int c = 0; c < 3; ++c)
                    x[c] = box_a * testsys_uniform();
                double prev[3] = {0, 0, 0};
                for (int a = 1; a < 4; ++a) {
                    double dir[3];
                    for (;;) {
                        testsys_unit(dir);
                        double cosang = -(dir[0] * prev[0] + dir[1] * prev[1] + dir[2] * prev[2]);
                        if (a == 1 || (cosang > -0.8 && cosang < 0.5))
                            break;
                    }
                    for (int c = 0; c < 3; ++c)
                        x[3 * a + c] = x[3 * (a - 1) + c] + 1.5 * dir[c];
                    memcpy(prev, dir, sizeof prev);
                }
                for (int c = 0; c < 12; ++c) /* wrap atom by atom */
                    x[c] -= box_a * floor(x[c] / box_a);
                /* A real 1-4 pair sits at 2.5-3.9 A; closer ones blow up the LJ. */
                placed = testsys_min_dist2(sys, 4 * m, 4 * m + 3) > 2.6 * 2.6;
                for (int32_t a = 4 * m; a < 4 * m + 4 && placed; ++a)
                    for (int32_t b = 0; b < 4 * m && placed; ++b) {
                        double r = sqrt(testsys_min_dist2(sys, a, b));
                        if (r < 2.6 || (cutoff_a > 0 && fabs(r - cutoff_a) < 0.02))
                            placed = 0;
                    }
            }
            ok = placed;
        }
        if (ok)
            return;
    }
}

/* Sets resolved settings for a test: cutoff, alpha, grid and order given. */
static inline vkmd_ff_settings testsys_settings(double cutoff_a, double alpha, int grid, int order)
{
    vkmd_ff_settings s;
    memset(&s, 0, sizeof s);
    s.cutoff_a = cutoff_a;
    s.ewald_tolerance = 5e-4;
    s.ewald_alpha = alpha;
    s.pme_grid[0] = s.pme_grid[1] = s.pme_grid[2] = grid;
    s.pme_order = order;
    return s;
}

/* One force term as a closure: energy, and forces ADDED into f (may be NULL). */
typedef double (*testsys_term)(const vkmd_system *sys, const vkmd_ff_settings *s, double *f);

/* Compares analytic forces with central differences -dE/dx (step h A) over
 * every coordinate. Returns RMS(F - F_fd) / RMS(F_fd) and the max |diff|. */
static inline double testsys_fd(vkmd_system *sys, const vkmd_ff_settings *s, testsys_term term,
                                double h, double *out_max_abs, double *out_rms_force)
{
    const int32_t n3 = 3 * sys->atom_count;
    double *f = calloc((size_t)n3, sizeof *f), *fd = calloc((size_t)n3, sizeof *fd);
    term(sys, s, f);
    for (int32_t c = 0; c < n3; ++c) {
        double x0 = sys->positions[c];
        sys->positions[c] = x0 + h;
        double ep = term(sys, s, NULL);
        sys->positions[c] = x0 - h;
        double em = term(sys, s, NULL);
        sys->positions[c] = x0;
        fd[c] = -(ep - em) / (2 * h);
    }
    double num = 0, den = 0, mx = 0;
    for (int32_t c = 0; c < n3; ++c) {
        num += (f[c] - fd[c]) * (f[c] - fd[c]);
        den += fd[c] * fd[c];
        mx = fmax(mx, fabs(f[c] - fd[c]));
    }
    free(f);
    free(fd);
    if (out_max_abs)
        *out_max_abs = mx;
    if (out_rms_force)
        *out_rms_force = sqrt(den / (n3 > 0 ? n3 : 1));
    return den > 0 ? sqrt(num / den) : sqrt(num);
}

/* |sum of forces| (vector norm) of a term, and the largest single force. */
static inline double testsys_force_sum(const vkmd_system *sys, const vkmd_ff_settings *s,
                                       testsys_term term, double *out_max_force)
{
    const int32_t n = sys->atom_count;
    double *f = calloc(3 * (size_t)n, sizeof *f);
    term(sys, s, f);
    double sum[3] = {0, 0, 0}, mx = 0;
    for (int32_t a = 0; a < n; ++a)
        for (int c = 0; c < 3; ++c) {
            sum[c] += f[3 * a + c];
            mx = fmax(mx, fabs(f[3 * a + c]));
        }
    free(f);
    if (out_max_force)
        *out_max_force = mx;
    return sqrt(sum[0] * sum[0] + sum[1] * sum[1] + sum[2] * sum[2]);
}

/* The terms as closures. */
static inline double term_bonds(const vkmd_system *sys, const vkmd_ff_settings *s, double *f)
{
    (void)s;
    return ref_bonds(sys, f);
}
static inline double term_angles(const vkmd_system *sys, const vkmd_ff_settings *s, double *f)
{
    (void)s;
    return ref_angles(sys, f);
}
/* Propers only / impropers only: a view of the system with one kind kept. */
static inline double term_dihedral_kind(const vkmd_system *sys, double *f, int improper)
{
    vkmd_system view = *sys;
    vkmd_dihedral *kept = calloc((size_t)sys->dihedral_count + 1, sizeof *kept);
    int32_t m = 0;
    for (int32_t d = 0; d < sys->dihedral_count; ++d)
        if (sys->dihedrals[d].improper == improper)
            kept[m++] = sys->dihedrals[d];
    view.dihedrals = kept;
    view.dihedral_count = m;
    double e = ref_dihedrals(&view, f, NULL);
    free(kept);
    return e;
}
static inline double term_propers(const vkmd_system *sys, const vkmd_ff_settings *s, double *f)
{
    (void)s;
    return term_dihedral_kind(sys, f, 0);
}
static inline double term_impropers(const vkmd_system *sys, const vkmd_ff_settings *s, double *f)
{
    (void)s;
    return term_dihedral_kind(sys, f, 1);
}
static inline double term_pairs14(const vkmd_system *sys, const vkmd_ff_settings *s, double *f)
{
    double lj, coul;
    ref_pairs14(sys, vkmd_ff_coulomb_k(s), f, &lj, &coul);
    return lj + coul;
}
static inline double term_pairs(const vkmd_system *sys, const vkmd_ff_settings *s, double *f)
{
    double lj = 0, coul = 0;
    if (ref_nonbonded_pairs(sys, s, vkmd_ff_coulomb_k(s), f, &lj, &coul) != VKMD_OK)
        return NAN;
    return lj + coul;
}
static inline double term_excluded(const vkmd_system *sys, const vkmd_ff_settings *s, double *f)
{
    return ref_nonbonded_excluded(sys, s->ewald_alpha, vkmd_ff_coulomb_k(s), f);
}
static inline double term_pme(const vkmd_system *sys, const vkmd_ff_settings *s, double *f)
{
    double e = 0;
    if (ref_pme(sys, s, vkmd_ff_coulomb_k(s), f, &e) != VKMD_OK)
        return NAN;
    return e;
}
static inline double term_total(const vkmd_system *sys, const vkmd_ff_settings *s, double *f)
{
    vkmd_energy e;
    double *tmp = f ? calloc(3 * (size_t)sys->atom_count, sizeof *tmp) : NULL;
    if (vkmd_ref_compute(sys, s, &e, tmp) != VKMD_OK)
        e.total = NAN;
    if (f)
        for (int32_t c = 0; c < 3 * sys->atom_count; ++c)
            f[c] += tmp[c];
    free(tmp);
    return e.total;
}

#endif
