/* vkmd bench: MD throughput in the settings of OpenMM's published
 * benchmarks (PME, 9 A cutoff, Ewald tolerance 5e-4, bonds to hydrogen
 * constrained, rigid water, Langevin middle at 300 K with 1/ps; 4 fs with
 * hydrogen masses repartitioned to 1.5 amu, or 2 fs without).
 *
 * Per system and time step: the start structure is relaxed by a short FIRE
 * minimisation (the built-in water boxes start with close contacts; 50
 * iterations), velocities drawn at 300 K, two batches of warm-up steps (the
 * driver compiles pipelines on first use), then `steps` timed steps through
 * vkmd_md_step exactly as `vkmd run` takes them (wall clock, including
 * submits and waits), then one profiled batch of 10 steps with GPU
 * timestamps between the passes. Dispatches and barriers per step are
 * counted in a recorded batch; submits per step over the timed steps. The
 * work: neighbour-list rebuilds and prunes per 100 timed steps, the lane
 * pairs the pair kernel computes per step (64 per inner tile, masked or not,
 * at the last prune) beside the unique pairs within the cutoff at the final
 * positions (counted on the host in double, excluded pairs left out). */
#include "bench_md.h"
#include "commands.h"
#include "json.h"
#include "core/log.h"
#include "forces/forcefield.h"
#include "forces/positions.h"
#include "io/load.h"
#include "sim/md.h"
#include "system/hmr.h"
#include "vk/context.h"
#include "vk/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_RUNS      32
#define PROFILE_STEPS 10

typedef struct md_run {
    char system[256];
    int32_t atoms;
    double dt_fs, hmr_amu;
    int32_t steps;
    double wall_s, us_per_step, ns_per_day;
    double submits_per_step;
    vkmd_md_profile prof;
    int32_t min_iterations;
    double min_energy_kcal_mol;
    int lj;          /* VKMD_LJ_* */
    double lj_min_r; /* A */
    int positions;   /* VKMD_POSITIONS_* */
    double skin_a, outer_skin_a;
    double rebuilds_per_100, prunes_per_100;
    double repeats_per_100; /* batches redone after a missed list (fused step) */
    int fused;
    uint32_t inner_tiles, outer_tiles;
    double lane_pairs, pairs_within_cutoff;
} md_run;

/* Unique non-excluded pairs closer than `cutoff` under the minimum image:
 * a cell list with cells of at least the cutoff (all pairs when the box has
 * fewer than 3 per edge). */
static double count_pairs(const vkmd_system *sys, const double *x, double cutoff)
{
    const int32_t n = sys->atom_count;
    const double *len = sys->box.len, c2 = cutoff * cutoff;
    int nc[3], all = 0;
    for (int d = 0; d < 3; ++d) {
        nc[d] = (int)floor(len[d] / cutoff);
        all |= nc[d] < 3;
    }
    double count = 0;
#define MIN_IMAGE_D2(i, j)                                                                         \
    ({                                                                                             \
        double r2_ = 0;                                                                            \
        for (int c_ = 0; c_ < 3; ++c_) {                                                           \
            double d_ = x[3 * (j) + c_] - x[3 * (i) + c_];                                         \
            d_ -= len[c_] * floor(d_ / len[c_] + 0.5);                                             \
            r2_ += d_ * d_;                                                                        \
        }                                                                                          \
        r2_;                                                                                       \
    })
    if (all) {
        for (int32_t i = 0; i < n; ++i)
            for (int32_t j = i + 1; j < n; ++j)
                count += MIN_IMAGE_D2(i, j) < c2;
    } else {
        const size_t cells = (size_t)nc[0] * nc[1] * nc[2];
        int32_t *head = malloc(sizeof *head * cells), *next = malloc(sizeof *next * (size_t)n);
        int *cell = malloc(sizeof *cell * 3 * (size_t)n);
        if (!head || !next || !cell) {
            free(head);
            free(next);
            free(cell);
            return 0;
        }
        for (size_t k = 0; k < cells; ++k)
            head[k] = -1;
        for (int32_t i = 0; i < n; ++i) {
            size_t key = 0;
            for (int d = 0; d < 3; ++d) {
                double w = x[3 * i + d] - len[d] * floor(x[3 * i + d] / len[d]);
                int c = (int)(w / len[d] * nc[d]);
                cell[3 * i + d] = c < 0 ? 0 : c >= nc[d] ? nc[d] - 1 : c;
                key = key * (size_t)nc[d] + (size_t)cell[3 * i + d];
            }
            next[i] = head[key];
            head[key] = i;
        }
        for (int32_t i = 0; i < n; ++i)
            for (int dx = -1; dx <= 1; ++dx)
                for (int dy = -1; dy <= 1; ++dy)
                    for (int dz = -1; dz <= 1; ++dz) {
                        const int c[3] = {(cell[3 * i] + dx + nc[0]) % nc[0],
                                          (cell[3 * i + 1] + dy + nc[1]) % nc[1],
                                          (cell[3 * i + 2] + dz + nc[2]) % nc[2]};
                        const size_t key = ((size_t)c[0] * nc[1] + c[1]) * nc[2] + c[2];
                        for (int32_t j = head[key]; j >= 0; j = next[j])
                            if (j > i)
                                count += MIN_IMAGE_D2(i, j) < c2;
                    }
        free(head);
        free(next);
        free(cell);
    }
    for (int32_t e = 0; e < sys->exclusion_count; ++e)
        count -= MIN_IMAGE_D2(sys->exclusions[e].i, sys->exclusions[e].j) < c2;
#undef MIN_IMAGE_D2
    return count;
}

