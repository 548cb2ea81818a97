/* Relaxed structures as a multi-record SDF (see sdf_relax.h). */
#include "io/sdf_relax.h"
#include "io/sdf.h"
#include "system/uff_conformers.h"

#include <stdio.h>
#include <stdlib.h>

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

vkmd_result vkmd_sdf_write_relaxed_set(const char *path, const char *minimizer,
                                       const vkmd_uff_relax_set *set,
                                       const vkmd_uff_molecule *records, const double *final,
                                       const vkmd_uff_relax_result *out, int by_record,
                                       double prune_rms_a, int32_t *order, int32_t *out_kept,
                                       double *rel)
{
    vkmd_result res = VKMD_OK;
    const int32_t n = set->replica_count;
    double *energy = calloc((size_t)n + 1, sizeof *energy);
    const double **xyz = calloc((size_t)n + 1, sizeof *xyz);
    const vkmd_uff_molecule **recs = calloc((size_t)n + 1, sizeof *recs);
    vkmd_sdf_relaxed *w = calloc((size_t)n + 1, sizeof *w);
    char(*titles)[160] = calloc((size_t)n + 1, sizeof *titles);
    if (!energy || !xyz || !recs || !w || !titles) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "results of %d replicas", n);
        goto cleanup;
    }
    double lo = n ? out[0].energy_final : 0;
    for (int32_t r = 0; r < n; ++r) {
        energy[r] = out[r].energy_final;
        xyz[r] = vkmd_uff_relax_set_replica(set, (double *) final, r);
        recs[r] = &records[set->replica_record[r]];
        lo = energy[r] < lo ? energy[r] : lo;
        order[r] = r;
    }
    *out_kept = n;
    if (by_record || prune_rms_a > 0)
        VKMD_TRY(
            vkmd_uff_conformers_order(recs, xyz, energy, n, prune_rms_a, order, out_kept, rel));
    else
        for (int32_t r = 0; r < n; ++r)
            rel[r] = energy[r] - lo;
    for (int32_t i = 0; i < *out_kept; ++i) {
        const int32_t r = order[i];
        if (by_record && recs[r]->name[0])
            snprintf(titles[i], sizeof titles[i], "%s", recs[r]->name);
        else
            snprintf(titles[i], sizeof titles[i], "%s %s %d", recs[r]->name,
                     by_record ? "record" : "replica", r + 1);
        w[i] = (vkmd_sdf_relaxed){.molecule = recs[r],
                                  .title = titles[i],
                                  .xyz = xyz[r],
                                  .result = &out[r],
                                  .relative_energy = rel[r],
                                  .source = r + 1};
    }
    VKMD_TRY(vkmd_sdf_write_relaxed(path, minimizer, w, *out_kept));
cleanup:
    free(energy);
    free(xyz);
    free(recs);
    free(w);
    free(titles);
    return res;
}
