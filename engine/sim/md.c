/* Molecular dynamics on the device (see md.h). */
#include "sim/md.h"

#include "core/log.h"
#include "core/philox.h"
#include "core/units.h"
#include "forces/fixed_point.h"
#include "forces/positions.h"
#include "maths/host_constraints.h"
#include "maths/density.h"
#include "maths/kinetic.h"
#include "sim/sim_constraints.h"
#include "sim/step.h"
#include "system/molecules.h"
#include "vk/stats.h"
#include "vk/timer.h"
#include "vk/barrier.h"
#include "vk/command.h"
#include "vk/pipeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BATCH_CACHE 4 /* recorded batches kept (distinct step counts / COM flags) */

typedef struct md_batch {
    vkmd_vk_cmd cmd;
    int32_t steps; /* 0: empty slot */
    int with_com;
    int dense; /* fused: a rebuild recorded at every step */
    uint64_t last_use;
} md_batch;

struct vkmd_md {
    const vkmd_system *sys;
    vkmd_md_desc desc; /* defaults resolved */
    vkmd_ff_settings settings;
    vkmd_forcefield *ff;
    vkmd_constraint_set cset;
    vkmd_sim_constraints *cons;
    vkmd_molecules mol;
    int32_t atom_count;
    int periodic;
    double total_mass;
    int64_t dof;
    int64_t steps_done;

    vkmd_vk_buffer pos_ref, vel, pos_backup, vel_backup, counter_backup;
    vkmd_vk_buffer pos_ref_x, pos_x_backup; /* split parts (split positions modes only) */
    vkmd_vk_buffer momentum, counter, molecule, shift;
    vkmd_vk_pipeline pipe[VKMD_MD_MODE_COUNT];
    vkmd_vk_descset set[VKMD_MD_MODE_COUNT];
    vkmd_md_push push;
    md_batch batch[BATCH_CACHE];
    uint64_t use_clock;
    vkmd_step *step; /* the fused step; NULL: pass by pass */
    int step_stale;  /* the fused step was made for another integrator or bath: re-create it */
    int64_t repeats; /* steps repeated for a missed rebuild (whole batches) */
    vkmd_box cell;   /* the current box (starts as sys->box; vkmd_md_set_cell_state) */
    /* vkmd_md_save_state / vkmd_md_restore_state: a copy of the state between
     * steps (made on first use) */
    vkmd_vk_buffer kept_pos, kept_pos_x, kept_vel, kept_forces, kept_energies;
    vkmd_box kept_cell;
    int kept;
    vkmd_barostat *baro; /* NULL: constant volume */
};

/* ---- setup -------------------------------------------------------------- */

double vkmd_md_outer_skin(double dt_fs)
{
    return fmax(2.0, 1.6 * dt_fs);
}

vkmd_result vkmd_md_desc_resolve(const vkmd_md_desc *in, vkmd_md_desc *d)
{
    *d = *in;
    if (d->dt_fs == 0)
        d->dt_fs = 2.0;
    if (d->temperature_k == 0)
        d->temperature_k = 300.0;
    if (d->friction_per_ps == 0)
        d->friction_per_ps = 1.0;
    if (d->constraint_tol == 0)
        d->constraint_tol = 1e-5;
    if (d->com_every == 0)
        d->com_every = 100;
    if (d->max_batch_steps == 0)
        d->max_batch_steps = 50;
    if (d->rebuild_every == 0)
        d->rebuild_every = 10;
    if (d->rebuild_every < 1 || d->rebuild_every > 1000)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "md: rebuild_every %d is outside 1..1000",
                         d->rebuild_every);
    if (!(d->dt_fs > 0 && d->dt_fs <= 10))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "md: time step %g fs is outside (0, 10] fs",
                         d->dt_fs);
    if (!(d->temperature_k > 0 && d->temperature_k < 1e5))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "md: temperature %g K is outside (0, 1e5) K",
                         d->temperature_k);
    if (!(d->friction_per_ps > 0 && d->friction_per_ps < 1e4))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "md: friction %g /ps is outside (0, 1e4) /ps",
                         d->friction_per_ps);
    if (!(d->constraint_tol > 0 && d->constraint_tol < 0.1))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "md: constraint tolerance %g is outside (0, 0.1)", d->constraint_tol);
    if (!(d->skin_a >= 0 && d->skin_a < 10) || !(d->outer_skin_a >= 0 && d->outer_skin_a < 20))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "md: neighbour-list skins %g and %g A are outside [0, 10) and [0, 20) A",
                         d->skin_a, d->outer_skin_a);
    if (d->max_batch_steps < 1 || d->max_batch_steps > 100000)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "md: max_batch_steps %d is outside 1..100000",
                         d->max_batch_steps);
    if (d->integrator != VKMD_INTEGRATOR_LANGEVIN && d->integrator != VKMD_INTEGRATOR_VERLET)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "md: unknown integrator %d", d->integrator);
    if (d->barostat_every == 0)
        d->barostat_every = 25;
    if (!(d->pressure_bar >= 0 && d->pressure_bar < 1e6))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "md: pressure %g bar is outside [0, 1e6) bar (0: no barostat; negative "
                         "pressures are refused: a box under tension can grow without bound)",
                         d->pressure_bar);
    if (d->barostat_every < 1 || d->barostat_every > 1000000)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "md: barostat_every %d is outside 1..1000000",
                         d->barostat_every);
    if ((unsigned)d->barostat > VKMD_BAROSTAT_MEMBRANE)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "md: unknown barostat mode %d", d->barostat);
    if (d->pressure_bar > 0 && d->integrator == VKMD_INTEGRATOR_VERLET)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "md: a barostat needs a thermostat (velocity Verlet is NVE, with no "
                         "temperature for the Monte Carlo acceptance): use Langevin");
    return VKMD_OK;
}

static vkmd_result make_buffer(vkmd_vk_context *ctx, const vkmd_md *md, VkDeviceSize size,
                               const char *name, vkmd_vk_buffer *out)
{
    const vkmd_vk_buffer_desc d = {
        .size = size, .force_staging = md->desc.force_staging, .name = name};
    return vkmd_vk_buffer_create(ctx, &d, out);
}

static vkmd_result create_pipelines(vkmd_vk_context *ctx, vkmd_md *md)
{
    vkmd_result res = VKMD_OK;
    const char *shader = NULL;
    VKMD_TRY(vkmd_fixed_shader(ctx, "md", "md.comp", &shader));
    const vkmd_vk_buffer *bufs[VKMD_MD_BINDING_COUNT] = {
        [VKMD_MD_BINDING_POSITIONS] = vkmd_forcefield_positions(md->ff),
        [VKMD_MD_BINDING_POSITIONS_REF] = &md->pos_ref,
        [VKMD_MD_BINDING_VELOCITIES] = &md->vel,
        [VKMD_MD_BINDING_FORCES] = &vkmd_forcefield_accum(md->ff)->forces,
        [VKMD_MD_BINDING_MOMENTUM] = &md->momentum,
        [VKMD_MD_BINDING_COUNTER] = &md->counter,
        [VKMD_MD_BINDING_MOLECULE] = &md->molecule,
        [VKMD_MD_BINDING_SHIFT] = &md->shift,
    };
    const int pm = md->settings.positions;
    VKMD_TRY(vkmd_positions_extra_binding(bufs[VKMD_MD_BINDING_POSITIONS],
                                          vkmd_forcefield_positions_x(md->ff), pm, md->atom_count,
                                          "md", &bufs[VKMD_MD_BINDING_POSITIONS_X]));
    VKMD_TRY(vkmd_positions_extra_binding(&md->pos_ref, &md->pos_ref_x, pm, md->atom_count, "md",
                                          &bufs[VKMD_MD_BINDING_REF_X]));
    for (uint32_t m = 0; m < VKMD_MD_MODE_COUNT; ++m) {
        const vkmd_vk_spec specs[] = {{VKMD_SPEC_WORKGROUP_SIZE, VKMD_MD_WORKGROUP_SIZE},
                                      {VKMD_SPEC_MD_MODE, m},
                                      {VKMD_SPEC_POSITIONS, (uint32_t)pm},
                                      {VKMD_SPEC_TRICLINIC, md->cell.triclinic ? 1u : 0u}};
        const vkmd_vk_pipeline_desc pd = {.shader = shader,
                                          .buffer_count = VKMD_MD_BINDING_COUNT,
                                          .push_size = sizeof(vkmd_md_push),
                                          .specs = specs,
                                          .spec_count = 4};
        VKMD_TRY(vkmd_vk_pipeline_create(ctx, &pd, &md->pipe[m]));
        VKMD_TRY(vkmd_vk_descset_create(ctx, &md->pipe[m], bufs, &md->set[m]));
    }
cleanup:
    return res;
}

