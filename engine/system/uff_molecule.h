/* The UFF molecule model: elements, formal charges, bonds with their Kekule
 * orders as written in the input, and one or more conformers (coordinate
 * sets of the same molecule). The readers (io/sdf.h, io/xyz.h) and the
 * built-in molecules produce it; typing (uff_typing.h) and the term builder
 * (uff_terms.h) consume it.
 *
 * Hydrogens are explicit atoms: UFF has terms for them, and the typing (as
 * RDKit's) counts only bonded neighbours. A bond order is 1, 2 or 3;
 * aromaticity is perceived from the Kekule structure, never read. */
#ifndef VKMD_SYSTEM_UFF_MOLECULE_H
#define VKMD_SYSTEM_UFF_MOLECULE_H

#include "core/result.h"

#include <stdint.h>

typedef struct vkmd_uff_bond {
    int32_t a, b;  /* 0-based atom indices, a != b */
    int32_t order; /* 1 single, 2 double, 3 triple (Kekule) */
} vkmd_uff_bond;

typedef struct vkmd_uff_molecule {
    char name[128];          /* title of the record or the built-in name; may be "" */
    char source[320];        /* where it came from, for messages: "path:line" or "builtin:name" */
    int32_t atom_count;      /* >= 1 */
    int32_t *z;              /* [atom_count] atomic numbers; owned */
    int32_t *formal_charge;  /* [atom_count] formal charges, e; owned */
    int32_t *radicals;       /* [atom_count] unpaired electrons; owned */
    int32_t bond_count;      /* >= 0 */
    vkmd_uff_bond *bonds;    /* [bond_count]; owned */
    int32_t conformer_count; /* >= 1 */
    double *positions;       /* [conformer_count][atom_count][3], A; owned */
    double *partial_charges; /* [atom_count] e for the optional Coulomb term; NULL: none; owned */
} vkmd_uff_molecule;

/* Allocates `out` (overwritten) with zeroed arrays for the given counts and no
 * partial charges. Errors: VKMD_ERROR_INVALID_ARGUMENT (atom_count < 1,
 * negative counts, conformer_count < 1), VKMD_ERROR_OUT_OF_MEMORY. */
vkmd_result vkmd_uff_molecule_alloc(int32_t atom_count, int32_t bond_count, int32_t conformer_count,
                                    vkmd_uff_molecule *out);

/* Frees what the molecule owns and zeroes it. Safe on a zeroed struct. */
void vkmd_uff_molecule_destroy(vkmd_uff_molecule *m);

/* Frees `count` molecules and the array (as returned by the readers). */
void vkmd_uff_molecule_array_free(vkmd_uff_molecule *records, int32_t count);

/* Coordinates of conformer `c` ([atom_count][3], A). */
static inline const double *vkmd_uff_molecule_conformer(const vkmd_uff_molecule *m, int32_t c)
{
    return m->positions + (int64_t)c * m->atom_count * 3;
}

/* Appends the conformers of `other` to `m`. Both must have the same atoms
 * (elements, charges) and bonds in the same order. Errors:
 * VKMD_ERROR_INVALID_ARGUMENT naming the first difference and both sources,
 * VKMD_ERROR_OUT_OF_MEMORY (m unchanged). */
vkmd_result vkmd_uff_molecule_add_conformers(vkmd_uff_molecule *m, const vkmd_uff_molecule *other);

#endif
