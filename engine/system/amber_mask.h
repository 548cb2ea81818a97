/* AMBER atom masks (the ambmask / cpptraj syntax) evaluated on a loaded
 * system: the selection behind positional restraints (`--restrain`).
 *
 * Syntax (docs/RESTRAINTS.md has examples):
 *   :LIST      residues: 1-based numbers, ranges a-b, names (`:WAT,HOH`),
 *              `:*` every residue
 *   @LIST      atoms: 1-based numbers, ranges, names (`@CA,C,N`)
 *   @%LIST     AMBER atom types (`@%CT`)
 *   @/LIST     elements (`@/C`, `@/Na`; case-insensitive)
 *   :LIST@LIST atoms of those residues (an implicit and)
 *   *          every atom
 *   !  &  |    not, and, or; precedence ! > & > |; parentheses group
 *   X <:R, X <@R, X >:R, X >@R
 *              distance: residues with an atom (<:) or atoms (<@) within
 *              R A of an atom of X, or (>) farther than R (minimum image
 *              in a periodic box); binds as tightly as `!`
 * Names take wildcards: `*` and `=` match any run of characters (so `@H=`
 * is every name starting with H), `?` one character. An item starting with
 * a digit is a number or range; anything else is a name (`Na+`, `Cl-`).
 * Spaces are ignored between items and operators. */
#ifndef VKMD_SYSTEM_AMBER_MASK_H
#define VKMD_SYSTEM_AMBER_MASK_H

#include "core/result.h"
#include "system/system.h"

#include <stdint.h>

/* Evaluates `mask` on `sys`: out_selected [atom_count] gets 1 for selected
 * atoms, 0 otherwise; *out_count (may be NULL) the number selected (0 is not
 * an error). Distance operators need the system's positions. Errors:
 * VKMD_ERROR_PARSE naming the mask and the 1-based character position of
 * the fault; VKMD_ERROR_INVALID_ARGUMENT (distance operator without
 * coordinates); VKMD_ERROR_OUT_OF_MEMORY. out_selected is unspecified after
 * an error. */
vkmd_result vkmd_amber_mask_select(const vkmd_system *sys, const char *mask, uint8_t *out_selected,
                                   int32_t *out_count);

/* 1 when `name` matches `pattern` (`*` and `=` any run, `?` one character),
 * case-sensitive as AMBER's names; leading and trailing blanks of `name`
 * are ignored. */
int vkmd_amber_mask_match(const char *pattern, const char *name);

#endif
