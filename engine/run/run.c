/* The run controller (see run.h). */
#include "run/run.h"

#include "core/clock.h"
#include "core/options.h"
#include "core/stop.h"
#include "io/coords.h"
#include "io/checkpoint.h"
#include "io/load.h"
#include "io/outdir.h"
#include "maths/running_stats.h"
#include "run/blowup.h"
#include "run/file_reporters.h"
#include "run/remd.h"
#include "forces/positions.h"
#include "run/run_settings.h"
#include "sim/md_health.h"
#include "vk/fault.h"
#include "system/hmr.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define FILE_REPORTERS 4 /* energy.csv, trajectory, final.pdb, restart */
#define SETTINGS_MAX   8192

struct vkmd_run {
    vkmd_run_desc d; /* resolved */
    vkmd_system sys;
    vkmd_checkpoint ck; /* a restart's checkpoint */
    int restart;
    char ck_path[4096];
    int64_t last_ck; /* step of the last good checkpoint written or read; -1 none */
    vkmd_ff_settings ff;
    vkmd_restraints restraints; /* empty without */
    vkmd_precision_choice choice;
    char settings[SETTINGS_MAX]; /* the checkpoint's record */
    char summary_line[1024];
    vkmd_run_info info;
    vkmd_vk_context *ctx;
    vkmd_md *md;
    int executed;
    /* every reporter: the files first, then the caller's */
    vkmd_reporter *rep;
    int32_t rep_count;
    char partial_path[4200]; /* a stopped minimisation's or equilibration's structure */
    char stop_detail[256];   /* how far it got */
    vkmd_outdir outdir;      /* the lock on d.out_dir */
    char outdir_note[1024];  /* what claiming it did (a stale lock, files moved aside) */
    vkmd_run_stage stages[VKMD_RUN_STAGES_MAX]; /* d.stages points here */
    int32_t stage_now;                          /* the stage applied to md; -1 none yet */
};

vkmd_result vkmd_run_desc_resolve(const vkmd_run_desc *in, vkmd_run_desc *d)
{
    *d = *in;
    if (!d->system || !d->system[0])
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "run: no system given");
    vkmd_md_desc md = d->md;
    md.settings = NULL;
    if (d->stage_count < 0 || d->stage_count > VKMD_RUN_STAGES_MAX ||
        (d->stage_count > 0 && !d->stages))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "run: %d stages (at most %d)", d->stage_count,
                         VKMD_RUN_STAGES_MAX);
    if (d->stage_count == 0)
        d->stages = NULL;
    int64_t stage_sum = 0;
    for (int32_t i = 0; i < d->stage_count; ++i) {
        const vkmd_run_stage *st = &d->stages[i];
        if (st->steps <= 0 || !(st->temperature_k > 0) || !isfinite(st->temperature_k) ||
            !(st->pressure_bar >= 0) || !isfinite(st->pressure_bar) || !(st->restraint_k >= 0) ||
            !isfinite(st->restraint_k))
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "run: stage %d (%s): %lld steps, %g K, %g bar, restraint k %g (steps "
                             "and temperature must be > 0, the others finite and >= 0)",
                             i + 1, st->name, (long long)st->steps, st->temperature_k,
                             st->pressure_bar, st->restraint_k);
        stage_sum += st->steps;
    }
    if (d->stage_count > 0) {
        if (d->steps > 0 && d->steps != stage_sum)
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "run: --steps %lld differs from the stages' %lld steps",
                             (long long)d->steps, (long long)stage_sum);
        d->steps = stage_sum;
        md.temperature_k = d->stages[0].temperature_k;
    }
    VKMD_TRY_RETURN(vkmd_md_desc_resolve(&md, &d->md));
    if (d->steps == 0)
        d->steps = VKMD_RUN_STEPS;
    else if (d->steps < 0)
        d->steps = 0;
    if (d->report_every == 0)
        d->report_every = VKMD_RUN_REPORT_EVERY;
    else if (d->report_every < 0)
        d->report_every = d->steps > 0 ? d->steps : 1;
    if (d->traj_every == 0)
        d->traj_every = d->report_every;
    else if (d->traj_every < 0)
        d->traj_every = -1;
    if (d->checkpoint_every == 0)
        d->checkpoint_every =
            ((VKMD_RUN_CHECKPOINT_AT_MOST + d->report_every - 1) / d->report_every) *
            d->report_every;
    else if (d->checkpoint_every < 0)
        d->checkpoint_every = -1;
    if (d->checkpoint_every > 0 && d->checkpoint_every % d->report_every != 0)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "--checkpoint-every %lld is not a multiple of --report-every %lld "
                         "(checkpoints are written at reports)",
                         (long long)d->checkpoint_every, (long long)d->report_every);
    if (d->equilibrate < 0)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "run: %lld equilibration steps",
                         (long long)d->equilibrate);
    if (d->hmr_mass_amu != 0 && !(d->hmr_mass_amu >= 1.0 && d->hmr_mass_amu <= 10.0))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "run: hydrogen mass %g amu is outside [1, 10] amu", d->hmr_mass_amu);
    if (!d->out_dir || !d->out_dir[0])
        d->out_dir = VKMD_RUN_OUT_DIR;
    if (d->traj_path && !d->traj_path[0])
        d->traj_path = NULL;
    if (d->restart_out && !d->restart_out[0])
        d->restart_out = NULL;
    return VKMD_OK;
}

/* What a run may write into its directory (equilibrate's too): refused or
 * moved aside when an earlier run left them (io/outdir.h). */
