/* The per-atom UFF forces file of `vkmd uff energy|scan --forces`: a text
 * file with a header naming the molecule and the device, then one block per
 * conformer ("# what, N atoms" and lines "atom fx fy fz", kcal/mol/A). */
#ifndef VKMD_IO_UFF_FORCES_FILE_H
#define VKMD_IO_UFF_FORCES_FILE_H

#include "core/result.h"

#include <stdint.h>
#include <stdio.h>

/* Creates `path` (overwritten) and writes the header; *out owns the file.
 * Errors: VKMD_ERROR_IO naming the path and the reason. */
vkmd_result vkmd_uff_forces_file_open(const char *path, const char *molecule, const char *device,
                                      FILE **out);

/* One block: the line "# what, n atoms", then atoms 1..n with forces
 * f[3 * n] (kcal/mol/A). Write errors are left in ferror(ff). */
void vkmd_uff_forces_file_write(FILE *ff, const char *what, int32_t n, const double *f);

/* Closes *ff (NULL: nothing to do) and sets it NULL. Errors: VKMD_ERROR_IO
 * naming `path` when a write or the close failed. */
vkmd_result vkmd_uff_forces_file_close(FILE **ff, const char *path);

#endif
