/* Relaxed structures as a multi-record SDF with their relaxation reports as
 * data items: what `vkmd uff relax --out` writes. Units in the item names. */
#ifndef VKMD_IO_SDF_RELAX_H
#define VKMD_IO_SDF_RELAX_H

#include "system/uff_lbfgs_settings.h"
#include "system/uff_molecule.h"

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

#endif