static const char *const run_outputs[] = {"energy.csv",      "traj.dcd",       "final.pdb",
                                          "checkpoint.chk",  "minimized.rst7", "equilibration.rst7",
                                          "equilibrate.csv", "final.rst7",     "final.chk"};

vkmd_result vkmd_run_create(const vkmd_run_desc *desc, vkmd_run **out_run)
{
    vkmd_result res = VKMD_OK;
    *out_run = NULL;
    vkmd_run *run = calloc(1, sizeof *run);
    if (!run)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "run: out of memory");
    run->last_ck = -1;
    run->stage_now = -1;
    VKMD_TRY(vkmd_run_desc_resolve(desc, &run->d));
    if (run->d.stage_count > 0) {
        memcpy(run->stages, run->d.stages, sizeof *run->stages * (size_t)run->d.stage_count);
        run->d.stages = run->stages;
    }
    const vkmd_run_desc *d = &run->d;
    VKMD_TRY(vkmd_system_load(d->system, d->coords, &run->sys));
    run->ff = d->ff;
    VKMD_TRY(vkmd_system_check_coordinates(
        &run->sys, run->ff.cutoff_a > 0 ? run->ff.cutoff_a : VKMD_FF_CUTOFF_A,
        d->coords ? d->coords : d->system));
    VKMD_TRY(vkmd_ff_settings_resolve(&run->ff, &run->sys));
    if (d->hmr_mass_amu > 0)
        VKMD_TRY(vkmd_system_repartition_hydrogen_mass(&run->sys, d->hmr_mass_amu, NULL));
    /* From the loaded coordinates, before a restart's replace them: a restart
     * builds the same set, and the settings record checks it did. */
    VKMD_TRY(vkmd_restraint_spec_build(&d->restraints, &run->sys, &run->restraints));
    if (d->restart) {
        vkmd_checkpoint *ck = &run->ck;
        VKMD_TRY(vkmd_checkpoint_read(d->restart, ck));
        VKMD_TRY(vkmd_checkpoint_check_system(ck, &run->sys, d->restart));
        if (ck->step > d->steps) {
            res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                            "%s: the checkpoint is at step %lld, beyond --steps %lld", d->restart,
                            (long long)ck->step, (long long)d->steps);
            goto cleanup;
        }
        if (ck->step % d->report_every != 0) {
            res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                            "%s: the checkpoint's step %lld is not a report step", d->restart,
                            (long long)ck->step);
            goto cleanup;
        }
        /* The checkpoint's positions are the state; the coordinates file only
         * supplied the topology's check above. */
        memcpy(run->sys.positions, ck->positions, sizeof(double) * 3 * (size_t)run->sys.atom_count);
        run->restart = 1;
        run->last_ck = ck->step;
    }
    VKMD_TRY(vkmd_outdir_claim(d->out_dir, run_outputs, VKMD_ARRAY_LEN(run_outputs),
                               d->restart     ? VKMD_OUTDIR_CONTINUE
                               : d->overwrite ? VKMD_OUTDIR_OVERWRITE
                                              : VKMD_OUTDIR_FRESH,
                               &run->outdir, run->outdir_note, sizeof run->outdir_note));
    snprintf(run->ck_path, sizeof run->ck_path, "%s/checkpoint.chk", d->out_dir);
    *out_run = run;
    return VKMD_OK;
cleanup:
    vkmd_run_destroy(run);
    return res;
}

void vkmd_run_destroy(vkmd_run *run)
{
    if (!run)
        return;
    if (run->ctx)
        vkmd_md_destroy(run->ctx, run->md);
    free(run->rep);
    vkmd_outdir_release(&run->outdir);
    vkmd_checkpoint_free(&run->ck);
    vkmd_restraints_destroy(&run->restraints);
    vkmd_system_destroy(&run->sys);
    free(run);
}

const vkmd_system *vkmd_run_system(const vkmd_run *run)
{
    return &run->sys;
}

const vkmd_run_desc *vkmd_run_desc_get(const vkmd_run *run)
{
    return &run->d;
}

int64_t vkmd_run_last_checkpoint(const vkmd_run *run, const char **out_path)
{
    if (out_path)
        *out_path = run->ck_path;
    return run->last_ck;
}

const vkmd_precision_choice *vkmd_run_precision(const vkmd_run *run)
{
    return &run->choice;
}

vkmd_md *vkmd_run_md(vkmd_run *run)
{
    return run->md;
}

int32_t vkmd_run_stage_at(const vkmd_run_desc *d, int64_t step)
{
    if (d->stage_count <= 0)
        return -1;
    int64_t end = 0;
    for (int32_t i = 0; i < d->stage_count; ++i) {
        end += d->stages[i].steps;
        if (step < end)
            return i;
    }
    return d->stage_count - 1;
}

/* The last step of the stage that holds `step`: pieces of steps end there. */
static int64_t stage_end(const vkmd_run_desc *d, int64_t step)
{
    int64_t end = 0;
    for (int32_t i = 0; i < d->stage_count; ++i) {
        end += d->stages[i].steps;
        if (step < end)
            return end;
    }
    return end;
}

/* ---- helpers of the loop ------------------------------------------------ */

static void note(const vkmd_run *run, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    for (int32_t k = 0; k < run->rep_count; ++k)
        if (run->rep[k].note)
            run->rep[k].note(run->rep[k].user, text);
}

static int stop_requested(const vkmd_run *run)
{
    int stop = vkmd_stop_requested() != 0;
    for (int32_t k = 0; k < run->rep_count; ++k)
        if (run->rep[k].stop_requested && run->rep[k].stop_requested(run->rep[k].user))
            stop = 1;
    return stop;
}

