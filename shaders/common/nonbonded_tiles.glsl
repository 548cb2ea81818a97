// The nonbonded pair kernel's tiles (nonbonded.comp has the design), shared
// by nonbonded.comp and the fused force dispatch (forces.comp). The includer
// declares the buffers (params, lj, order, rel, inner, masks, counts, the
// list state st, force and energy through force_add and energy_add), the
// specialization constants ENERGY, LJ_TABLE (and the fp16 ones in the fp16
// builds), includes common/tile.glsl, and defines NB_ATOMS, NB_SLOTS,
// NB_INNER (inner stride), NB_MASK_BASE, NB_TYPES, NB_CUTOFF2, NB_ALPHA,
// NB_BOX, NB_BOX_LO, NB_BOX_INV (vec3). A triclinic cell (TRICLINIC,
// common/box.glsl) passes L = (ax, by, cz) in NB_BOX, T = (bx, cx, cy) in
// NB_BOX_LO.
#ifndef VKMD_NONBONDED_TILES_GLSL
#define VKMD_NONBONDED_TILES_GLSL

#include "common/box.glsl"

// The tables a tile reads for each of its atoms (slot s: the list's atom
// and relative position; atom a: its parameters); an includer with texel
// views (forces.comp) reads them there instead (vk/pipeline.h).
#ifndef NB_ORDER
#define NB_ORDER(s) order[s]
#endif
#ifndef NB_REL
#define NB_REL(s) rel[s]
#endif
#ifndef NB_PARAMS
#define NB_PARAMS(a) params[a]
#endif

// Kahan summation: s + c carries the sum to about one ulp whatever the
// number of terms. `precise` stops the compiler from re-associating
// (t - s) - y to zero; it covers only these operations.
void kahan3(inout vec3 s, inout vec3 c, vec3 x)
{
    precise vec3 y = x - c;
    precise vec3 t = s + y;
    c = (t - s) - y;
    s = t;
}

void kahan(inout float s, inout float c, float x)
{
    precise float y = x - c;
    precise float t = s + y;
    c = (t - s) - y;
    s = t;
}

// LJ of a pair: energy, and f_over_r (-dE/dr / r). pi, pj: the atoms'
// parameters (q sqrt(k), sigma / 2, 2 sqrt(eps), type bits); TABLE (a
// constant at each call): the A/B table by type pair, else the
// Lorentz-Berthelot factors.
float lj_pair(vec4 pi, vec4 pj, float r2, float inv_r2, const bool TABLE, out float f_over_r)
{
    float sig2, eps4, a, b;
    if (TABLE) {
        uint t = floatBitsToUint(pi.w) * NB_TYPES + floatBitsToUint(pj.w);
        a = lj[2u * t];
        b = lj[2u * t + 1u];
#ifdef VKMD_NB_FP16
        sig2 = lj[LJ16_OFFSET + NB_TYPES * NB_TYPES + 2u * t];
        eps4 = lj[LJ16_OFFSET + NB_TYPES * NB_TYPES + 2u * t + 1u];
#endif
    } else {
        float sig = pi.y + pj.y;
        sig2 = sig * sig;
        eps4 = pi.z * pj.z;
    }
#ifdef VKMD_NB_FP16
    vec2 p32 = vec2(sig2, eps4);
    if (r2 >= FP16_MIN_R * FP16_MIN_R && p32.x * inv_r2 < 3.5) {
        f16vec2 p16 = TABLE ? f16vec2(unpackHalf2x16(floatBitsToUint(
                                     lj[LJ16_OFFSET + floatBitsToUint(pi.w) * NB_TYPES +
                                        floatBitsToUint(pj.w)])))
                               : f16vec2(p32);
        return form_lj_fp16(inv_r2, p16, p32, FP16_FORM, f_over_r);
    }
#endif
    if (TABLE)
        return form_lj(inv_r2, a, b, f_over_r);
    float s2 = sig2 * inv_r2;
    float s6 = s2 * s2 * s2;
    float e6 = eps4 * s6;
    f_over_r = e6 * (12.0 * s6 - 6.0) * inv_r2;
    return e6 * (s6 - 1.0);
}