/* Molecule table: [atom_count] molecule of each atom, then [count] first atoms. */
static vkmd_result upload_molecules(vkmd_vk_context *ctx, vkmd_md *md)
{
    const int32_t n = md->atom_count, m = md->mol.count;
    uint32_t *t = malloc(sizeof *t * (size_t)(n + m));
    if (!t)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "md: out of memory");
    for (int32_t i = 0; i < n; ++i)
        t[i] = (uint32_t)md->mol.atom_molecule[i];
    for (int32_t k = 0; k < m; ++k)
        t[n + k] = (uint32_t)md->mol.atoms[md->mol.first[k]];
    vkmd_result res = vkmd_vk_buffer_upload(ctx, &md->molecule, 0, t, sizeof *t * (size_t)(n + m));
    free(t);
    return res;
}

static void compute_push(vkmd_md *md)
{
    const vkmd_md_desc *d = &md->desc;
    vkmd_md_push *p = &md->push;
    memset(p, 0, sizeof *p);
    if (md->periodic && md->cell.triclinic) { /* layout_md.h: L, then T in w, tri_cx, tri_cy */
        const double(*v)[3] = md->cell.vec;
        const float cx = (float)v[2][0], cy = (float)v[2][1];
        p->box = (vkmd_gpu_vec4){(float)v[0][0], (float)v[1][1], (float)v[2][2], (float)v[1][0]};
        memcpy(&p->tri_cx, &cx, 4);
        memcpy(&p->tri_cy, &cy, 4);
    } else if (md->periodic) {
        p->box.x = (float)md->cell.len[0];
        p->box.y = (float)md->cell.len[1];
        p->box.z = (float)md->cell.len[2];
    }
    p->atom_count = (uint32_t)md->atom_count;
    p->molecule_count = (uint32_t)md->mol.count;
    p->dt_fs = (float)d->dt_fs;
    const double gamma_per_fs = d->friction_per_ps / VKMD_FS_PER_PS;
    const double c1 = exp(-gamma_per_fs * d->dt_fs);
    const double kt = VKMD_BOLTZMANN_KCAL * d->temperature_k;
    p->c1 = (float)c1;
    p->c2 = (float)sqrt(kt * (1 - c1 * c1) * VKMD_ACCEL_PER_FORCE_MASS);
    p->inv_total_mass = (float)(1.0 / md->total_mass);
    p->seed_lo = (uint32_t)d->seed;
    p->seed_hi = (uint32_t)(d->seed >> 32);
}

/* Packs host positions/velocities (double) into the device buffers. */
static vkmd_result upload_velocities(vkmd_vk_context *ctx, vkmd_md *md, const double *v)
{
    const int32_t n = md->atom_count;
    float *t = malloc(sizeof *t * 4 * (size_t)n);
    if (!t)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "md: out of memory");
    for (int32_t i = 0; i < n; ++i) {
        for (int c = 0; c < 3; ++c)
            t[4 * i + c] = v ? (float)v[3 * i + c] : 0.0f;
        const double m = md->sys->atoms[i].mass;
        t[4 * i + 3] = m > 0 ? (float)(1.0 / m) : 0.0f;
    }
    vkmd_result res = vkmd_vk_buffer_upload(ctx, &md->vel, 0, t, sizeof *t * 4 * (size_t)n);
    free(t);
    return res;
}

static vkmd_result read_vec4(vkmd_vk_context *ctx, const vkmd_md *md, const vkmd_vk_buffer *buf,
                             double *out)
{
    return vkmd_positions_readback(ctx, buf, out, md->atom_count);
}

static vkmd_result create_step(vkmd_vk_context *ctx, vkmd_md *md);

/* Evaluates the forces of the current positions (the invariant between
 * steps), growing the neighbour list if needed. */
static void free_batches(vkmd_vk_context *ctx, vkmd_md *md);

static vkmd_result prime_forces(vkmd_vk_context *ctx, vkmd_md *md)
{
    const vkmd_neighbor *before = vkmd_forcefield_neighbor(md->ff);
    vkmd_result res = vkmd_forcefield_evaluate(ctx, md->ff, NULL, NULL, NULL);
    if (res == VKMD_OK && md->step && vkmd_forcefield_neighbor(md->ff) != before) {
        free_batches(ctx, md); /* the list grew: recordings and the fused step name the old one */
        res = create_step(ctx, md);
    }
    return res;
}

