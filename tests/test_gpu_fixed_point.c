/* The fixed-point helpers of shaders/common/fixed_point.glsl in both builds
 * (int64 and "+words", through shaders/fixed_point_selftest.comp) against the
 * host's int64 arithmetic, bit for bit:
 *   - float -> fixed truncation, (int64_t)x, on edge values (0, -0, +-0.5,
 *     +-(2^32 - 256), +-2^32, the largest float below 2^63) and 200,000
 *     random floats of every exponent from 2^-30 to 2^62, both signs;
 *   - fixed -> float, (float)(int64_t)v rounded to nearest even, on edge
 *     values (INT64_MIN/MAX, -1, 2^32 +- 1, ...), exact ties and
 *     near-ties at every shift, and 200,000 random values of every length;
 *   - a + (-b) modulo 2^64;
 *   - the atomic add: 200,000 random 64-bit values raced by every thread into
 *     7 slots (carries into the high word all the time), against the host's
 *     sums modulo 2^64; run 3 times (the race differs, the sums must not).
 * The int64 build runs only where the device has shaderInt64 and
 * shaderBufferInt64Atomics; the words build on every device. */
#include "testlib.h"
#include "forces/fixed_point.h"
#include "vk/barrier.h"
#include "vk/buffer.h"
#include "vk/command.h"
#include "vk/context.h"
#include "vk/pipeline.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define N_FLOAT 200000
#define N_FIXED 200000
#define SLOTS   7
#define REPEATS 3

enum { IN_FLOAT, OUT_TRUNC, IN_FIXED, OUT_FLOAT, OUT_ADD, SUMS, BUFFER_COUNT };

typedef struct cases {
    float *x;       /* [N_FLOAT] */
    int64_t *trunc; /* [N_FLOAT] expected (int64_t)x */
    int64_t *v;     /* [N_FIXED] */
    float *fv;      /* [N_FIXED] expected (float)v */
    int64_t *add;   /* [N_FIXED] expected v[i] - v[i + 1] mod 2^64 */
    int64_t *sums;  /* [SLOTS] expected */
} cases;

static uint64_t rng_state = 0x243F6A8885A308D3ull;

static uint64_t next_u64(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1Dull;
}

/* Two's-complement wrap without signed overflow. */
static int64_t wrap(uint64_t u)
{
    int64_t r;
    memcpy(&r, &u, sizeof r);
    return r;
}

static int make_cases(cases *c)
{
    c->x = calloc(N_FLOAT, sizeof *c->x);
    c->trunc = calloc(N_FLOAT, sizeof *c->trunc);
    c->v = calloc(N_FIXED, sizeof *c->v);
    c->fv = calloc(N_FIXED, sizeof *c->fv);
    c->add = calloc(N_FIXED, sizeof *c->add);
    c->sums = calloc(SLOTS, sizeof *c->sums);
    if (!c->x || !c->trunc || !c->v || !c->fv || !c->add || !c->sums)
        return 0;

    const float edge_x[] = {0.0f,
                            -0.0f,
                            0.5f,
                            -0.5f,
                            1.0f,
                            -1.0f,
                            4294967040.0f,
                            -4294967040.0f,
                            4294967296.0f,
                            -4294967296.0f,
                            4294967808.0f,
                            -4294967808.0f,
                            2147483648.0f,
                            -2147483648.0f,
                            0x1.fffffep62f,
                            -0x1.fffffep62f,
                            1099511627776.f,
                            1e-30f,
                            -1e-30f,
                            8388608.5f};
    int ne = (int)(sizeof edge_x / sizeof *edge_x);
    for (int i = 0; i < N_FLOAT; ++i) {
        float x;
        if (i < ne) {
            x = edge_x[i];
        } else {
            uint64_t r = next_u64();
            int e = (int)(r % 93) - 30; /* 2^-30 .. 2^62 */
            float m = 1.0f + (float)((r >> 8) & 0xFFFFFF) / 16777216.0f;
            x = ldexpf(m, e) * ((r >> 40) & 1 ? -1.0f : 1.0f);
        }
        c->x[i] = x;
        c->trunc[i] = (int64_t)x;
    }

    const int64_t edge_v[] = {0,
                              1,
                              -1,
                              INT64_MAX,
                              INT64_MIN,
                              INT64_MIN + 1,
                              4294967295ll,
                              4294967296ll,
                              4294967297ll,
                              -4294967296ll,
                              -4294967297ll,
                              16777217ll, /* a tie: rounds to even 2^24 */
                              16777219ll,
                              (1ll << 40) + (1ll << 16),
                              (1ll << 40) + (1ll << 16) + 1,
                              -((1ll << 40) + (1ll << 16)),
                              0x7FFFFF8000000000ll,
                              0x7FFFFF7FFFFFFFFFll};
    int nv = (int)(sizeof edge_v / sizeof *edge_v);
    int k = 0;
    for (; k < nv; ++k)
        c->v[k] = edge_v[k];
    /* Ties and near-ties at every shift: an odd or even 24-bit mantissa
     * followed by exactly half an ulp, half an ulp +- 1. */
    for (int s = 1; s <= 39 && k + 6 <= N_FIXED; ++s) {
        uint64_t m = (1ull << 23) | (next_u64() & 0x7FFFFF);
        uint64_t base = m << s, half = 1ull << (s - 1);
        c->v[k++] = wrap(base + half);
        c->v[k++] = -wrap(base + half);
        c->v[k++] = wrap(base + half - (s > 1));
        c->v[k++] = wrap(base + half + 1);
        c->v[k++] = wrap(((m | 1) << s) + half);
        c->v[k++] = wrap(((m & ~1ull) << s) + half);
    }
    for (; k < N_FIXED; ++k) {
        uint64_t r = next_u64();
        c->v[k] = wrap(r >> (next_u64() % 64));
        if (next_u64() & 1)
            c->v[k] = wrap(0 - (uint64_t)c->v[k]);
    }
    for (int i = 0; i < N_FIXED; ++i) {
        c->fv[i] = (float)c->v[i];
        c->add[i] = wrap((uint64_t)c->v[i] - (uint64_t)c->v[(i + 1) % N_FIXED]);
        c->sums[i % SLOTS] = wrap((uint64_t)c->sums[i % SLOTS] + (uint64_t)c->v[i]);
    }
    return 1;
}

