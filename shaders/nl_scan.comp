// Neighbour-list rebuild, steps 2 and 3 of 5 (engine/forces/pass_neighbor.c):
// where each cell's atoms go in the slot array. Cells are keyed row by row
// (a row is the line of cells along x at one (y, z)); a row's slots are
// padded to a multiple of VKMD_NL_CLUSTER_SIZE so that no cluster spans two
// rows (every cluster stays compact, so list lengths stay close to the
// estimate).
//
// SCAN_ROWS: one thread per row scans its cells' counts into in-row starts
//   (cells[CELLS + key]), writes the row's atom count (rows[ROWS + r]) and
//   zeroes the counts for the next build.
// SCAN_ROWSCAN: one workgroup scans the padded row totals into each row's
//   first slot (rows[2 ROWS + r]), stores the slots in use and marks the
//   slots past them empty (the slot count changes from build to build).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common/nl_common.glsl"

layout(constant_id = VKMD_SPEC_NL_MODE) const uint MODE = VKMD_NL_MODE_SCAN_ROWS;

shared uint partial[WORKGROUP_SIZE];

void scan_rows()
{
    uint stride = gl_NumWorkGroups.x * WORKGROUP_SIZE;
    for (uint r = gl_GlobalInvocationID.x; r < NL_ROWS; r += stride) {
        uint run = 0;
        for (uint x = 0; x < NL_NX; ++x) {
            uint key = r * NL_NX + x;
            uint n = cells[key];
            cells[key] = 0u;
            cells[NL_CELLS + key] = run;
            run += n;
        }
        rows[NL_ROWS + r] = run;
    }
}

uint padded(uint n)
{
    const uint C = VKMD_NL_CLUSTER_SIZE;
    return (n + C - 1u) / C * C;
}

void scan_rowscan()
{
    uint lid = gl_LocalInvocationID.x;
    uint nrows = NL_ROWS;
    uint chunk = (nrows + WORKGROUP_SIZE - 1u) / WORKGROUP_SIZE;
    uint r0 = min(lid * chunk, nrows), r1 = min(r0 + chunk, nrows);
    uint sum = 0;
    for (uint r = r0; r < r1; ++r)
        sum += padded(rows[NL_ROWS + r]);
    partial[lid] = sum;
    barrier();
    // Inclusive Hillis-Steele scan of the per-thread sums.
    for (uint off = 1; off < WORKGROUP_SIZE; off *= 2) {
        uint v = lid >= off ? partial[lid - off] : 0u;
        barrier();
        partial[lid] += v;
        barrier();
    }
    uint run = partial[lid] - sum;
    for (uint r = r0; r < r1; ++r) {
        rows[2u * nrows + r] = run;
        run += padded(rows[NL_ROWS + r]);
    }
    uint total = partial[WORKGROUP_SIZE - 1u];
    if (lid == 0)
        st.slot_count = total;
    for (uint s = total + lid; s < NL_SLOTS; s += WORKGROUP_SIZE)
        order[s] = VKMD_NL_EMPTY;
}

void main()
{
    if (MODE == VKMD_NL_MODE_SCAN_ROWS)
        scan_rows();
    else
        scan_rowscan();
}
