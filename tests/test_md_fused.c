/* The fused MD step (engine/sim/step.c, shaders/step.comp, forces.comp)
 * against the pass-by-pass step it replaces (engine/sim/md_batch.c with
 * desc.unfused):
 *   - both check the neighbour list at every step with the same arithmetic,
 *     so they halt their batches and rebuild the list at the same steps
 *     (gated batches, sim/md_batch.c; or, without conditional rendering, a
 *     rebuild recorded at every step), and 120 steps in batches of 40 give
 *     the same positions and velocities to the bit (on a CPU device; on a
 *     GPU within TOL_FUSED_GPU_RMSD_A, testlib.h), for Langevin middle and
 *     velocity Verlet, on water:216 (18.6 A box: tiles that need the
 *     minimum image pair by pair), water_nacl (ions: atoms in no constraint
 *     unit) and villin in a 40 A box (H clusters), in the three positions
 *     modes, with the same rebuild count and no repeated step;
 *   - in gated batches a step that does not rebuild records at most
 *     VKMD_TEST_FUSED_DISPATCHES dispatches and barriers fused and
 *     VKMD_TEST_UNFUSED_DISPATCHES pass by pass (issue 31's bar), and a
 *     rebuild adds the list's seven rebuild dispatches at the first step of
 *     a batch only;
 *   - the list is never stale at 4 fs (water_nacl; villin with hydrogen
 *     masses 1.5 amu): the forces at the end of every 10-step batch hold
 *     every pair within the cutoff in the inner list (brute force in
 *     double) and match the CPU reference at the same positions within the
 *     force field's limits;
 *   - no validation error. */
#include "test_md_common.h"
#include "forces/positions.h"
#include "io/load.h"
#include "ref/ref.h"
#include "system/hmr.h"
#include "tolerance.h"

#define STEPS                        120
#define BATCH                        40
#define VKMD_TEST_FUSED_DISPATCHES   8.0
#define VKMD_TEST_UNFUSED_DISPATCHES 16.0

typedef struct run_out {
    double *x, *v;
    vkmd_md_profile prof;
    int fused, gated;
    int64_t repeats, halts;
    uint32_t builds;
} run_out;

static void run_md(vkmd_vk_context *ctx, const vkmd_system *sys, int verlet, int positions,
                   int unfused, run_out *out)
{
    const int32_t n = sys->atom_count;
    memset(out, 0, sizeof *out);
    out->x = calloc(3 * (size_t)n, sizeof(double));
    out->v = calloc(3 * (size_t)n, sizeof(double));
    vkmd_ff_settings ff = {.cutoff_a = 9.0, .ewald_tolerance = 5e-4, .positions = positions};
    CHECK_OK(vkmd_ff_settings_resolve(&ff, sys));
    const vkmd_md_desc d = {.settings = &ff,
                            .integrator =
                                verlet ? VKMD_INTEGRATOR_VERLET : VKMD_INTEGRATOR_LANGEVIN,
                            .dt_fs = 2.0,
                            .seed = 11,
                            .max_batch_steps = BATCH,
                            .unfused = unfused ? 1 : -1};
    vkmd_md *md = NULL;
    CHECK_OK(vkmd_md_create(ctx, sys, &d, &md));
    if (!md)
        return;
    CHECK_OK(vkmd_md_init_velocities(ctx, md, 300, 5));
    CHECK_OK(vkmd_md_step(ctx, md, STEPS));
    vkmd_md_report r;
    CHECK_OK(vkmd_md_read(ctx, md, &r, out->x, out->v));
    CHECK_OK(vkmd_forcefield_neighbor_builds(ctx, vkmd_md_forcefield(md), &out->builds));
    CHECK_OK(vkmd_md_profile_steps(ctx, md, 2, &out->prof));
    out->fused = vkmd_md_fused(md);
    out->gated = vkmd_md_gated(md);
    out->repeats = vkmd_md_repeats(md);
    out->halts = vkmd_md_halts(md);
    vkmd_md_destroy(ctx, md);
}

static void run_free(run_out *r)
{
    free(r->x);
    free(r->v);
}

