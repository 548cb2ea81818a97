/* Replicas of one UFF molecule written as a multi-record SDF with their
 * FIRE reports as data items: what `vkmd uff relax --out` writes (relaxed
 * structures) and `vkmd uff md --out` (final structures; energy only). */
#ifndef VKMD_IO_UFF_REPLICAS_SDF_H
#define VKMD_IO_UFF_REPLICAS_SDF_H

#include "system/fire_settings.h"
#include "system/uff_molecule.h"

/* Writes `count` records of m's atoms at xyz ([count][3 * atoms] A; V2000,
 * 4 decimals: vkmd_sdf_write_record) to `path` (replaced). Record r is
 * titled "<m's name> replica <r + 1><title_suffix>" and carries the data
 * items UFF_ENERGY_KCAL_PER_MOL, UFF_INITIAL_ENERGY_KCAL_PER_MOL (%.6f),
 * FIRE_STEPS, FIRE_CONVERGED and MAX_FORCE_KCAL_PER_MOL_A (%.3e) of
 * results[r]. Errors: VKMD_ERROR_IO ("cannot write PATH", "error writing
 * PATH"). */
vkmd_result vkmd_uff_replicas_write_sdf(const char *path, const vkmd_uff_molecule *m, int32_t count,
                                        const double *xyz, const vkmd_uff_fire_result *results,
                                        const char *title_suffix);

#endif
