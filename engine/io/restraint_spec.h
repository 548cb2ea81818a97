/* What a run or an energy evaluation asks to restrain (`--restrain MASK`,
 * `--restrain-file FILE`, `--restraint-k`, `--restraint-flat-bottom`,
 * `--reference FILE`), turned into a restraint set (system/restraints.h) for
 * a loaded system: the atoms from an AMBER mask (system/amber_mask.h) or an
 * atom-list file (io/atom_list.h), the reference positions from a
 * coordinate file or the system's own coordinates. */
#ifndef VKMD_IO_RESTRAINT_SPEC_H
#define VKMD_IO_RESTRAINT_SPEC_H

#include "system/restraints.h"
#include "system/system.h"

/* Zero means default for every field; no mask and no file: no restraints. */
typedef struct vkmd_restraint_spec {
    const char *mask;      /* NULL; an AMBER mask, e.g. "!:WAT,HOH,Na+,Cl- & !@H=" */
    const char *file;      /* NULL; an atom-list file (one index or range a-b a line) */
    double k;              /* 0: VKMD_RESTRAINT_K_DEFAULT (10 kcal/mol/A^2), E = k |d|^2 */
    double flat_bottom_a;  /* 0: plain harmonic; else no force within this radius (A) */
    const char *reference; /* NULL: the system's coordinates (the run's start); else an
                              rst7 / inpcrd / PDB with the system's atoms */
} vkmd_restraint_spec;

/* 1 when the spec asks for restraints (a mask or a file). */
int vkmd_restraint_spec_active(const vkmd_restraint_spec *spec);

/* Builds the set for `sys` (its positions are the default reference; read,
 * not kept). An inactive spec gives an empty set. Errors: both a mask and a
 * file, or --reference without either (VKMD_ERROR_INVALID_ARGUMENT); mask
 * syntax (VKMD_ERROR_PARSE naming the mask and character); file errors
 * naming path:line; a reference whose atom count differs; no coordinates;
 * VKMD_ERROR_OUT_OF_MEMORY. */
vkmd_result vkmd_restraint_spec_build(const vkmd_restraint_spec *spec, const vkmd_system *sys,
                                      vkmd_restraints *out);

#endif
