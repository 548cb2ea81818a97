/* The run's file outputs as reporters (see file_reporters.h). */
#include "run/file_reporters.h"

#include "io/coords.h"
#include "io/dcd.h"
#include "io/netcdf.h"
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
    vkmd_netcdf_writer *nc;
    int64_t first_step;
    int restart;
    /* The restart reporter's copy of the last report's state. */
    double *x, *v; /* [3 * atoms] A, A/fs */
    vkmd_box box;
    double time_ps;
    int64_t step; /* -1: none held */
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
    vkmd_result nres = vkmd_netcdf_writer_close(f->nc);
    free(f->path);
    free(f->x);
    free(f->v);
    free(f);
    return res != VKMD_OK ? res : dres != VKMD_OK ? dres : nres;
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

/* ---- NetCDF trajectory -------------------------------------------------- */

static vkmd_result netcdf_begin(void *user, const vkmd_run_info *info)
{
    file_reporter *f = user;
    const vkmd_run_desc *d = info->desc;
    if (d->traj_every <= 0)
        return VKMD_OK;
    const vkmd_netcdf_desc nd = {.atom_count = info->system->atom_count,
                                 .periodic = info->system->box.periodic,
                                 .title =
                                     info->system->title[0] ? info->system->title : "vkmd run"};
    if (!info->restart)
        return vkmd_netcdf_writer_create(f->path, &nd, &f->nc);
    const int64_t keep = info->first_step / d->traj_every;
    if (keep > INT32_MAX)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s: %lld frames: too many", f->path,
                         (long long)keep);
    return vkmd_netcdf_writer_open_append(f->path, &nd, (int32_t)keep, &f->nc);
}

static vkmd_result netcdf_frame(void *user, const vkmd_run_sample *s)
{
    file_reporter *f = user;
    return f->nc ? vkmd_netcdf_writer_append(f->nc, s->time_ps, s->positions, NULL, s->box)
                 : VKMD_OK;
}

vkmd_result vkmd_reporter_netcdf(const char *path, vkmd_reporter *out)
{
    file_reporter *f = NULL;
    VKMD_TRY_RETURN(make(path, out, &f));
    out->begin = netcdf_begin;
    out->frame = netcdf_frame;
    out->finish = finish;
    return VKMD_OK;
}

vkmd_result vkmd_reporter_trajectory(const char *path, vkmd_reporter *out)
{
    return vkmd_netcdf_is_traj_path(path) ? vkmd_reporter_netcdf(path, out)
                                          : vkmd_reporter_dcd(path, out);
}

/* ---- restart ------------------------------------------------------------ */

static vkmd_result restart_begin(void *user, const vkmd_run_info *info)
{
    file_reporter *f = user;
    const size_t n3 = 3 * (size_t)info->system->atom_count;
    f->info = info;
    f->step = -1;
    f->x = malloc(sizeof *f->x * n3);
    f->v = malloc(sizeof *f->v * n3);
    if (!f->x || !f->v)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: reporter: out of memory", f->path);
    return VKMD_OK;
}

/* Keeps the report's state: a checkpoint at this step writes it. */
static vkmd_result restart_report(void *user, const vkmd_run_sample *s)
{
    file_reporter *f = user;
    const size_t n3 = 3 * (size_t)f->info->system->atom_count;
    if (!s->velocities)
        return VKMD_OK;
    memcpy(f->x, s->positions, sizeof *f->x * n3);
    memcpy(f->v, s->velocities, sizeof *f->v * n3);
    f->box = s->box ? *s->box : f->info->system->box;
    f->time_ps = s->time_ps;
    f->step = s->step;
    return VKMD_OK;
}

static vkmd_result restart_checkpoint(void *user, int64_t step, const char *path)
{
    (void)path;
    file_reporter *f = user;
    if (step != f->step)
        return VKMD_OK;
    vkmd_system out = *f->info->system;
    out.positions = f->x;
    out.velocities = f->v;
    out.box = f->box;
    if (vkmd_netcdf_is_restart_path(f->path))
        return vkmd_netcdf_write_restart(f->path, &out, f->time_ps);
    return vkmd_coords_write_rst7(f->path, &out, f->time_ps);
}

vkmd_result vkmd_reporter_restart(const char *path, vkmd_reporter *out)
{
    file_reporter *f = NULL;
    VKMD_TRY_RETURN(make(path, out, &f));
    out->begin = restart_begin;
    out->report = restart_report;
    out->checkpoint = restart_checkpoint;
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
