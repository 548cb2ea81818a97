/* Restraint specs into restraint sets (see restraint_spec.h). */
#include "io/restraint_spec.h"
#include "io/atom_list.h"
#include "io/load.h"
#include "system/amber_mask.h"

#include <stdlib.h>
#include <string.h>

int vkmd_restraint_spec_active(const vkmd_restraint_spec *spec)
{
    return spec && ((spec->mask && spec->mask[0]) || (spec->file && spec->file[0]));
}

/* The reference coordinates of `path` for `sys`'s atoms ([3 * atom_count], the
 * caller frees): read into a shallow copy whose coordinate arrays are its own. */
static vkmd_result read_reference(const char *path, const vkmd_system *sys, double **out)
{
    vkmd_system tmp = *sys;
    tmp.positions = NULL;
    tmp.velocities = NULL;
    vkmd_result res = vkmd_system_load_coords(path, &tmp);
    free(tmp.velocities);
    if (res != VKMD_OK) {
        free(tmp.positions);
        return res;
    }
    if (!tmp.positions)
        return vkmd_fail(VKMD_ERROR_PARSE, "%s: no coordinates", path);
    *out = tmp.positions;
    return VKMD_OK;
}

vkmd_result vkmd_restraint_spec_build(const vkmd_restraint_spec *spec, const vkmd_system *sys,
                                      vkmd_restraints *out)
{
    memset(out, 0, sizeof *out);
    const int has_mask = spec->mask && spec->mask[0], has_file = spec->file && spec->file[0];
    if (has_mask && has_file)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "restraints: give a mask (--restrain) or an atom list (--restrain-file), "
                         "not both");
    if (!has_mask && !has_file) {
        if (spec->reference)
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "restraints: a reference (%s) but no --restrain or --restrain-file",
                             spec->reference);
        return VKMD_OK;
    }
    const double k = spec->k > 0 ? spec->k : VKMD_RESTRAINT_K_DEFAULT;
    vkmd_result res = VKMD_OK;
    double *ref = NULL;
    uint8_t *sel = malloc((size_t)(sys->atom_count > 0 ? sys->atom_count : 1));
    if (!sel)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "restraints: %d atoms", sys->atom_count);
    if (has_mask)
        VKMD_TRY(vkmd_amber_mask_select(sys, spec->mask, sel, NULL));
    else
        VKMD_TRY(vkmd_atom_list_read(spec->file, sys->atom_count, sel, NULL));
    if (spec->reference)
        VKMD_TRY(read_reference(spec->reference, sys, &ref));
    else if (!sys->positions) {
        res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                        "restraints: the system has no coordinates to take as the reference");
        goto cleanup;
    }
    VKMD_TRY(vkmd_restraints_build(sel, sys->atom_count, ref ? ref : sys->positions, k,
                                   spec->flat_bottom_a, out));
cleanup:
    free(sel);
    free(ref);
    return res;
}
