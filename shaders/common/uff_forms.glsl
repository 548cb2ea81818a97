// Functional forms of the UFF terms for shaders/uff.comp: the float mirror of
// engine/ref/ref_uff_forms.h (same names; C pointers become `out`
// parameters). Read the two side by side when changing either.
//
// Where the float version differs, it is for accuracy, and each difference is
// an algebraic identity of the reference form. Near its minimum a UFF term is
// a small difference of O(1) numbers (ka (C0 + C1 c + C2 (2c^2 - 1)),
// 1 - T_n(c), 1 - sin Y, r - r0), and in float that difference keeps mostly
// the rounding of its parts. Measured on the 57 test molecules as given
// (relaxed, |r - r0| ~ 0.01 A, angles within ~0.05 rad): the plain float
// forms were off by up to 8e-6 of the bond energy and 4e-6 of the angle
// energy, 8e-6 of the force (RMS); rounding C0, C1, C2 to float also biased
// every angle of one type the same way. So:
// - bond: the caller computes r - r0 in float-pair arithmetic
//   (uff_bond_stretch: exact difference vector, r^2 as a pair,
//   (r^2 - r0^2) / (r + r0)); the form takes r - r0;
// - angle: the form takes d = cos(theta) - c_min computed in float-pair
//   arithmetic (uff_cos_deviation), c_min being cos0 (general form, written
//   as k2 (c - cos0)^2 + e0 with k2, cos0, e0 from the host in double) or
//   the nearest zero of 1 - T_n, in which the Chebyshev forms and their
//   derivatives are factored, e.g. 1 - T_3(c) = (1 - c)(1 + 2c)^2;
// - torsion: factored the same way around the zeros, with the sine from
//   unit normals (|a x b|; 1 - c^2 loses the sine of a straight angle);
// - inversion: 1 - sin Y = cos^2 Y / (1 + sin Y) (C, N, O) and
//   2 C2 (sin Y - x0)^2 + e0 (group 15), sin Y again from a cross product.
// Afterwards every term kind agrees with the double reference to ~1e-7 of
// its energy and force on those molecules (tests/test_gpu_uff.c).
// The float pairs rely on IEEE add, sub and mul with round to nearest, which
// Vulkan requires; `precise` keeps the compiler from fusing them.
#ifndef VKMD_UFF_FORMS_GLSL
#define VKMD_UFF_FORMS_GLSL

#include "common/two_sum.glsl"

// T_n(c) for n >= 0; dt = T_n'(c) = n U_{n-1}(c).
float uff_form_chebyshev(int n, float c, out float dt)
{
    float t_prev = 1.0, t = c;       // T_0, T_1
    float u_prev = 1.0, u = 2.0 * c; // U_0, U_1
    if (n == 0) {
        dt = 0.0;
        return 1.0;
    }
    for (int k = 1; k < n; ++k) {
        float t_next = 2.0 * c * t - t_prev;
        t_prev = t;
        t = t_next;
        float u_next = 2.0 * c * u - u_prev;
        u_prev = u;
        u = u_next;
    }
    dt = float(n) * u_prev;
    return t;
}

// 1 - c and 1 + c without cancellation, given s = sin of the same angle
// (1 - c = s^2 / (1 + c) where c > 0, and the mirror for 1 + c).
float uff_one_minus_cos(float c, float s)
{
    return c > 0.0 ? s * s / (1.0 + c) : 1.0 - c;
}

float uff_one_plus_cos(float c, float s)
{
    return c < 0.0 ? s * s / (1.0 - c) : 1.0 + c;
}

