/* Equilibration of a solvated system (see equilibrate.h): the protocol as a
 * staged run (run/run.h) and a reporter that keeps each stage's figures. */
#include "run/equilibrate.h"

#include "core/clock.h"
#include "core/json_write.h"
#include "core/log.h"
#include "io/coords.h"
#include "io/restraint_spec.h"
#include "maths/density.h"
#include "maths/running_stats.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EQ_CSV_HEADER                                                                              \
    "# vkmd equilibrate: one row per report; stage names the protocol's stage\n"                   \
    "stage,step,time_ps,temperature_K,bath_K,restraint_k_kcal_mol_A2,potential_kcal_mol,"          \
    "restraint_kcal_mol,volume_A3,density_g_cm3,solute_rmsd_A\n"

static const char *const stage_names[VKMD_EQUIL_STAGES] = {"minimise", "heat", "density", "free"};

/* Protocol stage p's name: implicit solvent's third stage only releases
 * the restraints (no barostat). */
static const char *stage_name(const vkmd_equil_desc *d, int32_t p)
{
    return p == 2 && d->run.ff.gb.model != VKMD_GB_NONE ? "release" : stage_names[p];
}

vkmd_result vkmd_equil_desc_resolve(const vkmd_equil_desc *in, vkmd_equil_desc *out)
{
    *out = *in;
    vkmd_equil_desc *d = out;
    const int by_file = d->run.restraints.file && d->run.restraints.file[0];
    if ((!d->mask || !d->mask[0]) && !by_file)
        d->mask = VKMD_EQUIL_SOLUTE_MASK;
    if (d->restraint_k == 0)
        d->restraint_k = 10.0;
    if (d->pressure_bar == 0)
        d->pressure_bar = 1.0;
    if (d->heat_ps == 0)
        d->heat_ps = 20.0;
    if (d->heat_increments == 0)
        d->heat_increments = 10;
    if (d->density_ps == 0)
        d->density_ps = 50.0;
    if (d->taper_stages == 0)
        d->taper_stages = 5;
    if (d->release_ps == 0)
        d->release_ps = 50.0;
    if (d->report_every == 0)
        d->report_every = 500;
    if (d->run.md.temperature_k == 0)
        d->run.md.temperature_k = 300.0;
    if (d->run.min.max_iterations == 0)
        d->run.min.max_iterations = 2000;
    const struct {
        const char *name;
        double v;
    } pos[] = {{"restraint k", d->restraint_k}, {"pressure", d->pressure_bar},
               {"heating time", d->heat_ps},    {"density time", d->density_ps},
               {"release time", d->release_ps}, {"temperature", d->run.md.temperature_k}};
    for (size_t i = 0; i < sizeof pos / sizeof pos[0]; ++i)
        if (!(pos[i].v > 0) || !isfinite(pos[i].v))
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "equilibrate: %s %g (must be finite and > 0)", pos[i].name, pos[i].v);
    if (d->heat_increments < 1 || d->heat_increments > 20)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "equilibrate: %d heating increments (1 .. 20)", d->heat_increments);
    if (d->taper_stages < 1 || d->taper_stages > 20)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "equilibrate: %d restraint taper stages (1 .. 20)", d->taper_stages);
    if (d->report_every < 1)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "equilibrate: report every %lld steps",
                         (long long)d->report_every);
    if (d->run.md.integrator != VKMD_INTEGRATOR_LANGEVIN)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "equilibrate: the protocol heats through the Langevin bath; velocity "
                         "Verlet (NVE) has none");
    if (d->run.restart)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "equilibrate: a restart continues the run of a checkpoint; give "
                         "--restart to the same equilibrate command (not supported here)");
    return VKMD_OK;
}

/* Steps of `ps` picoseconds, a whole number of reports (at least one). */
static int64_t stage_steps(double ps, double dt_fs, int64_t report_every)
{
    const double steps = ps * 1000.0 / dt_fs;
    int64_t reports = (int64_t)llround(steps / (double)report_every);
    return (reports < 1 ? 1 : reports) * report_every;
}

/* The protocol's stages (heat increments, taper parts, free); out_first[p]
 * is the first run stage of protocol stage p (1 heat, 2 density, 3 free). */
