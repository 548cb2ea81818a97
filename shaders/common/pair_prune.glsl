// The pair kernels' tiles with the neighbour list's prune in front of them
// (nonbonded.comp, and the pair role of the fused forces.comp): when the
// list's check asked for a prune (st.prune_now), each i-cluster's outer
// tiles are pruned into its inner list (common/nl_prune.glsl) by the
// groups that then compute its inner tiles, so the prune costs no dispatch
// and no barrier of its own. The same inner list as nl_prune.comp, the same
// parts and partial sums as list_tiles (common/nonbonded_tiles.glsl): the
// same bits.
//
// The includer declares the buffers of common/nonbonded_tiles.glsl (with
// inner, masks and counts writable) and outer, saved, pos, st (the list's
// state, writable), includes common/tile.glsl and common/nonbonded_tiles.glsl,
// defines the NLP_* values common/nl_prune.glsl names and NLP_ATOMS, and
// sets WORKGROUP_SIZE, TILE_SPLIT and C.
#ifndef VKMD_PAIR_PRUNE_GLSL
#define VKMD_PAIR_PRUNE_GLSL

// Groups that prune one cluster together: a workgroup of TILE_SPLIT groups
// of 8 lanes (the passes make it so with split tiles, forces/tile.h).
const uint PRUNE_SPLIT = WORKGROUP_SIZE == TILE_SPLIT * C ? TILE_SPLIT : 1u;
#include "common/nl_prune.glsl"

// The prune's bookkeeping of cluster ci (one lane).
void pruned(uint ci, uint k0, uint k1)
{
    uint total = k0 + k1, inner_stride = NLP_INNER_STRIDE;
    counts[ci].zw = uvec2(min(k0, inner_stride), min(k1, inner_stride));
    atomicMax(st.max_inner, total);
    atomicAdd(st.tiles_inner, total);
    if (total > inner_stride)
        atomicMax(st.overflow, 1u);
}

// With a prune, one workgroup per i-cluster (its PRUNE_SPLIT groups): the
// groups prune the cluster together, the inner tiles they wrote are made
// visible to the workgroup, and each group computes its part of them (the
// parts list_tiles gives groups). wg, wgs: this workgroup among the wgs
// that share the tiles.
void pairs_split(uint wg, uint wgs)
{
    uint lane = tile_lane(), sub = gl_LocalInvocationID.x / C;
    uint used = (st.slot_count + C - 1u) / C;
    uint inner_stride = NLP_INNER_STRIDE;
    for (uint ci = wg; ci < used; ci += wgs) {
        uint si = ci * C + lane;
        vec3 xi = NB_REL(NB_SLOTS + si).xyz;
        uint ai = NB_ORDER(si);
        vec4 pi = ai != VKMD_NL_EMPTY ? NB_PARAMS(ai) : vec4(0.0);
        if (sub == 0u && ai != VKMD_NL_EMPTY)
            saved[NLP_ATOMS + ai] = pos[ai];
        uvec4 cnt = counts[ci];
        uint k0 = prune_kind_split(ci, cnt.x, false, xi, sub);
        uint k1 = prune_kind_split(ci, cnt.y, true, xi, sub);
        if (sub == 0u && lane == 0u)
            pruned(ci, k0, k1);
        memoryBarrierBuffer();
        barrier();
        cluster_part(ci, sub, min(k0, inner_stride), min(k1, inner_stride), xi, pi, ai);
    }
}

// With a prune, one group per i-cluster (groups group, group + groups,
// ...): the group prunes its cluster's outer tiles into the inner list,
// syncs (it then reads what its lane 0 wrote), and computes the inner tiles;
// every group of a subgroup runs the same number of iterations so that the
// sync sees them all.
void pairs_serial(uint group, uint groups)
{
    uint lane = tile_lane();
    uint used = (st.slot_count + C - 1u) / C;
    uint inner_stride = NLP_INNER_STRIDE;
    uint iters = (used + groups - 1u) / groups;
    for (uint it = 0u; it < iters; ++it) {
        uint ci = group + it * groups;
        bool on_list = ci < used;
        uint si = ci * C + lane;
        vec3 xi = on_list ? NB_REL(NB_SLOTS + si).xyz : vec3(0.0);
        uint ai = on_list ? NB_ORDER(si) : VKMD_NL_EMPTY;
        vec4 pi = ai != VKMD_NL_EMPTY ? NB_PARAMS(ai) : vec4(0.0);
        if (ai != VKMD_NL_EMPTY)
            saved[NLP_ATOMS + ai] = pos[ai];
        uvec4 cnt = on_list ? counts[ci] : uvec4(0u);
        uint k0 = prune_kind(ci, cnt.x, false, xi);
        uint k1 = prune_kind(ci, cnt.y, true, xi);
        if (on_list && lane == 0u)
            pruned(ci, k0, k1);
        tile_sync();
        // The parts the split kernel gives other groups, here one after the
        // other: the same partial sums, so the same bits as list_tiles.
        if (on_list)
            for (uint part = 0u; part < TILE_SPLIT; ++part)
                cluster_part(ci, part, min(k0, inner_stride), min(k1, inner_stride), xi, pi, ai);
    }
}

// The pair tiles of workgroup wg of wgs (uniform over the workgroup), with
// the prune when the check asked for one.
void pair_tiles(uint wg, uint wgs)
{
    uint per_wg = WORKGROUP_SIZE / C;
    uint group = wg * per_wg + gl_LocalInvocationID.x / C, groups = wgs * per_wg;
    if (st.prune_now == 0u)
        list_tiles(group, groups);
    else if (PRUNE_SPLIT > 1u)
        pairs_split(wg, wgs);
    else
        pairs_serial(group, groups);
}

#endif
