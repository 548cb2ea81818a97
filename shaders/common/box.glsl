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
#ifndef VKMD_BOX_GLSL
#define VKMD_BOX_GLSL

layout(constant_id = VKMD_SPEC_TRICLINIC) const bool TRICLINIC = false;

// The lattice translation n_a a + n_b b + n_c c for integer-valued k = (n_a,
// n_b, n_c) (floats).
vec3 box_tri_translation(vec3 k, vec3 L, vec3 T)
{
    return vec3(k.x * L.x + k.y * T.x + k.z * T.y, k.y * L.y + k.z * T.z, k.z * L.z);
}

// The lattice counts whose translation takes d to its minimum image
// (d - translation), c first, then b, then a.
vec3 box_tri_image_counts(vec3 d, vec3 L, vec3 T)
{
    float kc = floor(d.z / L.z + 0.5);
    float y = d.y - kc * T.z;
    float kb = floor(y / L.y + 0.5);
    float x = d.x - kc * T.y - kb * T.x;
    float ka = floor(x / L.x + 0.5);
    return vec3(ka, kb, kc);
}

// d under the minimum image in the triclinic cell (L, T).
vec3 box_tri_min_image(vec3 d, vec3 L, vec3 T)
{
    float kc = floor(d.z / L.z + 0.5);
    d -= kc * vec3(T.y, T.z, L.z);
    float kb = floor(d.y / L.y + 0.5);
    d.xy -= kb * vec2(T.x, L.y);
    d.x -= L.x * floor(d.x / L.x + 0.5);
    return d;
}

// The lattice translation that moves p into the brick [0, ax) x [0, by) x
// [0, cz) (c first, then b, then a), as vkmd_box_wrap_shift.
vec3 box_tri_wrap_shift(vec3 p, vec3 L, vec3 T)
{
    float kc = floor(p.z / L.z);
    vec3 q = p - kc * vec3(T.y, T.z, L.z);
    float kb = floor(q.y / L.y);
    q.xy -= kb * vec2(T.x, L.y);
    float ka = floor(q.x / L.x);
    return -box_tri_translation(vec3(ka, kb, kc), L, T);
}

// The smallest perpendicular width of the cell (1 / |row of the inverse|).
float box_tri_min_width(vec3 L, vec3 T)
{
    // Reciprocal rows (box.c): a* = (1/ax, -bx/(ax by), (bx cy - by cx)/(ax by cz)),
    // b* = (0, 1/by, -cy/(by cz)), c* = (0, 0, 1/cz).
    vec3 ra = vec3(1.0 / L.x, -T.x / (L.x * L.y), (T.x * T.z - L.y * T.y) / (L.x * L.y * L.z));
    vec3 rb = vec3(0.0, 1.0 / L.y, -T.z / (L.y * L.z));
    float w2 = 1.0 / max(dot(ra, ra), max(dot(rb, rb), 1.0 / (L.z * L.z)));
    return sqrt(w2);
}

#endif
