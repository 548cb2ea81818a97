/* The position arithmetic of shaders/common/positions.glsl on the device
 * (shaders/positions_selftest.comp) against double on the host, in every
 * mode and at 0, 1e4 and 1e6 A from the origin:
 *   - upload then readback returns the coordinates to the mode's resolution
 *     (split-float 2^-29 A, split-int 2^-33 A), and a second upload of what
 *     was read restores the same bits (restarts depend on it);
 *   - a move x += d (pos_add) matches x + d in double;
 *   - displacements of neighbours (pos_sub) match the double differences to
 *     float rounding (relative to |d| + 0.25 A, which covers the parts'
 *     resolution), and in the split modes are the same bits at every
 *     translation (multiples of 1/8 A), while fp32 loses them.
 * 4,096 atoms, coordinates on a 2^-32 A grid so every translation holds
 * them exactly in double. */
#include "testlib.h"
#include "forces/positions.h"
#include "vk/barrier.h"
#include "vk/buffer.h"
#include "vk/command.h"
#include "vk/context.h"
#include "vk/pipeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define N 4096

typedef struct result {
    double roundtrip, move, disp_rel;
    float *disp; /* [4 N] */
} result;

static double uniform(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*s >> 11) / 9007199254740992.0;
}

static void run_case(vkmd_vk_context *ctx, int mode, double shift, result *out)
{
    const int failures_before = test_failures;
    vkmd_vk_buffer pos = {0}, pos_x = {0}, move = {0}, disp = {0};
    vkmd_vk_pipeline pipe = {0};
    vkmd_vk_descset set = {0};
    vkmd_vk_cmd cmd = {0};
    double *x = malloc(sizeof *x * 3 * N), *xr = malloc(sizeof *xr * 3 * N);
    float *d = calloc(4 * N, sizeof *d);
    uint32_t *bits0 = malloc(32 * N), *bits1 = malloc(32 * N);
    memset(out, 0, sizeof *out);
    out->disp = calloc(4 * N, sizeof *out->disp);
    uint64_t seed = 12345;
    for (int i = 0; i < 3 * N; ++i) {
        /* atoms 1-2 A apart along a chain, on the 2^-32 A grid */
        const double r = (i / 3) * 1.5 * (i % 3 == 0) + 40.0 * (uniform(&seed) - 0.5);
        x[i] = shift + nearbyint(r * 4294967296.0) / 4294967296.0;
    }
    for (int i = 0; i < N; ++i)
        for (int c = 0; c < 3; ++c)
            d[4 * i + c] = (float)(0.1 * (uniform(&seed) - 0.5));
    CHECK_OK(vkmd_positions_create(ctx, N, 0, &pos));
    if (mode == VKMD_POSITIONS_FP32) {
        const vkmd_vk_buffer_desc bd = {.size = 16, .name = "placeholder"};
        CHECK_OK(vkmd_vk_buffer_create(ctx, &bd, &pos_x));
    } else {
        CHECK_OK(vkmd_positions_create_extra(ctx, N, mode, 0, &pos_x));
    }
    const vkmd_vk_buffer_desc md = {.size = 16 * N, .name = "moves"};
    const vkmd_vk_buffer_desc dd = {.size = 16 * N, .name = "displacements"};
    CHECK_OK(vkmd_vk_buffer_create(ctx, &md, &move));
    CHECK_OK(vkmd_vk_buffer_create(ctx, &dd, &disp));
    CHECK_OK(vkmd_vk_buffer_upload(ctx, &move, 0, d, 16 * N));
    if (test_failures > failures_before)
        goto done;

    /* round trip, and the same bits after a second upload */
    CHECK_OK(vkmd_positions_upload_mode(ctx, &pos, &pos_x, mode, x, N));
    CHECK_OK(vkmd_positions_readback_mode(ctx, &pos, &pos_x, mode, xr, N));
    for (int i = 0; i < 3 * N; ++i)
        out->roundtrip = fmax(out->roundtrip, fabs(xr[i] - x[i]));
    if (mode != VKMD_POSITIONS_FP32) {
        CHECK_OK(vkmd_vk_buffer_readback(ctx, &pos_x, 0, bits0, 32 * N));
        CHECK_OK(vkmd_positions_upload_mode(ctx, &pos, &pos_x, mode, xr, N));
        CHECK_OK(vkmd_vk_buffer_readback(ctx, &pos_x, 0, bits1, 32 * N));
        CHECK_MSG(!memcmp(bits0, bits1, 32 * N), "%s at %g A: re-upload changed the bits",
                  vkmd_positions_mode_name(mode), shift);
    }

    const vkmd_vk_spec spec = {VKMD_SPEC_POSITIONS, (uint32_t)mode};
    const vkmd_vk_buffer *bp[4] = {&pos, &pos_x, &move, &disp};
    const vkmd_vk_pipeline_desc pd = {.shader = "positions_selftest.comp",
                                      .buffer_count = 4,
                                      .push_size = 16,
                                      .specs = &spec,
                                      .spec_count = 1};
    CHECK_OK(vkmd_vk_pipeline_create(ctx, &pd, &pipe));
    CHECK_OK(vkmd_vk_descset_create(ctx, &pipe, bp, &set));
    CHECK_OK(vkmd_vk_cmd_create(ctx, &cmd));
    CHECK_OK(vkmd_vk_cmd_begin(ctx, &cmd));
    if (test_failures > failures_before)
        goto done;
    const uint32_t p_move[4] = {N, 0, 0, 0}, p_disp[4] = {N, 1, 0, 0};
    vkmd_vk_dispatch(cmd.cb, &pipe, &set, p_move, 16, 1, 1);
    vkmd_vk_barrier_compute(cmd.cb);
    vkmd_vk_dispatch(cmd.cb, &pipe, &set, p_disp, 16, 1, 1);
    vkmd_vk_barrier_compute_to_transfer(cmd.cb);
    CHECK_OK(vkmd_vk_cmd_end(ctx, &cmd));
    CHECK_OK(vkmd_vk_cmd_submit_wait(ctx, &cmd));
    CHECK_OK(vkmd_positions_readback_mode(ctx, &pos, &pos_x, mode, xr, N));
    CHECK_OK(vkmd_vk_buffer_readback(ctx, &disp, 0, out->disp, 16 * N));
    for (int i = 0; i < N; ++i)
        for (int c = 0; c < 3; ++c) {
            const double want = x[3 * i + c] + (double)d[4 * i + c];
            out->move = fmax(out->move, fabs(xr[3 * i + c] - want));
            if (i + 1 < N) {
                const double dw = (x[3 * i + 3 + c] + (double)d[4 * i + 4 + c]) - want;
                /* relative to |dw| + 0.25 A: float rounding of the result
                 * plus the parts' resolution (split-int converts its 2^-32 A
                 * fraction to a float once, 2^-26 A at most) */
                out->disp_rel =
                    fmax(out->disp_rel, fabs(out->disp[4 * i + c] - dw) / (fabs(dw) + 0.25));
            }
        }
done:
    vkmd_vk_cmd_destroy(ctx, &cmd);
    vkmd_vk_descset_destroy(ctx, &set);
    vkmd_vk_pipeline_destroy(ctx, &pipe);
    vkmd_vk_buffer *bufs[] = {&pos, &pos_x, &move, &disp};
    for (int b = 0; b < 4; ++b)
        vkmd_vk_buffer_destroy(ctx, bufs[b]);
    free(x);
    free(xr);
    free(d);
    free(bits0);
    free(bits1);
}

