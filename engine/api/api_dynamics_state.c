/* The dynamics' state in and out for the public API (include/vkmd.h):
 * forces, positions and velocities set, the box, minimisation and
 * checkpoints in vkmd run's format, for clients that drive the steps
 * themselves (the Python package). */
#include "api/api_dynamics.h"
#include "io/checkpoint.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static vkmd_result check_dyn(const vkmd_dynamics *dyn, const char *fn)
{
    return dyn ? VKMD_OK : vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s: dyn is NULL", fn);
}

static vkmd_result check_array(const vkmd_dynamics *dyn, int32_t atom_count, const double *xyz,
                               const char *what, const char *fn)
{
    const int32_t n = dyn->sys->system.atom_count;
    if (!xyz || atom_count != n)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s: %s for %d atoms, the system has %d", fn,
                         what, (int)atom_count, (int)n);
    for (size_t i = 0; i < 3 * (size_t)n; ++i)
        if (!isfinite(xyz[i]))
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s: %s of atom %zu is not finite (%g)",
                             fn, what, i / 3 + 1, xyz[i]);
    return VKMD_OK;
}

vkmd_result vkmd_dynamics_get_forces(vkmd_dynamics *dyn, int32_t capacity_atoms, double *out_xyz)
{
    VKMD_TRY_RETURN(check_dyn(dyn, "vkmd_dynamics_get_forces"));
    const int32_t n = dyn->sys->system.atom_count;
    if (!out_xyz || capacity_atoms < n)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "vkmd_dynamics_get_forces: room for %d atoms, the system has %d",
                         (int)capacity_atoms, (int)n);
    /* Between steps the accumulators hold F(x) of the current positions. */
    vkmd_energy e;
    return vkmd_forcefield_readback(dyn->ctx->vk, vkmd_md_forcefield(dyn->md), &e, out_xyz);
}

vkmd_result vkmd_dynamics_set_state(vkmd_dynamics *dyn, int32_t atom_count, const double *positions,
                                    const double *velocities)
{
    const char *fn = "vkmd_dynamics_set_state";
    VKMD_TRY_RETURN(check_dyn(dyn, fn));
    VKMD_TRY_RETURN(check_array(dyn, atom_count, positions, "positions", fn));
    if (velocities)
        VKMD_TRY_RETURN(check_array(dyn, atom_count, velocities, "velocities", fn));
    return vkmd_md_set_state(dyn->ctx->vk, dyn->md, positions, velocities);
}

vkmd_result vkmd_dynamics_set_velocities(vkmd_dynamics *dyn, int32_t atom_count,
                                         const double *velocities)
{
    const char *fn = "vkmd_dynamics_set_velocities";
    VKMD_TRY_RETURN(check_dyn(dyn, fn));
    VKMD_TRY_RETURN(check_array(dyn, atom_count, velocities, "velocities", fn));
    const size_t n = (size_t)dyn->sys->system.atom_count;
    double *x = malloc(3 * n * sizeof *x);
    if (!x)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: %zu atoms", fn, n);
    vkmd_result res = vkmd_md_read(dyn->ctx->vk, dyn->md, NULL, x, NULL);
    if (res == VKMD_OK)
        res = vkmd_md_set_state(dyn->ctx->vk, dyn->md, x, velocities);
    free(x);
    return res;
}

int vkmd_dynamics_get_box(vkmd_dynamics *dyn, double out_len_a[3])
{
    double box[3] = {0, 0, 0};
    if (dyn)
        vkmd_md_get_box(dyn->md, box);
    if (out_len_a)
        memcpy(out_len_a, box, sizeof box);
    return box[0] > 0;
}

vkmd_result vkmd_dynamics_set_box(vkmd_dynamics *dyn, const double len_a[3])
{
    VKMD_TRY_RETURN(check_dyn(dyn, "vkmd_dynamics_set_box"));
    if (!len_a)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "vkmd_dynamics_set_box: len_a is NULL");
    return vkmd_md_set_box(dyn->ctx->vk, dyn->md, len_a);
}

