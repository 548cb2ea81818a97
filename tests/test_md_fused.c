/* The fused MD step (engine/sim/step.c, shaders/step.comp, forces.comp)
 * against the pass-by-pass step it replaces (engine/sim/md.c with
 * desc.unfused):
 *   - with the neighbour list's rebuild recorded at every step
 *     (rebuild_every 1, so both rebuild at the same steps), 120 steps in
 *     batches of 40 give the same positions and velocities to the bit (on
 *     a CPU device; on a GPU within TOL_FUSED_GPU_RMSD_A, testlib.h), for
 *     Langevin middle and velocity Verlet, on water:216 (18.6 A box: tiles
 *     that need the minimum image pair by pair), water_nacl (ions: atoms in
 *     no constraint unit) and villin in a 40 A box (H clusters), in the
 *     three positions modes;
 *   - with the default rebuild_every (10) the lists are rebuilt at other
 *     steps, the pair coordinates are taken relative to other cluster anchors
 *     and round otherwise, and the trajectories part as any two MD runs whose
 *     forces differ in the last bit: chaotically, by 6e-3 A (RMSD) after
 *     240 fs on the unminimised water lattice, 5e-7 A on villin. The control
 *     is the pass-by-pass run itself with another outer skin (4 A instead of
 *     3.2 A: the same physics rounded otherwise): the fused run stays within
 *     4x the control's RMSD of the pass-by-pass one (+1e-6 A). A missing pair
 *     or a stale list would put it far outside (forces wrong by whole pair
 *     terms, not by rounding);
 *   - a fused step records at most 10 dispatches and 12 barriers, the
 *     pass-by-pass one more;
 *   - the list is never stale at 4 fs (water_nacl; villin with hydrogen
 *     masses 1.5 amu): the forces at the end of every 10-step batch, the
 *     farthest a step gets from a recorded rebuild, hold every pair within
 *     the cutoff in the inner list (brute force in double) and match the
 *     CPU reference at the same positions within the force field's limits;
 *   - no validation error. */
#include "test_md_common.h"
#include "forces/positions.h"
#include "io/load.h"
#include "ref/ref.h"
#include "system/hmr.h"
#include "tolerance.h"

#define STEPS 120
#define BATCH 40

typedef struct run_out {
    double *x, *v;
    vkmd_md_profile prof;
    int fused;
    int64_t repeats;
} run_out;

static void run_md(vkmd_vk_context *ctx, const vkmd_system *sys, int verlet, int positions,
                   int unfused, int rebuild_every, double outer_skin, run_out *out)
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
                            .rebuild_every = rebuild_every,
                            .outer_skin_a = outer_skin,
                            .unfused = unfused ? 1 : -1};
    vkmd_md *md = NULL;
    CHECK_OK(vkmd_md_create(ctx, sys, &d, &md));
    if (!md)
        return;
    CHECK_OK(vkmd_md_init_velocities(ctx, md, 300, 5));
    CHECK_OK(vkmd_md_step(ctx, md, STEPS));
    vkmd_md_report r;
    CHECK_OK(vkmd_md_read(ctx, md, &r, out->x, out->v));
    CHECK_OK(vkmd_md_profile_steps(ctx, md, 2, &out->prof));
    out->fused = vkmd_md_fused(md);
    out->repeats = vkmd_md_repeats(md);
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
    run_out a, b, c, e;
    run_md(ctx, sys, verlet, positions, 1, 0, 0, &a);
    run_md(ctx, sys, verlet, positions, 0, 1, 0, &b);
    run_md(ctx, sys, verlet, positions, 0, 0, 0, &c);
    run_md(ctx, sys, verlet, positions, 1, 0, 4.0, &e);
    if (a.x && b.x && c.x && e.x) {
        int same = !memcmp(a.x, b.x, sizeof(double) * 3 * (size_t)n) &&
                   !memcmp(a.v, b.v, sizeof(double) * 3 * (size_t)n);
        double worst = 0;
        for (int i = 0; i < 3 * n && !same; ++i)
            worst = fmax(worst, fabs(a.x[i] - b.x[i]));
        double rmsd = md_rmsd(sys, a.x, c.x, NULL);
        double control = md_rmsd(sys, a.x, e.x, NULL);
        printf("== %s, %s, %s positions: fused %d; rebuild every step: %s (max |dx| %.3g A); "
               "every 10 steps: RMSD %.3g A (pass by pass, outer skin 4 A: %.3g A); dispatches / "
               "barriers per step: pass by pass "
               "%.1f / %.1f, fused %.1f / %.1f; steps repeated %lld\n",
               label, verlet ? "Verlet" : "Langevin", vkmd_positions_mode_name(positions), b.fused,
               same ? "bitwise identical" : "DIFFERENT", worst, rmsd, control,
               a.prof.dispatches_per_step, a.prof.barriers_per_step, c.prof.dispatches_per_step,
               c.prof.barriers_per_step, (long long)c.repeats);
        CHECK(b.fused && c.fused && !a.fused);
        if (test_same_bits_device(ctx))
            CHECK(same);
        else
            CHECK(md_rmsd(sys, a.x, b.x, NULL) <= TOL_FUSED_GPU_RMSD_A);
        CHECK(rmsd <= TOL_FUSED_RMSD_FACTOR * control + TOL_FUSED_RMSD_FLOOR_A);
        CHECK(c.prof.dispatches_per_step <= 10.0 && c.prof.barriers_per_step <= 12.0);
        CHECK(a.prof.dispatches_per_step > c.prof.dispatches_per_step);
    }
    run_free(&a);
    run_free(&b);
    run_free(&c);
    run_free(&e);
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
                            .rebuild_every = unfused ? 0 : 1,
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