// (1 - sign T_n(c)) for sign = +1 or -1, factored so that it is accurate near
// its zeros for n = 2, 3, 4, 6; other n or signs: the plain Chebyshev value.
float uff_one_minus_chebyshev(int n, float sign, float c, float s)
{
    if (sign == 1.0) {
        if (n == 2) // 1 - (2c^2 - 1) = 2 s^2
            return 2.0 * s * s;
        if (n == 3) // (1 - c)(1 + 2c)^2
            return uff_one_minus_cos(c, s) * (1.0 + 2.0 * c) * (1.0 + 2.0 * c);
        if (n == 4) // 8 c^2 s^2
            return 8.0 * c * c * s * s;
        if (n == 6) { // 2 sin^2(3t) = 2 s^2 (4c^2 - 1)^2
            float q = (2.0 * c - 1.0) * (2.0 * c + 1.0);
            return 2.0 * s * s * q * q;
        }
    } else if (sign == -1.0) {
        if (n == 2) // 2 c^2
            return 2.0 * c * c;
        if (n == 3) // (1 + c)(1 - 2c)^2
            return uff_one_plus_cos(c, s) * (1.0 - 2.0 * c) * (1.0 - 2.0 * c);
        if (n == 4) { // 1 + T_4 = 2 (2c^2 - 1)^2
            float q = (c - s) * (c + s);
            return 2.0 * q * q;
        }
        if (n == 6) { // 2 cos^2(3t) = 2 c^2 (4c^2 - 3)^2 = 2 c^2 (1 - 4 s^2)^2
            float q = (1.0 - 2.0 * s) * (1.0 + 2.0 * s);
            return 2.0 * c * c * q * q;
        }
    }
    float dt;
    return 1.0 - sign * uff_form_chebyshev(n, c, dt);
}

