// Neighbour list, when the check says so (engine/forces/pass_neighbor.c): the
// inner list pruned from the outer one. For each outer tile the 64 lane
// pairs are measured at the current positions (the gather's relative ones)
// by a group of 8 lanes (common/tile.glsl), and the tile is kept when any
// pair the mask allows lies within the inner radius (cutoff + skin). Tiles
// keep their order, kind and mask. The positions of this prune are saved
// for the next checks. Tiles past the inner stride are counted, not written
// (overflow flag, max_inner).
// PRUNE_SPLIT 1 (CPU devices): one group per i-cluster walks its outer
// tiles. PRUNE_SPLIT > 1 (GPUs; the workgroup is that many groups): one
// workgroup per i-cluster, its groups taking the tiles in rounds
// (common/nl_prune.glsl: prune_kind_split), the same inner list.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common/nl_common.glsl"

layout(constant_id = VKMD_SPEC_NB_TILE_SPLIT) const uint PRUNE_SPLIT = 1u;

#include "common/tile.glsl"

const uint C = VKMD_NL_CLUSTER_SIZE;

#define NLP_BOX          (pc.box.xyz)
#define NLP_BOX_LO       (pc.box_lo.xyz)
#define NLP_R_INNER      (pc.box_lo.w)
#define NLP_SLOTS        (pc.sizes.y)
#define NLP_CLUSTERS     (pc.sizes.z)
#define NLP_OUTER_STRIDE (pc.sizes.w)
#define NLP_INNER_STRIDE (pc.limits.x)
#include "common/nl_prune.glsl"

// The counts and counters of cluster ci after its prune (one lane).
void prune_done(uint ci, uint k0, uint k1)
{
    uint total = k0 + k1;
    counts[ci].zw = uvec2(min(k0, NL_INNER), min(k1, NL_INNER));
    atomicMax(st.max_inner, total);
    atomicAdd(st.tiles_inner, total);
    if (total > NL_INNER)
        atomicMax(st.overflow, 1u);
}

void main()
{
    uint lane = tile_lane();
    uint used = (st.slot_count + C - 1u) / C;
    if (PRUNE_SPLIT > 1u) {
        uint sub = gl_LocalInvocationID.x / C;
        for (uint ci = gl_WorkGroupID.x; ci < used; ci += gl_NumWorkGroups.x) {
            uint si = ci * C + lane;
            vec3 xi = rel[NL_SLOTS + si].xyz;
            uint ai = order[si];
            if (sub == 0u && ai != VKMD_NL_EMPTY)
                saved[NL_ATOMS + ai] = pos[ai];
            uvec4 cnt = counts[ci];
            uint k0 = prune_kind_split(ci, cnt.x, false, xi, sub);
            uint k1 = prune_kind_split(ci, cnt.y, true, xi, sub);
            if (sub == 0u && lane == 0u)
                prune_done(ci, k0, k1);
        }
        return;
    }
    for (uint ci = tile_group(); ci < used; ci += tile_group_count()) {
        uint si = ci * C + lane;
        vec3 xi = rel[NL_SLOTS + si].xyz;
        uint ai = order[si];
        if (ai != VKMD_NL_EMPTY)
            saved[NL_ATOMS + ai] = pos[ai];
        uvec4 cnt = counts[ci];
        uint k0 = prune_kind(ci, cnt.x, false, xi);
        uint k1 = prune_kind(ci, cnt.y, true, xi);
        if (lane == 0u)
            prune_done(ci, k0, k1);
    }
}
