/* Device-side neighbour list for the periodic non-bonded pass: built,
 * checked, pruned and rebuilt on the GPU (shaders/nl_*.comp), so a step
 * recorded once into a command buffer never asks the host whether to rebuild.
 *
 * Design (the pair kernel that reads it: pass_nonbonded.h)
 * - Spatial sort: cells are "rows" (lines of cells along x at one (y, z))
 *   ordered along a 2-D Hilbert curve over (y, z), x ascending inside a row.
 *   Atoms get "slots" in that order (counting sort with atomics, then each
 *   cell sorted by atom index, so the order never depends on thread
 *   scheduling). Each row's slots are padded to a multiple of 8. Rows are
 *   about the edge of a cube holding 8 atoms thick (4.3 A in water), x
 *   cells a quarter of that.
 * - Clusters: 8 consecutive slots (VKMD_NL_CLUSTER_SIZE), always inside one
 *   row, so a cluster is a compact block (mean bounding box 3.6 x 3.3 x
 *   3.3 A in water). Each has an anchor on the 1/8 A grid; positions are
 *   kept relative to it (gather), so a pair's displacement is formed from
 *   small numbers: fp32 arithmetic keeps ~1e-6 A wherever the atoms are, in
 *   every positions mode.
 * - Tiles: pairs of clusters, each pair of clusters once (a half list, held
 *   by ci or cj by index parity so that every cluster holds about half of
 *   its tiles), each with an offset (anchor difference plus periodic image, so a
 *   tile needs no minimum image pair by pair unless the box is small: kind
 *   1) and a 64-bit mask of the lane pairs (exclusions, padding, the
 *   diagonal tile's triangle) in the order the pair kernel meets them.
 * - Two lists, as GROMACS's dynamic pruning: the outer list holds every tile
 *   whose bounding boxes lie within r_outer = cutoff + skin + outer skin; it
 *   is built rarely. The inner list holds the outer tiles with a pair within
 *   r_inner = cutoff + skin at the last prune; the pair kernel reads only
 *   it. Safety is checked on the device at every evaluation: a prune when
 *   an atom moved more than skin / 2 since the last prune (then a pair
 *   within the cutoff may be missing from the inner list), a rebuild when an
 *   atom moved more than outer skin / 2 since the build (then a pair within
 *   r_inner may be missing from the outer list), the box changed, or a
 *   rebuild was forced; both trigger distances less a float-rounding guard
 *   of 8 ulp of the largest box edge. So no pair within the cutoff is ever
 *   missed. Measured on water:8000 (cutoff 9 A): 52 tiles per cluster within
 *   9 A pruned at the atom level, 64 at 10 A (3.5 lane pairs computed per
 *   pair within the cutoff), 121 at 13 A.
 * - Build (nl_build.comp): one workgroup per i-cluster; candidates are the
 *   clusters of the rows within reach of the cluster's box, each row's
 *   x-range shortened by its (y, z) distance; a candidate is kept when the
 *   two boxes are within r_outer; kept tiles are placed by shared-memory
 *   ballots (deterministic order). Prune (nl_prune.comp): one group of 8
 *   lanes per i-cluster measures the 64 pairs of each outer tile; on a GPU
 *   (forces/tile.h: vkmd_tile_split groups) a workgroup of that many groups
 *   per i-cluster takes its outer tiles in rounds and places the kept ones
 *   in order through shared memory (the same inner list).
 * - Rebuild and prune on the device: every record runs a check (largest
 *   displacements since the build and since the prune) whose last workgroup
 *   writes the indirect dispatch arguments of the seven rebuild dispatches
 *   and of the prune: their group counts when due, zero otherwise.
 * - Steps that record no rebuild (MD on a device with conditional
 *   rendering, sim/md_batch.c): the check and the gather are one dispatch
 *   (VKMD_NL_RECORD_NO_REBUILD) and no rebuild dispatch is recorded. In such
 *   a gated batch every step's dispatches are conditional on its gate word
 *   (VK_EXT_conditional_rendering); a check that finds an atom may pass the
 *   rebuild trigger by the next check (its displacement since the build plus
 *   twice its motion in the last step, VKMD_NL_PREDICT_STEPS) halts the
 *   batch after its own step: it sets the gate words of the later steps,
 *   counts the steps run (batch_checks) and forces a rebuild at the next
 *   check, which the caller records at the start of the next batch. A
 *   rebuild due at a step that records none anyway (the look ahead was
 *   wrong) marks the state `missed` and halts; the caller repeats the batch
 *   with a rebuild recorded at every step.
 * - Skins: skin_a (default 1 A, OpenMM's padding is 10 % of the cutoff) sets
 *   how often the inner list is pruned; outer_skin_a how often the outer one
 *   is rebuilt (default 3 A; vkmd_md sets it from the time step so that a
 *   rebuild comes every 20 steps or more).
 * - Small boxes: candidate ranges that cover a box dimension are clamped to
 *   it, so each cluster is visited once, also with fewer than 3 cells per
 *   dimension and a list radius above half the box (water:216: 18.6 A box);
 *   tiles there are of kind 1.
 * - Triclinic cells (the TRICLINIC specialization constant of every
 *   pipeline, fixed at create; common/box.glsl): atoms are binned in the
 *   brick [0, ax) x [0, by) x [0, cz); every cluster is a candidate (a
 *   build costs K^2 / 2 box tests, fine up to tens of thousands of atoms,
 *   a cell-range search with sheared rows would scale better); a tile is kept
 *   when the boxes meet under the centres' nearest image or one of the 26
 *   around it, and is of kind 0 only when its largest pair plus the cutoff
 *   stays below the cell's smallest width. vkmd_neighbor_set_box refuses a
 *   change between rectangular and triclinic.
 * - Capacity: strides (tiles per cluster) are estimated from the density
 *   (vkmd_neighbor_plan_make, VKMD_NEIGHBOR_MARGIN over the estimated mean).
 *   A build or prune that needs more counts them without writing, sets the
 *   overflow flag and max_count / max_inner: the results of that evaluation
 *   are wrong, and vkmd_neighbor_check reports VKMD_ERROR_CAPACITY. To grow:
 *   destroy this list (and the passes using it), create it again with larger
 *   strides (vkmd_neighbor_stats has the need), and redo the steps since the
 *   last check.
 *
 * Device memory (bytes), N atoms, E exclusions, S = slot capacity (N + 7
 * per row, rounded to 8), K = S / 8 clusters, O and I the outer and inner
 * strides, and the grid's cells and rows:
 *   24 K (O + I) (tiles and masks) + 16 K (counts) + 48 K (clusters)
 *   + 512 K (tables of tiles with exclusions) + 36 S (order, relative
 *   positions) + 64 N + 4 (saved positions, cell keys, slots, CSR starts)
 *   + 8 E + 8 cells + 12 rows + 256 (state, arguments) + 1024 (gate)
 * (vkmd_neighbor_plan_make computes it; the test checks it against the
 * buffers). The outer tiles are one storage buffer, so they must fit the
 * device's maxStorageBufferRange (4 GiB on NVIDIA and AMD drivers, 128 MiB on
 * lavapipe); create fails with VKMD_ERROR_UNSUPPORTED beyond it.
 *
 * Cost per evaluation without a rebuild or prune: recorded with the rebuild,
 * the check (a dispatch over the atoms), seven empty indirect dispatches and
 * their barriers, the gather (one over the slots) and the empty prune;
 * without it (VKMD_NL_RECORD_NO_REBUILD), the check with the gather and the
 * empty prune: two dispatches, two barriers. */