static void compare(vkmd_vk_context *ctx, const char *label, const vkmd_system *sys, int verlet,
                    int positions)
{
    const int32_t n = sys->atom_count;
    run_out a, b;
    run_md(ctx, sys, verlet, positions, 1, &a);
    run_md(ctx, sys, verlet, positions, 0, &b);
    if (a.x && b.x) {
        int same = !memcmp(a.x, b.x, sizeof(double) * 3 * (size_t)n) &&
                   !memcmp(a.v, b.v, sizeof(double) * 3 * (size_t)n);
        double worst = 0;
        for (int i = 0; i < 3 * n && !same; ++i)
            worst = fmax(worst, fabs(a.x[i] - b.x[i]));
        printf("== %s, %s, %s positions: fused %d, gated %d: %s (max |dx| %.3g A); list builds "
               "%u / %u, halts %lld / %lld, steps repeated %lld / %lld (pass by pass / fused); "
               "dispatches / barriers per step without a rebuild: pass by pass %.1f / %.1f, "
               "fused %.1f / %.1f; a rebuild adds %.0f / %.0f\n",
               label, verlet ? "Verlet" : "Langevin", vkmd_positions_mode_name(positions), b.fused,
               b.gated, same ? "bitwise identical" : "DIFFERENT", worst, a.builds, b.builds,
               (long long)a.halts, (long long)b.halts, (long long)a.repeats, (long long)b.repeats,
               a.prof.dispatches_per_step, a.prof.barriers_per_step, b.prof.dispatches_per_step,
               b.prof.barriers_per_step, b.prof.rebuild_dispatches, b.prof.rebuild_barriers);
        CHECK(b.fused && !a.fused);
        if (test_same_bits_device(ctx)) {
            CHECK(same);
            CHECK(a.builds == b.builds);
        } else {
            CHECK(md_rmsd(sys, a.x, b.x, NULL) <= TOL_FUSED_GPU_RMSD_A);
        }
        CHECK(a.repeats == 0 && b.repeats == 0);
        if (b.gated) {
            CHECK(b.prof.dispatches_per_step <= VKMD_TEST_FUSED_DISPATCHES &&
                  b.prof.barriers_per_step <= VKMD_TEST_FUSED_DISPATCHES);
            CHECK(a.prof.dispatches_per_step <= VKMD_TEST_UNFUSED_DISPATCHES &&
                  a.prof.barriers_per_step <= VKMD_TEST_UNFUSED_DISPATCHES);
            CHECK(b.prof.rebuild_dispatches <= 8 && a.prof.rebuild_dispatches <= 8);
        }
        CHECK(a.prof.dispatches_per_step > b.prof.dispatches_per_step);
    }
    run_free(&a);
    run_free(&b);
}

/* An MD created with Verlet, switched to Langevin at a new bath temperature
 * (what an equilibration does between stages): the fused step must follow the
 * switch and match pass by pass bit for bit, and the bath must heat a cold
 * start. */
static void switch_run(vkmd_vk_context *ctx, const vkmd_system *sys, int unfused, double *x,
                       double *v, double *out_t)
{
    vkmd_ff_settings ff = {.cutoff_a = 9.0, .ewald_tolerance = 5e-4};
    CHECK_OK(vkmd_ff_settings_resolve(&ff, sys));
    const vkmd_md_desc d = {.settings = &ff,
                            .integrator = VKMD_INTEGRATOR_VERLET,
                            .dt_fs = 2.0,
                            .seed = 3,
                            .max_batch_steps = BATCH,
                            .unfused = unfused ? 1 : -1};
    vkmd_md *md = NULL;
    CHECK_OK(vkmd_md_create(ctx, sys, &d, &md));
    if (!md)
        return;
    CHECK_OK(vkmd_md_init_velocities(ctx, md, 10, 5));
    CHECK_OK(vkmd_md_step(ctx, md, 10));
    CHECK_OK(vkmd_md_set_integrator(md, VKMD_INTEGRATOR_LANGEVIN));
    CHECK_OK(vkmd_md_step(ctx, md, 10)); /* at the desc's 300 K */
    CHECK_OK(vkmd_md_set_temperature(md, 600));
    CHECK(vkmd_md_temperature(md) == 600);
    CHECK(vkmd_md_set_temperature(md, -1) != VKMD_OK);
    CHECK_OK(vkmd_md_step(ctx, md, STEPS));
    vkmd_md_report r;
    CHECK_OK(vkmd_md_read(ctx, md, &r, x, v));
    *out_t = r.temperature_k;
    vkmd_md_destroy(ctx, md);
}

