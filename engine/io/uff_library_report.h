/* The per-molecule results of a UFF screen of a library (`vkmd-mpi uff
 * relax | scan LIBRARY`, any client that splits a library): each molecule's
 * JSON entry (index, name, atoms, then its figures or its error) and, for a
 * relaxation, its SDF record with the report as data items (LIBRARY_INDEX,
 * UFF_ENERGY_KCAL_PER_MOL, UFF_INITIAL_ENERGY_KCAL_PER_MOL, MINIMIZER,
 * ITERATIONS, ENERGY_EVALUATIONS, CONVERGED, MAX_FORCE_KCAL_PER_MOL_A; a
 * molecule UFF could not type or relax gets its input coordinates and a
 * VKMD_ERROR item). Entries are written one after another (", " between
 * them: index > 1), so blocks of a library written apart concatenate in
 * input order. Units in the keys. */
#ifndef VKMD_IO_UFF_LIBRARY_REPORT_H
#define VKMD_IO_UFF_LIBRARY_REPORT_H

#include "system/uff_lbfgs_settings.h"
#include "system/uff_molecule.h"
#include "system/uff_terms.h"

#include <stdio.h>

/* Molecule `m`, 1-based `index` in the library, relaxed by `minimizer`
 * ("lbfgs", "fire") to xyz with report r, or (r NULL) not, for `error`.
 * Errors: VKMD_ERROR_IO from the SDF stream. */
vkmd_result vkmd_uff_library_write_relaxed(FILE *sdf, FILE *json, const char *minimizer,
                                           const vkmd_uff_molecule *m, int32_t index,
                                           const double *xyz, const vkmd_uff_relax_result *r,
                                           const char *error);

/* Molecule `m`'s energies, one per conformer (kcal/mol), or (energy NULL)
 * its `error`. */
void vkmd_uff_library_write_energies(FILE *json, const vkmd_uff_molecule *m, int32_t index,
                                     const vkmd_uff_energy *energy, const char *error);

#endif
