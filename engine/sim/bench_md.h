/* The MD benchmark run behind `vkmd bench`: MD throughput in the settings of
 * OpenMM's published benchmarks (PME, 9 A cutoff, Ewald tolerance 5e-4,
 * bonds to hydrogen constrained, rigid water, Langevin middle at 300 K with
 * 1/ps; 4 fs with hydrogen masses repartitioned to 1.5 amu, or 2 fs
 * without), beside the step it measures.
 *
 * One run: the start structure is relaxed by a short FIRE minimisation (the
 * built-in water boxes start with close contacts; 50 iterations),
 * velocities drawn at 300 K, two batches of warm-up steps (the driver
 * compiles pipelines on first use), then `steps` timed steps through
 * vkmd_md_step exactly as `vkmd run` takes them (wall clock, including
 * submits and waits), then one profiled batch of VKMD_BENCH_MD_PROFILE_STEPS
 * steps with GPU timestamps between the passes. Dispatches and barriers per
 * step are counted in a recorded batch; submits per step over the timed
 * steps. The work: neighbour-list rebuilds and prunes per 100 timed steps,
 * the lane pairs the pair kernel computes per step (64 per inner tile,
 * masked or not, at the last prune) beside the unique pairs within the
 * cutoff at the final positions (maths/pair_count.h). */
#ifndef VKMD_SIM_BENCH_MD_H
#define VKMD_SIM_BENCH_MD_H

#include "sim/md.h"

#define VKMD_BENCH_MD_PROFILE_STEPS  10
#define VKMD_BENCH_MD_WARMUP_STEPS   100
#define VKMD_BENCH_MD_MIN_ITERATIONS 50

typedef struct vkmd_bench_md_desc {
    const char *name;    /* the system's name in the result (required) */
    double dt_fs;        /* time step; above 3 fs hydrogen masses become 1.5 amu */
    int steps;           /* 0: 2e6 / atoms, within 20..1000 */
    int lj;              /* VKMD_LJ_FP32 (0); or an fp16 form (VKMD_LJ_*) ... */
    double lj_min_r_a;   /* 0; ... for pairs beyond this, A */
    int positions;       /* VKMD_POSITIONS_FP32 (0) or another VKMD_POSITIONS_* */
    double skin_a;       /* 0: vkmd_md's default */
    double outer_skin_a; /* 0: vkmd_md's default for dt_fs */
} vkmd_bench_md_desc;

typedef struct vkmd_bench_md_result {
    char system[256]; /* name, with " [positions lj:R]" for non-default variants */
    int32_t atoms;
    double dt_fs, hmr_amu;
    int32_t steps; /* timed */
    double wall_s, us_per_step, ns_per_day;
    double submits_per_step;
    vkmd_md_profile prof; /* the profiled steps */
    int32_t min_iterations;
    double min_energy_kcal_mol;
    int lj;                      /* VKMD_LJ_* */
    double lj_min_r;             /* A */
    int positions;               /* VKMD_POSITIONS_* */
    double skin_a, outer_skin_a; /* as used, A */
    double rebuilds_per_100, prunes_per_100;
    double repeats_per_100; /* steps redone after a rebuild the look ahead missed */
    double halts_per_100;   /* batches the list stopped early (to rebuild at the next) */
    char step_reason[192];  /* vkmd_md_step_reason */
    int fused;
    uint32_t inner_tiles, outer_tiles;
    double lane_pairs, pairs_within_cutoff; /* per step; 0: not counted (no box) */
} vkmd_bench_md_result;

/* One run of `sys` (repartitioned in place at dt_fs > 3) on ctx. Errors:
 * settings, device and memory errors; VKMD_ERROR_NUMERIC when the run is
 * unstable (non-finite or runaway, sim/md_health.h) at its end, with *out
 * filled. */
vkmd_result vkmd_bench_md_run(vkmd_vk_context *ctx, vkmd_system *sys,
                              const vkmd_bench_md_desc *desc, vkmd_bench_md_result *out);

/* Called before each run of a suite: the system's name, atoms and time step (fs). */
typedef void (*vkmd_bench_md_progress_fn)(void *user, const char *name, int32_t atoms,
                                          double dt_fs);

/* A suite: each system of the comma-separated `systems` (vkmd_system_load
 * specs, loaded afresh for each run) with each of the `count` descs[] in
 * turn (their name is the system's), into out[], at most `max` runs
 * (*out_n: the runs made). `progress` (NULL: none) comes before each run.
 * Errors: as vkmd_system_load and vkmd_bench_md_run; the suite stops at the
 * first. A stop request (core/stop.h) ends the suite with VKMD_OK and the
 * runs finished before it; the run it cut short is left out. */
vkmd_result vkmd_bench_md_suite(vkmd_vk_context *ctx, const char *systems,
                                const vkmd_bench_md_desc *descs, int count,
                                vkmd_bench_md_progress_fn progress, void *user,
                                vkmd_bench_md_result *out, int max, int *out_n);

#endif