/* The box of a report's state (a barostat changes it; vacuum: the system's):
 * the MD's whole cell, triclinic or not. */
static vkmd_box report_box(const vkmd_system *sys, const vkmd_md_report *r)
{
    vkmd_box b = sys->box;
    if (b.periodic && r->cell.periodic)
        b = r->cell;
    else if (b.periodic)
        vkmd_box_set_rect(&b, r->box);
    return b;
}

/* The MD's cell set to a checkpoint's (io/checkpoint.h: a triclinic cell
 * exactly as the run that wrote it held it) when it differs. */
static vkmd_result restore_checkpoint_box(vkmd_vk_context *ctx, vkmd_md *md,
                                          const vkmd_checkpoint *ck)
{
    vkmd_box now, saved;
    vkmd_md_get_cell(md, &now);
    vkmd_checkpoint_box(ck, &saved);
    const int same = saved.triclinic ? !memcmp(now.vec, saved.vec, sizeof now.vec)
                                     : now.len[0] == saved.len[0] && now.len[1] == saved.len[1] &&
                                           now.len[2] == saved.len[2];
    return same ? VKMD_OK : vkmd_md_set_cell_state(ctx, md, &saved, NULL);
}

/* A report step's state as a checkpoint holds it: taken at every report
 * step, so that a stop between reports checkpoints the last one (a restart
 * continues bitwise only from a report step, where every run re-uploads its
 * state). */
typedef struct run_snapshot {
    int64_t step, md_step; /* -1: none */
    double *x, *v;         /* owned by the loop */
    double box[3];
    vkmd_box cell;
    vkmd_barostat_stats bs;
} run_snapshot;

static void snapshot_take(const vkmd_run *run, run_snapshot *p, int64_t step, int64_t md_step,
                          const double *x, const double *v)
{
    const size_t n3 = 3 * (size_t)run->sys.atom_count;
    p->step = step;
    p->md_step = md_step;
    memcpy(p->x, x, sizeof *x * n3);
    memcpy(p->v, v, sizeof *v * n3);
    vkmd_md_get_box(run->md, p->box);
    vkmd_md_get_cell(run->md, &p->cell);
    vkmd_md_barostat_stats(run->md, &p->bs);
}

static vkmd_result write_snapshot(vkmd_run *run, const run_snapshot *p);

static vkmd_result write_checkpoint(vkmd_run *run, int64_t step, int64_t md_step, double *x,
                                    double *v)
{
    run_snapshot p = {.step = step, .md_step = md_step, .x = x, .v = v};
    vkmd_md_get_box(run->md, p.box); /* the state's box: x and v are this box's */
    vkmd_md_get_cell(run->md, &p.cell);
    vkmd_md_barostat_stats(run->md, &p.bs);
    return write_snapshot(run, &p);
}

static vkmd_result write_snapshot(vkmd_run *run, const run_snapshot *p)
{
    const vkmd_system *sys = &run->sys;
    const int64_t step = p->step;
    const double *box = p->box;
    const vkmd_barostat_stats bs = p->bs;
    vkmd_checkpoint c = {.atom_count = sys->atom_count,
                         .periodic = sys->box.periodic,
                         .fingerprint = vkmd_checkpoint_fingerprint(sys),
                         .step = step,
                         .md_step = p->md_step,
                         .time_ps = (double)step * run->d.md.dt_fs * 1e-3,
                         .box = {box[0], box[1], box[2]},
                         .seed = run->d.md.seed,
                         .settings = run->settings,
                         .positions = p->x,
                         .velocities = p->v,
                         .barostat = bs.attempts > 0 || bs.state.step_a3[0] > 0 ||
                                     bs.state.step_a3[1] > 0 || bs.state.step_a3[2] > 0};
    if (p->cell.periodic && p->cell.triclinic) /* version 3: the cell bit for bit */
        vkmd_checkpoint_set_box(&c, &p->cell);
    for (int k = 0; k < 3; ++k) {
        c.baro_step_a3[k] = bs.state.step_a3[k];
        c.baro_attempts[k] = bs.state.attempts[k];
        c.baro_accepted[k] = bs.state.accepted[k];
        c.baro_window_attempts[k] = bs.state.window_attempts[k];
        c.baro_window_accepted[k] = bs.state.window_accepted[k];
    }
    VKMD_TRY_RETURN(vkmd_checkpoint_write(run->ck_path, &c));
    run->last_ck = step;
    for (int32_t k = 0; k < run->rep_count; ++k)
        if (run->rep[k].checkpoint)
            VKMD_TRY_RETURN(run->rep[k].checkpoint(run->rep[k].user, step, run->ck_path));
    return VKMD_OK;
}

static int finite_array(const double *a, size_t n)
{
    for (size_t k = 0; k < n; ++k)
        if (!isfinite(a[k]))
            return 0;
    return 1;
}

/* The precision request, taking a restart's choice when it asks for auto. */
static vkmd_result resolve_precision(vkmd_run *run)
{
    vkmd_precision_request req = run->d.precision;
    const int from_ck = run->restart ? vkmd_run_settings_precision(&run->ck, &req, &req) : 0;
    if (from_ck < 0)
        return VKMD_ERROR_INVALID_ARGUMENT;
    VKMD_TRY_RETURN(vkmd_precision_resolve(&req, run->ctx, &run->sys, &run->ff, &run->choice));
    if (from_ck) {
        run->choice.asked = VKMD_PRECISION_AUTO;
        snprintf(run->choice.reason, sizeof run->choice.reason, "restart: as the checkpoint");
    }
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "run: out of memory");
    vkmd_precision_print(mem, &run->choice);
    fclose(mem);
    if (len > 0 && text[len - 1] == '\n')
        text[len - 1] = 0;
    note(run, "%s", text);
    free(text);
    return VKMD_OK;
}

