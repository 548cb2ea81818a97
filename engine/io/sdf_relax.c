/* Relaxed structures as a multi-record SDF (see sdf_relax.h). */
#include "io/sdf_relax.h"
#include "io/sdf.h"

#include <stdio.h>

vkmd_result vkmd_sdf_write_relaxed(const char *path, const char *minimizer,
                                   const vkmd_sdf_relaxed *records, int32_t count)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return vkmd_fail(VKMD_ERROR_IO, "cannot write %s", path);
    vkmd_result res = VKMD_OK;
    for (int32_t k = 0; k < count && res == VKMD_OK; ++k) {
        const vkmd_sdf_relaxed *rec = &records[k];
        const vkmd_uff_relax_result *r = rec->result;
        char v[8][32];
        snprintf(v[0], sizeof v[0], "%.6f", r->energy_final);
        snprintf(v[1], sizeof v[1], "%.6f", rec->relative_energy);
        snprintf(v[2], sizeof v[2], "%.6f", r->energy_initial);
        snprintf(v[3], sizeof v[3], "%d", r->iterations);
        snprintf(v[4], sizeof v[4], "%d", r->evaluations);
        snprintf(v[5], sizeof v[5], "%d", r->converged);
        snprintf(v[6], sizeof v[6], "%.3e", r->fmax);
        snprintf(v[7], sizeof v[7], "%d", rec->source);
        const vkmd_sdf_item items[9] = {{"UFF_ENERGY_KCAL_PER_MOL", v[0]},
                                        {"UFF_RELATIVE_ENERGY_KCAL_PER_MOL", v[1]},
                                        {"UFF_INITIAL_ENERGY_KCAL_PER_MOL", v[2]},
                                        {"MINIMIZER", minimizer},
                                        {"ITERATIONS", v[3]},
                                        {"ENERGY_EVALUATIONS", v[4]},
                                        {"CONVERGED", v[5]},
                                        {"MAX_FORCE_KCAL_PER_MOL_A", v[6]},
                                        {"SOURCE_RECORD", v[7]}};
        res = vkmd_sdf_write_record(f, rec->molecule, rec->title, rec->xyz, items, 9);
    }
    if (fclose(f) != 0 && res == VKMD_OK)
        res = vkmd_fail(VKMD_ERROR_IO, "error writing %s", path);
    return res;
}
