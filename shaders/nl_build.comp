// Neighbour-list rebuild, step 7 of 7 (engine/forces/pass_neighbor.c): the outer
// list of cluster pairs, one group of 8 lanes per i-cluster
// (common/tile.glsl; no shared memory, no workgroup barriers: on lavapipe a
// barrier is a coroutine switch per subgroup, which cost more than the
// tests themselves).
//
// Candidates: the j-clusters with an atom in a cell within the outer radius
// of ci's bounding box; each pair of clusters is kept by one of the two
// (owns(): by index parity, so every cluster holds about half its tiles).
// Rows are lines of cells along x whose slots are contiguous, so each row
// within reach gives one x-segment of slots (two when the range wraps
// through x = 0, the whole row when it covers the box), i.e. a range of
// clusters; a range that covers a dimension is clamped to the grid, so no
// cluster is visited twice. The lanes take the rows 8 at a time; a scan
// over the lanes concatenates the ranges' owned clusters, and the lanes then
// test them 8 at a time.
//
// A candidate is kept when the two bounding boxes, under the periodic image
// of cj's box centre nearest ci's, are closer than the outer radius. That
// image gives the tile's offset (anchor difference plus image, the box edge
// as a float pair so that its rounding does not bias every pair across a
// face alike) and its kind: when, for the boxes grown by the largest
// displacement the list allows, no pair within the cutoff can have another
// image, one offset serves every pair (kind 0); else the pair kernel takes
// the minimum image pair by pair (kind 1: boxes not much larger than twice
// the cutoff). Kind-0 tiles fill the cluster's stride from the front, kind 1
// from the back, in candidate order (a scan over the lanes), so the order
// depends only on the positions.
//
// A triclinic cell (TRICLINIC, common/box.glsl): the rows of the brick do
// not map onto images along y and z by index alone (crossing a z face also
// shifts x and y by c), so every cluster is a candidate (the ranges are
// whole, as in a small box) and the image of cj's centre is the triclinic
// minimum image (the offset adds its lattice translation as a float pair,
// box_tri_offset, rounded once as the rectangular one); a tile is of kind 0 when the largest pair separation it can
// hold plus the cutoff stays below the cell's smallest width (every other
// lattice vector is at least that long). In a skewed cell the boxes may come
// within the radius under an image other than their centres' nearest (the
// pairs OpenMM 7.7 misses in narrow triclinic boxes): the 26 images around it
// are tried too, and such a tile takes the minimum image pair by pair.
//
// The mask of a tile (rotated, see common/layout_neighbor.h) clears padding
// slots, the lower triangle and the self pairs of the diagonal tile, and the
// excluded pairs (from the cluster's table of tiles with exclusions, made by
// the clusters pass). Tiles past the stride are counted, not written: the
// overflow flag and max_count tell the host how much to grow.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common/nl_common.glsl"
#include "common/tile.glsl"

const uint C = VKMD_NL_CLUSTER_SIZE;
// Candidate ranges are widened by this much (A) so that float rounding of
// cell indices can never drop an atom at the edge of the list radius.
const float RANGE_MARGIN = 0.01;

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

// The clusters of [r.x, r.y) that ci owns: those under ci of the other
// parity, ci itself, those over ci of the same parity. Counted, and the
// k-th found, without visiting the others.
uint parity_first(uint lo, uint p)
{
    return lo + ((lo ^ p) & 1u);
}

uint parity_count(uint lo, uint hi, uint p)
{
    uint f = parity_first(lo, p);
    return hi > f ? (hi - f + 1u) / 2u : 0u;
}

uint owned_count(uint ci, uvec2 r)
{
    uint below = parity_count(r.x, min(r.y, ci), (ci + 1u) & 1u);
    uint self = r.x <= ci && ci < r.y ? 1u : 0u;
    uint above = parity_count(max(r.x, ci + 1u), r.y, ci & 1u);
    return below + self + above;
}

uint owned_kth(uint ci, uvec2 r, uint k)
{
    uint below = parity_count(r.x, min(r.y, ci), (ci + 1u) & 1u);
    if (k < below)
        return parity_first(r.x, (ci + 1u) & 1u) + 2u * k;
    k -= below;
    if (r.x <= ci && ci < r.y) {
        if (k == 0u)
            return ci;
        --k;
    }
    return parity_first(max(r.x, ci + 1u), ci & 1u) + 2u * k;
}

// Mask of the lane pairs between ni atoms of ci and nj of cj (padding is at
// a cluster's end); the diagonal tile keeps each pair once.
uvec2 tile_mask(uint ni, uint nj, bool diagonal)
{
    if (ni == C && nj == C && !diagonal) // most tiles
        return uvec2(0xFFFFFFFFu);
    uvec2 m = uvec2(0u);
    for (uint l = 0; l < ni; ++l)
        for (uint k = 0; k < C; ++k) {
            uint j = (l + k) & 7u;
            bool keep = j < nj && (!diagonal || (k >= 1u && k <= 3u) || (k == 4u && l < 4u));
            if (keep)
                m |= pair_bit(l, j);
        }
    return m;
}

