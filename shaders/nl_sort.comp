// Neighbour-list rebuild, steps 4 to 6 of 7 (engine/forces/pass_neighbor.c):
//
// SORT_SCATTER: each atom to slot (row start + cell start in the row + rank).
// SORT_CELLS: one thread per cell sorts the cell's slots by atom index
//   (insertion sort: cells hold a few atoms), which makes the order
//   independent of the atomics' scheduling in nl_bin.comp; then records each
//   atom's slot and wrapped position, and the thread of a row's last cell
//   marks the row's padding slots empty.
// SORT_CLUSTERS: one thread per cluster: anchor, relative slots, bounding box
//   (see clusters() below).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common/nl_common.glsl"

layout(constant_id = VKMD_SPEC_NL_MODE) const uint MODE = VKMD_NL_MODE_SORT_SCATTER;

void scatter()
{
    uint stride = gl_NumWorkGroups.x * WORKGROUP_SIZE;
    for (uint a = gl_GlobalInvocationID.x; a < NL_ATOMS; a += stride) {
        uint key = atom_key[a];
        uint row = key / NL_NX;
        order[rows[2u * NL_ROWS + row] + cells[NL_CELLS + key] + atom_key[NL_ATOMS + a]] = a;
    }
}

void sort_cells()
{
    const uint C = VKMD_NL_CLUSTER_SIZE;
    uint stride = gl_NumWorkGroups.x * WORKGROUP_SIZE;
    for (uint key = gl_GlobalInvocationID.x; key < NL_CELLS; key += stride) {
        uint row = key / NL_NX, x = key % NL_NX;
        uint row_atoms = rows[NL_ROWS + row];
        uint base = rows[2u * NL_ROWS + row];
        uint s0 = base + cells[NL_CELLS + key];
        uint s1 = base + (x == NL_NX - 1u ? row_atoms : cells[NL_CELLS + key + 1u]);
        for (uint s = s0 + 1u; s < s1; ++s) {
            uint a = order[s];
            uint t = s;
            while (t > s0 && order[t - 1u] > a) {
                order[t] = order[t - 1u];
                --t;
            }
            order[t] = a;
        }
        for (uint s = s0; s < s1; ++s) {
            uint a = order[s];
            slot_of[a] = s;
            rel[s] = vec4(nl_wrap(pos[a].xyz), 1.0);
        }
        if (x == NL_NX - 1u) {
            uint pad_end = base + (row_atoms + C - 1u) / C * C;
            for (uint s = base + row_atoms; s < pad_end; ++s) {
                order[s] = VKMD_NL_EMPTY;
                rel[s] = vec4(0.0);
            }
        }
    }
}

// The clusters whose tiles with c (held by c: owns()) contain excluded pairs,
// with the bits to clear, in the cluster's table (one thread per cluster:
// the order is the atoms' and their partners', deterministic). More than
// VKMD_NL_EXCL_TILES such clusters set the overflow flag.
void exclusion_tiles(uint c)
{
    const uint C = VKMD_NL_CLUSTER_SIZE, T = VKMD_NL_EXCL_TILES;
    uint used = 0u;
    for (uint l = 0; l < C; ++l) {
        uint a = order[c * C + l];
        if (a == VKMD_NL_EMPTY)
            continue;
        for (uint e = excl[a]; e < excl[a + 1u]; ++e) {
            uint sj = slot_of[excl[NL_ATOMS + 1u + e]], cj = sj / C;
            if (!owns(c, cj))
                continue; // cj's table holds the pair
            uvec2 b = pair_bit(l, sj % C);
            if (cj == c) // the diagonal tile holds the pair in either order
                b |= pair_bit(sj % C, l);
            uint k = 0u;
            while (k < used && excl_tiles[c * T + k].x != cj)
                ++k;
            if (k == T) {
                atomicMax(st.overflow, 1u);
                continue;
            }
            if (k == used) {
                excl_tiles[c * T + k] = uvec4(cj, 0u, 0u, 0u);
                ++used;
            }
            excl_tiles[c * T + k].yz |= b;
        }
    }
    if (used < T)
        excl_tiles[c * T + used] = uvec4(VKMD_NL_EMPTY, 0u, 0u, 0u);
}

// Per cluster: the anchor (its first atom's wrapped position rounded to the
// 1/8 A grid, so anchor differences and the split positions' coarse parts
// subtract exactly), every slot's build position relative to it under the
// minimum image (|x| <= box / 2, so a cluster across a periodic face stays
// whole), and the bounding box of its atoms in that frame. Padding slots get
// w = 0 and the far point, and are left out of the box.
void clusters()
{
    const uint C = VKMD_NL_CLUSTER_SIZE;
    uint used = (st.slot_count + C - 1u) / C;
    uint stride = gl_NumWorkGroups.x * WORKGROUP_SIZE;
    for (uint c = gl_GlobalInvocationID.x; c < NL_CLUSTERS; c += stride) {
        if (c >= used) {
            cluster[3u * c] = vec4(0.0);
            cluster[3u * c + 1u] = vec4(0.0);
            cluster[3u * c + 2u] = vec4(0.0);
            continue;
        }
        vec3 anchor = floor(rel[c * C].xyz * float(VKMD_POSITIONS_QUANTA) + 0.5) *
                      float(VKMD_POSITIONS_QUANTUM);
        vec3 lo = vec3(3.0e38), hi = vec3(-3.0e38);
        uint atoms = 0u;
        for (uint l = 0; l < C; ++l) {
            uint s = c * C + l;
            if (order[s] == VKMD_NL_EMPTY) {
                rel[s] = vec4(vec3(VKMD_NL_FAR), 0.0);
                continue;
            }
            vec3 r = nl_delta(anchor, rel[s].xyz);
            rel[s] = vec4(r, 1.0);
            lo = min(lo, r);
            hi = max(hi, r);
            ++atoms;
        }
        cluster[3u * c] = vec4(anchor, float(atoms));
        cluster[3u * c + 1u] = vec4(lo, 0.0);
        cluster[3u * c + 2u] = vec4(hi, 0.0);
        exclusion_tiles(c);
    }
}

void main()
{
    if (MODE == VKMD_NL_MODE_SORT_SCATTER)
        scatter();
    else if (MODE == VKMD_NL_MODE_SORT_CELLS)
        sort_cells();
    else
        clusters();
}
