/* Philox4x32-10 counter-based random numbers (Salmon et al., SC'11), the
 * same bits on the host (this header) and on the device
 * (shaders/common/philox.glsl): a Langevin run's noise depends only on
 * (seed, step, atom), never on thread scheduling or how steps are batched.
 *
 * Keying for the thermostat: key = (seed low 32 bits, seed high 32 bits),
 * counter = (atom, step low 32 bits, step high 32 bits, stream). Gaussians
 * by Box-Muller on uniforms u = (x + 0.5) 2^-32 in (0, 1):
 *   g0 = sqrt(-2 ln u0) cos(2 pi u1), g1 = sqrt(-2 ln u0) sin(2 pi u1),
 *   g2 = sqrt(-2 ln u2) cos(2 pi u3)   (the fourth is unused). */
#ifndef VKMD_CORE_PHILOX_H
#define VKMD_CORE_PHILOX_H

#include <stdint.h>

/* One Philox4x32-10 block: out = philox(counter, key). */
void vkmd_philox4x32_10(const uint32_t counter[4], const uint32_t key[2], uint32_t out[4]);

/* Three standard normal deviates for (seed, step, atom, stream), as above. */
void vkmd_philox_gauss3(uint64_t seed, uint64_t step, uint32_t atom, uint32_t stream,
                        double out[3]);

/* The Box-Muller above applied to one block's words x (what
 * vkmd_philox_gauss3 does after the block): lets tests reach edge words
 * (0, 2^31, 2^32 - 1) that no known counter produces. */
void vkmd_philox_box_muller3(const uint32_t x[4], double out[3]);

#endif
