/* Replicas of one UFF molecule as a multi-record SDF (see uff_replicas_sdf.h). */
#include "io/uff_replicas_sdf.h"
#include "io/sdf.h"

#include <stdio.h>

/* One record with the FIRE report as data items. */
static vkmd_result write_record(FILE *f, const vkmd_uff_molecule *m, const char *title,
                                const double *xyz, const vkmd_uff_fire_result *res)
{
    char v[5][32];
    snprintf(v[0], sizeof v[0], "%.6f", res->energy_final);
    snprintf(v[1], sizeof v[1], "%.6f", res->energy_initial);
    snprintf(v[2], sizeof v[2], "%d", res->steps);
    snprintf(v[3], sizeof v[3], "%d", res->converged);
    snprintf(v[4], sizeof v[4], "%.3e", res->fmax);
    const vkmd_sdf_item items[5] = {{"UFF_ENERGY_KCAL_PER_MOL", v[0]},
                                    {"UFF_INITIAL_ENERGY_KCAL_PER_MOL", v[1]},
                                    {"FIRE_STEPS", v[2]},
                                    {"FIRE_CONVERGED", v[3]},
                                    {"MAX_FORCE_KCAL_PER_MOL_A", v[4]}};
    return vkmd_sdf_write_record(f, m, title, xyz, items, 5);
}

vkmd_result vkmd_uff_replicas_write_sdf(const char *path, const vkmd_uff_molecule *m, int32_t count,
                                        const double *xyz, const vkmd_uff_fire_result *results,
                                        const char *title_suffix)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return vkmd_fail(VKMD_ERROR_IO, "cannot write %s", path);
    vkmd_result res = VKMD_OK;
    for (int32_t r = 0; r < count && res == VKMD_OK; ++r) {
        char title[200];
        snprintf(title, sizeof title, "%s replica %d%s", m->name, r + 1, title_suffix);
        res = write_record(f, m, title, xyz + 3 * (size_t)r * m->atom_count, &results[r]);
    }
    if (fclose(f) != 0 && res == VKMD_OK)
        res = vkmd_fail(VKMD_ERROR_IO, "error writing %s", path);
    return res;
}
