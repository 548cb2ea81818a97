/* The UFF molecule model: allocation and conformers (see uff_molecule.h). */
#include "system/uff_molecule.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

vkmd_result vkmd_uff_molecule_alloc(int32_t atom_count, int32_t bond_count, int32_t conformer_count,
                                    vkmd_uff_molecule *out)
{
    memset(out, 0, sizeof *out);
    if (atom_count < 1 || bond_count < 0 || conformer_count < 1)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "molecule of %d atoms, %d bonds, %d conformers: expected at least one "
                         "atom and one conformer",
                         atom_count, bond_count, conformer_count);
    out->atom_count = atom_count;
    out->bond_count = bond_count;
    out->conformer_count = conformer_count;
    out->z = calloc((size_t)atom_count, sizeof *out->z);
    out->formal_charge = calloc((size_t)atom_count, sizeof *out->formal_charge);
    out->radicals = calloc((size_t)atom_count, sizeof *out->radicals);
    out->bonds = calloc((size_t)bond_count + 1, sizeof *out->bonds);
    out->positions = calloc((size_t)conformer_count * (size_t)atom_count * 3, sizeof(double));
    if (!out->z || !out->formal_charge || !out->radicals || !out->bonds || !out->positions) {
        vkmd_uff_molecule_destroy(out);
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "no memory for a molecule of %d atoms",
                         atom_count);
    }
    return VKMD_OK;
}

void vkmd_uff_molecule_destroy(vkmd_uff_molecule *m)
{
    free(m->z);
    free(m->formal_charge);
    free(m->radicals);
    free(m->bonds);
    free(m->positions);
    free(m->partial_charges);
    memset(m, 0, sizeof *m);
}

void vkmd_uff_molecule_array_free(vkmd_uff_molecule *records, int32_t count)
{
    if (!records)
        return;
    for (int32_t i = 0; i < count; ++i)
        vkmd_uff_molecule_destroy(&records[i]);
    free(records);
}

vkmd_result vkmd_uff_molecule_add_conformers(vkmd_uff_molecule *m, const vkmd_uff_molecule *other)
{
    if (other->atom_count != m->atom_count || other->bond_count != m->bond_count)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "%s: %d atoms and %d bonds, but %s has %d atoms and %d bonds: not "
                         "conformers of one molecule",
                         other->source, other->atom_count, other->bond_count, m->source,
                         m->atom_count, m->bond_count);
    for (int32_t i = 0; i < m->atom_count; ++i)
        if (other->z[i] != m->z[i] || other->formal_charge[i] != m->formal_charge[i])
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "%s: atom %d differs from %s (element or charge): not conformers "
                             "of one molecule",
                             other->source, i + 1, m->source);
    for (int32_t b = 0; b < m->bond_count; ++b) {
        const vkmd_uff_bond *x = &m->bonds[b], *y = &other->bonds[b];
        if (x->a != y->a || x->b != y->b || x->order != y->order)
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "%s: bond %d differs from %s: not conformers of one molecule",
                             other->source, b + 1, m->source);
    }
    size_t per = (size_t)m->atom_count * 3;
    size_t total = (size_t)(m->conformer_count + other->conformer_count) * per;
    double *p = realloc(m->positions, total * sizeof *p);
    if (!p)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "no memory for %d conformers",
                         m->conformer_count + other->conformer_count);
    memcpy(p + (size_t)m->conformer_count * per, other->positions,
           (size_t)other->conformer_count * per * sizeof *p);
    m->positions = p;
    m->conformer_count += other->conformer_count;
    return VKMD_OK;
}
