/* The report of UFF energies and forces per record and conformer, as text
 * (a term table in kcal/mol, force statistics and per-atom forces in
 * kcal/mol/A) or as JSON (keys carry their units): what `vkmd uff energy`
 * and `vkmd uff scan` print, for any client. */
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

/* The rows of `vkmd uff scan`: conformation r of `n` (its record and
 * conformer found in `confs`, io/uff_conformations.h) with energies e[r], as
 * a text table (its column line first) or as JSON objects of a
 * "conformations" array; each conformation's forces f[r] ([3 * atoms]) also
 * go to forces_file when it is not NULL. */
void vkmd_uff_scan_write(FILE *out, int json, const vkmd_uff_molecule *confs,
                         const vkmd_uff_energy *e, int32_t n, int32_t atoms, double *const *f,
                         FILE *forces_file);

/* The surface part of `vkmd uff energy --surface`: per replica r of `count`
 * its surface energy energy[r] (kcal/mol), the UFF total plus it
 * (totals[r].total + energy[r]) and below[r], the atoms below the grid, as
 * text lines after `desc`, or with json as a ",\n  \"surface\": {...}"
 * member (no trailing newline). */
void vkmd_uff_surface_report_write(FILE *out, const char *desc, const double *energy,
                                   const int32_t *below, const vkmd_uff_energy *totals,
                                   int32_t count, int json);

#endif