static void switch_check(vkmd_vk_context *ctx, const vkmd_system *sys)
{
    const size_t n3 = 3 * (size_t)sys->atom_count;
    double *xa = calloc(n3, sizeof(double)), *va = calloc(n3, sizeof(double));
    double *xb = calloc(n3, sizeof(double)), *vb = calloc(n3, sizeof(double));
    double ta = 0, tb = 0;
    switch_run(ctx, sys, 1, xa, va, &ta);
    switch_run(ctx, sys, 0, xb, vb, &tb);
    const int same = !memcmp(xa, xb, sizeof(double) * n3) && !memcmp(va, vb, sizeof(double) * n3);
    printf("== Verlet at 10 K switched to Langevin at 600 K: %d steps later T = %.1f K (pass by "
           "pass) / %.1f K (fused): %s\n",
           STEPS, ta, tb, same ? "bitwise identical" : "DIFFERENT");
    if (test_same_bits_device(ctx))
        CHECK(same);
    else
        CHECK(md_rmsd(sys, xa, xb, NULL) <= TOL_FUSED_GPU_RMSD_A);
    CHECK(ta > 40.0); /* the bath heats; Verlet alone would stay near 10 K */
    free(xa);
    free(va);
    free(xb);
    free(vb);
}

/* Non-excluded pairs closer than the cutoff (minimum image, double, pairs
 * within 1e-4 A of it not judged) at x that the list's inner pairs lack. */
static size_t missing_pairs(vkmd_vk_context *ctx, const vkmd_system *sys, const vkmd_neighbor *nl,
                            const double *x, double cutoff, size_t *out_within)
{
    const int32_t n = sys->atom_count;
    vkmd_pair *pairs = NULL;
    size_t np = 0, missing = 0;
    CHECK_OK(vkmd_neighbor_pairs_read(ctx, nl, 1, &pairs, &np));
    const size_t words = ((size_t)n * (size_t)n + 63) / 64;
    uint64_t *bits = calloc(words, sizeof *bits);
    if (!bits) {
        CHECK(0);
        free(pairs);
        return 0;
    }
    for (size_t k = 0; k < np; ++k) {
        const size_t a = (size_t)(pairs[k].i < pairs[k].j ? pairs[k].i : pairs[k].j),
                     b = (size_t)(pairs[k].i < pairs[k].j ? pairs[k].j : pairs[k].i);
        bits[(a * (size_t)n + b) / 64] |= 1ull << ((a * (size_t)n + b) % 64);
    }
    for (int32_t i = 0; i < n; ++i)
        for (int32_t j = i + 1; j < n; ++j) {
            double r2 = 0;
            for (int k = 0; k < 3; ++k) {
                const double L = sys->box.len[k];
                double d = x[3 * j + k] - x[3 * i + k];
                d -= L * floor(d / L + 0.5);
                r2 += d * d;
            }
            if (sqrt(r2) >= cutoff - 1e-4 || vkmd_system_is_excluded(sys, i, j))
                continue;
            ++*out_within;
            const size_t key = (size_t)i * (size_t)n + (size_t)j;
            missing += !(bits[key / 64] >> (key % 64) & 1u);
        }
    free(bits);
    free(pairs);
    return missing;
}

/* The list is never stale: runs `batches` batches of 10 steps and after
 * each compares the force accumulator (the whole force at the batch's end)
 * with a fresh list's forces and the CPU reference at the same positions,
 * and reads the inner list: no pair within the cutoff may be missing. */