vkmd_result vkmd_md_create(vkmd_vk_context *ctx, const vkmd_system *sys, const vkmd_md_desc *desc,
                           vkmd_md **out_md)
{
    vkmd_result res = VKMD_OK;
    double *x = NULL;
    *out_md = NULL;
    vkmd_md *md = calloc(1, sizeof *md);
    if (!md)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "md: out of memory");
    if (!desc->settings) {
        res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "md: force-field settings are required");
        goto cleanup;
    }
    VKMD_TRY(vkmd_md_desc_resolve(desc, &md->desc));
    if (!sys->positions) {
        res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "md: %s has no coordinates", sys->title);
        goto cleanup;
    }
    md->sys = sys;
    md->settings = *md->desc.settings;
    md->atom_count = sys->atom_count;
    md->periodic = sys->box.periodic;
    if (md->periodic)
        md->cell = sys->box;
    if (md->cell.triclinic && md->desc.pressure_bar > 0 && md->desc.barostat != VKMD_BAROSTAT_ISO) {
        res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                        "md: %s has a triclinic box: the barostat must be isotropic (anisotropic "
                        "and membrane moves scale edges apart and change the cell's angles)",
                        sys->title);
        goto cleanup;
    }
    /* Virtual sites are massless (inverse mass 0: the integrator never moves
     * them; the force field rebuilds them from their parents). Sites are
     * massless and distinct (vkmd_vsite_check), so the massless atoms are
     * exactly the sites when they are as many. */
    int32_t massless = 0, first_massless = -1;
    for (int32_t i = 0; i < sys->atom_count; ++i) {
        if (sys->atoms[i].mass == 0 && sys->vsite_count > 0) {
            if (massless++ == 0)
                first_massless = i;
        } else if (!(sys->atoms[i].mass > 0)) {
            res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                            "md: atom %d (%s %s %d) has mass %g amu; every atom needs a mass > 0",
                            i + 1, sys->atoms[i].name, sys->atoms[i].res_name,
                            sys->atoms[i].res_index + 1, sys->atoms[i].mass);
            goto cleanup;
        }
        md->total_mass += sys->atoms[i].mass;
    }
    if (massless != sys->vsite_count) {
        const int32_t i = first_massless;
        res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                        "md: %d massless atoms (the first atom %d, %s %s %d) but %d virtual "
                        "sites; a massless atom must be a virtual site",
                        massless, i + 1, i >= 0 ? sys->atoms[i].name : "-",
                        i >= 0 ? sys->atoms[i].res_name : "-",
                        i >= 0 ? sys->atoms[i].res_index + 1 : 0, sys->vsite_count);
        goto cleanup;
    }
    VKMD_TRY(vkmd_constraints_build(sys, !md->desc.flexible_water,
                                    md->desc.constraints == VKMD_CONSTRAINTS_HBONDS, &md->cset));
    md->dof = vkmd_constraints_dof(sys, &md->cset, md->desc.com_every > 0);
    if (md->dof <= 0) {
        res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "md: %s has no degrees of freedom left",
                        sys->title);
        goto cleanup;
    }
    VKMD_TRY(vkmd_molecules_build(sys, &md->mol));

    /* Host start state: molecules whole, wrapped, constraints satisfied. */
    const size_t n3 = 3 * (size_t)sys->atom_count;
    x = malloc(sizeof *x * n3);
    if (!x) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "md: out of memory");
        goto cleanup;
    }
    memcpy(x, sys->positions, sizeof *x * n3);
    vkmd_molecules_make_whole(sys, &md->mol, x);
    double *mass = malloc(sizeof *mass * (size_t)sys->atom_count);
    if (!mass) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "md: out of memory");
        goto cleanup;
    }
    for (int32_t i = 0; i < sys->atom_count; ++i)
        mass[i] = sys->atoms[i].mass;
    double *ref = malloc(sizeof *ref * n3);
    if (!ref) {
        free(mass);
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "md: out of memory");
        goto cleanup;
    }
    memcpy(ref, x, sizeof *ref * n3);
    res = vkmd_host_constraints_positions(&md->cset, mass, ref, x, NULL, 0,
                                          md->desc.constraint_tol * 0.1);
    free(ref);
    free(mass);
    if (res != VKMD_OK)
        goto cleanup;

    const vkmd_forcefield_desc fd = {.settings = &md->settings,
                                     .skin_a = md->desc.skin_a,
                                     .outer_skin_a = md->desc.outer_skin_a > 0
                                                         ? md->desc.outer_skin_a
                                                         : vkmd_md_outer_skin(md->desc.dt_fs),
                                     .force_staging = md->desc.force_staging,
                                     .restraints = md->desc.restraints};
    VKMD_TRY(vkmd_forcefield_create(ctx, sys, &fd, &md->ff));
    VKMD_TRY(vkmd_forcefield_upload_positions(ctx, md->ff, x));

    const VkDeviceSize v4 = 16 * (VkDeviceSize)sys->atom_count;
    VKMD_TRY(make_buffer(ctx, md, v4, "md positions_ref", &md->pos_ref));
    VKMD_TRY(make_buffer(ctx, md, v4, "md velocities", &md->vel));
    VKMD_TRY(make_buffer(ctx, md, v4, "md positions backup", &md->pos_backup));
    VKMD_TRY(make_buffer(ctx, md, v4, "md velocities backup", &md->vel_backup));
    VKMD_TRY(make_buffer(ctx, md, 16, "md step counter backup", &md->counter_backup));
    VKMD_TRY(vkmd_positions_create_extra(ctx, sys->atom_count, md->settings.positions,
                                         md->desc.force_staging, &md->pos_ref_x));
    VKMD_TRY(vkmd_positions_create_extra(ctx, sys->atom_count, md->settings.positions,
                                         md->desc.force_staging, &md->pos_x_backup));
    VKMD_TRY(make_buffer(ctx, md, 32, "md momentum", &md->momentum));
    VKMD_TRY(make_buffer(ctx, md, 16, "md step counter", &md->counter));
    VKMD_TRY(make_buffer(ctx, md, 4 * (VkDeviceSize)(sys->atom_count + md->mol.count),
                         "md molecules", &md->molecule));
    VKMD_TRY(make_buffer(ctx, md, 16 * (VkDeviceSize)md->mol.count, "md shifts", &md->shift));
    const uint32_t zero[8] = {0};
    VKMD_TRY(vkmd_vk_buffer_upload(ctx, &md->momentum, 0, zero, 32));
    VKMD_TRY(vkmd_vk_buffer_upload(ctx, &md->counter, 0, zero, 16));
    VKMD_TRY(upload_molecules(ctx, md));
    VKMD_TRY(upload_velocities(ctx, md, sys->velocities));

    const vkmd_sim_constraints_desc cd = {.set = &md->cset,
                                          .positions = vkmd_forcefield_positions(md->ff),
                                          .positions_ref = &md->pos_ref,
                                          .velocities = &md->vel,
                                          .positions_x = vkmd_forcefield_positions_x(md->ff),
                                          .positions_ref_x = &md->pos_ref_x,
                                          .positions_mode = md->settings.positions,
                                          .tol = md->desc.constraint_tol,
                                          .force_staging = md->desc.force_staging};
    VKMD_TRY(vkmd_sim_constraints_create(ctx, sys, &cd, &md->cons));
    VKMD_TRY(create_pipelines(ctx, md));
    compute_push(md);
    VKMD_TRY(create_step(ctx, md));
    VKMD_TRY(prime_forces(ctx, md));
    if (md->desc.pressure_bar > 0)
        VKMD_TRY(vkmd_md_set_pressure(md, md->desc.pressure_bar));
    *out_md = md;
    md = NULL;
cleanup:
    free(x);
    vkmd_md_destroy(ctx, md);
    return res;
}

static void free_batches(vkmd_vk_context *ctx, vkmd_md *md)
{
    for (int i = 0; i < BATCH_CACHE; ++i) {
        vkmd_vk_cmd_destroy(ctx, &md->batch[i].cmd);
        memset(&md->batch[i], 0, sizeof md->batch[i]);
    }
}

void vkmd_md_destroy(vkmd_vk_context *ctx, vkmd_md *md)
{
    if (!md)
        return;
    free_batches(ctx, md);
    vkmd_barostat_destroy(md->baro);
    vkmd_step_destroy(ctx, md->step);
    for (int m = 0; m < VKMD_MD_MODE_COUNT; ++m) {
        vkmd_vk_descset_destroy(ctx, &md->set[m]);
        vkmd_vk_pipeline_destroy(ctx, &md->pipe[m]);
    }
    vkmd_sim_constraints_destroy(ctx, md->cons);
    vkmd_vk_buffer *bufs[] = {
        &md->pos_ref,        &md->vel,       &md->pos_backup,   &md->vel_backup,
        &md->counter_backup, &md->momentum,  &md->counter,      &md->molecule,
        &md->shift,          &md->pos_ref_x, &md->pos_x_backup, &md->kept_pos,
        &md->kept_pos_x,     &md->kept_vel,  &md->kept_forces,  &md->kept_energies};
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; ++i)
        vkmd_vk_buffer_destroy(ctx, bufs[i]);
    vkmd_forcefield_destroy(ctx, md->ff);
    vkmd_molecules_destroy(&md->mol);
    vkmd_constraints_destroy(&md->cset);
    free(md);
}

/* ---- recording ---------------------------------------------------------- */

static void dispatch(const vkmd_md *md, VkCommandBuffer cb, uint32_t mode, uint32_t threads,
                     const vkmd_md_push *push)
{
    uint32_t groups = vkmd_vk_div_up(threads, VKMD_MD_WORKGROUP_SIZE);
    if (groups == 0)
        groups = 1;
    vkmd_vk_dispatch(cb, &md->pipe[mode], &md->set[mode], push, groups, 1, 1);
}

static void copy_buffer(VkCommandBuffer cb, const vkmd_vk_buffer *src, const vkmd_vk_buffer *dst)
{
    const VkBufferCopy region = {.size = src->size < dst->size ? src->size : dst->size};
    vkCmdCopyBuffer(cb, src->buffer, dst->buffer, 1, &region);
}

static void record_constrain_positions(const vkmd_md *md, VkCommandBuffer cb, float dt_fs)
{
    if (md->cset.constraint_count > 0)
        vkmd_sim_constraints_record_positions(md->cons, cb, dt_fs);
}

static void record_constrain_velocities(const vkmd_md *md, VkCommandBuffer cb)
{
    if (md->cset.constraint_count > 0)
        vkmd_sim_constraints_record_velocities(md->cons, cb);
}

