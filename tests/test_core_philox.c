/* engine/core/philox.c on the host:
 *   - Philox4x32-10 against the known-answer vectors of Random123
 *     (kat_vectors: philox4x32_10 with zero, all-one and pi-digit inputs);
 *   - the Gaussians of vkmd_philox_gauss3 over N = 1e6 (seed, step, atom)
 *     counters, each of the three components on its own: mean within
 *     5 / sqrt(N), variance within 1 +- 5 sqrt(2 / N), fourth moment within
 *     3 +- 5 sqrt(96 / N), fraction beyond 3 sigma within 5 standard errors
 *     of 0.0027, correlation between components within 5 / sqrt(N) (5 sigma
 *     bounds for a true normal generator; the run is deterministic, so a pass
 *     stays a pass);
 *   - keying: streams, steps, atoms and seeds (high words included) each
 *     change the output; the Box-Muller of edge words is finite. */
#include "testlib.h"
#include "core/philox.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#define N_SAMPLES 1000000

static void test_known_answers(void)
{
    static const uint32_t cases[3][10] = {
        {0, 0, 0, 0, 0, 0, 0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u},
        {0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x408f276du,
         0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu},
        {0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u, 0xa4093822u, 0x299f31d0u, 0xd16cfe09u,
         0x94fdccebu, 0x5001e420u, 0x24126ea1u}};
    for (int k = 0; k < 3; ++k) {
        uint32_t out[4];
        vkmd_philox4x32_10(cases[k], cases[k] + 4, out);
        const int ok = !memcmp(out, cases[k] + 6, sizeof out);
        printf("philox4x32-10 known answer %d: %08x %08x %08x %08x %s\n", k, out[0], out[1], out[2],
               out[3], ok ? "ok" : "WRONG");
        CHECK(ok);
    }
}

static void test_statistics(void)
{
    double s1[3] = {0}, s2[3] = {0}, s4[3] = {0}, cross[3] = {0};
    long tail[3] = {0};
    const uint64_t seed = 0x0123456789ABCDEFull;
    for (int n = 0; n < N_SAMPLES; ++n) {
        double g[3];
        /* 1000 atoms x 1000 steps, the way the thermostat walks the counter */
        vkmd_philox_gauss3(seed, (uint64_t)(n / 1000), (uint32_t)(n % 1000), 0, g);
        for (int k = 0; k < 3; ++k) {
            s1[k] += g[k];
            s2[k] += g[k] * g[k];
            s4[k] += g[k] * g[k] * g[k] * g[k];
            tail[k] += fabs(g[k]) > 3.0;
        }
        cross[0] += g[0] * g[1];
        cross[1] += g[1] * g[2];
        cross[2] += g[0] * g[2];
    }
    const double n = N_SAMPLES;
    const double mean_tol = 5 / sqrt(n), var_tol = 5 * sqrt(2 / n), m4_tol = 5 * sqrt(96 / n);
    const double p3 = erfc(3 / sqrt(2.0)), tail_tol = 5 * sqrt(p3 * (1 - p3) / n);
    for (int k = 0; k < 3; ++k) {
        const double mean = s1[k] / n, var = s2[k] / n - mean * mean, m4 = s4[k] / n,
                     frac = tail[k] / n;
        printf("g%d over %d: mean %+.5f (|.| <= %.4f), variance %.5f (1 +- %.4f), <g^4> %.4f "
               "(3 +- %.4f), beyond 3 sigma %.5f (%.5f +- %.5f)\n",
               k, N_SAMPLES, mean, mean_tol, var, var_tol, m4, m4_tol, frac, p3, tail_tol);
        CHECK(fabs(mean) <= mean_tol);
        CHECK(fabs(var - 1) <= var_tol);
        CHECK(fabs(m4 - 3) <= m4_tol);
        CHECK(fabs(frac - p3) <= tail_tol);
    }
    static const char *pairs[3] = {"g0 g1", "g1 g2", "g0 g2"};
    for (int k = 0; k < 3; ++k) {
        printf("<%s> = %+.5f (|.| <= %.4f)\n", pairs[k], cross[k] / n, mean_tol);
        CHECK(fabs(cross[k] / n) <= mean_tol);
    }
}

static int differs(const double *a, const double *b)
{
    return a[0] != b[0] && a[1] != b[1] && a[2] != b[2];
}

static void test_keying(void)
{
    double base[3], g[3];
    const uint64_t seed = 42, step = 0x100000005ull;
    vkmd_philox_gauss3(seed, step, 3, 0, base);
    vkmd_philox_gauss3(seed, step, 3, 0, g);
    CHECK(!memcmp(base, g, sizeof g));
    vkmd_philox_gauss3(seed, step, 3, 1, g);
    CHECK(differs(base, g));
    vkmd_philox_gauss3(seed, step + 1, 3, 0, g);
    CHECK(differs(base, g));
    vkmd_philox_gauss3(seed, step & 0xFFFFFFFFull, 3, 0, g);
    CHECK(differs(base, g));
    vkmd_philox_gauss3(seed, step, 4, 0, g);
    CHECK(differs(base, g));
    vkmd_philox_gauss3(seed + 1, step, 3, 0, g);
    CHECK(differs(base, g));
    vkmd_philox_gauss3(seed | 1ull << 40, step, 3, 0, g);
    CHECK(differs(base, g));
    /* Box-Muller's radius and angle words at both ends */
    static const uint32_t w[6] = {0u, 1u, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFEu, 0xFFFFFFFFu};
    double worst = 0;
    for (int a = 0; a < 6; ++a)
        for (int b = 0; b < 6; ++b) {
            const uint32_t x[4] = {w[a], w[b], w[b], w[a]};
            vkmd_philox_box_muller3(x, g);
            for (int k = 0; k < 3; ++k) {
                CHECK(isfinite(g[k]));
                worst = fmax(worst, fabs(g[k]));
            }
        }
    printf("largest |g| from edge words: %.4f (sqrt(-2 ln 2^-33) = %.4f)\n", worst,
           sqrt(-2 * log(0.5 / 4294967296.0)));
    CHECK(worst <= sqrt(-2 * log(0.5 / 4294967296.0)) + 1e-12);
}

int main(void)
{
    test_known_answers();
    test_statistics();
    test_keying();
    return test_finish("test_core_philox");
}
