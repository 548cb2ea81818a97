// Non-bonded pairs: LJ (A/r^12 - B/r^6 from the type tables, plain
// truncation) and Ewald real-space Coulomb kqq erfc(alpha r)/r within the
// cutoff (periodic, minimum image), or LJ and plain kqq/r over all pairs (no
// box); excluded pairs are not computed (another pass owns 1-4 terms and
// the excluded-pair correction). Oracle: ref_nonbonded_pairs. Three kernels
// by MODE (engine/forces/pass_nonbonded.h has the design and its cost):
//
// GATHER: per slot of the neighbour list, the atom's position with its
//   scaled charge in w and its LJ type, in the list's spatial order, so
//   that the pair kernel reads neighbours from nearby addresses.
// LIST: one thread per slot (lane l of cluster c = its 8 atoms); the
//   cluster's entries are read by all 8 lanes at once (one address), each
//   lane computes the pairs its mask bit selects. Full list: every pair is
//   computed from both sides, so a thread sums only its own atom's force
//   (no j-side reduction, no atomics per pair) and adds half the energy.
// ALL_PAIRS: one thread per atom over every other atom in index order; the
//   atom's exclusions (sorted) are skipped by walking them in step.
//
// Sums: each thread adds its pairs in a fixed order (the list order) with
// Kahan-compensated float sums (error ~1 ulp of the result, independent of
// the number of pairs), converts once to 64-bit fixed point and adds with
// one atomic per force component; energies are reduced per workgroup in
// 64-bit fixed point. Integer sums do not depend on thread order, so two
// evaluations are bitwise identical. The 64-bit values and atomics are int64
// or, in the "+words" build, pairs of 32-bit words with the same bits
// (common/fixed_point.glsl).
#version 450
#extension GL_GOOGLE_include_directive : require
// Build variants (shaders/variants.cmake): +words (32-bit fixed-point adds),
// +fp16 (LJ in half precision beyond FP16_MIN_R), +fp16words (both).
#ifdef VKMD_NB_FP16_WORDS
#define VKMD_NB_FP16
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
layout(local_size_x_id = VKMD_SPEC_WORKGROUP_SIZE) in;

layout(std430, binding = VKMD_NB_BINDING_POSITIONS) readonly buffer Positions { vec4 pos[]; };
layout(std430, binding = VKMD_NB_BINDING_FORCES) buffer Forces { vkmd_fixed force[]; };
layout(std430, binding = VKMD_NB_BINDING_ENERGIES) buffer Energies { vkmd_fixed energy[]; };
layout(std430, binding = VKMD_NB_BINDING_CHARGE) readonly buffer Charge { float charge[]; };
layout(std430, binding = VKMD_NB_BINDING_TYPE) readonly buffer Type { uint type[]; };
layout(std430, binding = VKMD_NB_BINDING_LJ) readonly buffer LJ { float lj[]; };
layout(std430, binding = VKMD_NB_BINDING_EXCL) readonly buffer Excl { uint excl[]; };
layout(std430, binding = VKMD_NB_BINDING_ORDER) readonly buffer Order { uint order[]; };
layout(std430, binding = VKMD_NB_BINDING_LIST) readonly buffer List { uint list[]; };
layout(std430, binding = VKMD_NB_BINDING_COUNTS) readonly buffer Counts { uint counts[]; };
layout(std430, binding = VKMD_NB_BINDING_XQ) buffer XQ { vec4 xq[]; };
layout(std430, binding = VKMD_NB_BINDING_STYPE) buffer SType { uint stype[]; };
layout(std430, binding = VKMD_NB_BINDING_POSITIONS_X) readonly buffer PositionsX { uvec4 pos_x[]; };
layout(std430, binding = VKMD_NB_BINDING_XS) buffer XS { uvec4 xs[]; };
layout(push_constant) uniform Push { VKMD_NB_PUSH_FIELDS } pc;