/* Timestamp marks of a profiled batch (vkmd_md_profile_steps); NULL in
 * normal batches. Mark k closes the interval (from[k], k] of pass[k]; the
 * force field's own marks sit in ff_slot[i] .. + VKMD_FORCEFIELD_TIMER_SLOTS. */
#define PROFILE_MAX_STEPS      16
#define PROFILE_SLOTS_PER_STEP (8 + VKMD_FORCEFIELD_TIMER_SLOTS)
#define PROFILE_SLOTS          (PROFILE_MAX_STEPS * PROFILE_SLOTS_PER_STEP + 8)
enum { PASS_FF_TOTAL = VKMD_MD_PASS_COUNT };
typedef struct md_marks {
    const vkmd_vk_timer *timer;
    uint32_t next, last;
    uint32_t from[PROFILE_SLOTS];
    uint8_t pass[PROFILE_SLOTS];
    uint32_t ff_slot[PROFILE_MAX_STEPS];
    int32_t ff_count;
} md_marks;

static void mark(md_marks *m, VkCommandBuffer cb, int pass)
{
    if (!m || m->next >= PROFILE_SLOTS)
        return;
    vkmd_vk_timer_record_mark(cb, m->timer, m->next);
    m->from[m->next] = m->last;
    m->pass[m->next] = (uint8_t)pass;
    m->last = m->next++;
}

static void record_forces(const vkmd_md *md, VkCommandBuffer cb, md_marks *m, int energy)
{
    const unsigned flags = energy ? VKMD_FF_RECORD_ENERGY : 0u;
    if (!m) {
        vkmd_forcefield_record(md->ff, cb, flags, NULL, 0);
        return;
    }
    const uint32_t before = m->last, first = m->next;
    vkmd_forcefield_record(md->ff, cb, flags, m->timer, first);
    m->ff_slot[m->ff_count++] = first;
    m->next += VKMD_FORCEFIELD_TIMER_SLOTS;
    m->last = before;
    mark(m, cb, PASS_FF_TOTAL);
}

/* One step; energy: the step's force evaluation sums energies too (the last
 * step of a batch, whose state a report reads). */
static void record_step(const vkmd_md *md, VkCommandBuffer cb, uint32_t offset, md_marks *m,
                        int energy)
{
    const uint32_t n = (uint32_t)md->atom_count;
    vkmd_md_push p = md->push;
    p.step_offset = offset;
    if (md->desc.integrator == VKMD_INTEGRATOR_VERLET) {
        dispatch(md, cb, VKMD_MD_MODE_VV_KICK_DRIFT, n, &p);
        vkmd_vk_barrier_compute(cb);
        mark(m, cb, VKMD_MD_PASS_INTEGRATE);
        record_constrain_positions(md, cb, p.dt_fs);
        mark(m, cb, VKMD_MD_PASS_CONSTRAINTS);
        record_forces(md, cb, m, energy);
        dispatch(md, cb, VKMD_MD_MODE_VV_KICK, n, &p);
        vkmd_vk_barrier_compute(cb);
        mark(m, cb, VKMD_MD_PASS_INTEGRATE);
        record_constrain_velocities(md, cb);
        mark(m, cb, VKMD_MD_PASS_CONSTRAINTS);
    } else {
        dispatch(md, cb, VKMD_MD_MODE_LM_KICK, n, &p);
        vkmd_vk_barrier_compute(cb);
        mark(m, cb, VKMD_MD_PASS_INTEGRATE);
        record_constrain_velocities(md, cb);
        mark(m, cb, VKMD_MD_PASS_CONSTRAINTS);
        dispatch(md, cb, VKMD_MD_MODE_LM_DRIFT, n, &p);
        vkmd_vk_barrier_compute(cb);
        mark(m, cb, VKMD_MD_PASS_INTEGRATE);
        record_constrain_positions(md, cb, p.dt_fs);
        mark(m, cb, VKMD_MD_PASS_CONSTRAINTS);
        record_forces(md, cb, m, energy);
    }
}

static void step_mark(void *user, VkCommandBuffer cb, int piece)
{
    static const int pass_of[] = {
        [VKMD_STEP_PIECE_STEP] = VKMD_MD_PASS_STEP,
        [VKMD_STEP_PIECE_REBUILD] = VKMD_MD_PASS_NEIGHBOR,
        [VKMD_STEP_PIECE_FORCES] = VKMD_MD_PASS_FORCES,
        [VKMD_STEP_PIECE_SPECTRAL] = VKMD_MD_PASS_PME_FFT,
        [VKMD_STEP_PIECE_GATHER] = VKMD_MD_PASS_PME_GATHER,
        [VKMD_STEP_PIECE_CLOSE] = VKMD_MD_PASS_STEP,
    };
    mark(user, cb, pass_of[piece]);
}

/* A batch: backups, `steps` steps, COM removal if asked, wrap, advance.
 * dense: (fused) a rebuild recorded at every step. */
static vkmd_result record_batch(vkmd_vk_context *ctx, const vkmd_md *md, vkmd_vk_cmd *cmd,
                                int32_t steps, int with_com, int dense, md_marks *m)
{
    vkmd_result res = VKMD_OK;
    VKMD_TRY(vkmd_vk_cmd_begin(ctx, cmd));
    VkCommandBuffer cb = cmd->cb;
    const uint32_t n = (uint32_t)md->atom_count;
    if (m) {
        vkmd_vk_timer_record_reset(cb, m->timer);
        m->next = m->last = 0;
        m->ff_count = 0;
        mark(m, cb, VKMD_MD_PASS_REDUCE);
    }
    vkmd_vk_barrier_compute_to_transfer(cb);
    copy_buffer(cb, vkmd_forcefield_positions(md->ff), &md->pos_backup);
    if (md->pos_x_backup.buffer)
        copy_buffer(cb, vkmd_forcefield_positions_x(md->ff), &md->pos_x_backup);
    copy_buffer(cb, &md->vel, &md->vel_backup);
    copy_buffer(cb, &md->counter, &md->counter_backup);
    if (md->step) /* the fused step spreads onto a cleared charge grid */
        vkmd_pass_pme_record_fill(vkmd_forcefield_pme(md->ff), cb);
    vkmd_vk_barrier_transfer_to_compute(cb);
    mark(m, cb, VKMD_MD_PASS_REDUCE);
    if (md->step) {
        const int32_t every = dense ? 1 : md->desc.rebuild_every;
        for (int32_t s = 0; s < steps; ++s) {
            const unsigned flags = (s == 0 ? VKMD_STEP_FIRST : 0u) |
                                   (s == steps - 1 ? VKMD_STEP_ENERGY : 0u) |
                                   (s % every == 0 ? VKMD_STEP_REBUILD : 0u);
            vkmd_step_record(md->step, cb, (uint32_t)s, flags, m ? step_mark : NULL, m);
        }
        vkmd_step_record_close(md->step, cb, m ? step_mark : NULL, m);
    } else {
        for (int32_t s = 0; s < steps; ++s)
            record_step(md, cb, (uint32_t)s, m, s == steps - 1);
    }
    vkmd_md_push p = md->push;
    if (with_com) {
        dispatch(md, cb, VKMD_MD_MODE_COM_SUM, n, &p);
        vkmd_vk_barrier_compute(cb);
        dispatch(md, cb, VKMD_MD_MODE_COM_APPLY, n, &p);
        vkmd_vk_barrier_compute(cb);
    }
    if (md->periodic) {
        dispatch(md, cb, VKMD_MD_MODE_WRAP_SHIFT, (uint32_t)md->mol.count, &p);
        vkmd_vk_barrier_compute(cb);
        dispatch(md, cb, VKMD_MD_MODE_WRAP_APPLY, n, &p);
        vkmd_vk_barrier_compute(cb);
    }
    p.steps = (uint32_t)steps;
    dispatch(md, cb, VKMD_MD_MODE_ADVANCE, 1, &p);
    mark(m, cb, VKMD_MD_PASS_REDUCE);
    vkmd_vk_barrier_compute_to_transfer(cb);
    vkmd_vk_barrier_device_to_host(cb);
    VKMD_TRY(vkmd_vk_cmd_end(ctx, cmd));
cleanup:
    return res;
}

