/* Precision modes and the per-device calibration (see precision.h). */
#include "forces/precision.h"
#include "core/log.h"
#include "forces/forcefield.h"
#include "forces/positions.h"
#include "vk/command.h"
#include "vk/timer.h"

#include <math.h>
#include <string.h>

#define CALIB_REPEAT 3 /* timed evaluations per candidate (the fastest counts) */
#define FP16_MIN_SPEEDUP                                                                           \
    0.90 /* fp16 LJ only when at least 10 % faster: a margin far                                   \
            beyond timing noise, so the same command on the same                                   \
            device keeps its choice */

static const char *const names[] = {"auto", "single", "mixed", "fixed"};

const char *vkmd_precision_name(vkmd_precision p)
{
    return (unsigned)p < 4 ? names[p] : "?";
}

vkmd_result vkmd_precision_parse(const char *name, vkmd_precision *out)
{
    for (int p = 0; p < 4; ++p)
        if (!strcmp(name, names[p])) {
            *out = (vkmd_precision)p;
            return VKMD_OK;
        }
    return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                     "precision '%s': expected auto, single, mixed or fixed", name);
}

/* Fastest GPU time (ms) of CALIB_REPEAT steady-state force evaluations of
 * `sys` with positions `pos` and LJ `lj`. */
static vkmd_result time_candidate(vkmd_vk_context *ctx, const vkmd_system *sys,
                                  const vkmd_ff_settings *base, int pos, int lj, double *out_ms)
{
    vkmd_result res = VKMD_OK;
    vkmd_forcefield *ff = NULL;
    vkmd_vk_timer timer = {0};
    vkmd_vk_cmd cmd = {0};
    vkmd_ff_settings s = *base;
    s.positions = pos;
    s.nonbonded_fp16 = lj;
    s.fp16_min_r_a = lj ? VKMD_PRECISION_FP16_MIN_R_A : 0.0;
    /* PME is the same work in every candidate (its grid coordinates aside)
     * and its set-up compiles VkFFT kernels: left out, the calibration
     * costs a fraction of a second. */
    const vkmd_forcefield_desc fd = {.settings = &s, .no_pme = 1};
    VKMD_TRY(vkmd_forcefield_create(ctx, sys, &fd, &ff));
    VKMD_TRY(vkmd_forcefield_evaluate(ctx, ff, NULL, NULL, NULL)); /* warm-up, list built */
    VKMD_TRY(vkmd_vk_timer_create(ctx, VKMD_FORCEFIELD_TIMER_SLOTS, &timer));
    VKMD_TRY(vkmd_vk_cmd_create(ctx, &cmd));
    VKMD_TRY(vkmd_vk_cmd_begin(ctx, &cmd));
    vkmd_vk_timer_record_reset(cmd.cb, &timer);
    vkmd_forcefield_record(ff, cmd.cb, 0, &timer, 0);
    VKMD_TRY(vkmd_vk_cmd_end(ctx, &cmd));
    *out_ms = -1;
    for (int r = 0; r < CALIB_REPEAT; ++r) {
        double ns[VKMD_FF_PASS_COUNT], total = 0;
        VKMD_TRY(vkmd_vk_cmd_submit_wait(ctx, &cmd));
        VKMD_TRY(vkmd_forcefield_pass_times(ctx, ff, &timer, 0, ns));
        for (int p = 0; p < VKMD_FF_PASS_COUNT; ++p)
            total += ns[p] * 1e-6;
        if (*out_ms < 0 || total < *out_ms)
            *out_ms = total;
    }
cleanup:
    vkmd_vk_cmd_destroy(ctx, &cmd);
    vkmd_vk_timer_destroy(ctx, &timer);
    vkmd_forcefield_destroy(ctx, ff);
    return res;
}

vkmd_result vkmd_precision_choose(vkmd_vk_context *ctx, const vkmd_system *sys,
                                  vkmd_precision asked, const vkmd_ff_settings *base,
                                  vkmd_precision_choice *out)
{
    vkmd_result res = VKMD_OK;
    memset(out, 0, sizeof *out);
    out->asked = asked;
    for (int k = 0; k < VKMD_CALIB_COUNT; ++k)
        out->ms[k] = -1;
    if ((unsigned)asked > VKMD_PRECISION_FIXED)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "precision: unknown mode %d", (int)asked);
    if (!ctx)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "precision: a Vulkan device is required");
    if (asked == VKMD_PRECISION_SINGLE || asked == VKMD_PRECISION_FIXED) {
        out->chosen = asked;
        out->positions =
            asked == VKMD_PRECISION_SINGLE ? VKMD_POSITIONS_FP32 : VKMD_POSITIONS_SPLIT_INT;
        snprintf(out->reason, sizeof out->reason, "asked for explicitly: no calibration");
        return VKMD_OK;
    }
    /* mixed or auto. A CPU device (lavapipe) emulates fp16 in fp32, so
     * fp16 LJ is never its choice: nothing to calibrate (the candidates'
     * force fields, pipelines and timed evaluations cost lavapipe more
     * than a second per command). */
    const int cpu = ctx->info.type == VK_PHYSICAL_DEVICE_TYPE_CPU;
    const int has_fp16 = ctx->info.features.shader_float16;
    out->chosen = VKMD_PRECISION_MIXED;
    out->positions = VKMD_POSITIONS_SPLIT_FLOAT;
    if (cpu) {
        snprintf(out->reason, sizeof out->reason,
                 "a CPU device emulates fp16 in fp32: fp32 LJ, no calibration");
        return VKMD_OK;
    }
    VKMD_TRY(time_candidate(ctx, sys, base, VKMD_POSITIONS_SPLIT_FLOAT, VKMD_LJ_FP32,
                            &out->ms[VKMD_CALIB_SPLIT]));
    if (asked == VKMD_PRECISION_AUTO)
        VKMD_TRY(time_candidate(ctx, sys, base, VKMD_POSITIONS_FP32, VKMD_LJ_FP32,
                                &out->ms[VKMD_CALIB_SINGLE]));
    if (has_fp16)
        VKMD_TRY(time_candidate(ctx, sys, base, VKMD_POSITIONS_SPLIT_FLOAT, VKMD_LJ_FP16_POWERS,
                                &out->ms[VKMD_CALIB_SPLIT_FP16]));
    const double split = out->ms[VKMD_CALIB_SPLIT];
    const int fp16_faster = has_fp16 && out->ms[VKMD_CALIB_SPLIT_FP16] <= FP16_MIN_SPEEDUP * split;
    if (fp16_faster) {
        out->nonbonded_fp16 = VKMD_LJ_FP16_POWERS;
        out->fp16_min_r_a = VKMD_PRECISION_FP16_MIN_R_A;
    }
    if (!has_fp16)
        snprintf(out->reason, sizeof out->reason,
                 "the device has no fp16 arithmetic (shaderFloat16): fp32 LJ");
    else
        snprintf(out->reason, sizeof out->reason, "fp16 LJ measured %.0f %% %s than fp32: %s",
                 100 * fabs(out->ms[VKMD_CALIB_SPLIT_FP16] / split - 1),
                 out->ms[VKMD_CALIB_SPLIT_FP16] <= split ? "faster" : "slower",
                 fp16_faster ? "fp16 LJ beyond 5 A" : "fp32 LJ");
