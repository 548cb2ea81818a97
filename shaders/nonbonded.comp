// Non-bonded pairs: LJ (A/r^12 - B/r^6, plain truncation) and Ewald
// real-space Coulomb kqq erfc(alpha r)/r within the cutoff (periodic), or LJ
// and plain kqq/r over all pairs (no box); excluded pairs are not computed
// (another pass owns 1-4 terms and the excluded-pair correction). Oracle:
// ref_nonbonded_pairs. Two kernels by MODE (engine/forces/pass_nonbonded.h
// has the design and its cost):
//
// LIST: cluster-pair tiles from the neighbour list's inner list, each pair
//   once. One group of 8 lanes per i-cluster (common/tile.glsl): lane l
//   holds i atom l; for each tile it loads j atom l, and 8 rotations pass the
//   j atoms, their parameters and their force sums around the group, so
//   every lane computes one pair per rotation and the 64 pairs need no
//   reduction: after the 8th rotation each lane holds its own j atom's force
//   again and adds it (one fixed-point atomic per component per tile). The
//   i forces stay in registers for the cluster's whole list (a compensated
//   sum of the tiles' sums) and are added once. Positions are relative to
//   the clusters' anchors (the list's gather); a tile's offset puts j into
//   i's frame, so the kernel needs no minimum image except in kind-1 tiles.
// ALL_PAIRS: one thread per atom over every other atom in index order; the
//   atom's exclusions (sorted) are skipped by walking them in step.
//
// Forces use the Abramowitz-Stegun erfc (max error 1.5e-7, one exp shared
// with the force, as OpenMM); with ENERGY the energy uses the few-ulp erfc
// (common/forms.glsl) whose sum over millions of pairs has no visible bias.
// LJ parameters come from per-atom Lorentz-Berthelot factors when the type
// tables follow that rule (sigma/2, 2 sqrt(eps): sigma_ij and 4 eps_ij are
// one add and one product), else from the A/B table by type pair (LJ_TABLE).
//
// Sums: integer additions of 64-bit fixed point, so two evaluations are
// bitwise identical whatever the thread order. The 64-bit values and atomics
// are int64 or, in the "+words" builds, pairs of 32-bit words with the same
// bits (common/fixed_point.glsl).
#version 450
#extension GL_GOOGLE_include_directive : require
// Build variants (shaders/variants.cmake): +words (32-bit fixed-point adds),
// +fp16 (LJ in half precision beyond FP16_MIN_R), +fp16words (both), +shared
// and +sharedwords (tiles through shared memory, common/tile.glsl).
#ifdef VKMD_NB_FP16_WORDS
#define VKMD_NB_FP16
#define VKMD_FIXED_WORDS
#endif
#ifdef VKMD_TILE_SHARED_WORDS
#define VKMD_TILE_SHARED
#define VKMD_FIXED_WORDS
#endif
#ifdef VKMD_NB_FP16
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#endif
#include "common/vkmd_layout.h"
#include "common/fixed_point.glsl"
#include "common/forms.glsl"
#include "common/positions.glsl"

layout(constant_id = VKMD_SPEC_WORKGROUP_SIZE) const uint WORKGROUP_SIZE = VKMD_NB_WORKGROUP_SIZE;
layout(constant_id = VKMD_SPEC_NB_MODE) const uint MODE = VKMD_NB_MODE_LIST;
layout(constant_id = VKMD_SPEC_NB_FP16_MIN_R) const float FP16_MIN_R = 0.0;
layout(constant_id = VKMD_SPEC_NB_LJ16_OFFSET) const uint LJ16_OFFSET = 0u;
layout(constant_id = VKMD_SPEC_NB_FP16_FORM) const uint FP16_FORM = VKMD_NB_FP16_FORM_PURE;
layout(constant_id = VKMD_SPEC_ENERGY) const bool ENERGY = true;
layout(constant_id = VKMD_SPEC_NB_LJ_TABLE) const bool LJ_TABLE = false;
layout(local_size_x_id = VKMD_SPEC_WORKGROUP_SIZE) in;

#include "common/tile.glsl"

