/* vkmd_mdrun: the run controller (run/run.h) for the public API
 * (include/vkmd.h): the public desc mapped onto the engine's run desc, the
 * public reporter called from an engine reporter. */
#include "api/api_context.h"
#include "api/api_dynamics.h"
#include "run/run.h"

#include <stdlib.h>
#include <string.h>

struct vkmd_mdrun {
    vkmd_run *run;
};

vkmd_result vkmd_mdrun_create(const vkmd_mdrun_desc *desc, vkmd_mdrun **out_run)
{
    if (!out_run || !desc)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "vkmd_mdrun_create: %s is NULL",
                         desc ? "out_run" : "desc");
    *out_run = NULL;
    const vkmd_dynamics_desc *dd = &desc->dynamics;
    VKMD_TRY_RETURN(vkmd_api_dynamics_desc_check(dd));
    vkmd_run_desc d = {.system = desc->system,
                       .coords = desc->coords,
                       .ff = {.cutoff_a = dd->cutoff_a, .ewald_tolerance = dd->ewald_tolerance},
                       .precision = {.precision = vkmd_api_precision(dd->precision)},
                       .hmr_mass_amu = desc->hydrogen_mass_amu,
                       .steps = desc->steps,
                       .report_every = desc->report_every,
                       .traj_every = desc->traj_every,
                       .checkpoint_every = desc->checkpoint_every,
                       .equilibrate = desc->equilibrate_steps,
                       .minimize = desc->minimize,
                       .min = {.force_tol = desc->minimize_force_tol,
                               .max_iterations = desc->minimize_max_iterations},
                       .out_dir = desc->out_dir,
                       .restart = desc->restart,
                       .no_file_outputs = desc->no_file_outputs};
    vkmd_api_md_desc(dd, &d.md);
    vkmd_mdrun *r = calloc(1, sizeof *r);
    if (!r)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "vkmd_mdrun_create: out of memory");
    const vkmd_result res = vkmd_run_create(&d, &r->run);
    if (res != VKMD_OK) {
        free(r);
        return res;
    }
    *out_run = r;
    return VKMD_OK;
}

void vkmd_mdrun_destroy(vkmd_mdrun *run)
{
    if (!run)
        return;
    vkmd_run_destroy(run->run);
    free(run);
}

const char *vkmd_mdrun_checkpoint(const vkmd_mdrun *run, int64_t *out_step)
{
    const char *path = NULL;
    const int64_t step = vkmd_run_last_checkpoint(run->run, &path);
    if (out_step)
        *out_step = step;
    return path;
}

/* The engine's reporter calling the public one. */
typedef struct relay {
    const vkmd_mdrun_reporter *r;
    int32_t atom_count;
} relay;

static vkmd_mdrun_state state_of(const relay *y, const vkmd_run_sample *s)
{
    return (vkmd_mdrun_state){.step = s->step,
                              .time_ps = s->time_ps,
                              .potential_kcal_mol = s->report->potential.total,
                              .kinetic_kcal_mol = s->report->kinetic,
                              .total_kcal_mol = s->report->total,
                              .temperature_k = s->report->temperature_k,
                              .ns_per_day = s->ns_per_day,
                              .atom_count = y->atom_count,
                              .positions = s->positions,
                              .velocities = s->velocities,
                              .start = s->start};
}

static vkmd_result relay_report(void *user, const vkmd_run_sample *s)
{
    const relay *y = user;
    const vkmd_mdrun_state st = state_of(y, s);
    return y->r->report ? y->r->report(y->r->user, &st) : VKMD_OK;
}

static vkmd_result relay_frame(void *user, const vkmd_run_sample *s)
{
    const relay *y = user;
    const vkmd_mdrun_state st = state_of(y, s);
    return y->r->frame ? y->r->frame(y->r->user, &st) : VKMD_OK;
}

static vkmd_result relay_checkpoint(void *user, int64_t step, const char *path)
{
    const relay *y = user;
    return y->r->checkpoint ? y->r->checkpoint(y->r->user, step, path) : VKMD_OK;
}

static int relay_stop(void *user)
{
    const relay *y = user;
    return y->r->stop_requested ? y->r->stop_requested(y->r->user) : 0;
}

static void relay_note(void *user, const char *text)
{
    const relay *y = user;
    if (y->r->note)
        y->r->note(y->r->user, text);
}

vkmd_result vkmd_mdrun_execute(vkmd_mdrun *run, vkmd_context *ctx,
                               const vkmd_mdrun_reporter *reporter, vkmd_mdrun_summary *out_summary)
{
    if (out_summary)
        memset(out_summary, 0, sizeof *out_summary);
    if (!run || !ctx)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "vkmd_mdrun_execute: %s is NULL",
                         run ? "ctx" : "run");
    relay y = {.r = reporter, .atom_count = vkmd_run_system(run->run)->atom_count};
    const vkmd_reporter engine_reporter = {.user = &y,
                                           .report = relay_report,
                                           .frame = relay_frame,
                                           .checkpoint = relay_checkpoint,
                                           .stop_requested = relay_stop,
                                           .note = relay_note};
    vkmd_run_summary s;
    const vkmd_result res =
        vkmd_run_execute(run->run, ctx->vk, &engine_reporter, reporter ? 1 : 0, &s);
    if (out_summary)
        *out_summary = (vkmd_mdrun_summary){
            .ended = s.ended == VKMD_RUN_INTERRUPTED ? VKMD_MDRUN_INTERRUPTED : VKMD_MDRUN_COMPLETE,
            .blown_up = s.blown_up,
            .first_step = s.first_step,
            .last_step = s.last_step,
            .last_checkpoint_step = s.last_checkpoint_step,
            .wall_s = s.wall_s,
            .ns_per_day = s.ns_per_day,
            .mean_temperature_k = s.mean_temperature_k,
            .final_total_kcal_mol = s.final.total,
            .energy_drift_kcal_mol_per_ns = s.drift.slope_kcal_mol_per_ns};
    return res;
}
