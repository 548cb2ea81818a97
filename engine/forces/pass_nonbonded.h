/* GPU pass for the non-bonded pairs (shaders/nonbonded.comp): LJ
 * (A/r^12 - B/r^6 from the AMBER type tables, plain truncation) plus Ewald
 * real-space Coulomb k q_i q_j erfc(alpha r)/r within the cutoff under the
 * minimum image (periodic, via the neighbour list), or LJ plus plain
 * k q_i q_j / r over all pairs (no box, no list). Excluded pairs are not
 * computed: 1-4 terms and the Ewald excluded-pair correction belong to
 * other passes. Oracle: ref_nonbonded_pairs (engine/ref/ref.h). Energies go
 * to VKMD_ENERGY_LJ and VKMD_ENERGY_COUL_REAL, forces to the accumulator.
 *
 * Design and cost
 * - Periodic: record = a gather over the list's slots (sorted positions with
 *   the charge in w, and LJ types: neighbours are then read from nearby
 *   addresses) and the pair kernel: one thread per slot; the 8 lanes of a
 *   cluster read each list entry together (one address) and each computes
 *   the pair its mask bit selects, with the minimum image and the cutoff
 *   test. The list is full (every pair from both sides): 2x the pair
 *   arithmetic of a half list, in exchange for no j-side force reduction
 *   and no atomics per pair: a thread writes its atom's force once. With
 *   cutoff 9 A and skin 1 A about 44% of the lanes' pair slots fall within
 *   the cutoff in water (the rest cost a load, a minimum image and a
 *   compare, or idle on a cleared mask bit). On lavapipe (2 cores) a
 *   water:8000 evaluation takes ~0.4 s and a rebuild ~0.5 s.
 * - Minimum image with the box edge as a float pair: rounding the edge
 *   alone biases every pair across a face the same way (3e-7 of the LJ
 *   energy of water:8000); r^2 gets the first-order correction instead.
 * - Vacuum: one thread per atom over every other atom (these systems are
 *   small), skipping the atom's sorted exclusions in step.
 * - Arithmetic is fp32. Ewald's erfc is form_erfc_precise (few-ulp relative
 *   error, shaders/common/forms.glsl), because the common 5-term fit's
 *   1.5e-7 absolute error is ~1e-4 relative near the cutoff. Charges are
 *   uploaded as q sqrt(k), so kqq is one product.
 * - Sums: each thread adds its pairs in list order with Kahan-compensated
 *   float sums (about one ulp of the result however many pairs; a float
 *   to int64 conversion per pair would cost more on GPUs, and fixed-point
 *   truncation per pair biases), then converts once to 64-bit fixed point;
 *   forces are added with one 64-bit atomic per component and atom,
 *   energies reduced per workgroup in 64-bit fixed point. Results are
 *   bitwise reproducible. The 64-bit sums are int64 atomics where the device
 *   has shaderInt64 and shaderBufferInt64Atomics, else the same sums to the
 *   bit in 32-bit words (forces/fixed_point.h). */
#ifndef VKMD_FORCES_PASS_NONBONDED_H
#define VKMD_FORCES_PASS_NONBONDED_H

#include "forces/accum.h"
#include "forces/neighbor.h"
#include "system/ff_settings.h"
#include "system/system.h"
#include "vk/context.h"

typedef struct vkmd_pass_nonbonded_desc {
    const vkmd_vk_buffer *positions;   /* required: vec4 [atom_count] fp32, xyz in A (w unused) */
    const vkmd_vk_buffer *positions_x; /* split parts; required for a split positions_mode */
    int positions_mode;                /* VKMD_POSITIONS_FP32 (0), SPLIT_FLOAT, SPLIT_INT */
    const vkmd_accum *accum;           /* required: forces and energy slots LJ, COUL_REAL */
    const vkmd_neighbor *neighbor;     /* required when the system is periodic (built for a cutoff
                                          >= settings->cutoff_a); ignored in vacuum */
    const vkmd_ff_settings *settings;  /* required, resolved (cutoff_a, ewald_alpha, coulomb) */
    uint32_t workgroup_size;           /* 64 (VKMD_NB_WORKGROUP_SIZE); power of two >= 8 */
    int force_staging;                 /* 0; 1: stage the parameter buffers (tests) */
} vkmd_pass_nonbonded_desc;

typedef struct vkmd_pass_nonbonded vkmd_pass_nonbonded;

/* Builds the pass for `sys` (charges, LJ types and tables, exclusions for
 * vacuum, box) and uploads its parameters. positions, accum and neighbor are
 * borrowed and must outlive the pass. Errors: VKMD_ERROR_UNSUPPORTED (no
 * shader build for the device's fixed-point mode),
 * VKMD_ERROR_INVALID_ARGUMENT (missing buffers or settings, atom count
 * mismatch, no list for a periodic system or one built for a smaller cutoff,
 * bad workgroup size, LJ type out of range), Vulkan and memory errors. */
vkmd_result vkmd_pass_nonbonded_create(vkmd_vk_context *ctx, const vkmd_system *sys,
                                       const vkmd_pass_nonbonded_desc *desc,
                                       vkmd_pass_nonbonded **out_pass);

/* Changes the box used by later records (captured at record time). Set the
 * neighbour list's box too. */
void vkmd_pass_nonbonded_set_box(vkmd_pass_nonbonded *pass, const vkmd_box *box);

/* Records the pass. The caller orders it: positions written, accumulators
 * cleared and (periodic) vkmd_neighbor_record recorded before; readers of
 * the accumulators after (barriers). */
void vkmd_pass_nonbonded_record(const vkmd_pass_nonbonded *pass, VkCommandBuffer cb);

/* Reads the accumulators back (waiting for earlier queue work): total forces
 * [3 * atom_count] kcal/mol/A (may be NULL) and the lj_pair and coulomb_real
 * fields of `out_energy` (may be NULL; other fields untouched). */
vkmd_result vkmd_pass_nonbonded_readback(vkmd_vk_context *ctx, const vkmd_pass_nonbonded *pass,
                                         double *out_forces, vkmd_energy *out_energy);

/* Device memory the pass owns (parameters and the sorted copies), bytes;
 * the neighbour list is counted by vkmd_neighbor_memory_bytes. */
size_t vkmd_pass_nonbonded_memory_bytes(const vkmd_pass_nonbonded *pass);

/* NULL: no-op. */
void vkmd_pass_nonbonded_destroy(vkmd_vk_context *ctx, vkmd_pass_nonbonded *pass);

#endif
