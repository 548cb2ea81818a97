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

/* Generalized Born (ref_gb.c; parameters in system/gb_params.h). Units A,
 * kcal/mol, e. Each form also gives the derivatives the chain rule through
 * the Born radii needs. */

/* Hawkins-Cramer-Truhlar descreening integral of atom j (scaled radius s)
 * seen from atom i (offset radius rho) at distance r, as OpenMM's
 * CustomGBForce writes it:
 *   I = 1/2 (1/L - 1/U + (r - s^2/r)(1/U^2 - 1/L^2)/4 + ln(L/U)/(2r)),
 *   U = r + s, L = max(rho, |r - s|), and 0 when r + s < rho.
 * (OpenMM's built-in GBSAOBCForce and AMBER add 2 (1/rho - 1/L) when atom
 * i lies wholly inside the sphere of j, r + rho < s; the custom expression
 * does not, nor does this form.) *out_di_dr: the total derivative. */
static inline double form_gb_hct_integral(double r, double rho, double s, double *out_di_dr)
{
    if (r + s < rho) {
        *out_di_dr = 0;
        return 0;
    }
    const double d = fabs(r - s);
    const double l = rho > d ? rho : d;
    const double u = r + s;
    const double il = 1.0 / l, iu = 1.0 / u, ir = 1.0 / r;
    const double w = r - s * s * ir; /* r - s^2/r */
    const double lg = log(l / u);
    const double val = 0.5 * (il - iu + 0.25 * w * (iu * iu - il * il) + 0.5 * lg * ir);
    /* partial in r, then through U (always) and L (when L = |r - s|) */
    double di = 0.5 * (0.25 * (1.0 + s * s * ir * ir) * (iu * iu - il * il) - 0.5 * lg * ir * ir);
    di += 0.5 * (iu * iu - 0.5 * w * iu * iu * iu - 0.5 * ir * iu);
    if (d > rho)
        di += 0.5 * (-il * il + 0.5 * w * il * il * il + 0.5 * ir * il) * (r > s ? 1.0 : -1.0);
    *out_di_dr = di;
    return val;
}

/* GBn/GBn2 neck integral (Mongan et al. 2007) without its scale:
 * m0 / (1 + x^2 + 0.3 x^6), x = r - d0; the caller applies the scale and
 * the range r <= radius_i + radius_j + 6.8 A. */
static inline double form_gb_neck(double r, double d0, double m0, double *out_di_dr)
{
    const double x = r - d0, x2 = x * x, x5 = x2 * x2 * x;
    const double den = 1.0 + x2 + 0.3 * x5 * x;
    *out_di_dr = -m0 * (2.0 * x + 1.8 * x5) / (den * den);
    return m0 / den;
}

/* Born radius from the descreening sum I: HCT (rescale 0) B = 1/(1/rho - I);
 * OBC/GBn (rescale 1) B = 1/(1/rho - tanh(a psi - b psi^2 + g psi^3)/radius),
 * psi = I rho. *out_db_di = dB/dI. */
static inline double form_gb_born_radius(double sum_i, double rho, double radius, int rescale,
                                         double a, double b, double g, double *out_db_di)
{
    if (!rescale) {
        const double born = 1.0 / (1.0 / rho - sum_i);
        *out_db_di = born * born;
        return born;
    }
    const double psi = sum_i * rho;
    const double t = tanh(psi * (a + psi * (-b + psi * g)));
    const double born = 1.0 / (1.0 / rho - t / radius);
    *out_db_di =
        born * born * (1.0 - t * t) * (a - 2.0 * b * psi + 3.0 * g * psi * psi) * rho / radius;
    return born;
}

/* Still's pair term of atoms i, j (counted once per pair):
 *   E = -kqq (1/eps_in - exp(-kappa f)/eps_out) (1/f - inv_cut),
 *   f = sqrt(r^2 + B_i B_j exp(-r^2 / (4 B_i B_j))),
 * inv_cut = 1/cutoff (OpenMM's CutoffNonPeriodic) or 0. Writes
 * f_over_r = -(dE/dr)/r and dE/dB_i, dE/dB_j. */
static inline double form_gb_pair(double r2, double bi, double bj, double kqq, double kappa,
                                  double inv_eps_in, double inv_eps_out, double inv_cut,
                                  double *out_f_over_r, double *out_de_dbi, double *out_de_dbj)
{
    const double p = bi * bj;
    const double e = exp(-r2 / (4.0 * p));
    const double f2 = r2 + p * e;
    const double f = sqrt(f2);
    const double ek = kappa > 0 ? exp(-kappa * f) : 1.0;
    const double g = inv_eps_in - ek * inv_eps_out;
    const double h = 1.0 / f - inv_cut;
    const double de_df = -kqq * (kappa * ek * inv_eps_out * h - g / f2);
    const double de_dp = de_df * e * (1.0 + r2 / (4.0 * p)) / (2.0 * f);
    *out_f_over_r = -de_df * (1.0 - 0.25 * e) / f;
    *out_de_dbi = de_dp * bj;
    *out_de_dbj = de_dp * bi;
    return -kqq * g * h;
}

/* Self term of atom i: E = -kqq/2 (1/eps_in - exp(-kappa B)/eps_out) / B
 * (kqq = k q_i^2); *out_de_db = dE/dB. */
static inline double form_gb_self(double born, double kqq, double kappa, double inv_eps_in,
                                  double inv_eps_out, double *out_de_db)
{
    const double ek = kappa > 0 ? exp(-kappa * born) : 1.0;
    const double g = inv_eps_in - ek * inv_eps_out;
    *out_de_db = -0.5 * kqq * (kappa * ek * inv_eps_out - g / born) / born;
    return -0.5 * kqq * g / born;
}

/* ACE nonpolar term (Schaefer, Bartels and Karplus 1998 with Ponder's
 * sixth power, as OpenMM): E = 4 pi gamma (radius + probe)^2 (radius/B)^6;
 * *out_de_db = -6 E / B. */
static inline double form_gb_ace(double born, double radius, double probe, double four_pi_gamma,
                                 double *out_de_db)
{
    const double q = radius / born, q2 = q * q;
    const double e = four_pi_gamma * (radius + probe) * (radius + probe) * q2 * q2 * q2;
    *out_de_db = -6.0 * e / born;
    return e;
}

#endif