// Error-free product (Dekker's, with Veltkamp's split; the sum, Knuth's
// TwoSum, is vkmd_two_sum of common/two_sum.glsl): p + e == a * b exactly in
// IEEE float with round to nearest, which Vulkan requires of add, sub and
// mul. `precise` forbids the compiler to fuse or reorder them (that would
// lose e); fma() is not used because Vulkan lets it round twice.
void uff_two_prod(float a, float b, out float p, out float e)
{
    precise float p_ = a * b;
    precise float ta = 4097.0 * a; // 2^12 + 1 splits 24 bits into 12 + 12
    precise float a_hi = ta - (ta - a);
    precise float a_lo = a - a_hi;
    precise float tb = 4097.0 * b;
    precise float b_hi = tb - (tb - b);
    precise float b_lo = b - b_hi;
    precise float e_ = ((a_hi * b_hi - p_) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo;
    p = p_;
    e = e_;
}

// r - r0 for atoms at xi, xj, to ~1e-7 of itself rather than of r: the
// difference vector exactly as a float pair, r^2 as a float pair, then
// r - r0 = (r^2 - r0^2) / (r + r0) with r0^2 = r0sq + r0sq_lo from the host.
// Also returns d = xi - xj (rounded) and r.
float uff_bond_stretch(vec3 xi, vec3 xj, float r0, float r0sq, float r0sq_lo, out vec3 d,
                       out float r)
{
    float s_hi = 0.0, s_lo = 0.0;
    for (int c = 0; c < 3; ++c) {
        float d_hi, d_lo, p, p_lo, e;
        vkmd_two_sum(xi[c], -xj[c], d_hi, d_lo);
        uff_two_prod(d_hi, d_hi, p, p_lo);
        vkmd_two_sum(s_hi, p, s_hi, e);
        s_lo += e + p_lo + 2.0 * d_hi * d_lo;
        d[c] = d_hi;
    }
    r = sqrt(s_hi + s_lo);
    precise float num = (s_hi - r0sq) + (s_lo - r0sq_lo);
    return num / (r + r0);
}

// Bond stretch, E = kb/2 dr^2 given dr = r - r0 (uff_bond_stretch);
// de_dr = kb dr.
float uff_form_bond(float dr, float kb, out float de_dr)
{
    de_dr = kb * dr;
    return 0.5 * kb * dr * dr;
}

// Float pairs (hi, lo), value hi + lo, |lo| <= ulp(hi) / 2: about 48 bits.
vec2 uff_df_add(vec2 a, vec2 b)
{
    float s, e, hi, lo;
    vkmd_two_sum(a.x, b.x, s, e);
    precise float t = e + (a.y + b.y);
    vkmd_two_sum(s, t, hi, lo);
    return vec2(hi, lo);
}

vec2 uff_df_mul(vec2 a, vec2 b)
{
    float p, e, hi, lo;
    uff_two_prod(a.x, b.x, p, e);
    precise float t = e + (a.x * b.y + a.y * b.x);
    vkmd_two_sum(p, t, hi, lo);
    return vec2(hi, lo);
}

// sqrt of a > 0: one Newton step on the float root, its residual exact.
vec2 uff_df_sqrt(vec2 a)
{
    float q = sqrt(a.x), p, e, hi, lo;
    uff_two_prod(q, q, p, e);
    precise float r = (((a.x - p) - e) + a.y) / (2.0 * q);
    vkmd_two_sum(q, r, hi, lo);
    return vec2(hi, lo);
}

// b - a of float vectors, exactly, as hi + lo.
void uff_df_sub3(vec3 a, vec3 b, out vec3 hi, out vec3 lo)
{
    for (int c = 0; c < 3; ++c)
        vkmd_two_sum(b[c], -a[c], hi[c], lo[c]);
}

// a . b of exact float-pair vectors, as a float pair.
vec2 uff_df_dot(vec3 a_hi, vec3 a_lo, vec3 b_hi, vec3 b_lo)
{
    vec2 s = vec2(0.0);
    for (int c = 0; c < 3; ++c) {
        float p, e;
        uff_two_prod(a_hi[c], b_hi[c], p, e);
        s = uff_df_add(s, vec2(p, e + (a_hi[c] * b_lo[c] + a_lo[c] * b_hi[c])));
    }
    return s;
}

// cos(a, b) - ref for the exact vectors a, b (float pairs) and ref a float
// pair: (a.b - ref |a||b|) / (|a||b|) in float-pair arithmetic, so the
// result is accurate to ~1e-7 of itself even when the cosine is within
// 1e-3 of ref (a float cosine is only good to ~1e-7 absolute). A zero
// vector gives 1 - ref (the reference's cosine 1).
float uff_cos_deviation(vec3 a_hi, vec3 a_lo, vec3 b_hi, vec3 b_lo, vec2 ref)
{
    vec2 aa = uff_df_dot(a_hi, a_lo, a_hi, a_lo), bb = uff_df_dot(b_hi, b_lo, b_hi, b_lo);
    if (!(aa.x > 0.0) || !(bb.x > 0.0))
        return (1.0 - ref.x) - ref.y;
    vec2 m = uff_df_sqrt(uff_df_mul(aa, bb));
    vec2 n = uff_df_add(uff_df_dot(a_hi, a_lo, b_hi, b_lo), -uff_df_mul(ref, m));
    return (n.x + n.y) / m.x;
}

// The cosine the angle form of `order` is written around: the minimum of its
// energy nearest to c (order >= 1; order 0 uses the term's cos0). 1 - T_n(c)
// vanishes at c = 1 and -1 (n even), -1/2 (n 3) and 0 (n 4).
float uff_angle_minimum(int order, float c)
{
    if (order == 1)
        return -1.0;
    if (order == 2)
        return c < 0.0 ? -1.0 : 1.0;
    if (order == 3)
        return c < 0.25 ? -0.5 : 1.0;
    if (order == 4)
        return c < -0.5 ? -1.0 : (c > 0.5 ? 1.0 : 0.0);
    return 0.0;
}

// Angle bend given c = cos(theta) (clamped to [-1, 1]) and d = c - c_min
// to full float accuracy (uff_cos_deviation), c_min being cos0 for order 0
// and uff_angle_minimum(order, c) otherwise:
// order 0: E = k2 d^2 + e0 (= ka (C0 + C1 c + C2 (2c^2 - 1)) with
//   k2 = 2 ka C2, cos0 = -C1 / (4 C2), e0 the remainder);
// order 1: E = ka (1 + c) = ka d;
// order n >= 2: E = ka/n^2 (1 - T_n(c)), for n = 2, 3, 4 factored around
//   c_min: 1 - T_2 = 2 (1 - c)(1 + c), 1 - T_3 = (1 - c)(1 + 2c)^2,
//   1 - T_4 = 8 c^2 (1 - c)(1 + c).
// de_dc = dE/dc, the reference's expressions, factored the same way where
// they vanish at c_min.
float uff_form_angle(float c, float d, float ka, int order, float k2, float e0, out float de_dc)
{
    float c_min = uff_angle_minimum(order, c); // the one d was taken from
    c = clamp(c, -1.0, 1.0);
    if (order == 0) {
        de_dc = 2.0 * k2 * d;
        return k2 * d * d + e0;
    }
    if (order == 1) {
        de_dc = ka;
        return ka * d;
    }
    float dt, t = uff_form_chebyshev(order, c, dt);
    float sc = ka / float(order * order);
    float p = 1.0 - t; // other orders
    if (order == 2) {
        p = c_min < 0.0 ? 2.0 * d * (1.0 - c) : -2.0 * d * (1.0 + c);
    } else if (order == 3) {
        p = c_min < 0.0 ? 4.0 * d * d * (1.0 - c) : -d * (1.0 + 2.0 * c) * (1.0 + 2.0 * c);
        if (c_min < 0.0) // T_3' = 12c^2 - 3 = -6 d (1 - 2c) near c = -1/2
            dt = -6.0 * d * (1.0 - 2.0 * c);
    } else if (order == 4) {
        p = c_min == 0.0 ? 8.0 * d * d * (1.0 - c * c)
                         : (c_min < 0.0 ? 8.0 * c * c * (1.0 - c) * d
                                        : -8.0 * c * c * (1.0 + c) * d);
        if (c_min == 0.0) // T_4' = 16 c (2c^2 - 1), with c = d
            dt = 16.0 * d * (2.0 * d * d - 1.0);
    }
    de_dc = -sc * dt;
    return sc * p;
}

// Torsion given c = cos(phi) (clamped to [-1, 1]) and s = |sin(phi)|:
// E = v/2 (1 - cos_term T_n(c)); de_dc = dE/dc.
float uff_form_torsion(float c, float s, float v, int n, float cos_term, out float de_dc)
{
    c = clamp(c, -1.0, 1.0);
    float dt;
    uff_form_chebyshev(n, c, dt);
    de_dc = -0.5 * v * cos_term * dt;
    return 0.5 * v * uff_one_minus_chebyshev(n, cos_term, c, s);
}

// Inversion given c = cos(Y) and s = sin(Y) >= 0 (see layout_uff.h for the
// two forms; both equal K (C0 + C1 sin Y + C2 (2 sin^2 Y - 1))):
// form 0: E = K (e0 + coef c^2 / (1 + s)), de_dc = K coef c / max(s, 1e-8);
// form 1: E = K (e0 + coef (s - x0)^2), de_dc = 2 K coef c (x0 / max(s, 1e-8) - 1),
// the reference's K (-C1 c / max(s, 1e-8) - 4 C2 c) rewritten.
float uff_form_inversion(float c, float s, float k, int form, float coef, float x0, float e0,
                         out float de_dc)
{
    float s_div = max(s, 1e-8);
    if (form == 0) {
        de_dc = k * coef * c / s_div;
        return k * (e0 + coef * c * c / (1.0 + s));
    }
    float d = s - x0;
    de_dc = 2.0 * k * coef * c * (x0 / s_div - 1.0);
    return k * (e0 + coef * d * d);
}

// UFF Lennard-Jones 12-6, E = d (x^12/r^12 - 2 x^6/r^6), given 1/r^2 and
// x^2; f_over_r = -(dE/dr)/r = 12 d (x^12/r^12 - x^6/r^6) / r^2.
float uff_form_vdw(float inv_r2, float x2_ij, float d_ij, out float f_over_r)
{
    float x2 = x2_ij * inv_r2;
    float x6 = x2 * x2 * x2;
    float x12 = x6 * x6;
    f_over_r = 12.0 * d_ij * (x12 - x6) * inv_r2;
    return d_ij * (x12 - 2.0 * x6);
}

// Coulomb, E = qq / r (qq = k qi qj / dielectric); f_over_r = E / r^2.
float uff_form_coulomb(float inv_r, float qq, out float f_over_r)
{
    float e = qq * inv_r;
    f_over_r = e * inv_r * inv_r;
    return e;
}

#endif
