// Functional forms of every AMBER term for the GPU passes: the float mirror of
// engine/ref/ref_forms.h (same names, same argument order; C pointers become
// `out` parameters). Read the two side by side when changing either.
//
// Surprises: GLSL has no erf/erfc, so form_erfc_approx is Abramowitz & Stegun
// 7.1.26 (absolute error < 1.5e-7, below float resolution of the terms it
// feeds); form_coulomb_excl returns the NEGATIVE of kqq erf(alpha r)/r and
// takes erf from form_erf (a Taylor series below 1, where 1 - erfc would lose
// digits: excluded pairs sit at 1-3 A, alpha r ~ 0.3-1).
#ifndef VKMD_FORMS_GLSL
#define VKMD_FORMS_GLSL

const float FORM_TWO_OVER_SQRT_PI = 1.12837916709551257390;
const float FORM_TWO_OVER_SQRT_PI_HI = 1.12837922573089599609375; // float(2/sqrt(pi))
const float FORM_TWO_OVER_SQRT_PI_LO = -5.8635383422e-8;         // 2/sqrt(pi) - HI

// erfc(x) for x >= 0 and exp(-x*x) together (the pair forms need both).
float form_erfc_approx(float x, out float exp_mx2)
{
    float t = 1.0 / (1.0 + 0.3275911 * x);
    exp_mx2 = exp(-x * x);
    return t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 +
                t * (-1.453152027 + t * 1.061405429)))) * exp_mx2;
}

// E = k (r - r0)^2; de_dr = 2 k (r - r0).
float form_bond(float r, float k, float r0, out float de_dr)
{
    float dr = r - r0;
    de_dr = 2.0 * k * dr;
    return k * dr * dr;
}

// Positional restraint on a displacement d with |d|^2 = r2: E = k |d|^2
// (r_fb = 0), or the flat bottom E = k (|d| - r_fb)^2 beyond r_fb and 0
// inside; the force on the atom is -g d.
float form_restraint(float r2, float k, float r_fb, out float g)
{
    if (r_fb <= 0.0) {
        g = 2.0 * k;
        return k * r2;
    }
    float r = sqrt(r2);
    if (r <= r_fb) {
        g = 0.0;
        return 0.0;
    }
    float excess = r - r_fb;
    g = 2.0 * k * excess / r;
    return k * excess * excess;
}

// E = k (theta - theta0)^2; de_dtheta = 2 k (theta - theta0).
float form_angle(float theta, float k, float theta0, out float de_dtheta)
{
    float d = theta - theta0;
    de_dtheta = 2.0 * k * d;
    return k * d * d;
}

// E = k (1 + cos(n phi - phase)); de_dphi = -k n sin(n phi - phase).
float form_dihedral(float phi, float k, int n, float phase, out float de_dphi)
{
    float a = float(n) * phi - phase;
    de_dphi = -k * float(n) * sin(a);
    return k * (1.0 + cos(a));
}

// CHARMM harmonic improper E = k d^2, d = psi - psi0 wrapped into [-pi, pi);
// de_dpsi = 2 k d.
float form_improper_harmonic(float psi, float k, float psi0, out float de_dpsi)
{
    const float two_pi = 6.28318530717958647692;
    float d = psi - psi0;
    d -= two_pi * floor(d / two_pi + 0.5);
    de_dpsi = 2.0 * k * d;
    return k * d * d;
}

// One CMAP cell: E = sum c[4 i + j] a^i b^j; derivatives per unit fraction.
float form_cmap(float c[16], float a, float b, out float de_da, out float de_db)
{
    float e = 0.0, da = 0.0, db = 0.0;
    for (int i = 3; i >= 0; --i) {
        e = a * e + ((c[4 * i + 3] * b + c[4 * i + 2]) * b + c[4 * i + 1]) * b + c[4 * i];
        da = b * da + (3.0 * c[12 + i] * a + 2.0 * c[8 + i]) * a + c[4 + i];
        db = a * db + (3.0 * c[4 * i + 3] * b + 2.0 * c[4 * i + 2]) * b + c[4 * i + 1];
    }
    de_da = da;
    de_db = db;
    return e;
}