static void free_cases(cases *c)
{
    free(c->x);
    free(c->trunc);
    free(c->v);
    free(c->fv);
    free(c->add);
    free(c->sums);
}

/* First index where two arrays of `n` elements of `size` bytes differ, -1 if none. */
static int first_diff(const void *a, const void *b, int n, size_t size)
{
    for (int i = 0; i < n; ++i)
        if (memcmp((const char *)a + i * size, (const char *)b + i * size, size) != 0)
            return i;
    return -1;
}

static void run_build(vkmd_vk_context *ctx, const char *shader, const cases *c)
{
    printf("== %s\n", shader);
    vkmd_vk_buffer bufs[BUFFER_COUNT] = {0};
    const VkDeviceSize sizes[BUFFER_COUNT] = {N_FLOAT * sizeof(float),   N_FLOAT * sizeof(int64_t),
                                              N_FIXED * sizeof(int64_t), N_FIXED * sizeof(float),
                                              N_FIXED * sizeof(int64_t), SLOTS * sizeof(int64_t)};
    vkmd_vk_pipeline pipe = {0};
    vkmd_vk_descset set = {0};
    vkmd_vk_cmd cmd = {0};
    int64_t *trunc = calloc(N_FLOAT, sizeof *trunc), *add = calloc(N_FIXED, sizeof *add);
    float *fv = calloc(N_FIXED, sizeof *fv);
    CHECK(trunc && add && fv);
    if (!trunc || !add || !fv)
        goto done;
    const vkmd_vk_buffer *bp[BUFFER_COUNT];
    for (int b = 0; b < BUFFER_COUNT; ++b) {
        const vkmd_vk_buffer_desc bd = {.size = sizes[b], .name = "fixed-point self-test"};
        CHECK_OK(vkmd_vk_buffer_create(ctx, &bd, &bufs[b]));
        bp[b] = &bufs[b];
    }
    CHECK_OK(vkmd_vk_buffer_upload(ctx, &bufs[IN_FLOAT], 0, c->x, sizes[IN_FLOAT]));
    CHECK_OK(vkmd_vk_buffer_upload(ctx, &bufs[IN_FIXED], 0, c->v, sizes[IN_FIXED]));
    const vkmd_vk_pipeline_desc pd = {
        .shader = shader, .buffer_count = BUFFER_COUNT, .push_size = 4 * sizeof(uint32_t)};
    CHECK_OK(vkmd_vk_pipeline_create(ctx, &pd, &pipe));
    CHECK_OK(vkmd_vk_descset_create(ctx, &pipe, bp, &set));
    if (test_failures)
        goto done;
    const uint32_t push[4] = {N_FLOAT, N_FIXED, SLOTS, 0};
    CHECK_OK(vkmd_vk_cmd_create(ctx, &cmd));
    CHECK_OK(vkmd_vk_cmd_begin(ctx, &cmd));
    vkmd_vk_buffer_record_fill(cmd.cb, &bufs[SUMS], 0);
    vkmd_vk_barrier_transfer_to_compute(cmd.cb);
    vkmd_vk_dispatch(cmd.cb, &pipe, &set, push, 256, 1, 1);
    CHECK_OK(vkmd_vk_cmd_end(ctx, &cmd));
    for (int rep = 0; rep < REPEATS; ++rep) {
        CHECK_OK(vkmd_vk_cmd_submit_wait(ctx, &cmd));
        int64_t sums[SLOTS];
        CHECK_OK(vkmd_vk_buffer_readback(ctx, &bufs[SUMS], 0, sums, sizeof sums));
        int d = first_diff(sums, c->sums, SLOTS, sizeof *sums);
        printf("  run %d: atomic sums of %d values into %d slots: %s", rep + 1, N_FIXED, SLOTS,
               d < 0 ? "all equal the host's modulo 2^64" : "DIFFER");
        if (d >= 0)
            printf(" (slot %d: %lld vs %lld)", d, (long long)sums[d], (long long)c->sums[d]);
        printf("\n");
        CHECK(d < 0);
    }
    CHECK_OK(vkmd_vk_buffer_readback(ctx, &bufs[OUT_TRUNC], 0, trunc, sizes[OUT_TRUNC]));
    CHECK_OK(vkmd_vk_buffer_readback(ctx, &bufs[OUT_FLOAT], 0, fv, sizes[OUT_FLOAT]));
    CHECK_OK(vkmd_vk_buffer_readback(ctx, &bufs[OUT_ADD], 0, add, sizes[OUT_ADD]));

    int bad_t = 0, bad_f = 0, bad_a = 0, first_t = -1, first_f = -1;
    for (int i = 0; i < N_FLOAT; ++i)
        if (trunc[i] != c->trunc[i] && bad_t++ == 0)
            first_t = i;
    for (int i = 0; i < N_FIXED; ++i) {
        if (memcmp(&fv[i], &c->fv[i], sizeof(float)) != 0 && bad_f++ == 0)
            first_f = i;
        bad_a += add[i] != c->add[i];
    }
    printf("  float -> fixed (truncation): %d of %d differ from (int64_t)x\n", bad_t, N_FLOAT);
    if (first_t >= 0)
        printf("    first: x = %.9g -> %lld, host %lld\n", c->x[first_t], (long long)trunc[first_t],
               (long long)c->trunc[first_t]);
    printf("  fixed -> float (nearest even): %d of %d differ from (float)v\n", bad_f, N_FIXED);
    if (first_f >= 0)
        printf("    first: v = %lld -> %.9g, host %.9g\n", (long long)c->v[first_f], fv[first_f],
               c->fv[first_f]);
    printf("  a - b modulo 2^64: %d of %d differ\n", bad_a, N_FIXED);
    CHECK(bad_t == 0);
    CHECK(bad_f == 0);
    CHECK(bad_a == 0);
done:
    vkmd_vk_cmd_destroy(ctx, &cmd);
    vkmd_vk_descset_destroy(ctx, &set);
    vkmd_vk_pipeline_destroy(ctx, &pipe);
    for (int b = 0; b < BUFFER_COUNT; ++b)
        vkmd_vk_buffer_destroy(ctx, &bufs[b]);
    free(trunc);
    free(add);
    free(fv);
}

