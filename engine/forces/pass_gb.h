/* Generalized Born implicit solvent on the device (shaders/gb.comp, layout
 * shaders/common/layout_gb.h): the polar GB energy (self and Still pair
 * terms, Debye-Hueckel salt) and the ACE nonpolar term of the five AMBER
 * models as OpenMM 7.7 builds them (system/gb_params.h), over all pairs or
 * OpenMM's non-periodic cutoff, with the full chain rule through the Born
 * radii. The CPU oracle is ref_gb_compute (engine/ref/ref_gb.h).
 *
 * Three dispatches of one shader, one invocation per atom each: Born radii,
 * then energies and dE/dB, then forces, with compute barriers between them
 * (recorded here); the pass owns a per-atom scratch buffer that carries the
 * radii and chain-rule factors from one to the next. O(N^2) pairs per
 * evaluation, each ordered pair summed by one invocation in a fixed order,
 * so results are bitwise reproducible. GBn/GBn2's neck constants come from a
 * table over the system's distinct radii built here (no interpolation on the
 * device). Vacuum systems only (vkmd_gb_params_build refuses a box). */
#ifndef VKMD_FORCES_PASS_GB_H
#define VKMD_FORCES_PASS_GB_H

#include "forces/accum.h"
#include "system/gb_params.h"
#include "vk/context.h"

#include <stddef.h>

typedef struct vkmd_pass_gb_desc {
    const vkmd_vk_buffer *positions;   /* required: vec4 [atom_count] */
    const vkmd_vk_buffer *positions_x; /* split parts; NULL in fp32 mode */
    int positions_mode;                /* VKMD_POSITIONS_* */
    const vkmd_accum *accum;           /* required: forces and the GB, NONPOLAR slots */
    uint32_t workgroup_size;           /* 0: VKMD_GB_WORKGROUP_SIZE (64); a power of two */
    int force_staging;                 /* 0; 1: stage the parameter buffers (tests) */
} vkmd_pass_gb_desc;

typedef struct vkmd_pass_gb vkmd_pass_gb;

/* Builds the pass for parameters `params` (vkmd_gb_params_build; copied
 * into device buffers, so they need not outlive the call). The positions
 * buffers and accumulators are borrowed and must outlive the pass. Errors:
 * VKMD_ERROR_UNSUPPORTED (no shader build for the device's fixed-point
 * mode), VKMD_ERROR_INVALID_ARGUMENT (missing buffers, sizes that do not
 * match params->atom_count, a bad workgroup size, more atoms than one
 * dispatch covers), device and memory errors. */
vkmd_result vkmd_pass_gb_create(vkmd_vk_context *ctx, const vkmd_gb_params *params,
                                const vkmd_pass_gb_desc *desc, vkmd_pass_gb **out_pass);

/* NULL: no-op. */
void vkmd_pass_gb_destroy(vkmd_vk_context *ctx, vkmd_pass_gb *pass);

/* Records the three dispatches with a compute barrier after each (the last
 * one orders the forces before later readers, like the barrier the force
 * field puts after every pass); with_energy 0 leaves the energy slots alone.
 * The caller orders the positions' writes and the accumulators' clear
 * before. */
void vkmd_pass_gb_record(const vkmd_pass_gb *pass, VkCommandBuffer cb, int with_energy);

/* Device memory held by the pass, bytes. */
size_t vkmd_pass_gb_memory_bytes(const vkmd_pass_gb *pass);

#endif