static vkmd_result get_batch(vkmd_vk_context *ctx, vkmd_md *md, int32_t steps, int with_com,
                             int dense, md_batch **out)
{
    vkmd_result res = VKMD_OK;
    md_batch *slot = NULL;
    for (int i = 0; i < BATCH_CACHE; ++i)
        if (md->batch[i].steps == steps && md->batch[i].with_com == with_com &&
            md->batch[i].dense == dense) {
            slot = &md->batch[i];
            slot->last_use = ++md->use_clock;
            *out = slot;
            return VKMD_OK;
        }
    slot = &md->batch[0];
    for (int i = 1; i < BATCH_CACHE; ++i)
        if (md->batch[i].last_use < slot->last_use)
            slot = &md->batch[i];
    if (!slot->cmd.cb)
        VKMD_TRY(vkmd_vk_cmd_create(ctx, &slot->cmd));
    slot->steps = 0;
    VKMD_TRY(record_batch(ctx, md, &slot->cmd, steps, with_com, dense, NULL));
    slot->steps = steps;
    slot->with_com = with_com;
    slot->dense = dense;
    slot->last_use = ++md->use_clock;
    *out = slot;
cleanup:
    return res;
}

/* Puts the state saved at the start of the last batch back. */
static vkmd_result restore_backup(vkmd_vk_context *ctx, vkmd_md *md)
{
    vkmd_result res = VKMD_OK;
    VkCommandBuffer cb = VK_NULL_HANDLE;
    VKMD_TRY(vkmd_vk_oneshot_begin(ctx, &cb));
    copy_buffer(cb, &md->pos_backup, vkmd_forcefield_positions(md->ff));
    if (md->pos_x_backup.buffer)
        copy_buffer(cb, &md->pos_x_backup, vkmd_forcefield_positions_x(md->ff));
    copy_buffer(cb, &md->vel_backup, &md->vel);
    copy_buffer(cb, &md->counter_backup, &md->counter);
    vkmd_vk_buffer_record_fill(cb, &md->momentum, 0);
    VKMD_TRY(vkmd_vk_oneshot_submit(ctx, cb));
cleanup:
    return res;
}

/* Submits a batch of `steps` (the cached recording, or recorded with marks
 * into `own`) and waits; if the neighbour list overflowed inside it, puts the
 * backups back, grows the list and repeats the batch. */
/* Whether to take the fused step (sim/step.h) where the system allows it:
 * desc.unfused 1 or $VKMD_MD_UNFUSED=1: no; desc.unfused -1 or
 * $VKMD_MD_UNFUSED=0: yes; else yes on a CPU device only. On an NVIDIA H200
 * the pass-by-pass step was the faster (DHFR at 4 fs 731 against 519
 * ns/day; docs/BENCHMARKS.md): its list is checked and may be rebuilt at
 * every step, where the fused step's rebuilds come only every rebuild_every
 * steps, early (by extrapolation) or too late (the batch repeated). */
static int want_fused(const vkmd_vk_context *ctx, const vkmd_md *md)
{
    /* Virtual sites are built and spread inside vkmd_forcefield_record,
     * which only the pass-by-pass step calls. */
    if (md->sys->vsite_count > 0)
        return 0;
    if (md->desc.unfused)
        return md->desc.unfused < 0;
    const char *env = getenv("VKMD_MD_UNFUSED");
    if (env && *env)
        return strcmp(env, "0") == 0;
    return ctx->info.type == VK_PHYSICAL_DEVICE_TYPE_CPU;
}

/* The fused step for a periodic system with PME when want_fused; re-created
 * after the neighbour list grows. */
static vkmd_result create_step(vkmd_vk_context *ctx, vkmd_md *md)
{
    vkmd_step_destroy(ctx, md->step);
    md->step = NULL;
    /* The fused step takes rectangular boxes only: a triclinic cell runs
     * pass by pass. */
    if (!want_fused(ctx, md) || !md->periodic || !vkmd_forcefield_pme(md->ff) || md->cell.triclinic)
        return VKMD_OK;
    const vkmd_step_desc sd = {.ff = md->ff,
                               .constraints = md->cons,
                               .set = &md->cset,
                               .positions_ref = &md->pos_ref,
                               .positions_ref_x = &md->pos_ref_x,
                               .velocities = &md->vel,
                               .counter = &md->counter,
                               .verlet = md->desc.integrator == VKMD_INTEGRATOR_VERLET,
                               .dt_fs = md->push.dt_fs,
                               .c1 = md->push.c1,
                               .c2 = md->push.c2,
                               .seed = md->desc.seed,
                               .rebuild_every = md->desc.rebuild_every,
                               .force_staging = md->desc.force_staging};
    return vkmd_step_create(ctx, md->sys, &sd, &md->step);
}

/* Submits a batch of `steps` (the cached recording, or recorded with marks
 * into `own`) and waits; if the neighbour list overflowed inside it, puts the
 * backups back, grows the list and repeats the batch; if (fused) a rebuild
 * was due at a step that records none, puts the backups back and repeats
 * the batch with a rebuild recorded at every step. */
static vkmd_result run_batch(vkmd_vk_context *ctx, vkmd_md *md, int32_t steps, int with_com,
                             md_marks *m, vkmd_vk_cmd *own)
{
    vkmd_result res = VKMD_OK;
    int dense = 0;
    if (md->step_stale) {
        free_batches(ctx, md);
        VKMD_TRY(create_step(ctx, md));
        md->step_stale = 0;
    }
    for (int attempt = 0;; ++attempt) {
        vkmd_vk_cmd *cmd = own;
        if (own) {
            VKMD_TRY(record_batch(ctx, md, own, steps, with_com, dense, m));
        } else {
            md_batch *b = NULL;
            VKMD_TRY(get_batch(ctx, md, steps, with_com, dense, &b));
            cmd = &b->cmd;
        }
        VKMD_TRY(vkmd_vk_cmd_submit_wait(ctx, cmd));
        vkmd_neighbor_stats ns;
        res = vkmd_forcefield_check_list(ctx, md->ff, &ns);
        if (res == VKMD_ERROR_CAPACITY && attempt < 3) {
            VKMD_TRY(restore_backup(ctx, md));
            VKMD_TRY(vkmd_forcefield_grow_neighbors(ctx, md->ff));
            free_batches(ctx, md);
            VKMD_TRY(create_step(ctx, md)); /* the list's buffers are new */
            VKMD_TRY(prime_forces(ctx, md));
            continue;
        }
        if (res == VKMD_OK && md->step && !dense && ns.missed) {
            vkmd_log_debug("md: a list rebuild was due between recorded rebuilds; the batch of "
                           "%d steps is repeated with one at every step",
                           steps);
            VKMD_TRY(vkmd_forcefield_clear_missed(ctx, md->ff));
            VKMD_TRY(restore_backup(ctx, md));
            VKMD_TRY(prime_forces(ctx, md));
            md->repeats += steps;
            dense = 1;
            continue;
        }
        break;
    }
    if (res == VKMD_OK)
        md->steps_done += steps;
cleanup:
    return res;
}