VKMD_POS_LOAD(load_pos, pos, pos_x)
VKMD_POS_LOAD_EXTRA(load_sorted, xs)
VKMD_POS_STORE(store_sorted, xq, xs)

const uint C = VKMD_NL_CLUSTER_SIZE;

shared vkmd_fixed red[2][WORKGROUP_SIZE];

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

// Minimum image of d = r_j - r_i and its squared length, with the box
// edge as a float pair (box + box_lo). Rounding the edge to float alone
// shifts every pair across a face by the same amount, a bias that does not
// average out (3e-7 of the LJ energy of water:8000); subtracting box_lo in
// float does not help either, since d - n box is exact on the coarse grid of
// the far coordinate, so adding a fixed sub-ulp term rounds the same way
// every time. Instead r^2 takes the first-order term 2 d.(-n box_lo), and
// the force direction uses d (a ~1e-7 relative difference).
vec3 min_image(vec3 d, out float r2)
{
    vec3 n = floor(d / pc.box.xyz + 0.5);
    vec3 dh = d - n * pc.box.xyz; // exact for |n| <= 1 (Sterbenz)
    r2 = dot(dh, dh) - 2.0 * dot(dh, n * pc.box_lo.xyz);
    return dh;
}

// Per-thread sums of one atom's pairs.
vec3 f_sum, f_comp;
float elj_sum, elj_comp, ec_sum, ec_comp;

// Pair (i, j) seen from i: d = r_j - r_i (minimum image when periodic),
// kqq = k q_i q_j, t = LJ type-pair index. Adds the force on i and half the
// energies (the pair is also computed from j's side).
void pair(vec3 d, float r2, float kqq, uint t)
{
    float inv_r = inversesqrt(r2);
    float inv_r2 = inv_r * inv_r;
    float f_lj, f_c, e_c;
#ifdef VKMD_NB_FP16
    float e_lj;
    f16vec2 p16 = f16vec2(unpackHalf2x16(floatBitsToUint(lj[LJ16_OFFSET + t])));
    vec2 p32 = vec2(lj[LJ16_OFFSET + pc.type_count * pc.type_count + 2u * t],
                    lj[LJ16_OFFSET + pc.type_count * pc.type_count + 2u * t + 1u]);
    if (r2 >= FP16_MIN_R * FP16_MIN_R && p32.x * inv_r2 < 3.5)
        e_lj = form_lj_fp16(inv_r2, p16, p32, FP16_FORM, f_lj);
    else
        e_lj = form_lj(inv_r2, lj[2u * t], lj[2u * t + 1u], f_lj);
#else
    float e_lj = form_lj(inv_r2, lj[2u * t], lj[2u * t + 1u], f_lj);
#endif
    if (pc.box.w != 0.0)
        e_c = form_coulomb_erfc_precise(r2 * inv_r, inv_r, kqq, pc.params.y, f_c);
    else
        e_c = form_coulomb(inv_r, kqq, f_c);
    kahan3(f_sum, f_comp, -(f_lj + f_c) * d);
    kahan(elj_sum, elj_comp, 0.5 * e_lj);
    kahan(ec_sum, ec_comp, 0.5 * e_c);
}

void add_force(uint atom)
{
    uint n = pc.sizes.x;
    force_add(VKMD_FORCE_INDEX(0, atom, n), fixed_add(to_fixed(f_sum.x), to_fixed(f_comp.x)));
    force_add(VKMD_FORCE_INDEX(1, atom, n), fixed_add(to_fixed(f_sum.y), to_fixed(f_comp.y)));
    force_add(VKMD_FORCE_INDEX(2, atom, n), fixed_add(to_fixed(f_sum.z), to_fixed(f_comp.z)));
}

void reset_sums()
{
    f_sum = vec3(0.0);
    f_comp = vec3(0.0);
    elj_sum = elj_comp = ec_sum = ec_comp = 0.0;
}

