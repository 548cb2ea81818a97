/* Atom-list files: the alternative to an AMBER mask for choosing restrained
 * atoms (`--restrain-file`). One 1-based atom index or range `a-b` per line;
 * `#` starts a comment; blank lines are skipped. */
#ifndef VKMD_IO_ATOM_LIST_H
#define VKMD_IO_ATOM_LIST_H

#include "core/result.h"

#include <stdint.h>

/* Reads `path`: out_selected [atom_count] gets 1 for every listed atom, 0
 * otherwise; *out_count (may be NULL) the number selected. Errors:
 * VKMD_ERROR_IO (cannot open or read), VKMD_ERROR_PARSE naming path:line
 * (not a number or range, an atom outside 1..atom_count, a range going
 * down). */
vkmd_result vkmd_atom_list_read(const char *path, int32_t atom_count, uint8_t *out_selected,
                                int32_t *out_count);

#endif
