// Smooth-PME B-splines and grid coordinates shared by pme_spread.comp and
// pme_gather.comp: the fp32 mirror of ref_pme_spline and of the grid-index
// lines of ref_pme (engine/ref/ref_pme.c), same names and the same order of
// operations, so a reader can put them side by side.
//
// The includer defines the specialization constant ORDER (the B-spline order
// n, VKMD_SPEC_PME_ORDER) before including this file. Arrays are sized for the
// largest order and loops run to ORDER: after specialization the bounds are
// constants, so drivers unroll them and keep the weights in registers.
#ifndef VKMD_PME_SPLINE_GLSL
#define VKMD_PME_SPLINE_GLSL

// Weights w[j] = M_n(frac + n - 1 - j) and dw[j] = d w[j] / d frac for
// j = 0 .. n-1 (Essmann's recursion; n = ORDER >= 3).
void pme_spline(float frac, out float w[VKMD_PME_MAX_ORDER], out float dw[VKMD_PME_MAX_ORDER])
{
    w[0] = 1.0 - frac;
    w[1] = frac;
    for (int j = 2; j < ORDER; ++j)
        w[j] = 0.0;
    for (int m = 3; m <= ORDER; ++m) {
        if (m == ORDER) // derivative from order n-1: dM_n(x) = M_{n-1}(x) - M_{n-1}(x-1)
            for (int j = 0; j < ORDER; ++j)
                dw[j] = (j > 0 ? w[j - 1] : 0.0) - (j < ORDER - 1 ? w[j] : 0.0);
        float div = 1.0 / float(m - 1);
        for (int j = m - 1; j >= 0; --j) {
            float left = j > 0 ? w[j - 1] : 0.0;
            float right = j < m - 1 ? w[j] : 0.0;
            w[j] = div * ((frac + float(m - 1 - j)) * left + (float(j + 1) - frac) * right);
        }
    }
}

// Grid coordinate of x + fine (A, any periodic image; fine = what the float
// x misses of a split position, else 0) along an axis of length len with k
// points: t = frac(x / len) * k + fine * k / len, first grid point
// i0 = int(t) mod k, fraction w = t - int(t). The fine part is added after
// the wrap, where t is at most k, so it is not lost to the size of x. Atoms
// outside the box are wrapped here. In fp32, t - floor(t) may round up to
// exactly 1 (x a hair below a box face); then int(t) = k, w = 0 and i0 = 0,
// the same point as the face it rounded to.
void pme_grid_coord(float x, float fine, float len, uint k, out uint i0, out float frac)
{
    float t = x / len;
    t = (t - floor(t)) * float(k);
    if (fine != 0.0) {
        t += fine * (float(k) / len);
        t = t < 0.0 ? t + float(k) : (t >= float(k) ? t - float(k) : t);
    }
    uint ti = uint(t);
    frac = t - float(ti);
    i0 = ti % k;
}

// (i0 + offset) mod k for 0 <= offset < ORDER <= k.
uint pme_wrap(uint i0, int offset, uint k)
{
    uint g = i0 + uint(offset);
    return g >= k ? g - k : g;
}

#endif
