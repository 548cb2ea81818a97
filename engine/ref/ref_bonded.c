/* Reference bonds, angles and dihedrals (propers and impropers), CHARMM's
 * Urey-Bradley terms and harmonic impropers, plus the minimum-image
 * displacement every reference term shares.
 *
 * Surprises:
 * - Minimum image uses floor(x + 0.5), as OpenMM does, so a pair exactly half
 *   a box apart resolves the same way in both codes.
 * - Bonded terms use the minimum image when the box is periodic. OpenMM 7.7's
 *   bonded forces default to plain differences; both agree whenever molecules
 *   are whole (every input we read), and the minimum image also survives
 *   coordinates wrapped atom by atom.
 * - Angles come from atan2(|a x b|, a . b) and forces from cross products, so
 *   nothing divides by sin(theta); a linear angle (|a x b| -> 0) has no defined
 *   force direction and its cross product is clamped like OpenMM's (1e-6).
 * - Dihedrals follow the IUPAC sign convention that OpenMM uses (phi > 0 when,
 *   looking down j->k, l is clockwise from i); the force is the
 *   Blondel-Karplus / Bekker form with no acos and no 1/sin(phi). */
#include "ref/ref.h"
#include "ref/ref_forms.h"

#include <math.h>

void ref_delta(const vkmd_box *box, const double *a, const double *b, double out_d[3])
{
    for (int c = 0; c < 3; ++c)
        out_d[c] = b[c] - a[c];
    vkmd_box_min_image(box, out_d);
}

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

/* Harmonic pair terms E = k (r - r0)^2 over `count` entries of `list`: the
 * bonds and, with the same form, CHARMM's Urey-Bradley 1-3 pairs. */
static double harmonic_pairs(const vkmd_system *sys, const vkmd_bond *list, int32_t count,
                             double *f)
{
    const double *x = sys->positions;
    double energy = 0;
    for (int32_t n = 0; n < count; ++n) {
        const vkmd_bond *b = &list[n];
        double d[3];
        ref_delta(&sys->box, &x[3 * b->i], &x[3 * b->j], d); /* r_j - r_i */
        double r = sqrt(dot3(d, d));
        double de_dr;
        energy += form_bond(r, b->k, b->r0, &de_dr);
        if (f && r > 0) {
            double s = de_dr / r; /* force on i is +s d: the bond pulls i towards j */
            for (int c = 0; c < 3; ++c) {
                f[3 * b->i + c] += s * d[c];
                f[3 * b->j + c] -= s * d[c];
            }
        }
    }
    return energy;
}

double ref_bonds(const vkmd_system *sys, double *f)
{
    return harmonic_pairs(sys, sys->bonds, sys->bond_count, f);
}

double ref_angles(const vkmd_system *sys, double *f)
{
    const double *x = sys->positions;
    double energy = 0;
    for (int32_t n = 0; n < sys->angle_count; ++n) {
        const vkmd_angle *t = &sys->angles[n];
        double a[3], b[3], p[3];
        ref_delta(&sys->box, &x[3 * t->j], &x[3 * t->i], a); /* apex -> i */
        ref_delta(&sys->box, &x[3 * t->j], &x[3 * t->k], b); /* apex -> k */
        cross3(a, b, p);
        double p_len = sqrt(dot3(p, p));
        double theta = atan2(p_len, dot3(a, b));
        double de_dtheta;
        energy += form_angle(theta, t->k_theta, t->theta0, &de_dtheta);
        if (!f)
            continue;
        if (p_len < 1e-6)
            p_len = 1e-6;
        /* dtheta/dr_i = (a x p) / (|a|^2 |p|), dtheta/dr_k = (p x b) / (|b|^2 |p|). */
        double ga[3], gb[3];
        cross3(a, p, ga);
        cross3(p, b, gb);
        double sa = -de_dtheta / (dot3(a, a) * p_len);
        double sb = -de_dtheta / (dot3(b, b) * p_len);
        for (int c = 0; c < 3; ++c) {
            double fi = sa * ga[c], fk = sb * gb[c];
            f[3 * t->i + c] += fi;
            f[3 * t->k + c] += fk;
            f[3 * t->j + c] -= fi + fk;
        }
    }
    return energy;
}

double ref_dihedral_angle(const vkmd_box *box, const double *xi, const double *xj, const double *xk,
                          const double *xl)
{
    double b1[3], b2[3], b3[3], n1[3], n2[3];
    ref_delta(box, xi, xj, b1);
    ref_delta(box, xj, xk, b2);
    ref_delta(box, xk, xl, b3);
    cross3(b1, b2, n1);
    cross3(b2, b3, n2);
    return atan2(sqrt(dot3(b2, b2)) * dot3(b1, n2), dot3(n1, n2));
}