static const char *pass_key[VKMD_MD_PASS_COUNT] = {
    "neighbor",   "nonbonded", "bonded",      "pme_spread", "pme_fft", "pme_convolve",
    "pme_gather", "integrate", "constraints", "reductions", "step",    "forces"};

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

/* One system at one time step. `sys` may be repartitioned (HMR) here. */
static vkmd_result run_one(vkmd_vk_context *ctx, vkmd_system *sys, const char *name, double dt,
                           int steps, int lj, double lj_min_r, int positions,
                           const bench_md_skins *skins, md_run *out)
{
    double *x = NULL;
    vkmd_result res = VKMD_OK;
    vkmd_md *md = NULL;
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
    const vkmd_md_desc d = {.settings = &ff,
                            .integrator = VKMD_INTEGRATOR_LANGEVIN,
                            .dt_fs = dt,
                            .temperature_k = 300,
                            .friction_per_ps = 1,
                            .seed = 1,
                            .skin_a = skins->skin_a,
                            .outer_skin_a = skins->outer_skin_a};
    out->skin_a = skins->skin_a > 0 ? skins->skin_a : VKMD_NEIGHBOR_SKIN_A;
    out->outer_skin_a = skins->outer_skin_a > 0 ? skins->outer_skin_a : vkmd_md_outer_skin(dt);
    VKMD_TRY(vkmd_md_create(ctx, sys, &d, &md));
    const vkmd_minimize_desc mind = {.max_iterations = 50};
    vkmd_minimize_result mr;
    VKMD_TRY(vkmd_md_minimize(ctx, md, &mind, &mr));
    out->min_iterations = mr.iterations;
    out->min_energy_kcal_mol = mr.energy_final;
    VKMD_TRY(vkmd_md_init_velocities(ctx, md, 300, 1));
    VKMD_TRY(vkmd_md_step(ctx, md, 100)); /* warm-up: two batches */
    out->steps = steps > 0 ? steps : default_steps(sys->atom_count);
    vkmd_neighbor_stats n0, n1;
    VKMD_TRY(vkmd_forcefield_neighbor_stats(ctx, vkmd_md_forcefield(md), &n0));
    const int64_t repeats0 = vkmd_md_repeats(md);
    const vkmd_vk_stats s0 = vkmd_vk_stats_get();
    const double t0 = now_s();
    VKMD_TRY(vkmd_md_step(ctx, md, out->steps));
    out->wall_s = now_s() - t0;
    const vkmd_vk_stats s1 = vkmd_vk_stats_get();
    VKMD_TRY(vkmd_forcefield_neighbor_stats(ctx, vkmd_md_forcefield(md), &n1));
    out->rebuilds_per_100 = 100.0 * (n1.builds - n0.builds) / out->steps;
    out->prunes_per_100 = 100.0 * (n1.prunes - n0.prunes) / out->steps;
    out->repeats_per_100 = 100.0 * (double)(vkmd_md_repeats(md) - repeats0) / out->steps;
    out->fused = vkmd_md_fused(md);
    out->inner_tiles = n1.tiles_inner;
    out->outer_tiles = n1.tiles_outer;
    out->lane_pairs = (double)vkmd_neighbor_lane_pairs(&n1);
    out->us_per_step = out->wall_s * 1e6 / out->steps;
    out->ns_per_day = out->steps * dt * 1e-6 / out->wall_s * 86400.0;
    out->submits_per_step = (double)(s1.submits - s0.submits) / out->steps;
    VKMD_TRY(vkmd_md_profile_steps(ctx, md, PROFILE_STEPS, &out->prof));
    vkmd_md_report rep;
    x = malloc(sizeof *x * 3 * (size_t)sys->atom_count);
    if (!x) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "bench: out of memory");
        goto cleanup;
    }
    VKMD_TRY(vkmd_md_read(ctx, md, &rep, x, NULL));
    if (sys->box.periodic)
        out->pairs_within_cutoff = count_pairs(sys, x, ff.cutoff_a);
    if (!isfinite(rep.total) || rep.temperature_k > 3000)
        res = vkmd_fail(VKMD_ERROR_NUMERIC,
                        "bench: %s at %g fs is unstable (T %.4g K after %lld steps)", name, dt,
                        rep.temperature_k, (long long)rep.step);
