/* 3-D real-to-complex FFT of the PME grid on the GPU: a thin wrapper around
 * VkFFT (Vulkan backend), the only code that includes vkFFT.h (it takes ~20 s
 * to compile, so it stays in this one small translation unit).
 *
 * The transforms work in place on the caller's buffer, in VkFFT's (and
 * FFTW's) in-place layout: a K0 x K1 x K2 real grid, row-major with z fastest,
 * each row of K2 floats padded to 2 (K2/2 + 1); the forward transform leaves
 * the half spectrum there, K0 x K1 x (K2/2 + 1) complex (re, im) values.
 * Forward is sum x exp(-2 pi i k.n/K), inverse is sum X exp(+2 pi i k.n/K),
 * both unnormalised, like FFTW's r2c/c2r in engine/ref/ref_pme.c.
 *
 * Surprises:
 * - VkFFT generates GLSL and compiles it with the glslang library when the
 *   plan is made (0.1-0.3 s per plan on lavapipe), and uploads its tables with
 *   its own submissions: plans are made once at setup, never per step. The
 *   SPIR-V it compiled is kept in the disk cache (core/disk_cache.h) under
 *   the grid, configuration, device, driver and program versions, and a
 *   later plan with the same key loads it instead (the same binaries, so the
 *   same bits; tests/test_gpu_pme.c checks that, and that a damaged entry is
 *   compiled again).
 * - Any grid size works; sizes with prime factors above 13 (17, 19, ...) use
 *   Bluestein's algorithm, which is slower and allocates extra buffers.
 * - Twiddle factors come from tables VkFFT computes on the host in double
 *   (useLUT), not from the shader's sin/cos, whose precision Vulkan does not
 *   guarantee (fast hardware sin/cos would cost accuracy on some GPUs). */
#ifndef VKMD_FORCES_PME_FFT_H
#define VKMD_FORCES_PME_FFT_H

#include "vk/buffer.h"

#include <stddef.h>

typedef struct vkmd_pme_fft vkmd_pme_fft;

/* Plans the forward R2C and inverse C2R transforms of a grid[0] x grid[1] x
 * grid[2] real grid held in `grid_buffer` (borrowed: it must outlive the
 * plan; at least grid[0] grid[1] 2 (grid[2]/2 + 1) floats). Waits for the
 * queue (VkFFT submits its table uploads). Errors: VKMD_ERROR_INVALID_ARGUMENT
 * (a size < 1, buffer too small), VKMD_ERROR_VULKAN (VkFFT refused or failed,
 * with its error code), VKMD_ERROR_OUT_OF_MEMORY, Vulkan errors. */
vkmd_result vkmd_pme_fft_create(vkmd_vk_context *ctx, const int grid[3],
                                const vkmd_vk_buffer *grid_buffer,
                                const vkmd_vk_buffer *kernel_buffer, vkmd_pme_fft **out_fft);

/* Records the forward (inverse = 0) or inverse (inverse = 1) transform into
 * `cb`, with VkFFT's barriers between its own dispatches but none before or
 * after (the caller orders them). The plan itself is not changed, but VkFFT
 * keeps scratch state in it, so one command buffer at a time records it.
 * Create made a trial recording of both directions, so this does not fail in
 * practice; VkFFT's error code is still reported (VKMD_ERROR_VULKAN). */
vkmd_result vkmd_pme_fft_record(vkmd_pme_fft *fft, VkCommandBuffer cb, int inverse);

/* With a kernel buffer at create (complex float, K0 x K1 x (K2/2 + 1), the
 * half spectrum's layout), a third plan: the forward transform, the product
 * of the spectrum with the kernel, and the inverse in one VkFFT append,
 * which fuses the product into the forward's last axis and the inverse's
 * first (two dispatches and their barriers fewer than forward, a
 * convolution pass, inverse). The kernel is read when the commands run.
 * Measured on VkFFT 1.2.26 (tests/test_gpu_pme.c checks it): the result is
 * the unnormalised convolution divided by K0 (the slowest axis, the fused
 * one), so the kernel carries a factor K0; and grids with a prime factor
 * above 13 (Bluestein's algorithm) ignore the kernel, so no plan is made
 * for them. vkmd_pme_fft_has_convolution says whether it was made. */
int vkmd_pme_fft_has_convolution(const vkmd_pme_fft *fft);
vkmd_result vkmd_pme_fft_record_convolution(vkmd_pme_fft *fft, VkCommandBuffer cb);

/* Device memory VkFFT allocated for this plan (tables, Bluestein kernels,
 * temporary buffer), bytes; the grid buffer is not counted. */
size_t vkmd_pme_fft_memory_bytes(const vkmd_pme_fft *fft);

/* NULL: no-op. The plan must not be executing. */
void vkmd_pme_fft_destroy(vkmd_vk_context *ctx, vkmd_pme_fft *fft);

#endif