// E = A / r^12 - B / r^6; f_over_r = -(dE/dr) / r.
float form_lj(float inv_r2, float a, float b, out float f_over_r)
{
    float inv_r6 = inv_r2 * inv_r2 * inv_r2;
    float e12 = a * inv_r6 * inv_r6;
    float e6 = b * inv_r6;
    f_over_r = (12.0 * e12 - 6.0 * e6) * inv_r2;
    return e12 - e6;
}

#ifdef VKMD_NB_FP16
// LJ with half-precision arithmetic (the fp16 builds of nonbonded.comp),
// E = 4 eps s^3 (s^3 - 1) with s = sigma^2 / r^2, factored so that no power
// above s^3 is formed (s^6 of a far pair is below fp16's normal range).
// Two forms (VKMD_NB_FP16_FORM_*):
//   PURE:   sigma^2 and 4 eps are the fp16-stored parameters (p16); s is
//           formed in fp32 and rounded once; every later operation is fp16.
//   POWERS: s from the fp32 sigma^2 (p32), rounded to fp16; s^3 in fp16; the
//           energy and force combinations in fp32 with the fp32 4 eps.
// Range: s < 3.5 (r > 0.53 sigma); the caller uses the fp32 form for closer
// pairs. The host model with the same roundings is ref_forms.h's
// form_lj_fp16 (with _Float16), for the error study.
float form_lj_fp16(float inv_r2, f16vec2 p16, vec2 p32, uint form, out float f_over_r)
{
    if (form == VKMD_NB_FP16_FORM_POWERS) {
        float16_t s = float16_t(p32.x * inv_r2);
        float t = float(s * s * s);
        f_over_r = p32.y * t * (12.0 * t - 6.0) * inv_r2;
        return p32.y * t * (t - 1.0);
    }
    float16_t s = float16_t(float(p16.x) * inv_r2);
    float16_t s3 = s * s * s;
    float16_t es3 = p16.y * s3;
    float16_t e = es3 * (s3 - float16_t(1.0));
    float16_t g = es3 * (float16_t(12.0) * s3 - float16_t(6.0));
    f_over_r = float(g) * inv_r2;
    return float(e);
}
#endif

// Plain Coulomb, E = kqq / r.
float form_coulomb(float inv_r, float kqq, out float f_over_r)
{
    float e = kqq * inv_r;
    f_over_r = e * inv_r * inv_r;
    return e;
}

// Ewald real space, E = kqq erfc(alpha r) / r.
float form_coulomb_erfc(float r, float inv_r, float kqq, float alpha, out float f_over_r)
{
    float ex;
    float e = kqq * form_erfc_approx(alpha * r, ex) * inv_r;
    f_over_r = (e + kqq * alpha * FORM_TWO_OVER_SQRT_PI * ex) * inv_r * inv_r;
    return e;
}

// erf(x) for x >= 0 as an unevaluated float pair: erf = result + out_lo.
// Below 1 a Taylor series (11 terms, truncation < 2e-9) written as
// x + x q(z) so that no nearly constant intermediate is rounded. The pair
// exists because 2/sqrt(pi) as a float is 5.2e-8 too large and that error
// would be the same for every pair: summed over 24,000 water exclusions
// (+450,000 kcal/mol, cancelled by the self term) it would be a visible
// bias. Adding the correction in float would be lost to rounding; callers
// convert both parts to fixed point separately.
float form_erfc_precise(float x, out float exp_mx2); // defined below

float form_erf(float x, out float out_lo)
{
    if (x >= 1.0) {
        float ex;
        out_lo = 0.0;
        return 1.0 - form_erfc_precise(x, ex); // erfc <= 0.16 here: few-ulp relative
    }
    float z = x * x;
    float p = 1.3122532963e-8;
    p = p * z - 1.4503852223e-7;
    p = p * z + 1.4589169000e-6;
    p = p * z - 1.3227513228e-5;
    p = p * z + 1.0683760684e-4;
    p = p * z - 7.5757575758e-4;
    p = p * z + 4.6296296296e-3;
    p = p * z - 2.3809523810e-2;
    p = p * z + 1.0000000000e-1;
    p = p * z - 3.3333333333e-1;
    float xp = x + x * (p * z);
    out_lo = FORM_TWO_OVER_SQRT_PI_LO * xp;
    return FORM_TWO_OVER_SQRT_PI_HI * xp;
}