layout(std430, binding = VKMD_NB_BINDING_POSITIONS) readonly buffer Positions { vec4 pos[]; };
layout(std430, binding = VKMD_NB_BINDING_FORCES) buffer Forces { vkmd_fixed force[]; };
layout(std430, binding = VKMD_NB_BINDING_ENERGIES) buffer Energies { vkmd_fixed energy[]; };
layout(std430, binding = VKMD_NB_BINDING_PARAMS) readonly buffer Params { vec4 params[]; };
layout(std430, binding = VKMD_NB_BINDING_LJ) readonly buffer LJ { float lj[]; };
layout(std430, binding = VKMD_NB_BINDING_EXCL) readonly buffer Excl { uint excl[]; };
layout(std430, binding = VKMD_NB_BINDING_ORDER) readonly buffer Order { uint order[]; };
layout(std430, binding = VKMD_NB_BINDING_REL) readonly buffer Rel { vec4 rel[]; };
layout(std430, binding = VKMD_NB_BINDING_TILES) readonly buffer Tiles { uvec4 tiles[]; };
layout(std430, binding = VKMD_NB_BINDING_MASKS) readonly buffer Masks { uvec2 masks[]; };
layout(std430, binding = VKMD_NB_BINDING_COUNTS) readonly buffer Counts { uvec4 counts[]; };
layout(std430, binding = VKMD_NB_BINDING_NL_STATE) readonly buffer NlState { VKMD_NL_STATE_FIELDS } nl;
layout(std430, binding = VKMD_NB_BINDING_POSITIONS_X) readonly buffer PositionsX { uvec4 pos_x[]; };
layout(push_constant) uniform Push { VKMD_NB_PUSH_FIELDS } pc;

VKMD_POS_LOAD(load_pos, pos, pos_x)

const uint C = VKMD_NL_CLUSTER_SIZE;

VKMD_FIXED_DEFINE_ATOMIC_ADD(force_add, force)
VKMD_FIXED_DEFINE_ATOMIC_ADD(energy_add, energy)

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
        uint t = floatBitsToUint(pi.w) * pc.extra.y + floatBitsToUint(pj.w);
        a = lj[2u * t];
        b = lj[2u * t + 1u];
#ifdef VKMD_NB_FP16
        sig2 = lj[LJ16_OFFSET + pc.extra.y * pc.extra.y + 2u * t];
        eps4 = lj[LJ16_OFFSET + pc.extra.y * pc.extra.y + 2u * t + 1u];
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
                                     lj[LJ16_OFFSET + floatBitsToUint(pi.w) * pc.extra.y +
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
    vec3 k = floor(d * pc.box_inv.xyz + 0.5);
    return (d - k * pc.box.xyz) - k * pc.box_lo.xyz;
}

// The tiles of one kind of cluster ci (MIN_IMAGE a constant at each call:
// a branch in the rotation loop, even one never taken, costs lavapipe a
// third of the kernel). Adds the j forces; the i force and the energies
// go to the compensated sums.
void tiles_of_kind(uint ci, uint n, const bool MIN_IMAGE, vec3 xi, vec4 pi, inout vec3 fi,
                   inout vec3 fi_c, inout vec4 e)
{
    uint lane = tile_lane();
    float rc2 = pc.params.x, alpha = pc.params.y;
    uint stride = pc.sizes.w, mask_base = pc.extra.x;
    for (uint b = 0u; b < n; b += C) {
        uint idx = b + lane;
        uint from = ci * stride + (MIN_IMAGE ? stride - 1u - idx : idx);
        uvec4 ent = idx < n ? tiles[from] : uvec4(0u);
        uvec2 msk = idx < n ? masks[mask_base + from] : uvec2(0u);
        uint nt = min(C, n - b);
        for (uint t = 0u; t < nt; ++t) {
            uvec4 en = tile_bcast(ent, t);
            uint bits = tile_row_bits(tile_bcast(msk, t));
            uint sj = (en.x & ~VKMD_NL_KIND_BIT) * C + lane;
            uint aj = order[sj];
            vec3 xj = rel[pc.sizes.y + sj].xyz + uintBitsToFloat(en.yzw);
            vec4 pj = aj != VKMD_NL_EMPTY ? params[aj] : vec4(0.0);
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
            // Eight rotations later each lane holds its j atom again
            // (padding lanes hold zeros).
            uint na = pc.sizes.x, a = aj != VKMD_NL_EMPTY ? aj : 0u;
            force_add(VKMD_FORCE_INDEX(0, a, na), to_fixed(fj.x));
            force_add(VKMD_FORCE_INDEX(1, a, na), to_fixed(fj.y));
            force_add(VKMD_FORCE_INDEX(2, a, na), to_fixed(fj.z));
            kahan3(fi, fi_c, ft);
            if (ENERGY) {
                kahan(e.x, e.y, tlj);
                kahan(e.z, e.w, tc);
            }
        }
    }
}

