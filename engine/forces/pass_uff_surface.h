/* GPU passes for UFF molecules on a periodic substrate (system/uff_surface.h),
 * for every atom of a UFF batch (system/uff_batch.h):
 *   direct  shaders/uff_surface_direct.comp: pair sum over substrate images;
 *   grid    shaders/uff_surface_grid_eval.comp: tricubic B-spline of a grid
 *           whose values the device computes first
 *           (vkmd_pass_uff_surface_grid_compute, uff_surface_grid_build.comp)
 *           or that was loaded from an XSF file.
 * Both ADD into the UFF pass's force planes and into slot
 * VKMD_UFF_ENERGY_SURFACE of each replica's energy row (layout_uff.h), so
 * one recorded sequence clear -> UFF pass -> surface pass gives the total
 * force. The CPU oracle is ref/ref_uff_surface.h.
 *
 * Precision: float arithmetic, int64 fixed-point sums (deterministic for
 * any thread order): with 64-bit atomics, or on devices without them the
 * shaders' "+words" builds (forces/fixed_point.h), same bits.
 * Measured figures: tests/test_gpu_uff_surface.c and docs/UFF_SURFACES.md. */
#ifndef VKMD_FORCES_PASS_UFF_SURFACE_H
#define VKMD_FORCES_PASS_UFF_SURFACE_H

#include "system/uff_batch.h"
#include "system/uff_surface.h"
#include "vk/buffer.h"
#include "vk/context.h"

#define VKMD_UFF_SURFACE_MODE_DIRECT 0
#define VKMD_UFF_SURFACE_MODE_GRID   1

typedef struct vkmd_pass_uff_surface_desc {
    int mode;                          /* VKMD_UFF_SURFACE_MODE_DIRECT (0) or _GRID */
    const vkmd_uff_surface_grid *grid; /* grid mode: prefiltered grid of the surface (required;
                                          its coefficients are uploaded at create) */
    uint32_t workgroup_size;           /* 64 (VKMD_UFF_SURFACE_WORKGROUP_SIZE); power of two */
    int force_staging;                 /* 0; 1: stage every buffer (tests) */
} vkmd_pass_uff_surface_desc;

typedef struct vkmd_pass_uff_surface vkmd_pass_uff_surface;

/* Builds the pass for the atoms of `batch` against surface `s` (both only
 * read here). atom_channel [batch->atom_count]: channel of every batch atom
 * (vkmd_uff_surface_atom_channels per replica). positions, forces and
 * energies are the UFF pass's buffers (vkmd_pass_uff_positions etc.;
 * borrowed, must outlive this pass). Errors: VKMD_ERROR_INVALID_ARGUMENT (grid mode without a
 * prefiltered grid or with one that does not fit s; a channel out of range;
 * buffers too small; bad workgroup size), Vulkan and memory errors. */
vkmd_result vkmd_pass_uff_surface_create(vkmd_vk_context *ctx, const vkmd_uff_surface *s,
                                         const vkmd_uff_batch *batch, const int32_t *atom_channel,
                                         const vkmd_vk_buffer *positions,
                                         const vkmd_vk_buffer *forces,
                                         const vkmd_vk_buffer *energies,
                                         const vkmd_pass_uff_surface_desc *desc,
                                         vkmd_pass_uff_surface **out_pass);

/* Records the dispatch, which ADDS into forces and energies; ordering is the
 * caller's (after the UFF pass's clear; the UFF pass needs no barrier
 * against it: both only add with integer atomics). */
void vkmd_pass_uff_surface_record(const vkmd_pass_uff_surface *pass, VkCommandBuffer cb);

/* Reads each replica's surface energy (kcal/mol) into out_energy
 * [replica_count] (may be NULL) and, in grid mode, the number of its atoms
 * below the grid into out_below [replica_count] (may be NULL; 0 in direct
 * mode). Waits for earlier queue work. */
vkmd_result vkmd_pass_uff_surface_readback(vkmd_vk_context *ctx, const vkmd_pass_uff_surface *pass,
                                           double *out_energy, int32_t *out_below);

/* Computes the values of grid g (allocated for s by
 * vkmd_uff_surface_grid_alloc) on the device, reads them back into
 * g->values and prefilters them. Synchronous. Errors: Vulkan and memory
 * errors; VKMD_ERROR_INVALID_ARGUMENT (more than 2^31 values). */
vkmd_result vkmd_pass_uff_surface_grid_compute(vkmd_vk_context *ctx, const vkmd_uff_surface *s,
                                               vkmd_uff_surface_grid *g);

/* NULL: no-op. */
void vkmd_pass_uff_surface_destroy(vkmd_vk_context *ctx, vkmd_pass_uff_surface *pass);

#endif