cleanup:
    return res;
}

void vkmd_precision_apply(const vkmd_precision_choice *c, vkmd_ff_settings *s)
{
    s->positions = c->positions;
    s->nonbonded_fp16 = c->nonbonded_fp16;
    s->fp16_min_r_a = c->fp16_min_r_a;
}

static const char *lj_name(int lj)
{
    return lj == VKMD_LJ_FP16_POWERS ? "fp16-powers" : lj == VKMD_LJ_FP16 ? "fp16" : "fp32";
}

void vkmd_precision_print(FILE *out, const vkmd_precision_choice *c)
{
    fprintf(out, "precision: %s (asked %s): %s positions, %s LJ", vkmd_precision_name(c->chosen),
            vkmd_precision_name(c->asked), vkmd_positions_mode_name(c->positions),
            lj_name(c->nonbonded_fp16));
    if (c->nonbonded_fp16)
        fprintf(out, " beyond %g A", c->fp16_min_r_a);
    static const char *const cand[VKMD_CALIB_COUNT] = {"single", "split", "split+fp16"};
    int any = 0;
    for (int k = 0; k < VKMD_CALIB_COUNT; ++k)
        if (c->ms[k] >= 0)
            fprintf(out, "%s%s %.3f",
                    any++ ? ", " : "; calibration ms per evaluation without PME: ", cand[k],
                    c->ms[k]);
    fprintf(out, "; %s\n", c->reason);
}

void vkmd_precision_print_json(FILE *out, const vkmd_precision_choice *c)
{
    fprintf(out,
            "\"precision\": \"%s\", \"precision_asked\": \"%s\", \"positions\": \"%s\", "
            "\"precision_reason\": \"%s\"",
            vkmd_precision_name(c->chosen), vkmd_precision_name(c->asked),
            vkmd_positions_mode_name(c->positions), c->reason);
    static const char *const key[VKMD_CALIB_COUNT] = {
        "calibration_single_ms", "calibration_split_ms", "calibration_split_fp16_ms"};
    for (int k = 0; k < VKMD_CALIB_COUNT; ++k)
        if (c->ms[k] >= 0)
            fprintf(out, ", \"%s\": %.4f", key[k], c->ms[k]);
}

vkmd_result vkmd_precision_resolve(const vkmd_precision_request *req, vkmd_vk_context *ctx,
                                   const vkmd_system *sys, vkmd_ff_settings *s,
                                   vkmd_precision_choice *out)
{
    vkmd_result res = vkmd_precision_choose(ctx, sys, req->precision, s, out);
    if (res != VKMD_OK)
        return res;
    char note[64] = "";
    if (req->positions_set && req->positions != out->positions) {
        out->positions = req->positions;
        strcat(note, " --positions");
    }
    if (req->lj_set) {
        out->nonbonded_fp16 = req->lj;
        out->fp16_min_r_a = req->lj_min_r_a;
        strcat(note, " --nonbonded");
    }
    if (note[0]) {
        size_t len = strlen(out->reason);
        snprintf(out->reason + len, sizeof out->reason - len, "; overridden by%s", note);
    }
    vkmd_precision_apply(out, s);
    return VKMD_OK;
}

const char *vkmd_lj_form_name(int lj)
{
    return lj == VKMD_LJ_FP32          ? "fp32"
           : lj == VKMD_LJ_FP16        ? "fp16"
           : lj == VKMD_LJ_FP16_POWERS ? "fp16-powers"
                                       : NULL;
}

vkmd_result vkmd_lj_form_parse(const char *name, int *out_lj)
{
    for (int lj = VKMD_LJ_FP32; lj <= VKMD_LJ_FP16_POWERS; ++lj)
        if (!strcmp(name, vkmd_lj_form_name(lj))) {
            *out_lj = lj;
            return VKMD_OK;
        }
    return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "'%s' is not fp32, fp16 or fp16-powers", name);
}