/* A stop during the setup (core/stop.h): the state reached goes to
 * DIR/NAME.rst7 (positions, velocities when `with_v`, box) for --coords, and
 * the run ends with VKMD_ERROR_STOPPED naming it. */
static vkmd_result stopped_in_setup(vkmd_run *run, vkmd_run_summary *s, const char *phase,
                                    const char *name, int with_v, const char *how)
{
    const size_t n3 = 3 * (size_t)run->sys.atom_count;
    vkmd_system view = run->sys;
    view.positions = malloc(sizeof(double) * n3);
    view.velocities = with_v ? malloc(sizeof(double) * n3) : NULL;
    vkmd_result res = VKMD_OK;
    if (!view.positions || (with_v && !view.velocities)) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "run: out of memory");
        goto cleanup;
    }
    VKMD_TRY(vkmd_md_read(run->ctx, run->md, NULL, view.positions, view.velocities));
    double box[3];
    vkmd_md_get_box(run->md, box);
    if (view.box.periodic && !view.box.triclinic)
        vkmd_box_set_rect(&view.box, box);
    snprintf(run->partial_path, sizeof run->partial_path, "%s/%s.rst7", run->d.out_dir, name);
    VKMD_TRY(vkmd_coords_write_rst7(run->partial_path, &view, 0.0));
    s->stopped_in = phase;
    s->partial_path = run->partial_path;
    s->stop_why = vkmd_stop_requested();
    snprintf(run->stop_detail, sizeof run->stop_detail, "%s", how);
    s->stop_detail = run->stop_detail;
    res = vkmd_fail(VKMD_ERROR_STOPPED, "%s stopped by %s %s; its state is %s", phase,
                    vkmd_stop_name(s->stop_why), how, run->partial_path);
cleanup:
    free(view.positions);
    free(view.velocities);
    return res;
}

/* Minimisation, velocities and equilibration of a fresh run; a restart's
 * state. Returns the md step the run's step 0 (or the checkpoint's step)
 * corresponds to, minus that step: the base. */
static vkmd_result prepare_state(vkmd_run *run, vkmd_run_summary *s, int64_t *out_base)
{
    const vkmd_run_desc *d = &run->d;
    vkmd_vk_context *ctx = run->ctx;
    if (run->restart) {
        if (d->minimize || d->equilibrate > 0)
            note(run, "restart: --minimize and --equilibrate were done by the run that wrote the "
                      "checkpoint; skipped");
        const vkmd_checkpoint *ck = &run->ck;
        if (ck->periodic) /* a barostat's box */
            VKMD_TRY_RETURN(restore_checkpoint_box(ctx, run->md, ck));
        if (ck->barostat) {
            vkmd_barostat_state bs;
            memset(&bs, 0, sizeof bs);
            for (int k = 0; k < 3; ++k) {
                bs.step_a3[k] = ck->baro_step_a3[k];
                bs.attempts[k] = ck->baro_attempts[k];
                bs.accepted[k] = ck->baro_accepted[k];
                bs.window_attempts[k] = ck->baro_window_attempts[k];
                bs.window_accepted[k] = ck->baro_window_accepted[k];
            }
            VKMD_TRY_RETURN(vkmd_md_set_barostat_state(run->md, &bs));
        }
        VKMD_TRY_RETURN(vkmd_md_set_state(ctx, run->md, run->ck.positions, run->ck.velocities));
        VKMD_TRY_RETURN(vkmd_md_set_step(ctx, run->md, run->ck.md_step));
        *out_base = run->ck.md_step - run->ck.step;
        note(run, "continuing from %s at step %lld (%.4f ps)", d->restart, (long long)run->ck.step,
             run->ck.time_ps);
        return VKMD_OK;
    }
    if (d->minimize) {
        vkmd_minimize_result *m = &s->minimize;
        VKMD_TRY_RETURN(vkmd_md_minimize(ctx, run->md, &d->min, m));
        s->minimized = 1;
        if (m->stopped) {
            char how[160];
            snprintf(how, sizeof how,
                     "after %d iterations, not converged (max force %.3g kcal/mol/A)",
                     m->iterations, m->max_force);
            return stopped_in_setup(run, s, "minimisation", "minimized", 0, how);
        }
        note(run, "minimised in %d iterations: %.4f -> %.4f kcal/mol, max force %.3g kcal/mol/A%s",
             m->iterations, m->energy_initial, m->energy_final, m->max_force,
             m->converged ? "" : " (not converged)");
    }
    if (!run->sys.velocities)
        VKMD_TRY_RETURN(vkmd_md_init_velocities(ctx, run->md, d->md.temperature_k, d->md.seed));
    if (d->equilibrate > 0) {
        /* Langevin at the bath temperature, then back to the run's integrator. */
        VKMD_TRY_RETURN(vkmd_md_set_integrator(run->md, VKMD_INTEGRATOR_LANGEVIN));
        const int64_t from = vkmd_md_steps_done(run->md);
        const vkmd_result r = vkmd_md_step(ctx, run->md, d->equilibrate);
        if (r == VKMD_ERROR_STOPPED) {
            char how[160];
            snprintf(how, sizeof how, "at its step %lld of %lld",
                     (long long)(vkmd_md_steps_done(run->md) - from), (long long)d->equilibrate);
            return stopped_in_setup(run, s, "equilibration", "equilibration", 1, how);
        }
        VKMD_TRY_RETURN(r);
        VKMD_TRY_RETURN(vkmd_md_set_integrator(run->md, d->md.integrator));
        note(run, "equilibrated %lld Langevin steps at %.1f K", (long long)d->equilibrate,
             d->md.temperature_k);
    }
    *out_base = vkmd_md_steps_done(run->md);
    return VKMD_OK;
}

