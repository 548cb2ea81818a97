/* The benchmarks' results as the text tables `vkmd bench` prints (see
 * bench_md_file.h, bench_forces.h, bench_uff.h); the result files are
 * bench_md_file.c's and the suites' own writers. */
#include "sim/bench_forces.h"
#include "sim/bench_md_file.h"
#include "sim/bench_uff.h"
#include "forces/positions.h"
#include "forces/precision.h"

#include <stdio.h>
#include <string.h>

/* "<what>: device (vendor, driver name info), Vulkan x.y.z; vkmd version (commit)" */
void vkmd_bench_print_device(FILE *out, const char *what, const vkmd_vk_device_info *d)
{
    fprintf(out, "%s: %s (%s, driver %s %s), Vulkan %u.%u.%u; vkmd %s (%s)\n", what, d->name,
            d->vendor_name, d->driver_name, d->driver_info, VK_API_VERSION_MAJOR(d->api_version),
            VK_API_VERSION_MINOR(d->api_version), VK_API_VERSION_PATCH(d->api_version),
            VKMD_VERSION, VKMD_GIT_COMMIT);
}

void vkmd_bench_forces_write_table(FILE *out, const vkmd_vk_device_info *d,
                                   const vkmd_bench_forces_result *r, int n)
{
    vkmd_bench_print_device(out, "vkmd bench --forces", d);
    fprintf(out, "GPU time per full force evaluation from timestamps, ms; steady = list checked, "
                 "rebuild = list rebuilt, prune = inner list pruned (in the nonbonded pass); LJ: "
                 "pair math precision (fp16 forms beyond R A); "
                 "F rms: force RMS error against the double reference (with --nonbonded all or\n"
                 "--precision all; of the exact positions when positions vary, else of the\n"
                 "float-rounded ones)\n");
    fprintf(out, "%-22s %8s %-11s %-16s %9s %9s %9s %9s", "system", "atoms", "positions", "LJ",
            "F rms", "steady", "rebuild", "wall");
    for (int p = 0; p < VKMD_FF_PASS_COUNT; ++p)
        fprintf(out, " %12s", vkmd_ff_pass_name((vkmd_ff_pass)p));
    fprintf(out, "\n");
    for (int i = 0; i < n; ++i) {
        char lj[32], frms[16];
        if (r[i].lj)
            snprintf(lj, sizeof lj, "%s:%g", vkmd_lj_form_name(r[i].lj), r[i].lj_min_r);
        else
            snprintf(lj, sizeof lj, "fp32");
        if (r[i].force_rms_rel >= 0)
            snprintf(frms, sizeof frms, "%.2e", r[i].force_rms_rel);
        else
            snprintf(frms, sizeof frms, "-");
        fprintf(out, "%-22s %8d %-11s %-16s %9s %9.3f %9.3f %9.3f", r[i].system, r[i].atoms,
                vkmd_positions_mode_name(r[i].positions), lj, frms, r[i].steady_ms, r[i].rebuild_ms,
                r[i].wall_ms);
        for (int p = 0; p < VKMD_FF_PASS_COUNT; ++p)
            fprintf(out, " %12.3f", r[i].steady_pass_ms[p]);
        fprintf(out, "\n%-22s %8s %-11s %-16s %9s %9s %9s %9s", "", "", "", "", "", "", "",
                "rebuild:");
        for (int p = 0; p < VKMD_FF_PASS_COUNT; ++p)
            fprintf(out, " %12.3f", r[i].rebuild_pass_ms[p]);
        fprintf(out, "\n%-22s %8s %-11s %-16s %9s %9s %9.3f %9s", "", "", "", "", "", "",
                r[i].prune_ms, "prune:");
        for (int p = 0; p < VKMD_FF_PASS_COUNT; ++p)
            fprintf(out, " %12.3f", r[i].prune_pass_ms[p]);
        fprintf(out, "\n");
    }
}

