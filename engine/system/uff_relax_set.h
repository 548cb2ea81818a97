/* What a UFF relaxation minimises, built from the records of a molecule
 * file: the molecules (typing and terms), the replicas of one mixed batch
 * (system/uff_batch.h) and their starts in batch order. `vkmd uff relax`
 * (every record of a conformer file, or the starts of one record), the MPI
 * screen `vkmd-mpi uff relax` (a block of a library) and any other client
 * build it the same way, then relax it on a device (sim/uff_relax.h:
 * vkmd_uff_relax_batch) or replica by replica on the CPU reference. No
 * Vulkan here. */
#ifndef VKMD_SYSTEM_UFF_RELAX_SET_H
#define VKMD_SYSTEM_UFF_RELAX_SET_H

#include "system/uff_batch.h"
#include "system/uff_molecule.h"
#include "system/uff_terms.h"
#include "system/uff_typing.h"

#include <stdint.h>

/* Zero means default. */
typedef struct vkmd_uff_relax_set_desc {
    int same_molecules;   /* 0; 1: records with the same atoms and bonds
                             (vkmd_uff_same_molecule: conformers of one molecule) share one
                             typing and one set of terms */
    int skip_failures;    /* 0: a record UFF cannot type is an error; 1: it is left out of
                             the batch, its result and message kept in the set */
    const double *starts; /* NULL: a replica per record from its first conformer; else
                             start_count replicas of record 0 from these coordinates
                             ([start_count][3 * atoms] A; vkmd_uff_starts_make) */
    int32_t start_count;
} vkmd_uff_relax_set_desc;

typedef struct vkmd_uff_relax_set {
    int32_t record_count, molecule_count, replica_count;
    vkmd_uff_typing *typing;         /* [record_count]; the first molecule_count used */
    vkmd_uff_terms *terms;           /* [record_count]; likewise */
    const vkmd_uff_terms **terms_of; /* [molecule_count] &terms[m] */
    int32_t *molecule_record;        /* [molecule_count]: its first record */
    int32_t *replica_molecule;       /* [replica_count] */
    int32_t *replica_record;         /* [replica_count]: the record it starts from (with
                                        desc.starts: 0) */
    vkmd_result *record_result;      /* [record_count]: VKMD_OK, or why it was left out */
    char (*record_error)[256];       /* [record_count]: the message of a record left out */
    vkmd_uff_batch batch;
    double *start; /* [3 * batch.atom_count] A, batch order */
} vkmd_uff_relax_set;

/* Builds the set of `count` records (read here only; records of different
 * molecules become one mixed batch). Errors: a record's typing error
 * ("record K: ..." without desc.starts; without desc.skip_failures), those of
 * vkmd_uff_batch_build, VKMD_ERROR_OUT_OF_MEMORY; *out is freed and zeroed
 * on failure. With skip_failures and no typed record the set has no
 * replicas (no error). */
vkmd_result vkmd_uff_relax_set_build(const vkmd_uff_molecule *recs, int32_t count,
                                     const vkmd_uff_relax_set_desc *desc, vkmd_uff_relax_set *out);

/* Frees and zeroes. Safe on a zeroed set. */
void vkmd_uff_relax_set_free(vkmd_uff_relax_set *s);

/* Replica r's coordinates in a batch-ordered array (start, or a result). */
static inline double *vkmd_uff_relax_set_replica(const vkmd_uff_relax_set *s, double *xyz,
                                                 int32_t r)
{
    return xyz + 3 * (size_t)s->batch.replica_atom_offset[r];
}

#endif
