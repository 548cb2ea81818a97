/* Typing and terms of every record (see uff_record_setup.h). */
#include "io/uff_record_setup.h"
#include "io/uff_load.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

vkmd_result vkmd_uff_record_setup_build(vkmd_uff_molecule *recs, int32_t count,
                                        const char *charges_path, const vkmd_uff_terms_desc *desc,
                                        vkmd_uff_record_setup *out)
{
    vkmd_result res = VKMD_OK;
    memset(out, 0, sizeof *out);
    const size_t n = (size_t)(count > 0 ? count : 1);
    out->typing = calloc(n, sizeof *out->typing);
    out->terms = calloc(n, sizeof *out->terms);
    out->typing_of = calloc(n, sizeof *out->typing_of);
    out->terms_of = calloc(n, sizeof *out->terms_of);
    if (!out->typing || !out->terms || !out->typing_of || !out->terms_of)
        VKMD_TRY(vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "setup of %d records", count));
    out->count = count;
    for (int32_t k = 0; k < count; ++k) {
        if (charges_path)
            VKMD_TRY(vkmd_uff_molecule_read_charges(charges_path, &recs[k]));
        VKMD_TRY(vkmd_uff_setup(&recs[k], desc, &out->typing[k], &out->terms[k]));
        out->typing_of[k] = &out->typing[k];
        out->terms_of[k] = &out->terms[k];
    }
    return VKMD_OK;
cleanup:
    vkmd_uff_record_setup_free(out);
    return res;
}

vkmd_result vkmd_uff_record_setup_each(const vkmd_uff_molecule *recs, int32_t count,
                                       vkmd_uff_record_setup *out)
{
    memset(out, 0, sizeof *out);
    const size_t n = (size_t)(count > 0 ? count : 1);
    out->typing = calloc(n, sizeof *out->typing);
    out->terms = calloc(n, sizeof *out->terms);
    out->typing_of = calloc(n, sizeof *out->typing_of);
    out->terms_of = calloc(n, sizeof *out->terms_of);
    out->result = calloc(n, sizeof *out->result);
    out->error = calloc(n, sizeof *out->error);
    if (!out->typing || !out->terms || !out->typing_of || !out->terms_of || !out->result ||
        !out->error) {
        vkmd_uff_record_setup_free(out);
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "setup of %d records", count);
    }
    out->count = count;
    for (int32_t k = 0; k < count; ++k) {
        out->typing_of[k] = &out->typing[k];
        out->terms_of[k] = &out->terms[k];
        out->result[k] = vkmd_uff_setup(&recs[k], NULL, &out->typing[k], &out->terms[k]);
        if (out->result[k] != VKMD_OK)
            snprintf(out->error[k], sizeof out->error[k], "%s", vkmd_last_error());
    }
    return VKMD_OK;
}

void vkmd_uff_record_setup_free(vkmd_uff_record_setup *s)
{
    for (int32_t k = 0; k < s->count; ++k) {
        if (s->terms)
            vkmd_uff_terms_free(&s->terms[k]);
        if (s->typing)
            vkmd_uff_typing_free(&s->typing[k]);
    }
    free(s->typing);
    free(s->terms);
    free(s->typing_of);
    free(s->terms_of);
    free(s->result);
    free(s->error);
    memset(s, 0, sizeof *s);
}
