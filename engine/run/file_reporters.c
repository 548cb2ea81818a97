/* The run's file outputs as reporters (see file_reporters.h). */
#include "run/file_reporters.h"

#include "io/dcd.h"
#include "io/pdb.h"
#include "run/energy_csv.h"
#include "run/run.h"

#include <stdlib.h>
#include <string.h>

typedef struct file_reporter {
    char *path;
    const vkmd_run_info *info; /* valid from begin to the end of the run */
    vkmd_energy_csv *csv;
    vkmd_dcd_writer *dcd;
    int64_t first_step;
    int restart;
} file_reporter;

static vkmd_result make(const char *path, vkmd_reporter *out, file_reporter **out_f)
{
    memset(out, 0, sizeof *out);
    file_reporter *f = calloc(1, sizeof *f);
    const size_t n = strlen(path) + 1;
    if (!f || !(f->path = malloc(n))) {
        free(f);
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: reporter: out of memory", path);
    }
    memcpy(f->path, path, n);
    out->user = f;
    *out_f = f;
    return VKMD_OK;
}

static vkmd_result finish(void *user)
{
    file_reporter *f = user;
    vkmd_result res = vkmd_energy_csv_close(f->csv);
    vkmd_result dres = vkmd_dcd_writer_close(f->dcd);
    free(f->path);
    free(f);
    return res != VKMD_OK ? res : dres;
}

/* ---- energy CSV --------------------------------------------------------- */

static vkmd_result csv_begin(void *user, const vkmd_run_info *info)
{
    file_reporter *f = user;
    const vkmd_run_desc *d = info->desc;
    const int verlet = d->md.integrator == VKMD_INTEGRATOR_VERLET;
    const vkmd_energy_csv_desc cd = {.system = d->system,
                                     .atom_count = info->system->atom_count,
                                     .dof = info->dof,
                                     .integrator = verlet ? "velocity-verlet" : "langevin-middle",
                                     .dt_fs = d->md.dt_fs,
                                     .temperature_k = verlet ? 0 : d->md.temperature_k,
                                     .friction_per_ps = verlet ? 0 : d->md.friction_per_ps,
                                     .settings = info->summary,
                                     .periodic = info->system->box.periodic,
                                     .append = info->restart,
                                     .restraint_column =
                                         vkmd_restraint_spec_active(&d->restraints)};
    if (info->restart)
        VKMD_TRY_RETURN(vkmd_energy_csv_truncate_after(f->path, info->first_step));
    f->restart = info->restart;
    return vkmd_energy_csv_create(f->path, &cd, &f->csv);
}

static vkmd_result csv_report(void *user, const vkmd_run_sample *s)
{
    file_reporter *f = user;
    if (s->start && f->restart)
        return VKMD_OK; /* the checkpoint's row is in the file already */
    const vkmd_md_report *r = s->report;
    const vkmd_energy_row row = {.step = s->step,
                                 .time_ps = s->time_ps,
                                 .potential_kcal_mol = r->potential.total,
                                 .kinetic_kcal_mol = r->kinetic,
                                 .total_kcal_mol = r->total,
                                 .temperature_k = r->temperature_k,
                                 .ns_per_day = s->ns_per_day,
                                 .restraint_kcal_mol = r->potential.restraint,
                                 .volume_a3 = r->volume_a3,
                                 .density_g_cm3 = r->density_g_cm3,
                                 .box_a = {r->box[0], r->box[1], r->box[2]}};
    return vkmd_energy_csv_write(f->csv, &row);
}

vkmd_result vkmd_reporter_energy_csv(const char *path, vkmd_reporter *out)
{
    file_reporter *f = NULL;
    VKMD_TRY_RETURN(make(path, out, &f));
    out->begin = csv_begin;
    out->report = csv_report;
    out->finish = finish;
    return VKMD_OK;
}

/* ---- DCD trajectory ----------------------------------------------------- */

static vkmd_result dcd_begin(void *user, const vkmd_run_info *info)
{
    file_reporter *f = user;
    const vkmd_run_desc *d = info->desc;
    if (d->traj_every <= 0)
        return VKMD_OK;
    const vkmd_dcd_desc dd = {.atom_count = info->system->atom_count,
                              .periodic = info->system->box.periodic,
                              .dt_fs = d->md.dt_fs,
                              .steps_per_frame = (int32_t)d->traj_every,
                              .first_step = d->traj_every,
                              .title = "vkmd run"};
    if (!info->restart)
        return vkmd_dcd_writer_create(f->path, &dd, &f->dcd);
    VKMD_TRY_RETURN(vkmd_dcd_writer_open_append(f->path, &dd, &f->dcd));
    const int64_t keep = info->first_step / d->traj_every;
    if (vkmd_dcd_writer_frame_count(f->dcd) < keep)
        return vkmd_fail(VKMD_ERROR_PARSE,
                         "%s: has %d frames, the checkpoint at step %lld needs %lld: frames are "
                         "lost",
                         f->path, vkmd_dcd_writer_frame_count(f->dcd), (long long)info->first_step,
                         (long long)keep);
    return vkmd_dcd_writer_truncate(f->dcd, (int32_t)keep);
}

static vkmd_result dcd_frame(void *user, const vkmd_run_sample *s)
{
    file_reporter *f = user;
    return f->dcd ? vkmd_dcd_writer_append(f->dcd, s->positions, s->box) : VKMD_OK;
}

vkmd_result vkmd_reporter_dcd(const char *path, vkmd_reporter *out)
{
    file_reporter *f = NULL;
    VKMD_TRY_RETURN(make(path, out, &f));
    out->begin = dcd_begin;
    out->frame = dcd_frame;
    out->finish = finish;
    return VKMD_OK;
}

/* ---- final PDB ---------------------------------------------------------- */

static vkmd_result pdb_begin(void *user, const vkmd_run_info *info)
{
    ((file_reporter *)user)->info = info;
    return VKMD_OK;
}

static vkmd_result pdb_end(void *user, const vkmd_run_sample *final, const vkmd_run_summary *s)
{
    file_reporter *f = user;
    vkmd_system out = *f->info->system;
    out.positions = (double *) final->positions;
    if (final->box)
        out.box = *final->box; /* the final box (CRYST1), which a barostat changes */
    return vkmd_pdb_write(f->path, &out);
}

vkmd_result vkmd_reporter_final_pdb(const char *path, vkmd_reporter *out)
{
    file_reporter *f = NULL;
    VKMD_TRY_RETURN(make(path, out, &f));
    out->begin = pdb_begin;
    out->end = pdb_end;
    out->finish = finish;
    return VKMD_OK;
}
