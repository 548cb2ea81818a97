/* UFF atom types as RDKit 2022.09 assigns them, from the perception of
 * uff_perceive.h:
 *
 *   label = element symbol, padded with '_' to two characters ("C_", "Cl");
 *   then, except for hydrogen and the halogens (one or seven outer
 *   electrons), a hybridisation character: '3' always for Mg Al Si P Sn Sb
 *   Te Tl Pb Bi Po; otherwise from the perceived hybridisation, sp '1', sp2
 *   '2' or 'R' ('R' for C, N, O, S that are aromatic or have a conjugated
 *   bond: the carbonyl O of an acid is O_R, an amide N is N_R), sp3 '3',
 *   square planar '4', trigonal bipyramidal '5', octahedral '6'; then charge
 *   flags: P "+3"/"+5" by total valence, S (unless sp2) "+2"/"+4"/"+6", Se
 *   "+2".
 *
 * The label is looked up in the parameter table; a label the table lacks
 * (e.g. S_6+6 for SF6, which RDKit cannot type either) is an error naming
 * the atom. */
#ifndef VKMD_SYSTEM_UFF_TYPING_H
#define VKMD_SYSTEM_UFF_TYPING_H

#include "system/uff_molecule.h"
#include "system/uff_params.h"
#include "system/uff_perceive.h"

typedef struct vkmd_uff_typing {
    int32_t atom_count;
    vkmd_uff_perception perception;    /* owned */
    int32_t *type;                     /* [atom_count] row of the parameter table */
    char (*label)[VKMD_UFF_LABEL_MAX]; /* [atom_count] the labels */
} vkmd_uff_typing;

/* Perceives `mol` and types every atom against `params` into `out`
 * (overwritten; free with vkmd_uff_typing_free). Errors: those of
 * vkmd_uff_perceive; VKMD_ERROR_UNSUPPORTED ("<source>: atom N (El): UFF type
 * 'X' is not in the parameter table", or an unsupported charge state);
 * VKMD_ERROR_OUT_OF_MEMORY. */
vkmd_result vkmd_uff_type_atoms(const vkmd_uff_molecule *mol, const vkmd_uff_param_table *params,
                                vkmd_uff_typing *out);

/* The label rule alone for atom `a` of a perceived molecule. Errors:
 * VKMD_ERROR_UNSUPPORTED (a valence with no charge flag, e.g. P with
 * valence 4). */
vkmd_result vkmd_uff_atom_label(const vkmd_uff_molecule *mol, const vkmd_uff_perception *p,
                                int32_t a, char out_label[VKMD_UFF_LABEL_MAX]);

/* Frees what the typing owns and zeroes it. Safe on a zeroed struct. */
void vkmd_uff_typing_free(vkmd_uff_typing *t);

#endif