static int32_t build_stages(const vkmd_equil_desc *d, vkmd_run_stage *st, int32_t out_first[4])
{
    const double t = d->run.md.temperature_k, dt = d->run.md.dt_fs > 0 ? d->run.md.dt_fs : 2.0;
    int32_t n = 0;
    out_first[0] = 0;
    out_first[1] = 0;
    const int64_t heat = stage_steps(d->heat_ps / d->heat_increments, dt, d->report_every);
    for (int32_t i = 1; i <= d->heat_increments; ++i, ++n) {
        st[n] = (vkmd_run_stage){.steps = heat,
                                 .temperature_k = t * i / d->heat_increments,
                                 .restraint_k = d->restraint_k};
        snprintf(st[n].name, sizeof st[n].name, "heat %.4g K", st[n].temperature_k);
    }
    out_first[2] = n;
    /* Implicit solvent: no box, so no barostat; the taper (still releasing
     * the restraints in steps) and the free stage run at constant volume. */
    const int implicit = d->run.ff.gb.model != VKMD_GB_NONE;
    const double pressure = implicit ? 0.0 : d->pressure_bar;
    const int64_t dens = stage_steps(d->density_ps / d->taper_stages, dt, d->report_every);
    for (int32_t i = 0; i < d->taper_stages; ++i, ++n) {
        const double k = d->taper_stages > 1
                             ? d->restraint_k * (1.0 - (double)i / (d->taper_stages - 1))
                             : d->restraint_k;
        st[n] = (vkmd_run_stage){
            .steps = dens, .temperature_k = t, .pressure_bar = pressure, .restraint_k = k};
        snprintf(st[n].name, sizeof st[n].name, "%s k %.4g", implicit ? "release" : "density", k);
    }
    out_first[3] = n;
    st[n] = (vkmd_run_stage){.steps = stage_steps(d->release_ps, dt, d->report_every),
                             .temperature_k = t,
                             .pressure_bar = pressure};
    snprintf(st[n].name, sizeof st[n].name, "free");
    return n + 1;
}

/* ---- the reporter --------------------------------------------------------- */

#define MAX_ROWS_PER_STAGE 100000

typedef struct stage_rows {
    double *t, *rho, *rmsd;
    int64_t n, cap;
} stage_rows;

typedef struct equil_state {
    const vkmd_equil_desc *d;
    const vkmd_run_stage *stages;
    int32_t first[4];
    int32_t stage_count;
    vkmd_restraints ref; /* the restrained atoms and their reference positions */
    FILE *csv;
    char out_dir[4096];
    vkmd_equil_summary *sum;
    stage_rows rows[VKMD_EQUIL_STAGES];
    int64_t stage_end_step[VKMD_EQUIL_STAGES]; /* last step of each protocol stage */
    int32_t protocol_now;
    double stage_t0; /* wall clock at the start of the current protocol stage, s */
    const vkmd_system *sys;
    vkmd_md *md;
    vkmd_reporter user[8];
    int32_t user_count;
} equil_state;

static int32_t protocol_stage(const equil_state *e, int32_t run_stage)
{
    if (run_stage < 0)
        return 0;
    return run_stage >= e->first[3] ? 3 : run_stage >= e->first[2] ? 2 : 1;
}

/* Root mean square of the minimum-image displacement of the restrained atoms
 * from their reference positions, A. */
static double solute_rmsd(const equil_state *e, const double *x, const vkmd_box *box)
{
    const vkmd_restraints *r = &e->ref;
    if (r->count <= 0)
        return 0;
    double sum = 0;
    for (int32_t k = 0; k < r->count; ++k) {
        const int32_t a = r->atoms[k];
        for (int c = 0; c < 3; ++c) {
            double dx = x[3 * a + c] - r->ref[3 * k + c];
            if (box && box->periodic)
                dx -= box->len[c] * nearbyint(dx / box->len[c]);
            sum += dx * dx;
        }
    }
    return sqrt(sum / r->count);
}

static vkmd_result push(stage_rows *r, double t, double rho, double rmsd)
{
    if (r->n == r->cap) {
        const int64_t cap = r->cap ? 2 * r->cap : 64;
        double *nt = realloc(r->t, sizeof *nt * (size_t)cap);
        if (nt)
            r->t = nt;
        double *nr = realloc(r->rho, sizeof *nr * (size_t)cap);
        if (nr)
            r->rho = nr;
        double *nm = realloc(r->rmsd, sizeof *nm * (size_t)cap);
        if (nm)
            r->rmsd = nm;
        if (!nt || !nr || !nm)
            return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "equilibrate: out of memory");
        r->cap = cap;
    }
    r->t[r->n] = t;
    r->rho[r->n] = rho;
    r->rmsd[r->n] = rmsd;
    ++r->n;
    return VKMD_OK;
}

