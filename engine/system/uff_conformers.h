/* Conformer bookkeeping for `vkmd uff relax` on a multi-record SDF (e.g.
 * RDKit ETKDG output): which records are the same molecule, their order by
 * relaxed energy, and duplicates removed by RMSD after optimal
 * superposition. Host maths only; no Vulkan here. */
#ifndef VKMD_SYSTEM_UFF_CONFORMERS_H
#define VKMD_SYSTEM_UFF_CONFORMERS_H

#include "core/result.h"
#include "system/uff_molecule.h"

#include <stdint.h>

/* 1 when a and b have the same atoms (elements, formal charges) and bonds
 * (pairs and orders) in the same order, else 0: conformers of one molecule. */
int vkmd_uff_same_molecule(const vkmd_uff_molecule *a, const vkmd_uff_molecule *b);

/* RMSD (A) between coordinates a and b ([atom_count][3] A) of m's heavy
 * atoms (all atoms when m has no heavy atom) after the translation and
 * rotation of b that minimise it (Horn's quaternion method, J. Opt. Soc.
 * Am. A 4, 629, 1987); no atom renumbering (symmetry) is tried, as RDKit's
 * default pruning of ETKDG conformers. */
double vkmd_uff_rmsd(const vkmd_uff_molecule *m, const double *a, const double *b);

/* Output order of `count` relaxed records: records[k] is a molecule,
 * xyz[k] its relaxed coordinates, energy[k] its energy (kcal/mol).
 * Records are grouped by molecule (groups in order of first appearance),
 * sorted by energy within a group (stable), and with prune_rms_a > 0 a
 * record within prune_rms_a of a lower-energy kept record of its group
 * (vkmd_uff_rmsd) is dropped. out_order (count entries) receives the kept
 * records' indices, *out_kept their number, out_relative[k] (count; may be
 * NULL) each record's energy above its group's lowest. Errors:
 * VKMD_ERROR_OUT_OF_MEMORY. */
vkmd_result vkmd_uff_conformers_order(const vkmd_uff_molecule *const *records,
                                      const double *const *xyz, const double *energy, int32_t count,
                                      double prune_rms_a, int32_t *out_order, int32_t *out_kept,
                                      double *out_relative);

#endif
