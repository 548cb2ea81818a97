/* The whole AMBER force field on a Vulkan device: owns the positions buffer,
 * the fixed-point accumulators, the neighbour list and every pass (nonbonded,
 * bonded + 1-4 + exclusion corrections, PME, generalized Born), and adds the terms that are
 * constants of the box and charges (Ewald self energy, long-range dispersion
 * correction, net-charge correction) on the host in double precision.
 *
 * One evaluation, as recorded by vkmd_forcefield_record:
 *   clear accumulators -> neighbour list check (+ rebuild on the device when
 *   an atom moved more than half the skin) -> nonbonded -> bonded -> PME
 *   (spread, FFT, convolution, inverse FFT, gather)
 * with a barrier between passes (they add into the same accumulators). The
 * caller writes positions before and reads forces after.
 *
 * Vacuum systems (no box) have no neighbour list and no PME: the nonbonded
 * pass runs over all pairs with plain Coulomb, as the reference does. With
 * settings.gb.model set (vacuum only), the generalized Born pass
 * (forces/pass_gb.h) follows the nonbonded one; a timed record counts its
 * time in the nonbonded pass's.
 *
 * The CPU oracle is vkmd_ref_compute (engine/ref/ref.h); the figures of the
 * comparison are printed by tests/test_gpu_forcefield*.c. */
#ifndef VKMD_FORCES_FORCEFIELD_H
#define VKMD_FORCES_FORCEFIELD_H

#include "forces/accum.h"
#include "forces/pass_neighbor.h"
#include "forces/pass_bonded.h"
#include "forces/pass_nonbonded.h"
#include "forces/pass_pme.h"
#include "system/ff_settings.h"
#include "system/restraints.h"
#include "system/system.h"
#include "vk/context.h"
#include "vk/timer.h"

#include <stddef.h>

typedef struct vkmd_forcefield_desc {
    const vkmd_ff_settings *settings;  /* required, resolved (vkmd_ff_settings_resolve) */
    double skin_a;                     /* 0: the neighbour list's default (inner skin) */
    double outer_skin_a;               /* 0: the neighbour list's default (outer skin) */
    uint32_t max_neighbors;            /* 0: estimated by the list; else its initial outer
                                          capacity (tiles per cluster; grown on overflow) */
    int force_staging;                 /* 0; 1: stage every buffer (tests of the discrete path) */
    int no_pme;                        /* 0; 1: leave PME out (timing the other passes, as the
                                          precision calibration does: energies are incomplete) */
    const vkmd_restraints *restraints; /* NULL: none; positional restraints in the bonded
                                          dispatch (copied at create) */
} vkmd_forcefield_desc;

typedef struct vkmd_forcefield vkmd_forcefield;

/* Passes timed by vkmd_forcefield_record when given a timer. */
typedef enum vkmd_ff_pass {
    VKMD_FF_PASS_NEIGHBOR = 0, /* displacement check and, when needed, the rebuild */
    VKMD_FF_PASS_NONBONDED,    /* pair tiles (and prune); with implicit solvent also GB */
    VKMD_FF_PASS_BONDED,       /* bonds, angles, dihedrals, 1-4 pairs, exclusion corrections */
    VKMD_FF_PASS_PME_SPREAD,
    VKMD_FF_PASS_PME_FFT, /* forward and inverse FFT together */
    VKMD_FF_PASS_PME_CONVOLVE,
    VKMD_FF_PASS_PME_GATHER,
    VKMD_FF_PASS_COUNT
} vkmd_ff_pass;

/* Short stable names for reports ("neighbor", "nonbonded", ...). */
const char *vkmd_ff_pass_name(vkmd_ff_pass pass);

/* Timestamp slots one record uses (from first_slot). */
#define VKMD_FORCEFIELD_TIMER_SLOTS 16

/* Builds every pass for `sys` and uploads its parameters and positions.
 * Errors: VKMD_ERROR_INVALID_ARGUMENT (no positions, unresolved settings),
 * VKMD_ERROR_UNSUPPORTED (a pass has no shader build for the device's
 * fixed-point mode, forces/fixed_point.h), Vulkan and memory errors, each
 * naming the pass. */
vkmd_result vkmd_forcefield_create(vkmd_vk_context *ctx, const vkmd_system *sys,
                                   const vkmd_forcefield_desc *desc, vkmd_forcefield **out_ff);

/* Changes the positional restraints' k (kcal/mol/A^2) for later evaluations,
 * recorded ones included (vkmd_pass_bonded_set_restraint_k); synchronous. The
 * forces already accumulated are not recomputed. */
vkmd_result vkmd_forcefield_set_restraint_k(vkmd_vk_context *ctx, vkmd_forcefield *ff, double k);

