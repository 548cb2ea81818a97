/* Functional forms of the UFF terms, written once for the CPU reference and
 * meant to be mirrored line by line in shaders/common/ (same names, float):
 * plain arithmetic on scalars, no C-only constructs inside the forms (the
 * out-parameters become GLSL `out` arguments).
 *
 * Every angular form is a polynomial in the cosine of its angle, so the
 * Cartesian gradient needs no division by a sine: the caller gets dE/dcos
 * and multiplies by dcos/dx, which is smooth everywhere except where the
 * angle itself is undefined (coincident atoms). cos(n t) = T_n(cos t), the
 * Chebyshev polynomial, and T_n'(c) = n U_{n-1}(c).
 *
 * Surprise: the inversion energy depends on sin(Y) = sqrt(1 - c^2) (c the
 * cosine of the angle between the plane normal and the out-of-plane bond),
 * so its derivative has a 1/sin(Y) that is clamped at 1e-8 as RDKit does;
 * only a bond exactly along the normal reaches it. */
#ifndef VKMD_REF_REF_UFF_FORMS_H
#define VKMD_REF_REF_UFF_FORMS_H

#include <math.h>

/* T_n(c) for n >= 0; *out_dt = T_n'(c). */
static inline double uff_form_chebyshev(int n, double c, double *out_dt)
{
    double t_prev = 1.0, t = c;       /* T_0, T_1 */
    double u_prev = 1.0, u = 2.0 * c; /* U_0, U_1 */
    if (n == 0) {
        *out_dt = 0.0;
        return 1.0;
    }
    for (int k = 1; k < n; ++k) {
        double t_next = 2.0 * c * t - t_prev;
        t_prev = t;
        t = t_next;
        double u_next = 2.0 * c * u - u_prev;
        u_prev = u;
        u = u_next;
    }
    /* after the loop u = U_n and u_prev = U_{n-1} */
    *out_dt = (double)n * u_prev;
    return t;
}

/* Bond stretch, E = kb/2 (r - r0)^2; *out_de_dr = kb (r - r0). */
static inline double uff_form_bond(double r, double kb, double r0, double *out_de_dr)
{
    double dr = r - r0;
    *out_de_dr = kb * dr;
    return 0.5 * kb * dr * dr;
}

/* Angle bend as a function of c = cos(theta), clamped to [-1, 1]:
 * order 0: E = ka (c0 + c1 c + c2 (2c^2 - 1)); order 1: E = ka (1 + c);
 * order n >= 2: E = ka/n^2 (1 - T_n(c)). *out_de_dc = dE/dc. */
static inline double uff_form_angle(double c, double ka, int order, double c0, double c1, double c2,
                                    double *out_de_dc)
{
    c = fmin(fmax(c, -1.0), 1.0);
    if (order == 0) {
        *out_de_dc = ka * (c1 + 4.0 * c2 * c);
        return ka * (c0 + c1 * c + c2 * (2.0 * c * c - 1.0));
    }
    if (order == 1) {
        *out_de_dc = ka;
        return ka * (1.0 + c);
    }
    double dt;
    double t = uff_form_chebyshev(order, c, &dt);
    double s = ka / (double)(order * order);
    *out_de_dc = -s * dt;
    return s * (1.0 - t);
}

/* Torsion as a function of c = cos(phi), clamped to [-1, 1]:
 * E = v/2 (1 - cos_term T_n(c)). *out_de_dc = dE/dc. */
static inline double uff_form_torsion(double c, double v, int n, double cos_term, double *out_de_dc)
{
    c = fmin(fmax(c, -1.0), 1.0);
    double dt;
    double t = uff_form_chebyshev(n, c, &dt);
    *out_de_dc = -0.5 * v * cos_term * dt;
    return 0.5 * v * (1.0 - cos_term * t);
}

/* Inversion as a function of c = cos(Y): sin(Y) = sqrt(1 - c^2) (0 if
 * rounding makes 1 - c^2 negative), E = k (c0 + c1 sin(Y) + c2 (2 sin^2(Y) - 1)).
 * *out_de_dc = dE/dc, with sin(Y) clamped at 1e-8 in the division. */
static inline double uff_form_inversion(double c, double k, double c0, double c1, double c2,
                                        double *out_de_dc)
{
    double s2 = 1.0 - c * c;
    double s = s2 > 0.0 ? sqrt(s2) : 0.0;
    *out_de_dc = k * (-c1 * c / fmax(s, 1e-8) - 4.0 * c2 * c);
    return k * (c0 + c1 * s + c2 * (2.0 * s * s - 1.0));
}

/* UFF Lennard-Jones 12-6, E = d (x^12/r^12 - 2 x^6/r^6), given 1/r^2;
 * *out_f_over_r = -(dE/dr)/r = 12 d (x^12/r^12 - x^6/r^6) / r^2. */
static inline double uff_form_vdw(double inv_r2, double x_ij, double d_ij, double *out_f_over_r)
{
    double x2 = x_ij * x_ij * inv_r2;
    double x6 = x2 * x2 * x2;
    double x12 = x6 * x6;
    *out_f_over_r = 12.0 * d_ij * (x12 - x6) * inv_r2;
    return d_ij * (x12 - 2.0 * x6);
}

/* Coulomb, E = qq / r (qq = k qi qj / dielectric); *out_f_over_r = E / r^2. */
static inline double uff_form_coulomb(double inv_r, double qq, double *out_f_over_r)
{
    double e = qq * inv_r;
    *out_f_over_r = e * inv_r * inv_r;
    return e;
}

#endif