static void summary_line(vkmd_run *run)
{
    const vkmd_run_desc *d = &run->d;
    const vkmd_ff_settings *ff = &run->ff;
    snprintf(run->summary_line, sizeof run->summary_line,
             "constraints %s (tolerance %g), rigid water %s, cutoff %g A, PME grid %dx%dx%d, "
             "Ewald tolerance %g, precision %s, %s positions, LJ %s beyond %g A, seed %llu, "
             "device %s",
             d->md.constraints == VKMD_CONSTRAINTS_NONE ? "none" : "hbonds", d->md.constraint_tol,
             d->md.flexible_water ? "no" : "yes", ff->cutoff_a, ff->pme_grid[0], ff->pme_grid[1],
             ff->pme_grid[2], ff->ewald_tolerance, vkmd_precision_name(run->choice.chosen),
             vkmd_positions_mode_name(ff->positions), vkmd_lj_form_name(ff->nonbonded_fp16),
             ff->fp16_min_r_a, (unsigned long long)d->md.seed, run->ctx->info.name);
    if (ff->gb.model != VKMD_GB_NONE) {
        const size_t len = strlen(run->summary_line);
        snprintf(run->summary_line + len, sizeof run->summary_line - len,
                 ", implicit solvent %s (salt %g M, nonpolar %s, GB pairs %s)",
                 vkmd_gb_model_name(ff->gb.model), ff->gb.salt_molar,
                 ff->gb.nonpolar ? "ACE" : "none",
                 ff->gb.cutoff_a > 0 ? "within the cutoff" : "all");
    }
}

/* Applies the settings of the stage that the steps after `step` belong to,
 * when it is not the one applied. */
static vkmd_result apply_stage(vkmd_run *run, int64_t step)
{
    const int32_t i = vkmd_run_stage_at(&run->d, step);
    if (i < 0 || i == run->stage_now)
        return VKMD_OK;
    const vkmd_run_stage *st = &run->d.stages[i];
    VKMD_TRY_RETURN(vkmd_md_set_temperature(run->md, st->temperature_k));
    VKMD_TRY_RETURN(vkmd_md_set_pressure(run->md, st->pressure_bar));
    if (run->restraints.count > 0)
        VKMD_TRY_RETURN(vkmd_md_set_restraint_k(run->ctx, run->md, st->restraint_k));
    else if (st->restraint_k > 0)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "run: stage %d (%s) sets restraint k %g but the run restrains no atom",
                         i + 1, st->name, st->restraint_k);
    run->stage_now = i;
    note(run, "stage %d/%d at step %lld: %s (%lld steps, %.1f K%s)", i + 1, run->d.stage_count,
         (long long)step, st->name, (long long)st->steps, st->temperature_k,
         st->pressure_bar > 0 ? ", constant pressure" : ", constant volume");
    return VKMD_OK;
}

/* The sample's stage: that of the steps that led to `step`. */
static int32_t sample_stage(const vkmd_run *run, int64_t step)
{
    return vkmd_run_stage_at(&run->d, step > 0 ? step - 1 : 0);
}

/* The reporters' `retemper` at a report step: a new bath temperature with
 * the velocities (v and the good state's copy) scaled by sqrt(T_new / T_old).
 * *inout_runaway_k, the runaway check's temperature, follows the hottest
 * bath. */
static vkmd_result retemper(vkmd_run *run, const vkmd_run_sample *sample, double *v, double *good_v,
                            size_t n3, double *inout_runaway_k)
{
    const double t_old = vkmd_md_temperature(run->md);
    double t_new = t_old;
    for (int32_t k = 0; k < run->rep_count; ++k)
        if (run->rep[k].retemper)
            VKMD_TRY_RETURN(run->rep[k].retemper(run->rep[k].user, sample, &t_new));
    if (t_new == t_old)
        return VKMD_OK;
    if (!(t_new > 0) || !isfinite(t_new) || !(t_old > 0))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "run: bath change at step %lld from %g K to %g K (both must be > 0)",
                         (long long)sample->step, t_old, t_new);
    const double f = vkmd_remd_velocity_scale(t_old, t_new);
    for (size_t i = 0; i < n3; ++i) {
        v[i] *= f;
        good_v[i] *= f;
    }
    *inout_runaway_k = fmax(*inout_runaway_k, t_new);
    return vkmd_md_set_temperature(run->md, t_new);
}

/* ---- the run ------------------------------------------------------------ */

/* Where the summary's temperature starts (ps from the run's step 0): a
 * Langevin bath brings the kinetic energy to its temperature in about
 * 1/friction (1 ps at the default 1/ps; --equilibrate steps count), so the
 * reports before then are left out, but never more than the first half of
 * the run. A Verlet run has no bath: every report counts. */
static double temperature_from_ps(const vkmd_run_desc *d, int64_t first_step)
{
    const double ps_per_step = d->md.dt_fs * 1e-3, t0 = (double)first_step * ps_per_step;
    if (d->md.integrator != VKMD_INTEGRATOR_LANGEVIN)
        return t0;
    const double settle = 1.0 / d->md.friction_per_ps - (double)d->equilibrate * ps_per_step;
    return fmin(fmax(settle, t0), 0.5 * (t0 + (double)d->steps * ps_per_step));
}