/* Mean and sd of v[from .. to). */
static void mean_sd(const double *v, int64_t from, int64_t to, double *mean, double *sd)
{
    vkmd_running_stats r = {0};
    for (int64_t i = from; i < to; ++i)
        vkmd_running_stats_add(&r, v[i]);
    *mean = r.mean;
    *sd = vkmd_running_stats_sd(&r);
}

/* Figures of protocol stage p from its rows. */
static void close_stage(equil_state *e, int32_t p, const vkmd_md_report *last)
{
    vkmd_equil_stage *s = &e->sum->stage[p];
    const stage_rows *r = &e->rows[p];
    s->name = stage_name(e->d, p);
    if (r->n > 0) {
        mean_sd(r->t, 0, r->n, &s->temperature_k, &s->temperature_sd_k);
        mean_sd(r->rho, r->n / 2, r->n, &s->density_g_cm3, &s->density_sd_g_cm3);
        s->final_density_g_cm3 = r->rho[r->n - 1];
        s->rmsd_a = r->rmsd[r->n - 1];
        s->max_rmsd_a = 0;
        for (int64_t i = 0; i < r->n; ++i)
            s->max_rmsd_a = fmax(s->max_rmsd_a, r->rmsd[i]);
    }
    if (last)
        s->potential = last->potential.total;
    s->steps = e->stage_end_step[p] - (p > 0 ? e->stage_end_step[p - 1] : 0);
    const double now = vkmd_clock_now_s();
    s->seconds = now - e->stage_t0;
    e->stage_t0 = now;
    if (e->sum->stages_done < p + 1)
        e->sum->stages_done = p + 1;
}

static vkmd_result eq_begin(void *user, const vkmd_run_info *info)
{
    equil_state *e = user;
    e->sys = info->system;
    e->md = info->md;
    e->sum->stage[0].name = stage_name(e->d, 0);
    for (int32_t k = 0; k < e->user_count; ++k)
        if (e->user[k].begin)
            VKMD_TRY_RETURN(e->user[k].begin(e->user[k].user, info));
    return VKMD_OK;
}

static vkmd_result eq_report(void *user, const vkmd_run_sample *s)
{
    equil_state *e = user;
    const vkmd_md_report *r = s->report;
    const int32_t p = s->start ? 0 : protocol_stage(e, s->stage);
    const double rmsd = solute_rmsd(e, s->positions, s->box);
    const vkmd_run_stage *st = s->stage >= 0 ? &e->stages[s->stage] : NULL;
    if (s->start) {
        /* The minimised start: stage 1's figures. */
        e->sum->stage[0].rmsd_a = e->sum->stage[0].max_rmsd_a = rmsd;
        e->sum->stage[0].potential = r->potential.total;
        e->sum->stage[0].final_density_g_cm3 = e->sum->stage[0].density_g_cm3 = r->density_g_cm3;
        e->sum->stage[0].seconds = vkmd_clock_now_s() - e->stage_t0;
        e->stage_t0 = vkmd_clock_now_s();
        e->sum->stages_done = 1;
    } else {
        if (p > e->protocol_now && e->protocol_now >= 1)
            close_stage(e, e->protocol_now, NULL);
        e->protocol_now = p;
        e->sum->stage[p].potential = r->potential.total; /* the stage's last report's */
        VKMD_TRY_RETURN(push(&e->rows[p], r->temperature_k, r->density_g_cm3, rmsd));
    }
    if (fprintf(e->csv, "%s,%lld,%.4f,%.3f,%.3f,%.4g,%.6f,%.6f,%.4f,%.6f,%.5f\n",
                stage_name(e->d, p), (long long)s->step, s->time_ps, r->temperature_k,
                st ? st->temperature_k : 0.0, st ? st->restraint_k : 0.0, r->potential.total,
                r->potential.restraint, r->volume_a3, r->density_g_cm3, rmsd) < 0 ||
        fflush(e->csv) != 0)
        return vkmd_fail(VKMD_ERROR_IO, "%s/equilibrate.csv: write failed: %s", e->out_dir,
                         strerror(errno));
    if (!s->start && s->step == e->stage_end_step[3] && s->velocities) {
        /* The final state with its velocities and box: what `vkmd run` starts from. */
        vkmd_system fin = *e->sys;
        fin.positions = (double *)s->positions;
        fin.velocities = (double *)s->velocities;
        fin.box = *s->box;
        snprintf(e->sum->final_rst7, sizeof e->sum->final_rst7, "%s/final.rst7", e->out_dir);
        VKMD_TRY_RETURN(vkmd_coords_write_rst7(e->sum->final_rst7, &fin, s->time_ps));
        for (int c = 0; c < 3; ++c)
            e->sum->box[c] = s->box->len[c];
    }
    for (int32_t k = 0; k < e->user_count; ++k)
        if (e->user[k].report)
            VKMD_TRY_RETURN(e->user[k].report(e->user[k].user, s));
    return VKMD_OK;
}

