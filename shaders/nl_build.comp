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
// than 3 cells per dimension: no duplicate pairs in small boxes. Thread 0
// turns up to VKMD_NL_SEGMENTS_MAX / 2 rows at a time into segments; all
// threads then take the concatenated candidates in batches of the
// workgroup size.
//
// Each candidate j gets an 8-bit mask: bit l set when the minimum-image
// distance to the cluster's atom l is below the list radius, the atoms
// differ, and the pair is not excluded (j's exclusion partners are looked
// up by slot: a partner in this cluster clears its bit). Candidates with a
// non-zero mask are appended in candidate order; the position of each in
// its batch comes from a ballot in shared memory (atomicOr of one bit per
// thread, then popcounts), so the list order does not depend on thread
// scheduling. Entries past max_neighbors are counted, not written: the
// count, the overflow flag and max_count tell the host how much to grow.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common/nl_common.glsl"

const uint C = VKMD_NL_CLUSTER_SIZE;
const uint SEG_MAX = VKMD_NL_SEGMENTS_MAX;
const uint WORDS = (WORKGROUP_SIZE + 31u) / 32u;
// Candidate ranges are widened by this much (A) so that float rounding of
// cell indices can never drop an atom at the edge of the list radius.
const float RANGE_MARGIN = 0.01;

shared vec4 ipos[C];
shared uint seg_start[SEG_MAX];
shared uint seg_prefix[SEG_MAX + 1];
shared uint seg_n;
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

void add_segment(inout uint n, uint start, uint len)
{
    if (len == 0u)
        return;
    seg_start[n] = start;
    seg_prefix[n + 1u] = seg_prefix[n] + len;
    ++n;
}

// Slot of the idx-th candidate of the current chunk (binary search).
uint candidate_slot(uint idx)
{
    uint lo = 0, hi = seg_n;
    while (hi - lo > 1u) {
        uint mid = (lo + hi) / 2u;
        if (seg_prefix[mid] <= idx)
            lo = mid;
        else
            hi = mid;
    }
    return seg_start[lo] + (idx - seg_prefix[lo]);
}

uint pair_mask(uint cluster, uint s, float r2_list)
{
    uint j = order[s];
    vec3 pj = spos[s].xyz;
    uint mask = 0u;
    for (uint l = 0; l < C; ++l) {
        vec4 pi = ipos[l];
        vec3 d = nl_delta(pi.xyz, pj);
        if (pi.w != 0.0 && dot(d, d) < r2_list)
            mask |= 1u << l;
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
    if (lid == 0)
        seg_prefix[0] = 0u;
    barrier();

    // Bounding box of the cluster (every thread computes the same one).
    vec3 lo = vec3(3.0e38), hi = vec3(-3.0e38);
    for (uint l = 0; l < C; ++l)
        if (ipos[l].w != 0.0) {
            lo = min(lo, ipos[l].xyz);
            hi = max(hi, ipos[l].xyz);
        }
    float radius = pc.box.w;
    float reach = radius + RANGE_MARGIN;
    ivec3 c0 = ivec3(floor((lo - reach) / pc.cell.xyz));
    ivec3 c1 = ivec3(floor((hi + reach) / pc.cell.xyz));
    ivec3 n = ivec3(pc.grid.xyz);
    for (int k = 0; k < 3; ++k)
        if (c1[k] - c0[k] + 1 >= n[k]) {
            c0[k] = 0;
            c1[k] = n[k] - 1;
        }
    bool full_x = c0.x == 0 && c1.x == n.x - 1;
    uint wx0 = wrap_index(c0.x, NL_NX), wx1 = wrap_index(c1.x, NL_NX);
    uint ny_r = uint(c1.y - c0.y + 1), nz_r = uint(c1.z - c0.z + 1);
    uint range_rows = ny_r * nz_r;
    float r2_list = radius * radius;

    uint count = 0;
    for (uint row0 = 0; row0 < range_rows; row0 += SEG_MAX / 2u) {
        if (lid == 0) {
            uint ns = 0;
            uint row1 = min(row0 + SEG_MAX / 2u, range_rows);
            for (uint q = row0; q < row1; ++q) {
                uint wy = wrap_index(c0.y + int(q % ny_r), NL_NY);
                uint wz = wrap_index(c0.z + int(q / ny_r), NL_NZ);
                uint rank = rows[wy * NL_NZ + wz];
                uint base = rows[2u * NL_ROWS + rank];
                uint row_atoms = rows[NL_ROWS + rank];
                if (full_x) {
                    add_segment(ns, base, row_atoms);
                } else if (wx0 <= wx1) {
                    uint a = cell_first(rank, wx0);
                    add_segment(ns, base + a, cell_end(rank, wx1, row_atoms) - a);
                } else { // the range wraps through x = 0
                    uint a = cell_first(rank, wx0);
                    add_segment(ns, base + a, row_atoms - a);
                    add_segment(ns, base, cell_end(rank, wx1, row_atoms));
                }
            }
            seg_n = ns;
        }
        barrier();
        uint total = seg_prefix[seg_n];
        for (uint b = 0; b < total; b += WORKGROUP_SIZE) {
            uint idx = b + lid;
            uint s = 0u, mask = 0u;
            if (idx < total) {
                s = candidate_slot(idx);
                mask = pair_mask(cluster, s, r2_list);
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
                list[cluster * NL_MAX_NEIGH + at] = (s << VKMD_NL_MASK_BITS) | mask;
            count += in_batch;
            barrier();
        }
        barrier();
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
