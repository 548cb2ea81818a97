/* Device-side neighbour list for the periodic non-bonded pass: built,
 * checked and rebuilt on the GPU (shaders/nl_*.comp), so a step recorded
 * once into a command buffer never asks the host whether to rebuild.
 *
 * Design
 * - Spatial sort: cells are "rows" (lines of cells along x at one (y, z))
 *   ordered along a 2-D Hilbert curve over (y, z), x ascending inside a row.
 *   Atoms get "slots" in that order (counting sort with atomics, then each
 *   cell sorted by atom index, so the order never depends on thread
 *   scheduling). Each row's slots are padded to a multiple of 8. Rows are
 *   about the edge of a cube holding 8 atoms thick (4.3 A in water), x
 *   cells a quarter of that.
 * - i-clusters: 8 consecutive slots (VKMD_NL_CLUSTER_SIZE), always inside
 *   one row, so a cluster is a compact block (~4 x 4 x 5 A in water).
 * - List: per cluster, the j atoms (by slot) within the list radius
 *   (cutoff + skin) of at least one cluster atom at the last build, each
 *   with an 8-bit mask of the cluster atoms it pairs with (excluded pairs
 *   and self pairs cleared): 32-bit entries (j_slot << 8 | mask) in a
 *   fixed-stride array of max_neighbors entries per cluster, in an order
 *   that depends only on the positions. Every pair is listed from both
 *   sides (a full list: see pass_nonbonded.h for why). Measured on
 *   water:8000 (cutoff 9 A, skin 1 A): 673 entries per cluster on average
 *   (99th percentile 778, largest 922); 60% of the 8 x entries lane pair
 *   slots are listed pairs and about 44% lie within the cutoff.
 * - Build (nl_build.comp): one workgroup per cluster; candidates are the
 *   x-segments of slots of the rows within reach of the cluster's bounding
 *   box, each row's x-range shortened by its (y, z) distance; a candidate
 *   is tested against the 8 atoms; kept entries are placed by shared-memory
 *   ballots (deterministic order).
 * - Rebuild on the device: every record runs a check (max displacement of
 *   any atom since the last build, minimum image) and a one-thread decide
 *   kernel that writes the indirect dispatch arguments of the six rebuild
 *   dispatches (bin, row scan, row-start scan, scatter, cell sort, pair
 *   list): their group counts when an atom moved more than skin / 2 (less a
 *   float-rounding guard of 8 ulp of the largest box edge), the box changed,
 *   or a rebuild was forced; zero otherwise.
 * - Skin: 1.0 A by default, close to OpenMM's padding of 10% of the cutoff.
 *   The list grows slowly with the skin because the cluster's extent
 *   dominates (water:8000: 593 / 673 / 758 entries per cluster for 0.5 /
 *   1.0 / 1.5 A), while the rebuild interval grows with it; a rebuild costs
 *   1.2-2.5 pair evaluations on lavapipe. Tune per system with desc.skin_a.
 * - Small boxes: candidate ranges that cover a box dimension are clamped to
 *   it, so each cell is visited once and each pair appears once per side,
 *   also with fewer than 3 cells per dimension and a list radius above half
 *   the box (water:216: 18.6 A box, 10 A radius); distances use the
 *   minimum image.
 * - Capacity: max_neighbors is estimated from the density (see
 *   vkmd_neighbor_plan_make; VKMD_NEIGHBOR_MARGIN over the estimated mean,
 *   1224 for water). A build that needs more entries counts them without
 *   writing, sets the overflow flag and max_count: the results of that
 *   evaluation are wrong, and vkmd_neighbor_check reports
 *   VKMD_ERROR_CAPACITY. To grow: destroy this list (and the passes using
 *   it), create it again with desc.max_neighbors = the reported need (plus
 *   a margin), and redo the steps since the last check. (Growing in place
 *   would leave every pass bound to the old buffer; re-creating is rare and
 *   explicit.)
 *
 * Device memory (bytes), N atoms, E exclusions, S = slot capacity (N + 7
 * per row, rounded to 8), K = S / 8 clusters, M = max_neighbors, and the
 * grid's cells and rows:
 *   4 K M (list) + 4 K (counts) + 20 S (order, positions by slot)
 *   + 32 N + 4 (saved positions, cell keys, slots, CSR starts) + 8 E
 *   + 8 cells + 12 rows + 144 (state, dispatch arguments)
 * (vkmd_neighbor_plan_make computes it; the test checks it against the
 * buffers). For 1.1 M atoms of water (box 222.4 A, cutoff 9, skin 1): grid
 * 206 x 51 x 51, K = 139,776, M = 1224: 684 MB of list, 756 MB in all
 * (printed by tests/test_gpu_neighbor.c). The list is one storage buffer,
 * so it must fit the device's maxStorageBufferRange: 4 GiB on NVIDIA and
 * AMD drivers, 128 MiB on lavapipe (about 200 k atoms of water there);
 * create fails with VKMD_ERROR_UNSUPPORTED beyond it.
 *
 * Cost per step without a rebuild: a dispatch over the atoms, a one-thread
 * dispatch, six empty indirect dispatches and their barriers. */