static vkmd_result copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb");
    if (!in)
        return vkmd_fail(VKMD_ERROR_IO, "%s: cannot open: %s", from, strerror(errno));
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", to);
    FILE *out = fopen(tmp, "wb");
    if (!out) {
        fclose(in);
        return vkmd_fail(VKMD_ERROR_IO, "%s: cannot create: %s", tmp, strerror(errno));
    }
    char buf[65536];
    size_t n;
    int bad = 0;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, n, out) != n)
            bad = 1;
    bad |= ferror(in);
    fclose(in);
    bad |= fclose(out) != 0;
    if (bad || rename(tmp, to) != 0) {
        remove(tmp);
        return vkmd_fail(VKMD_ERROR_IO, "%s: write failed: %s", to, strerror(errno));
    }
    return VKMD_OK;
}

static vkmd_result eq_checkpoint(void *user, int64_t step, const char *path)
{
    equil_state *e = user;
    for (int32_t p = 1; p < VKMD_EQUIL_STAGES; ++p)
        if (step == e->stage_end_step[p]) {
            char to[4200];
            snprintf(to, sizeof to, "%s/stage_%d_%s.chk", e->out_dir, p + 1, stage_name(e->d, p));
            VKMD_TRY_RETURN(copy_file(path, to));
            if (p == 3) {
                snprintf(to, sizeof to, "%s/final.chk", e->out_dir);
                VKMD_TRY_RETURN(copy_file(path, to));
            }
        }
    if (step == 0) {
        char to[4200];
        snprintf(to, sizeof to, "%s/stage_1_%s.chk", e->out_dir, stage_name(e->d, 0));
        VKMD_TRY_RETURN(copy_file(path, to));
    }
    for (int32_t k = 0; k < e->user_count; ++k)
        if (e->user[k].checkpoint)
            VKMD_TRY_RETURN(e->user[k].checkpoint(e->user[k].user, step, path));
    return VKMD_OK;
}

static void eq_note(void *user, const char *text)
{
    equil_state *e = user;
    for (int32_t k = 0; k < e->user_count; ++k)
        if (e->user[k].note)
            e->user[k].note(e->user[k].user, text);
}

static int eq_stop(void *user)
{
    equil_state *e = user;
    int stop = 0;
    for (int32_t k = 0; k < e->user_count; ++k)
        if (e->user[k].stop_requested && e->user[k].stop_requested(e->user[k].user))
            stop = 1;
    return stop;
}

static vkmd_result eq_end(void *user, const vkmd_run_sample *final, const vkmd_run_summary *s)
{
    equil_state *e = user;
    if (e->protocol_now >= 1)
        close_stage(e, e->protocol_now, final->report);
    for (int32_t k = 0; k < e->user_count; ++k)
        if (e->user[k].end)
            VKMD_TRY_RETURN(e->user[k].end(e->user[k].user, final, s));
    return VKMD_OK;
}

