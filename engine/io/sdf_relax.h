/* Relaxed structures as a multi-record SDF with their relaxation reports as
 * data items: what `vkmd uff relax --out` writes. Units in the item names. */
#ifndef VKMD_IO_SDF_RELAX_H
#define VKMD_IO_SDF_RELAX_H

#include "system/uff_lbfgs_settings.h"
#include "system/uff_molecule.h"
#include "system/uff_relax_set.h"

/* One record to write (everything borrowed). */
typedef struct vkmd_sdf_relaxed {
    const vkmd_uff_molecule *molecule; /* atoms and bonds */
    const char *title;                 /* record title */
    const double *xyz;                 /* [3 * atoms] A */
    const vkmd_uff_relax_result *result;
    double relative_energy; /* kcal/mol above the lowest of its molecule's records */
    int32_t source;         /* 1-based input record or replica it was relaxed from */
} vkmd_sdf_relaxed;

/* Writes `count` records (V2000, 4 decimals: vkmd_sdf_write_record) to
 * `path` (replaced), each with the data items UFF_ENERGY_KCAL_PER_MOL,
 * UFF_RELATIVE_ENERGY_KCAL_PER_MOL, UFF_INITIAL_ENERGY_KCAL_PER_MOL (%.6f),
 * MINIMIZER (`minimizer`), ITERATIONS, ENERGY_EVALUATIONS, CONVERGED (0/1),
 * MAX_FORCE_KCAL_PER_MOL_A (%.3e) and SOURCE_RECORD. Errors: VKMD_ERROR_IO
 * ("cannot write PATH", "error writing PATH"). */
vkmd_result vkmd_sdf_write_relaxed(const char *path, const char *minimizer,
                                   const vkmd_sdf_relaxed *records, int32_t count);

/* The replicas of a relaxation set (system/uff_relax_set.h), relaxed to
 * `final` (batch order) with reports out[replica], written to `path` as
 * vkmd_sdf_write_relaxed writes them: with `by_record` (the replicas are
 * the records of `records`, a conformer file) or prune_rms_a > 0 grouped by
 * molecule, sorted by energy and near duplicates dropped
 * (vkmd_uff_conformers_order), else in replica order. Titles: a record's
 * own name (by_record, when it has one), else "NAME record|replica R".
 * out_order[*out_kept] receives the replicas written, out_relative[replica]
 * each one's energy above its molecule's lowest (kcal/mol). Errors:
 * VKMD_ERROR_IO naming the path, VKMD_ERROR_OUT_OF_MEMORY. */
vkmd_result vkmd_sdf_write_relaxed_set(const char *path, const char *minimizer,
                                       const vkmd_uff_relax_set *set,
                                       const vkmd_uff_molecule *records, const double *final,
                                       const vkmd_uff_relax_result *out, int by_record,
                                       double prune_rms_a, int32_t *out_order, int32_t *out_kept,
                                       double *out_relative);

#endif
