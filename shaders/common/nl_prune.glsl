// The neighbour list's prune of one cluster's outer tiles (nl_prune.comp
// has the method), shared by nl_prune.comp and the pair kernels that prune
// before their tiles (nonbonded.comp, forces.comp: common/pair_prune.glsl).
// The includer declares the buffers outer, inner, masks, rel, the constants
// WORKGROUP_SIZE and PRUNE_SPLIT (groups of 8 lanes that prune one cluster
// together: 1, or WORKGROUP_SIZE / 8), includes common/tile.glsl, and
// defines the list's values (from its push constants, vkmd_nl_push, or the
// pair pass's): NLP_BOX (vec3 L), NLP_BOX_LO (vec3: the edges' rounding, or
// a triclinic cell's T), NLP_R_INNER (the inner radius, A), NLP_SLOTS,
// NLP_CLUSTERS (capacities), NLP_OUTER_STRIDE and NLP_INNER_STRIDE.
#ifndef VKMD_NL_PRUNE_GLSL
#define VKMD_NL_PRUNE_GLSL

#include "common/box.glsl"

// Slot s's relative position (the includer may read it through a texel
// view, as forces.comp does).
#ifndef NLP_REL
#define NLP_REL(s) rel[s]
#endif

const uint NL_PRUNE_C = VKMD_NL_CLUSTER_SIZE;

// This lane's verdict on an outer tile (entry e, mask m): whether one of
// the pairs of its row that the mask allows lies within the inner radius
// (tile_any of it is the tile's verdict).
bool prune_near(uvec4 e, uvec2 m, const bool MIN_IMAGE, vec3 xi)
{
    float r2_inner = NLP_R_INNER * NLP_R_INNER;
    uint lane = tile_lane();
    uint cj = e.x & ~VKMD_NL_KIND_BIT;
    vec3 xj = NLP_REL(NLP_SLOTS + cj * NL_PRUNE_C + lane).xyz + uintBitsToFloat(e.yzw);
    uint bits = tile_row_bits(m);
    bool near = false;
    for (uint r = 0u; r < NL_PRUNE_C; ++r) {
        vec3 d = xj - xi;
        if (MIN_IMAGE && TRICLINIC) {
            d = box_tri_min_image(d, NLP_BOX, NLP_BOX_LO);
        } else if (MIN_IMAGE) {
            vec3 k = floor(d / NLP_BOX + 0.5);
            d = (d - k * NLP_BOX) - k * NLP_BOX_LO;
        }
        near = near || (((bits >> r) & 1u) != 0u && dot(d, d) < r2_inner);
        xj = tile_rotate(xj);
    }
    return near;
}

// Where the kept tile number `at` of cluster ci goes (kind 0 from the front
// of the stride, kind 1 from the back), if it fits the stride.
void prune_keep(uint ci, uint at, const bool MIN_IMAGE, uvec4 e, uvec2 m)
{
    uint stride = NLP_INNER_STRIDE;
    if (at >= stride)
        return;
    uint to = ci * stride + (MIN_IMAGE ? stride - 1u - at : at);
    inner[to] = e;
    masks[NLP_CLUSTERS * NLP_OUTER_STRIDE + to] = m;
}

// Prunes the outer tiles of one kind of cluster ci into the inner list, one
// group of 8 lanes alone (MIN_IMAGE a constant at each call: a branch in the
// rotation loop costs lavapipe dearly even when never taken). Returns the
// tiles kept.
uint prune_kind(uint ci, uint n, const bool MIN_IMAGE, vec3 xi)
{
    uint lane = tile_lane();
    uint kept = 0u;
    for (uint b = 0u; b < n; b += NL_PRUNE_C) {
        uint idx = b + lane;
        uint from = ci * NLP_OUTER_STRIDE + (MIN_IMAGE ? NLP_OUTER_STRIDE - 1u - idx : idx);
        uvec4 ent = idx < n ? outer[from] : uvec4(0u);
        uvec2 msk = idx < n ? masks[from] : uvec2(0u);
        uint nt = min(NL_PRUNE_C, n - b);
        for (uint t = 0u; t < nt; ++t) {
            uvec4 e = tile_bcast(ent, t);
            uvec2 m = tile_bcast(msk, t);
            if (tile_any(prune_near(e, m, MIN_IMAGE, xi))) {
                if (lane == 0u)
                    prune_keep(ci, kept, MIN_IMAGE, e, m);
                ++kept;
            }
        }
    }
    return kept;
}

// The same with the PRUNE_SPLIT groups of one workgroup on one cluster (a
// GPU, where one group walking a cluster's ~100-250 outer tiles in series
// leaves the chip idle): in each round group `sub` measures tile round *
// PRUNE_SPLIT + sub, and the kept tiles of the round are placed in outer
// order by a count over the round's verdicts in shared memory, so the inner
// list is the one prune_kind makes, tile for tile. Every invocation of the
// workgroup calls it with the same ci and n (uniform control flow around
// the barriers). Returns the tiles kept, the same in every group.
shared uint nl_prune_verdict_[PRUNE_SPLIT];

uint prune_kind_split(uint ci, uint n, const bool MIN_IMAGE, vec3 xi, uint sub)
{
    uint lane = tile_lane();
    uint kept = 0u;
    for (uint b = 0u; b < n; b += PRUNE_SPLIT) {
        uint idx = b + sub;
        bool near = false;
        uvec4 e = uvec4(0u);
        uvec2 m = uvec2(0u);
        if (idx < n) { // uniform over the group
            uint from = ci * NLP_OUTER_STRIDE + (MIN_IMAGE ? NLP_OUTER_STRIDE - 1u - idx : idx);
            e = outer[from];
            m = masks[from];
            near = tile_any(prune_near(e, m, MIN_IMAGE, xi));
        }
        if (lane == 0u)
            nl_prune_verdict_[sub] = near ? 1u : 0u;
        barrier();
        uint before = 0u, total = 0u;
        for (uint k = 0u; k < PRUNE_SPLIT; ++k) {
            uint v = nl_prune_verdict_[k];
            before += k < sub ? v : 0u;
            total += v;
        }
        if (near && lane == 0u)
            prune_keep(ci, kept + before, MIN_IMAGE, e, m);
        kept += total;
        barrier(); // the verdicts are read before the next round writes them
    }
    return kept;
}

#endif