void gather()
{
    uint stride = gl_NumWorkGroups.x * WORKGROUP_SIZE;
    for (uint s = gl_GlobalInvocationID.x; s < pc.sizes.y; s += stride) {
        uint a = order[s];
        if (a != VKMD_NL_EMPTY) {
            store_sorted(s, load_pos(a));
            xq[s].w = charge[a];
            stype[s] = type[a];
        } else {
            xq[s] = vec4(0.0);
            stype[s] = 0u;
        }
    }
}

// Periodic list kernel; returns the thread's energies in fixed point.
void list_pairs(inout vkmd_fixed e_lj, inout vkmd_fixed e_c)
{
    uint stride = gl_NumWorkGroups.x * WORKGROUP_SIZE;
    uint slots = pc.sizes.z * C;
    uint max_neigh = pc.sizes.w;
    float cutoff2 = pc.params.x;
    for (uint s = gl_GlobalInvocationID.x; s < slots; s += stride) {
        uint atom = order[s];
        if (atom == VKMD_NL_EMPTY)
            continue;
        uint cluster = s / C, lane = s % C;
        vec4 xi = xq[s];
        vkmd_pos pi = load_sorted(s, xi.xyz);
        uint row = stype[s] * pc.type_count;
        uint base = cluster * max_neigh;
        uint n = counts[cluster];
        reset_sums();
        for (uint k = 0; k < n; ++k) {
            uint e = list[base + k];
            if (((e >> lane) & 1u) == 0u)
                continue;
            uint js = e >> VKMD_NL_MASK_BITS;
            vec4 xj = xq[js];
            float r2;
            vec3 d = min_image(pos_sub(load_sorted(js, xj.xyz), pi), r2);
            if (r2 < cutoff2)
                pair(d, r2, xi.w * xj.w, row + stype[js]);
        }
        add_force(atom);
        e_lj = fixed_add(e_lj, fixed_add(to_fixed(elj_sum), to_fixed(elj_comp)));
        e_c = fixed_add(e_c, fixed_add(to_fixed(ec_sum), to_fixed(ec_comp)));
    }
}

// Vacuum kernel: all pairs, no cutoff, no minimum image.
void all_pairs(inout vkmd_fixed e_lj, inout vkmd_fixed e_c)
{
    uint stride = gl_NumWorkGroups.x * WORKGROUP_SIZE;
    uint n = pc.sizes.x;
    for (uint i = gl_GlobalInvocationID.x; i < n; i += stride) {
        vkmd_pos pi = load_pos(i);
        float qi = charge[i];
        uint row = type[i] * pc.type_count;
        uint e = excl[i], e_end = excl[i + 1u];
        uint next = e < e_end ? excl[n + 1u + e] : VKMD_NL_EMPTY;
        reset_sums();
        for (uint j = 0; j < n; ++j) {
            if (j == next) {
                ++e;
                next = e < e_end ? excl[n + 1u + e] : VKMD_NL_EMPTY;
                continue;
            }
            if (j == i)
                continue;
            vec3 d = pos_sub(load_pos(j), pi);
            pair(d, dot(d, d), qi * charge[j], row + type[j]);
        }
        add_force(i);
        e_lj = fixed_add(e_lj, fixed_add(to_fixed(elj_sum), to_fixed(elj_comp)));
        e_c = fixed_add(e_c, fixed_add(to_fixed(ec_sum), to_fixed(ec_comp)));
    }
}

void main()
{
    if (MODE == VKMD_NB_MODE_GATHER) {
        gather();
        return;
    }
    vkmd_fixed e_lj = VKMD_FIXED_ZERO, e_c = VKMD_FIXED_ZERO;
    if (MODE == VKMD_NB_MODE_LIST)
        list_pairs(e_lj, e_c);
    else
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
    if (lid == 0) {
        if (!fixed_is_zero(red[0][0]))
            energy_add(VKMD_ENERGY_LJ, red[0][0]);
        if (!fixed_is_zero(red[1][0]))
            energy_add(VKMD_ENERGY_COUL_REAL, red[1][0]);
    }
}
