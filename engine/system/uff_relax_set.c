/* The molecules, batch and starts of a UFF relaxation (see uff_relax_set.h). */
#include "system/uff_relax_set.h"
#include "system/uff_conformers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void vkmd_uff_relax_set_free(vkmd_uff_relax_set *s)
{
    for (int32_t m = 0; m < s->molecule_count; ++m) {
        vkmd_uff_terms_free(&s->terms[m]);
        vkmd_uff_typing_free(&s->typing[m]);
    }
    free(s->typing);
    free(s->terms);
    free(s->terms_of);
    free(s->molecule_record);
    free(s->replica_molecule);
    free(s->replica_record);
    free(s->record_result);
    free(s->record_error);
    free(s->start);
    vkmd_uff_batch_free(&s->batch);
    memset(s, 0, sizeof *s);
}

/* The molecule of record k: an earlier record's when same_molecules finds
 * one, else a new one typed here. Returns its index, or -1 when UFF cannot
 * type the record (its result and message kept in s). */
static int32_t molecule_of(vkmd_uff_relax_set *s, const vkmd_uff_molecule *recs, int32_t k,
                           int same_molecules)
{
    for (int32_t g = 0; same_molecules && g < s->molecule_count; ++g)
        if (vkmd_uff_same_molecule(&recs[s->molecule_record[g]], &recs[k]))
            return g;
    const int32_t g = s->molecule_count;
    const vkmd_result r = vkmd_uff_setup(&recs[k], NULL, &s->typing[g], &s->terms[g]);
    s->record_result[k] = r;
    if (r != VKMD_OK) {
        snprintf(s->record_error[k], sizeof s->record_error[k], "%s", vkmd_last_error());
        vkmd_uff_terms_free(&s->terms[g]);
        vkmd_uff_typing_free(&s->typing[g]);
        return -1;
    }
    s->terms_of[g] = &s->terms[g];
    s->molecule_record[g] = k;
    ++s->molecule_count;
    return g;
}

vkmd_result vkmd_uff_relax_set_build(const vkmd_uff_molecule *recs, int32_t count,
                                     const vkmd_uff_relax_set_desc *desc, vkmd_uff_relax_set *out)
{
    const vkmd_uff_relax_set_desc d = desc ? *desc : (vkmd_uff_relax_set_desc){0};
    vkmd_uff_relax_set *s = out;
    memset(s, 0, sizeof *s);
    vkmd_result res = VKMD_OK;
    const int32_t n = count > 0 ? count : 1;
    const int32_t nrep = d.starts ? d.start_count : count;
    s->record_count = count;
    s->typing = calloc((size_t)n, sizeof *s->typing);
    s->terms = calloc((size_t)n, sizeof *s->terms);
    s->terms_of = calloc((size_t)n, sizeof *s->terms_of);
    s->molecule_record = calloc((size_t)n, sizeof *s->molecule_record);
    s->record_result = calloc((size_t)n, sizeof *s->record_result);
    s->record_error = calloc((size_t)n, sizeof *s->record_error);
    s->replica_molecule = calloc((size_t)(nrep > 0 ? nrep : 1), sizeof *s->replica_molecule);
    s->replica_record = calloc((size_t)(nrep > 0 ? nrep : 1), sizeof *s->replica_record);
    if (!s->typing || !s->terms || !s->terms_of || !s->molecule_record || !s->record_result ||
        !s->record_error || !s->replica_molecule || !s->replica_record) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%d records", count);
        goto cleanup;
    }
    const int32_t typed = d.starts ? (count > 0 ? 1 : 0) : count;
    for (int32_t k = 0; k < typed; ++k) {
        const int32_t g = molecule_of(s, recs, k, d.same_molecules);
        if (g < 0 && !d.skip_failures) {
            res = d.starts
                      ? vkmd_fail(s->record_result[k], "%s", s->record_error[k])
                      : vkmd_fail(s->record_result[k], "record %d: %s", k + 1, s->record_error[k]);
            goto cleanup;
        }
        for (int32_t r = 0; g >= 0 && r < (d.starts ? nrep : 1); ++r) {
            s->replica_molecule[s->replica_count] = g;
            s->replica_record[s->replica_count++] = k;
        }
    }
    if (s->replica_count == 0)
        return VKMD_OK;
    VKMD_TRY(vkmd_uff_batch_build(s->terms_of, s->molecule_count, s->replica_molecule,
                                  s->replica_count, &s->batch));
    s->start = malloc(3 * sizeof *s->start * (size_t)s->batch.atom_count);
    if (!s->start) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "starts of %d atoms", s->batch.atom_count);
        goto cleanup;
    }
    for (int32_t r = 0; r < s->replica_count; ++r) {
        const int32_t na = vkmd_uff_batch_replica_atoms(&s->batch, r);
        const double *src = d.starts ? d.starts + 3 * (size_t)r * na
                                     : vkmd_uff_molecule_conformer(&recs[s->replica_record[r]], 0);
        memcpy(vkmd_uff_relax_set_replica(s, s->start, r), src, 3 * sizeof *src * (size_t)na);
    }
cleanup:
    if (res != VKMD_OK)
        vkmd_uff_relax_set_free(s);
    return res;
}
