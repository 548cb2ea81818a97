/* Host constraints (host_constraints.h): SETTLE for rigid waters and SHAKE /
 * RATTLE per H-bond cluster, in double precision.
 *
 * Positions:
 * - SETTLE (Miyamoto & Kollman, J. Comput. Chem. 13, 952 (1992)) moves a
 *   water's three atoms to the unique rigid triangle whose displacement is a
 *   combination of the three reference bond vectors (what SHAKE would reach
 *   iterating to convergence), analytically. It works in a frame whose z axis
 *   is the normal of the reference triangle and whose origin is the new
 *   centre of mass, with coordinates taken relative to the reference oxygen
 *   so that nothing subtracts two large absolute positions. Needs equal
 *   hydrogen masses (vkmd_constraints_build checks).
 * - A cluster (heavy atom c and hydrogens h_k) is solved by Newton's method
 *   on all its constraints at once (M-SHAKE): unknowns lambda_k with
 *     x_hk += lambda_k r0_k / m_hk,  x_c -= sum_k lambda_k r0_k / m_c,
 *   r0_k = ref_hk - ref_c (SHAKE's constraint-force directions), residuals
 *   f_k = |x_hk - x_c|^2 - d_k^2 and the exact k x k Jacobian; quadratic
 *   convergence, a few iterations for tol = 1e-10.
 * Velocities (RATTLE, and SETTLE's velocity part): the impulses along the
 *   current bond vectors that zero every relative velocity along a
 *   constraint solve a linear system of 1..4 (cluster) or 3 (water)
 *   unknowns, solved exactly by Gaussian elimination; for a water this is
 *   the same 3 x 3 system that Miyamoto & Kollman solve in closed form. */
#include "maths/host_constraints.h"

#include <math.h>
#include <string.h>

#define CLUSTER_MAX_ITERATIONS 1000
#define GROUP_MAX              (VKMD_HCLUSTER_MAX + 1) /* atoms of one group */

