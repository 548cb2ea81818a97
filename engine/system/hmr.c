/* Hydrogen mass repartitioning (see hmr.h).
 *
 * A hydrogen is an atom of element 1; it is repartitioned when it is bonded
 * to an atom of element > 1 and is not part of a water (sys->waters). A
 * hydrogen bonded to two heavy atoms (no AMBER topology has one) takes its
 * mass from the first in bond order only. New masses are computed and checked
 * first and written only when every heavy atom stays above 1 amu. */
#include "system/hmr.h"

#include <stdlib.h>
#include <string.h>

vkmd_result vkmd_system_repartition_hydrogen_mass(vkmd_system *sys, double h_mass_amu,
                                                  int32_t *out_moved)
{
    if (out_moved)
        *out_moved = 0;
    if (!(h_mass_amu > 0))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "hydrogen mass repartitioning: hydrogen mass %g amu (must be > 0)",
                         h_mass_amu);
    const int32_t n = sys->atom_count;
    double *mass = malloc(((size_t)n + 1) * sizeof *mass);
    uint8_t *skip = calloc((size_t)n + 1, 1); /* water atoms, and hydrogens already moved */
    if (!mass || !skip) {
        free(mass);
        free(skip);
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "hydrogen mass repartitioning: %d atoms", n);
    }
    for (int32_t a = 0; a < n; ++a)
        mass[a] = sys->atoms[a].mass;
    for (int32_t w = 0; w < sys->water_count; ++w) {
        skip[sys->waters[w].o] = 1;
        skip[sys->waters[w].h1] = 1;
        skip[sys->waters[w].h2] = 1;
    }
    int32_t moved = 0;
    for (int32_t b = 0; b < sys->bond_count; ++b) {
        int32_t h = sys->bonds[b].i, heavy = sys->bonds[b].j;
        if (sys->atoms[h].element != 1) {
            h = sys->bonds[b].j;
            heavy = sys->bonds[b].i;
        }
        if (sys->atoms[h].element != 1 || sys->atoms[heavy].element <= 1 || skip[h] || skip[heavy])
            continue;
        mass[heavy] -= h_mass_amu - mass[h];
        mass[h] = h_mass_amu;
        skip[h] = 1;
        ++moved;
    }
    for (int32_t a = 0; a < n; ++a) {
        if (sys->atoms[a].element > 1 && mass[a] <= 1.0 && mass[a] != sys->atoms[a].mass) {
            const vkmd_atom *at = &sys->atoms[a];
            vkmd_result r = vkmd_fail(
                VKMD_ERROR_INVALID_ARGUMENT,
                "hydrogen mass repartitioning: atom %d (%s, residue %s %d) would drop from %g to "
                "%g amu with hydrogens of %g amu (must stay above 1 amu); masses unchanged",
                a + 1, at->name, at->res_name, at->res_index + 1, at->mass, mass[a], h_mass_amu);
            free(mass);
            free(skip);
            return r;
        }
    }
    for (int32_t a = 0; a < n; ++a)
        sys->atoms[a].mass = mass[a];
    free(mass);
    free(skip);
    if (out_moved)
        *out_moved = moved;
    return VKMD_OK;
}
