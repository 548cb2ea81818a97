/* A UFF molecule (system/uff_molecule.h) as a vkmd_system: what the viewer
 * draws (elements, bonds, positions), for `vkmd view` of a molecule file and
 * the replicas of `vkmd uff md`. No force-field parameters: the result is
 * for display and topology only (no charges, masses, types or box). */
#ifndef VKMD_SYSTEM_MOLECULE_SYSTEM_H
#define VKMD_SYSTEM_MOLECULE_SYSTEM_H

#include "system/system.h"
#include "system/uff_molecule.h"

/* Fills *out (overwritten; free with vkmd_system_destroy) with `replicas`
 * (>= 1) copies of m one after another: atom r * atom_count + i is m's atom
 * i in replica r, with its element; bonds likewise, offset per replica. The
 * title is m->name. Positions: `xyz` ([replicas * atom_count][3] A,
 * borrowed), or with xyz NULL m's first conformer in every replica. Errors:
 * VKMD_ERROR_INVALID_ARGUMENT (replicas < 1), VKMD_ERROR_OUT_OF_MEMORY;
 * *out is zeroed on failure. */
vkmd_result vkmd_system_from_uff_molecule(const vkmd_uff_molecule *m, int32_t replicas,
                                          const double *xyz, vkmd_system *out);

/* The largest extent of m's first conformer along x, y or z, A. */
double vkmd_uff_molecule_extent(const vkmd_uff_molecule *m);

#endif
