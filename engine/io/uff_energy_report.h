/* The report of UFF energies and forces per record and conformer, as text
 * (a term table in kcal/mol, force statistics and per-atom forces in
 * kcal/mol/A) or as JSON (keys carry their units): what `vkmd uff energy`
 * prints, for any client. */
#ifndef VKMD_IO_UFF_ENERGY_REPORT_H
#define VKMD_IO_UFF_ENERGY_REPORT_H

#include "system/uff_molecule.h"
#include "system/uff_terms.h"
#include "system/uff_typing.h"

#include <stdio.h>

/* One JSON object: bond, angle, torsion, inversion, vdw, coulomb and total,
 * each as "<term>_kcal_per_mol" with 10 decimals. */
void vkmd_uff_energy_write_json(FILE *out, const vkmd_uff_energy *e);

/* Record `index` (0-based; printed 1-based) of molecule m with its typing and
 * terms, and per conformer c its energies e[c] and forces f[c] ([3 * atoms]):
 * text (with the atom types listed when list_types) or one JSON object of a
 * "records" array (json; `first` leaves out the separating comma). When
 * forces_file is not NULL each conformer's forces are also written there
 * (io/uff_forces_file.h). */
void vkmd_uff_record_write(FILE *out, int json, int list_types, int32_t index,
                           const vkmd_uff_molecule *m, const vkmd_uff_typing *ty,
                           const vkmd_uff_terms *terms, const vkmd_uff_energy *e, double *const *f,
                           FILE *forces_file, int first);

#endif