vkmd_result vkmd_md_step(vkmd_vk_context *ctx, vkmd_md *md, int64_t steps)
{
    vkmd_result res = VKMD_OK;
    if (steps < 0)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "md: negative step count %lld",
                         (long long)steps);
    const int baro = md->baro && md->desc.pressure_bar > 0;
    const int64_t baro_every = md->desc.barostat_every;
    while (steps > 0) {
        int64_t c = steps < md->desc.max_batch_steps ? steps : md->desc.max_batch_steps;
        if (baro) { /* batches end at barostat steps */
            const int64_t next = (md->steps_done / baro_every + 1) * baro_every;
            if (md->steps_done + c > next)
                c = next - md->steps_done;
        }
        int with_com = 0;
        if (md->desc.com_every > 0) {
            const int64_t every = md->desc.com_every;
            const int64_t next = (md->steps_done / every + 1) * every; /* next COM step */
            if (md->steps_done + c >= next) {
                c = next - md->steps_done;
                with_com = 1;
            }
        }
        VKMD_TRY(run_batch(ctx, md, (int32_t)c, with_com, NULL, NULL));
        steps -= c;
        if (baro && md->steps_done % baro_every == 0)
            VKMD_TRY(vkmd_barostat_attempt(ctx, md->baro, md, NULL));
    }
cleanup:
    return res;
}

vkmd_result vkmd_md_minimize(vkmd_vk_context *ctx, vkmd_md *md, const vkmd_minimize_desc *d,
                             vkmd_minimize_result *out)
{
    vkmd_result res = VKMD_OK;
    vkmd_minimize_desc dd = d ? *d : (vkmd_minimize_desc){0};
    if (dd.constraint_tol == 0)
        dd.constraint_tol = md->desc.constraint_tol;
    VKMD_TRY(vkmd_minimize_run(ctx, md->ff, md->cset.constraint_count > 0 ? md->cons : NULL,
                               &md->pos_ref, md->pos_ref_x.buffer ? &md->pos_ref_x : NULL, &md->vel,
                               &dd, out));
    /* The list may have grown (recorded batches name the old one). */
    for (int i = 0; i < BATCH_CACHE; ++i)
        md->batch[i].steps = 0;
    VKMD_TRY(upload_velocities(ctx, md, NULL));
    VKMD_TRY(prime_forces(ctx, md));
cleanup:
    return res;
}

vkmd_result vkmd_md_set_integrator(vkmd_md *md, vkmd_integrator integrator)
{
    if (integrator != VKMD_INTEGRATOR_LANGEVIN && integrator != VKMD_INTEGRATOR_VERLET)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "md: unknown integrator %d", integrator);
    if (integrator == VKMD_INTEGRATOR_VERLET && md->desc.pressure_bar > 0)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "md: velocity Verlet with the barostat on (set the pressure to 0 first)");
    if (integrator != md->desc.integrator) {
        md->desc.integrator = integrator;
        for (int i = 0; i < BATCH_CACHE; ++i)
            md->batch[i].steps = 0;        /* re-recorded on next use */
        md->step_stale = md->step != NULL; /* the fused step records one integrator */
    }
    return VKMD_OK;
}

vkmd_result vkmd_md_set_temperature(vkmd_md *md, double temperature_k)
{
    if (!(temperature_k >= 0) || !isfinite(temperature_k))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "md: bath temperature %g K (must be finite and >= 0)", temperature_k);
    if (temperature_k != md->desc.temperature_k) {
        md->desc.temperature_k = temperature_k;
        compute_push(md);
        for (int i = 0; i < BATCH_CACHE; ++i)
            md->batch[i].steps = 0;        /* re-recorded on next use */
        md->step_stale = md->step != NULL; /* the fused step holds the bath's constants */
    }
    return VKMD_OK;
}

double vkmd_md_temperature(const vkmd_md *md)
{
    return md->desc.temperature_k;
}

/* ---- state in and out --------------------------------------------------- */

vkmd_result vkmd_md_read(vkmd_vk_context *ctx, vkmd_md *md, vkmd_md_report *out_report,
                         double *out_positions, double *out_velocities)
{
    vkmd_result res = VKMD_OK;
    const size_t n3 = 3 * (size_t)md->atom_count;
    double *x = out_positions, *v = out_velocities;
    double *tmp = NULL, *mass = NULL;
    if (out_report) {
        /* KE needs positions for the constraint projection below. */
        tmp = malloc(sizeof *tmp * (2 * n3 + (size_t)md->atom_count));
        if (!tmp)
            return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "md: out of memory");
        if (!x)
            x = tmp;
        if (!v)
            v = tmp + n3;
        mass = tmp + 2 * n3;
    }
    if (x)
        VKMD_TRY(vkmd_forcefield_read_positions(ctx, md->ff, x));
    if (v)
        VKMD_TRY(read_vec4(ctx, md, &md->vel, v));
    if (out_report) {
        vkmd_md_report *r = out_report;
        memset(r, 0, sizeof *r);
        r->step = md->steps_done;
        r->time_ps = (double)md->steps_done * md->desc.dt_fs / VKMD_FS_PER_PS;
        VKMD_TRY(vkmd_forcefield_readback(ctx, md->ff, &r->potential, NULL));
        /* After a Langevin step part of the noise along each constraint is
         * still in v (the next step's velocity constraint removes it); the
         * kinetic energy is that of the constrained velocities, as after a
         * Verlet step (a projection of a copy: the state is not touched). */
        double *vk = v;
        double *vc = NULL;
        if (md->cset.constraint_count > 0) {
            vc = malloc(sizeof *vc * n3);
            if (!vc) {
                res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "md: out of memory");
                goto cleanup;
            }
            memcpy(vc, v, sizeof *vc * n3);
            for (int32_t i = 0; i < md->atom_count; ++i)
                mass[i] = md->sys->atoms[i].mass;
            res = vkmd_host_constraints_velocities(&md->cset, mass, x, vc, md->desc.constraint_tol);
            if (res != VKMD_OK) {
                free(vc);
                goto cleanup;
            }
            vk = vc;
        }
        r->kinetic = vkmd_kinetic_energy(md->sys, vk);
        free(vc);
        r->total = r->potential.total + r->kinetic;
        r->temperature_k = 2 * r->kinetic / ((double)md->dof * VKMD_BOLTZMANN_KCAL);
        if (md->periodic) {
            for (int d = 0; d < 3; ++d)
                r->box[d] = md->cell.len[d];
            r->cell = md->cell;
            if (md->cell.triclinic) { /* the cell's volume: ax by cz */
                r->volume_a3 = vkmd_box_volume_a3(&md->cell);
                const double as_brick[3] = {r->volume_a3, 1.0, 1.0};
                r->density_g_cm3 = vkmd_density_g_cm3(vkmd_system_mass(md->sys), as_brick);
            } else {
                r->volume_a3 = vkmd_box_volume(r->box);
                r->density_g_cm3 = vkmd_density_g_cm3(vkmd_system_mass(md->sys), r->box);
            }
        }
    }
cleanup:
    free(tmp);
    return res;
}

vkmd_result vkmd_md_set_state(vkmd_vk_context *ctx, vkmd_md *md, const double *positions,
                              const double *velocities)
{
    vkmd_result res = VKMD_OK;
    if (positions)
        VKMD_TRY(vkmd_forcefield_upload_positions(ctx, md->ff, positions));
    if (velocities)
        VKMD_TRY(upload_velocities(ctx, md, velocities));
    /* A fresh neighbour list from these positions: the forces then depend on
     * the state alone, not on when the list was last built, so a run
     * restarted from a checkpoint continues bitwise like the run that wrote
     * it (which calls this too after writing). */
    VkCommandBuffer cb = VK_NULL_HANDLE;
    VKMD_TRY(vkmd_vk_oneshot_begin(ctx, &cb));
    vkmd_forcefield_record_invalidate(md->ff, cb);
    VKMD_TRY(vkmd_vk_oneshot_submit(ctx, cb));
    VKMD_TRY(prime_forces(ctx, md));
cleanup:
    return res;
}

vkmd_result vkmd_md_set_restraint_k(vkmd_vk_context *ctx, vkmd_md *md, double k)
{
    vkmd_result res = VKMD_OK;
    const size_t n3 = 3 * (size_t)md->atom_count;
    double *x = malloc(sizeof *x * n3), *v = malloc(sizeof *v * n3);
    if (!x || !v) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "md: restraint k state copy");
        goto cleanup;
    }
    VKMD_TRY(vkmd_forcefield_set_restraint_k(ctx, md->ff, k));
    VKMD_TRY(vkmd_md_read(ctx, md, NULL, x, v));
    VKMD_TRY(vkmd_md_set_state(ctx, md, x, v));