/* NULL: no-op. */
void vkmd_forcefield_destroy(vkmd_vk_context *ctx, vkmd_forcefield *ff);

/* The positions buffer (vec4 [atom_count] fp32, xyz in A, w unused) the
 * passes read, and the accumulators they add into. Owned by the force field. */
const vkmd_vk_buffer *vkmd_forcefield_positions(const vkmd_forcefield *ff);

/* The split parts of the positions (uvec4 [2 * atom_count], see
 * shaders/common/vkmd_layout.h) when settings.positions is a split mode;
 * NULL for fp32. */
const vkmd_vk_buffer *vkmd_forcefield_positions_x(const vkmd_forcefield *ff);

/* settings.positions: VKMD_POSITIONS_*. */
int vkmd_forcefield_positions_mode(const vkmd_forcefield *ff);

/* Reads the positions [3 * atom_count] A in double, both parts of a split
 * mode combined (waits for earlier queue work). */
vkmd_result vkmd_forcefield_read_positions(vkmd_vk_context *ctx, const vkmd_forcefield *ff,
                                           double *out_positions);
const vkmd_accum *vkmd_forcefield_accum(const vkmd_forcefield *ff);

/* The system the force field was made for (borrowed: the caller of
 * vkmd_forcefield_create keeps it alive). */
const vkmd_system *vkmd_forcefield_system(const vkmd_forcefield *ff);

/* Uploads positions [3 * atom_count] A (synchronous). */
vkmd_result vkmd_forcefield_upload_positions(vkmd_vk_context *ctx, vkmd_forcefield *ff,
                                             const double *positions);

/* Records one full evaluation (see the file comment), with energies when
 * flags has VKMD_FF_RECORD_ENERGY; begins with a
 * compute-to-transfer barrier (earlier compute reads of the accumulators and
 * the PME grid finish before they are cleared) and ends with a compute
 * barrier so later compute passes can read the forces. With a timer, marks
 * go into first_slot .. first_slot + VKMD_FORCEFIELD_TIMER_SLOTS - 1 and the
 * caller resets them (vkmd_vk_timer_record_reset) before. */
#define VKMD_FF_RECORD_ENERGY                                                                      \
    1u /* sum energies too (else forces only, and the energy                                       \
          slots keep what they held) */
#define VKMD_FF_RECORD_NO_REBUILD                                                                  \
    2u /* the list's check with its gather, no rebuild dispatches                                  \
          (VKMD_NL_RECORD_NO_REBUILD: a rebuild due marks the list's state missed) */
#define VKMD_FF_RECORD_GATED                                                                       \
    4u /* inside a gated MD batch (VKMD_NL_RECORD_GATED; needs conditional rendering) */
#define VKMD_FF_RECORD_PREPARED                                                                    \
    16u /* vkmd_forcefield_record_prepare was recorded in this command buffer after the last       \
           box change: an evaluation without energies takes VkFFT's fused PME convolution */
#define VKMD_FF_RECORD_CLEARED                                                                     \
    8u /* the caller cleared the force accumulators (and the energy slots, with                    \
          VKMD_FF_RECORD_ENERGY) since the last evaluation: no transfer command is recorded */
void vkmd_forcefield_record(const vkmd_forcefield *ff, VkCommandBuffer cb, unsigned flags,
                            const vkmd_vk_timer *timer, uint32_t first_slot);

/* What evaluations recorded with VKMD_FF_RECORD_PREPARED read: the PME
 * convolution kernel of the current box (one dispatch; none without PME).
 * A compute barrier must follow before the first such evaluation. */
void vkmd_forcefield_record_prepare(const vkmd_forcefield *ff, VkCommandBuffer cb);

/* Records a request that the next recorded evaluation rebuilds the
 * neighbour list whatever the displacements (benchmarks of the rebuild, a
 * new box). No-op for vacuum systems. */
void vkmd_forcefield_record_invalidate(const vkmd_forcefield *ff, VkCommandBuffer cb);
/* The same for the inner list's prune alone (benchmarks of the prune, which
 * the nonbonded pass does in front of its tiles when due). */
void vkmd_forcefield_record_invalidate_prune(const vkmd_forcefield *ff, VkCommandBuffer cb);

/* GPU time per pass in ns from the marks of the last submitted record with
 * that timer (out_ns [VKMD_FF_PASS_COUNT]; passes that did not run get 0). */
vkmd_result vkmd_forcefield_pass_times(vkmd_vk_context *ctx, const vkmd_forcefield *ff,
                                       const vkmd_vk_timer *timer, uint32_t first_slot,
                                       double *out_ns);

