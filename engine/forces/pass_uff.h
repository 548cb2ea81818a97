/* GPU pass for UFF over many replicas in one dispatch (shaders/uff.comp):
 * bonds, angles, torsions, inversions, van der Waals and (with charges)
 * Coulomb pairs of every replica of a batch (system/uff_batch.h), replicas
 * being copies of one molecule or of different molecules, each with its own
 * coordinates; no periodic box. The CPU oracle is vkmd_ref_uff_compute
 * (ref/ref_uff.h), once per replica.
 *
 * Use: create from a packed batch (the batch may be freed afterwards) ->
 * upload coordinates (or write the positions buffer on the device) ->
 * record_clear + record into the caller's command buffer -> submit ->
 * readback of per-replica energies and forces. vkmd_pass_uff_evaluate does
 * all of it once, synchronously. A later stage (minimiser, MD) can bind the
 * pass's positions, forces and energies buffers directly (accessors below)
 * and replay a recorded command buffer.
 *
 * Design (why one dispatch): a batch is thousands of replicas times tens to
 * hundreds of terms, i.e. 1e4-1e6 small items. One dispatch over all of
 * them fills a GPU where a dispatch per replica would not, and costs one
 * launch instead of five per kind (the kinds need no barrier between them
 * either way: every sum is an integer atomic). Items are grouped by (kind,
 * molecule) and ordered term-major, replica-minor, so a warp/wave evaluates
 * one term for 32-64 replicas: same parameters, same branch (Chebyshev
 * order, inversion form), no divergence except at the few range boundaries.
 * Each item finds its range by a binary search over the small range table.
 *
 * Accuracy: fp32 arithmetic on float coordinates, plus float-pair
 * arithmetic for the few quantities a term subtracts its minimum from (bond
 * r - r0, angle cos - cos0), and parameters derived in double on the host
 * (shaders/common/uff_forms.glsl says which cancellations this avoids and
 * what they cost before). Measured per replica against the double reference
 * on the 57 test molecules and on 1,000 displaced conformations: every term
 * kind within 3e-6 of its energy (worst: a van der Waals sum that nearly
 * cancels), forces RMS-relative below 1e-6 (tests/test_gpu_uff.c). Those
 * figures are for the same float coordinates on both sides: rounding
 * coordinates to float is itself worth up to ~1e-5 of a relaxed molecule's
 * bond energy (|r - r0| ~ 1e-3 A against 2.4e-7 A of rounding).
 *
 * Determinism: forces and energies are int64 fixed point (VKMD_FIXED_SCALE)
 * summed with int64 atomics: bitwise identical results for any thread order
 * and workgroup size. Without shaderInt64 or shaderBufferInt64Atomics the
 * same sums are made to the bit in 32-bit words (forces/fixed_point.h).
 *
 * Buffers (layouts in shaders/common/layout_uff.h):
 *   positions vec4 [atom_count] xyz A, replica r's atoms from
 *             batch->replica_atom_offset[r];
 *   forces    int64 [3 * atom_count], planes x | y | z over the batch's atoms;
 *   energies  int64 [replica_count * VKMD_UFF_ENERGY_STRIDE], VKMD_UFF_ENERGY_*. */
#ifndef VKMD_FORCES_PASS_UFF_H
#define VKMD_FORCES_PASS_UFF_H

#include "system/uff_batch.h"
#include "vk/buffer.h"
#include "vk/context.h"

typedef struct vkmd_pass_uff_desc {
    vkmd_vk_buffer *positions; /* NULL: the pass creates its own; else borrowed, vec4
                                  [batch atom_count] (outlives the pass; upload writes it) */
    uint32_t workgroup_size;   /* 64 (VKMD_UFF_WORKGROUP_SIZE); power of two */
    int debug;                 /* 0; 1: record per-interaction details of debug_replica */
    int32_t debug_replica;     /* 0; the replica (0-based) whose details are recorded */
    int force_staging;         /* 0; 1: stage every buffer (tests) */
    uint32_t max_groups;       /* 0: the device's limit; a smaller cap makes threads loop
                                  over several items (tests) */
} vkmd_pass_uff_desc;

typedef struct vkmd_pass_uff vkmd_pass_uff;

/* Which kernel shape evaluates the batch (VKMD_SPEC_UFF_PER_REPLICA): 1 on a
 * CPU device, one invocation per replica walking its molecule's terms with
 * plain (not atomic) fixed-point adds to its own atoms, as the reference
 * does; 0 on a GPU, one invocation per (term, replica) item with atomic
 * adds. Both add the same integers, so they give the same bits. On lavapipe
 * the atomics were most of the cost (every item adds 3 to 12 of them).
 * $VKMD_UFF_PER_REPLICA (1 / 0) overrides it, for tests and figures. */
