// Neighbour list, when the check says so (engine/forces/pass_neighbor.c): the
// inner list pruned from the outer one. One group of 8 lanes per i-cluster
// (common/tile.glsl): for each outer tile the 64 lane pairs are measured at
// the current positions (the gather's relative ones), and the tile is kept
// when any pair the mask allows lies within the inner radius (cutoff +
// skin). Tiles keep their order, kind and mask. The positions of this prune
// are saved for the next checks. Tiles past the inner stride are counted,
// not written (overflow flag, max_inner).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common/nl_common.glsl"
#include "common/tile.glsl"

const uint C = VKMD_NL_CLUSTER_SIZE;

#define NLP pc
#include "common/nl_prune.glsl"

void main()
{
    uint lane = tile_lane();
    uint used = (st.slot_count + C - 1u) / C;
    for (uint ci = tile_group(); ci < used; ci += tile_group_count()) {
        uint si = ci * C + lane;
        vec3 xi = rel[NL_SLOTS + si].xyz;
        uint ai = order[si];
        if (ai != VKMD_NL_EMPTY)
            saved[NL_ATOMS + ai] = pos[ai];
        uvec4 cnt = counts[ci];
        uint k0 = prune_kind(ci, cnt.x, false, xi);
        uint k1 = prune_kind(ci, cnt.y, true, xi);
        if (lane == 0u) {
            uint total = k0 + k1;
            counts[ci].zw = uvec2(min(k0, NL_INNER), min(k1, NL_INNER));
            atomicMax(st.max_inner, total);
            atomicAdd(st.tiles_inner, total);
            if (total > NL_INNER)
                atomicMax(st.overflow, 1u);
        }
    }
}