vkmd_result vkmd_dynamics_minimize(vkmd_dynamics *dyn, double force_tol, int32_t max_iterations,
                                   double *out_max_force)
{
    VKMD_TRY_RETURN(check_dyn(dyn, "vkmd_dynamics_minimize"));
    if (!(force_tol >= 0) || max_iterations < 0)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "vkmd_dynamics_minimize: force_tol %g and max_iterations %d, expected "
                         ">= 0 (0: default)",
                         force_tol, (int)max_iterations);
    const vkmd_minimize_desc d = {.force_tol = force_tol, .max_iterations = max_iterations};
    vkmd_minimize_result m;
    VKMD_TRY_RETURN(vkmd_md_minimize(dyn->ctx->vk, dyn->md, &d, &m));
    if (out_max_force)
        *out_max_force = m.max_force;
    vkmd_md_desc resolved;
    VKMD_TRY_RETURN(vkmd_md_desc_resolve(&dyn->md_desc, &resolved));
    VKMD_TRY_RETURN(
        vkmd_md_init_velocities(dyn->ctx->vk, dyn->md, resolved.temperature_k, dyn->md_desc.seed));
    if (m.stopped)
        return vkmd_fail(VKMD_ERROR_STOPPED,
                         "vkmd_dynamics_minimize: stopped after %d iterations, not converged (max "
                         "force %g kcal/mol/A); the positions are the last iteration's",
                         m.iterations, m.max_force);
    return VKMD_OK;
}

vkmd_result vkmd_dynamics_save_checkpoint(vkmd_dynamics *dyn, const char *path)
{
    VKMD_TRY_RETURN(check_dyn(dyn, "vkmd_dynamics_save_checkpoint"));
    if (!path || !path[0])
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "vkmd_dynamics_save_checkpoint: no path");
    const vkmd_system *sys = &dyn->sys->system;
    const size_t n = (size_t)sys->atom_count;
    double *x = malloc(6 * n * sizeof *x);
    if (!x)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "checkpoint of %zu atoms", n);
    vkmd_md_report r;
    vkmd_result res = vkmd_md_read(dyn->ctx->vk, dyn->md, &r, x, x + 3 * n);
    if (res == VKMD_OK) {
        vkmd_md_desc resolved;
        res = vkmd_md_desc_resolve(&dyn->md_desc, &resolved);
        const int64_t step = vkmd_md_steps_done(dyn->md);
        char settings[] = "client vkmd_dynamics\n";
        vkmd_checkpoint c = {.atom_count = sys->atom_count,
                             .periodic = sys->box.periodic,
                             .fingerprint = vkmd_checkpoint_fingerprint(sys),
                             .step = step,
                             .md_step = step,
                             .time_ps = (double)step * resolved.dt_fs * 1e-3,
                             .seed = dyn->md_desc.seed,
                             .settings = settings,
                             .positions = x,
                             .velocities = x + 3 * n};
        vkmd_md_get_box(dyn->md, c.box);
        if (res == VKMD_OK)
            res = vkmd_checkpoint_write(path, &c);
    }
    free(x);
    return res;
}

vkmd_result vkmd_dynamics_load_checkpoint(vkmd_dynamics *dyn, const char *path)
{
    VKMD_TRY_RETURN(check_dyn(dyn, "vkmd_dynamics_load_checkpoint"));
    if (!path || !path[0])
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "vkmd_dynamics_load_checkpoint: no path");
    vkmd_checkpoint ck;
    memset(&ck, 0, sizeof ck);
    vkmd_result res = VKMD_OK;
    vkmd_vk_context *vk = dyn->ctx->vk;
    VKMD_TRY(vkmd_checkpoint_read(path, &ck));
    VKMD_TRY(vkmd_checkpoint_check_system(&ck, &dyn->sys->system, path));
    double box[3];
    vkmd_md_get_box(dyn->md, box);
    if (ck.periodic && (box[0] != ck.box[0] || box[1] != ck.box[1] || box[2] != ck.box[2]))
        VKMD_TRY(vkmd_md_set_box(vk, dyn->md, ck.box));
    VKMD_TRY(vkmd_md_set_state(vk, dyn->md, ck.positions, ck.velocities));
    VKMD_TRY(vkmd_md_set_step(vk, dyn->md, ck.md_step));
cleanup:
    vkmd_checkpoint_free(&ck);
    return res;
}
