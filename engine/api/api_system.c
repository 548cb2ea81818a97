/* vkmd_sys: a system loaded for the public API (include/vkmd.h), through
 * io/load as `vkmd run` loads it. */
#include "api/api_system.h"
#include "io/load.h"
#include "system/gb_params.h"
#include "system/hmr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

vkmd_result vkmd_sys_load(const char *spec, const char *coords_path, vkmd_sys **out_sys)
{
    if (!out_sys)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "vkmd_sys_load: out_sys is NULL");
    *out_sys = NULL;
    if (!spec || !spec[0])
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "vkmd_sys_load: no system spec");
    vkmd_sys *s = calloc(1, sizeof *s);
    if (!s)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "vkmd_sys_load: out of memory");
    snprintf(s->source, sizeof s->source, "%s", coords_path ? coords_path : spec);
    snprintf(s->spec, sizeof s->spec, "%s", spec);
    vkmd_result r = vkmd_system_load(spec, coords_path, &s->system);
    /* Coordinates present and finite; the box against the cutoff is checked
     * by vkmd_dynamics_create, which knows the cutoff. */
    if (r == VKMD_OK)
        r = vkmd_system_check_coordinates(&s->system, 0.0, s->source);
    if (r != VKMD_OK) {
        vkmd_sys_destroy(s);
        return r;
    }
    *out_sys = s;
    return VKMD_OK;
}

void vkmd_sys_destroy(vkmd_sys *sys)
{
    if (!sys)
        return;
    vkmd_system_destroy(&sys->system);
    free(sys);
}

int32_t vkmd_sys_atom_count(const vkmd_sys *sys)
{
    return sys ? sys->system.atom_count : 0;
}

int vkmd_sys_box(const vkmd_sys *sys, double out_len_a[3])
{
    const int periodic = sys && sys->system.box.periodic;
    if (out_len_a)
        for (int d = 0; d < 3; ++d)
            out_len_a[d] = periodic ? sys->system.box.len[d] : 0.0;
    return periodic;
}

vkmd_result vkmd_sys_get_positions(const vkmd_sys *sys, int32_t capacity_atoms, double *out_xyz)
{
    if (!sys || !out_xyz || capacity_atoms < sys->system.atom_count)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "vkmd_sys_get_positions: room for %d atoms, the system has %d",
                         (int)capacity_atoms, sys ? (int)sys->system.atom_count : 0);
    memcpy(out_xyz, sys->system.positions, sizeof(double) * 3 * (size_t)sys->system.atom_count);
    return VKMD_OK;
}

vkmd_result vkmd_sys_repartition_hydrogen_mass(vkmd_sys *sys, double hydrogen_mass_amu)
{
    if (!sys)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "vkmd_sys_repartition_hydrogen_mass: sys is NULL");
    vkmd_result r = vkmd_system_repartition_hydrogen_mass(&sys->system, hydrogen_mass_amu, NULL);
    if (r == VKMD_OK)
        sys->hmr_amu = hydrogen_mass_amu;
    return r;
}

vkmd_result vkmd_sys_set_implicit_solvent(vkmd_sys *sys, const vkmd_implicit_desc *desc)
{
    if (!sys || !desc)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "vkmd_sys_set_implicit_solvent: sys and desc are required");
    vkmd_gb_settings g = {0};
    if (desc->model && strcmp(desc->model, "none")) {
        VKMD_TRY_RETURN(vkmd_gb_model_parse(desc->model, &g.model));
        g.salt_molar = desc->salt_molar;
        g.nonpolar = desc->ace != 0;
        g.solute_dielectric = desc->solute_dielectric;
        g.solvent_dielectric = desc->solvent_dielectric;
        g.cutoff_a = desc->cutoff_a;
        vkmd_gb_settings resolved;
        VKMD_TRY_RETURN(vkmd_gb_settings_resolve(&g, &resolved));
        /* The system's own refusals (a box, no radii) now, not at the first
         * evaluation. */
        vkmd_gb_params p;
        VKMD_TRY_RETURN(vkmd_gb_params_build(&sys->system, &resolved, &p));
        vkmd_gb_params_destroy(&p);
    }
    sys->gb = g;
    return VKMD_OK;
}