// ---- LIST: the cluster-pair tiles -----------------------------------------

// Minimum image of d (kind-1 tiles), the edge as a float pair: d - k L_hi is
// exact near |d| = L, so subtracting k L_lo then rounds once, unbiased.
vec3 tile_min_image(vec3 d)
{
    if (TRICLINIC)
        return box_tri_min_image(d, NB_BOX, NB_BOX_LO);
    vec3 k = floor(d * NB_BOX_INV + 0.5);
    return (d - k * NB_BOX) - k * NB_BOX_LO;
}

// One tile: the 64 lane pairs of i-cluster (xi, pi per lane) with the
// j-cluster of entry en, mask row `bits` (MIN_IMAGE: a constant at each
// call; a branch in the rotation loop, even one never taken, costs lavapipe
// a third of the kernel). Adds the j forces; the i force and the energies
// go to the compensated sums.
void tile_compute(uvec4 en, uint bits, const bool MIN_IMAGE, vec3 xi, vec4 pi, inout vec3 fi,
                  inout vec3 fi_c, inout vec4 e)
{
    uint lane = tile_lane();
    float rc2 = NB_CUTOFF2, alpha = NB_ALPHA;
    uint sj = (en.x & ~VKMD_NL_KIND_BIT) * C + lane;
    uint aj = NB_ORDER(sj);
    vec3 xj = NB_REL(NB_SLOTS + sj).xyz + uintBitsToFloat(en.yzw);
    vec4 pj = aj != VKMD_NL_EMPTY ? NB_PARAMS(aj) : vec4(0.0);
    vec3 fj = vec3(0.0), ft = vec3(0.0);
    float tlj = 0.0, tc = 0.0;
    for (uint r = 0u; r < C; ++r) {
        vec3 d = xj - xi; // r_j - r_i
        if (MIN_IMAGE)
            d = tile_min_image(d);
        float r2 = dot(d, d);
        bool on = ((bits >> r) & 1u) != 0u && r2 < rc2;
        r2 = on ? r2 : 1.0; // masked pairs: finite arithmetic
        float inv_r = inversesqrt(r2);
        float inv_r2 = inv_r * inv_r;
        float f_lj;
        float e_lj = lj_pair(pi, pj, r2, inv_r2, LJ_TABLE, f_lj);
        float x = alpha * (r2 * inv_r), ex;
        float qq = pi.x * pj.x;
        float e_c = qq * form_erfc_approx(x, ex) * inv_r;
        float f_c = (e_c + qq * alpha * FORM_TWO_OVER_SQRT_PI * ex) * inv_r2;
        vec3 fv = (on ? f_lj + f_c : 0.0) * d; // force on j; i gets -fv
        ft -= fv;
        fj += fv;
        if (ENERGY) {
            float ex_p;
            tlj += on ? e_lj : 0.0;
            tc += on ? qq * form_erfc_precise(x, ex_p) * inv_r : 0.0;
        }
        xj = tile_rotate(xj);
        if (LJ_TABLE)
            pj = tile_rotate(pj);
        else
            pj.xyz = tile_rotate(pj.xyz);
        fj = tile_rotate(fj);
    }
    // Eight rotations later each lane holds its j atom again (padding lanes
    // hold zeros).
    uint na = NB_ATOMS, a = aj != VKMD_NL_EMPTY ? aj : 0u;
    force_add(VKMD_FORCE_INDEX(0, a, na), to_fixed(fj.x));
    force_add(VKMD_FORCE_INDEX(1, a, na), to_fixed(fj.y));
    force_add(VKMD_FORCE_INDEX(2, a, na), to_fixed(fj.z));
    kahan3(fi, fi_c, ft);
    if (ENERGY) {
        kahan(e.x, e.y, tlj);
        kahan(e.z, e.w, tc);
    }
}

