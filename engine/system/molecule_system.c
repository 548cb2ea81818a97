/* A UFF molecule as a vkmd_system for display (see molecule_system.h). */
#include "system/molecule_system.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

vkmd_result vkmd_system_from_uff_molecule(const vkmd_uff_molecule *m, int32_t replicas,
                                          const double *xyz, vkmd_system *out)
{
    memset(out, 0, sizeof *out);
    if (replicas < 1)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%d replicas of %s: at least one", replicas,
                         m->name);
    const int32_t na = m->atom_count, nb = m->bond_count;
    snprintf(out->title, sizeof out->title, "%s", m->name);
    out->atom_count = na * replicas;
    out->bond_count = nb * replicas;
    out->atoms = calloc((size_t)out->atom_count, sizeof *out->atoms);
    out->bonds = calloc((size_t)(out->bond_count ? out->bond_count : 1), sizeof *out->bonds);
    out->positions = malloc(3 * sizeof(double) * (size_t)out->atom_count);
    if (!out->atoms || !out->bonds || !out->positions) {
        vkmd_system_destroy(out);
        memset(out, 0, sizeof *out);
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%d replicas of %s: out of memory", replicas,
                         m->name);
    }
    for (int32_t r = 0; r < replicas; ++r) {
        for (int32_t i = 0; i < na; ++i)
            out->atoms[r * na + i].element = m->z[i];
        for (int32_t b = 0; b < nb; ++b) {
            out->bonds[r * nb + b].i = r * na + m->bonds[b].a;
            out->bonds[r * nb + b].j = r * na + m->bonds[b].b;
        }
        memcpy(out->positions + 3 * (size_t)r * na, xyz ? xyz + 3 * (size_t)r * na : m->positions,
               3 * sizeof(double) * (size_t)na);
    }
    return VKMD_OK;
}

double vkmd_uff_molecule_extent(const vkmd_uff_molecule *m)
{
    double ext = 0;
    for (int k = 0; k < 3; ++k) {
        double lo = m->positions[k], hi = lo;
        for (int32_t i = 1; i < m->atom_count; ++i) {
            lo = fmin(lo, m->positions[3 * i + k]);
            hi = fmax(hi, m->positions[3 * i + k]);
        }
        ext = fmax(ext, hi - lo);
    }
    return ext;
}
