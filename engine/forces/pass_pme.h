/* GPU pass for the smooth-PME reciprocal-space Coulomb term (Essmann et al.
 * 1995): energy into VKMD_ENERGY_COUL_RECIP and forces into the shared
 * accumulators. The CPU oracle is ref_pme (engine/ref/ref_pme.c, FFTW in
 * double), whose conventions the pass mirrors: grid indexing, B-spline order
 * and moduli (the same host function, vkmd_pme_moduli), fractional coordinates,
 * E = 1/2 sum_m eterm(m) |S(m)|^2 without m = 0, F = -dE/dr, the Coulomb
 * constant of the settings.
 *
 * One evaluation records, in order: zero the 64-bit fixed-point charge grid;
 * spread (pme_spread.comp, fixed-point atomics: deterministic); convert to
 * the fp32 grid (pme_grid_convert.comp); VkFFT R2C in place; convolution with
 * the Ewald kernel and the energy as a 64-bit fixed-point reduction
 * (pme_convolve.comp); VkFFT C2R in place; force gather (pme_gather.comp).
 * Every sum is either in a fixed order per thread or an integer sum, so two
 * evaluations are bitwise identical.
 *
 * Notes:
 * - Orthorhombic periodic boxes only; any grid size (VkFFT's Bluestein path
 *   handles prime factors above 13, more slowly) and orders 3..12.
 * - Positions need not be wrapped into the box: fractional coordinates are
 *   wrapped in the shaders. They are fp32, so accuracy falls slowly with the
 *   distance from the unit cell (atoms moved up to 2 boxes away: force RMS
 *   error 4.8e-6 instead of 2e-6 in test_gpu_pme).
 * - Fixed-point sums use int64 atomics where the device has shaderInt64 and
 *   shaderBufferInt64Atomics, else the same sums to the bit in 32-bit words
 *   (forces/fixed_point.h), as every vkmd force pass.
 * - VkFFT compiles its kernels with glslang at create (0.1-0.3 s per plan on
 *   lavapipe): create once, record many times. */
#ifndef VKMD_FORCES_PASS_PME_H
#define VKMD_FORCES_PASS_PME_H

#include "forces/accum.h"
#include "system/ff_settings.h"
#include "system/system.h"
#include "vk/context.h"
#include "vk/timer.h"

#include <stddef.h>

/* Timestamp marks vkmd_pass_pme_record writes when given a timer:
 * first_slot + 0 before the spread (grid clear included), + 1 after the
 * spread and the grid conversion, + 2 after the forward FFT, + 3 after the
 * convolution, + 4 after the inverse FFT, + 5 after the gather. */
#define VKMD_PME_TIMER_MARKS 6

typedef struct vkmd_pass_pme_desc {
    const vkmd_vk_buffer *positions;   /* required: vec4 [atom_count] fp32, xyz in A (w unused) */
    const vkmd_vk_buffer *positions_x; /* split parts; required for a split positions_mode */
    int positions_mode;                /* VKMD_POSITIONS_FP32 (0), SPLIT_FLOAT, SPLIT_INT */
    const vkmd_accum *accum;           /* required: forces and slot VKMD_ENERGY_COUL_RECIP */
    const vkmd_ff_settings *settings; /* required, resolved: alpha, grid, order, Coulomb constant */
    int force_staging;                /* 0; 1: stage parameter buffers (tests) */
    const vkmd_vk_buffer *list_order; /* NULL; else the neighbour list's order and state
                                         (vkmd_neighbor_view): spread and gather take the atoms
                                         in slot order (vkmd_pass_pme_set_list) */
    const vkmd_vk_buffer *list_state;
} vkmd_pass_pme_desc;

typedef struct vkmd_pass_pme vkmd_pass_pme;

/* Builds the pass for `sys` (its charges, taken once into a float buffer the
 * pass owns, and its box) with the grid, order, alpha and Coulomb constant of
 * desc->settings: pipelines, grids, B-spline moduli, VkFFT plans. The
 * positions buffer and accumulators are borrowed and must outlive the pass.
 * Synchronous (uploads and VkFFT's plan set-up wait for the queue). Errors:
 * VKMD_ERROR_INVALID_ARGUMENT (missing desc fields, a non-periodic system,
 * atom count mismatch, grid smaller than the order, order outside 3..12,
 * alpha <= 0, a grid too large to index), VKMD_ERROR_UNSUPPORTED (no shader
 * build for the device's fixed-point mode), VKMD_ERROR_VULKAN (VkFFT), Vulkan
 * and memory errors. */
vkmd_result vkmd_pass_pme_create(vkmd_vk_context *ctx, const vkmd_system *sys,
                                 const vkmd_pass_pme_desc *desc, vkmd_pass_pme **out_pass);

/* Binds another neighbour list's order and state (the list was made anew:
 * it grew); only for a pass created with one. Recordings made before name
 * the old one. Errors: Vulkan and memory errors. */