cleanup:
    free(x);
    free(v);
    return res;
}

vkmd_result vkmd_md_set_step(vkmd_vk_context *ctx, vkmd_md *md, int64_t step)
{
    if (step < 0)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "md: negative step %lld", (long long)step);
    const uint32_t c[4] = {(uint32_t)((uint64_t)step & 0xffffffffu),
                           (uint32_t)((uint64_t)step >> 32), 0, 0};
    vkmd_result res = vkmd_vk_buffer_upload(ctx, &md->counter, 0, c, 16);
    if (res == VKMD_OK)
        md->steps_done = step;
    return res;
}

vkmd_result vkmd_md_init_velocities(vkmd_vk_context *ctx, vkmd_md *md, double temperature_k,
                                    uint64_t seed)
{
    vkmd_result res = VKMD_OK;
    const vkmd_system *sys = md->sys;
    const int32_t n = md->atom_count;
    double *x = malloc(sizeof *x * 3 * (size_t)n);
    double *v = malloc(sizeof *v * 3 * (size_t)n);
    double *mass = malloc(sizeof *mass * (size_t)n);
    if (!x || !v || !mass) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "md: out of memory");
        goto cleanup;
    }
    if (!(temperature_k >= 0 && temperature_k < 1e5)) {
        res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                        "md: initial temperature %g K is outside [0, 1e5) K", temperature_k);
        goto cleanup;
    }
    VKMD_TRY(vkmd_forcefield_read_positions(ctx, md->ff, x));
    for (int32_t i = 0; i < n; ++i) {
        mass[i] = sys->atoms[i].mass;
        double g[3];
        vkmd_philox_gauss3(seed, 0, (uint32_t)i, 1, g);
        const double s =
            mass[i] > 0
                ? sqrt(VKMD_BOLTZMANN_KCAL * temperature_k / mass[i] * VKMD_ACCEL_PER_FORCE_MASS)
                : 0.0; /* virtual sites: no velocity */
        for (int c = 0; c < 3; ++c)
            v[3 * i + c] = s * g[c];
    }
    for (int pass = 0; pass < 2; ++pass) {
        if (md->desc.com_every > 0)
            vkmd_remove_com_velocity(sys, v);
        VKMD_TRY(vkmd_host_constraints_velocities(&md->cset, mass, x, v, md->desc.constraint_tol));
    }
    const double ke = vkmd_kinetic_energy(sys, v);
    const double t_now = 2 * ke / ((double)md->dof * VKMD_BOLTZMANN_KCAL);
    const double scale = t_now > 0 ? sqrt(temperature_k / t_now) : 0;
    for (size_t k = 0; k < 3 * (size_t)n; ++k)
        v[k] *= scale;
    VKMD_TRY(upload_velocities(ctx, md, v));
cleanup:
    free(x);
    free(v);
    free(mass);
    return res;
}

vkmd_result vkmd_md_constraint_violation(vkmd_vk_context *ctx, vkmd_md *md, double *out_water_a,
                                         double *out_hbond_rel)
{
    vkmd_result res = VKMD_OK;
    double *x = malloc(sizeof *x * 3 * (size_t)md->atom_count);
    if (!x)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "md: out of memory");
    VKMD_TRY(vkmd_forcefield_read_positions(ctx, md->ff, x));
    vkmd_host_constraints_violation(&md->cset, x, out_water_a, out_hbond_rel);
cleanup:
    free(x);
    return res;
}

int64_t vkmd_md_dof(const vkmd_md *md)
{
    return md->dof;
}

int64_t vkmd_md_steps_done(const vkmd_md *md)
{
    return md->steps_done;
}

const vkmd_constraint_set *vkmd_md_constraint_set(const vkmd_md *md)
{
    return &md->cset;
}

const vkmd_system *vkmd_md_system(const vkmd_md *md)
{
    return md->sys;
}

const vkmd_molecules *vkmd_md_molecules(const vkmd_md *md)
{
    return &md->mol;
}

double vkmd_md_cutoff(const vkmd_md *md)
{
    return md->settings.cutoff_a;
}

/* ---- box and barostat --------------------------------------------------- */

/* The box into every constant and recording (no list rebuild, no forces). */
static vkmd_result apply_box(vkmd_vk_context *ctx, vkmd_md *md, const vkmd_box *cell)
{
    vkmd_result res = VKMD_OK;
    if (!md->periodic)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "md: %s has no periodic box to change",
                         md->sys->title);
    VKMD_TRY(vkmd_forcefield_set_cell(md->ff, cell));
    md->cell = *cell;
    compute_push(md);
    free_batches(ctx, md);
    if (md->step)
        VKMD_TRY(vkmd_step_update(ctx, md->step));
cleanup:
    return res;
}

vkmd_result vkmd_md_set_cell_state(vkmd_vk_context *ctx, vkmd_md *md, const vkmd_box *cell,
                                   const double *positions)
{
    vkmd_result res = VKMD_OK;
    VKMD_TRY(apply_box(ctx, md, cell));
    VKMD_TRY(vkmd_md_set_state(ctx, md, positions, NULL));
cleanup:
    return res;
}

vkmd_result vkmd_md_set_box_state(vkmd_vk_context *ctx, vkmd_md *md, const double box[3],
                                  const double *positions)
{
    if (!(box[0] > 0 && box[1] > 0 && box[2] > 0 && isfinite(box[0] * box[1] * box[2])))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "md: box %g x %g x %g A is not a box", box[0],
                         box[1], box[2]);
    vkmd_box cell;
    vkmd_box_set_rect(&cell, box);
    return vkmd_md_set_cell_state(ctx, md, &cell, positions);
}

vkmd_result vkmd_md_set_box(vkmd_vk_context *ctx, vkmd_md *md, const double box[3])
{
    return vkmd_md_set_box_state(ctx, md, box, NULL);
}

void vkmd_md_get_box(const vkmd_md *md, double out_box[3])
{
    for (int d = 0; d < 3; ++d)
        out_box[d] = md->periodic ? md->cell.len[d] : 0.0;
}

void vkmd_md_get_cell(const vkmd_md *md, vkmd_box *out_cell)
{
    *out_cell = md->cell;
}

static vkmd_result keep_buffer(vkmd_vk_context *ctx, vkmd_md *md, const vkmd_vk_buffer *like,
                               const char *name, vkmd_vk_buffer *out)
{
    return out->buffer ? VKMD_OK : make_buffer(ctx, md, like->size, name, out);
}

vkmd_result vkmd_md_save_state(vkmd_vk_context *ctx, vkmd_md *md)
{
    vkmd_result res = VKMD_OK;
    const vkmd_accum *acc = vkmd_forcefield_accum(md->ff);
    const vkmd_vk_buffer *px = vkmd_forcefield_positions_x(md->ff);
    VKMD_TRY(keep_buffer(ctx, md, vkmd_forcefield_positions(md->ff), "md kept positions",
                         &md->kept_pos));
    if (px)
        VKMD_TRY(keep_buffer(ctx, md, px, "md kept positions parts", &md->kept_pos_x));
    VKMD_TRY(keep_buffer(ctx, md, &md->vel, "md kept velocities", &md->kept_vel));
    VKMD_TRY(keep_buffer(ctx, md, &acc->forces, "md kept forces", &md->kept_forces));
    VKMD_TRY(keep_buffer(ctx, md, &acc->energies, "md kept energies", &md->kept_energies));
    VkCommandBuffer cb = VK_NULL_HANDLE;
    VKMD_TRY(vkmd_vk_oneshot_begin(ctx, &cb));
    vkmd_vk_barrier_compute_to_transfer(cb);
    copy_buffer(cb, vkmd_forcefield_positions(md->ff), &md->kept_pos);
    if (px)
        copy_buffer(cb, px, &md->kept_pos_x);
    copy_buffer(cb, &md->vel, &md->kept_vel);
    copy_buffer(cb, &acc->forces, &md->kept_forces);
    copy_buffer(cb, &acc->energies, &md->kept_energies);
    VKMD_TRY(vkmd_vk_oneshot_submit(ctx, cb));
    md->kept_cell = md->cell;
    md->kept = 1;
cleanup:
    return res;
}