// The inner-list tiles lo .. hi - 1 of one kind of cluster ci.
void tiles_of_kind(uint ci, uint lo, uint hi, const bool MIN_IMAGE, vec3 xi, vec4 pi,
                   inout vec3 fi, inout vec3 fi_c, inout vec4 e)
{
    uint lane = tile_lane();
    uint stride = NB_INNER, mask_base = NB_MASK_BASE;
    for (uint b = lo; b < hi; b += C) {
        uint idx = b + lane;
        uint from = ci * stride + (MIN_IMAGE ? stride - 1u - idx : idx);
        uvec4 ent = idx < hi ? inner[from] : uvec4(0u);
        uvec2 msk = idx < hi ? masks[mask_base + from] : uvec2(0u);
        uint nt = min(C, hi - b);
        for (uint t = 0u; t < nt; ++t)
            tile_compute(tile_bcast(ent, t), tile_row_bits(tile_bcast(msk, t)), MIN_IMAGE, xi, pi,
                         fi, fi_c, e);
    }
}

// The cluster's i forces and energies, once its tiles are done.
void cluster_finish(uint ai, vec3 fi, vec3 fi_c, vec4 e)
{
    if (ai != VKMD_NL_EMPTY) {
        uint na = NB_ATOMS;
        force_add(VKMD_FORCE_INDEX(0, ai, na), fixed_add(to_fixed(fi.x), to_fixed(fi_c.x)));
        force_add(VKMD_FORCE_INDEX(1, ai, na), fixed_add(to_fixed(fi.y), to_fixed(fi_c.y)));
        force_add(VKMD_FORCE_INDEX(2, ai, na), fixed_add(to_fixed(fi.z), to_fixed(fi_c.z)));
    }
    if (ENERGY) {
        vkmd_fixed e1 = fixed_add(to_fixed(e.x), to_fixed(e.y));
        vkmd_fixed e2 = fixed_add(to_fixed(e.z), to_fixed(e.w));
        if (!fixed_is_zero(e1))
            energy_add(VKMD_ENERGY_LJ, e1);
        if (!fixed_is_zero(e2))
            energy_add(VKMD_ENERGY_COUL_REAL, e2);
    }
}

// Part `part` of i-cluster ci's tiles (n0 of kind 0, then n1 of kind 1, cut
// into TILE_SPLIT contiguous parts: the includer's constant, forces/tile.h)
// with its own partial i forces. TILE_SPLIT 1: the cluster's whole list.
void cluster_part(uint ci, uint part, uint n0, uint n1, vec3 xi, vec4 pi, uint ai)
{
    uint n = n0 + n1;
    uint lo = part * n / TILE_SPLIT, hi = (part + 1u) * n / TILE_SPLIT;
    if (TILE_SPLIT > 1u && lo == hi)
        return;
    vec3 fi = vec3(0.0), fi_c = vec3(0.0);
    vec4 e = vec4(0.0); // LJ and its compensation, Coulomb and its
    tiles_of_kind(ci, min(lo, n0), min(hi, n0), false, xi, pi, fi, fi_c, e);
    tiles_of_kind(ci, max(lo, n0) - n0, max(hi, n0) - n0, true, xi, pi, fi, fi_c, e);
    cluster_finish(ai, fi, fi_c, e);
}

// The cluster parts (work items) group, group + groups, ...
void list_tiles(uint group, uint groups)
{
    uint lane = tile_lane();
    uint used = (st.slot_count + C - 1u) / C;
    for (uint item = group; item < used * TILE_SPLIT; item += groups) {
        uint ci = item / TILE_SPLIT;
        uint si = ci * C + lane;
        uint ai = NB_ORDER(si);
        vec4 pi = ai != VKMD_NL_EMPTY ? NB_PARAMS(ai) : vec4(0.0);
        uvec4 cnt = counts[ci];
        cluster_part(ci, item % TILE_SPLIT, cnt.z, cnt.w, NB_REL(NB_SLOTS + si).xyz, pi, ai);
    }
}

#endif
