/* Philox4x32-10 and the thermostat's Gaussians (see philox.h). The device
 * copy is shaders/common/philox.glsl: the integer block is the same bits; its
 * float Gaussians follow the same formulas, rearranged only where float
 * needs it (see there). */
#include "core/philox.h"

#include <math.h>

#define PHILOX_M0 0xD2511F53u
#define PHILOX_M1 0xCD9E8D57u
#define PHILOX_W0 0x9E3779B9u /* golden ratio */
#define PHILOX_W1 0xBB67AE85u /* sqrt(3) - 1 */

void vkmd_philox4x32_10(const uint32_t counter[4], const uint32_t key[2], uint32_t out[4])
{
    uint32_t c0 = counter[0], c1 = counter[1], c2 = counter[2], c3 = counter[3];
    uint32_t k0 = key[0], k1 = key[1];
    for (int round = 0; round < 10; ++round) {
        const uint64_t p0 = (uint64_t)PHILOX_M0 * c0;
        const uint64_t p1 = (uint64_t)PHILOX_M1 * c2;
        const uint32_t n0 = (uint32_t)(p1 >> 32) ^ c1 ^ k0;
        const uint32_t n2 = (uint32_t)(p0 >> 32) ^ c3 ^ k1;
        c1 = (uint32_t)p1;
        c3 = (uint32_t)p0;
        c0 = n0;
        c2 = n2;
        k0 += PHILOX_W0;
        k1 += PHILOX_W1;
    }
    out[0] = c0;
    out[1] = c1;
    out[2] = c2;
    out[3] = c3;
}

/* u = (x + 0.5) 2^-32, exact in double, never 0 or 1. */
static double uniform_open(uint32_t x)
{
    return ((double)x + 0.5) * (1.0 / 4294967296.0);
}

void vkmd_philox_box_muller3(const uint32_t x[4], double out[3])
{
    const double two_pi = 6.283185307179586476925286766559;
    const double r0 = sqrt(-2.0 * log(uniform_open(x[0])));
    const double t1 = two_pi * uniform_open(x[1]);
    const double r2 = sqrt(-2.0 * log(uniform_open(x[2])));
    out[0] = r0 * cos(t1);
    out[1] = r0 * sin(t1);
    out[2] = r2 * cos(two_pi * uniform_open(x[3]));
}

void vkmd_philox_gauss3(uint64_t seed, uint64_t step, uint32_t atom, uint32_t stream, double out[3])
{
    const uint32_t ctr[4] = {atom, (uint32_t)step, (uint32_t)(step >> 32), stream};
    const uint32_t key[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
    uint32_t x[4];
    vkmd_philox4x32_10(ctr, key, x);
    vkmd_philox_box_muller3(x, out);
}