static void list_safety(vkmd_vk_context *ctx, const char *label, const vkmd_system *sys,
                        double dt_fs, int batches)
{
    const int32_t n = sys->atom_count;
    /* Split-float positions (vkmd run's default): there the whole-molecule
     * wrap at a batch's end moves atoms by exact box vectors. In fp32 it
     * rounds, and a wrapped water's bonds differ by an ulp (~1e-6 A) from
     * those the forces were computed at: up to 1e-3 kcal/mol/A in its bond
     * terms, an artefact of comparing after the wrap, not of the list. */
    vkmd_ff_settings ff = {
        .cutoff_a = 9.0, .ewald_tolerance = 5e-4, .positions = VKMD_POSITIONS_SPLIT_FLOAT};
    CHECK_OK(vkmd_ff_settings_resolve(&ff, sys));
    const vkmd_md_desc d = {.settings = &ff, .dt_fs = dt_fs, .seed = 3, .max_batch_steps = 10};
    vkmd_md *md = NULL;
    CHECK_OK(vkmd_md_create(ctx, sys, &d, &md));
    /* A second force field at the same settings: a fresh list at every
     * batch's positions, the device's own answer without any history. */
    const vkmd_forcefield_desc fd = {.settings = &ff};
    vkmd_forcefield *fresh = NULL;
    CHECK_OK(vkmd_forcefield_create(ctx, sys, &fd, &fresh));
    double *x = calloc(3 * (size_t)n, sizeof(double)), *fg = calloc(3 * (size_t)n, sizeof(double)),
           *fr = calloc(3 * (size_t)n, sizeof(double)),
           *ff2 = calloc(3 * (size_t)n, sizeof(double));
    if (!md || !fresh || !x || !fg || !fr || !ff2) {
        CHECK(0);
        goto done;
    }
    CHECK_OK(vkmd_md_init_velocities(ctx, md, 300, 9));
    vkmd_neighbor_stats n0, n1;
    CHECK_OK(vkmd_forcefield_neighbor_stats(ctx, vkmd_md_forcefield(md), &n0));
    double worst_rel = 0, worst_max = 0, worst_fresh = 0;
    size_t missing = 0, within = 0;
    for (int b = 0; b < batches; ++b) {
        CHECK_OK(vkmd_md_step(ctx, md, 10));
        const vkmd_forcefield *f = vkmd_md_forcefield(md);
        CHECK_OK(vkmd_forcefield_read_positions(ctx, f, x));
        CHECK_OK(vkmd_forcefield_readback(ctx, f, NULL, fg));
        CHECK_OK(vkmd_forcefield_evaluate(ctx, fresh, x, NULL, ff2));
        vkmd_system at = *sys;
        at.positions = x;
        vkmd_energy e;
        CHECK_OK(vkmd_ref_compute(&at, &ff, &e, fr));
        missing += missing_pairs(ctx, sys, vkmd_forcefield_neighbor(f), x, ff.cutoff_a, &within);
        double d2 = 0, r2 = 0, dmax = 0;
        for (int i = 0; i < n; ++i) {
            double di = 0;
            for (int k = 0; k < 3; ++k) {
                const double dd = fg[3 * i + k] - fr[3 * i + k];
                di += dd * dd;
                r2 += fr[3 * i + k] * fr[3 * i + k];
            }
            d2 += di;
            dmax = fmax(dmax, sqrt(di));
        }
        const double frms = sqrt(r2 / n);
        double e2 = 0;
        for (int i = 0; i < 3 * n; ++i)
            e2 += (fg[i] - ff2[i]) * (fg[i] - ff2[i]);
        worst_fresh = fmax(worst_fresh, sqrt(e2 / r2));
        worst_rel = fmax(worst_rel, sqrt(d2 / r2));
        worst_max = fmax(worst_max, dmax / frms);
    }
    CHECK_OK(vkmd_forcefield_neighbor_stats(ctx, vkmd_md_forcefield(md), &n1));
    const int steps = 10 * batches;
    printf("== list safety, %s, %g fs, %d steps: forces at every 10th step against a fresh "
           "list's at the same positions: worst RMS rel %.3g (limit %g); against the reference: "
           "worst RMS rel %.3g, worst max |dF| / RMS(F) %.3g (limit %g); pairs within the cutoff "
           "missing from the inner list %zu of %zu; rebuilds per 100 steps %.1f, prunes %.1f, "
           "halts %lld, steps repeated %lld\n",
           label, dt_fs, steps, worst_fresh, TOL_FP32_FORCE_RMS, worst_rel, worst_max,
           TOL_FP32_FORCE_MAX, missing, within, 100.0 * (n1.builds - n0.builds) / steps,
           100.0 * (n1.prunes - n0.prunes) / steps, (long long)vkmd_md_halts(md),
           (long long)vkmd_md_repeats(md));
    CHECK(vkmd_md_fused(md));
    /* A stale list misses whole pair terms: the forces differ from a fresh
     * list's at the same positions by far more than rounding (7e-7 here).
     * Against the double reference the RMS is also ~2e-6, but a pair that
     * sits within float rounding of the cutoff (an ion's LJ cut off at
     * 9 A) is in one and not the other at some batches (1e-5 - 2e-5 RMS,
     * 4e-4 max): the reference bounds the largest error only. */
    CHECK(worst_fresh <= TOL_FP32_FORCE_RMS);
    CHECK(worst_max <= TOL_FP32_FORCE_MAX);
    CHECK(missing == 0 && within > 0);
done:
    vkmd_forcefield_destroy(ctx, fresh);
    free(ff2);
    free(x);
    free(fg);
    free(fr);
    vkmd_md_destroy(ctx, md);
}

