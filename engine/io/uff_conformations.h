/* Conformations of one UFF molecule read from a file: every record and
 * conformer of a multi-record SDF or multi-frame XYZ holding the molecule's
 * atoms in its order, what `vkmd uff scan --confs` evaluates and `vkmd uff
 * relax --confs` starts from, and the starts relax makes without it. */
#ifndef VKMD_IO_UFF_CONFORMATIONS_H
#define VKMD_IO_UFF_CONFORMATIONS_H

#include "system/uff_batch.h"
#include "system/uff_molecule.h"

/* Loads `path` (vkmd_uff_molecule_load) into *out_confs (*out_conf_count
 * records; free with vkmd_uff_molecule_array_free) and checks that every
 * record has m's atom count and elements in m's order (`m_name` names m in
 * messages); *out_total: the conformations, every conformer of every
 * record. Errors: the loader's, VKMD_ERROR_INVALID_ARGUMENT naming the
 * record and atom that differ; nothing is returned on failure. */
vkmd_result vkmd_uff_conformations_load(const char *path, const vkmd_uff_molecule *m,
                                        const char *m_name, vkmd_uff_molecule **out_confs,
                                        int32_t *out_conf_count, int32_t *out_total);

/* Conformation r (0-based, records in order, their conformers in order) of
 * confs: its record and conformer (0-based) and coordinates (borrowed). */
const double *vkmd_uff_conformation(const vkmd_uff_molecule *confs, int32_t r, int32_t *out_record,
                                    int32_t *out_conformer);

/* Every conformation of confs as a replica of molecule index 0, in order,
 * into out[total] (coordinates borrowed from confs). */
void vkmd_uff_conformations_replicas(const vkmd_uff_molecule *confs, int32_t conf_count,
                                     vkmd_uff_replica *out);

/* Starts of replicas of m, what `vkmd uff relax` minimises from:
 * *out_xyz ([*out_count][3 * atoms] A, malloc'd; free()) holds every
 * conformation of confs_path (checked as vkmd_uff_conformations_load does;
 * `replicas` is ignored), or, when confs_path is NULL, `replicas` copies of
 * m's first conformer each displaced by vkmd_uff_perturb(perturb_a, seed,
 * replica r). Errors: those of vkmd_uff_conformations_load,
 * VKMD_ERROR_OUT_OF_MEMORY; nothing is returned on failure. */
vkmd_result vkmd_uff_starts_make(const vkmd_uff_molecule *m, const char *m_name,
                                 const char *confs_path, int32_t replicas, double perturb_a,
                                 uint64_t seed, double **out_xyz, int32_t *out_count);

#endif