static vkmd_result execute(vkmd_run *run, vkmd_run_summary *s)
{
    vkmd_result res = VKMD_OK;
    const vkmd_run_desc *d = &run->d;
    vkmd_vk_context *ctx = run->ctx;
    const vkmd_system *sys = &run->sys;
    const double dt = d->md.dt_fs;
    double temp = d->md.temperature_k; /* the runaway check's: the hottest bath */
    for (int32_t i = 0; i < d->stage_count; ++i)
        temp = fmax(temp, d->stages[i].temperature_k);
    const int64_t steps = d->steps, report_every = d->report_every, traj_every = d->traj_every;
    double *x = NULL, *v = NULL, *good_x = NULL, *good_v = NULL, *tt = NULL, *et = NULL;
    run_snapshot snap = {.step = -1};
    char fault[1024] = "", why[160] = "";

    if (run->outdir_note[0])
        note(run, "%s: %s", d->out_dir, run->outdir_note);
    VKMD_TRY(resolve_precision(run));
    vkmd_run_settings_text(d, &run->ff, &run->choice, run->settings, sizeof run->settings);
    if (vkmd_restraint_spec_active(&d->restraints)) {
        const size_t used = strlen(run->settings);
        vkmd_run_settings_restraints(&d->restraints, &run->restraints, run->settings + used,
                                     sizeof run->settings - used);
    }
    if (run->restart)
        VKMD_TRY(vkmd_run_settings_check(&run->ck, run->settings, d->restart));
    vkmd_md_desc mdd = d->md;
    mdd.settings = &run->ff;
    mdd.restraints = run->restraints.count > 0 ? &run->restraints : NULL;
    VKMD_TRY(vkmd_md_create(ctx, sys, &mdd, &run->md));
    note(run, "step: %s; %s", vkmd_md_step_reason(run->md),
         vkmd_md_gated(run->md) ? "batches stop themselves where the neighbour list rebuilds"
                                : "every step records the neighbour list's rebuild");
    /* Refused before the first step when the buffers do not fit the device. */
    char what[64];
    snprintf(what, sizeof what, "the run of %d atoms", sys->atom_count);
    VKMD_TRY(vkmd_vk_memory_check(ctx, what));
    int64_t base = 0;
    res = prepare_state(run, s, &base);
    if (res == VKMD_ERROR_STOPPED && s->stopped_in) { /* nothing of dynamics to checkpoint */
        s->ended = VKMD_RUN_INTERRUPTED;
        s->last_step = -1;
        res = VKMD_OK;
        goto cleanup;
    }
    if (res != VKMD_OK)
        goto cleanup;

    const size_t n3 = 3 * (size_t)sys->atom_count;
    const int64_t nrep = steps / report_every + 2;
    x = malloc(sizeof *x * n3);
    v = malloc(sizeof *v * n3);
    good_x = malloc(sizeof *good_x * n3);
    good_v = malloc(sizeof *good_v * n3);
    tt = malloc(sizeof *tt * (size_t)nrep);
    et = malloc(sizeof *et * (size_t)nrep);
    snap.x = malloc(sizeof *snap.x * n3);
    snap.v = malloc(sizeof *snap.v * n3);
    if (!x || !v || !good_x || !good_v || !tt || !et || !snap.x || !snap.v) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "run: out of memory");
        goto cleanup;
    }
    summary_line(run);
    run->info = (vkmd_run_info){.desc = d,
                                .system = sys,
                                .ctx = ctx,
                                .md = run->md,
                                .precision = &run->choice,
                                .first_step = run->restart ? run->ck.step : 0,
                                .restart = run->restart,
                                .dof = vkmd_md_dof(run->md),
                                .summary = run->summary_line};
    for (int32_t k = 0; k < run->rep_count; ++k)
        if (run->rep[k].begin)
            VKMD_TRY(run->rep[k].begin(run->rep[k].user, &run->info));

    /* The start: the first good state, a fresh run's step-0 row and first
     * checkpoint (a run that stops early always leaves one to continue). */
    vkmd_md_report rep;
    VKMD_TRY(vkmd_md_read(ctx, run->md, &rep, good_x, good_v));
    if (vkmd_md_health_check(&rep, temp, why, sizeof why) || !finite_array(good_x, n3)) {
        res =
            vkmd_fail(VKMD_ERROR_NUMERIC,
                      "the starting state is not usable: %s (check the input, or --minimize)", why);
        goto cleanup;
    }
    s->dof = run->info.dof;
    int64_t good_md_step = vkmd_md_steps_done(run->md);
    vkmd_box good_box; /* the good state's box (a barostat moves it) */
    vkmd_md_get_cell(run->md, &good_box);
    int64_t done = run->info.first_step, last_report = done;
    s->first_step = done;
    vkmd_box box_now = report_box(sys, &rep);
    vkmd_run_sample sample = {.step = done,
                              .time_ps = (double)done * dt * 1e-3,
                              .report = &rep,
                              .positions = good_x,
                              .velocities = good_v,
                              .box = &box_now,
                              .stage = sample_stage(run, done),
                              .start = 1};
    if (!run->restart) {
        rep.step -= base;
        for (int32_t k = 0; k < run->rep_count; ++k)
            if (run->rep[k].report)
                VKMD_TRY(run->rep[k].report(run->rep[k].user, &sample));
        VKMD_TRY(write_checkpoint(run, 0, good_md_step, good_x, good_v));
        VKMD_TRY(vkmd_md_set_state(ctx, run->md, good_x, good_v));
    } else {
        for (int32_t k = 0; k < run->rep_count; ++k)
            if (run->rep[k].report)
                VKMD_TRY(run->rep[k].report(run->rep[k].user, &sample));
    }
    snapshot_take(run, &snap, done, good_md_step, good_x, good_v);

    /* The run's clock leaves out pipeline compilation, which a CPU device
     * does at a pipeline's first dispatch (vk/pipeline.h): seconds at the
     * first batch that the speed reports should not count. */
    const double t0 = vkmd_clock_now_s() - ctx->pipeline_compile_s;
    double t_last = t0;
    vkmd_running_stats temps = {0}, temps_bath = {0}, dens = {0};
    int64_t samples = 0;
    s->temperature_from_ps = temperature_from_ps(d, done);
    int ended = 0, interrupted = 0;
    while (done < steps && !((interrupted || ended) && done % report_every == 0)) {
        int64_t next = (done / report_every + 1) * report_every;
        if (traj_every > 0) {
            const int64_t nt = (done / traj_every + 1) * traj_every;
            if (nt < next)
                next = nt;
        }
        if (next > steps)
            next = steps;
        if (d->stage_count > 0) {
            VKMD_TRY(apply_stage(run, done));
            const int64_t end = stage_end(d, done);
            if (next > end)
                next = end;
        }
        if (!ended) {
            int64_t max_steps = next - done;
            int end_now = 0;
            for (int32_t k = 0; k < run->rep_count; ++k)
                if (run->rep[k].idle)
                    VKMD_TRY(run->rep[k].idle(run->rep[k].user, done, &max_steps, &end_now));
            if (end_now) {
                ended = 1;
                if (done % report_every == 0 && run->last_ck != done)
                    /* At a report step: good_x/good_v are this step's state. */
                    VKMD_TRY(write_checkpoint(run, done, good_md_step, good_x, good_v));
                continue;
            }
            if (max_steps <= 0)
                continue;
            if (next > done + max_steps)
                next = done + max_steps;
        }
        /* vkmd_md_step ends early on a stop request (core/stop.h): the run
         * then stops at once, with the last report step's checkpoint. */
        res = vkmd_md_step(ctx, run->md, next - done);
        if (res == VKMD_ERROR_STOPPED) {
            res = VKMD_OK;
            done = vkmd_md_steps_done(run->md) - base;
            interrupted = 1;
            break;
        }
        if (res != VKMD_OK)
            goto cleanup;
        done = next;
        interrupted |= stop_requested(run);
        if (interrupted && done % report_every != 0 && done != steps)
            break;
        const int is_report = done % report_every == 0 || done == steps;
        const int is_frame = traj_every > 0 && done % traj_every == 0;
        if (!is_report && !is_frame)
            continue; /* a piece between frames of a viewer */
        res = vkmd_md_read(ctx, run->md, &rep, x, v);
        if (res == VKMD_ERROR_NUMERIC) /* e.g. a water torn apart: constraints singular */
            snprintf(why, sizeof why, "%s", vkmd_last_error());
        else if (res != VKMD_OK)
            goto cleanup;
        rep.step -= base;
        if (res != VKMD_OK || vkmd_md_health_check(&rep, temp, why, sizeof why) ||
            !finite_array(x, n3) || !finite_array(v, n3)) {
            /* Nothing of this state is written; find the step and the atoms. */
            note(run, "bad state at step %lld (%s); replaying from step %lld", (long long)done, why,
                 (long long)(good_md_step - base));
            if (sys->box.periodic) /* the replay starts from the good state's box */
                VKMD_TRY(vkmd_md_set_cell_state(ctx, run->md, &good_box, NULL));
            VKMD_TRY(vkmd_blowup_diagnose(ctx, run->md, sys, good_x, good_v, good_md_step, base,
                                          done - (good_md_step - base), temp, fault, sizeof fault));
            res = vkmd_fail(VKMD_ERROR_NUMERIC, "%s", fault);
            s->blown_up = 1;
            goto cleanup;
        }
        box_now = report_box(sys, &rep);
        sample = (vkmd_run_sample){.step = done,
                                   .time_ps = (double)done * dt * 1e-3,
                                   .report = &rep,
                                   .positions = x,
                                   .velocities = v,
                                   .box = &box_now,
                                   .stage = sample_stage(run, done)};
        if (is_frame)
            for (int32_t k = 0; k < run->rep_count; ++k)
                if (run->rep[k].frame)
                    VKMD_TRY(run->rep[k].frame(run->rep[k].user, &sample));
        memcpy(good_x, x, sizeof *x * n3);
        memcpy(good_v, v, sizeof *v * n3);
        good_md_step = vkmd_md_steps_done(run->md);
        vkmd_md_get_cell(run->md, &good_box);
        if (!is_report)
            continue;
        const double t = vkmd_clock_now_s() - ctx->pipeline_compile_s;
        sample.ns_per_day = vkmd_ns_per_day(done - last_report, dt, t - t_last);
        t_last = t;
        last_report = done;
        for (int32_t k = 0; k < run->rep_count; ++k)
            if (run->rep[k].report)
                VKMD_TRY(run->rep[k].report(run->rep[k].user, &sample));
        tt[samples] = sample.time_ps;
        et[samples] = rep.total;
        vkmd_running_stats_add(&temps, rep.temperature_k);
        if (sample.time_ps >= s->temperature_from_ps - 1e-9)
            vkmd_running_stats_add(&temps_bath, rep.temperature_k);
        vkmd_running_stats_add(&dens, rep.density_g_cm3);
        ++samples;
        if (done % report_every == 0) {
            VKMD_TRY(retemper(run, &sample, v, good_v, n3, &temp));
            /* A report step is where a checkpoint may be written; the
             * neighbour list is rebuilt here in every run, so a restart from
             * any report step continues bitwise. */
            interrupted |= stop_requested(run);
            const int due = (d->checkpoint_every > 0 && done % d->checkpoint_every == 0) ||
                            interrupted || ended || done == steps;
            snapshot_take(run, &snap, done, good_md_step, x, v);
            if (due)
                VKMD_TRY(write_snapshot(run, &snap));
            VKMD_TRY(vkmd_md_set_state(ctx, run->md, x, v));
        }
    }
    s->wall_s = vkmd_clock_now_s() - ctx->pipeline_compile_s - t0;
    vkmd_barostat_stats bs;
    vkmd_md_barostat_stats(run->md, &bs);
    if (bs.attempts > 0)
        note(run, "barostat (%s, %g bar, every %d steps): %lld of %lld volume moves accepted",
             vkmd_barostat_mode_name(bs.mode), bs.pressure_bar, bs.every, (long long)bs.accepted,
             (long long)bs.attempts);
    s->last_step = done;
    s->ended = done >= steps ? VKMD_RUN_COMPLETE
               : interrupted ? VKMD_RUN_INTERRUPTED
                             : VKMD_RUN_ENDED;
    if (s->ended == VKMD_RUN_INTERRUPTED) {
        s->stopped_in = "dynamics";
        s->stop_why = vkmd_stop_requested() ? vkmd_stop_requested() : VKMD_STOP_ASKED;
        if (snap.step >= 0 && run->last_ck != snap.step)
            VKMD_TRY(write_snapshot(run, &snap));
    }
    s->last_checkpoint_step = run->last_ck;
    if (s->ended == VKMD_RUN_INTERRUPTED)
        goto cleanup;
    VKMD_TRY(vkmd_md_read(ctx, run->md, &s->final, x, NULL));
    VKMD_TRY(vkmd_md_constraint_violation(ctx, run->md, &s->max_water_violation_a,
                                          &s->max_hbond_violation_rel));
    s->ns_per_day = vkmd_ns_per_day(done - s->first_step, dt, s->wall_s);
    if (temps_bath.n == 0) /* too short for the window: every report */
        temps_bath = temps;
    s->temperature_samples = temps_bath.n;
    s->mean_temperature_k = temps_bath.n ? temps_bath.mean : s->final.temperature_k;
    s->sd_temperature_k = vkmd_running_stats_sd(&temps_bath);
    s->mean_density_g_cm3 = samples ? dens.mean : s->final.density_g_cm3;
    s->sd_density_g_cm3 = vkmd_running_stats_sd(&dens);
    if (samples >= 2)
        VKMD_TRY(vkmd_energy_drift_fit(tt, et, (int32_t)samples, s->mean_temperature_k,
                                       vkmd_md_dof(run->md), &s->drift));
    const vkmd_box box_final = report_box(sys, &s->final);
    const vkmd_run_sample final = {.step = done,
                                   .time_ps = (double)done * dt * 1e-3,
                                   .report = &s->final,
                                   .positions = x,
                                   .box = &box_final,
                                   .stage = sample_stage(run, done)};
    for (int32_t k = 0; k < run->rep_count; ++k)
        if (run->rep[k].end)
            VKMD_TRY(run->rep[k].end(run->rep[k].user, &final, s));