vkmd_result vkmd_pass_pme_set_list(vkmd_vk_context *ctx, vkmd_pass_pme *pass,
                                   const vkmd_vk_buffer *order, const vkmd_vk_buffer *state);

/* Changes the box used by later records (same grid; push constants are
 * captured at record time). `box` must be periodic with positive edges;
 * anything else is ignored with a logged error. */
void vkmd_pass_pme_set_box(vkmd_pass_pme *pass, const vkmd_box *box);

/* Records every PME dispatch with its internal barriers; caller orders
 * positions written and accum cleared before, readers after. with_energy 0
 * leaves the energy slot alone (steps that read no energies). If timer !=
 * NULL, writes marks into slots first_slot .. first_slot + VKMD_PME_TIMER_MARKS
 * - 1 around spread / fft / convolve / ifft / gather (the caller resets the
 * timer's pool in the same command buffer first). Only one command buffer
 * records a given pass at a time (VkFFT keeps scratch state in its plan). */
#define VKMD_PME_RECORD_ENERGY 1u /* sum the reciprocal energy too */
#define VKMD_PME_RECORD_FUSED                                                                      \
    2u /* the kernel is current (vkmd_pass_pme_record_kernel in this command buffer, after the     \
          last box change, a compute barrier before): without ENERGY, the forward FFT, the         \
          convolution and the inverse FFT are VkFFT's fused convolution (2 dispatches fewer) */
void vkmd_pass_pme_record(const vkmd_pass_pme *pass, VkCommandBuffer cb, unsigned flags,
                          const vkmd_vk_timer *timer, uint32_t first_slot);

/* The same in pieces, for a caller that interleaves independent passes
 * (forcefield.c): fill the charge grid (a transfer: order earlier compute
 * reads of the grid before it, and the fill before the spread); spread
 * (reads positions, adds into the grid); convert (reads the grid, writes the
 * FFT grid: after a compute barrier); solve (forward FFT, convolution,
 * inverse FFT, gather into the force accumulator, with the barriers between
 * them: after a compute barrier following the convert). */
void vkmd_pass_pme_record_fill(const vkmd_pass_pme *pass, VkCommandBuffer cb);
void vkmd_pass_pme_record_spread(const vkmd_pass_pme *pass, VkCommandBuffer cb);
void vkmd_pass_pme_record_convert(const vkmd_pass_pme *pass, VkCommandBuffer cb);
void vkmd_pass_pme_record_solve(const vkmd_pass_pme *pass, VkCommandBuffer cb, unsigned flags);

/* The kernel of the fused convolution (VKMD_PME_RECORD_FUSED) for the
 * current box: one dispatch; order a compute barrier before the steps that
 * read it. */
void vkmd_pass_pme_record_kernel(const vkmd_pass_pme *pass, VkCommandBuffer cb);

/* For the fused MD step (sim/step.h), which spreads in its own dispatch and
 * gathers when it integrates: the forward FFT, the convolution (with the
 * energy when asked) and the inverse FFT, with the barriers between them
 * (after a compute barrier following the conversion; phi is readable after
 * a compute barrier); and the gather alone, adding the reciprocal-space
 * forces into the accumulator (after a compute barrier following the inverse
 * FFT). */
void vkmd_pass_pme_record_spectral(const vkmd_pass_pme *pass, VkCommandBuffer cb, unsigned flags);
void vkmd_pass_pme_record_gather(const vkmd_pass_pme *pass, VkCommandBuffer cb);

/* What the fused MD step binds. Buffers owned by the pass. */
typedef struct vkmd_pass_pme_view {
    const vkmd_vk_buffer *charges;     /* float [atom_count], e */
    const vkmd_vk_buffer *charge_grid; /* fixed [K0 K1 K2] */
    const vkmd_vk_buffer *fft_grid;    /* float, VkFFT's in-place layout */
    vkmd_pme_push push;                /* box, grid, atom count */
    int order;                         /* B-spline order */
} vkmd_pass_pme_view;

void vkmd_pass_pme_view_get(const vkmd_pass_pme *pass, vkmd_pass_pme_view *out);

/* Reads the accumulators back (waiting for earlier queue work): total forces
 * [3 * atom_count] kcal/mol/A (may be NULL; every pass's forces, as
 * vkmd_accum_readback) and out_energy->coulomb_recip in kcal/mol (may be
 * NULL; other fields untouched). */
vkmd_result vkmd_pass_pme_readback(vkmd_vk_context *ctx, const vkmd_pass_pme *pass,
                                   double *out_forces, vkmd_energy *out_energy);

/* NULL: no-op. The pass must not be executing. */
void vkmd_pass_pme_destroy(vkmd_vk_context *ctx, vkmd_pass_pme *pass);

/* Device memory the pass allocates, bytes (for reports): its charge, grid and
 * moduli buffers plus VkFFT's own buffers. */
size_t vkmd_pass_pme_memory_bytes(const vkmd_pass_pme *pass);

#endif