static double dot3(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross3(const double *a, const double *b, double *out)
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

static int normalize3(double *a)
{
    const double n = sqrt(dot3(a, a));
    if (!(n > 0))
        return 0;
    for (int c = 0; c < 3; ++c)
        a[c] /= n;
    return 1;
}

/* Solves a x = b (n <= GROUP_MAX) in place by Gaussian elimination with
 * partial pivoting; b becomes x. 0 if singular (or not finite). */
static int solve_small(int n, double a[GROUP_MAX][GROUP_MAX], double *b)
{
    for (int col = 0; col < n; ++col) {
        int piv = col;
        for (int r = col + 1; r < n; ++r)
            if (fabs(a[r][col]) > fabs(a[piv][col]))
                piv = r;
        if (!(fabs(a[piv][col]) > 0))
            return 0;
        if (piv != col) {
            for (int c = 0; c < n; ++c) {
                const double t = a[col][c];
                a[col][c] = a[piv][c];
                a[piv][c] = t;
            }
            const double t = b[col];
            b[col] = b[piv];
            b[piv] = t;
        }
        for (int r = col + 1; r < n; ++r) {
            const double f = a[r][col] / a[col][col];
            for (int c = col; c < n; ++c)
                a[r][c] -= f * a[col][c];
            b[r] -= f * b[col];
        }
    }
    for (int r = n - 1; r >= 0; --r) {
        double s = b[r];
        for (int c = r + 1; c < n; ++c)
            s -= a[r][c] * b[c];
        b[r] = s / a[r][r];
        if (!isfinite(b[r]))
            return 0;
    }
    return 1;
}

/* ---- SETTLE, positions ------------------------------------------------- */

/* Moves o1, h1, h2 (unconstrained) onto the rigid geometry; o0, p0, q0 are the
 * reference positions (O, H1, H2). 0 if the displacement is too large for a
 * solution (the new oxygen farther from the reference plane than ra, ...). */
static int settle_positions(double d_oh, double d_hh, double m_o, double m_h, const double *o0,
                            const double *p0, const double *q0, double *o1, double *h1, double *h2)
{
    double b0[3], c0[3], a1[3], b1[3], c1[3], com[3];
    const double inv_mt = 1.0 / (m_o + 2 * m_h);
    for (int c = 0; c < 3; ++c) {
        b0[c] = p0[c] - o0[c];
        c0[c] = q0[c] - o0[c];
        a1[c] = o1[c] - o0[c];
        b1[c] = h1[c] - o0[c];
        c1[c] = h2[c] - o0[c];
        com[c] = (m_o * a1[c] + m_h * (b1[c] + c1[c])) * inv_mt;
        a1[c] -= com[c];
        b1[c] -= com[c];
        c1[c] -= com[c];
    }
    /* frame: z normal to the reference plane, x normal to z and the new O */
    double ex[3], ey[3], ez[3];
    cross3(b0, c0, ez);
    cross3(a1, ez, ex);
    cross3(ez, ex, ey);
    if (!normalize3(ex) || !normalize3(ey) || !normalize3(ez))
        return 0;
    const double xb0 = dot3(ex, b0), yb0 = dot3(ey, b0);
    const double xc0 = dot3(ex, c0), yc0 = dot3(ey, c0);
    const double za1 = dot3(ez, a1);
    const double xb1 = dot3(ex, b1), yb1 = dot3(ey, b1), zb1 = dot3(ez, b1);
    const double xc1 = dot3(ex, c1), yc1 = dot3(ey, c1), zc1 = dot3(ez, c1);

    /* canonical triangle about the centre of mass: O (0, ra), H (-+rc, -rb) */
    const double rc = 0.5 * d_hh;
    const double height = sqrt(d_oh * d_oh - rc * rc);
    const double ra = 2 * m_h * height * inv_mt, rb = height - ra;

    /* tilt out of the plane: phi about x (from O's z), psi about y (from H-H's z) */
    const double sinphi = za1 / ra;
    if (!(fabs(sinphi) <= 1))
        return 0;
    const double cosphi = sqrt(1 - sinphi * sinphi);
    const double sinpsi = (zb1 - zc1) / (2 * rc * cosphi);
    if (!(fabs(sinpsi) <= 1))
        return 0;
    const double cospsi = sqrt(1 - sinpsi * sinpsi);
    const double ya2 = ra * cosphi;
    const double xb2 = -rc * cospsi;
    const double yb2 = -rb * cosphi - rc * sinpsi * sinphi;
    const double yc2 = -rb * cosphi + rc * sinpsi * sinphi;

    /* rotation theta about z that makes the displacement torque-free
     * (constraint forces along the reference bonds) */
    const double alpha = xb2 * (xb0 - xc0) + yb0 * yb2 + yc0 * yc2;
    const double beta = xb2 * (yc0 - yb0) + xb0 * yb2 + xc0 * yc2;
    const double gamma = xb0 * yb1 - xb1 * yb0 + xc0 * yc1 - xc1 * yc0;
    const double al2be2 = alpha * alpha + beta * beta;
    const double disc = al2be2 - gamma * gamma;
    if (!(disc >= 0) || !(al2be2 > 0))
        return 0;
    const double sintheta = (alpha * gamma - beta * sqrt(disc)) / al2be2;
    const double costheta = sqrt(1 - sintheta * sintheta);

    const double a3[3] = {-ya2 * sintheta, ya2 * costheta, za1};
    const double b3[3] = {xb2 * costheta - yb2 * sintheta, xb2 * sintheta + yb2 * costheta, zb1};
    const double c3[3] = {-xb2 * costheta - yc2 * sintheta, -xb2 * sintheta + yc2 * costheta, zc1};
    for (int c = 0; c < 3; ++c) {
        const double base = o0[c] + com[c];
        o1[c] = base + ex[c] * a3[0] + ey[c] * a3[1] + ez[c] * a3[2];
        h1[c] = base + ex[c] * b3[0] + ey[c] * b3[1] + ez[c] * b3[2];
        h2[c] = base + ex[c] * c3[0] + ey[c] * c3[1] + ez[c] * c3[2];
    }
    return 1;
}

/* ---- H clusters, positions (M-SHAKE) ----------------------------------- */

/* 1 when every |x_hk - x_c| is within tol * d_k; the largest relative error
 * in *out_worst. */
static int cluster_converged(const vkmd_hcluster *cl, const double *pos, double tol,
                             double *out_worst)
{
    double worst = 0;
    const double *xc = pos + 3 * cl->center;
    for (int k = 0; k < cl->h_count; ++k) {
        const double *xh = pos + 3 * cl->h[k];
        const double s[3] = {xh[0] - xc[0], xh[1] - xc[1], xh[2] - xc[2]};
        const double e = fabs(sqrt(dot3(s, s)) - cl->d[k]) / cl->d[k];
        if (!(e <= worst))
            worst = isnan(e) ? INFINITY : e;
    }
    *out_worst = worst;
    return worst <= tol;
}

static vkmd_result shake_cluster(const vkmd_hcluster *cl, const double *mass, const double *ref,
                                 double *pos, double tol)
{
    const int n = cl->h_count;
    const int32_t ic = cl->center;
    const double wc = 1.0 / mass[ic];
    double r0[VKMD_HCLUSTER_MAX][3], s0[VKMD_HCLUSTER_MAX][3], wh[VKMD_HCLUSTER_MAX];
    double lambda[VKMD_HCLUSTER_MAX] = {0};
    for (int k = 0; k < n; ++k) {
        const int32_t ih = cl->h[k];
        wh[k] = 1.0 / mass[ih];
        for (int c = 0; c < 3; ++c) {
            r0[k][c] = ref[3 * ih + c] - ref[3 * ic + c];
            s0[k][c] = pos[3 * ih + c] - pos[3 * ic + c];
        }
    }
    double worst;
    if (cluster_converged(cl, pos, tol, &worst))
        return VKMD_OK;
    for (int it = 0; it < CLUSTER_MAX_ITERATIONS; ++it) {
        /* s_k(lambda) = s0_k + wh_k lambda_k r0_k + wc sum_l lambda_l r0_l */
        double shift_c[3] = {0, 0, 0};
        for (int l = 0; l < n; ++l)
            for (int c = 0; c < 3; ++c)
                shift_c[c] += wc * lambda[l] * r0[l][c];
        double s[VKMD_HCLUSTER_MAX][3], f[GROUP_MAX], jac[GROUP_MAX][GROUP_MAX];
        for (int k = 0; k < n; ++k) {
            for (int c = 0; c < 3; ++c)
                s[k][c] = s0[k][c] + wh[k] * lambda[k] * r0[k][c] + shift_c[c];
            f[k] = -(dot3(s[k], s[k]) - cl->d[k] * cl->d[k]);
            for (int l = 0; l < n; ++l)
                jac[k][l] = 2 * (wc + (k == l ? wh[k] : 0)) * dot3(s[k], r0[l]);
        }
        if (!solve_small(n, jac, f))
            break;
        for (int k = 0; k < n; ++k)
            lambda[k] += f[k];
        /* apply from the unconstrained positions, so nothing accumulates */
        double xc[3];
        for (int c = 0; c < 3; ++c) {
            xc[c] = pos[3 * ic + c];
            for (int l = 0; l < n; ++l)
                xc[c] -= wc * lambda[l] * r0[l][c];
        }
        double trial_h[VKMD_HCLUSTER_MAX][3];
        for (int k = 0; k < n; ++k)
            for (int c = 0; c < 3; ++c)
                trial_h[k][c] = pos[3 * cl->h[k] + c] + wh[k] * lambda[k] * r0[k][c];
        /* convergence on the trial positions, written only once converged */
        double e_worst = 0;
        for (int k = 0; k < n; ++k) {
            const double d[3] = {trial_h[k][0] - xc[0], trial_h[k][1] - xc[1],
                                 trial_h[k][2] - xc[2]};
            const double e = fabs(sqrt(dot3(d, d)) - cl->d[k]) / cl->d[k];
            if (!(e <= e_worst))
                e_worst = isnan(e) ? INFINITY : e;
        }
        worst = e_worst;
        if (e_worst <= tol) {
            for (int c = 0; c < 3; ++c)
                pos[3 * ic + c] = xc[c];
            for (int k = 0; k < n; ++k)
                for (int c = 0; c < 3; ++c)
                    pos[3 * cl->h[k] + c] = trial_h[k][c];
            return VKMD_OK;
        }
        if (!isfinite(e_worst))
            break;
    }
    return vkmd_fail(VKMD_ERROR_NUMERIC,
                     "constraints: the H cluster of atom %d (%d hydrogens) did not converge to a "
                     "relative tolerance of %g (largest error %g)",
                     ic + 1, n, tol, worst);
}

/* ---- velocities (RATTLE; SETTLE's velocity part) ----------------------- */

/* Zeroes the relative velocity along every constraint (ci[k], cj[k]) of a
 * group of `na` atoms `atoms` (constraint ends are group-local indices). */
static int rattle_group(int na, const int32_t *atoms, int nc, const int *ci, const int *cj,
                        const double *mass, const double *pos, double *vel)
{
    double r[GROUP_MAX][3], w[GROUP_MAX], a[GROUP_MAX][GROUP_MAX], b[GROUP_MAX];
    for (int q = 0; q < na; ++q)
        w[q] = 1.0 / mass[atoms[q]];
    for (int k = 0; k < nc; ++k) {
        const double *xi = pos + 3 * atoms[ci[k]], *xj = pos + 3 * atoms[cj[k]];
        const double *vi = vel + 3 * atoms[ci[k]], *vj = vel + 3 * atoms[cj[k]];
        for (int c = 0; c < 3; ++c)
            r[k][c] = xj[c] - xi[c];
        const double dv[3] = {vj[0] - vi[0], vj[1] - vi[1], vj[2] - vi[2]};
        b[k] = -dot3(dv, r[k]);
    }
    /* impulse lambda_l r_l on cj[l], -lambda_l r_l on ci[l] */
    for (int k = 0; k < nc; ++k)
        for (int l = 0; l < nc; ++l) {
            const double cjk = w[cj[k]] * ((cj[k] == cj[l]) - (cj[k] == ci[l]));
            const double cik = w[ci[k]] * ((ci[k] == cj[l]) - (ci[k] == ci[l]));
            a[k][l] = (cjk - cik) * dot3(r[k], r[l]);
        }
    if (!solve_small(nc, a, b))
        return 0;
    for (int l = 0; l < nc; ++l)
        for (int c = 0; c < 3; ++c) {
            vel[3 * atoms[cj[l]] + c] += w[cj[l]] * b[l] * r[l][c];
            vel[3 * atoms[ci[l]] + c] -= w[ci[l]] * b[l] * r[l][c];
        }
    return 1;
}

/* ---- public ------------------------------------------------------------ */

vkmd_result vkmd_host_constraints_positions(const vkmd_constraint_set *set, const double *mass,
                                            const double *ref, double *pos, double *vel,
                                            double dt_fs, double tol)
{
    if (!(tol > 0))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "constraints: tolerance %g (must be > 0, relative)", tol);
    const int fix_vel = vel && dt_fs > 0;
    for (int32_t w = 0; w < set->water_count; ++w) {
        const vkmd_water *wt = &set->waters[w];
        const int32_t at[3] = {wt->o, wt->h1, wt->h2};
        double before[9];
        for (int q = 0; q < 3; ++q)
            memcpy(before + 3 * q, pos + 3 * at[q], 3 * sizeof(double));
        if (!settle_positions(set->water_d_oh, set->water_d_hh, mass[wt->o], mass[wt->h1],
                              ref + 3 * wt->o, ref + 3 * wt->h1, ref + 3 * wt->h2, pos + 3 * wt->o,
                              pos + 3 * wt->h1, pos + 3 * wt->h2))
            return vkmd_fail(VKMD_ERROR_NUMERIC,
                             "constraints: SETTLE has no solution for the water of atom %d (moved "
                             "too far in one step, or a degenerate reference geometry)",
                             wt->o + 1);
        if (fix_vel)
            for (int q = 0; q < 3; ++q)
                for (int c = 0; c < 3; ++c)
                    vel[3 * at[q] + c] += (pos[3 * at[q] + c] - before[3 * q + c]) / dt_fs;
    }
    for (int32_t k = 0; k < set->cluster_count; ++k) {
        const vkmd_hcluster *cl = &set->clusters[k];
        double before[3 * GROUP_MAX];
        const int32_t atoms[GROUP_MAX] = {cl->center, cl->h[0], cl->h[1], cl->h[2], cl->h[3]};
        for (int q = 0; q <= cl->h_count; ++q)
            memcpy(before + 3 * q, pos + 3 * atoms[q], 3 * sizeof(double));
        vkmd_result res = shake_cluster(cl, mass, ref, pos, tol);
        if (res != VKMD_OK)
            return res;
        if (fix_vel)
            for (int q = 0; q <= cl->h_count; ++q)
                for (int c = 0; c < 3; ++c)
                    vel[3 * atoms[q] + c] += (pos[3 * atoms[q] + c] - before[3 * q + c]) / dt_fs;
    }
    return VKMD_OK;
}

