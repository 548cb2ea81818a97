/* Typing and terms of every record of a loaded UFF molecule file, with the
 * partial charges of a charges file applied to each record first: what
 * `vkmd uff energy | scan` evaluate. Holds the per-record arrays and the
 * pointer arrays the replica calls take (sim/uff_replicas.h,
 * system/uff_surface_replicas.h). */
#ifndef VKMD_IO_UFF_RECORD_SETUP_H
#define VKMD_IO_UFF_RECORD_SETUP_H

#include "system/uff_terms.h"
#include "system/uff_typing.h"

typedef struct vkmd_uff_record_setup {
    int32_t count;
    vkmd_uff_typing *typing;           /* [count]; owned */
    vkmd_uff_terms *terms;             /* [count]; owned */
    const vkmd_uff_typing **typing_of; /* [count] &typing[k]; owned array */
    const vkmd_uff_terms **terms_of;   /* [count] &terms[k]; owned array */
    vkmd_result *result;               /* vkmd_uff_record_setup_each only: [count] each
                                          record's typing result (VKMD_OK: typed) */
    char (*error)[256];                /* ... and the message of a record it could not type */
} vkmd_uff_record_setup;

/* Reads charges_path (may be NULL: none; vkmd_uff_molecule_read_charges)
 * into every record of recs, then types and builds the terms of each with
 * `desc` (may be NULL) into *out (overwritten; free with
 * vkmd_uff_record_setup_free). Errors: those of the charges reader and of
 * vkmd_uff_setup, VKMD_ERROR_OUT_OF_MEMORY; *out is zeroed on failure. */
vkmd_result vkmd_uff_record_setup_build(vkmd_uff_molecule *recs, int32_t count,
                                        const char *charges_path, const vkmd_uff_terms_desc *desc,
                                        vkmd_uff_record_setup *out);

/* The same for a library where a molecule UFF cannot type is a result, not
 * an error (a screen goes on without it): records that fail keep zeroed
 * typing and terms and their result and message in out->result[k] and
 * out->error[k]. No charges file. Errors: VKMD_ERROR_OUT_OF_MEMORY only. */
vkmd_result vkmd_uff_record_setup_each(const vkmd_uff_molecule *recs, int32_t count,
                                       vkmd_uff_record_setup *out);

/* Frees and zeroes. Safe on a zeroed struct. */
void vkmd_uff_record_setup_free(vkmd_uff_record_setup *s);

#endif