double ref_dihedrals(const vkmd_system *sys, double *f, double *out_improper)
{
    const double *x = sys->positions;
    double energy = 0, improper = 0;
    for (int32_t n = 0; n < sys->dihedral_count; ++n) {
        const vkmd_dihedral *d = &sys->dihedrals[n];
        double b1[3], b2[3], b3[3], n1[3], n2[3];
        ref_delta(&sys->box, &x[3 * d->i], &x[3 * d->j], b1);
        ref_delta(&sys->box, &x[3 * d->j], &x[3 * d->k], b2);
        ref_delta(&sys->box, &x[3 * d->k], &x[3 * d->l], b3);
        cross3(b1, b2, n1);
        cross3(b2, b3, n2);
        double b2_len2 = dot3(b2, b2), b2_len = sqrt(b2_len2);
        double phi = atan2(b2_len * dot3(b1, n2), dot3(n1, n2));
        double de_dphi;
        double e = form_dihedral(phi, d->k_phi, d->periodicity, d->phase, &de_dphi);
        energy += e;
        if (d->improper)
            improper += e;
        double n1_len2 = dot3(n1, n1), n2_len2 = dot3(n2, n2);
        /* A collinear triple has no plane and no torque: skip its force. */
        if (!f || n1_len2 < 1e-24 || n2_len2 < 1e-24 || b2_len2 <= 0)
            continue;
        /* dphi/dr_i = -|b2| n1 / |n1|^2, dphi/dr_l = +|b2| n2 / |n2|^2; the
         * middle atoms take the rest so that force and torque sum to zero:
         * the axial offsets p, q of i and l along b2 shift load between j and k. */
        double fi[3], fl[3];
        double si = de_dphi * b2_len / n1_len2;  /* F_i = -dE/dphi dphi/dr_i */
        double sl = -de_dphi * b2_len / n2_len2; /* F_l = -dE/dphi dphi/dr_l */
        double p = dot3(b1, b2) / b2_len2, q = dot3(b3, b2) / b2_len2;
        for (int c = 0; c < 3; ++c) {
            fi[c] = si * n1[c];
            fl[c] = sl * n2[c];
        }
        for (int c = 0; c < 3; ++c) {
            double fj = q * fl[c] - (1.0 + p) * fi[c];
            double fk = p * fi[c] - (1.0 + q) * fl[c];
            f[3 * d->i + c] += fi[c];
            f[3 * d->j + c] += fj;
            f[3 * d->k + c] += fk;
            f[3 * d->l + c] += fl[c];
        }
    }
    if (out_improper)
        *out_improper = improper;
    return energy;
}

void ref_dihedral_apply(const vkmd_box *box, const double *x, int32_t i, int32_t j, int32_t k,
                        int32_t l, double de_dphi, double *f)
{
    double b1[3], b2[3], b3[3], n1[3], n2[3];
    ref_delta(box, &x[3 * i], &x[3 * j], b1);
    ref_delta(box, &x[3 * j], &x[3 * k], b2);
    ref_delta(box, &x[3 * k], &x[3 * l], b3);
    cross3(b1, b2, n1);
    cross3(b2, b3, n2);
    double b2_len2 = dot3(b2, b2), b2_len = sqrt(b2_len2);
    double n1_len2 = dot3(n1, n1), n2_len2 = dot3(n2, n2);
    if (n1_len2 < 1e-24 || n2_len2 < 1e-24 || b2_len2 <= 0)
        return;
    double si = de_dphi * b2_len / n1_len2, sl = -de_dphi * b2_len / n2_len2;
    double p = dot3(b1, b2) / b2_len2, q = dot3(b3, b2) / b2_len2;
    for (int c = 0; c < 3; ++c) {
        double fi = si * n1[c], fl = sl * n2[c];
        f[3 * i + c] += fi;
        f[3 * j + c] += q * fl - (1.0 + p) * fi;
        f[3 * k + c] += p * fi - (1.0 + q) * fl;
        f[3 * l + c] += fl;
    }
}

double ref_urey_bradley(const vkmd_system *sys, double *f)
{
    return harmonic_pairs(sys, sys->urey_bradleys, sys->urey_bradley_count, f);
}

double ref_impropers_harmonic(const vkmd_system *sys, double *f)
{
    const double *x = sys->positions;
    double energy = 0;
    for (int32_t n = 0; n < sys->improper_harmonic_count; ++n) {
        const vkmd_improper_harmonic *d = &sys->impropers_harmonic[n];
        double psi =
            ref_dihedral_angle(&sys->box, &x[3 * d->i], &x[3 * d->j], &x[3 * d->k], &x[3 * d->l]);
        double de_dpsi;
        energy += form_improper_harmonic(psi, d->k_psi, d->psi0, &de_dpsi);
        if (f)
            ref_dihedral_apply(&sys->box, x, d->i, d->j, d->k, d->l, de_dpsi, f);
    }
    return energy;
}
