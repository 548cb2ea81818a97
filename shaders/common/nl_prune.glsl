// The neighbour list's prune of one cluster's outer tiles (nl_prune.comp
// has the method), shared by nl_prune.comp and the fused force dispatch
// (forces.comp). The includer declares the buffers outer, inner, masks, rel,
// the block NLP (VKMD_NL_PUSH_FIELDS) and includes common/tile.glsl.
#ifndef VKMD_NL_PRUNE_GLSL
#define VKMD_NL_PRUNE_GLSL

#include "common/box.glsl"

const uint NL_PRUNE_C = VKMD_NL_CLUSTER_SIZE;

// Prunes the outer tiles of one kind of cluster ci into the inner list
// (MIN_IMAGE a constant at each call: a branch in the rotation loop costs
// lavapipe dearly even when never taken). Returns the tiles kept.
uint prune_kind(uint ci, uint n, const bool MIN_IMAGE, vec3 xi)
{
    uint lane = tile_lane();
    float r2_inner = NLP.box_lo.w * NLP.box_lo.w;
    uint mask_inner = NLP.sizes.z * NLP.sizes.w;
    uint kept = 0u;
    for (uint b = 0u; b < n; b += NL_PRUNE_C) {
        uint idx = b + lane;
        uint from = ci * NLP.sizes.w + (MIN_IMAGE ? NLP.sizes.w - 1u - idx : idx);
        uvec4 ent = idx < n ? outer[from] : uvec4(0u);
        uvec2 msk = idx < n ? masks[from] : uvec2(0u);
        uint nt = min(NL_PRUNE_C, n - b);
        for (uint t = 0u; t < nt; ++t) {
            uvec4 e = tile_bcast(ent, t);
            uvec2 m = tile_bcast(msk, t);
            uint cj = e.x & ~VKMD_NL_KIND_BIT;
            vec3 xj = rel[NLP.sizes.y + cj * NL_PRUNE_C + lane].xyz + uintBitsToFloat(e.yzw);
            uint bits = tile_row_bits(m);
            bool near = false;
            for (uint r = 0u; r < NL_PRUNE_C; ++r) {
                vec3 d = xj - xi;
                if (MIN_IMAGE && TRICLINIC) {
                    d = box_tri_min_image(d, NLP.box.xyz, NLP.box_lo.xyz);
                } else if (MIN_IMAGE) {
                    vec3 k = floor(d / NLP.box.xyz + 0.5);
                    d = (d - k * NLP.box.xyz) - k * NLP.box_lo.xyz;
                }
                near = near || (((bits >> r) & 1u) != 0u && dot(d, d) < r2_inner);
                xj = tile_rotate(xj);
            }
            if (tile_any(near)) {
                if (lane == 0u && kept < NLP.limits.x) {
                    uint to = ci * NLP.limits.x + (MIN_IMAGE ? NLP.limits.x - 1u - kept : kept);
                    inner[to] = e;
                    masks[mask_inner + to] = m;
                }
                ++kept;
            }
        }
    }
    return kept;
}

#endif
