/* SDF / MOL (MDL V2000) reader producing UFF molecules (system/uff_molecule.h),
 * and the writer of one record with data items (what vkmd uff relax | md
 * write; the reader takes it back).
 *
 * Reads the counts line, the atom block (coordinates, element, charge field),
 * the bond block (orders 1, 2, 3) and the M CHG / M RAD properties; every
 * other property and the data items after M END are skipped. A file holds one
 * record (.mol) or many separated by "$$$$" lines (.sdf). As in the V2000
 * specification (and RDKit), M CHG or M RAD lines replace all the charges or
 * radicals of the atom block. Not accepted, each with a clear error: V3000
 * blocks, aromatic (4) and query bond types (aromaticity is perceived from
 * Kekule bonds), query and dummy atoms. */
#ifndef VKMD_IO_SDF_H
#define VKMD_IO_SDF_H

#include "core/result.h"
#include "system/uff_molecule.h"

#include <stdint.h>
#include <stdio.h>

/* Reads every record of the file at `path` into *out_records (an array of
 * *out_count >= 1 molecules with one conformer each; free with
 * vkmd_uff_molecule_array_free). Errors: VKMD_ERROR_IO (cannot read),
 * VKMD_ERROR_PARSE ("path:line: expected ..., found ..."; also an empty file),
 * VKMD_ERROR_UNSUPPORTED ("path:line: ..." for V3000, aromatic or query bonds,
 * query atoms), VKMD_ERROR_OUT_OF_MEMORY. Nothing is returned on failure. */
vkmd_result vkmd_sdf_read(const char *path, vkmd_uff_molecule **out_records, int32_t *out_count);

/* The same from text in memory; `name` stands for the path in messages and
 * sources ("builtin:xylitol"). */
vkmd_result vkmd_sdf_read_string(const char *text, const char *name,
                                 vkmd_uff_molecule **out_records, int32_t *out_count);

/* One data item after M END: "> <name>" then `value` (both borrowed). */
typedef struct vkmd_sdf_item {
    const char *name;
    const char *value;
} vkmd_sdf_item;

/* Writes one V2000 record of m's atoms (elements, M CHG and M RAD lines)
 * and bonds at `xyz` ([atom_count][3] A, written with 4 decimals: rounding
 * of at most 5e-5 A), titled `title`, program line "vkmd", then the
 * `item_count` data items and "$$$$". Errors: VKMD_ERROR_IO when the stream
 * reports a write error. */
vkmd_result vkmd_sdf_write_record(FILE *f, const vkmd_uff_molecule *m, const char *title,
                                  const double *xyz, const vkmd_sdf_item *items,
                                  int32_t item_count);

#endif
