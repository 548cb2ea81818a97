/* Molecular dynamics on the device (see md.h): setup, settings and accessors;
 * batches of steps are md_batch.c, the state in and out md_state.c, timed
 * batches md_profile.c. */
#include "sim/md_impl.h"

#include "core/log.h"
#include "core/philox.h"
#include "core/units.h"
#include "forces/fixed_point.h"
#include "forces/positions.h"
#include "maths/host_constraints.h"
#include "maths/density.h"
#include "maths/kinetic.h"
#include "system/molecules.h"
#include "vk/stats.h"
#include "vk/timer.h"
#include "vk/barrier.h"
#include "vk/command.h"
#include "vk/pipeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

vkmd_result md_make_buffer(vkmd_vk_context *ctx, const vkmd_md *md, VkDeviceSize size,
                           const char *name, vkmd_vk_buffer *out)
{
    const vkmd_vk_buffer_desc d = {
        .size = size, .force_staging = md->desc.force_staging, .name = name};
    return vkmd_vk_buffer_create(ctx, &d, out);
}

vkmd_result md_create_pipelines(vkmd_vk_context *ctx, vkmd_md *md)
{
    vkmd_result res = VKMD_OK;
    const char *shader = NULL;
    for (int m = 0; m < VKMD_MD_MODE_COUNT; ++m) { /* again after the list grew */
        vkmd_vk_descset_destroy(ctx, &md->set[m]);
        vkmd_vk_pipeline_destroy(ctx, &md->pipe[m]);
    }
    VKMD_TRY(vkmd_fixed_shader(ctx, "md", "md.comp", &shader));
    const vkmd_neighbor *nl = vkmd_forcefield_neighbor(md->ff);
    vkmd_neighbor_view nv = {0};
    if (nl)
        vkmd_neighbor_view_get(nl, &nv);
    const vkmd_vk_buffer *bufs[VKMD_MD_BINDING_COUNT] = {
        [VKMD_MD_BINDING_POSITIONS] = vkmd_forcefield_positions(md->ff),
        [VKMD_MD_BINDING_POSITIONS_REF] = &md->pos_ref,
        [VKMD_MD_BINDING_VELOCITIES] = &md->vel,
        [VKMD_MD_BINDING_FORCES] = &vkmd_forcefield_accum(md->ff)->forces,
        [VKMD_MD_BINDING_MOMENTUM] = &md->momentum,
        [VKMD_MD_BINDING_COUNTER] = &md->counter,
        [VKMD_MD_BINDING_MOLECULE] = &md->molecule,
        [VKMD_MD_BINDING_SHIFT] = &md->shift,
        [VKMD_MD_BINDING_ENERGIES] = &vkmd_forcefield_accum(md->ff)->energies,
        [VKMD_MD_BINDING_NL_STATE] = nl ? nv.state : &md->placeholder,
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

void md_compute_push(vkmd_md *md)
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
vkmd_result md_upload_velocities(vkmd_vk_context *ctx, vkmd_md *md, const double *v)
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

vkmd_result vkmd_md_create(vkmd_vk_context *ctx, const vkmd_system *sys, const vkmd_md_desc *desc,
                           vkmd_md **out_md)
{
    vkmd_result res = VKMD_OK;
    double *x = NULL;
    *out_md = NULL;
    vkmd_md *md = calloc(1, sizeof *md);
    if (!md)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "md: out of memory");
    md->energy_step = -1;
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
    VKMD_TRY(md_make_buffer(ctx, md, v4, "md positions_ref", &md->pos_ref));
    VKMD_TRY(md_make_buffer(ctx, md, v4, "md velocities", &md->vel));
    VKMD_TRY(md_make_buffer(ctx, md, v4, "md positions backup", &md->pos_backup));
    VKMD_TRY(md_make_buffer(ctx, md, v4, "md velocities backup", &md->vel_backup));
    VKMD_TRY(md_make_buffer(ctx, md, 16, "md step counter backup", &md->counter_backup));
    VKMD_TRY(vkmd_positions_create_extra(ctx, sys->atom_count, md->settings.positions,
                                         md->desc.force_staging, &md->pos_ref_x));
    VKMD_TRY(vkmd_positions_create_extra(ctx, sys->atom_count, md->settings.positions,
                                         md->desc.force_staging, &md->pos_x_backup));
    VKMD_TRY(md_make_buffer(ctx, md, 32, "md momentum", &md->momentum));
    VKMD_TRY(md_make_buffer(ctx, md, 16, "md step counter", &md->counter));
    VKMD_TRY(md_make_buffer(ctx, md, 4 * (VkDeviceSize)(sys->atom_count + md->mol.count),
                            "md molecules", &md->molecule));
    VKMD_TRY(md_make_buffer(ctx, md, 16 * (VkDeviceSize)md->mol.count, "md shifts", &md->shift));
    const uint32_t zero[8] = {0};
    VKMD_TRY(vkmd_vk_buffer_upload(ctx, &md->momentum, 0, zero, 32));
    VKMD_TRY(vkmd_vk_buffer_upload(ctx, &md->counter, 0, zero, 16));
    VKMD_TRY(upload_molecules(ctx, md));
    VKMD_TRY(md_upload_velocities(ctx, md, sys->velocities));

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
    VKMD_TRY(md_make_buffer(ctx, md, sizeof(vkmd_nl_state), "md placeholder", &md->placeholder));
    md->gated = ctx->info.features.conditional_rendering && vkmd_forcefield_neighbor(md->ff);
    VKMD_TRY(md_create_pipelines(ctx, md));
    md_compute_push(md);
    VKMD_TRY(md_create_step(ctx, md));
    VKMD_TRY(md_prime_forces(ctx, md));
    VKMD_TRY(md_compile_batch(ctx, md));
    if (md->desc.pressure_bar > 0)
        VKMD_TRY(vkmd_md_set_pressure(md, md->desc.pressure_bar));
    *out_md = md;
    md = NULL;
cleanup:
    free(x);
    vkmd_md_destroy(ctx, md);
    return res;
}

void vkmd_md_destroy(vkmd_vk_context *ctx, vkmd_md *md)
{
    if (!md)
        return;
    md_free_batches(ctx, md);
    vkmd_barostat_destroy(md->baro);
    vkmd_step_destroy(ctx, md->step);
    for (int m = 0; m < VKMD_MD_MODE_COUNT; ++m) {
        vkmd_vk_descset_destroy(ctx, &md->set[m]);
        vkmd_vk_pipeline_destroy(ctx, &md->pipe[m]);
    }
    vkmd_sim_constraints_destroy(ctx, md->cons);
    vkmd_vk_buffer *bufs[] = {
        &md->pos_ref,       &md->vel,        &md->pos_backup, &md->vel_backup, &md->counter_backup,
        &md->momentum,      &md->counter,    &md->molecule,   &md->shift,      &md->pos_ref_x,
        &md->pos_x_backup,  &md->kept_pos,   &md->kept_pos_x, &md->kept_vel,   &md->kept_forces,
        &md->kept_energies, &md->placeholder};
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; ++i)
        vkmd_vk_buffer_destroy(ctx, bufs[i]);
    vkmd_forcefield_destroy(ctx, md->ff);
    vkmd_molecules_destroy(&md->mol);
    vkmd_constraints_destroy(&md->cset);
    free(md);
}

