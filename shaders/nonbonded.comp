// Non-bonded pairs: LJ (A/r^12 - B/r^6, plain truncation) and Ewald
// real-space Coulomb kqq erfc(alpha r)/r within the cutoff (periodic), or LJ
// and plain kqq/r over all pairs (no box); excluded pairs are not computed
// (another pass owns 1-4 terms and the excluded-pair correction). Oracle:
// ref_nonbonded_pairs. Two kernels by MODE (engine/forces/pass_nonbonded.h
// has the design and its cost):
//
// LIST: cluster-pair tiles from the neighbour list's inner list, each pair
//   once, pruned from the outer list first when the list's check asked
//   (common/pair_prune.glsl). One group of 8 lanes per i-cluster (common/tile.glsl): lane l
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
layout(constant_id = VKMD_SPEC_NB_TILE_SPLIT) const uint TILE_SPLIT = 1u;
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
// Written by the prune in front of the tiles (common/pair_prune.glsl);
// coherent: with split tiles a group reads inner tiles that other groups of
// its workgroup wrote in this dispatch.
layout(std430, binding = VKMD_NB_BINDING_TILES) coherent buffer Tiles { uvec4 inner[]; };
layout(std430, binding = VKMD_NB_BINDING_MASKS) coherent buffer Masks { uvec2 masks[]; };
layout(std430, binding = VKMD_NB_BINDING_COUNTS) buffer Counts { uvec4 counts[]; };
layout(std430, binding = VKMD_NB_BINDING_NL_STATE) buffer NlState { VKMD_NL_STATE_FIELDS } st;
layout(std430, binding = VKMD_NB_BINDING_OUTER) readonly buffer Outer { uvec4 outer[]; };
layout(std430, binding = VKMD_NB_BINDING_NL_SAVED) buffer Saved { vec4 saved[]; };
layout(std430, binding = VKMD_NB_BINDING_POSITIONS_X) readonly buffer PositionsX { uvec4 pos_x[]; };
layout(push_constant) uniform Push { VKMD_NB_PUSH_FIELDS } pc;

VKMD_POS_LOAD(load_pos, pos, pos_x)

const uint C = VKMD_NL_CLUSTER_SIZE;

VKMD_FIXED_DEFINE_ATOMIC_ADD(force_add, force)
VKMD_FIXED_DEFINE_ATOMIC_ADD(energy_add, energy)

#define NB_ATOMS     (pc.sizes.x)
#define NB_SLOTS     (pc.sizes.y)
#define NB_INNER     (pc.sizes.w)
#define NB_MASK_BASE (pc.extra.x)
#define NB_TYPES     (pc.extra.y)
#define NB_CUTOFF2   (pc.params.x)
#define NB_ALPHA     (pc.params.y)
#define NB_BOX       (pc.box.xyz)
#define NB_BOX_LO    (pc.box_lo.xyz)
#define NB_BOX_INV   (pc.box_inv.xyz)
#include "common/nonbonded_tiles.glsl"

#define NLP_BOX          (pc.box.xyz)
#define NLP_BOX_LO       (pc.box_lo.xyz)
#define NLP_R_INNER      (pc.box_lo.w)
#define NLP_SLOTS        (pc.sizes.y)
#define NLP_CLUSTERS     (pc.sizes.z)
#define NLP_OUTER_STRIDE (floatBitsToUint(pc.box_inv.w))
#define NLP_INNER_STRIDE (pc.sizes.w)
#define NLP_ATOMS        (pc.sizes.x)
#include "common/pair_prune.glsl"

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
        pair_tiles(gl_WorkGroupID.x, gl_NumWorkGroups.x);
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
