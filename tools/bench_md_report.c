/* vkmd bench (the MD suite): runs sim/bench_md.h on every system, time
 * step and variant, prints the tables and writes the JSON result file that
 * bench --compare reads (one key per line for the device, one line per
 * run). */
#include "cmd_bench.h"
#include "commands.h"
#include "forces/positions.h"
#include "io/load.h"
#include "sim/bench_md_file.h"
#include "vk/context.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RUNS 32

typedef vkmd_bench_md_result md_run;

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
           VKMD_BENCH_MD_PROFILE_STEPS, "system", "dt_fs");
    for (int p = 0; p < VKMD_MD_PASS_COUNT; ++p)
        printf(" %12s", vkmd_bench_md_pass_key(p));
    printf("\n");
    for (int i = 0; i < n; ++i) {
        printf("%-40s %5g", r[i].system, r[i].dt_fs);
        for (int p = 0; p < VKMD_MD_PASS_COUNT; ++p)
            printf(" %12.1f", r[i].prof.pass_ns[p] * 1e-3);
        printf("\n");
    }
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
                    const vkmd_bench_md_desc bd = {.name = name,
                                                   .dt_fs = dt_list[k],
                                                   .steps = steps,
                                                   .lj = lj[v],
                                                   .lj_min_r_a = lj_min_r[v],
                                                   .positions = positions[v],
                                                   .skin_a = skins->skin_a,
                                                   .outer_skin_a = skins->outer_skin_a};
                    res = vkmd_bench_md_run(ctx, &sys, &bd, &runs[n]);
                }
                if (res == VKMD_OK)
                    ++n;
                vkmd_system_destroy(&sys);
            }
    }
    if (res == VKMD_OK) {
        print_table(ctx, runs, n);
        if (json)
            res = vkmd_bench_md_write(json, &ctx->info, runs, n);
    }
    if (res == VKMD_OK)
        res = vkmd_vk_context_check_validation(ctx);
    const int rc = res == VKMD_OK ? 0 : tool_error("bench", res);
    vkmd_vk_context_destroy(ctx);
    free(runs);
    return rc;
}
