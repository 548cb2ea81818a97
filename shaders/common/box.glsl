// The periodic box in shaders (engine/system/box.h has the conventions): a
// rectangular box is its three edges L; a triclinic box is the reduced
// lower-triangular lattice a = (ax, 0, 0), b = (bx, by, 0), c = (cx, cy, cz),
// passed as L = (ax, by, cz) and the off-diagonal terms T = (bx, cx, cy).
// TRICLINIC (a specialization constant, one per pipeline) picks the
// triclinic arithmetic; a rectangular box never runs it, so its results keep
// their bits. Minimum image and wrapping remove c, then b, then a by
// rounding, as OpenMM does: for a reduced cell this is the true minimum image
// of every separation shorter than half the cell's smallest width, which the
// cutoff never exceeds.
//
// Exact lattice translations: the split positions (common/positions.glsl)
// hold 4e-9 A wherever an atom is, so a translation n_a a + n_b b + n_c c
// taken in float (it rounds at the scale of the translation: 6e-5 A at
// 1,000 A) would undo them. Each lattice component v is therefore used as the
// float pair v = hi + lo, hi on the split-float coarse grid (1/8 A) and lo the
// rest (both exact), and a translation by integer counts as the pair
// (base + sum n hi, sum n lo): the first sum is exact (grid values below
// 2^21 A), so subtracting it from a coarse part or an anchor on the grid is
// exact, and only lo, which is small, rounds at the scale of the result. The
// pairs split the device's float lattice, not the host's double one: the
// bias between the two (half an ulp of a component per face crossed) is
// below what the force comparisons resolve (docs/PRECISION.md).
//
// Every floating-point operation of this file is `precise` (SPIR-V
// NoContraction): otherwise a compiler may contract a * b + c into an fma
// and reassociate sums (NVIDIA's does; lavapipe's did not), which can add lo
// to hi before it reaches the small result and make the figures depend on
// the compiler. tests/test_spirv_precise checks the SPIR-V.
#ifndef VKMD_BOX_GLSL
#define VKMD_BOX_GLSL

layout(constant_id = VKMD_SPEC_TRICLINIC) const bool TRICLINIC = false;

// v on the split-float coarse grid (the hi part of the pair; v - hi is exact).
vec3 box_grid_hi(vec3 v)
{
    precise vec3 hi = floor(v * float(VKMD_POSITIONS_QUANTA) + 0.5) * float(VKMD_POSITIONS_QUANTUM);
    return hi;
}

// The lattice translation n_a a + n_b b + n_c c for integer-valued k = (n_a,
// n_b, n_c) (floats), in float (approximate readers: binning, list
// candidates).
vec3 box_tri_translation(vec3 k, vec3 L, vec3 T)
{
    precise vec3 t = vec3(k.x * L.x + k.y * T.x + k.z * T.y, k.y * L.y + k.z * T.z, k.z * L.z);
    return t;
}

// base + the lattice translation of counts k, as hi + lo: hi = base + the
// translation's grid part (exact when base is on the 1/8 A grid, else
// rounded once at the scale of hi), lo = the translation's small rest
// (|lo| <= (|n_a| + |n_b| + |n_c|) / 16 A, rounded at most at its own scale).
void box_tri_translation_pair(vec3 base, vec3 k, vec3 L, vec3 T, out vec3 hi, out vec3 lo)
{
    vec3 lh = box_grid_hi(L), th = box_grid_hi(T);
    precise vec3 ll = L - lh;
    precise vec3 tl = T - th;
    precise vec3 h = base + vec3(k.x * lh.x + k.y * th.x + k.z * th.y, k.y * lh.y + k.z * th.z,
                                 k.z * lh.z);
    precise vec3 l = vec3(k.x * ll.x + k.y * tl.x + k.z * tl.y, k.y * ll.y + k.z * tl.z, k.z * ll.z);
    hi = h;
    lo = l;
}

// base + the lattice translation of counts k in float, from the pair: for a
// base on the 1/8 A grid (an anchor difference) it rounds once, at the scale
// of the result.
vec3 box_tri_offset(vec3 base, vec3 k, vec3 L, vec3 T)
{
    vec3 hi, lo;
    box_tri_translation_pair(base, k, L, T, hi, lo);
    precise vec3 r = hi + lo;
    return r;
}

// The lattice counts whose translation takes d to its minimum image
// (d - translation), c first, then b, then a.
vec3 box_tri_image_counts(vec3 d, vec3 L, vec3 T)
{
    precise float kc = floor(d.z / L.z + 0.5);
    precise float y = d.y - kc * T.z;
    precise float kb = floor(y / L.y + 0.5);
    precise float x = (d.x - kc * T.y) - kb * T.x;
    precise float ka = floor(x / L.x + 0.5);
    return vec3(ka, kb, kc);
}

// d under the minimum image in the triclinic cell (L, T): the translation
// subtracted as a pair, so it rounds once at the scale of the result (as the
// rectangular (d - k L) - k L_lo).
vec3 box_tri_min_image(vec3 d, vec3 L, vec3 T)
{
    return box_tri_offset(d, -box_tri_image_counts(d, L, T), L, T);
}

// The lattice counts whose translation moves p into the brick [0, ax) x
// [0, by) x [0, cz) (c first, then b, then a), as vkmd_box_wrap_shift.
vec3 box_tri_wrap_counts(vec3 p, vec3 L, vec3 T)
{
    precise float kc = floor(p.z / L.z);
    precise float y = p.y - kc * T.z;
    precise float kb = floor(y / L.y);
    precise float x = (p.x - kc * T.y) - kb * T.x;
    precise float ka = floor(x / L.x);
    return -vec3(ka, kb, kc);
}

// The lattice translation that moves p into the brick, in float.
vec3 box_tri_wrap_shift(vec3 p, vec3 L, vec3 T)
{
    return box_tri_translation(box_tri_wrap_counts(p, L, T), L, T);
}

// The position coarse + fine moved into the brick (judged from their float
// sum) by a lattice translation taken as a pair: coarse + hi is exact for a
// coarse part on the 1/8 A grid, and lo joins the fine part.
void box_tri_wrap_pair(inout vec3 coarse, inout vec3 fine, vec3 L, vec3 T)
{
    precise vec3 p = coarse + fine;
    vec3 hi, lo;
    box_tri_translation_pair(coarse, box_tri_wrap_counts(p, L, T), L, T, hi, lo);
    precise vec3 f = fine + lo;
    coarse = hi;
    fine = f;
}

// The smallest perpendicular width of the cell (1 / |row of the inverse|).
float box_tri_min_width(vec3 L, vec3 T)
{
    // Reciprocal rows (box.c): a* = (1/ax, -bx/(ax by), (bx cy - by cx)/(ax by cz)),
    // b* = (0, 1/by, -cy/(by cz)), c* = (0, 0, 1/cz).
    precise vec3 ra =
        vec3(1.0 / L.x, -T.x / (L.x * L.y), (T.x * T.z - L.y * T.y) / (L.x * L.y * L.z));
    precise vec3 rb = vec3(0.0, 1.0 / L.y, -T.z / (L.y * L.z));
    precise float na = ra.x * ra.x + ra.y * ra.y + ra.z * ra.z; // dot() takes no NoContraction
    precise float nb = rb.y * rb.y + rb.z * rb.z;
    precise float nc = 1.0 / (L.z * L.z);
    precise float w2 = 1.0 / max(na, max(nb, nc));
    return sqrt(w2);
}

#endif
