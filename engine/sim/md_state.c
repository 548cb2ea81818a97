/* The MD state in and out (see md.h): reports, positions and velocities,
 * the box, saved states, and the barostat's view of the MD
 * (sim/barostat.h: vkmd_barostat_target). */
#include "sim/md_impl.h"

#include "core/log.h"
#include "core/philox.h"
#include "core/units.h"
#include "forces/positions.h"
#include "maths/density.h"
#include "maths/host_constraints.h"
#include "maths/kinetic.h"
#include "vk/barrier.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
        VKMD_TRY(vkmd_positions_readback(ctx, &md->vel, v, md->atom_count));
    if (out_report) {
        vkmd_md_report *r = out_report;
        memset(r, 0, sizeof *r);
        r->step = md->steps_done;
        r->time_ps = (double)md->steps_done * md->desc.dt_fs / VKMD_FS_PER_PS;
        /* A vkmd_md_step stopped between batches (core/stop.h) left no
         * energies for its last step: the forces of these positions are
         * evaluated again, with them (a stop ends a batch early, which
         * already changes the next steps' bits; the run controller reads
         * nothing after one). */
        if (md->energy_step != md->steps_done) {
            vkmd_log_debug("md: step %lld has no energies (a stopped batch): evaluated again",
                           (long long)md->steps_done);
            VKMD_TRY(md_prime_forces(ctx, md));
        }
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
        VKMD_TRY(md_upload_velocities(ctx, md, velocities));
    /* A fresh neighbour list from these positions: the forces then depend on
     * the state alone, not on when the list was last built, so a run
     * restarted from a checkpoint continues bitwise like the run that wrote
     * it (which calls this too after writing). */
    VkCommandBuffer cb = VK_NULL_HANDLE;
    VKMD_TRY(vkmd_vk_oneshot_begin(ctx, &cb));
    vkmd_forcefield_record_invalidate(md->ff, cb);
    VKMD_TRY(vkmd_vk_oneshot_submit(ctx, cb));
    VKMD_TRY(md_prime_forces(ctx, md));
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
    if (res == VKMD_OK) {
        if (md->energy_step == md->steps_done) /* the same state: its energies still hold */
            md->energy_step = step;
        md->steps_done = step;
    }
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
    VKMD_TRY(md_upload_velocities(ctx, md, v));
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

/* ---- box and barostat --------------------------------------------------- */

vkmd_result md_apply_box(vkmd_vk_context *ctx, vkmd_md *md, const vkmd_box *cell)
{
    vkmd_result res = VKMD_OK;
    if (!md->periodic)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "md: %s has no periodic box to change",
                         md->sys->title);
    VKMD_TRY(vkmd_forcefield_set_cell(md->ff, cell));
    md->cell = *cell;
    md_compute_push(md);
    md_free_batches(ctx, md);
    if (md->step)
        VKMD_TRY(vkmd_step_update(ctx, md->step));
cleanup:
    return res;
}

vkmd_result vkmd_md_set_cell_state(vkmd_vk_context *ctx, vkmd_md *md, const vkmd_box *cell,
                                   const double *positions)
{
    vkmd_result res = VKMD_OK;
    VKMD_TRY(md_apply_box(ctx, md, cell));
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
    return out->buffer ? VKMD_OK : md_make_buffer(ctx, md, like->size, name, out);
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
    md_copy_buffer(cb, vkmd_forcefield_positions(md->ff), &md->kept_pos);
    if (px)
        md_copy_buffer(cb, px, &md->kept_pos_x);
    md_copy_buffer(cb, &md->vel, &md->kept_vel);
    md_copy_buffer(cb, &acc->forces, &md->kept_forces);
    md_copy_buffer(cb, &acc->energies, &md->kept_energies);
    VKMD_TRY(vkmd_vk_oneshot_submit(ctx, cb));
    md->kept_cell = md->cell;
    md->kept_energy_step = md->energy_step;
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
        VKMD_TRY(md_apply_box(ctx, md, &md->kept_cell));
    VkCommandBuffer cb = VK_NULL_HANDLE;
    VKMD_TRY(vkmd_vk_oneshot_begin(ctx, &cb));
    vkmd_vk_barrier_compute_to_transfer(cb);
    md_copy_buffer(cb, &md->kept_pos, vkmd_forcefield_positions(md->ff));
    if (px)
        md_copy_buffer(cb, &md->kept_pos_x, px);
    md_copy_buffer(cb, &md->kept_vel, &md->vel);
    md_copy_buffer(cb, &md->kept_forces, &acc->forces);
    md_copy_buffer(cb, &md->kept_energies, &acc->energies);
    vkmd_vk_barrier_transfer_to_compute(cb);
    vkmd_forcefield_record_invalidate(md->ff, cb); /* the list was built for other positions */
    VKMD_TRY(vkmd_vk_oneshot_submit(ctx, cb));
    md->energy_step = md->kept_energy_step; /* the kept energies are of that step */
cleanup:
    return res;
}

/* ---- the barostat's view --------------------------------------------------- */

static vkmd_result baro_read(vkmd_vk_context *ctx, void *user, double *out_x)
{
    return vkmd_md_read(ctx, user, NULL, out_x, NULL);
}

static vkmd_result baro_energy(vkmd_vk_context *ctx, void *user, vkmd_energy *out)
{
    return vkmd_forcefield_readback(ctx, ((vkmd_md *)user)->ff, out, NULL);
}

static vkmd_result baro_save(vkmd_vk_context *ctx, void *user)
{
    return vkmd_md_save_state(ctx, user);
}

static vkmd_result baro_restore(vkmd_vk_context *ctx, void *user)
{
    return vkmd_md_restore_state(ctx, user);
}

static vkmd_result baro_set(vkmd_vk_context *ctx, void *user, const vkmd_box *cell, const double *x)
{
    return vkmd_md_set_cell_state(ctx, user, cell, x);
}

vkmd_result vkmd_md_barostat_move(vkmd_vk_context *ctx, vkmd_md *md, vkmd_barostat *b,
                                  int *out_accepted)
{
    const vkmd_barostat_target t = {.sys = md->sys,
                                    .molecules = &md->mol,
                                    .step = (uint64_t)md->steps_done,
                                    .cell = md->cell,
                                    .cutoff_a = md->settings.cutoff_a,
                                    .user = md,
                                    .read_positions = baro_read,
                                    .energy = baro_energy,
                                    .save = baro_save,
                                    .restore = baro_restore,
                                    .set_cell_state = baro_set};
    return vkmd_barostat_attempt(ctx, b, &t, out_accepted);
}

vkmd_result md_barostat_attempt(vkmd_vk_context *ctx, vkmd_md *md)
{
    return vkmd_md_barostat_move(ctx, md, md->baro, NULL);
}
