/* Reference constraints (engine/maths/host_constraints.c) and the constraint
 * set they solve (engine/system/constraints.c).
 *
 * Rigid water (water:216, SETTLE), from the built geometry moved by random
 * displacements of up to 0.05 A per coordinate (several times what one 2 fs
 * step does) and, separately, 0.15 A:
 *   - every O-H and H-H distance restored to 1e-10 A (measured ~1e-15);
 *   - each water's centre of mass unchanged (1e-12 A) and, through the
 *     velocity correction, its momentum unchanged (1e-12 amu A/fs);
 *   - the displacement is a SHAKE one: m_i (x_i - x_i') is a combination of
 *     the three reference bond vectors (least-squares residual <= 1e-10 of
 *     the largest term);
 *   - velocities: after vkmd_host_constraints_velocities no relative velocity along
 *     any O-H or H-H (<= 1e-12 A/fs), momentum and angular momentum of each
 *     water unchanged.
 * H-bond clusters (villin_vac, hbonds): 293 constraints over clusters of 1..3
 * hydrogens; from the loaded structure constrained once, random
 * displacements of 0.03 A: SHAKE converges to tol = 1e-10 and to 1e-5 (the
 * largest relative error printed), each H moves along its reference bond
 * (the part across it <= 1e-13 A),
 * each cluster's momentum is conserved; RATTLE leaves no relative velocity
 * along any bond (exact linear solve: <= 1e-12 A/fs).
 * Set building: counts for rigid and flexible water, villin; the refusals
 * (water of another geometry, five hydrogens on a carbon, a hydrogen bonded
 * to two heavy atoms, a zero mass), each naming an atom; a SETTLE water moved
 * too far reports VKMD_ERROR_NUMERIC. */
#include "testlib.h"
#include "io/load.h"
#include "ref/ref_md.h"
#include "system/constraints.h"
#include "system/water_box.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x2545F4914F6CDD1Dull;

static double uniform_pm1(void) /* [-1, 1) */
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return 2.0 * (double)(rng >> 11) / 9007199254740992.0 - 1.0;
}