void vkmd_bench_md_write_table(FILE *out, const vkmd_vk_device_info *d,
                               const vkmd_bench_md_result *r, int n)
{
    vkmd_bench_print_device(out, "vkmd bench", d);
    fprintf(out,
            "PME, cutoff 9 A, Ewald tolerance 5e-4, H bonds constrained, rigid water, Langevin "
            "middle 300 K 1/ps; 4 fs with HMR 1.5 amu, 2 fs without; disp/st, barr/st: recorded "
            "per step that does not rebuild (%s)\n",
            n > 0 && r[0].prof.gated ? "gated batches: a rebuild adds its dispatches at one step"
                                     : "no conditional rendering: every step records the rebuild");
    fprintf(out, "%-40s %8s %5s %6s %10s %11s %11s %8s %8s %8s\n", "system", "atoms", "dt_fs",
            "steps", "ns/day", "us/step", "gpu_us/step", "disp/st", "barr/st", "subm/st");
    for (int i = 0; i < n; ++i)
        fprintf(out, "%-40s %8d %5g %6d %10.3f %11.1f %11.1f %8.1f %8.1f %8.3f\n", r[i].system,
                r[i].atoms, r[i].dt_fs, r[i].steps, r[i].ns_per_day, r[i].us_per_step,
                r[i].prof.step_ns * 1e-3, r[i].prof.dispatches_per_step,
                r[i].prof.barriers_per_step, r[i].submits_per_step);
    fprintf(out,
            "\nThe work per step: lane pairs the pair kernel computes (64 per inner tile, masked "
            "or not) and unique pairs within the cutoff; neighbour-list rebuilds and prunes per "
            "100 steps, batches the list halted to rebuild at the next, and steps redone "
            "because a rebuild came where none was recorded; skins (A)\n%-40s %5s %12s %12s %7s "
            "%9s %9s %9s %9s %6s %6s\n",
            "system", "dt_fs", "lane_pairs", "pairs<cut", "ratio", "rebuilds", "prunes", "halts",
            "redone", "skin", "outer");
    for (int i = 0; i < n; ++i)
        fprintf(out, "%-40s %5g %12.0f %12.0f %7.2f %9.1f %9.1f %9.1f %9.1f %6.2f %6.2f\n",
                r[i].system, r[i].dt_fs, r[i].lane_pairs, r[i].pairs_within_cutoff,
                r[i].pairs_within_cutoff > 0 ? r[i].lane_pairs / r[i].pairs_within_cutoff : 0.0,
                r[i].rebuilds_per_100, r[i].prunes_per_100, r[i].halts_per_100,
                r[i].repeats_per_100, r[i].skin_a, r[i].outer_skin_a);
    fprintf(out, "\nGPU time per step by pass (us, timestamps over %d profiled steps):\n%-40s %5s",
            VKMD_BENCH_MD_PROFILE_STEPS, "system", "dt_fs");
    for (int p = 0; p < VKMD_MD_PASS_COUNT; ++p)
        fprintf(out, " %12s", vkmd_bench_md_pass_key(p));
    fprintf(out, "\n");
    for (int i = 0; i < n; ++i) {
        fprintf(out, "%-40s %5g", r[i].system, r[i].dt_fs);
        for (int p = 0; p < VKMD_MD_PASS_COUNT; ++p)
            fprintf(out, " %12.1f", r[i].prof.pass_ns[p] * 1e-3);
        fprintf(out, "\n");
    }
}

void vkmd_bench_uff_write_table(FILE *out, const char *molecule, const vkmd_vk_device_info *d,
                                const char *minimizer, const vkmd_bench_uff_result *res, int nrep)
{
    fprintf(out, "vkmd bench --uff: %s on %s (%s %s), vkmd %s (%s)\n%10s %14s %14s %16s\n",
            molecule, d->name, d->driver_name, d->driver_info, VKMD_VERSION, VKMD_GIT_COMMIT,
            "replicas", "gpu_ms/batch", "wall_ms/batch", "evals/s (GPU)");
    for (int k = 0; k < nrep; ++k) {
        fprintf(out, "%10d %14.4f %14.4f %16.1f", res[k].replicas, res[k].gpu_ms_per_batch,
                res[k].wall_ms_per_batch, res[k].evals_per_s);
        if (minimizer)
            fprintf(out,
                    "   relax (%s): %.3f s, %.3f relaxations/s, %d/%d converged, %s median "
                    "%.1f max %d, %.1f evals/s while relaxing",
                    minimizer, res[k].relax_s, res[k].relax_per_s, res[k].relax_converged,
                    res[k].replicas, strcmp(minimizer, "FIRE") ? "iterations" : "steps",
                    res[k].relax_median_steps, res[k].relax_max_steps, res[k].relax_evals_per_s);
        fprintf(out, "\n");
        for (int b = 0; minimizer && b < VKMD_BENCH_UFF_BUCKETS; ++b) {
            const vkmd_bench_uff_bucket *u = &res[k].buckets[b];
            if (u->replicas == 0)
                continue;
            char atoms[32];
            if (b + 1 < VKMD_BENCH_UFF_BUCKETS)
                snprintf(atoms, sizeof atoms, "%d-%d atoms", b * VKMD_BENCH_UFF_BUCKET_SIZE + 1,
                         (b + 1) * VKMD_BENCH_UFF_BUCKET_SIZE);
            else
                snprintf(atoms, sizeof atoms, "%d+ atoms", b * VKMD_BENCH_UFF_BUCKET_SIZE + 1);
            fprintf(out,
                    "%10s   %-12s %3d molecules, %6d replicas, %6d converged, %s median %.1f "
                    "max %d, %lld evaluations\n",
                    "", atoms, u->molecules, u->replicas, u->converged,
                    strcmp(minimizer, "FIRE") ? "iterations" : "steps", u->median_steps,
                    u->max_steps, (long long)u->evaluations);
        }
    }
}