#ifndef VKMD_FORCES_PASS_NEIGHBOR_H
#define VKMD_FORCES_PASS_NEIGHBOR_H

#include "common/vkmd_layout.h"
#include "system/system.h"
#include "vk/buffer.h"
#include "vk/context.h"

#include <stddef.h>

#define VKMD_NEIGHBOR_SKIN_A       1.0 /* default skin, A: r_inner = cutoff + skin */
#define VKMD_NEIGHBOR_OUTER_SKIN_A 3.0 /* default outer skin, A: r_outer = r_inner + it */
#define VKMD_NEIGHBOR_MARGIN       1.5 /* capacity over the estimated mean need */

typedef struct vkmd_neighbor_desc {
    const vkmd_vk_buffer *positions;   /* required: vec4 [atom_count] fp32, xyz in A (w unused),
                                          any periodic image; read by every record */
    const vkmd_vk_buffer *positions_x; /* split parts; required for a split positions_mode */
    int positions_mode;                /* VKMD_POSITIONS_FP32 (0), SPLIT_FLOAT, SPLIT_INT: the
                                          gather forms relative positions from the exact ones */
    double cutoff_a;                   /* required: interaction cutoff, A (> 0) */
    double skin_a;           /* 1.0 A (VKMD_NEIGHBOR_SKIN_A): inner radius cutoff + skin */
    double outer_skin_a;     /* 3.0 A (VKMD_NEIGHBOR_OUTER_SKIN_A): outer radius
                                cutoff + skin + outer skin */
    uint32_t max_neighbors;  /* 0: estimated from the density; else outer tiles per
                                cluster (the outer stride) */
    uint32_t max_inner;      /* 0: estimated; else inner tiles per cluster */
    double cell_size_a;      /* 0: the edge of a cube holding 8 atoms at the system's
                                density; rows are this thick in y and z, x cells a
                                quarter of it (tests force a coarse grid with it) */
    uint32_t workgroup_size; /* 64 (VKMD_NL_WORKGROUP_SIZE); power of two >= 32 */
    int force_staging;       /* 0; 1: stage every buffer (tests) */
} vkmd_neighbor_desc;

