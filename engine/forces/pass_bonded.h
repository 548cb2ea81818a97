/* GPU pass for every bonded term (bonds, angles, proper and improper
 * dihedrals) and, with settings, every fixed pair (scaled 1-4 LJ + Coulomb;
 * for periodic systems the Ewald excluded-pair correction -k q q erf(ar)/r)
 * in one dispatch of shaders/bonded.comp; the CPU oracle is ref_bonds /
 * ref_angles / ref_dihedrals / ref_pairs14 / ref_nonbonded_excluded
 * (engine/ref/ref.h). Positional restraints (system/restraints.h), when
 * given, are the last kind of the same dispatch (oracle: ref_restraints).
 *
 * The pattern for every pass: create (pipeline, descriptor set, parameter
 * buffer, uploaded from the system) -> record into the caller's command buffer
 * (adds into the caller's accumulators; no clear, no barrier) -> readback
 * (convenience: the accumulators as forces and energies) -> destroy.
 *
 * Forces and energies are 64-bit fixed point summed with atomics, for
 * bitwise-reproducible results: int64 atomics where the device has
 * shaderInt64 and shaderBufferInt64Atomics, else the same sums to the bit in
 * 32-bit words (forces/fixed_point.h). */
#ifndef VKMD_FORCES_PASS_BONDED_H
#define VKMD_FORCES_PASS_BONDED_H

#include "forces/accum.h"
#include "system/ff_settings.h"
#include "system/restraints.h"
#include "system/system.h"
#include "vk/context.h"

typedef struct vkmd_pass_bonded_desc {
    const vkmd_vk_buffer *positions;   /* required: vec4 [atom_count] fp32, xyz in A (w unused) */
    const vkmd_vk_buffer *positions_x; /* split parts (uvec4 [2 * atom_count]); required when
                                          positions_mode is a split mode */
    int positions_mode;                /* VKMD_POSITIONS_FP32 (0), SPLIT_FLOAT, SPLIT_INT */
    const vkmd_accum *accum;           /* required: forces and energy slots BOND..COUL_EXCL */
    const vkmd_ff_settings *settings;  /* NULL: bonds, angles, dihedrals only; resolved settings:
                                          also 1-4 pairs and (periodic) exclusion corrections */
    const vkmd_restraints *restraints; /* NULL: none; else packed at create (copied: the
                                          set need not outlive the call) */
    uint32_t workgroup_size;           /* 64 (VKMD_BONDED_WORKGROUP_SIZE); power of two */
    int force_staging;                 /* 0; 1: stage the parameter buffer (tests) */
} vkmd_pass_bonded_desc;

typedef struct vkmd_pass_bonded vkmd_pass_bonded;

/* Builds the pass for `sys` (its bonded terms and box) and uploads the
 * parameters. The positions buffer and accumulators are borrowed and must
 * outlive the pass. Errors: VKMD_ERROR_UNSUPPORTED (no shader build for the
 * device's fixed-point mode), VKMD_ERROR_INVALID_ARGUMENT (missing buffers,
 * atom count mismatch, bad workgroup size, atom index out of range), Vulkan
 * and memory errors. */
vkmd_result vkmd_pass_bonded_create(vkmd_vk_context *ctx, const vkmd_system *sys,
                                    const vkmd_pass_bonded_desc *desc, vkmd_pass_bonded **out_pass);

/* Re-uploads the parameters and box of `sys`, which must have the same term
 * counts as at create. Synchronous; the pass must not be executing. */
vkmd_result vkmd_pass_bonded_upload(vkmd_vk_context *ctx, vkmd_pass_bonded *pass,
                                    const vkmd_system *sys);

/* Changes the restraints' k (kcal/mol/A^2, finite, >= 0) for later
 * evaluations, recorded ones included (it lives in the term buffer, not in
 * push constants): a synchronous upload of the restraint terms; the pass must
 * not be executing. k = 0 leaves the terms in place at the cost of one test
 * each. Errors: VKMD_ERROR_INVALID_ARGUMENT (bad k, or a pass created
 * without restraints and k != 0), Vulkan errors. */
vkmd_result vkmd_pass_bonded_set_restraint_k(vkmd_vk_context *ctx, vkmd_pass_bonded *pass,
                                             double k);

/* Changes the box used by later records (push constants are captured at
 * record time). */
void vkmd_pass_bonded_set_box(vkmd_pass_bonded *pass, const vkmd_box *box);

/* Records the dispatch; with_energy 0 leaves the energy slots alone (steps
 * that read no energies). The caller orders it: positions written and
 * accumulators cleared before (barriers), readers after. Records nothing for
 * a system with no bonded terms. */
void vkmd_pass_bonded_record(const vkmd_pass_bonded *pass, VkCommandBuffer cb, int with_energy);

/* The term table and push constants, for the fused force dispatch
 * (shaders/forces.comp). The buffer is owned by the pass. */
void vkmd_pass_bonded_view(const vkmd_pass_bonded *pass, const vkmd_vk_buffer **out_terms,
                           vkmd_bonded_push *out_push);

/* Reads the accumulators back (waiting for earlier queue work): total forces
 * [3 * atom_count] kcal/mol/A (may be NULL) and the bond, angle, dihedral
 * (propers + impropers) and improper fields of `out_energy` (may be NULL;
 * other fields untouched), plus lj14, coulomb14 and coulomb_excl when the
 * pass was created with settings, and restraint (0 without restraints). */
vkmd_result vkmd_pass_bonded_readback(vkmd_vk_context *ctx, const vkmd_pass_bonded *pass,
                                      double *out_forces, vkmd_energy *out_energy);

/* NULL: no-op. */
void vkmd_pass_bonded_destroy(vkmd_vk_context *ctx, vkmd_pass_bonded *pass);

#endif
