/* fp16 LJ pair math (nonbonded.comp's +fp16 builds, --nonbonded fp16) against
 * the double reference: the figures docs/PRECISION.md quotes.
 *
 * 1. Per pair: every non-excluded LJ pair within the cutoff of solvated
 *    villin (the openmm_generate fixture's villin_solv, 8,867 atoms: a
 *    realistic distance distribution) through ref_forms.h's models of the
 *    device's two fp16 forms (pure, powers) and of the fp32 form, against
 *    form_lj in double: the relative force error where the pair force is
 *    not near its zero crossing (|F| >= 0.1 of the pair's force scale
 *    4 eps (12 s^6 + 6 s^3) / r), and the error in units of that scale for
 *    every pair; by distance.
 * 2. On the device: total forces and the LJ energy of villin_solv and of
 *    villin in vacuum (tests/data) with fp32 LJ and each fp16 form for
 *    every pair and beyond 5 and 6 A, against vkmd_ref_compute.
 * Criteria: fp32 within the fp32 tolerances (and its model's error per
 * force scale below 1e-6); every fp16 variant finite with force RMS error
 * <= 1e-2 (a broken path gives O(1)); the fp16 forms beyond 5 A within the
 * issue's 1e-4 force RMS. Which variants meet the per-pair 0.1 % and which
 * one a run may use: docs/PRECISION.md. */
#include "testlib.h"
#include "tolerance.h"
#include "forces/forcefield.h"
#include "io/load.h"
#include "ref/ref.h"
#include "ref/ref_forms.h"
#include "vk/context.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BINS 4
static const double bin_edge[BINS + 1] = {0.0, 4.0, 5.0, 6.0, 1e9};

typedef struct pair_stats {
    long count[BINS];
    double max_rel[BINS], sum_scaled[BINS], max_scaled[BINS];
    long rel_count[BINS];
} pair_stats;

static void record(pair_stats *st, double r, double f, double f_ref, double scale)
{
    int b = 0;
    while (b < BINS - 1 && r >= bin_edge[b + 1])
        ++b;
    const double err = fabs(f - f_ref);
    st->count[b]++;
    st->sum_scaled[b] += err / scale;
    if (err / scale > st->max_scaled[b])
        st->max_scaled[b] = err / scale;
    if (fabs(f_ref) >= 0.1 * scale) {
        st->rel_count[b]++;
        if (err / fabs(f_ref) > st->max_rel[b])
            st->max_rel[b] = err / fabs(f_ref);
    }
}

static void print_stats(const char *name, const pair_stats *st)
{
    for (int b = 0; b < BINS; ++b)
        printf("  %-5s r in [%.0f, %.0f) A: %8ld pairs, max rel force error %.3e (%ld pairs "
               "away from F = 0), mean / max error per force scale %.3e / %.3e\n",
               name, bin_edge[b], b == BINS - 1 ? 9.0 : bin_edge[b + 1], st->count[b],
               st->max_rel[b], st->rel_count[b],
               st->count[b] ? st->sum_scaled[b] / (double)st->count[b] : 0.0, st->max_scaled[b]);
}

/* Section 1: the per-pair study on the host models of both device forms. */
static void per_pair(const vkmd_system *sys, double cutoff)
{
    pair_stats s16, s16p, s32;
    memset(&s16, 0, sizeof s16);
    memset(&s16p, 0, sizeof s16p);
    memset(&s32, 0, sizeof s32);
    const int32_t n = sys->atom_count, nt = sys->lj_type_count;
    const double *x = sys->positions, *len = sys->box.len;
    for (int32_t i = 0; i < n; ++i)
        for (int32_t j = i + 1; j < n; ++j) {
            double d[3], r2 = 0;
            for (int k = 0; k < 3; ++k) {
                d[k] = x[3 * j + k] - x[3 * i + k];
                d[k] -= len[k] * floor(d[k] / len[k] + 0.5);
                r2 += d[k] * d[k];
            }
            if (r2 >= cutoff * cutoff)
                continue;
            const int32_t t = sys->atoms[i].lj_type * nt + sys->atoms[j].lj_type;
            const double a = sys->lj_a[t], b = sys->lj_b[t];
            if (!(a > 0 && b > 0) || vkmd_system_is_excluded(sys, i, j))
                continue;
            const double r = sqrt(r2);
            double f64, f16, f16p, f32;
            form_lj(1.0 / r2, a, b, &f64);
            const double sig2 = cbrt(a / b), eps4 = b * b / a, s = sig2 / r2;
            const double scale = eps4 * (12 * s * s * s * s * s * s + 6 * s * s * s) / r2;
            const float inv_r2f = 1.0f / (float)r2;
            form_lj_fp16(inv_r2f, (float)sig2, (float)eps4, 1, &f16);
            form_lj_fp16(inv_r2f, (float)sig2, (float)eps4, 0, &f16p);
            {
                /* The fp32 form as the device evaluates it (forms.glsl form_lj). */
                const float ir6 = inv_r2f * inv_r2f * inv_r2f;
                const float e12 = (float)a * ir6 * ir6, e6 = (float)b * ir6;
                f32 = (double)((12.0f * e12 - 6.0f * e6) * inv_r2f);
            }
            record(&s16, r, f16 * r, f64 * r, scale * r);
            record(&s16p, r, f16p * r, f64 * r, scale * r);
            record(&s32, r, f32 * r, f64 * r, scale * r);
        }
    printf("per-pair LJ force error against double, %s (cutoff %.1f A):\n", sys->title, cutoff);
    print_stats("fp16", &s16);
    print_stats("fp16p", &s16p);
    print_stats("fp32", &s32);
    /* The fp32 model must be far below the fp16 ones (a check of the study). */
    for (int b = 0; b < BINS; ++b)
        if (s32.count[b] && s32.max_scaled[b] > 1e-6) {
            printf("FAIL fp32 model: max error per force scale %.3e in bin %d\n", s32.max_scaled[b],
                   b);
            ++test_failures;
        }
}