#ifndef VKMD_FORCES_NEIGHBOR_H
#define VKMD_FORCES_NEIGHBOR_H

#include "common/vkmd_layout.h"
#include "system/system.h"
#include "vk/buffer.h"
#include "vk/context.h"

#include <stddef.h>

#define VKMD_NEIGHBOR_SKIN_A 1.0 /* default skin, A */
#define VKMD_NEIGHBOR_MARGIN 1.8 /* capacity over the estimated mean need */

typedef struct vkmd_neighbor_desc {
    const vkmd_vk_buffer *positions; /* required: vec4 [atom_count] fp32, xyz in A (w unused),
                                        any periodic image; read by every record */
    double cutoff_a;                 /* required: interaction cutoff, A (> 0) */
    double skin_a;                   /* 1.0 A (VKMD_NEIGHBOR_SKIN_A); list radius = cutoff + skin */
    uint32_t max_neighbors;          /* 0: estimated from the density; else list entries per
                                        cluster of 8 atoms (the capacity) */
    double cell_size_a;              /* 0: the edge of a cube holding 8 atoms at the system's
                                        density; rows are this thick in y and z, x cells a
                                        quarter of it (tests force a coarse grid with it) */
    uint32_t workgroup_size;         /* 64 (VKMD_NL_WORKGROUP_SIZE); power of two >= 32 */
    int force_staging;               /* 0; 1: stage every buffer (tests) */
} vkmd_neighbor_desc;

typedef struct vkmd_neighbor vkmd_neighbor;

/* Sizes the list would have, computed on the host without a device. */
typedef struct vkmd_neighbor_plan {
    uint32_t grid[3];          /* cells along x, rows along y and z */
    uint32_t cell_count;       /* grid[0] * grid[1] * grid[2] */
    uint32_t slot_capacity;    /* atoms + 7 padding slots per row, rounded to 8 */
    uint32_t cluster_capacity; /* slot_capacity / 8 */
    uint32_t max_neighbors;    /* list entries per cluster */
    double expected_entries;   /* mean entries per cluster the estimate assumes */
    double list_radius_a;      /* cutoff + skin */
    size_t list_bytes;         /* the list alone */
    size_t total_bytes;        /* every device buffer of the list */
} vkmd_neighbor_plan;

/* Fills `out` for `sys` (periodic, with a box) and `desc` (positions not
 * needed). Errors: VKMD_ERROR_INVALID_ARGUMENT (no box, cutoff or skin out of
 * range, box edge below 2 cutoffs, too many atoms), VKMD_ERROR_UNSUPPORTED
 * (list larger than a storage buffer can address). */
vkmd_result vkmd_neighbor_plan_make(const vkmd_system *sys, const vkmd_neighbor_desc *desc,
                                    vkmd_neighbor_plan *out);

/* Creates the list for `sys` (atom count, exclusions, box) and uploads the
 * exclusions; the first record builds. The positions buffer is borrowed and
 * must outlive the list. Errors: as vkmd_neighbor_plan_make, plus
 * VKMD_ERROR_INVALID_ARGUMENT (missing positions or too small a buffer, bad
 * workgroup size), Vulkan and memory errors. */
vkmd_result vkmd_neighbor_create(vkmd_vk_context *ctx, const vkmd_system *sys,
                                 const vkmd_neighbor_desc *desc, vkmd_neighbor **out_nl);

