/* shaders/common/philox.glsl (through shaders/philox_selftest.comp) against
 * engine/core/philox.c:
 *   - the Philox4x32-10 block: every output word equal, bit for bit, for
 *     N_CASES counters and keys (random ones, consecutive atoms, steps across
 *     the 2^32 boundary of the step's low word, every stream 0..3, the
 *     all-zero and all-one words);
 *   - philox_gauss3 (float) against vkmd_philox_gauss3 (double) for the same
 *     cases: max |difference| <= 1e-5;
 *   - the float Box-Muller on chosen words (0, 1, 2^31 +- 1, the switch to
 *     the series at 0xF8000000, 2^32 - 1, ...) and on random words biased to
 *     both ends of the range, against the double one: max |difference| <= 1e-5. */
#include "testlib.h"
#include "tolerance.h"
#include "core/philox.h"
#include "vk/barrier.h"
#include "vk/buffer.h"
#include "vk/command.h"
#include "vk/context.h"
#include "vk/pipeline.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define N_CASES (1 << 17)

enum { CTR, KEY, WORDS, BITS, GAUSS, EDGE, BUFFER_COUNT };

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t next_u64(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1Dull;
}

static uint32_t next_u32(void)
{
    return (uint32_t)(next_u64() >> 32);
}

/* Counters (atom, step lo, step hi, stream) and keys (seed lo, seed hi, 0, 0). */
static void make_counters(uint32_t *ctr, uint32_t *key)
{
    for (int i = 0; i < N_CASES; ++i) {
        uint32_t *c = ctr + 4 * i, *k = key + 4 * i;
        const int kind = i % 4;
        k[2] = k[3] = 0;
        if (i < 2) { /* all zero, all ones */
            const uint32_t v = i ? 0xFFFFFFFFu : 0u;
            c[0] = c[1] = c[2] = c[3] = k[0] = k[1] = v;
        } else if (kind == 0) { /* random everything */
            for (int w = 0; w < 4; ++w)
                c[w] = next_u32();
            k[0] = next_u32();
            k[1] = next_u32();
        } else if (kind == 1) { /* consecutive atoms of one step, one seed */
            c[0] = (uint32_t)i;
            c[1] = 1000u;
            c[2] = 0;
            c[3] = 0;
            k[0] = 2024u;
            k[1] = 0;
        } else if (kind == 2) { /* steps across 2^32, 64-bit seed */
            const uint64_t step = 0xFFFFFF00ull + (uint64_t)(i / 4);
            c[0] = 7u;
            c[1] = (uint32_t)step;
            c[2] = (uint32_t)(step >> 32);
            c[3] = 0;
            k[0] = 0x89ABCDEFu;
            k[1] = 0x01234567u;
        } else { /* every stream of random atoms and steps */
            c[0] = next_u32() % 100000u;
            c[1] = next_u32();
            c[2] = next_u32() & 0xFFu;
            c[3] = (uint32_t)((i / 4) % 4);
            k[0] = (uint32_t)(i / 64);
            k[1] = 0;
        }
    }
}

/* Words for the Box-Muller alone: every pair of chosen edge values in the
 * radius and angle words, then random words near 0, near 2^32, near the
 * series switch and anywhere. */
static void make_words(uint32_t *words)
{
    static const uint32_t edge[] = {
        0u,          1u,          2u,          255u,        256u,        0x00FFFFFFu, 0x3FFFFFFFu,
        0x40000000u, 0x7FFFFFFFu, 0x80000000u, 0x80000001u, 0xBFFFFFFFu, 0xC0000000u, 0xF7FFFFFFu,
        0xF8000000u, 0xF8000001u, 0xFFFFFEFFu, 0xFFFFFF00u, 0xFFFFFFFEu, 0xFFFFFFFFu};
    const int ne = (int)(sizeof edge / sizeof *edge);
    int i = 0;
    for (int a = 0; a < ne; ++a)
        for (int b = 0; b < ne; ++b, ++i) {
            uint32_t *w = words + 4 * i;
            w[0] = edge[a];
            w[1] = edge[b];
            w[2] = edge[(a + b) % ne];
            w[3] = edge[(a + 3 * b) % ne];
        }
    for (; i < N_CASES; ++i) {
        uint32_t *w = words + 4 * i;
        for (int k = 0; k < 4; ++k) {
            const uint32_t r = next_u32();
            switch (i % 4) {
            case 0:
                w[k] = r >> (next_u32() % 32);
                break; /* near 0 */
            case 1:
                w[k] = ~(r >> (next_u32() % 32));
                break; /* near 2^32 */
            case 2:
                w[k] = 0xF8000000u + (r >> 8) - (1u << 23);
                break; /* series switch */
            default:
                w[k] = r;
                break;
            }
        }
    }
}