// Excluded-pair correction, E = -kqq erf(alpha r) / r.
float form_coulomb_excl(float r, float inv_r, float kqq, float alpha, out float f_over_r)
{
    float ar = alpha * r, lo;
    float e = -kqq * (form_erf(ar, lo) + lo) * inv_r;
    f_over_r = (e + kqq * alpha * FORM_TWO_OVER_SQRT_PI * exp(-ar * ar)) * inv_r * inv_r;
    return e;
}

// ---- Accurate float erfc for the Ewald real-space sum (nonbonded.comp) ----
// form_erfc_approx above has 1.5e-7 ABSOLUTE error, ~1e-4 RELATIVE near
// alpha * cutoff, which biases a sum over millions of pairs. These keep
// the relative error at a few float ulp over [0, 4] (measured against libm
// by tests/test_ref_erfc.c through the C mirror in engine/ref/ref_forms.h):
//   exp(-x^2): x is split into a 12-bit head and a tail, so x^2 = a + b with
//     a = head^2 exact; Cody-Waite reduction by k ln2 (ln2 in two parts, the
//     first short enough that k * part is exact) leaves r in [-0.35, 0.35]
//     with ~1e-9 absolute error; exp(r) by a degree-6 minimax polynomial
//     (2e-9); the result is 2^-k exp(r). The built-in exp may be off by
//     3 + 2|x| ulp (Vulkan's limit) and exp(-x * x) would add the rounding of
//     x * x times x^2 (4e-7 at x = 2.6).
//   erfc(x) = exp(-x^2) t Q(t - t0), t = 1 / (1 + 0.4 x), Q a degree-8
//     polynomial fitted (weighted least squares, Lawson iterations) to the
//     relative error of exp(x^2) erfc(x) on [0, 4]: fit error 6.7e-9. The
//     reciprocal gets one Newton step, so a division that is not correctly
//     rounded (Vulkan allows 2.5 ulp) costs nothing.
// Domain 0 <= x <= 9: relative error a few ulp on [0, 4] (alpha * cutoff is
// sqrt(-ln(2 tol)) = 2.63 for the default Ewald tolerance; 4 covers tol down
// to 6e-8); on (4, 9] erfc < 1.6e-8 and the absolute error stays below 1e-12.
const float FORM_LN2_HI = 0.693145751953125;      // 15 significant bits
const float FORM_LN2_LO = 1.428606765330187e-06;  // ln2 - FORM_LN2_HI
const float FORM_LOG2E = 1.44269504088896341;
const float FORM_ERFC_P = 0.4;
const float FORM_ERFC_T0 = 0.6923077106;

// exp(-x * x) for 0 <= x <= 9, relative error about one float ulp.
float form_exp_neg_sq(float x)
{
    float head = uintBitsToFloat(floatBitsToUint(x) & 0xFFFFF000u);
    float tail = x - head;
    float a = head * head;                        // exact (12 x 12 bits)
    float b = (2.0 * head) * tail + tail * tail;  // both products exact
    float k = floor((a + b) * FORM_LOG2E + 0.5);
    precise float r = -a + k * FORM_LN2_HI;       // exact (Sterbenz)
    r = r + k * FORM_LN2_LO;
    r = r - b;
    float p = 1.384270255e-03;
    p = p * r + 8.374964543e-03;
    p = p * r + 4.166805674e-02;
    p = p * r + 1.666642190e-01;
    p = p * r + 4.999999385e-01;
    p = p * r + 1.000000034e+00;
    p = p * r + 1.0;
    return ldexp(p, -int(k));
}