typedef struct vkmd_neighbor vkmd_neighbor;

/* Sizes the list would have, computed on the host without a device. */
typedef struct vkmd_neighbor_plan {
    uint32_t grid[3];          /* cells along x, rows along y and z */
    uint32_t cell_count;       /* grid[0] * grid[1] * grid[2] */
    uint32_t slot_capacity;    /* atoms + 7 padding slots per row, rounded to 8 */
    uint32_t cluster_capacity; /* slot_capacity / 8 */
    uint32_t max_neighbors;    /* outer stride: outer tiles per cluster */
    uint32_t max_inner;        /* inner stride */
    double expected_entries;   /* mean outer tiles per cluster the estimate assumes */
    double expected_inner;     /* mean inner tiles per cluster the estimate assumes */
    double list_radius_a;      /* inner radius: cutoff + skin */
    double outer_radius_a;     /* outer radius: cutoff + skin + outer skin */
    size_t list_bytes;         /* the outer tiles alone (one storage buffer) */
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

#define VKMD_NL_RECORD_NO_REBUILD                                                                  \
    1u /* the check with the gather, no rebuild dispatches (a                                      \
          rebuild due marks the state missed) */
#define VKMD_NL_RECORD_GATED                                                                       \
    2u /* inside a gated batch: the check's gate writes reach the                                  \
          conditional rendering of the next steps */
#define VKMD_NL_RECORD_NO_PRUNE                                                                    \
    4u /* the caller's pair kernel prunes in front of its tiles                                    \
          (common/pair_prune.glsl): no prune dispatch */

/* Records the check, the conditional rebuild, the gather and the conditional
 * prune with their barriers (flags VKMD_NL_RECORD_*). The caller orders the
 * positions' writes before it (a compute barrier); after it the inner list,
 * counts, order and relative positions are readable by compute shaders.
 * VKMD_NL_RECORD_GATED needs the device's conditional rendering
 * (vkmd_vk_features.conditional_rendering). */
void vkmd_neighbor_record(const vkmd_neighbor *nl, VkCommandBuffer cb, unsigned flags);

/* The barrier after a check (nl_check.comp, or the fused step's step.comp):
 * its arguments, state and relative positions to indirect and compute
 * reads, and with VKMD_NL_RECORD_GATED its gate words to conditional
 * rendering. */
void vkmd_neighbor_record_check_barrier(VkCommandBuffer cb, unsigned flags);

/* A gated batch (see the header comment): at its start (transfer commands;
 * the caller's barrier to compute and conditional-rendering reads follows)
 * every gate word 0, the halt flag and the batch's check count cleared, and
 * the look ahead on when `predict`; at its end the look ahead off again, so
 * checks outside MD batches never halt. */
void vkmd_neighbor_record_gate_open(const vkmd_neighbor *nl, VkCommandBuffer cb, int predict);
void vkmd_neighbor_record_gate_close(const vkmd_neighbor *nl, VkCommandBuffer cb);

/* The gate buffer: uint [VKMD_NL_GATE_WORDS], word s the inverted predicate
 * of step s of a gated batch (0: the step runs). */
VkBuffer vkmd_neighbor_gate(const vkmd_neighbor *nl);

/* For the fused MD step (sim/step.h), whose step.comp does the check and the
 * gather and whose forces.comp prunes: the seven rebuild dispatches (their
 * group counts from the last check: zero when no rebuild is due), then the
 * gather, with their barriers. The caller orders the check before it (a
 * barrier covering the indirect reads); ends with a compute barrier. */
void vkmd_neighbor_record_rebuild(const vkmd_neighbor *nl, VkCommandBuffer cb);

/* Records a write that makes the next check rebuild (first use is already
 * forced at create). Not for a command buffer replayed every step. */
void vkmd_neighbor_record_invalidate(const vkmd_neighbor *nl, VkCommandBuffer cb);

/* The same for a prune alone (benchmarks of the prune). */
void vkmd_neighbor_record_invalidate_prune(const vkmd_neighbor *nl, VkCommandBuffer cb);

typedef struct vkmd_neighbor_stats {
    uint32_t builds;          /* rebuilds since create */
    uint32_t prunes;          /* prunes since create (one after every build too) */
    uint32_t checks;          /* checks since create */
    uint32_t overflow;        /* 1 if any build or prune needed more than a stride */
    uint32_t max_count;       /* largest outer tiles per cluster any build needed */
    uint32_t capacity;        /* max_neighbors (outer stride) */
    uint32_t max_inner;       /* largest inner tiles per cluster any prune kept */
    uint32_t inner_capacity;  /* inner stride */
    uint32_t tiles_outer;     /* outer tiles at the last build */
    uint32_t tiles_inner;     /* inner tiles at the last prune */
    uint32_t slot_count;      /* slots in use at the last build */
    double last_displacement; /* largest displacement since the build at the last check, A */
    double trigger_a;         /* displacement since the build that triggers a rebuild, A */
    double prune_trigger_a;   /* displacement since the prune that triggers a prune, A */
    uint32_t missed;          /* 1 if a check needed a rebuild where none was recorded */
    uint32_t halted;          /* 1 if a check of the last gated batch halted it */
    uint32_t halts;           /* halts since create */
    uint32_t batch_checks;    /* checks in the last gated batch (the steps it ran) */
    uint32_t force;           /* 1: the next check rebuilds */
} vkmd_neighbor_stats;

/* Reads the device counters (waits for earlier queue work); a second read
 * with no queue submit between the two reuses the first's copy. */
vkmd_result vkmd_neighbor_stats_read(vkmd_vk_context *ctx, vkmd_neighbor *nl,
                                     vkmd_neighbor_stats *out);

/* Clears the `missed` flag (after the caller repeated the steps it spoiled). */
vkmd_result vkmd_neighbor_clear_missed(vkmd_vk_context *ctx, vkmd_neighbor *nl);

/* Reads the stats; VKMD_ERROR_CAPACITY (message: entries needed vs capacity)
 * if any build overflowed, so the caller grows (see the header comment).
 * `out` may be NULL. */
vkmd_result vkmd_neighbor_check(vkmd_vk_context *ctx, vkmd_neighbor *nl, vkmd_neighbor_stats *out);

/* Device memory of every buffer the list owns, bytes. */
size_t vkmd_neighbor_memory_bytes(const vkmd_neighbor *nl);

/* The list's layout for the passes that read it. Buffers are owned by the
 * list. */
typedef struct vkmd_neighbor_view {
    const vkmd_vk_buffer *order;   /* uint [slot_capacity]: atom per slot, VKMD_NL_EMPTY */
    const vkmd_vk_buffer *rel;     /* vec4 [2 * slot_capacity]: the second half holds the
                                      current positions relative to the cluster anchors */
    const vkmd_vk_buffer *inner;   /* uvec4 [cluster_capacity * max_inner] tiles */
    const vkmd_vk_buffer *masks;   /* uvec2 [cluster_capacity * (max_neighbors + max_inner)]:
                                      the inner tiles' masks follow the outer ones' */
    const vkmd_vk_buffer *counts;  /* uvec4 [cluster_capacity]: .zw inner tiles of kinds 0, 1 */
    const vkmd_vk_buffer *state;   /* vkmd_nl_state (slot_count) */
    const vkmd_vk_buffer *outer;   /* uvec4 [cluster_capacity * max_neighbors] tiles */
    const vkmd_vk_buffer *saved;   /* vec4 [3 * atom_count]: positions at the build, the
                                      prune, the last check */
    const vkmd_vk_buffer *slot_of; /* uint [atom_count] */
    const vkmd_vk_buffer *cluster; /* vec4 [3 * cluster_capacity]: anchors and boxes */
    const vkmd_vk_buffer *args;    /* uvec4 dispatch arguments (the check writes them) */
    const vkmd_vk_buffer *gate;    /* uint [VKMD_NL_GATE_WORDS] (the check writes them) */
    vkmd_nl_push push;             /* the push constants of every nl_*.comp */
    uint32_t atom_count;
    uint32_t slot_capacity;
    uint32_t cluster_capacity;
    uint32_t max_neighbors; /* outer stride */
    uint32_t max_inner;     /* inner stride */
    double cutoff_a;        /* the cutoff the list was built for */
} vkmd_neighbor_view;

void vkmd_neighbor_view_get(const vkmd_neighbor *nl, vkmd_neighbor_view *out);

/* Reads a list back as explicit pairs (i, j) of atom indices, one per
 * unmasked lane pair of every tile, in list order (inner: 0 = the outer
 * list, 1 = the inner list). Each pair of atoms appears at most once (a half
 * list). *out_pairs is malloc'd (free()); NULL when *out_count is 0. For
 * tests and debugging. */
vkmd_result vkmd_neighbor_pairs_read(vkmd_vk_context *ctx, const vkmd_neighbor *nl, int inner,
                                     vkmd_pair **out_pairs, size_t *out_count);

/* Pair evaluations per evaluation: 64 lane pairs per inner tile, the count
 * the pair kernel computes whether masked or not. */
uint64_t vkmd_neighbor_lane_pairs(const vkmd_neighbor_stats *stats);

/* Exclusions of `sys` as CSR: out_data[a] .. out_data[a + 1] - 1 index the
 * partners of atom a (both directions, ascending) at out_data[N + 1 + e].
 * *out_data is malloc'd (free()), *out_count words. Errors:
 * VKMD_ERROR_OUT_OF_MEMORY, VKMD_ERROR_INVALID_ARGUMENT (index range). */
vkmd_result vkmd_neighbor_exclusions_csr(const vkmd_system *sys, uint32_t **out_data,
                                         size_t *out_count);

#endif
