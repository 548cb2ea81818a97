/* The force-evaluation benchmark (see bench_forces.h). */
#include "sim/bench_forces.h"
#include "core/json_write.h"
#include "forces/positions.h"
#include "forces/precision.h"
#include "io/load.h"
#include "vk/device_json.h"
#include "vk/command.h"
#include "vk/timer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

/* Submits `cmd` `repeat` times; accumulates GPU pass times and wall time. */
static vkmd_result time_cmd(vkmd_vk_context *ctx, vkmd_forcefield *ff, vkmd_vk_cmd *cmd,
                            const vkmd_vk_timer *timer, int repeat, double *pass_ms,
                            double *total_ms, double *wall_ms)
{
    vkmd_result res = VKMD_OK;
    double ns[VKMD_FF_PASS_COUNT];
    *total_ms = *wall_ms = 0;
    for (int p = 0; p < VKMD_FF_PASS_COUNT; ++p)
        pass_ms[p] = 0;
    for (int it = 0; it < repeat; ++it) {
        double t0 = now_ms();
        VKMD_TRY(vkmd_vk_cmd_submit_wait(ctx, cmd));
        *wall_ms += now_ms() - t0;
        VKMD_TRY(vkmd_forcefield_pass_times(ctx, ff, timer, 0, ns));
        for (int p = 0; p < VKMD_FF_PASS_COUNT; ++p) {
            pass_ms[p] += ns[p] * 1e-6 / repeat;
            *total_ms += ns[p] * 1e-6 / repeat;
        }
    }
    *wall_ms /= repeat;
cleanup:
    return res;
}

vkmd_result vkmd_bench_forces_run(vkmd_vk_context *ctx, const char *spec,
                                  const vkmd_bench_forces_desc *desc, vkmd_bench_forces_result *out)
{
    const int repeat = desc->repeat > 0 ? desc->repeat : 1, lj = desc->lj,
              positions = desc->positions;
    const double lj_min_r = desc->lj_min_r_a;
    const double *ref_forces = desc->ref_forces;
    const vkmd_energy *ref_e = desc->ref_energy;
    vkmd_result res = VKMD_OK;
    vkmd_system sys = {0};
    vkmd_forcefield *ff = NULL;
    vkmd_vk_timer timer = {0};
    vkmd_vk_cmd steady = {0}, rebuild = {0}, prune = {0};
    vkmd_ff_settings settings = {0};
    vkmd_energy e;
    double *forces = NULL;
    memset(out, 0, sizeof *out);
    out->system = spec;
    out->lj = lj;
    out->lj_min_r = lj_min_r;
    out->force_rms_rel = -1;
    out->lj_energy_error = -1;
    VKMD_TRY(vkmd_system_load(spec, NULL, &sys));
    settings.nonbonded_fp16 = lj;
    settings.fp16_min_r_a = lj_min_r;
    settings.positions = positions;
    out->positions = positions;
    VKMD_TRY(vkmd_ff_settings_resolve(&settings, &sys));
    out->atoms = sys.atom_count;
    const vkmd_forcefield_desc fd = {.settings = &settings};
    VKMD_TRY(vkmd_forcefield_create(ctx, &sys, &fd, &ff));
    out->memory_mib = vkmd_forcefield_memory_bytes(ff) / 1048576.0;
    if (ref_forces) {
        forces = malloc(sizeof *forces * 3 * (size_t)sys.atom_count);
        if (!forces) {
            res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "bench: forces of %s", spec);
            goto cleanup;
        }
    }
    VKMD_TRY(vkmd_forcefield_evaluate(ctx, ff, NULL, &e, forces)); /* warm-up, first build */
    if (ref_forces) {
        double num = 0, den = 0;
        for (size_t k = 0; k < 3 * (size_t)sys.atom_count; ++k) {
            num += (forces[k] - ref_forces[k]) * (forces[k] - ref_forces[k]);
            den += ref_forces[k] * ref_forces[k];
        }
        out->force_rms_rel = den > 0 ? sqrt(num / den) : 0;
        out->lj_energy_error = fabs(e.lj_pair - ref_e->lj_pair);
    }
    VKMD_TRY(vkmd_vk_timer_create(ctx, VKMD_FORCEFIELD_TIMER_SLOTS, &timer));

    VKMD_TRY(vkmd_vk_cmd_create(ctx, &steady));
    VKMD_TRY(vkmd_vk_cmd_begin(ctx, &steady));
    vkmd_vk_timer_record_reset(steady.cb, &timer);
    vkmd_forcefield_record(ff, steady.cb, VKMD_FF_RECORD_ENERGY, &timer, 0);
    VKMD_TRY(vkmd_vk_cmd_end(ctx, &steady));

    VKMD_TRY(vkmd_vk_cmd_create(ctx, &rebuild));
    VKMD_TRY(vkmd_vk_cmd_begin(ctx, &rebuild));
    vkmd_vk_timer_record_reset(rebuild.cb, &timer);
    vkmd_forcefield_record_invalidate(ff, rebuild.cb);
    vkmd_forcefield_record(ff, rebuild.cb, VKMD_FF_RECORD_ENERGY, &timer, 0);
    VKMD_TRY(vkmd_vk_cmd_end(ctx, &rebuild));

    VKMD_TRY(vkmd_vk_cmd_create(ctx, &prune));
    VKMD_TRY(vkmd_vk_cmd_begin(ctx, &prune));
    vkmd_vk_timer_record_reset(prune.cb, &timer);
    vkmd_forcefield_record_invalidate_prune(ff, prune.cb);
    vkmd_forcefield_record(ff, prune.cb, VKMD_FF_RECORD_ENERGY, &timer, 0);
    VKMD_TRY(vkmd_vk_cmd_end(ctx, &prune));

    double wall_rebuild, wall_prune;
    VKMD_TRY(time_cmd(ctx, ff, &steady, &timer, repeat, out->steady_pass_ms, &out->steady_ms,
                      &out->wall_ms));
    int rebuild_repeat = repeat / 4 > 0 ? repeat / 4 : 1;
    VKMD_TRY(time_cmd(ctx, ff, &rebuild, &timer, rebuild_repeat, out->rebuild_pass_ms,
                      &out->rebuild_ms, &wall_rebuild));
    VKMD_TRY(time_cmd(ctx, ff, &prune, &timer, rebuild_repeat, out->prune_pass_ms, &out->prune_ms,
                      &wall_prune));
    /* the results are still checked: an overflowing list is an error here too */
    VKMD_TRY(vkmd_forcefield_readback(ctx, ff, &e, NULL));
    VKMD_TRY(vkmd_forcefield_neighbor_builds(ctx, ff, &out->builds));