int main(void)
{
    vkmd_vk_context *ctx = NULL;
    int early = test_vk_open("test_gpu_fixed_point", &ctx);
    if (early >= 0)
        return early;
    cases c = {0};
    CHECK(make_cases(&c));
    vkmd_fixed_mode mode = vkmd_fixed_mode_of(ctx);
    printf("device fixed-point mode: %s\n", vkmd_fixed_mode_name(mode));
    if (!test_failures) {
        if (mode == VKMD_FIXED_MODE_INT64)
            run_build(ctx, "fixed_point_selftest.comp", &c);
        else
            printf("== fixed_point_selftest.comp: skipped (no int64 atomics on this device)\n");
        run_build(ctx, "fixed_point_selftest.comp+words", &c);
        const char *name = NULL;
        CHECK_OK(vkmd_fixed_shader(ctx, "test", "fixed_point_selftest.comp", &name));
        printf("module for this device: %s\n", name ? name : "(none)");
        CHECK(name &&
              strcmp(name, mode == VKMD_FIXED_MODE_INT64 ? "fixed_point_selftest.comp"
                                                         : "fixed_point_selftest.comp+words") == 0);
        vkmd_result r = vkmd_fixed_shader(ctx, "test", "vk_selftest.comp", &name);
        printf("a shader without a words build: %s\n",
               mode == VKMD_FIXED_MODE_INT64 ? "used as is (int64 mode)" : vkmd_last_error());
        CHECK(mode == VKMD_FIXED_MODE_INT64 ? r == VKMD_OK : r == VKMD_ERROR_UNSUPPORTED);
    }
    free_cases(&c);
    printf("validation errors: %u\n", vkmd_vk_context_validation_errors(ctx));
    CHECK_OK(vkmd_vk_context_check_validation(ctx));
    vkmd_vk_context_destroy(ctx);
    return test_finish("test_gpu_fixed_point");
}