/* NULL: no-op. */
void vkmd_neighbor_destroy(vkmd_vk_context *ctx, vkmd_neighbor *nl);

/* Sets the box later records use (push constants are captured at record
 * time: re-record after it). The grid keeps its cell counts; the device
 * rebuilds at the next check because the box differs from the build's.
 * Errors: VKMD_ERROR_INVALID_ARGUMENT (not periodic, or an edge below
 * 2 cutoffs); the box is then unchanged. */
vkmd_result vkmd_neighbor_set_box(vkmd_neighbor *nl, const vkmd_box *box);

/* Records the check and the conditional rebuild with their barriers. The
 * caller orders the positions' writes before it (a compute barrier); after
 * it the list, counts and order are readable by compute shaders. */
void vkmd_neighbor_record(const vkmd_neighbor *nl, VkCommandBuffer cb);

/* Records a write that makes the next check rebuild (first use is already
 * forced at create). Not for a command buffer replayed every step. */
void vkmd_neighbor_record_invalidate(const vkmd_neighbor *nl, VkCommandBuffer cb);

typedef struct vkmd_neighbor_stats {
    uint32_t builds;          /* rebuilds since create */
    uint32_t checks;          /* checks since create */
    uint32_t overflow;        /* 1 if any build needed more than `capacity` entries per cluster */
    uint32_t max_count;       /* largest entries-per-cluster any build needed */
    uint32_t capacity;        /* max_neighbors */
    uint32_t slot_count;      /* slots in use at the last build */
    double last_displacement; /* largest displacement at the last check, A */
    double trigger_a;         /* displacement that triggers a rebuild, A */
} vkmd_neighbor_stats;

/* Reads the device counters (waits for earlier queue work). */
vkmd_result vkmd_neighbor_stats_read(vkmd_vk_context *ctx, const vkmd_neighbor *nl,
                                     vkmd_neighbor_stats *out);

/* Reads the stats; VKMD_ERROR_CAPACITY (message: entries needed vs capacity)
 * if any build overflowed, so the caller grows (see the header comment).
 * `out` may be NULL. */
vkmd_result vkmd_neighbor_check(vkmd_vk_context *ctx, const vkmd_neighbor *nl,
                                vkmd_neighbor_stats *out);

/* Device memory of every buffer the list owns, bytes. */
size_t vkmd_neighbor_memory_bytes(const vkmd_neighbor *nl);

/* The list's layout for the passes that read it. Buffers are owned by the
 * list. */
typedef struct vkmd_neighbor_view {
    const vkmd_vk_buffer *order;  /* uint [slot_capacity]: atom per slot, VKMD_NL_EMPTY */
    const vkmd_vk_buffer *list;   /* uint [cluster_capacity * max_neighbors] */
    const vkmd_vk_buffer *counts; /* uint [cluster_capacity] */
    uint32_t atom_count;
    uint32_t slot_capacity;
    uint32_t cluster_capacity;
    uint32_t max_neighbors;
    double cutoff_a; /* the cutoff the list was built for */
} vkmd_neighbor_view;

void vkmd_neighbor_view_get(const vkmd_neighbor *nl, vkmd_neighbor_view *out);

/* Reads the list back as explicit directed pairs (i, j) of atom indices,
 * in list order (every pair appears once from each side). *out_pairs is
 * malloc'd (free()); NULL when *out_count is 0. For tests and debugging. */
vkmd_result vkmd_neighbor_pairs_read(vkmd_vk_context *ctx, const vkmd_neighbor *nl,
                                     vkmd_pair **out_pairs, size_t *out_count);

/* Exclusions of `sys` as CSR: out_data[a] .. out_data[a + 1] - 1 index the
 * partners of atom a (both directions, ascending) at out_data[N + 1 + e].
 * *out_data is malloc'd (free()), *out_count words. Errors:
 * VKMD_ERROR_OUT_OF_MEMORY, VKMD_ERROR_INVALID_ARGUMENT (index range). */
vkmd_result vkmd_neighbor_exclusions_csr(const vkmd_system *sys, uint32_t **out_data,
                                         size_t *out_count);

#endif