void list_tiles()
{
    uint lane = tile_lane();
    uint used = (nl.slot_count + C - 1u) / C;
    for (uint ci = tile_group(); ci < used; ci += tile_group_count()) {
        uint si = ci * C + lane;
        vec3 xi = rel[pc.sizes.y + si].xyz;
        uint ai = order[si];
        vec4 pi = ai != VKMD_NL_EMPTY ? params[ai] : vec4(0.0);
        vec3 fi = vec3(0.0), fi_c = vec3(0.0);
        vec4 e = vec4(0.0); // LJ and its compensation, Coulomb and its
        uvec4 cnt = counts[ci];
        tiles_of_kind(ci, cnt.z, false, xi, pi, fi, fi_c, e);
        tiles_of_kind(ci, cnt.w, true, xi, pi, fi, fi_c, e);
        if (ai != VKMD_NL_EMPTY) {
            uint na = pc.sizes.x;
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
}

// ---- ALL_PAIRS: vacuum ------------------------------------------------------

shared vkmd_fixed red[2][WORKGROUP_SIZE];

void all_pairs(inout vkmd_fixed e_lj, inout vkmd_fixed e_c)
{
    uint stride = gl_NumWorkGroups.x * WORKGROUP_SIZE;
    uint n = pc.sizes.x;
    for (uint i = gl_GlobalInvocationID.x; i < n; i += stride) {
        vkmd_pos p_i = load_pos(i);
        vec4 pi = params[i];
        uint e = excl[i], e_end = excl[i + 1u];
        uint next = e < e_end ? excl[n + 1u + e] : VKMD_NL_EMPTY;
        vec3 f = vec3(0.0), f_c = vec3(0.0);
        float sl = 0.0, sl_c = 0.0, sc = 0.0, sc_c = 0.0;
        for (uint j = 0; j < n; ++j) {
            if (j == next) {
                ++e;
                next = e < e_end ? excl[n + 1u + e] : VKMD_NL_EMPTY;
                continue;
            }
            if (j == i)
                continue;
            vec4 pj = params[j];
            vec3 d = pos_sub(load_pos(j), p_i);
            float r2 = dot(d, d);
            float inv_r = inversesqrt(r2);
            float inv_r2 = inv_r * inv_r;
            float f_lj, f_co;
            // The A/B table here (vacuum systems are small): the same
            // arithmetic as the reference's, pair for pair.
            float elj = lj_pair(pi, pj, r2, inv_r2, true, f_lj);
            float eco = form_coulomb(inv_r, pi.x * pj.x, f_co);
            kahan3(f, f_c, -(f_lj + f_co) * d);
            kahan(sl, sl_c, 0.5 * elj);
            kahan(sc, sc_c, 0.5 * eco);
        }
        uint na = pc.sizes.x;
        force_add(VKMD_FORCE_INDEX(0, i, na), fixed_add(to_fixed(f.x), to_fixed(f_c.x)));
        force_add(VKMD_FORCE_INDEX(1, i, na), fixed_add(to_fixed(f.y), to_fixed(f_c.y)));
        force_add(VKMD_FORCE_INDEX(2, i, na), fixed_add(to_fixed(f.z), to_fixed(f_c.z)));
        e_lj = fixed_add(e_lj, fixed_add(to_fixed(sl), to_fixed(sl_c)));
        e_c = fixed_add(e_c, fixed_add(to_fixed(sc), to_fixed(sc_c)));
    }
}

void main()
{
    if (MODE == VKMD_NB_MODE_LIST) {
        list_tiles();
        return;
    }
    vkmd_fixed e_lj = VKMD_FIXED_ZERO, e_c = VKMD_FIXED_ZERO;
    all_pairs(e_lj, e_c);
    uint lid = gl_LocalInvocationID.x;
    red[0][lid] = e_lj;
    red[1][lid] = e_c;
    barrier();
    for (uint h = WORKGROUP_SIZE / 2; h > 0; h /= 2) {
        if (lid < h) {
            red[0][lid] = fixed_add(red[0][lid], red[0][lid + h]);
            red[1][lid] = fixed_add(red[1][lid], red[1][lid + h]);
        }
        barrier();
    }
    if (lid == 0 && ENERGY) {
        if (!fixed_is_zero(red[0][0]))
            energy_add(VKMD_ENERGY_LJ, red[0][0]);
        if (!fixed_is_zero(red[1][0]))
            energy_add(VKMD_ENERGY_COUL_REAL, red[1][0]);
    }
}
