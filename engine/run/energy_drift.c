/* Energy drift fit (see energy_drift.h). */
#include "run/energy_drift.h"

#include "core/units.h"

#include <math.h>
#include <string.h>

vkmd_result vkmd_energy_drift_fit(const double *t, const double *e, int32_t n, double temperature_k,
                                  int64_t dof, vkmd_energy_drift *out)
{
    memset(out, 0, sizeof *out);
    if (n < 2)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "energy drift needs at least 2 samples, got %d", n);
    if (!(temperature_k > 0) || dof <= 0)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "energy drift per k_B T per degree of freedom needs T > 0 and dof > 0 "
                         "(got %g K, %lld)",
                         temperature_k, (long long)dof);
    double mt = 0, me = 0;
    for (int32_t i = 0; i < n; ++i) {
        if (!isfinite(t[i]) || !isfinite(e[i]))
            return vkmd_fail(VKMD_ERROR_NUMERIC,
                             "energy drift: sample %d is not finite (t %g, E %g)", i, t[i], e[i]);
        mt += t[i];
        me += e[i];
    }
    mt /= n;
    me /= n;
    double sxx = 0, sxy = 0;
    for (int32_t i = 0; i < n; ++i) {
        sxx += (t[i] - mt) * (t[i] - mt);
        sxy += (t[i] - mt) * (e[i] - me);
    }
    if (!(sxx > 0))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "energy drift: all %d samples are at the same time %g ps", n, mt);
    const double b = sxy / sxx, a = me - b * mt;
    double ssr = 0;
    for (int32_t i = 0; i < n; ++i) {
        double r = e[i] - (a + b * t[i]);
        ssr += r * r;
    }
    out->samples = n;
    out->slope_kcal_mol_per_ns = b * 1000.0; /* per ps -> per ns */
    out->slope_stderr_kcal_mol_per_ns = n > 2 ? sqrt(ssr / (n - 2) / sxx) * 1000.0 : 0;
    out->intercept_kcal_mol = a;
    out->rms_residual_kcal_mol = sqrt(ssr / n);
    out->kt_per_ns_per_dof =
        out->slope_kcal_mol_per_ns / (VKMD_BOLTZMANN_KCAL * temperature_k) / (double)dof;
    return VKMD_OK;
}
