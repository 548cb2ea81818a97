// Neighbour-list rebuild, the pair list (engine/forces/neighbor.c): one
// workgroup per i-cluster (VKMD_NL_CLUSTER_SIZE consecutive slots, all in
// one row of cells, so the cluster is compact).
//
// Candidates: the atoms of every cell within the list radius of the
// cluster's bounding box. Rows are lines of cells along x whose atoms are
// contiguous in slot order, so each candidate row contributes one x-segment
// of slots (two when the x-range wraps through the periodic boundary; the
// whole row when the range covers the box). A range that covers a dimension
// is clamped to the grid, so a cell is visited at most once even with fewer
// than 3 cells per dimension: no duplicate pairs in small boxes. A row's
// x-range is shortened by its (y, z) distance from the box. Rows are taken
// a workgroup at a time, one per thread; a shared-memory scan of the
// segment lengths concatenates them, and all threads then take the
// candidates in batches of the workgroup size, each walking the segments
// forward.
//
// Each candidate j gets an 8-bit mask: bit l set when the minimum-image
// distance to the cluster's atom l is below the list radius, the atoms
// differ, and the pair is not excluded (j's exclusion partners are looked
// up by slot: a partner in this cluster clears its bit). When the box is at
// least 2 (radius + half the cluster's extent) wide, the image of j nearest
// the cluster's centre is the minimum image for all 8 atoms, so one
// minimum image per candidate replaces eight. Candidates with a non-zero
// mask are appended in candidate order; their positions in a batch come
// from a ballot in shared memory (atomicOr of one bit per thread, then
// popcounts), so the list order does not depend on thread scheduling.
// Entries past max_neighbors are counted, not written: the count, the
// overflow flag and max_count tell the host how much to grow.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common/nl_common.glsl"

const uint C = VKMD_NL_CLUSTER_SIZE;
const uint SEGS = 2u * WORKGROUP_SIZE; // up to two segments per row, one row per thread
const uint WORDS = (WORKGROUP_SIZE + 31u) / 32u;
// Candidate ranges are widened by this much (A) so that float rounding of
// cell indices can never drop an atom at the edge of the list radius.
const float RANGE_MARGIN = 0.01;

shared vec4 ipos[C];
shared uint seg_start[SEGS];
shared uint seg_prefix[SEGS + 1];
shared uint scan[WORKGROUP_SIZE];
shared uint ballot_words[WORDS];

// a mod n for a in [-n, 2n).
uint wrap_index(int a, uint n)
{
    return uint(a + int(n)) % n;
}

uint cell_first(uint rank, uint x)
{
    return cells[NL_CELLS + rank * NL_NX + x];
}

uint cell_end(uint rank, uint x, uint row_atoms)
{
    return x + 1u == NL_NX ? row_atoms : cells[NL_CELLS + rank * NL_NX + x + 1u];
}

// Slot of the idx-th candidate of the current chunk. A thread's idx only
// grows within a chunk, so it walks the segments forward from `seg`
// (cheaper than a binary search per candidate).
uint candidate_slot(uint idx, inout uint seg)
{
    while (seg_prefix[seg + 1u] <= idx)
        ++seg;
    return seg_start[seg] + (idx - seg_prefix[seg]);
}

// Mask of the cluster atoms that candidate slot s pairs with. near: the
// centre-image shortcut is valid for this cluster (see the file comment).
// The cluster's atoms in registers (w: 1 for an atom, 0 for padding).
vec4 ip[C];

uint pair_mask(uint cluster, uint s, float r2_list, bool near, vec3 centre)
{
    uint j = order[s];
    vec3 pj = spos[s].xyz;
    uint mask = 0u;
    if (near) {
        pj += pc.box.xyz * floor((centre - pj) / pc.box.xyz + 0.5);
        for (uint l = 0; l < C; ++l) {
            vec3 d = pj - ip[l].xyz;
            mask |= (ip[l].w != 0.0 && dot(d, d) < r2_list) ? 1u << l : 0u;
        }
    } else {
        for (uint l = 0; l < C; ++l) {
            vec3 d = nl_delta(ip[l].xyz, pj);
            mask |= (ip[l].w != 0.0 && dot(d, d) < r2_list) ? 1u << l : 0u;
        }
    }
    if (s / C == cluster)
        mask &= ~(1u << (s % C));
    if (mask != 0u) {
        uint e1 = excl[j + 1u];
        for (uint e = excl[j]; e < e1; ++e) {
            uint sk = slot_of[excl[NL_ATOMS + 1u + e]];
            if (sk / C == cluster)
                mask &= ~(1u << (sk % C));
        }
    }
    return mask;
}

