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
 * - Periodic: cluster-pair tiles of the neighbour list's inner list
 *   (pass_neighbor.h), each pair of atoms once (Newton's third law in the
 *   kernel). Read OpenMM's CUDA tile kernel (32 x 32 tiles, j data and j
 *   forces rotated around the warp with shuffles, flushed per tile as
 *   64-bit fixed point) and GROMACS's nbnxm (8 x 8 cluster pairs, an outer
 *   list pruned every few steps into an inner one). vkmd takes GROMACS's
 *   cluster size and OpenMM's rotation: a group of 8 lanes per i-cluster,
 *   8 rotations per tile, no reduction across lanes. 8-atom clusters
 *   because they keep more of the computed lane pairs within the cutoff
 *   (water:8000, cutoff 9 A, inner radius 10 A: 3.5 lane pairs per pair
 *   within the cutoff) and one list serves every device: a 32-lane subgroup
 *   runs 4 groups. The j forces of a tile are added with one fixed-point
 *   atomic per component and lane (measured on lavapipe: 6 % of the tile's
 *   cost); the i forces once per cluster.
 * - Positions relative to the clusters' anchors (the list's gather), so a
 *   tile offset replaces the per-pair minimum image (kind-0 tiles) and
 *   split positions cost what fp32 positions cost.
 * - Forces use the Abramowitz-Stegun erfc sharing one exp with the force
 *   (OpenMM's choice; max error 1.5e-7, far below the force tolerance);
 *   energies, summed only by the pipeline with energies, use
 *   form_erfc_precise (few-ulp relative error), because a 1.5e-7 absolute
 *   error is ~1e-4 relative near the cutoff and biases a sum over millions
 *   of pairs.
 * - LJ from per-atom Lorentz-Berthelot factors (sigma/2, 2 sqrt(eps)) when
 *   the type tables follow that rule to 1e-6 (AMBER force fields without
 *   NBFIX terms), else from the A/B table by type pair.
 * - On lavapipe (2 cores) a tile of 64 lane pairs costs about 0.15 us.
 * - Vacuum: the same tiles over every pair of 8-atom clusters in index
 *   order, each pair once, the masks of the few tiles with exclusions or
 *   padding from the host (forces/vacuum_tiles.h). Before, one thread per
 *   atom over every other atom cost lavapipe 27 ms per evaluation of villin
 *   (584 atoms, every pair twice, scalar loads per pair).
 * - Sums: the j forces of a tile (8 pairs each) and the i forces (a
 *   compensated sum of the tiles' sums) go to 64-bit fixed point; energies
 *   are compensated sums per lane. Results are bitwise reproducible. The
 *   64-bit sums are int64 atomics where the device has shaderInt64 and
 *   shaderBufferInt64Atomics, else the same sums to the bit in 32-bit words
 *   (forces/fixed_point.h). Without subgroup shuffles the "+shared" builds
 *   pass tile data through shared memory (forces/tile.h). */
#ifndef VKMD_FORCES_PASS_NONBONDED_H
#define VKMD_FORCES_PASS_NONBONDED_H

#include "forces/accum.h"
#include "forces/pass_neighbor.h"
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
    uint32_t workgroup_size;           /* 64 (VKMD_NB_WORKGROUP_SIZE); power of two >= 8 (8 in
                                          the shared-memory tile build) */
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

/* Records the pass; with_energy 0 leaves the energy slots alone (steps that
 * read no energies). The caller orders it: positions written, accumulators
 * cleared and (periodic) vkmd_neighbor_record recorded before; readers of
 * the accumulators after (barriers). */
void vkmd_pass_nonbonded_record(const vkmd_pass_nonbonded *pass, VkCommandBuffer cb,
                                int with_energy);

/* The per-atom parameters, the LJ tables and the push constants, for the
 * fused force dispatch (shaders/forces.comp). Buffers owned by the pass. */
void vkmd_pass_nonbonded_view(const vkmd_pass_nonbonded *pass, const vkmd_vk_buffer **out_params,
                              const vkmd_vk_buffer **out_lj, vkmd_nb_push *out_push);

/* 1 when LJ parameters come from the A/B table by type pair, 0 when from
 * per-atom Lorentz-Berthelot factors. */
int vkmd_pass_nonbonded_lj_table(const vkmd_pass_nonbonded *pass);

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
