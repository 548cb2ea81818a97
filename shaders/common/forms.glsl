// Functional forms of every AMBER term for the GPU passes: the float mirror of
// engine/ref/ref_forms.h (same names, same argument order; C pointers become
// `out` parameters). Read the two side by side when changing either.
//
// Surprises: GLSL has no erf/erfc, so form_erfc_approx is Abramowitz & Stegun
// 7.1.26 (absolute error < 1.5e-7, below float resolution of the terms it
// feeds); form_coulomb_excl returns the NEGATIVE of kqq erf(alpha r)/r and uses
// 1 - erfc, whose cancellation at small alpha r costs a few float ulps only,
// because excluded pairs sit at 1-3 A where alpha r ~ 0.3-1.
#ifndef VKMD_FORMS_GLSL
#define VKMD_FORMS_GLSL

const float FORM_TWO_OVER_SQRT_PI = 1.12837916709551257390;

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

// Excluded-pair correction, E = -kqq erf(alpha r) / r.
float form_coulomb_excl(float r, float inv_r, float kqq, float alpha, out float f_over_r)
{
    float ex;
    float e = -kqq * (1.0 - form_erfc_approx(alpha * r, ex)) * inv_r;
    f_over_r = (e + kqq * alpha * FORM_TWO_OVER_SQRT_PI * ex) * inv_r * inv_r;
    return e;
}

#endif