void build_cluster(uint cluster)
{
    uint lid = gl_LocalInvocationID.x;
    if (lid < C) {
        uint s = cluster * C + lid;
        ipos[lid] = order[s] != VKMD_NL_EMPTY ? vec4(spos[s].xyz, 1.0) : vec4(0.0);
    }
    barrier();

    // Bounding box of the cluster (every thread computes the same one).
    vec3 lo = vec3(3.0e38), hi = vec3(-3.0e38);
    for (uint l = 0; l < C; ++l) {
        ip[l] = ipos[l];
        if (ip[l].w != 0.0) {
            lo = min(lo, ip[l].xyz);
            hi = max(hi, ip[l].xyz);
        }
    }
    float radius = pc.box.w;
    float reach = radius + RANGE_MARGIN;
    ivec3 c0 = ivec3(floor((lo - reach) / pc.cell.xyz));
    ivec3 c1 = ivec3(floor((hi + reach) / pc.cell.xyz));
    ivec3 n = ivec3(pc.grid.xyz);
    bvec3 full;
    for (int k = 0; k < 3; ++k) {
        // c1 < c0 only from non-finite positions: take the whole range
        // rather than loop over a wrapped-around count.
        full[k] = c1[k] - c0[k] + 1 >= n[k] || c1[k] < c0[k];
        if (full[k]) {
            c0[k] = 0;
            c1[k] = n[k] - 1;
        }
    }
    uint ny_r = uint(c1.y - c0.y + 1), nz_r = uint(c1.z - c0.z + 1);
    uint range_rows = ny_r * nz_r;
    float r2_list = radius * radius;
    vec3 centre = 0.5 * (lo + hi);
    bool near = all(greaterThanEqual(pc.box.xyz, 2.0 * (vec3(reach) + 0.5 * (hi - lo))));

    uint count = 0;
    for (uint row0 = 0; row0 < range_rows; row0 += WORKGROUP_SIZE) {
        // This thread's row: up to two x-segments (start, length).
        uint q = row0 + lid;
        uvec2 seg0 = uvec2(0u), seg1 = uvec2(0u);
        if (q < range_rows) {
            int cy = c0.y + int(q % ny_r), cz = c0.z + int(q / ny_r);
            // Distance in (y, z) from the box to this row (0 along a
            // dimension the range covers whole): the x reach left.
            float dy = full.y ? 0.0
                              : max(0.0, max(float(cy) * pc.cell.y - hi.y,
                                             lo.y - float(cy + 1) * pc.cell.y));
            float dz = full.z ? 0.0
                              : max(0.0, max(float(cz) * pc.cell.z - hi.z,
                                             lo.z - float(cz + 1) * pc.cell.z));
            float left2 = reach * reach - dy * dy - dz * dz;
            if (left2 > 0.0) {
                float xr = sqrt(left2) + RANGE_MARGIN;
                int x0 = int(floor((lo.x - xr) / pc.cell.x));
                int x1 = int(floor((hi.x + xr) / pc.cell.x));
                uint wy = wrap_index(cy, NL_NY), wz = wrap_index(cz, NL_NZ);
                uint rank = rows[wy * NL_NZ + wz];
                uint base = rows[2u * NL_ROWS + rank];
                uint row_atoms = rows[NL_ROWS + rank];
                uint wx0 = wrap_index(x0, NL_NX), wx1 = wrap_index(x1, NL_NX);
                if (full.x || x1 - x0 + 1 >= n.x || x1 < x0) {
                    seg0 = uvec2(base, row_atoms);
                } else if (wx0 <= wx1) {
                    uint a = cell_first(rank, wx0);
                    seg0 = uvec2(base + a, cell_end(rank, wx1, row_atoms) - a);
                } else { // the range wraps through x = 0
                    uint a = cell_first(rank, wx0);
                    seg0 = uvec2(base + a, row_atoms - a);
                    seg1 = uvec2(base, cell_end(rank, wx1, row_atoms));
                }
            }
        }
        // Concatenate: inclusive scan of the rows' candidate counts.
        uint mine = seg0.y + seg1.y;
        scan[lid] = mine;
        barrier();
        if (lid == 0) // serial: fewer barriers than a tree, and only 64 adds
            for (uint t = 1; t < WORKGROUP_SIZE; ++t)
                scan[t] += scan[t - 1u];
        barrier();
        uint first = scan[lid] - mine;
        seg_start[2u * lid] = seg0.x;
        seg_prefix[2u * lid] = first;
        seg_start[2u * lid + 1u] = seg1.x;
        seg_prefix[2u * lid + 1u] = first + seg0.y;
        if (lid == WORKGROUP_SIZE - 1u)
            seg_prefix[SEGS] = scan[lid];
        barrier();

        uint total = seg_prefix[SEGS];
        uint seg = 0;
        for (uint b = 0; b < total; b += WORKGROUP_SIZE) {
            uint idx = b + lid;
            uint slot = 0u, mask = 0u;
            if (idx < total) {
                slot = candidate_slot(idx, seg);
                mask = pair_mask(cluster, slot, r2_list, near, centre);
            }
            if (lid < WORDS)
                ballot_words[lid] = 0u;
            barrier();
            if (mask != 0u)
                atomicOr(ballot_words[lid / 32u], 1u << (lid % 32u));
            barrier();
            uint before = bitCount(ballot_words[lid / 32u] & ((1u << (lid % 32u)) - 1u));
            uint in_batch = 0;
            for (uint w = 0; w < WORDS; ++w) {
                uint bits = bitCount(ballot_words[w]);
                in_batch += bits;
                if (w < lid / 32u)
                    before += bits;
            }
            uint at = count + before;
            if (mask != 0u && at < NL_MAX_NEIGH)
                list[cluster * NL_MAX_NEIGH + at] = (slot << VKMD_NL_MASK_BITS) | mask;
            count += in_batch;
            barrier();
        }
    }
    if (lid == 0) {
        counts[cluster] = min(count, NL_MAX_NEIGH);
        atomicMax(st.max_count, count);
        if (count > NL_MAX_NEIGH)
            atomicMax(st.overflow, 1u);
    }
}

void main()
{
    uint used = (st.slot_count + C - 1u) / C;
    for (uint cluster = gl_WorkGroupID.x; cluster < NL_CLUSTERS; cluster += gl_NumWorkGroups.x) {
        if (cluster < used) {
            build_cluster(cluster);
            barrier();
        } else if (gl_LocalInvocationID.x == 0) {
            counts[cluster] = 0u;
        }
    }
}