/* Reads energies (every field of `out_energy`, host constants added, total
 * summed) and forces [3 * atom_count] kcal/mol/A (may be NULL) after a
 * submitted record finished. Errors: VKMD_ERROR_CAPACITY when the neighbour
 * list overflowed during that evaluation (vkmd_forcefield_evaluate grows it
 * and repeats); Vulkan errors. */
vkmd_result vkmd_forcefield_readback(vkmd_vk_context *ctx, const vkmd_forcefield *ff,
                                     vkmd_energy *out_energy, double *out_forces);

/* Convenience for one-off evaluations (vkmd energy, tests): uploads
 * `positions` (NULL: keep the current ones), records, submits, waits and
 * reads back; grows the neighbour list and repeats if it overflowed. */
vkmd_result vkmd_forcefield_evaluate(vkmd_vk_context *ctx, vkmd_forcefield *ff,
                                     const double *positions, vkmd_energy *out_energy,
                                     double *out_forces);

/* After submitted records finished: VKMD_ERROR_CAPACITY if the neighbour
 * list overflowed in any of them (their results are wrong: grow and
 * repeat), else VKMD_OK. Vacuum systems: always VKMD_OK. */
vkmd_result vkmd_forcefield_check_capacity(vkmd_vk_context *ctx, const vkmd_forcefield *ff);

/* vkmd_forcefield_check_capacity that also hands back the list's counters
 * (vkmd_forcefield_neighbor_stats) from the same single read-back; zeroed
 * for vacuum. */
vkmd_result vkmd_forcefield_check_list(vkmd_vk_context *ctx, const vkmd_forcefield *ff,
                                       vkmd_neighbor_stats *out);

/* Re-creates the neighbour list (and the nonbonded pass reading it) with room
 * for what the device needed plus a margin, after
 * vkmd_forcefield_check_capacity said VKMD_ERROR_CAPACITY. The positions and
 * accumulator buffers are kept; command buffers recorded before must be
 * recorded again. */
vkmd_result vkmd_forcefield_grow_neighbors(vkmd_vk_context *ctx, vkmd_forcefield *ff);

/* Changes the box (A) of every later record: the neighbour list (which
 * rebuilds at its next check), nonbonded, bonded and PME push constants (the
 * PME grid stays) and the host constants that depend on the volume
 * (long-range dispersion and net-charge corrections scale as 1/V). Push
 * constants are captured at record time: command buffers recorded before
 * must be recorded again. Errors: VKMD_ERROR_INVALID_ARGUMENT (a vacuum
 * system, an edge not > 0, or one below 2 cutoffs, a triclinic system);
 * the box is then unchanged. Rectangular boxes only: vkmd_forcefield_set_cell
 * takes any. */
vkmd_result vkmd_forcefield_set_box(vkmd_forcefield *ff, const double box[3]);

/* As vkmd_forcefield_set_box for a whole cell (copied): rectangular or
 * triclinic, of the same kind as the system's box (the passes' pipelines
 * are built for one). Errors: VKMD_ERROR_INVALID_ARGUMENT (a vacuum system,
 * another kind of box, a volume not > 0, a width below 2 cutoffs); the box
 * is then unchanged. */
vkmd_result vkmd_forcefield_set_cell(vkmd_forcefield *ff, const vkmd_box *cell);

/* The current box edges (A); zeros for vacuum. */
void vkmd_forcefield_get_box(const vkmd_forcefield *ff, double out_box[3]);

/* Device memory held by the force field and its passes, bytes. */
size_t vkmd_forcefield_memory_bytes(const vkmd_forcefield *ff);

/* The passes, for the fused MD step (sim/step.h); NULL where the system has
 * none (vacuum: no list, no PME). Owned by the force field. */
const vkmd_neighbor *vkmd_forcefield_neighbor(const vkmd_forcefield *ff);
const vkmd_pass_nonbonded *vkmd_forcefield_nonbonded(const vkmd_forcefield *ff);
const vkmd_pass_bonded *vkmd_forcefield_bonded(const vkmd_forcefield *ff);
const vkmd_pass_pme *vkmd_forcefield_pme(const vkmd_forcefield *ff);

/* Clears the list's `missed` flag (vkmd_neighbor_clear_missed); no-op for vacuum. */
vkmd_result vkmd_forcefield_clear_missed(vkmd_vk_context *ctx, vkmd_forcefield *ff);

/* The neighbour list's counters (vkmd_neighbor_stats_read); zeroed for vacuum. */
vkmd_result vkmd_forcefield_neighbor_stats(vkmd_vk_context *ctx, const vkmd_forcefield *ff,
                                           vkmd_neighbor_stats *out);

/* Neighbour-list rebuilds the device has made since create (0 for vacuum). */
vkmd_result vkmd_forcefield_neighbor_builds(vkmd_vk_context *ctx, const vkmd_forcefield *ff,
                                            uint32_t *out_builds);

#endif
