/* One MD benchmark run (see bench_md.h). */
#include "sim/bench_md.h"
#include "core/stop.h"
#include "forces/forcefield.h"
#include "forces/positions.h"
#include "io/load.h"
#include "maths/pair_count.h"
#include "sim/md_health.h"
#include "system/hmr.h"
#include "vk/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int default_steps(int32_t atoms)
{
    const int s = (int)(2e6 / (atoms > 0 ? atoms : 1));
    return s < 20 ? 20 : s > 1000 ? 1000 : s;
}

vkmd_result vkmd_bench_md_run(vkmd_vk_context *ctx, vkmd_system *sys,
                              const vkmd_bench_md_desc *desc, vkmd_bench_md_result *out)
{
    double *x = NULL;
    vkmd_result res = VKMD_OK;
    vkmd_md *md = NULL;
    const char *name = desc->name;
    const double dt = desc->dt_fs;
    const int lj = desc->lj, positions = desc->positions;
    const double lj_min_r = desc->lj_min_r_a;
    memset(out, 0, sizeof *out);
    /* Non-default positions and LJ precision are part of the run's name, so
     * that bench --compare keeps the variants apart. */
    char lj_tag[48] = "";
    if (lj)
        snprintf(lj_tag, sizeof lj_tag, "%s:%g", lj == VKMD_LJ_FP16_POWERS ? "fp16-powers" : "fp16",
                 lj_min_r);
    if (lj || positions)
        snprintf(out->system, sizeof out->system, "%.180s [%s%s%s]", name,
                 positions ? vkmd_positions_mode_name(positions) : "", lj && positions ? " " : "",
                 lj_tag);
    else
        snprintf(out->system, sizeof out->system, "%s", name);
    out->lj = lj;
    out->lj_min_r = lj_min_r;
    out->positions = positions;
    out->atoms = sys->atom_count;
    out->dt_fs = dt;
    out->hmr_amu = dt > 3 ? 1.5 : 0;
    if (out->hmr_amu > 0)
        VKMD_TRY(vkmd_system_repartition_hydrogen_mass(sys, out->hmr_amu, NULL));
    vkmd_ff_settings ff = {.cutoff_a = 9.0,
                           .ewald_tolerance = 5e-4,
                           .nonbonded_fp16 = lj,
                           .fp16_min_r_a = lj_min_r,
                           .positions = positions};
    VKMD_TRY(vkmd_ff_settings_resolve(&ff, sys));
    const double temperature_k = 300;
    const vkmd_md_desc d = {.settings = &ff,
                            .integrator = VKMD_INTEGRATOR_LANGEVIN,
                            .dt_fs = dt,
                            .temperature_k = temperature_k,
                            .friction_per_ps = 1,
                            .seed = 1,
                            .skin_a = desc->skin_a,
                            .outer_skin_a = desc->outer_skin_a};
    out->skin_a = desc->skin_a > 0 ? desc->skin_a : VKMD_NEIGHBOR_SKIN_A;
    out->outer_skin_a = desc->outer_skin_a > 0 ? desc->outer_skin_a : vkmd_md_outer_skin(dt);
    VKMD_TRY(vkmd_md_create(ctx, sys, &d, &md));
    const vkmd_minimize_desc mind = {.max_iterations = VKMD_BENCH_MD_MIN_ITERATIONS};
    vkmd_minimize_result mr;
    VKMD_TRY(vkmd_md_minimize(ctx, md, &mind, &mr));
    out->min_iterations = mr.iterations;
    out->min_energy_kcal_mol = mr.energy_final;
    VKMD_TRY(vkmd_md_init_velocities(ctx, md, temperature_k, 1));
    VKMD_TRY(vkmd_md_step(ctx, md, VKMD_BENCH_MD_WARMUP_STEPS)); /* two batches */
    out->steps = desc->steps > 0 ? desc->steps : default_steps(sys->atom_count);
    vkmd_neighbor_stats n0, n1;
    VKMD_TRY(vkmd_forcefield_neighbor_stats(ctx, vkmd_md_forcefield(md), &n0));
    const int64_t repeats0 = vkmd_md_repeats(md), halts0 = vkmd_md_halts(md);
    const vkmd_vk_stats s0 = vkmd_vk_stats_get();
    const double t0 = now_s();
    VKMD_TRY(vkmd_md_step(ctx, md, out->steps));
    out->wall_s = now_s() - t0;
    const vkmd_vk_stats s1 = vkmd_vk_stats_get();
    VKMD_TRY(vkmd_forcefield_neighbor_stats(ctx, vkmd_md_forcefield(md), &n1));
    out->rebuilds_per_100 = 100.0 * (n1.builds - n0.builds) / out->steps;
    out->prunes_per_100 = 100.0 * (n1.prunes - n0.prunes) / out->steps;
    out->repeats_per_100 = 100.0 * (double)(vkmd_md_repeats(md) - repeats0) / out->steps;
    out->halts_per_100 = 100.0 * (double)(vkmd_md_halts(md) - halts0) / out->steps;
    out->fused = vkmd_md_fused(md);
    snprintf(out->step_reason, sizeof out->step_reason, "%s", vkmd_md_step_reason(md));
    out->inner_tiles = n1.tiles_inner;
    out->outer_tiles = n1.tiles_outer;
    out->lane_pairs = (double)vkmd_neighbor_lane_pairs(&n1);
    out->us_per_step = out->wall_s * 1e6 / out->steps;
    out->ns_per_day = out->steps * dt * 1e-6 / out->wall_s * 86400.0;
    out->submits_per_step = (double)(s1.submits - s0.submits) / out->steps;
    VKMD_TRY(vkmd_md_profile_steps(ctx, md, VKMD_BENCH_MD_PROFILE_STEPS, &out->prof));
    vkmd_md_report rep;
    x = malloc(sizeof *x * 3 * (size_t)sys->atom_count);
    if (!x) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "bench: out of memory");
        goto cleanup;
    }
    VKMD_TRY(vkmd_md_read(ctx, md, &rep, x, NULL));
    if (sys->box.periodic)
        out->pairs_within_cutoff = fmax(0.0, vkmd_count_pairs_within(sys, x, ff.cutoff_a));
    char why[160];
    if (vkmd_md_health_check(&rep, temperature_k, why, sizeof why))
        res = vkmd_fail(VKMD_ERROR_NUMERIC,
                        "bench: %s at %g fs is unstable (T %.4g K after %lld steps: %s)", name, dt,
                        rep.temperature_k, (long long)rep.step, why);