// erfc(x) for 0 <= x <= 9 and exp(-x*x) (the pair forms need both).
float form_erfc_precise(float x, out float exp_mx2)
{
    float d = 1.0 + FORM_ERFC_P * x;
    float t0 = 1.0 / d;
    precise float t = t0 + t0 * (1.0 - d * t0); // one Newton step
    float u = t - FORM_ERFC_T0;
    float q = 1.084108744e-02;
    q = q * u + 8.035332710e-02;
    q = q * u - 3.683922067e-02;
    q = q * u - 2.076179385e-01;
    q = q * u + 2.149866149e-02;
    q = q * u + 6.323760152e-01;
    q = q * u + 1.072741747e+00;
    q = q * u + 9.881001711e-01;
    q = q * u + 5.763756633e-01;
    exp_mx2 = form_exp_neg_sq(x);
    return (exp_mx2 * t) * q;
}

// Ewald real space, E = kqq erfc(alpha r) / r, with form_erfc_precise.
float form_coulomb_erfc_precise(float r, float inv_r, float kqq, float alpha, out float f_over_r)
{
    float ex;
    float e = kqq * form_erfc_precise(alpha * r, ex) * inv_r;
    f_over_r = (e + kqq * alpha * FORM_TWO_OVER_SQRT_PI * ex) * inv_r * inv_r;
    return e;
}

// Generalized Born (gb.comp; reference ref_gb.c; parameters in
// system/gb_params.h). Units A, kcal/mol, e. Each form also gives the
// derivatives the chain rule through the Born radii needs. The values that
// both an energy and a derivative use are `precise`: the pipeline without
// energies drops the energy, and a compiler that then contracts or rewrites
// the derivative's arithmetic differently (lavapipe did, for ACE) would give
// forces other bits than the pipeline with energies.

// Hawkins-Cramer-Truhlar descreening integral of atom j (scaled radius s)
// seen from atom i (offset radius rho) at distance r, as OpenMM's
// CustomGBForce writes it:
//   I = 1/2 (1/L - 1/U + (r - s^2/r)(1/U^2 - 1/L^2)/4 + ln(L/U)/(2r)),
//   U = r + s, L = max(rho, |r - s|), and 0 when r + s < rho.
// di_dr: the total derivative.
float form_gb_hct_integral(float r, float rho, float s, out float di_dr)
{
    if (r + s < rho) {
        di_dr = 0.0;
        return 0.0;
    }
    float d = abs(r - s);
    float l = rho > d ? rho : d;
    float u = r + s;
    float il = 1.0 / l, iu = 1.0 / u, ir = 1.0 / r;
    float w = r - s * s * ir; // r - s^2/r
    // log(L/U). Where L = r - s and s < r/4 (most pairs: far ones), L/U is
    // near 1 and a float log of it keeps only an absolute accuracy (GPU log
    // approximations: about 2^-21 near 1), while the term it feeds is small:
    // log((r - s)/(r + s)) = -2 atanh(s/r), summed as its series (to t^13,
    // truncation below 3e-9 relative at t = 1/4).
    float lg;
    if (d > rho && s < 0.25 * r) {
        float t = s * ir, t2 = t * t;
        lg = -2.0 * t *
             (1.0 + t2 * (1.0 / 3.0 +
                          t2 * (0.2 + t2 * (1.0 / 7.0 +
                                            t2 * (1.0 / 9.0 + t2 * (1.0 / 11.0 + t2 / 13.0))))));
    } else {
        lg = log(l / u);
    }
    float val = 0.5 * (il - iu + 0.25 * w * (iu * iu - il * il) + 0.5 * lg * ir);
    // partial in r, then through U (always) and L (when L = |r - s|)
    float di = 0.5 * (0.25 * (1.0 + s * s * ir * ir) * (iu * iu - il * il) - 0.5 * lg * ir * ir);
    di += 0.5 * (iu * iu - 0.5 * w * iu * iu * iu - 0.5 * ir * iu);
    if (d > rho)
        di += 0.5 * (-il * il + 0.5 * w * il * il * il + 0.5 * ir * il) * (r > s ? 1.0 : -1.0);
    di_dr = di;
    return val;
}