int main(void)
{
    vkmd_vk_context *ctx = NULL;
    int early = test_vk_open("test_md_fused", &ctx);
    if (early >= 0)
        return early;
    vkmd_system water = {0}, nacl = {0}, villin = {0};
    CHECK_OK(vkmd_system_load("water:216", NULL, &water));
    CHECK_OK(vkmd_system_load(VKMD_TEST_DATA_DIR "/water_nacl.prmtop",
                              VKMD_TEST_DATA_DIR "/water_nacl.inpcrd", &nacl));
    CHECK_OK(vkmd_system_load(VKMD_TEST_DATA_DIR "/villin_vac.prmtop",
                              VKMD_TEST_DATA_DIR "/villin_vac.inpcrd", &villin));
    if (villin.positions) { /* the protein alone in a periodic box */
        double lo[3] = {1e30, 1e30, 1e30};
        for (int32_t i = 0; i < villin.atom_count; ++i)
            for (int k = 0; k < 3; ++k)
                lo[k] = fmin(lo[k], villin.positions[3 * i + k]);
        for (int32_t i = 0; i < villin.atom_count; ++i)
            for (int k = 0; k < 3; ++k)
                villin.positions[3 * i + k] += 5.0 - lo[k];
        villin.box.periodic = 1;
        for (int k = 0; k < 3; ++k)
            villin.box.len[k] = 40.0;
    }
    if (water.positions) {
        compare(ctx, "water:216", &water, 0, VKMD_POSITIONS_SPLIT_FLOAT);
        compare(ctx, "water:216", &water, 1, VKMD_POSITIONS_FP32);
    }
    if (nacl.positions)
        compare(ctx, "water_nacl", &nacl, 0, VKMD_POSITIONS_SPLIT_INT);
    if (villin.positions) {
        compare(ctx, "villin in a 40 A box", &villin, 0, VKMD_POSITIONS_SPLIT_FLOAT);
        compare(ctx, "villin in a 40 A box", &villin, 1, VKMD_POSITIONS_SPLIT_INT);
    }
    if (water.positions)
        switch_check(ctx, &water);
    if (nacl.positions)
        list_safety(ctx, "water_nacl", &nacl, 4.0, 30);
    if (villin.positions) {
        CHECK_OK(vkmd_system_repartition_hydrogen_mass(&villin, 1.5, NULL));
        list_safety(ctx, "villin in a 40 A box, HMR 1.5 amu", &villin, 4.0, 30);
    }
    vkmd_system_destroy(&water);
    vkmd_system_destroy(&nacl);
    vkmd_system_destroy(&villin);
    printf("validation errors: %u\n", vkmd_vk_context_validation_errors(ctx));
    CHECK_OK(vkmd_vk_context_check_validation(ctx));
    vkmd_vk_context_destroy(ctx);
    return test_finish("test_md_fused");
}