int main(void)
{
    vkmd_vk_context *ctx = NULL;
    int early = test_vk_open("test_gpu_positions", &ctx);
    if (early >= 0)
        return early;
    static const double shifts[3] = {0, 1e4, 1e6};
    /* resolution of a coordinate in the mode (half its last unit) */
    static const double res[3] = {0, 1.0 / (1 << 29), 1.0 / 8589934592.0};
    printf("%d atoms, moves |d| <= 0.05 A; max |error| in A, displacements relative to |d| + "
           "0.25 A:\n",
           N);
    for (int m = 0; m < 3; ++m) {
        result r[3];
        for (int k = 0; k < 3; ++k) {
            run_case(ctx, m, shifts[k], &r[k]);
            printf("  %-11s at %7.0e A: round trip %.2e, move %.2e, displacement %.2e\n",
                   vkmd_positions_mode_name(m), shifts[k], r[k].roundtrip, r[k].move,
                   r[k].disp_rel);
            if (m != VKMD_POSITIONS_FP32) {
                CHECK_MSG(r[k].roundtrip <= res[m], "round trip %.3e > %.3e", r[k].roundtrip,
                          res[m]);
                /* a move rounds once more at the fine part's resolution */
                CHECK_MSG(r[k].move <= 4 * res[m] + 1e-12, "move %.3e", r[k].move);
                CHECK_MSG(r[k].disp_rel <= 1.2e-7, "displacement %.3e", r[k].disp_rel);
            }
        }
        const int same = /* the last entry is not written */
            !memcmp(r[0].disp, r[1].disp, 16 * (N - 1)) &&
            !memcmp(r[0].disp, r[2].disp, 16 * (N - 1));
        printf("  %-11s displacements at 0, 1e4, 1e6 A: %s\n", vkmd_positions_mode_name(m),
               same ? "the same bits" : "differ");
        if (m != VKMD_POSITIONS_FP32)
            CHECK_MSG(same, "%s displacements depend on the translation",
                      vkmd_positions_mode_name(m));
        else
            CHECK_MSG(!same && r[2].disp_rel > 1e-3, "fp32 at 1e6 A should lose the displacements");
        for (int k = 0; k < 3; ++k)
            free(r[k].disp);
    }
    printf("validation errors: %u\n", vkmd_vk_context_validation_errors(ctx));
    CHECK_OK(vkmd_vk_context_check_validation(ctx));
    vkmd_vk_context_destroy(ctx);
    return test_finish("test_gpu_positions");
}
