/* UFF bond, angle, torsion and inversion terms on the CPU in double
 * precision (see ref_uff.h). Angular terms go through the cosine of their
 * angle and its exact Cartesian gradient. */
#include "ref/ref_uff.h"
#include "ref/ref_uff_forms.h"

#include <math.h>
#include <string.h>

static void sub3(const double *a, const double *b, double out[3])
{
    out[0] = a[0] - b[0];
    out[1] = a[1] - b[1];
    out[2] = a[2] - b[2];
}

static double dot3(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross3(const double *a, const double *b, double out[3])
{
    double x = a[1] * b[2] - a[2] * b[1];
    double y = a[2] * b[0] - a[0] * b[2];
    double z = a[0] * b[1] - a[1] * b[0];
    out[0] = x;
    out[1] = y;
    out[2] = z;
}

/* dc/da and dc/db of c = a.b / (|a||b|). 0 if a or b has zero length. */
static double cos_between(const double *a, const double *b, double ga[3], double gb[3])
{
    double la2 = dot3(a, a), lb2 = dot3(b, b);
    if (!(la2 > 0.0) || !(lb2 > 0.0)) {
        memset(ga, 0, 3 * sizeof *ga);
        memset(gb, 0, 3 * sizeof *gb);
        return 1.0;
    }
    double inv = 1.0 / sqrt(la2 * lb2);
    double c = dot3(a, b) * inv;
    for (int d = 0; d < 3; ++d) {
        ga[d] = b[d] * inv - c * a[d] / la2;
        gb[d] = a[d] * inv - c * b[d] / lb2;
    }
    return c;
}

double ref_uff_cos_angle(const double *xi, const double *xj, const double *xk, double out_g[9])
{
    double u[3], v[3], gu[3], gv[3];
    sub3(xi, xj, u);
    sub3(xk, xj, v);
    double c = cos_between(u, v, gu, gv);
    for (int d = 0; d < 3; ++d) {
        out_g[d] = gu[d];
        out_g[3 + d] = -gu[d] - gv[d];
        out_g[6 + d] = gv[d];
    }
    return c;
}

double ref_uff_cos_torsion(const double *xi, const double *xj, const double *xk, const double *xl,
                           double out_g[12])
{
    double r1[3], r2[3], r3[3], r4[3], t1[3], t2[3], g1[3], g2[3], a[3];
    sub3(xi, xj, r1);
    sub3(xk, xj, r2);
    sub3(xj, xk, r3);
    sub3(xl, xk, r4);
    cross3(r1, r2, t1);
    cross3(r3, r4, t2);
    double c = cos_between(t1, t2, g1, g2);
    double *gi = out_g, *gj = out_g + 3, *gk = out_g + 6, *gl = out_g + 9;
    memset(out_g, 0, 12 * sizeof *out_g);
    /* t1 = r1 x r2 with r1 = xi - xj, r2 = xk - xj */
    cross3(r2, g1, a);
    for (int d = 0; d < 3; ++d) {
        gi[d] += a[d];
        gj[d] -= a[d];
    }
    cross3(g1, r1, a);
    for (int d = 0; d < 3; ++d) {
        gk[d] += a[d];
        gj[d] -= a[d];
    }
    /* t2 = r3 x r4 with r3 = xj - xk, r4 = xl - xk */
    cross3(r4, g2, a);
    for (int d = 0; d < 3; ++d) {
        gj[d] += a[d];
        gk[d] -= a[d];
    }
    cross3(g2, r3, a);
    for (int d = 0; d < 3; ++d) {
        gl[d] += a[d];
        gk[d] -= a[d];
    }
    return c;
}

double ref_uff_cos_inversion(const double *xi, const double *xj, const double *xk, const double *xl,
                             double out_g[12])
{
    double u[3], v[3], w[3], n[3], gn[3], gw[3], a[3];
    sub3(xi, xj, u);
    sub3(xk, xj, v);
    sub3(xl, xj, w);
    cross3(u, v, n);
    double c = cos_between(n, w, gn, gw);
    double *gi = out_g, *gj = out_g + 3, *gk = out_g + 6, *gl = out_g + 9;
    cross3(v, gn, a);
    for (int d = 0; d < 3; ++d)
        gi[d] = a[d];
    cross3(gn, u, a);
    for (int d = 0; d < 3; ++d) {
        gk[d] = a[d];
        gl[d] = gw[d];
        gj[d] = -(gi[d] + gk[d] + gl[d]);
    }
    return c;
}

double ref_uff_bonds(const vkmd_uff_terms *t, const double *pos, double *f)
{
    double e = 0.0;
    for (int32_t n = 0; n < t->bond_count; ++n) {
        const vkmd_uff_bond_term *b = &t->bonds[n];
        double d[3];
        sub3(pos + 3 * b->i, pos + 3 * b->j, d);
        double r = sqrt(dot3(d, d));
        double de_dr;
        e += uff_form_bond(r, b->kb, b->r0, &de_dr);
        if (f && r > 0.0) {
            double s = de_dr / r;
            for (int k = 0; k < 3; ++k) {
                f[3 * b->i + k] -= s * d[k];
                f[3 * b->j + k] += s * d[k];
            }
        }
    }
    return e;
}

double ref_uff_angles(const vkmd_uff_terms *t, const double *pos, double *f)
{
    double e = 0.0;
    for (int32_t n = 0; n < t->angle_count; ++n) {
        const vkmd_uff_angle_term *a = &t->angles[n];
        double g[9], de_dc;
        double c = ref_uff_cos_angle(pos + 3 * a->i, pos + 3 * a->j, pos + 3 * a->k, g);
        e += uff_form_angle(c, a->ka, a->order, a->c0, a->c1, a->c2, &de_dc);
        if (f) {
            const int32_t at[3] = {a->i, a->j, a->k};
            for (int q = 0; q < 3; ++q)
                for (int k = 0; k < 3; ++k)
                    f[3 * at[q] + k] -= de_dc * g[3 * q + k];
        }
    }
    return e;
}

double ref_uff_torsions(const vkmd_uff_terms *t, const double *pos, double *f)
{
    double e = 0.0;
    for (int32_t n = 0; n < t->torsion_count; ++n) {
        const vkmd_uff_torsion_term *d = &t->torsions[n];
        double g[12], de_dc;
        double c =
            ref_uff_cos_torsion(pos + 3 * d->i, pos + 3 * d->j, pos + 3 * d->k, pos + 3 * d->l, g);
        e += uff_form_torsion(c, d->v, d->n, d->cos_term, &de_dc);
        if (f) {
            const int32_t at[4] = {d->i, d->j, d->k, d->l};
            for (int q = 0; q < 4; ++q)
                for (int k = 0; k < 3; ++k)
                    f[3 * at[q] + k] -= de_dc * g[3 * q + k];
        }
    }
    return e;
}

double ref_uff_inversions(const vkmd_uff_terms *t, const double *pos, double *f)
{
    double e = 0.0;
    for (int32_t n = 0; n < t->inversion_count; ++n) {
        const vkmd_uff_inversion_term *v = &t->inversions[n];
        double g[12], de_dc;
        double c = ref_uff_cos_inversion(pos + 3 * v->i, pos + 3 * v->j, pos + 3 * v->k,
                                         pos + 3 * v->l, g);
        e += uff_form_inversion(c, v->k_inv, v->c0, v->c1, v->c2, &de_dc);
        if (f) {
            const int32_t at[4] = {v->i, v->j, v->k, v->l};
            for (int q = 0; q < 4; ++q)
                for (int k = 0; k < 3; ++k)
                    f[3 * at[q] + k] -= de_dc * g[3 * q + k];
        }
    }
    return e;
}