/* The list is never stale: runs `batches` batches of 10 steps (the
 * default rebuild_every, so a batch's end is as far from a recorded rebuild
 * as a step gets) and after each compares the force accumulator (the whole
 * force at the batch's end) with the CPU reference at the same positions.
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
    double *x = calloc(3 * (size_t)n, sizeof(double)), *fg = calloc(3 * (size_t)n, sizeof(double)),
           *fr = calloc(3 * (size_t)n, sizeof(double));
    if (!md || !x || !fg || !fr) {
        CHECK(0);
        goto done;
    }
    CHECK_OK(vkmd_md_init_velocities(ctx, md, 300, 9));
    vkmd_neighbor_stats n0, n1;
    CHECK_OK(vkmd_forcefield_neighbor_stats(ctx, vkmd_md_forcefield(md), &n0));
    double worst_rel = 0, worst_max = 0;
    size_t missing = 0, within = 0;
    for (int b = 0; b < batches; ++b) {
        CHECK_OK(vkmd_md_step(ctx, md, 10));
        const vkmd_forcefield *f = vkmd_md_forcefield(md);
        CHECK_OK(vkmd_forcefield_read_positions(ctx, f, x));
        CHECK_OK(vkmd_forcefield_readback(ctx, f, NULL, fg));
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
        worst_rel = fmax(worst_rel, sqrt(d2 / r2));
        worst_max = fmax(worst_max, dmax / frms);
    }
    CHECK_OK(vkmd_forcefield_neighbor_stats(ctx, vkmd_md_forcefield(md), &n1));
    const int steps = 10 * batches;
    printf("== list safety, %s, %g fs, %d steps: forces at every 10th step against the reference: "
           "worst RMS rel %.3g (limit %g), worst max |dF| / RMS(F) %.3g (limit %g); pairs within "
           "the cutoff missing from the inner list %zu of %zu; rebuilds per 100 steps %.1f, "
           "prunes %.1f, steps repeated %lld\n",
           label, dt_fs, steps, worst_rel, TOL_FP32_FORCE_RMS, worst_max, TOL_FP32_FORCE_MAX,
           missing, within, 100.0 * (n1.builds - n0.builds) / steps,
           100.0 * (n1.prunes - n0.prunes) / steps, (long long)vkmd_md_repeats(md));
    CHECK(vkmd_md_fused(md));
    CHECK(worst_rel <= TOL_FP32_FORCE_RMS);
    CHECK(worst_max <= TOL_FP32_FORCE_MAX);
    CHECK(missing == 0 && within > 0);
done:
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
