// Neighbour list, when the check says so (engine/forces/neighbor.c): the
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

// Prunes the outer tiles of one kind of cluster ci into the inner list
// (MIN_IMAGE a constant at each call: a branch in the rotation loop costs
// lavapipe dearly even when never taken). Returns the tiles kept.
uint prune_kind(uint ci, uint n, const bool MIN_IMAGE, vec3 xi)
{
    uint lane = tile_lane();
    float r2_inner = pc.box_lo.w * pc.box_lo.w;
    uint mask_inner = NL_CLUSTERS * NL_OUTER;
    uint kept = 0u;
    for (uint b = 0u; b < n; b += C) {
        uint idx = b + lane;
        uint from = ci * NL_OUTER + (MIN_IMAGE ? NL_OUTER - 1u - idx : idx);
        uvec4 ent = idx < n ? outer[from] : uvec4(0u);
        uvec2 msk = idx < n ? masks[from] : uvec2(0u);
        uint nt = min(C, n - b);
        for (uint t = 0u; t < nt; ++t) {
            uvec4 e = tile_bcast(ent, t);
            uvec2 m = tile_bcast(msk, t);
            uint cj = e.x & ~VKMD_NL_KIND_BIT;
            vec3 xj = rel[NL_SLOTS + cj * C + lane].xyz + uintBitsToFloat(e.yzw);
            uint bits = tile_row_bits(m);
            bool near = false;
            for (uint r = 0u; r < C; ++r) {
                vec3 d = xj - xi;
                if (MIN_IMAGE) {
                    vec3 k = floor(d / pc.box.xyz + 0.5);
                    d = (d - k * pc.box.xyz) - k * pc.box_lo.xyz;
                }
                near = near || (((bits >> r) & 1u) != 0u && dot(d, d) < r2_inner);
                xj = tile_rotate(xj);
            }
            if (tile_any(near)) {
                if (lane == 0u && kept < NL_INNER) {
                    uint to = ci * NL_INNER + (MIN_IMAGE ? NL_INNER - 1u - kept : kept);
                    inner[to] = e;
                    masks[mask_inner + to] = m;
                }
                ++kept;
            }
        }
    }
    return kept;
}

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