cleanup:
    vkmd_vk_cmd_destroy(ctx, &steady);
    vkmd_vk_cmd_destroy(ctx, &rebuild);
    vkmd_vk_cmd_destroy(ctx, &prune);
    vkmd_vk_timer_destroy(ctx, &timer);
    vkmd_forcefield_destroy(ctx, ff);
    vkmd_system_destroy(&sys);
    free(forces);
    return res;
}

static void json_passes(FILE *f, const double *ms)
{
    fprintf(f, "{");
    for (int p = 0; p < VKMD_FF_PASS_COUNT; ++p)
        fprintf(f, "%s\"%s\": %.6f", p ? ", " : "", vkmd_ff_pass_name((vkmd_ff_pass)p), ms[p]);
    fprintf(f, "}");
}

vkmd_result vkmd_bench_forces_write(const char *path, const vkmd_vk_device_info *d,
                                    const vkmd_bench_forces_result *r, int n, int repeat)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return vkmd_fail(VKMD_ERROR_IO, "%s: cannot open for writing", path);
    fprintf(f,
            "{\n  \"benchmark\": \"forces\",\n  \"units\": {\"time\": \"ms\", \"memory\": "
            "\"MiB\"},\n  \"vkmd_version\": \"%s\",\n  \"commit\": \"%s\",\n  \"repeat\": %d,\n"
            "  \"device\": ",
            VKMD_VERSION, VKMD_GIT_COMMIT, repeat);
    vkmd_vk_device_write_json(f, d);
    fprintf(f, ",\n  \"systems\": [\n");
    for (int i = 0; i < n; ++i) {
        fprintf(f, "    {\"system\": ");
        vkmd_json_write_string(f, r[i].system);
        fprintf(f, ", \"positions\": \"%s\", \"lj_precision\": \"%s\", \"lj_fp16_min_r_a\": %g",
                vkmd_positions_mode_name(r[i].positions), vkmd_lj_form_name(r[i].lj),
                r[i].lj_min_r);
        if (r[i].force_rms_rel >= 0)
            fprintf(f,
                    ", \"force_rms_rel_vs_reference\": %.6e, "
                    "\"lj_energy_error_kcal_mol\": %.6e",
                    r[i].force_rms_rel, r[i].lj_energy_error);
        fprintf(f,
                ", \"atoms\": %d, \"eval_ms\": %.6f, "
                "\"eval_with_rebuild_ms\": %.6f, \"eval_with_prune_ms\": %.6f, "
                "\"wall_ms_per_eval\": %.6f, \"device_memory_mib\": %.3f,\n     \"passes_ms\": ",
                r[i].atoms, r[i].steady_ms, r[i].rebuild_ms, r[i].prune_ms, r[i].wall_ms,
                r[i].memory_mib);
        json_passes(f, r[i].steady_pass_ms);
        fprintf(f, ",\n     \"passes_with_rebuild_ms\": ");
        json_passes(f, r[i].rebuild_pass_ms);
        fprintf(f, ",\n     \"passes_with_prune_ms\": ");
        json_passes(f, r[i].prune_pass_ms);
        fprintf(f, "}%s\n", i + 1 < n ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
    int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return vkmd_fail(VKMD_ERROR_IO, "%s: write failed", path);
    return VKMD_OK;
}