/* Section 2: one device evaluation with the given LJ precision. */
static void device(vkmd_vk_context *ctx, const char *label, vkmd_system *sys, int fp16,
                   double min_r, const double *fref, const vkmd_energy *eref,
                   const vkmd_ff_settings *base)
{
    vkmd_ff_settings s = *base;
    s.nonbonded_fp16 = fp16;
    s.fp16_min_r_a = min_r;
    const int32_t n = sys->atom_count;
    double *f = calloc(3 * (size_t)n, sizeof *f);
    vkmd_forcefield *ff = NULL;
    const vkmd_forcefield_desc fd = {.settings = &s};
    vkmd_energy e;
    CHECK_OK(vkmd_forcefield_create(ctx, sys, &fd, &ff));
    CHECK_OK(vkmd_forcefield_evaluate(ctx, ff, NULL, &e, f));
    vkmd_forcefield_destroy(ctx, ff);
    const double frms = rms_rel_error(f, fref, 3 * n);
    const double fmax = max_abs_error(f, fref, 3 * n) / rms(fref, 3 * n);
    const double dlj = fabs(e.lj_pair - eref->lj_pair);
    char what[96];
    if (fp16)
        snprintf(what, sizeof what, "%s LJ beyond %.0f A",
                 fp16 == VKMD_LJ_FP16_POWERS ? "fp16-powers" : "fp16", min_r);
    else
        snprintf(what, sizeof what, "fp32 LJ");
    printf("  %-12s %-28s force RMS rel %.3e, max |dF|/RMS %.3e, LJ energy %.4f vs %.4f "
           "kcal/mol (|diff| %.3e), total %.4f vs %.4f\n",
           label, what, frms, fmax, e.lj_pair, eref->lj_pair, dlj, e.total, eref->total);
    const double bound = !fp16        ? TOL_FP32_FORCE_RMS
                         : min_r >= 5 ? TOL_FP16_FAR_FORCE_RMS
                                      : TOL_FP16_FORCE_RMS;
    /* Coulomb is fp32 in every variant: its terms must not move (0.01 %). */
    const double dc = fabs(e.coulomb_real - eref->coulomb_real) / fabs(eref->coulomb_real);
    const double dr = fabs(e.coulomb_recip - eref->coulomb_recip) /
                      (fabs(eref->coulomb_recip) > 0 ? fabs(eref->coulomb_recip) : 1.0);
    printf("  %-12s %-28s Coulomb real-space rel %.3e, PME reciprocal rel %.3e\n", label, what, dc,
           dr);
    if (!(dc <= TOL_FP16_COULOMB_REL) || !(dr <= TOL_FP16_COULOMB_REL)) {
        printf("FAIL %s %s: Coulomb moved (%.3e, %.3e)\n", label, what, dc, dr);
        ++test_failures;
    }
    if (!(frms == frms) || frms > bound) {
        printf("FAIL %s %s: force RMS rel %.3e\n", label, what, frms);
        ++test_failures;
    }
    free(f);
}

static void system_run(vkmd_vk_context *ctx, const char *label, const char *prmtop, int study)
{
    vkmd_system sys = {0};
    CHECK_OK(vkmd_system_load(prmtop, NULL, &sys));
    if (!sys.positions) {
        printf("FAIL %s: no coordinates\n", prmtop);
        ++test_failures;
        return;
    }
    const int32_t n = sys.atom_count;
    for (int i = 0; i < 3 * n; ++i)
        sys.positions[i] = (double)(float)sys.positions[i];
    vkmd_ff_settings s = {0};
    CHECK_OK(vkmd_ff_settings_resolve(&s, &sys));
    if (study)
        per_pair(&sys, s.cutoff_a);
    double *fref = calloc(3 * (size_t)n, sizeof *fref);
    vkmd_energy eref;
    CHECK_OK(vkmd_ref_compute(&sys, &s, &eref, fref));
    printf("device forces against the double reference (%d atoms):\n", n);
    device(ctx, label, &sys, 0, 0, fref, &eref, &s);
    for (int form = VKMD_LJ_FP16; form <= VKMD_LJ_FP16_POWERS; ++form) {
        device(ctx, label, &sys, form, 0, fref, &eref, &s);
        device(ctx, label, &sys, form, 5, fref, &eref, &s);
        device(ctx, label, &sys, form, 6, fref, &eref, &s);
    }
    free(fref);
    vkmd_system_destroy(&sys);
}

int main(void)
{
    vkmd_vk_context *ctx = NULL;
    int early = test_vk_open("test_gpu_nonbonded_fp16_generated", &ctx);
    if (early >= 0)
        return early;
    if (!ctx->info.features.shader_float16) {
        printf("FAIL: %s has no shaderFloat16 (lavapipe has it)\n", ctx->info.name);
        return 1;
    }
    char path[1024];
    snprintf(path, sizeof path, "%s/villin_solv.prmtop", VKMD_TEST_GEN_DIR);
    system_run(ctx, "villin_solv", path, 1);
    snprintf(path, sizeof path, "%s/villin_vac.prmtop", VKMD_TEST_DATA_DIR);
    system_run(ctx, "villin_vac", path, 0);
    printf("validation errors: %u\n", vkmd_vk_context_validation_errors(ctx));
    CHECK_OK(vkmd_vk_context_check_validation(ctx));
    vkmd_vk_context_destroy(ctx);
    return test_finish("test_gpu_nonbonded_fp16_generated");
}
