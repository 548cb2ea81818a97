/* SDF / MOL (MDL V2000) reader producing UFF molecules (system/uff_molecule.h).
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

#endif