vkmd_result vkmd_equilibrate(vkmd_vk_context *ctx, const vkmd_equil_desc *desc,
                             const vkmd_reporter *reporters, int32_t reporter_count,
                             vkmd_equil_summary *out_summary)
{
    vkmd_result res = VKMD_OK;
    vkmd_equil_summary local;
    vkmd_equil_summary *sum = out_summary ? out_summary : &local;
    memset(sum, 0, sizeof *sum);
    vkmd_equil_desc d;
    VKMD_TRY_RETURN(vkmd_equil_desc_resolve(desc, &d));
    if (reporter_count < 0 || reporter_count > 8)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "equilibrate: %d reporters (at most 8)",
                         reporter_count);
    vkmd_run_stage stages[VKMD_RUN_STAGES_MAX];
    equil_state e = {.d = &d, .sum = sum, .stages = stages};
    e.stage_count = build_stages(&d, stages, e.first);
    vkmd_run_desc rd = d.run;
    rd.steps = 0;
    rd.stages = stages;
    rd.stage_count = e.stage_count;
    rd.report_every = d.report_every;
    rd.checkpoint_every = d.report_every;
    if (rd.traj_every == 0)
        rd.traj_every = d.report_every;
    rd.minimize = 1;
    rd.equilibrate = 0;
    rd.md.pressure_bar = 0;
    rd.restraints.mask = d.mask;
    rd.restraints.k = d.restraint_k;
    rd.md.temperature_k = stages[0].temperature_k;
    /* Last step of each protocol stage. */
    int64_t end = 0;
    for (int32_t i = 0; i < e.stage_count; ++i) {
        end += stages[i].steps;
        const int32_t p = protocol_stage(&e, i);
        e.stage_end_step[p] = end;
    }
    e.protocol_now = 0;
    memcpy(e.user, reporters, sizeof *reporters * (size_t)reporter_count);
    e.user_count = reporter_count;
    vkmd_run *run = NULL;
    VKMD_TRY(vkmd_run_create(&rd, &run));
    const vkmd_run_desc *resolved = vkmd_run_desc_get(run);
    snprintf(e.out_dir, sizeof e.out_dir, "%s", resolved->out_dir);
    const vkmd_system *sys = vkmd_run_system(run);
    if (!sys->box.periodic && d.run.ff.gb.model == VKMD_GB_NONE) {
        res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                        "equilibrate: %s has no periodic box; constant pressure needs one "
                        "(or implicit solvent: --implicit MODEL, whose protocol has no "
                        "density stage)",
                        d.run.system);
        goto cleanup;
    }
    VKMD_TRY(vkmd_restraint_spec_build(&rd.restraints, sys, &e.ref));
    if (e.ref.count <= 0) {
        res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                        "equilibrate: the %s '%s' selects no atom of %s (give --restrain "
                        "MASK for the solute)",
                        d.mask ? "mask" : "atom list", d.mask ? d.mask : d.run.restraints.file,
                        d.run.system);
        goto cleanup;
    }
    sum->restrained_atoms = e.ref.count;
    char path[4200];
    snprintf(path, sizeof path, "%s/equilibrate.csv", e.out_dir);
    e.csv = fopen(path, "w");
    if (!e.csv) {
        res = vkmd_fail(VKMD_ERROR_IO, "%s: cannot create: %s", path, strerror(errno));
        goto cleanup;
    }
    if (fputs(EQ_CSV_HEADER, e.csv) < 0) {
        res = vkmd_fail(VKMD_ERROR_IO, "%s: write failed: %s", path, strerror(errno));
        goto cleanup;
    }
    const vkmd_reporter mine = {.user = &e,
                                .begin = eq_begin,
                                .report = eq_report,
                                .checkpoint = eq_checkpoint,
                                .note = eq_note,
                                .stop_requested = eq_stop,
                                .end = eq_end};
    vkmd_run_summary rs;
    e.stage_t0 = vkmd_clock_now_s(); /* the minimisation's time includes the set-up */
    res = vkmd_run_execute(run, ctx, &mine, 1, &rs);
    if (res == VKMD_OK && rs.ended == VKMD_RUN_INTERRUPTED) {
        sum->stop_why = rs.stop_why;
        sum->stop_step = rs.last_step;
        sum->checkpoint_step = rs.last_checkpoint_step;
        if (rs.partial_path) {
            snprintf(sum->stopped_in, sizeof sum->stopped_in, "minimisation");
            snprintf(sum->partial, sizeof sum->partial, "%s", rs.partial_path);
        } else {
            const int32_t st = vkmd_run_stage_at(resolved, rs.last_step > 0 ? rs.last_step - 1 : 0);
            snprintf(sum->stopped_in, sizeof sum->stopped_in, "%s",
                     st >= 0 ? stages[st].name : "dynamics");
        }
    }
    if (rs.minimized) {
        sum->minimize_iterations = rs.minimize.iterations;
    }
    vkmd_md *md = vkmd_run_md(run);
    if (md) {
        vkmd_barostat_stats bs;
        vkmd_md_barostat_stats(md, &bs);
        sum->barostat_acceptance = bs.attempts > 0 ? (double)bs.accepted / bs.attempts : 0;
    }
    sum->density_g_cm3 = sum->stage[3].density_g_cm3;
    sum->density_sd_g_cm3 = sum->stage[3].density_sd_g_cm3;
cleanup:
    if (e.csv && fclose(e.csv) != 0 && res == VKMD_OK)
        res = vkmd_fail(VKMD_ERROR_IO, "%s/equilibrate.csv: write failed: %s", e.out_dir,
                        strerror(errno));
    for (int p = 0; p < VKMD_EQUIL_STAGES; ++p) {
        free(e.rows[p].t);
        free(e.rows[p].rho);
        free(e.rows[p].rmsd);
    }
    vkmd_restraints_destroy(&e.ref);
    vkmd_run_destroy(run);
    return res;
}