// Bits of excluded pairs in the tile (ci, cj), from ci's table.
uvec2 excluded_bits(uint ci, uint cj)
{
    const uint T = VKMD_NL_EXCL_TILES;
    for (uint k = 0u; k < T; ++k) {
        uvec4 e = excl_tiles[ci * T + k];
        if (e.x == cj)
            return e.yz;
        if (e.x == VKMD_NL_EMPTY)
            break;
    }
    return uvec2(0u);
}

// Inclusive sum of v over lanes 0..lane of the group.
uint tile_scan(uint v)
{
    uint lane = tile_lane();
    for (uint d = 1u; d < C; d *= 2u) {
        uint o = tile_bcast(v, (lane - d) & 7u);
        v += lane >= d ? o : 0u;
    }
    return v;
}

void build_cluster(uint ci)
{
    uint lane = tile_lane();
    vec4 ai = cluster[3u * ci];
    vec3 lo = ai.xyz + cluster[3u * ci + 1u].xyz, hi = ai.xyz + cluster[3u * ci + 2u].xyz;
    uint ni = uint(ai.w);
    vec3 centre_i = 0.5 * (lo + hi), half_i = 0.5 * (hi - lo);
    float radius = pc.box.w;
    float reach = radius + RANGE_MARGIN;
    float cutoff = uintBitsToFloat(pc.limits.z), drift = uintBitsToFloat(pc.limits.w);
    ivec3 c0 = ivec3(floor((lo - reach) / pc.cell.xyz));
    ivec3 c1 = ivec3(floor((hi + reach) / pc.cell.xyz));
    ivec3 n = ivec3(pc.grid.xyz);
    bvec3 full;
    float min_width = TRICLINIC ? box_tri_min_width(pc.box.xyz, pc.box_lo.xyz) : 0.0;
    for (int k = 0; k < 3; ++k) {
        // c1 < c0 only from non-finite positions: take the whole range.
        full[k] = TRICLINIC || c1[k] - c0[k] + 1 >= n[k] || c1[k] < c0[k];
        if (full[k]) {
            c0[k] = 0;
            c1[k] = n[k] - 1;
        }
    }
    uint ny_r = uint(c1.y - c0.y + 1), nz_r = uint(c1.z - c0.z + 1);
    uint range_rows = ny_r * nz_r;

    uint count0 = 0u, count1 = 0u;
    for (uint row0 = 0; row0 < range_rows; row0 += C) {
        // This lane's row: up to two cluster ranges [start, end).
        uint q = row0 + lane;
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
            uint wy = wrap_index(cy, NL_NY), wz = wrap_index(cz, NL_NZ);
            uint rank = rows[wy * NL_NZ + wz];
            uint row_atoms = rows[NL_ROWS + rank];
            if (left2 > 0.0 && row_atoms > 0u) {
                float xr = sqrt(left2) + RANGE_MARGIN;
                int x0 = int(floor((lo.x - xr) / pc.cell.x));
                int x1 = int(floor((hi.x + xr) / pc.cell.x));
                uint base = rows[2u * NL_ROWS + rank]; // a multiple of C
                uint wx0 = wrap_index(x0, NL_NX), wx1 = wrap_index(x1, NL_NX);
                // Slot ranges [a, b) of the row, then clusters.
                uvec2 r0 = uvec2(0u), r1 = uvec2(0u);
                if (full.x || x1 - x0 + 1 >= n.x || x1 < x0) {
                    r0 = uvec2(0u, row_atoms);
                } else if (wx0 <= wx1) {
                    r0 = uvec2(cell_first(rank, wx0), cell_end(rank, wx1, row_atoms));
                } else { // the range wraps through x = 0
                    r0 = uvec2(cell_first(rank, wx0), row_atoms);
                    r1 = uvec2(0u, cell_end(rank, wx1, row_atoms));
                }
                // Clusters [a, b) of the row; a wrapped range that reaches
                // a cluster of the other part stops short of it.
                uint a0 = r0.x / C, b0 = r0.y > r0.x ? (r0.y - 1u) / C + 1u : a0;
                uint a1 = r1.x / C, b1 = r1.y > r1.x ? (r1.y - 1u) / C + 1u : a1;
                if (b0 > a0)
                    b1 = min(b1, a0);
                uint cb = base / C;
                seg0 = uvec2(a0 + cb, b0 + cb);
                seg1 = uvec2(a1 + cb, b1 + cb);
            }
        }
        // Concatenate the lanes' owned clusters.
        uint n0 = owned_count(ci, seg0), n1 = owned_count(ci, seg1);
        uint incl = tile_scan(n0 + n1);
        uint first = incl - (n0 + n1);
        uint total = tile_bcast(incl, 7u);
        for (uint b = 0; b < total; b += C) {
            uint idx = b + lane;
            // The lane (row) holding candidate idx, and the cluster.
            uint cj = 0u;
            for (uint t = 0u; t < C; ++t) {
                uint f = tile_bcast(first, t), m0 = tile_bcast(n0, t), m1 = tile_bcast(n1, t);
                uvec2 s0 = tile_bcast(seg0, t), s1 = tile_bcast(seg1, t);
                if (idx >= f && idx < f + m0)
                    cj = owned_kth(ci, s0, idx - f);
                else if (idx >= f + m0 && idx < f + m0 + m1)
                    cj = owned_kth(ci, s1, idx - f - m0);
            }
            bool keep = false;
            uint kind = 0u;
            uvec4 entry = uvec4(0u);
            uvec2 mask = uvec2(0u);
            if (idx < total) {
                vec4 aj = cluster[3u * cj];
                vec3 loj = cluster[3u * cj + 1u].xyz, hij = cluster[3u * cj + 2u].xyz;
                vec3 dc = (aj.xyz - ai.xyz) + 0.5 * (loj + hij) - (centre_i - ai.xyz);
                vec3 img = TRICLINIC ? -box_tri_image_counts(dc, pc.box.xyz, pc.box_lo.xyz)
                                     : -floor(dc / pc.box.xyz + 0.5);
                vec3 shift = TRICLINIC ? box_tri_translation(img, pc.box.xyz, pc.box_lo.xyz)
                                       : img * pc.box.xyz;
                vec3 d = abs(dc + shift);
                vec3 reach_ij = half_i + 0.5 * (hij - loj);
                vec3 gap = max(d - reach_ij, vec3(0.0));
                keep = aj.w > 0.0 && dot(gap, gap) < radius * radius;
                // Another image within the cutoff would need a pair offset
                // by at least box - cutoff; the boxes, grown by the drift
                // allowed before the next build, reach at most this far.
                bool single =
                    TRICLINIC
                        ? length(d + reach_ij + vec3(2.0 * drift)) + cutoff < min_width
                        : all(lessThan(d + reach_ij + vec3(2.0 * drift),
                                       pc.box.xyz - vec3(cutoff)));
                kind = single ? 0u : 1u;
                if (TRICLINIC && !keep && aj.w > 0.0) {
                    // The centres' nearest image is not always the boxes'
                    // nearest in a skewed cell: try the 26 around it; a tile
                    // kept for another image takes the minimum image pair
                    // by pair (kind 1).
                    for (uint q = 0u; q < 27u && !keep; ++q) {
                        vec3 nq = vec3(float(q % 3u), float((q / 3u) % 3u), float(q / 9u)) - 1.0;
                        vec3 dq = abs(dc + shift + box_tri_translation(nq, pc.box.xyz,
                                                                       pc.box_lo.xyz));
                        vec3 gq = max(dq - reach_ij, vec3(0.0));
                        keep = q != 13u && dot(gq, gq) < radius * radius;
                    }
                    kind = 1u;
                }
                vec3 off = TRICLINIC ? box_tri_offset(aj.xyz - ai.xyz, img, pc.box.xyz,
                                                      pc.box_lo.xyz)
                                     : ((aj.xyz - ai.xyz) + img * pc.box.xyz) +
                                           img * pc.box_lo.xyz;
                entry = uvec4(cj | (kind << 31), floatBitsToUint(off));
                mask = tile_mask(ni, uint(aj.w), cj == ci) & ~excluded_bits(ci, cj);
            }
            uint k0 = keep && kind == 0u ? 1u : 0u, k1 = keep && kind == 1u ? 1u : 0u;
            uint i0 = tile_scan(k0), i1 = tile_scan(k1);
            if (keep) {
                uint at = kind == 0u ? count0 + i0 - 1u : count1 + i1 - 1u;
                if (at < NL_OUTER) {
                    uint slot = ci * NL_OUTER + (kind == 0u ? at : NL_OUTER - 1u - at);
                    outer[slot] = entry;
                    masks[slot] = mask;
                }
            }
            count0 += tile_bcast(i0, 7u);
            count1 += tile_bcast(i1, 7u);
        }
    }
    if (lane == 0u) {
        uint total = count0 + count1;
        counts[ci] = uvec4(min(count0, NL_OUTER), min(count1, NL_OUTER), 0u, 0u);
        atomicMax(st.max_count, total);
        atomicAdd(st.tiles_outer, total);
        if (total > NL_OUTER)
            atomicMax(st.overflow, 1u);
    }
}

void main()
{
    uint used = (st.slot_count + C - 1u) / C;
    for (uint ci = tile_group(); ci < NL_CLUSTERS; ci += tile_group_count()) {
        if (ci < used)
            build_cluster(ci);
        else if (tile_lane() == 0u)
            counts[ci] = uvec4(0u);
    }
}
