/* vkmd_dynamics: molecular dynamics for the public API (include/vkmd.h), set
 * up as `vkmd run` sets it up (its defaults, its order: settings resolved,
 * box checked against the cutoff, precision chosen on the device, MD built,
 * velocities drawn when the system has none), without the run controller's
 * outputs. */
#include "api/api_dynamics.h"

#include <stdlib.h>
#include <string.h>

vkmd_result vkmd_api_dynamics_desc_check(const vkmd_dynamics_desc *d)
{
    if (d->integrator != VKMD_DYNAMICS_LANGEVIN && d->integrator != VKMD_DYNAMICS_VERLET)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "vkmd_dynamics_desc.integrator: %d is not "
                         "VKMD_DYNAMICS_LANGEVIN or _VERLET",
                         (int)d->integrator);
    if ((int)d->precision < VKMD_PRECISION_MODE_AUTO ||
        (int)d->precision > VKMD_PRECISION_MODE_FIXED)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "vkmd_dynamics_desc.precision: %d is not a vkmd_precision_mode",
                         (int)d->precision);
    const struct {
        const char *name;
        double value;
    } nonneg[] = {{"dt_fs", d->dt_fs},
                  {"temperature_k", d->temperature_k},
                  {"friction_per_ps", d->friction_per_ps},
                  {"constraint_tol", d->constraint_tol},
                  {"cutoff_a", d->cutoff_a},
                  {"ewald_tolerance", d->ewald_tolerance}};
    for (size_t i = 0; i < sizeof nonneg / sizeof nonneg[0]; ++i)
        if (!(nonneg[i].value >= 0))
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "vkmd_dynamics_desc.%s: %g, expected >= 0 (0: default)",
                             nonneg[i].name, nonneg[i].value);
    return VKMD_OK;
}

vkmd_precision vkmd_api_precision(vkmd_precision_mode m)
{
    switch (m) {
    case VKMD_PRECISION_MODE_SINGLE:
        return VKMD_PRECISION_SINGLE;
    case VKMD_PRECISION_MODE_MIXED:
        return VKMD_PRECISION_MIXED;
    case VKMD_PRECISION_MODE_FIXED:
        return VKMD_PRECISION_FIXED;
    case VKMD_PRECISION_MODE_AUTO:
        break;
    }
    return VKMD_PRECISION_AUTO;
}

void vkmd_api_md_desc(const vkmd_dynamics_desc *d, vkmd_md_desc *m)
{
    *m = (vkmd_md_desc){0};
    m->integrator =
        d->integrator == VKMD_DYNAMICS_VERLET ? VKMD_INTEGRATOR_VERLET : VKMD_INTEGRATOR_LANGEVIN;
    m->dt_fs = d->dt_fs;
    m->temperature_k = d->temperature_k;
    m->friction_per_ps = d->friction_per_ps;
    m->seed = d->seed ? d->seed : 1;
    m->constraints = d->no_hbond_constraints ? VKMD_CONSTRAINTS_NONE : VKMD_CONSTRAINTS_HBONDS;
    m->flexible_water = d->flexible_water;
    m->constraint_tol = d->constraint_tol;
    m->com_every = d->com_every;
}

