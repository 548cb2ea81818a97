/* A library screen's per-molecule results (see uff_library_report.h). */
#include "io/uff_library_report.h"

#include "core/json_write.h"
#include "io/sdf.h"

#include <string.h>

/* The entry's opening: index, name and atoms. */
static void entry_head(FILE *js, const vkmd_uff_molecule *m, int32_t index)
{
    fprintf(js, "%s    {\"index\": %d, \"name\": ", index > 1 ? ",\n" : "", index);
    vkmd_json_write_string(js, m->name);
    fprintf(js, ", \"atoms\": %d", m->atom_count);
}

/* The entry's end for a molecule that failed. */
static void entry_error(FILE *js, const char *error)
{
    fprintf(js, ", \"error\": ");
    vkmd_json_write_string(js, error);
    fputc('}', js);
}

vkmd_result vkmd_uff_library_write_relaxed(FILE *sdf, FILE *js, const char *kind,
                                           const vkmd_uff_molecule *m, int32_t index,
                                           const double *xyz, const vkmd_uff_relax_result *r,
                                           const char *err)
{
    char v[7][64];
    snprintf(v[6], sizeof v[6], "%d", index);
    vkmd_sdf_item items[9] = {{"LIBRARY_INDEX", v[6]}};
    int32_t n = 1;
    if (r) {
        snprintf(v[0], sizeof v[0], "%.6f", r->energy_final);
        snprintf(v[1], sizeof v[1], "%.6f", r->energy_initial);
        snprintf(v[2], sizeof v[2], "%d", r->iterations);
        snprintf(v[3], sizeof v[3], "%d", r->evaluations);
        snprintf(v[4], sizeof v[4], "%d", r->converged);
        snprintf(v[5], sizeof v[5], "%.3e", r->fmax);
        const vkmd_sdf_item rest[] = {{"UFF_ENERGY_KCAL_PER_MOL", v[0]},
                                      {"UFF_INITIAL_ENERGY_KCAL_PER_MOL", v[1]},
                                      {"MINIMIZER", kind},
                                      {"ITERATIONS", v[2]},
                                      {"ENERGY_EVALUATIONS", v[3]},
                                      {"CONVERGED", v[4]},
                                      {"MAX_FORCE_KCAL_PER_MOL_A", v[5]}};
        memcpy(items + 1, rest, sizeof rest);
        n += (int32_t)(sizeof rest / sizeof *rest);
    } else {
        items[n++] = (vkmd_sdf_item){"VKMD_ERROR", err};
    }
    VKMD_TRY_RETURN(vkmd_sdf_write_record(sdf, m, m->name, xyz, items, n));
    entry_head(js, m, index);
    if (!r) {
        entry_error(js, err);
        return VKMD_OK;
    }
    fprintf(js,
            ", \"minimizer\": \"%s\", \"energy_initial_kcal_mol\": %.6f, "
            "\"energy_final_kcal_mol\": %.6f, \"steps\": %d, \"iterations\": %d, "
            "\"energy_evaluations\": %d, \"converged\": %s, \"max_force_kcal_mol_a\": %.3e}",
            kind, r->energy_initial, r->energy_final, r->iterations, r->iterations, r->evaluations,
            r->converged ? "true" : "false", r->fmax);
    return VKMD_OK;
}

void vkmd_uff_library_write_energies(FILE *js, const vkmd_uff_molecule *m, int32_t index,
                                     const vkmd_uff_energy *energy, const char *error)
{
    entry_head(js, m, index);
    if (!energy) {
        entry_error(js, error);
        return;
    }
    fprintf(js, ", \"energy_kcal_mol\": [");
    for (int32_t c = 0; c < m->conformer_count; ++c)
        fprintf(js, "%s%.6f", c ? ", " : "", energy[c].total);
    fprintf(js, "]}");
}
