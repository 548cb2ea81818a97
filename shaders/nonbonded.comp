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
// ALL_PAIRS (vacuum): the same tiles over every pair of 8-atom clusters in
//   index order, each pair once, positions relative to the i-cluster's
//   first atom (split positions cost what fp32 costs); the tiles whose
//   mask is not full (diagonal, padding, exclusions) are listed by the host.
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
layout(constant_id = VKMD_SPEC_TEXEL_READS) const bool TEXEL_READS = false;
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
// The pair tiles' per-atom reads through texel views on CPU devices.
#define NB_TEXELS_ORDER  VKMD_NB_BINDING_ORDER_TEXELS
#define NB_TEXELS_REL    VKMD_NB_BINDING_REL_TEXELS
#define NB_TEXELS_PARAMS VKMD_NB_BINDING_PARAMS_TEXELS
#include "common/nb_texels.glsl"
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

// Clusters are 8 consecutive atoms in index order (the last one padded).
// Cluster ci takes the tiles with clusters ci + t (mod the cluster count)
// for t = 0 .. vac_tile_count(ci) - 1: each pair of clusters once, every
// cluster about half of them (a balanced triangle). Tile masks that are
// not all ones (the diagonal tile, padding, excluded pairs) come from the
// host, per cluster in order of t: words [0, nc] CSR offsets, then entries
// of three words (t, mask.x, mask.y) from nc + 1 (pass_nonbonded.c).
uint vac_tile_count(uint ci, uint nc)
{
    return 1u + (nc - 1u) / 2u + ((nc & 1u) == 0u && ci < nc / 2u ? 1u : 0u);
}

// One vacuum tile: LJ from the A/B table (the reference's arithmetic, pair
// for pair) and plain Coulomb kqq/r, over the lane pairs of `bits`. xi, xj:
// positions relative to the i-cluster's first atom.
void vac_tile(vec3 xj, vec4 pj, uint aj, bool vj, uint bits, vec3 xi, vec4 pi, inout vec3 fi,
              inout vec3 fi_c, inout vec4 e)
{
    vec3 fj = vec3(0.0), ft = vec3(0.0);
    float tlj = 0.0, tc = 0.0;
    for (uint r = 0u; r < C; ++r) {
        vec3 d = xj - xi; // r_j - r_i
        bool on = ((bits >> r) & 1u) != 0u;
        float r2 = on ? dot(d, d) : 1.0; // masked pairs: finite arithmetic
        float inv_r = inversesqrt(r2);
        float inv_r2 = inv_r * inv_r;
        float f_lj, f_co;
        float e_lj = lj_pair(pi, pj, r2, inv_r2, true, f_lj);
        float e_co = form_coulomb(inv_r, pi.x * pj.x, f_co);
        vec3 fv = (on ? f_lj + f_co : 0.0) * d; // force on j; i gets -fv
        ft -= fv;
        fj += fv;
        if (ENERGY) {
            tlj += on ? e_lj : 0.0;
            tc += on ? e_co : 0.0;
        }
        xj = tile_rotate(xj);
        pj.xw = tile_rotate(pj.xw);
        fj = tile_rotate(fj);
    }
    if (vj) {
        uint na = NB_ATOMS;
        force_add(VKMD_FORCE_INDEX(0, aj, na), to_fixed(fj.x));
        force_add(VKMD_FORCE_INDEX(1, aj, na), to_fixed(fj.y));
        force_add(VKMD_FORCE_INDEX(2, aj, na), to_fixed(fj.z));
    }
    kahan3(fi, fi_c, ft);
    if (ENERGY) {
        kahan(e.x, e.y, tlj);
        kahan(e.z, e.w, tc);
    }
}

// Work items: cluster ci's tiles cut into TILE_SPLIT contiguous parts.
void all_pairs(uint group, uint groups)
{
    uint lane = tile_lane(), n = NB_ATOMS, nc = (n + C - 1u) / C;
    for (uint item = group; item < nc * TILE_SPLIT; item += groups) {
        uint ci = item / TILE_SPLIT, part = item % TILE_SPLIT;
        uint count = vac_tile_count(ci, nc);
        uint lo = part * count / TILE_SPLIT, hi = (part + 1u) * count / TILE_SPLIT;
        if (lo == hi)
            continue;
        vkmd_pos anchor = load_pos(ci * C);
        uint ai = ci * C + lane;
        bool vi = ai < n;
        vec3 xi = vi ? pos_sub(load_pos(ai), anchor) : vec3(0.0);
        vec4 pi = vi ? params[ai] : vec4(0.0);
        uint ent = excl[ci], ent_end = excl[ci + 1u], base = nc + 1u;
        while (ent < ent_end && excl[base + 3u * ent] < lo)
            ++ent;
        uint next = ent < ent_end ? excl[base + 3u * ent] : VKMD_NL_EMPTY;
        vec3 fi = vec3(0.0), fi_c = vec3(0.0);
        vec4 e = vec4(0.0); // LJ and its compensation, Coulomb and its
        for (uint t = lo; t < hi; ++t) {
            uvec2 m = uvec2(0xFFFFFFFFu);
            if (t == next) {
                m = uvec2(excl[base + 3u * ent + 1u], excl[base + 3u * ent + 2u]);
                ++ent;
                next = ent < ent_end ? excl[base + 3u * ent] : VKMD_NL_EMPTY;
            }
            uint cj = ci + t < nc ? ci + t : ci + t - nc;
            uint aj = cj * C + lane;
            bool vj = aj < n;
            vec3 xj = vj ? pos_sub(load_pos(aj), anchor) : vec3(0.0);
            vec4 pj = vj ? params[aj] : vec4(0.0);
            vac_tile(xj, pj, aj, vj, tile_row_bits(m), xi, pi, fi, fi_c, e);
        }
        cluster_finish(vi ? ai : VKMD_NL_EMPTY, fi, fi_c, e);
    }
}

void main()
{
    if (MODE == VKMD_NB_MODE_LIST)
        pair_tiles(gl_WorkGroupID.x, gl_NumWorkGroups.x);
    else
        all_pairs(tile_group(), tile_group_count());
}
