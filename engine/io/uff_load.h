/* Loading UFF molecules (system/uff_molecule.h) from what a user names:
 * the built-in molecules, SDF/MOL and XYZ files; partial charges from a
 * text file. */
#ifndef VKMD_IO_UFF_LOAD_H
#define VKMD_IO_UFF_LOAD_H

#include "system/uff_molecule.h"

/* Names of the built-in molecules, NULL-terminated: "formic-acid", "xylitol"
 * (SDF records embedded from assets/molecules/). */
const char *const *vkmd_uff_builtin_names(void);

/* Loads what a user names on the command line into *out_records (an array of
 * *out_count >= 1 molecules; free with vkmd_uff_molecule_array_free):
 *   a built-in name (vkmd_uff_builtin_names);
 *   a path ending .sdf .sd .mol (any case): every V2000 record (io/sdf.h);
 *   a path ending .xyz: one molecule, one conformer per frame (io/xyz.h).
 * Errors: those of the readers (each naming path:line), and
 * VKMD_ERROR_INVALID_ARGUMENT for a spec that is none of these. */
vkmd_result vkmd_uff_molecule_load(const char *spec, vkmd_uff_molecule **out_records,
                                   int32_t *out_count);

/* 1 if `spec` names what vkmd_uff_molecule_load takes (a built-in name or a
 * path ending .sdf .sd .mol .xyz, any case), else 0; nothing is read. */
int vkmd_uff_molecule_spec(const char *spec);

/* Reads one partial charge (e) per atom from the text file at `path` (numbers
 * separated by white space or newlines, '#' comments) into m->partial_charges.
 * Errors: VKMD_ERROR_IO, VKMD_ERROR_PARSE ("path:line: ..."; also a count that
 * is not m->atom_count), VKMD_ERROR_OUT_OF_MEMORY; m unchanged on failure. */
vkmd_result vkmd_uff_molecule_read_charges(const char *path, vkmd_uff_molecule *m);

#endif