vkmd_result vkmd_dynamics_create(vkmd_context *ctx, const vkmd_sys *sys,
                                 const vkmd_dynamics_desc *desc, vkmd_dynamics **out_dyn)
{
    if (!out_dyn)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "vkmd_dynamics_create: out_dyn is NULL");
    *out_dyn = NULL;
    if (!ctx || !sys)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "vkmd_dynamics_create: %s is NULL",
                         ctx ? "sys" : "ctx");
    const vkmd_dynamics_desc none = {0};
    const vkmd_dynamics_desc *d = desc ? desc : &none;
    vkmd_result res = vkmd_api_dynamics_desc_check(d);
    if (res != VKMD_OK)
        return res;
    vkmd_dynamics *dyn = calloc(1, sizeof *dyn);
    if (!dyn)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "vkmd_dynamics_create: out of memory");
    dyn->ctx = ctx;
    dyn->sys = sys;
    dyn->ff.cutoff_a = d->cutoff_a;
    dyn->ff.ewald_tolerance = d->ewald_tolerance;
    dyn->ff.gb = sys->gb;
    const vkmd_system *s = &sys->system;
    VKMD_TRY(vkmd_system_check_coordinates(s, d->cutoff_a > 0 ? d->cutoff_a : VKMD_FF_CUTOFF_A,
                                           sys->source));
    VKMD_TRY(vkmd_ff_settings_resolve(&dyn->ff, s));
    VKMD_TRY(vkmd_precision_choose(ctx->vk, s, vkmd_api_precision(d->precision), &dyn->ff,
                                   &dyn->choice));
    vkmd_precision_apply(&dyn->choice, &dyn->ff);

    vkmd_md_desc *m = &dyn->md_desc;
    vkmd_api_md_desc(d, m);
    m->settings = &dyn->ff;
    VKMD_TRY(vkmd_md_create(ctx->vk, s, m, &dyn->md));
    vkmd_md_desc resolved; /* the MD's defaults, for the starting temperature */
    VKMD_TRY(vkmd_md_desc_resolve(m, &resolved));
    if (!s->velocities)
        VKMD_TRY(vkmd_md_init_velocities(ctx->vk, dyn->md, resolved.temperature_k, m->seed));
    *out_dyn = dyn;
    return VKMD_OK;
cleanup:
    vkmd_dynamics_destroy(dyn);
    return res;
}

void vkmd_dynamics_destroy(vkmd_dynamics *dyn)
{
    if (!dyn)
        return;
    vkmd_md_destroy(dyn->ctx->vk, dyn->md);
    free(dyn);
}

vkmd_result vkmd_dynamics_step(vkmd_dynamics *dyn, int64_t steps)
{
    if (!dyn || steps < 0)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "vkmd_dynamics_step: %s",
                         dyn ? "steps < 0" : "dyn is NULL");
    return steps ? vkmd_md_step(dyn->ctx->vk, dyn->md, steps) : VKMD_OK;
}

vkmd_result vkmd_dynamics_get_report(vkmd_dynamics *dyn, vkmd_dynamics_report *out_report)
{
    if (!dyn || !out_report)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "vkmd_dynamics_get_report: %s is NULL",
                         dyn ? "out_report" : "dyn");
    vkmd_md_report r;
    vkmd_result res = vkmd_md_read(dyn->ctx->vk, dyn->md, &r, NULL, NULL);
    if (res != VKMD_OK)
        return res;
    *out_report =
        (vkmd_dynamics_report){.step = r.step,
                               .time_ps = r.time_ps,
                               .potential_kcal_mol = r.potential.total,
                               .kinetic_kcal_mol = r.kinetic,
                               .total_kcal_mol = r.total,
                               .temperature_k = r.temperature_k,
                               .bond_kcal_mol = r.potential.bond,
                               .angle_kcal_mol = r.potential.angle,
                               .dihedral_kcal_mol = r.potential.dihedral,
                               .lj_kcal_mol = r.potential.lj,
                               .coulomb_kcal_mol = r.potential.coulomb,
                               .solvation_kcal_mol = r.potential.gb + r.potential.nonpolar};
    return VKMD_OK;
}

static vkmd_result read_state(vkmd_dynamics *dyn, int32_t capacity_atoms, double *out_xyz,
                              int velocities, const char *fn)
{
    const int32_t n = dyn ? dyn->sys->system.atom_count : 0;
    if (!dyn || !out_xyz || capacity_atoms < n)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s: room for %d atoms, the system has %d",
                         fn, (int)capacity_atoms, (int)n);
    return vkmd_md_read(dyn->ctx->vk, dyn->md, NULL, velocities ? NULL : out_xyz,
                        velocities ? out_xyz : NULL);
}

vkmd_result vkmd_dynamics_get_positions(vkmd_dynamics *dyn, int32_t capacity_atoms, double *out_xyz)
{
    return read_state(dyn, capacity_atoms, out_xyz, 0, "vkmd_dynamics_get_positions");
}

vkmd_result vkmd_dynamics_get_velocities(vkmd_dynamics *dyn, int32_t capacity_atoms,
                                         double *out_xyz)
{
    return read_state(dyn, capacity_atoms, out_xyz, 1, "vkmd_dynamics_get_velocities");
}