cleanup:
    free(x);
    vkmd_md_destroy(ctx, md);
    return res;
}

vkmd_result vkmd_bench_md_suite(vkmd_vk_context *ctx, const char *systems,
                                const vkmd_bench_md_desc *descs, int count,
                                vkmd_bench_md_progress_fn progress, void *user,
                                vkmd_bench_md_result *out, int max, int *out_n)
{
    vkmd_result res = VKMD_OK;
    char name[256];
    *out_n = 0;
    for (const char *p = systems; res == VKMD_OK && *p && !vkmd_stop_requested();) {
        const size_t len = strcspn(p, ",");
        snprintf(name, sizeof name, "%.*s", (int)len, p);
        p += len + (p[len] == ',');
        for (int k = 0; k < count && res == VKMD_OK && *out_n < max && !vkmd_stop_requested();
             ++k) {
            vkmd_system sys = {0};
            res = vkmd_system_load(name, NULL, &sys);
            if (res == VKMD_OK) {
                if (progress)
                    progress(user, name, sys.atom_count, descs[k].dt_fs);
                vkmd_bench_md_desc d = descs[k];
                d.name = name;
                res = vkmd_bench_md_run(ctx, &sys, &d, &out[*out_n]);
            }
            /* A run a stop request cut short measured nothing: left out. */
            if (res == VKMD_ERROR_STOPPED || (res == VKMD_OK && vkmd_stop_requested()))
                res = VKMD_OK;
            else if (res == VKMD_OK)
                ++*out_n;
            vkmd_system_destroy(&sys);
        }
    }
    return res;
}