vkmd_result vkmd_md_minimize(vkmd_vk_context *ctx, vkmd_md *md, const vkmd_minimize_desc *d,
                             vkmd_minimize_result *out)
{
    vkmd_result res = VKMD_OK;
    vkmd_minimize_desc dd = d ? *d : (vkmd_minimize_desc){0};
    if (dd.constraint_tol == 0)
        dd.constraint_tol = md->desc.constraint_tol;
    const vkmd_neighbor *before = vkmd_forcefield_neighbor(md->ff);
    VKMD_TRY(vkmd_minimize_run(ctx, md->ff, md->cset.constraint_count > 0 ? md->cons : NULL,
                               &md->pos_ref, md->pos_ref_x.buffer ? &md->pos_ref_x : NULL, &md->vel,
                               &dd, out));
    if (vkmd_forcefield_neighbor(md->ff) != before) /* the list grew */
        VKMD_TRY(md_list_changed(ctx, md));
    VKMD_TRY(md_upload_velocities(ctx, md, NULL));
    VKMD_TRY(md_prime_forces(ctx, md));
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
        for (int i = 0; i < MD_BATCH_CACHE; ++i)
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
        md_compute_push(md);
        for (int i = 0; i < MD_BATCH_CACHE; ++i)
            md->batch[i].steps = 0;        /* re-recorded on next use */
        md->step_stale = md->step != NULL; /* the fused step holds the bath's constants */
    }
    return VKMD_OK;
}

double vkmd_md_temperature(const vkmd_md *md)
{
    return md->desc.temperature_k;
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

int64_t vkmd_md_halts(const vkmd_md *md)
{
    return md->halts;
}

int vkmd_md_gated(const vkmd_md *md)
{
    return md->gated;
}