// GBn/GBn2 neck integral (Mongan et al. 2007) without its scale:
// m0 / (1 + x^2 + 0.3 x^6), x = r - d0; the caller applies the scale and
// the range r <= radius_i + radius_j + 6.8 A.
float form_gb_neck(float r, float d0, float m0, out float di_dr)
{
    float x = r - d0, x2 = x * x, x5 = x2 * x2 * x;
    float den = 1.0 + x2 + 0.3 * x5 * x;
    di_dr = -m0 * (2.0 * x + 1.8 * x5) / (den * den);
    return m0 / den;
}

// Born radius from the descreening sum I: HCT (rescale false)
// B = 1/(1/rho - I); OBC/GBn (rescale true)
// B = 1/(1/rho - tanh(a psi - b psi^2 + g psi^3)/radius), psi = I rho.
// db_di = dB/dI.
float form_gb_born_radius(float sum_i, float rho, float radius, bool rescale, float a, float b,
                          float g, out float db_di)
{
    if (!rescale) {
        float born = 1.0 / (1.0 / rho - sum_i);
        db_di = born * born;
        return born;
    }
    float psi = sum_i * rho;
    float t = tanh(psi * (a + psi * (-b + psi * g)));
    float born = 1.0 / (1.0 / rho - t / radius);
    db_di = born * born * (1.0 - t * t) * (a - 2.0 * b * psi + 3.0 * g * psi * psi) * rho / radius;
    return born;
}

// Still's pair term of atoms i, j (counted once per pair):
//   E = -kqq (1/eps_in - exp(-kappa f)/eps_out) (1/f - inv_cut),
//   f = sqrt(r^2 + B_i B_j exp(-r^2 / (4 B_i B_j))),
// inv_cut = 1/cutoff or 0. Writes f_over_r = -(dE/dr)/r and dE/dB_i,
// dE/dB_j.
float form_gb_pair(float r2, float bi, float bj, float kqq, float kappa, float inv_eps_in,
                   float inv_eps_out, float inv_cut, out float f_over_r, out float de_dbi,
                   out float de_dbj)
{
    float p = bi * bj;
    float e = exp(-r2 / (4.0 * p));
    float f2 = r2 + p * e;
    float f = sqrt(f2);
    float ek = kappa > 0.0 ? exp(-kappa * f) : 1.0;
    precise float g = inv_eps_in - ek * inv_eps_out;
    precise float h = 1.0 / f - inv_cut;
    precise float de_df = -kqq * (kappa * ek * inv_eps_out * h - g / f2);
    float de_dp = de_df * e * (1.0 + r2 / (4.0 * p)) / (2.0 * f);
    f_over_r = -de_df * (1.0 - 0.25 * e) / f;
    de_dbi = de_dp * bj;
    de_dbj = de_dp * bi;
    return -kqq * g * h;
}

// Self term of atom i: E = -kqq/2 (1/eps_in - exp(-kappa B)/eps_out) / B
// (kqq = k q_i^2); de_db = dE/dB.
float form_gb_self(float born, float kqq, float kappa, float inv_eps_in, float inv_eps_out,
                   out float de_db)
{
    float ek = kappa > 0.0 ? exp(-kappa * born) : 1.0;
    precise float g = inv_eps_in - ek * inv_eps_out;
    de_db = -0.5 * kqq * (kappa * ek * inv_eps_out - g / born) / born;
    return -0.5 * kqq * g / born;
}

// ACE nonpolar term (Schaefer, Bartels and Karplus 1998 with Ponder's sixth
// power, as OpenMM): E = 4 pi gamma (radius + probe)^2 (radius/B)^6;
// de_db = -6 E / B.
float form_gb_ace(float born, float radius, float probe, float four_pi_gamma, out float de_db)
{
    float q = radius / born, q2 = q * q;
    precise float e = four_pi_gamma * (radius + probe) * (radius + probe) * q2 * q2 * q2;
    precise float g = -6.0 * e / born;
    de_db = g;
    return e;
}

#endif