cleanup:
    free(x);
    vkmd_md_destroy(ctx, md);
    return res;
}

static void host_cpu(char *out, size_t size)
{
    snprintf(out, size, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    int cores = 0;
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "model name", 10)) {
            ++cores;
            if (cores == 1) {
                const char *c = strchr(line, ':');
                snprintf(out, size, "%.200s", c ? c + 2 : line);
                out[strcspn(out, "\n")] = 0;
            }
        }
    }
    fclose(f);
    if (cores > 0) {
        const size_t len = strlen(out);
        snprintf(out + len, size - len, " (%d logical cores)", cores);
    }
}

static void print_table(const vkmd_vk_context *ctx, const md_run *r, int n)
{
    const vkmd_vk_device_info *d = &ctx->info;
    printf("vkmd bench: %s (%s, driver %s %s), Vulkan %u.%u.%u; vkmd %s (%s)\n"
           "PME, cutoff 9 A, Ewald tolerance 5e-4, H bonds constrained, rigid water, Langevin "
           "middle 300 K 1/ps; 4 fs with HMR 1.5 amu, 2 fs without\n",
           d->name, d->vendor_name, d->driver_name, d->driver_info,
           VK_API_VERSION_MAJOR(d->api_version), VK_API_VERSION_MINOR(d->api_version),
           VK_API_VERSION_PATCH(d->api_version), VKMD_VERSION, VKMD_GIT_COMMIT);
    printf("%-40s %8s %5s %6s %10s %11s %11s %8s %8s %8s\n", "system", "atoms", "dt_fs", "steps",
           "ns/day", "us/step", "gpu_us/step", "disp/st", "barr/st", "subm/st");
    for (int i = 0; i < n; ++i)
        printf("%-40s %8d %5g %6d %10.3f %11.1f %11.1f %8.1f %8.1f %8.3f\n", r[i].system,
               r[i].atoms, r[i].dt_fs, r[i].steps, r[i].ns_per_day, r[i].us_per_step,
               r[i].prof.step_ns * 1e-3, r[i].prof.dispatches_per_step, r[i].prof.barriers_per_step,
               r[i].submits_per_step);
    printf("\nThe work per step: lane pairs the pair kernel computes (64 per inner tile, masked "
           "or not) and unique pairs within the cutoff; neighbour-list rebuilds and prunes per "
           "100 steps, and steps redone because a rebuild fell between recorded ones; skins "
           "(A)\n%-40s %5s %12s %12s %7s %9s %9s %9s %6s %6s\n",
           "system", "dt_fs", "lane_pairs", "pairs<cut", "ratio", "rebuilds", "prunes", "redone",
           "skin", "outer");
    for (int i = 0; i < n; ++i)
        printf("%-40s %5g %12.0f %12.0f %7.2f %9.1f %9.1f %9.1f %6.2f %6.2f\n", r[i].system,
               r[i].dt_fs, r[i].lane_pairs, r[i].pairs_within_cutoff,
               r[i].pairs_within_cutoff > 0 ? r[i].lane_pairs / r[i].pairs_within_cutoff : 0.0,
               r[i].rebuilds_per_100, r[i].prunes_per_100, r[i].repeats_per_100, r[i].skin_a,
               r[i].outer_skin_a);
    printf("\nGPU time per step by pass (us, timestamps over %d profiled steps):\n%-40s %5s",
           PROFILE_STEPS, "system", "dt_fs");
    for (int p = 0; p < VKMD_MD_PASS_COUNT; ++p)
        printf(" %12s", pass_key[p]);
    printf("\n");
    for (int i = 0; i < n; ++i) {
        printf("%-40s %5g", r[i].system, r[i].dt_fs);
        for (int p = 0; p < VKMD_MD_PASS_COUNT; ++p)
            printf(" %12.1f", r[i].prof.pass_ns[p] * 1e-3);
        printf("\n");
    }
}

