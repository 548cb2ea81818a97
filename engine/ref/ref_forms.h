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
#include <stdint.h>
#include <string.h>

#define REF_TWO_OVER_SQRT_PI 1.12837916709551257390 /* 2 / sqrt(pi) */

/* E = k (r - r0)^2; *out_de_dr = 2 k (r - r0). */
static inline double form_bond(double r, double k, double r0, double *out_de_dr)
{
    double dr = r - r0;
    *out_de_dr = 2.0 * k * dr;
    return k * dr * dr;
}

/* Positional restraint on a displacement d with |d|^2 = r2: E = k |d|^2
 * (r_fb = 0), or the flat bottom E = k (|d| - r_fb)^2 beyond r_fb and 0
 * inside; the force on the atom is -(*out_g) d. */
static inline double form_restraint(double r2, double k, double r_fb, double *out_g)
{
    if (r_fb <= 0) {
        *out_g = 2.0 * k;
        return k * r2;
    }
    double r = sqrt(r2);
    if (r <= r_fb) {
        *out_g = 0;
        return 0;
    }
    double excess = r - r_fb;
    *out_g = 2.0 * k * excess / r;
    return k * excess * excess;
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

/* CHARMM harmonic improper E = k d^2, d = psi - psi0 wrapped into [-pi, pi)
 * (OpenMM's and ParmEd's dtheta_torus); *out_de_dpsi = 2 k d. */
static inline double form_improper_harmonic(double psi, double k, double psi0, double *out_de_dpsi)
{
    const double two_pi = 6.28318530717958647692;
    double d = psi - psi0;
    d -= two_pi * floor(d / two_pi + 0.5);
    *out_de_dpsi = 2.0 * k * d;
    return k * d * d;
}

/* One CMAP cell: E = sum c[4 i + j] a^i b^j over i, j = 0..3, a and b the
 * fractions of the cell along phi and psi (maths/cmap_spline.h); the
 * derivatives are per unit fraction (divide by the cell width in rad). */
static inline double form_cmap(const double *c, double a, double b, double *out_de_da,
                               double *out_de_db)
{
    double e = 0, da = 0, db = 0;
    for (int i = 3; i >= 0; --i) {
        e = a * e + ((c[4 * i + 3] * b + c[4 * i + 2]) * b + c[4 * i + 1]) * b + c[4 * i];
        da = b * da + (3.0 * c[12 + i] * a + 2.0 * c[8 + i]) * a + c[4 + i];
        db = a * db + (3.0 * c[4 * i + 3] * b + 2.0 * c[4 * i + 2]) * b + c[4 * i + 1];
    }
    *out_de_da = da;
    *out_de_db = db;
    return e;
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

/* The fp16 LJ forms of shaders/common/forms.glsl (nonbonded.comp's fp16
 * builds) with the same roundings (_Float16: each result rounded to
 * binary16). pure = 1: sigma2_16 and eps4_16 are the fp16 parameters, every
 * operation after s = sigma^2/r^2 (float, rounded once) is fp16; pure = 0
 * ("powers"): s from the float sigma2, s^3 in fp16, the rest in float with
 * the float eps4. Not the oracle: the model of the device's arithmetic, for
 * measuring its error against form_lj (docs/PRECISION.md). */
static inline double form_lj_fp16(float inv_r2, float sigma2, float eps4, int pure,
                                  double *out_f_over_r)
{
    if (!pure) {
        const _Float16 s = (_Float16)(sigma2 * inv_r2);
        const float t = (float)(_Float16)((_Float16)(s * s) * s);
        *out_f_over_r = (double)(eps4 * t * (12.0f * t - 6.0f) * inv_r2);
        return (double)(eps4 * t * (t - 1.0f));
    }
    const _Float16 p0 = (_Float16)sigma2, p1 = (_Float16)eps4;
    const _Float16 s = (_Float16)((float)p0 * inv_r2);
    const _Float16 s3 = (_Float16)((_Float16)(s * s) * s);
    const _Float16 es3 = (_Float16)(p1 * s3);
    const _Float16 e = (_Float16)(es3 * (_Float16)(s3 - (_Float16)1.0f));
    const _Float16 g =
        (_Float16)(es3 * (_Float16)((_Float16)((_Float16)12.0f * s3) - (_Float16)6.0f));
    *out_f_over_r = (double)((float)g * inv_r2);
    return (double)(float)e;
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

/* ---- Float mirrors of the GPU's own approximations ----------------------
 * Same names, formulas and operation order as shaders/common/forms.glsl, in
 * float (C11 without extensions does not contract a * b + c into an fma), so
 * tests/test_ref_erfc.c measures on the host what the shader computes. See
 * forms.glsl for the method. */
#define FORM_LN2_HI             0.693145751953125f     /* 15 significant bits */
#define FORM_LN2_LO             1.428606765330187e-06f /* ln2 - FORM_LN2_HI */
#define FORM_LOG2E              1.44269504088896341f
#define FORM_ERFC_P             0.4f
#define FORM_ERFC_T0            0.6923077106f
#define FORM_TWO_OVER_SQRT_PI_F 1.12837916709551257390f

/* exp(-x * x) for 0 <= x <= 9, relative error about one float ulp. */
static inline float form_exp_neg_sq(float x)
{
    uint32_t bits;
    memcpy(&bits, &x, sizeof bits);
    bits &= 0xFFFFF000u;
    float head;
    memcpy(&head, &bits, sizeof head);
    float tail = x - head;
    float a = head * head;
    float b = (2.0f * head) * tail + tail * tail;
    float k = floorf((a + b) * FORM_LOG2E + 0.5f);
    float r = -a + k * FORM_LN2_HI;
    r = r + k * FORM_LN2_LO;
    r = r - b;
    float p = 1.384270255e-03f;
    p = p * r + 8.374964543e-03f;
    p = p * r + 4.166805674e-02f;
    p = p * r + 1.666642190e-01f;
    p = p * r + 4.999999385e-01f;
    p = p * r + 1.000000034e+00f;
    p = p * r + 1.0f;
    return ldexpf(p, -(int)k);
}

/* erfc(x) for 0 <= x <= 9; *out_exp_mx2 = exp(-x * x). */
static inline float form_erfc_precise(float x, float *out_exp_mx2)
{
    float d = 1.0f + FORM_ERFC_P * x;
    float t0 = 1.0f / d;
    float t = t0 + t0 * (1.0f - d * t0);
    float u = t - FORM_ERFC_T0;
    float q = 1.084108744e-02f;
    q = q * u + 8.035332710e-02f;
    q = q * u - 3.683922067e-02f;
    q = q * u - 2.076179385e-01f;
    q = q * u + 2.149866149e-02f;
    q = q * u + 6.323760152e-01f;
    q = q * u + 1.072741747e+00f;
    q = q * u + 9.881001711e-01f;
    q = q * u + 5.763756633e-01f;
    *out_exp_mx2 = form_exp_neg_sq(x);
    return (*out_exp_mx2 * t) * q;
}

/* Ewald real space in float, E = kqq erfc(alpha r) / r (form_erfc_precise). */
static inline float form_coulomb_erfc_precise(float r, float inv_r, float kqq, float alpha,
                                              float *out_f_over_r)
{
    float ex;
    float e = kqq * form_erfc_precise(alpha * r, &ex) * inv_r;
    *out_f_over_r = (e + kqq * alpha * FORM_TWO_OVER_SQRT_PI_F * ex) * inv_r * inv_r;
    return e;
}

#endif