vkmd_result vkmd_host_constraints_velocities(const vkmd_constraint_set *set, const double *mass,
                                             const double *pos, double *vel, double tol)
{
    (void)tol; /* exact linear solves: no tolerance needed */
    static const int water_ci[3] = {0, 0, 1}, water_cj[3] = {1, 2, 2};
    static const int cluster_ci[VKMD_HCLUSTER_MAX] = {0, 0, 0, 0};
    static const int cluster_cj[VKMD_HCLUSTER_MAX] = {1, 2, 3, 4};
    for (int32_t w = 0; w < set->water_count; ++w) {
        const vkmd_water *wt = &set->waters[w];
        const int32_t atoms[3] = {wt->o, wt->h1, wt->h2};
        if (!rattle_group(3, atoms, 3, water_ci, water_cj, mass, pos, vel))
            return vkmd_fail(VKMD_ERROR_NUMERIC,
                             "constraints: velocity constraint of the water of atom %d is singular "
                             "(degenerate geometry)",
                             wt->o + 1);
    }
    for (int32_t k = 0; k < set->cluster_count; ++k) {
        const vkmd_hcluster *cl = &set->clusters[k];
        const int32_t atoms[GROUP_MAX] = {cl->center, cl->h[0], cl->h[1], cl->h[2], cl->h[3]};
        if (!rattle_group(cl->h_count + 1, atoms, cl->h_count, cluster_ci, cluster_cj, mass, pos,
                          vel))
            return vkmd_fail(VKMD_ERROR_NUMERIC,
                             "constraints: velocity constraint of the H cluster of atom %d is "
                             "singular (degenerate geometry)",
                             cl->center + 1);
    }
    return VKMD_OK;
}

void vkmd_host_constraints_violation(const vkmd_constraint_set *set, const double *pos,
                                     double *out_water_max_a, double *out_hbond_max_rel)
{
    double wmax = 0, hmax = 0;
    for (int32_t w = 0; w < set->water_count; ++w) {
        const vkmd_water *wt = &set->waters[w];
        const int32_t pa[3] = {wt->o, wt->o, wt->h1}, pb[3] = {wt->h1, wt->h2, wt->h2};
        for (int k = 0; k < 3; ++k) {
            const double *a = pos + 3 * pa[k], *b = pos + 3 * pb[k];
            const double d[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
            const double e = fabs(sqrt(dot3(d, d)) - (k < 2 ? set->water_d_oh : set->water_d_hh));
            if (!(e <= wmax))
                wmax = isnan(e) ? INFINITY : e;
        }
    }
    for (int32_t k = 0; k < set->cluster_count; ++k) {
        double e;
        cluster_converged(&set->clusters[k], pos, 0, &e);
        if (!(e <= hmax))
            hmax = e;
    }
    *out_water_max_a = wmax;
    *out_hbond_max_rel = hmax;
}