vkmd_result vkmd_md_restore_state(vkmd_vk_context *ctx, vkmd_md *md)
{
    vkmd_result res = VKMD_OK;
    if (!md->kept)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "md: no saved state to restore");
    const vkmd_accum *acc = vkmd_forcefield_accum(md->ff);
    const vkmd_vk_buffer *px = vkmd_forcefield_positions_x(md->ff);
    if (md->periodic)
        VKMD_TRY(apply_box(ctx, md, &md->kept_cell));
    VkCommandBuffer cb = VK_NULL_HANDLE;
    VKMD_TRY(vkmd_vk_oneshot_begin(ctx, &cb));
    vkmd_vk_barrier_compute_to_transfer(cb);
    copy_buffer(cb, &md->kept_pos, vkmd_forcefield_positions(md->ff));
    if (px)
        copy_buffer(cb, &md->kept_pos_x, px);
    copy_buffer(cb, &md->kept_vel, &md->vel);
    copy_buffer(cb, &md->kept_forces, &acc->forces);
    copy_buffer(cb, &md->kept_energies, &acc->energies);
    vkmd_vk_barrier_transfer_to_compute(cb);
    vkmd_forcefield_record_invalidate(md->ff, cb); /* the list was built for other positions */
    VKMD_TRY(vkmd_vk_oneshot_submit(ctx, cb));
cleanup:
    return res;
}

static vkmd_result make_barostat(vkmd_md *md)
{
    if (md->baro)
        return VKMD_OK;
    const double kt = VKMD_BOLTZMANN_KCAL * md->desc.temperature_k;
    const double p = md->desc.pressure_bar > 0 ? md->desc.pressure_bar : 1.0;
    return vkmd_barostat_create(p, md->desc.barostat_every, md->desc.barostat, kt, md->desc.seed,
                                md->mol.count, &md->baro);
}

vkmd_result vkmd_md_set_pressure(vkmd_md *md, double pressure_bar)
{
    vkmd_result res = VKMD_OK;
    if (!(pressure_bar >= 0 && pressure_bar < 1e6))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "md: pressure %g bar is outside [0, 1e6) bar (0 turns the barostat off)",
                         pressure_bar);
    if (pressure_bar > 0 && !md->periodic)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "md: %s has no periodic box: a barostat needs one", md->sys->title);
    if (pressure_bar > 0 && md->desc.integrator == VKMD_INTEGRATOR_VERLET)
        return vkmd_fail(
            VKMD_ERROR_INVALID_ARGUMENT,
            "md: a barostat needs a thermostat (velocity Verlet is NVE): use Langevin");
    md->desc.pressure_bar = pressure_bar;
    if (pressure_bar > 0) {
        VKMD_TRY(make_barostat(md));
        vkmd_barostat_set_pressure(md->baro, pressure_bar);
    }
cleanup:
    return res;
}

void vkmd_md_barostat_stats(const vkmd_md *md, vkmd_barostat_stats *out)
{
    memset(out, 0, sizeof *out);
    out->pressure_bar = md->desc.pressure_bar;
    out->every = md->desc.barostat_every;
    out->mode = md->desc.barostat;
    if (!md->baro)
        return;
    out->state = *vkmd_barostat_state_get(md->baro);
    for (int k = 0; k < VKMD_BAROSTAT_SLOTS; ++k) {
        out->attempts += out->state.attempts[k];
        out->accepted += out->state.accepted[k];
    }
}

vkmd_result vkmd_md_set_barostat_state(vkmd_md *md, const vkmd_barostat_state *state)
{
    vkmd_result res = make_barostat(md);
    if (res == VKMD_OK)
        vkmd_barostat_state_set(md->baro, state);
    return res;
}

vkmd_forcefield *vkmd_md_forcefield(vkmd_md *md)
{
    return md->ff;
}

/* ---- profiling ---------------------------------------------------------- */

vkmd_result vkmd_md_profile_steps(vkmd_vk_context *ctx, vkmd_md *md, int32_t steps,
                                  vkmd_md_profile *out)
{
    vkmd_result res = VKMD_OK;
    memset(out, 0, sizeof *out);
    if (steps < 1 || steps > PROFILE_MAX_STEPS)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "md: profile of %d steps (1..%d)", steps,
                         PROFILE_MAX_STEPS);
    vkmd_vk_timer timer = {0};
    vkmd_vk_cmd cmd = {0};
    md_marks *m = calloc(1, sizeof *m);
    if (!m)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "md: out of memory");
    VKMD_TRY(vkmd_vk_timer_create(ctx, PROFILE_SLOTS, &timer));
    VKMD_TRY(vkmd_vk_cmd_create(ctx, &cmd));
    m->timer = &timer;

    /* What a normal batch records, per step. */
    const int32_t bs = md->desc.max_batch_steps;
    const vkmd_vk_stats s0 = vkmd_vk_stats_get();
    VKMD_TRY(record_batch(ctx, md, &cmd, bs, md->desc.com_every > 0, 0, NULL));
    const vkmd_vk_stats s1 = vkmd_vk_stats_get();
    out->batch_steps = bs;
    out->dispatches_per_step = (double)(s1.dispatches - s0.dispatches) / bs;
    out->barriers_per_step = (double)(s1.barriers - s0.barriers) / bs;

    VKMD_TRY(run_batch(ctx, md, steps, 0, m, &cmd));

    double ff_total = 0;
    /* Walk the marks in order: each closes its own interval. */
    for (uint32_t k = 1; k < m->next; ++k) {
        int is_mark = 0;
        for (int i = 0; i < m->ff_count && !is_mark; ++i)
            is_mark = k >= m->ff_slot[i] && k < m->ff_slot[i] + VKMD_FORCEFIELD_TIMER_SLOTS;
        if (is_mark)
            continue; /* the force field's own slots */
        double ns = 0;
        VKMD_TRY(vkmd_vk_timer_elapsed_ns(ctx, &timer, m->from[k], k, &ns));
        out->step_ns += ns;
        if (m->pass[k] == PASS_FF_TOTAL)
            ff_total += ns;
        else
            out->pass_ns[m->pass[k]] += ns;
    }
    double ff_parts = 0;
    for (int i = 0; i < m->ff_count; ++i) {
        double ns[VKMD_FF_PASS_COUNT];
        VKMD_TRY(vkmd_forcefield_pass_times(ctx, md->ff, &timer, m->ff_slot[i], ns));
        for (int p = 0; p < VKMD_FF_PASS_COUNT; ++p) {
            out->pass_ns[p] += ns[p];
            ff_parts += ns[p];
        }
    }
    /* The accumulator clears and barriers inside the force field. */
    out->pass_ns[VKMD_MD_PASS_REDUCE] += ff_total - ff_parts;
    out->steps = steps;
    out->step_ns /= steps;
    for (int p = 0; p < VKMD_MD_PASS_COUNT; ++p)
        out->pass_ns[p] /= steps;
cleanup:
    vkmd_vk_cmd_destroy(ctx, &cmd);
    vkmd_vk_timer_destroy(ctx, &timer);
    free(m);
    return res;
}

const vkmd_vk_buffer *vkmd_md_velocities_buffer(const vkmd_md *md)
{
    return &md->vel;
}

int vkmd_md_fused(const vkmd_md *md)
{
    return md->step != NULL;
}

int64_t vkmd_md_repeats(const vkmd_md *md)
{
    return md->repeats;
}
