/* Functional forms of every AMBER term, written once for the CPU reference and
 * mirrored line by line in shaders/common/forms.glsl (same names, float).
 *
 * Each form returns the energy (kcal/mol) and writes the scalar derivative the
 * caller needs to build Cartesian forces:
 *   bonded forms give dE/dr or dE/dtheta or dE/dphi;
 *   pair forms give f_over_r = -(dE/dr) / r, so the force on atom i of the
 *   pair is f_over_r * (r_i - r_j) with no square root or division in the loop.
 * Pair forms take r and 1/r together because every caller has both.
 *
 * Surprise: form_coulomb_excl returns the NEGATIVE of k q q erf(alpha r)/r. It
 * removes the smooth part of an excluded pair that the reciprocal sum added,
 * and it is finite at r -> 0 (the limit 2 alpha/sqrt(pi)), which is why Ewald
 * needs the self term rather than a singular correction. */
#ifndef VKMD_REF_REF_FORMS_H
#define VKMD_REF_REF_FORMS_H

#include <math.h>

#define REF_TWO_OVER_SQRT_PI 1.12837916709551257390 /* 2 / sqrt(pi) */

/* E = k (r - r0)^2; *out_de_dr = 2 k (r - r0). */
static inline double form_bond(double r, double k, double r0, double *out_de_dr)
{
    double dr = r - r0;
    *out_de_dr = 2.0 * k * dr;
    return k * dr * dr;
}

/* E = k (theta - theta0)^2; *out_de_dtheta = 2 k (theta - theta0). */
static inline double form_angle(double theta, double k, double theta0, double *out_de_dtheta)
{
    double d = theta - theta0;
    *out_de_dtheta = 2.0 * k * d;
    return k * d * d;
}

/* E = k (1 + cos(n phi - phase)); *out_de_dphi = -k n sin(n phi - phase).
 * Propers and impropers alike. */
static inline double form_dihedral(double phi, double k, int n, double phase, double *out_de_dphi)
{
    double a = (double)n * phi - phase;
    *out_de_dphi = -k * (double)n * sin(a);
    return k * (1.0 + cos(a));
}

/* E = A / r^12 - B / r^6. */
static inline double form_lj(double inv_r2, double a, double b, double *out_f_over_r)
{
    double inv_r6 = inv_r2 * inv_r2 * inv_r2;
    double e12 = a * inv_r6 * inv_r6;
    double e6 = b * inv_r6;
    *out_f_over_r = (12.0 * e12 - 6.0 * e6) * inv_r2;
    return e12 - e6;
}

/* Plain Coulomb, E = kqq / r (kqq = coulomb_k q_i q_j, scaled for 1-4). */
static inline double form_coulomb(double inv_r, double kqq, double *out_f_over_r)
{
    double e = kqq * inv_r;
    *out_f_over_r = e * inv_r * inv_r;
    return e;
}

/* Ewald real space, E = kqq erfc(alpha r) / r. */
static inline double form_coulomb_erfc(double r, double inv_r, double kqq, double alpha,
                                       double *out_f_over_r)
{
    double ar = alpha * r;
    double e = kqq * erfc(ar) * inv_r;
    *out_f_over_r = (e + kqq * alpha * REF_TWO_OVER_SQRT_PI * exp(-ar * ar)) * inv_r * inv_r;
    return e;
}

/* Excluded-pair correction, E = -kqq erf(alpha r) / r (see the file comment). */
static inline double form_coulomb_excl(double r, double inv_r, double kqq, double alpha,
                                       double *out_f_over_r)
{
    double ar = alpha * r;
    double e = -kqq * erf(ar) * inv_r;
    *out_f_over_r = (e + kqq * alpha * REF_TWO_OVER_SQRT_PI * exp(-ar * ar)) * inv_r * inv_r;
    return e;
}

#endif
