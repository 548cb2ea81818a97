/* The linear fit of a run's total energy against time that its summary
 * reports as the energy drift (kcal/mol/ns, and k_B T per ns per degree of
 * freedom). Time in ps, as the energy CSV's time column. */
#ifndef VKMD_RUN_ENERGY_DRIFT_H
#define VKMD_RUN_ENERGY_DRIFT_H

#include "core/result.h"

#include <stdint.h>

typedef struct vkmd_energy_drift {
    int32_t samples;
    double slope_kcal_mol_per_ns;        /* least-squares slope of the total energy vs time */
    double slope_stderr_kcal_mol_per_ns; /* its standard error (0 for 2 samples) */
    double intercept_kcal_mol;           /* fitted total energy at time 0 */
    double rms_residual_kcal_mol; /* RMS of the fit's residuals (fluctuation about the line) */
    double kt_per_ns_per_dof;     /* slope / (k_B T) / dof */
} vkmd_energy_drift;

/* Fits total_kcal_mol[i] = a + b time_ps[i] over n samples (centred sums, so
 * large totals lose no digits) and expresses the slope per ns and in k_B T per
 * ns per degree of freedom at temperature_k. Errors:
 * VKMD_ERROR_INVALID_ARGUMENT (n < 2, all times equal, temperature_k or dof
 * not positive), VKMD_ERROR_NUMERIC (a non-finite sample, index named). */
vkmd_result vkmd_energy_drift_fit(const double *time_ps, const double *total_kcal_mol, int32_t n,
                                  double temperature_k, int64_t dof, vkmd_energy_drift *out_drift);

#endif