cleanup:
    free(snap.x);
    free(snap.v);
    free(x);
    free(v);
    free(good_x);
    free(good_v);
    free(tt);
    free(et);
    return res;
}

vkmd_result vkmd_run_execute(vkmd_run *run, vkmd_vk_context *ctx, const vkmd_reporter *reporters,
                             int32_t reporter_count, vkmd_run_summary *out_summary)
{
    vkmd_run_summary s;
    memset(&s, 0, sizeof s);
    s.last_checkpoint_step = run->last_ck;
    s.checkpoint_path = run->ck_path;
    if (out_summary)
        *out_summary = s;
    if (run->executed)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "run: executed already");
    run->executed = 1;
    run->ctx = ctx;
    s.device = ctx->info.name;
    run->rep = calloc((size_t)reporter_count + FILE_REPORTERS, sizeof *run->rep);
    if (!run->rep)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "run: out of memory");
    vkmd_result res = VKMD_OK;
    if (!run->d.no_file_outputs) {
        static const char *const names[3] = {"energy.csv", "traj.dcd", "final.pdb"};
        vkmd_result (*const make[3])(const char *, vkmd_reporter *) = {
            vkmd_reporter_energy_csv, vkmd_reporter_trajectory, vkmd_reporter_final_pdb};
        for (int k = 0; k < 3 && res == VKMD_OK; ++k) {
            char path[4200];
            snprintf(path, sizeof path, "%s/%s", run->d.out_dir, names[k]);
            res = make[k](k == 1 && run->d.traj_path ? run->d.traj_path : path,
                          &run->rep[run->rep_count]);
            if (res == VKMD_OK)
                ++run->rep_count;
        }
    }
    if (run->d.restart_out && res == VKMD_OK) {
        res = vkmd_reporter_restart(run->d.restart_out, &run->rep[run->rep_count]);
        if (res == VKMD_OK)
            ++run->rep_count;
    }
    for (int32_t k = 0; k < reporter_count; ++k)
        run->rep[run->rep_count++] = reporters[k];
    if (res == VKMD_OK)
        res = execute(run, &s);
    s.last_checkpoint_step = run->last_ck;
    for (int32_t k = 0; k < run->rep_count; ++k)
        if (run->rep[k].finish) {
            const vkmd_result fres = run->rep[k].finish(run->rep[k].user);
            if (res == VKMD_OK)
                res = fres;
        }
    run->rep_count = 0;
    if (out_summary)
        *out_summary = s;
    return res;
}