static vkmd_result write_json(const char *path, const vkmd_vk_context *ctx, const md_run *r, int n)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return vkmd_fail(VKMD_ERROR_IO, "%s: cannot open for writing", path);
    const vkmd_vk_device_info *d = &ctx->info;
    char cpu[256], date[64];
    host_cpu(cpu, sizeof cpu);
    const time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    /* One key per line for the device and one line per run: bench --compare
     * reads these files line by line. */
    fprintf(f, "{\n  \"benchmark\": \"md\",\n  \"vkmd_version\": \"%s\",\n  \"commit\": \"%s\",\n",
            VKMD_VERSION, VKMD_GIT_COMMIT);
    fprintf(f, "  \"date\": \"%s\",\n  \"host_cpu\": ", date);
    json_string(f, cpu);
    fprintf(f, ",\n  \"device_name\": ");
    json_string(f, d->name);
    fprintf(f, ",\n  \"device\": ");
    json_device(f, d);
    fprintf(f, ",\n");
    fprintf(f,
            "  \"settings\": {\"method\": \"PME\", \"cutoff_A\": 9, \"ewald_tolerance\": "
            "0.0005, \"constraints\": \"hbonds\", \"rigid_water\": true, \"integrator\": "
            "\"langevin-middle\", \"temperature_K\": 300, \"friction_per_ps\": 1, "
            "\"minimize_iterations\": 50, \"warmup_steps\": 100, \"profiled_steps\": %d},\n",
            PROFILE_STEPS);
    fprintf(f, "  \"runs\": [\n");
    for (int i = 0; i < n; ++i) {
        fprintf(f, "    {\"system\": ");
        json_string(f, r[i].system);
        fprintf(f, ", \"lj_precision\": \"%s\", \"lj_fp16_min_r_a\": %g",
                r[i].lj == VKMD_LJ_FP16_POWERS ? "fp16-powers"
                : r[i].lj                      ? "fp16"
                                               : "fp32",
                r[i].lj_min_r);
        fprintf(f, ", \"positions\": \"%s\"", vkmd_positions_mode_name(r[i].positions));
        fprintf(f,
                ", \"atoms\": %d, \"dt_fs\": %g, \"hmr_amu\": %g, \"steps\": %d, \"wall_s\": "
                "%.6f, \"ns_per_day\": %.6f, \"us_per_step\": %.3f, \"gpu_us_per_step\": %.3f, "
                "\"dispatches_per_step\": %.3f, \"barriers_per_step\": %.3f, "
                "\"submits_per_step\": %.5f, \"steps_per_command_buffer\": %d, ",
                r[i].atoms, r[i].dt_fs, r[i].hmr_amu, r[i].steps, r[i].wall_s, r[i].ns_per_day,
                r[i].us_per_step, r[i].prof.step_ns * 1e-3, r[i].prof.dispatches_per_step,
                r[i].prof.barriers_per_step, r[i].submits_per_step, r[i].prof.batch_steps);
        fprintf(f,
                "\"lane_pairs_per_step\": %.0f, \"pairs_within_cutoff\": %.0f, "
                "\"inner_tiles\": %u, \"outer_tiles\": %u, \"list_rebuilds_per_100_steps\": %.3f, "
                "\"list_prunes_per_100_steps\": %.3f, \"repeated_steps_per_100_steps\": %.3f, "
                "\"fused_step\": %s, \"skin_A\": %g, \"outer_skin_A\": %g, ",
                r[i].lane_pairs, r[i].pairs_within_cutoff, r[i].inner_tiles, r[i].outer_tiles,
                r[i].rebuilds_per_100, r[i].prunes_per_100, r[i].repeats_per_100,
                r[i].fused ? "true" : "false", r[i].skin_a, r[i].outer_skin_a);
        fprintf(f, "\"passes_us_per_step\": {");
        for (int p = 0; p < VKMD_MD_PASS_COUNT; ++p)
            fprintf(f, "%s\"%s\": %.3f", p ? ", " : "", pass_key[p], r[i].prof.pass_ns[p] * 1e-3);
        fprintf(f, "}}%s\n", i + 1 < n ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
    const int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return vkmd_fail(VKMD_ERROR_IO, "%s: write failed", path);
    return VKMD_OK;
}

int bench_md_main(const char *device, const char *systems, const char *dts, int steps,
                  const int *lj, const double *lj_min_r, const int *positions, int lj_count,
                  const bench_md_skins *skins, const char *json)
{
    vkmd_result res = VKMD_OK;
    vkmd_vk_context *ctx = NULL;
    md_run *runs = calloc(MAX_RUNS, sizeof *runs);
    int n = 0;
    double dt_list[4];
    int ndt = 0;
    if (!runs)
        return tool_error("bench", vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "bench: out of memory"));
    for (const char *p = dts; *p && ndt < 4;) {
        char *end;
        const double v = strtod(p, &end);
        if (end == p || !(v == 2 || v == 4) || (*end && *end != ',')) {
            res =
                vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                          "--dt: expected 4, 2 or 4,2 (fs; 4 fs uses HMR 1.5 amu), got '%s'", dts);
            break;
        }
        dt_list[ndt++] = v;
        p = *end ? end + 1 : end;
    }
    const vkmd_vk_context_desc cd = {.device = device};
    if (res == VKMD_OK)
        res = vkmd_vk_context_create(&cd, &ctx);
    const char *list = systems ? systems : "water:1000,water:8000,water:32000";
    char name[256];
    for (const char *p = list; res == VKMD_OK && *p;) {
        const size_t len = strcspn(p, ",");
        snprintf(name, sizeof name, "%.*s", (int)len, p);
        p += len + (p[len] == ',');
        for (int k = 0; k < ndt && res == VKMD_OK; ++k)
            for (int v = 0; v < lj_count && res == VKMD_OK && n < MAX_RUNS; ++v) {
                vkmd_system sys = {0};
                res = vkmd_system_load(name, NULL, &sys);
                if (res == VKMD_OK) {
                    fprintf(stderr, "vkmd bench: %s (%d atoms) at %g fs...\n", name, sys.atom_count,
                            dt_list[k]);
                    res = run_one(ctx, &sys, name, dt_list[k], steps, lj[v], lj_min_r[v],
                                  positions[v], skins, &runs[n]);
                }
                if (res == VKMD_OK)
                    ++n;
                vkmd_system_destroy(&sys);
            }
    }
    if (res == VKMD_OK) {
        print_table(ctx, runs, n);
        if (json)
            res = write_json(json, ctx, runs, n);
    }
    if (res == VKMD_OK)
        res = vkmd_vk_context_check_validation(ctx);
    const int rc = res == VKMD_OK ? 0 : tool_error("bench", res);
    vkmd_vk_context_destroy(ctx);
    free(runs);
    return rc;
}