static double dot3(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static double *masses_of(const vkmd_system *sys)
{
    double *m = malloc((size_t)sys->atom_count * sizeof *m);
    if (m)
        for (int32_t a = 0; a < sys->atom_count; ++a)
            m[a] = sys->atoms[a].mass;
    return m;
}

static double *copy3(const double *x, int32_t n)
{
    double *c = malloc((size_t)3 * n * sizeof *c);
    if (c)
        memcpy(c, x, (size_t)3 * n * sizeof *c);
    return c;
}

/* Least-squares residual of m_i d_i = sum_k lambda_k (+-) r_k over a water's
 * three atoms and three reference bonds, relative to the largest |m d|. */
static double settle_shake_residual(const double *m, const double *ref, const double *d,
                                    const vkmd_water *w)
{
    const int32_t at[3] = {w->o, w->h1, w->h2};
    const int ci[3] = {0, 0, 1}, cj[3] = {1, 2, 2};
    double r[3][3], g[9][3], y[9], big = 0;
    for (int k = 0; k < 3; ++k)
        for (int c = 0; c < 3; ++c)
            r[k][c] = ref[3 * at[cj[k]] + c] - ref[3 * at[ci[k]] + c];
    /* row (atom q, axis c): m_q d_qc = sum_k lambda_k s_qk r_kc */
    for (int q = 0; q < 3; ++q)
        for (int c = 0; c < 3; ++c) {
            y[3 * q + c] = m[at[q]] * d[3 * at[q] + c];
            big = fmax(big, fabs(y[3 * q + c]));
            for (int k = 0; k < 3; ++k)
                g[3 * q + c][k] = (q == cj[k] ? 1.0 : q == ci[k] ? -1.0 : 0.0) * r[k][c];
        }
    /* normal equations, 3 x 3, Cramer */
    double a[3][3] = {{0}}, b[3] = {0};
    for (int row = 0; row < 9; ++row)
        for (int k = 0; k < 3; ++k) {
            b[k] += g[row][k] * y[row];
            for (int l = 0; l < 3; ++l)
                a[k][l] += g[row][k] * g[row][l];
        }
    const double det = a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
                       a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
                       a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
    double lam[3];
    for (int k = 0; k < 3; ++k) {
        double t[3][3];
        memcpy(t, a, sizeof t);
        for (int row = 0; row < 3; ++row)
            t[row][k] = b[row];
        lam[k] = (t[0][0] * (t[1][1] * t[2][2] - t[1][2] * t[2][1]) -
                  t[0][1] * (t[1][0] * t[2][2] - t[1][2] * t[2][0]) +
                  t[0][2] * (t[1][0] * t[2][1] - t[1][1] * t[2][0])) /
                 det;
    }
    double worst = 0;
    for (int row = 0; row < 9; ++row) {
        double s = 0;
        for (int k = 0; k < 3; ++k)
            s += g[row][k] * lam[k];
        worst = fmax(worst, fabs(s - y[row]));
    }
    return big > 0 ? worst / big : 0;
}

static void water_case(double amplitude)
{
    printf("== water:216, SETTLE, displacements up to %.2f A\n", amplitude);
    vkmd_system sys = {0};
    vkmd_constraint_set set = {0};
    double *m = NULL, *ref = NULL, *pos = NULL, *unc = NULL, *vel = NULL, *vel0 = NULL;
    double *disp = NULL;
    CHECK_OK(vkmd_water_box_build(216, VKMD_WATER_BOX_DEFAULT_SEED, &sys));
    if (test_failures)
        goto done;
    CHECK_OK(vkmd_constraints_build(&sys, 1, 1, &set));
    const int32_t n = sys.atom_count;
    m = masses_of(&sys);
    ref = copy3(sys.positions, n);
    pos = copy3(sys.positions, n);
    vel = calloc((size_t)3 * n, sizeof *vel);
    disp = calloc((size_t)3 * n, sizeof *disp);
    CHECK(m && ref && pos && vel && disp);
    if (test_failures)
        goto done;
    printf("set: %d waters, d_oh %.6f A, d_hh %.6f A, %d clusters, %d constraints\n",
           set.water_count, set.water_d_oh, set.water_d_hh, set.cluster_count,
           set.constraint_count);
    CHECK(set.water_count == 216 && set.cluster_count == 0 && set.constraint_count == 648);
    CHECK(fabs(set.water_d_oh - 0.9572) < 1e-12);
    CHECK(fabs(set.water_d_hh - 2 * 0.9572 * sin(0.5 * 104.52 * M_PI / 180)) < 1e-12);
    double w0, h0;
    vkmd_host_constraints_violation(&set, ref, &w0, &h0);
    printf("built geometry: largest water violation %.3g A\n", w0);
    CHECK(w0 < 1e-12);

    for (int32_t i = 0; i < 3 * n; ++i) {
        pos[i] += amplitude * uniform_pm1();
        vel[i] = 0.01 * uniform_pm1();
    }
    unc = copy3(pos, n);
    vel0 = copy3(vel, n);
    CHECK(unc && vel0);
    if (test_failures)
        goto done;
    double wu, hu;
    vkmd_host_constraints_violation(&set, unc, &wu, &hu);
    const double dt = 2.0;
    CHECK_OK(vkmd_host_constraints_positions(&set, m, ref, pos, vel, dt, 1e-10));
    double wc, hc;
    vkmd_host_constraints_violation(&set, pos, &wc, &hc);
    double com_err = 0, mom_err = 0, shake_res = 0;
    for (int32_t w = 0; w < set.water_count; ++w) {
        const vkmd_water *wt = &set.waters[w];
        const int32_t at[3] = {wt->o, wt->h1, wt->h2};
        for (int c = 0; c < 3; ++c) {
            double mc = 0, mu = 0, mt = 0, p = 0, p0 = 0;
            for (int q = 0; q < 3; ++q) {
                const int32_t a = at[q];
                mc += m[a] * pos[3 * a + c];
                mu += m[a] * unc[3 * a + c];
                mt += m[a];
                p += m[a] * vel[3 * a + c];
                p0 += m[a] * vel0[3 * a + c];
                disp[3 * a + c] = pos[3 * a + c] - unc[3 * a + c];
            }
            com_err = fmax(com_err, fabs(mc - mu) / mt);
            mom_err = fmax(mom_err, fabs(p - p0));
        }
        shake_res = fmax(shake_res, settle_shake_residual(m, ref, disp, wt));
    }
    printf("positions: largest violation %.3g A before, %.3g A after (tolerance 1e-10)\n", wu, wc);
    printf("  per water: centre-of-mass shift %.3g A, momentum change %.3g amu A/fs, SHAKE-form "
           "residual %.3g\n",
           com_err, mom_err, shake_res);
    CHECK(wu > 0.01);
    CHECK(wc <= 1e-10);
    CHECK(com_err <= 1e-12);
    CHECK(mom_err <= 1e-12);
    CHECK(shake_res <= 1e-10);

    /* velocities: random ones at the constrained positions */
    for (int32_t i = 0; i < 3 * n; ++i)
        vel[i] = vel0[i] = 0.02 * uniform_pm1();
    CHECK_OK(vkmd_host_constraints_velocities(&set, m, pos, vel, 1e-10));
    double rel_v = 0, rel_v0 = 0, dp = 0, dl = 0;
    for (int32_t w = 0; w < set.water_count; ++w) {
        const vkmd_water *wt = &set.waters[w];
        const int32_t pa[3] = {wt->o, wt->o, wt->h1}, pb[3] = {wt->h1, wt->h2, wt->h2};
        for (int k = 0; k < 3; ++k) {
            double r[3], dv[3], dv0[3];
            for (int c = 0; c < 3; ++c) {
                r[c] = pos[3 * pb[k] + c] - pos[3 * pa[k] + c];
                dv[c] = vel[3 * pb[k] + c] - vel[3 * pa[k] + c];
                dv0[c] = vel0[3 * pb[k] + c] - vel0[3 * pa[k] + c];
            }
            const double len = sqrt(dot3(r, r));
            rel_v = fmax(rel_v, fabs(dot3(dv, r)) / len);
            rel_v0 = fmax(rel_v0, fabs(dot3(dv0, r)) / len);
        }
        const int32_t at[3] = {wt->o, wt->h1, wt->h2};
        double p[3] = {0}, l[3] = {0};
        for (int q = 0; q < 3; ++q) {
            const int32_t a = at[q];
            double dvv[3];
            for (int c = 0; c < 3; ++c) {
                dvv[c] = m[a] * (vel[3 * a + c] - vel0[3 * a + c]);
                p[c] += dvv[c];
            }
            const double *x = pos + 3 * a;
            l[0] += x[1] * dvv[2] - x[2] * dvv[1];
            l[1] += x[2] * dvv[0] - x[0] * dvv[2];
            l[2] += x[0] * dvv[1] - x[1] * dvv[0];
        }
        dp = fmax(dp, sqrt(dot3(p, p)));
        dl = fmax(dl, sqrt(dot3(l, l)));
    }
    printf("velocities: largest relative velocity along a constraint %.3g A/fs before, %.3g "
           "after; momentum change %.3g amu A/fs, angular momentum change %.3g amu A^2/fs\n",
           rel_v0, rel_v, dp, dl);
    CHECK(rel_v0 > 1e-3);
    CHECK(rel_v <= 1e-12);
    CHECK(dp <= 1e-12);
    CHECK(dl <= 1e-10);
done:
    free(m);
    free(ref);
    free(pos);
    free(unc);
    free(vel);
    free(vel0);
    free(disp);
    vkmd_constraints_destroy(&set);
    vkmd_system_destroy(&sys);
}

static void water_too_far(void)
{
    vkmd_system sys = {0};
    vkmd_constraint_set set = {0};
    CHECK_OK(vkmd_water_box_build(8, VKMD_WATER_BOX_DEFAULT_SEED, &sys));
    CHECK_OK(vkmd_constraints_build(&sys, 1, 0, &set));
    double *m = masses_of(&sys), *pos = copy3(sys.positions, sys.atom_count);
    if (m && pos && !test_failures) {
        pos[3 * set.waters[2].o + 0] += 3.0; /* the oxygen leaves its molecule */
        vkmd_result r =
            vkmd_host_constraints_positions(&set, m, sys.positions, pos, NULL, 0, 1e-10);
        printf("water oxygen moved 3 A in one step: %s: %s\n", vkmd_result_str(r),
               vkmd_last_error());
        CHECK(r == VKMD_ERROR_NUMERIC);
        r = vkmd_host_constraints_positions(&set, m, sys.positions, pos, NULL, 0, 0.0);
        CHECK(r == VKMD_ERROR_INVALID_ARGUMENT);
    }
    free(m);
    free(pos);
    vkmd_constraints_destroy(&set);
    vkmd_system_destroy(&sys);
}

static void cluster_case(void)
{
    printf("== villin_vac, H-bond clusters\n");
    vkmd_system sys = {0};
    vkmd_constraint_set set = {0};
    double *m = NULL, *ref = NULL, *pos = NULL, *unc = NULL, *vel = NULL, *vel0 = NULL;
    CHECK_OK(vkmd_system_load(VKMD_TEST_DATA_DIR "/villin_vac.prmtop", NULL, &sys));
    if (test_failures)
        goto done;
    CHECK_OK(vkmd_constraints_build(&sys, 1, 1, &set));
    const int32_t n = sys.atom_count;
    int sizes[VKMD_HCLUSTER_MAX + 1] = {0}, sorted = 1, hydrogens = 0;
    for (int32_t k = 0; k < set.cluster_count; ++k) {
        ++sizes[set.clusters[k].h_count];
        sorted &= k == 0 || set.clusters[k - 1].center < set.clusters[k].center;
    }
    for (int32_t a = 0; a < n; ++a)
        hydrogens += sys.atoms[a].element == 1;
    printf("set: %d clusters (1 H: %d, 2 H: %d, 3 H: %d, 4 H: %d), %d constraints, %d hydrogens; "
           "dof %lld\n",
           set.cluster_count, sizes[1], sizes[2], sizes[3], sizes[4], set.constraint_count,
           hydrogens, (long long)vkmd_constraints_dof(&sys, &set, 1));
    CHECK(sorted);
    CHECK(set.water_count == 0);
    CHECK(set.constraint_count == hydrogens);
    CHECK(vkmd_constraints_dof(&sys, &set, 1) == 3 * (int64_t)n - hydrogens - 3);
    CHECK(vkmd_constraints_dof(&sys, &set, 0) == 3 * (int64_t)n - hydrogens);

    m = masses_of(&sys);
    ref = copy3(sys.positions, n);
    pos = calloc((size_t)3 * n, sizeof *pos);
    vel = calloc((size_t)3 * n, sizeof *vel);
    vel0 = calloc((size_t)3 * n, sizeof *vel0);
    unc = calloc((size_t)3 * n, sizeof *unc);
    CHECK(m && ref && pos && vel && vel0 && unc);
    if (test_failures)
        goto done;
    /* the loaded structure's bonds are not at r0: constrain it first */
    double w0, h0;
    vkmd_host_constraints_violation(&set, ref, &w0, &h0);
    memcpy(pos, ref, (size_t)3 * n * sizeof *pos);
    CHECK_OK(vkmd_host_constraints_positions(&set, m, ref, pos, NULL, 0, 1e-12));
    memcpy(ref, pos, (size_t)3 * n * sizeof *pos);
    double h1;
    vkmd_host_constraints_violation(&set, ref, &w0, &h1);
    printf("loaded structure: largest relative H-bond violation %.3g, constrained %.3g\n", h0, h1);
    CHECK(h1 <= 1e-12);

    static const double tols[2] = {1e-10, 1e-5};
    for (int t = 0; t < 2; ++t) {
        for (int32_t i = 0; i < 3 * n; ++i) {
            unc[i] = pos[i] = ref[i] + 0.03 * uniform_pm1();
            vel[i] = vel0[i] = 0.0;
        }
        double hu, hc;
        vkmd_host_constraints_violation(&set, unc, &w0, &hu);
        CHECK_OK(vkmd_host_constraints_positions(&set, m, ref, pos, vel, 1.0, tols[t]));
        vkmd_host_constraints_violation(&set, pos, &w0, &hc);
        double par = 0, mom = 0, still = 0;
        for (int32_t k = 0; k < set.cluster_count; ++k) {
            const vkmd_hcluster *cl = &set.clusters[k];
            double p[3] = {0};
            for (int q = -1; q < cl->h_count; ++q) {
                const int32_t a = q < 0 ? cl->center : cl->h[q];
                double d[3];
                for (int c = 0; c < 3; ++c) {
                    d[c] = pos[3 * a + c] - unc[3 * a + c];
                    p[c] += m[a] * vel[3 * a + c];
                }
                if (q >= 0) { /* |d x r0| / |r0|: the part of d across the bond */
                    double r0[3], x[3];
                    for (int c = 0; c < 3; ++c)
                        r0[c] = ref[3 * a + c] - ref[3 * cl->center + c];
                    x[0] = d[1] * r0[2] - d[2] * r0[1];
                    x[1] = d[2] * r0[0] - d[0] * r0[2];
                    x[2] = d[0] * r0[1] - d[1] * r0[0];
                    par = fmax(par, sqrt(dot3(x, x) / dot3(r0, r0)));
                }
            }
            mom = fmax(mom, sqrt(dot3(p, p)));
        }
        /* atoms outside every cluster do not move */
        for (int32_t a = 0; a < n; ++a)
            if (sys.atoms[a].element != 1)
                for (int c = 0; c < 3; ++c) {
                    int centre = 0;
                    for (int32_t k = 0; k < set.cluster_count && !centre; ++k)
                        centre = set.clusters[k].center == a;
                    if (!centre)
                        still = fmax(still, fabs(pos[3 * a + c] - unc[3 * a + c]));
                }
        printf("SHAKE tol %g: largest relative violation %.3g before, %.3g after; H displacement "
               "across its reference bond %.3g A; cluster momentum %.3g amu A/fs; unconstrained "
               "atoms moved %.3g A\n",
               tols[t], hu, hc, par, mom, still);
        CHECK(hu > 1e-3);
        CHECK(hc <= tols[t]);
        CHECK(par <= 1e-13);
        CHECK(mom <= 1e-12);
        CHECK(still == 0);
    }

    /* RATTLE at the tol = 1e-5 positions */
    for (int32_t i = 0; i < 3 * n; ++i)
        vel[i] = vel0[i] = 0.02 * uniform_pm1();
    CHECK_OK(vkmd_host_constraints_velocities(&set, m, pos, vel, 1e-5));
    double rel_v = 0, rel_v0 = 0, mom = 0;
    for (int32_t k = 0; k < set.cluster_count; ++k) {
        const vkmd_hcluster *cl = &set.clusters[k];
        double p[3] = {0};
        for (int q = 0; q < cl->h_count; ++q) {
            double r[3], dv[3], dv0[3];
            for (int c = 0; c < 3; ++c) {
                r[c] = pos[3 * cl->h[q] + c] - pos[3 * cl->center + c];
                dv[c] = vel[3 * cl->h[q] + c] - vel[3 * cl->center + c];
                dv0[c] = vel0[3 * cl->h[q] + c] - vel0[3 * cl->center + c];
            }
            rel_v = fmax(rel_v, fabs(dot3(dv, r)) / sqrt(dot3(r, r)));
            rel_v0 = fmax(rel_v0, fabs(dot3(dv0, r)) / sqrt(dot3(r, r)));
        }
        for (int q = -1; q < cl->h_count; ++q) {
            const int32_t a = q < 0 ? cl->center : cl->h[q];
            for (int c = 0; c < 3; ++c)
                p[c] += m[a] * (vel[3 * a + c] - vel0[3 * a + c]);
        }
        mom = fmax(mom, sqrt(dot3(p, p)));
    }
    printf("RATTLE: largest relative velocity along an H bond %.3g A/fs before, %.3g after; "
           "momentum change %.3g amu A/fs\n",
           rel_v0, rel_v, mom);
    CHECK(rel_v0 > 1e-3);
    CHECK(rel_v <= 1e-12);
    CHECK(mom <= 1e-12);
done:
    free(m);
    free(ref);
    free(pos);
    free(unc);
    free(vel);
    free(vel0);
    vkmd_constraints_destroy(&set);
    vkmd_system_destroy(&sys);
}

static void flexible_water(void)
{
    vkmd_system sys = {0};
    vkmd_constraint_set set = {0};
    CHECK_OK(vkmd_water_box_build(216, VKMD_WATER_BOX_DEFAULT_SEED, &sys));
    CHECK_OK(vkmd_constraints_build(&sys, 0, 1, &set));
    printf("water:216 flexible with H bonds: %d waters, %d clusters of %d H, %d constraints, dof "
           "%lld\n",
           set.water_count, set.cluster_count, set.cluster_count ? set.clusters[0].h_count : 0,
           set.constraint_count, (long long)vkmd_constraints_dof(&sys, &set, 1));
    CHECK(set.water_count == 0 && set.cluster_count == 216 && set.constraint_count == 432);
    CHECK(set.cluster_count > 0 && set.clusters[0].h_count == 2 &&
          fabs(set.clusters[0].d[0] - 0.9572) < 1e-12);
    vkmd_constraints_destroy(&set);
    CHECK_OK(vkmd_constraints_build(&sys, 0, 0, &set));
    CHECK(set.constraint_count == 0);
    CHECK(vkmd_constraints_dof(&sys, &set, 1) == 3 * 648 - 3);
    vkmd_constraints_destroy(&set);
    vkmd_system_destroy(&sys);
}

/* A heavy atom (element 6, atom 0) with `nh` hydrogens; with `second` an
 * extra carbon bonded to hydrogen 1 as well. */
static void small_system(vkmd_system *sys, int nh, int second)
{
    memset(sys, 0, sizeof *sys);
    const int32_t n = 1 + nh + (second ? 1 : 0);
    sys->atom_count = n;
    sys->atoms = calloc((size_t)n, sizeof *sys->atoms);
    sys->bonds = calloc((size_t)nh + 1, sizeof *sys->bonds);
    if (!sys->atoms || !sys->bonds)
        return;
    for (int32_t a = 0; a < n; ++a) {
        const int h = a >= 1 && a <= nh;
        snprintf(sys->atoms[a].name, sizeof sys->atoms[a].name, "%s%d", h ? "H" : "C", a);
        snprintf(sys->atoms[a].res_name, sizeof sys->atoms[a].res_name, "MOL");
        sys->atoms[a].element = h ? 1 : 6;
        sys->atoms[a].mass = h ? 1.008 : 12.011;
    }
    for (int k = 0; k < nh; ++k)
        sys->bonds[k] = (vkmd_bond){0, 1 + k, 340, 1.09};
    sys->bond_count = nh;
    if (second)
        sys->bonds[sys->bond_count++] = (vkmd_bond){1, n - 1, 340, 1.09};
}

static void expect_refusal(const char *what, const vkmd_system *sys, int rigid, int hbonds)
{
    vkmd_constraint_set set;
    vkmd_result r = vkmd_constraints_build(sys, rigid, hbonds, &set);
    printf("%s: %s: %s\n", what, vkmd_result_str(r), vkmd_last_error());
    CHECK(r == VKMD_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(vkmd_last_error(), "atom") != NULL);
    CHECK(set.clusters == NULL && set.waters == NULL && set.constraint_count == 0);
}

static void refusals(void)
{
    vkmd_system sys;
    vkmd_constraint_set set = {0};
    small_system(&sys, 4, 0);
    CHECK_OK(vkmd_constraints_build(&sys, 1, 1, &set));
    CHECK(set.cluster_count == 1 && set.clusters[0].h_count == 4);
    vkmd_constraints_destroy(&set);
    vkmd_system_destroy(&sys);

    small_system(&sys, 5, 0);
    expect_refusal("carbon with five hydrogens", &sys, 1, 1);
    vkmd_system_destroy(&sys);
    small_system(&sys, 2, 1);
    expect_refusal("hydrogen bonded to two carbons", &sys, 1, 1);
    vkmd_system_destroy(&sys);
    small_system(&sys, 2, 0);
    sys.atoms[0].mass = 0;
    expect_refusal("massless carbon", &sys, 1, 1);
    vkmd_system_destroy(&sys);

    CHECK_OK(vkmd_water_box_build(8, VKMD_WATER_BOX_DEFAULT_SEED, &sys));
    for (int32_t b = 0; b < sys.bond_count; ++b)
        if (sys.bonds[b].i == sys.waters[5].o || sys.bonds[b].j == sys.waters[5].o) {
            sys.bonds[b].r0 += 1e-4;
            break;
        }
    expect_refusal("one water with a longer O-H", &sys, 1, 0);
    vkmd_system_destroy(&sys);
}

int main(void)
{
    water_case(0.05);
    water_case(0.15);
    water_too_far();
    cluster_case();
    flexible_water();
    refusals();
    return test_finish("test_ref_constraints");
}
