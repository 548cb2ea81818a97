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

// E = A / r^12 - B / r^6; f_over_r = -(dE/dr) / r.
float form_lj(float inv_r2, float a, float b, out float f_over_r)
{
    float inv_r6 = inv_r2 * inv_r2 * inv_r2;
    float e12 = a * inv_r6 * inv_r6;
    float e6 = b * inv_r6;
    f_over_r = (12.0 * e12 - 6.0 * e6) * inv_r2;
    return e12 - e6;
}

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
float form_erf(float x, out float out_lo)
{
    if (x >= 1.0) {
        float ex;
        out_lo = 0.0;
        return 1.0 - form_erfc_approx(x, ex);
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

#endif