/* max |float - double| over n triples (float ones stored as vec4). */
static double max_gauss_error(const float *f, const double *d, int n, int *out_worst)
{
    double worst = 0;
    *out_worst = -1;
    for (int i = 0; i < n; ++i)
        for (int k = 0; k < 3; ++k) {
            const double e = fabs((double)f[4 * i + k] - d[3 * i + k]);
            if (!(e <= worst)) { /* also catches NaN */
                worst = isnan(e) ? INFINITY : e;
                *out_worst = i;
            }
        }
    return worst;
}

int main(void)
{
    vkmd_vk_context *ctx = NULL;
    int early = test_vk_open("test_gpu_philox", &ctx);
    if (early >= 0)
        return early;

    const size_t n4 = (size_t)4 * N_CASES;
    uint32_t *ctr = calloc(n4, sizeof *ctr), *key = calloc(n4, sizeof *key);
    uint32_t *words = calloc(n4, sizeof *words), *bits = calloc(n4, sizeof *bits);
    float *gauss = calloc(n4, sizeof *gauss), *edge = calloc(n4, sizeof *edge);
    double *gauss_ref = calloc((size_t)3 * N_CASES, sizeof *gauss_ref);
    double *edge_ref = calloc((size_t)3 * N_CASES, sizeof *edge_ref);
    vkmd_vk_buffer bufs[BUFFER_COUNT] = {0};
    vkmd_vk_pipeline pipe = {0};
    vkmd_vk_descset set = {0};
    vkmd_vk_cmd cmd = {0};
    CHECK(ctr && key && words && bits && gauss && edge && gauss_ref && edge_ref);
    if (test_failures)
        goto done;
    make_counters(ctr, key);
    make_words(words);

    const vkmd_vk_buffer *bp[BUFFER_COUNT];
    for (int b = 0; b < BUFFER_COUNT; ++b) {
        const vkmd_vk_buffer_desc bd = {.size = n4 * sizeof(uint32_t), .name = "philox self-test"};
        CHECK_OK(vkmd_vk_buffer_create(ctx, &bd, &bufs[b]));
        bp[b] = &bufs[b];
    }
    if (test_failures)
        goto done;
    CHECK_OK(vkmd_vk_buffer_upload(ctx, &bufs[CTR], 0, ctr, n4 * sizeof *ctr));
    CHECK_OK(vkmd_vk_buffer_upload(ctx, &bufs[KEY], 0, key, n4 * sizeof *key));
    CHECK_OK(vkmd_vk_buffer_upload(ctx, &bufs[WORDS], 0, words, n4 * sizeof *words));
    const vkmd_vk_pipeline_desc pd = {.shader = "philox_selftest.comp",
                                      .buffer_count = BUFFER_COUNT,
                                      .push_size = 4 * sizeof(uint32_t)};
    CHECK_OK(vkmd_vk_pipeline_create(ctx, &pd, &pipe));
    CHECK_OK(vkmd_vk_descset_create(ctx, &pipe, bp, &set));
    if (test_failures)
        goto done;
    const uint32_t push[4] = {N_CASES, 0, 0, 0};
    CHECK_OK(vkmd_vk_cmd_create(ctx, &cmd));
    CHECK_OK(vkmd_vk_cmd_begin(ctx, &cmd));
    vkmd_vk_dispatch(cmd.cb, &pipe, &set, push, 256, 1, 1);
    CHECK_OK(vkmd_vk_cmd_end(ctx, &cmd));
    CHECK_OK(vkmd_vk_cmd_submit_wait(ctx, &cmd));
    CHECK_OK(vkmd_vk_buffer_readback(ctx, &bufs[BITS], 0, bits, n4 * sizeof *bits));
    CHECK_OK(vkmd_vk_buffer_readback(ctx, &bufs[GAUSS], 0, gauss, n4 * sizeof *gauss));
    CHECK_OK(vkmd_vk_buffer_readback(ctx, &bufs[EDGE], 0, edge, n4 * sizeof *edge));
    if (test_failures)
        goto done;

    int bad_bits = 0, first_bad = -1;
    for (int i = 0; i < N_CASES; ++i) {
        const uint32_t *c = ctr + 4 * i, *k = key + 4 * i;
        uint32_t host[4];
        vkmd_philox4x32_10(c, k, host);
        if (memcmp(host, bits + 4 * i, sizeof host) != 0 && bad_bits++ == 0)
            first_bad = i;
        const uint64_t seed = (uint64_t)k[0] | (uint64_t)k[1] << 32;
        const uint64_t step = (uint64_t)c[1] | (uint64_t)c[2] << 32;
        vkmd_philox_gauss3(seed, step, c[0], c[3], gauss_ref + 3 * i);
        vkmd_philox_box_muller3(words + 4 * i, edge_ref + 3 * i);
    }
    printf("philox4x32-10 blocks: %d of %d differ from the host's\n", bad_bits, N_CASES);
    if (first_bad >= 0) {
        const uint32_t *c = ctr + 4 * first_bad, *b = bits + 4 * first_bad;
        printf("  first: counter %08x %08x %08x %08x -> device %08x %08x %08x %08x\n", c[0], c[1],
               c[2], c[3], b[0], b[1], b[2], b[3]);
    }
    printf("  case 0 (zeros): %08x %08x %08x %08x\n", bits[0], bits[1], bits[2], bits[3]);
    CHECK(bad_bits == 0);

    int wg = -1, we = -1;
    const double eg = max_gauss_error(gauss, gauss_ref, N_CASES, &wg);
    const double ee = max_gauss_error(edge, edge_ref, N_CASES, &we);
    printf("philox_gauss3 float vs double: max |error| %.3g over %d x 3 deviates (tolerance %g)\n",
           eg, N_CASES, TOL_FP32_GAUSS);
    if (wg >= 0)
        printf("  worst case %d: device %.9g %.9g %.9g, host %.9g %.9g %.9g\n", wg, gauss[4 * wg],
               gauss[4 * wg + 1], gauss[4 * wg + 2], gauss_ref[3 * wg], gauss_ref[3 * wg + 1],
               gauss_ref[3 * wg + 2]);
    printf("box-muller on chosen and end-biased words: max |error| %.3g (tolerance %g)\n", ee,
           TOL_FP32_GAUSS);
    if (we >= 0)
        printf("  worst words %08x %08x %08x %08x: device %.9g %.9g %.9g, host %.9g %.9g %.9g\n",
               words[4 * we], words[4 * we + 1], words[4 * we + 2], words[4 * we + 3], edge[4 * we],
               edge[4 * we + 1], edge[4 * we + 2], edge_ref[3 * we], edge_ref[3 * we + 1],
               edge_ref[3 * we + 2]);
    CHECK(eg <= TOL_FP32_GAUSS);
    CHECK(ee <= TOL_FP32_GAUSS);

done:
    vkmd_vk_cmd_destroy(ctx, &cmd);
    vkmd_vk_descset_destroy(ctx, &set);
    vkmd_vk_pipeline_destroy(ctx, &pipe);
    for (int b = 0; b < BUFFER_COUNT; ++b)
        vkmd_vk_buffer_destroy(ctx, &bufs[b]);
    free(ctr);
    free(key);
    free(words);
    free(bits);
    free(gauss);
    free(edge);
    free(gauss_ref);
    free(edge_ref);
    printf("validation errors: %u\n", vkmd_vk_context_validation_errors(ctx));
    CHECK_OK(vkmd_vk_context_check_validation(ctx));
    vkmd_vk_context_destroy(ctx);
    return test_finish("test_gpu_philox");
}