int vkmd_pass_uff_per_replica(const vkmd_vk_context *ctx);

/* Builds the pipeline (with the debug variant when desc->debug), the
 * accumulators and the tables of `batch`, and uploads the tables. `desc` may
 * be NULL (defaults). Errors: VKMD_ERROR_UNSUPPORTED (no shader build for the
 * device's fixed-point mode), VKMD_ERROR_INVALID_ARGUMENT (empty batch,
 * positions buffer too small, bad workgroup size, debug replica out of
 * range), Vulkan and memory errors. */
vkmd_result vkmd_pass_uff_create(vkmd_vk_context *ctx, const vkmd_uff_batch *batch,
                                 const vkmd_pass_uff_desc *desc, vkmd_pass_uff **out_pass);

/* Uploads the coordinates of every replica: xyz [3 * atom_count] A, in batch
 * order (replica r's atom a at 3 * (replica_atom_offset[r] + a)), rounded to
 * float. Synchronous; the pass must not be executing. Errors: memory and
 * Vulkan errors. */
vkmd_result vkmd_pass_uff_upload_positions(vkmd_vk_context *ctx, vkmd_pass_uff *pass,
                                           const double *xyz);

/* Records zero fills of the forces, energies (and debug records) between a
 * compute->transfer and a transfer->compute barrier (so a replayed command
 * buffer may start with it). Record it before vkmd_pass_uff_record unless
 * something else of the caller's has added forces in between on purpose. */
void vkmd_pass_uff_record_clear(const vkmd_pass_uff *pass, VkCommandBuffer cb);

/* Records the dispatch, which ADDS into the forces and energies. The caller
 * orders it: positions written and accumulators cleared before, readers
 * after (vkmd_vk_barrier_compute_to_transfer / _compute). Records nothing
 * for a batch without terms. */
void vkmd_pass_uff_record(const vkmd_pass_uff *pass, VkCommandBuffer cb);

/* Reads back (waiting for earlier queue work): out_forces [3 * atom_count]
 * kcal/mol/A, batch order, atom-major (may be NULL); out_energies
 * [replica_count] kcal/mol per term and total (may be NULL). */
vkmd_result vkmd_pass_uff_readback(vkmd_vk_context *ctx, const vkmd_pass_uff *pass,
                                   double *out_forces, vkmd_uff_energy *out_energies);

/* Upload, clear, dispatch, wait and readback in one call (one-shot command
 * buffer); outputs as vkmd_pass_uff_readback. */
vkmd_result vkmd_pass_uff_evaluate(vkmd_vk_context *ctx, vkmd_pass_uff *pass, const double *xyz,
                                   double *out_forces, vkmd_uff_energy *out_energies);

/* Number of debug records: the terms of the debug replica's molecule (0
 * without debug). */
int32_t vkmd_pass_uff_debug_count(const vkmd_pass_uff *pass);

/* Reads the debug records (layout_uff.h: one per term of the debug replica,
 * in the molecule's kind order, info.z = 1 when written) into
 * out_records [vkmd_pass_uff_debug_count]. Errors:
 * VKMD_ERROR_INVALID_ARGUMENT (pass created without debug), Vulkan errors. */
vkmd_result vkmd_pass_uff_readback_debug(vkmd_vk_context *ctx, const vkmd_pass_uff *pass,
                                         vkmd_uff_debug_record *out_records);

/* The pass's device buffers (owned by the pass; positions may be the
 * caller's), for later stages that read or write them on the device. */
const vkmd_vk_buffer *vkmd_pass_uff_positions(const vkmd_pass_uff *pass);
const vkmd_vk_buffer *vkmd_pass_uff_forces(const vkmd_pass_uff *pass);
const vkmd_vk_buffer *vkmd_pass_uff_energies(const vkmd_pass_uff *pass);
/* Its read-only tables (layout_uff.h: terms, ranges + molecule records,
 * slots), for a later stage that evaluates the terms itself
 * (shaders/uff_relax_replica.comp). */
const vkmd_vk_buffer *vkmd_pass_uff_terms(const vkmd_pass_uff *pass);
const vkmd_vk_buffer *vkmd_pass_uff_ranges(const vkmd_pass_uff *pass);
const vkmd_vk_buffer *vkmd_pass_uff_slots(const vkmd_pass_uff *pass);

/* Converts one replica's fixed-point energy row
 * (VKMD_UFF_ENERGY_STRIDE int64) to kcal/mol; the total is the exact integer
 * sum of the slots, converted once. */
void vkmd_pass_uff_energy_from_fixed(const int64_t *row, vkmd_uff_energy *out_energy);

/* NULL: no-op. */
void vkmd_pass_uff_destroy(vkmd_vk_context *ctx, vkmd_pass_uff *pass);

#endif
