/* The UFF atomic parameter table (Rappe et al., J. Am. Chem. Soc. 1992, 114,
 * 10024, Table 1): assets/uff_params.txt, embedded in the binary at build
 * time. One row per atom type label ("C_R", "P_3+5"); the force constants and
 * natural lengths of every term are derived from these rows (uff_terms.h).
 *
 * Units as stored here: lengths in A, theta0 in RADIANS (the file has
 * degrees), energies in kcal/mol, Z1 in electron charges, Xi/Hard in eV. */
#ifndef VKMD_SYSTEM_UFF_PARAMS_H
#define VKMD_SYSTEM_UFF_PARAMS_H

#include "core/result.h"

#include <stdint.h>

#define VKMD_UFF_LABEL_MAX 8 /* bytes of a label with its NUL ("O_3_z" is the longest) */

typedef struct vkmd_uff_atom_params {
    char label[VKMD_UFF_LABEL_MAX];
    double r1;     /* valence bond radius, A */
    double theta0; /* natural angle, rad */
    double x1;     /* van der Waals distance, A */
    double d1;     /* van der Waals well depth, kcal/mol */
    double zeta;   /* van der Waals shape (exponential-6 only; unused) */
    double z1;     /* effective charge, e */
    double v1;     /* sp3 torsional barrier, kcal/mol */
    double u1;     /* sp2 torsional constant, kcal/mol */
    double xi;     /* GMP electronegativity, eV */
    double hard;   /* GMP hardness, eV */
    double radius; /* GMP radius, A */
} vkmd_uff_atom_params;

typedef struct vkmd_uff_param_table {
    int32_t count;
    vkmd_uff_atom_params *types; /* [count], in file order; owned */
} vkmd_uff_param_table;

/* Parses a table in the format of assets/uff_params.txt ('#' comments, one
 * row of 12 fields per type) into `out` (overwritten; free with
 * vkmd_uff_params_destroy). `name` stands for the file in messages. Errors:
 * VKMD_ERROR_PARSE ("name:line: ..." for a short row, a bad number, a label
 * too long or repeated, no rows at all), VKMD_ERROR_OUT_OF_MEMORY. */
vkmd_result vkmd_uff_params_parse(const char *text, const char *name, vkmd_uff_param_table *out);

/* The built-in table (assets/uff_params.txt), parsed into `out`. */
vkmd_result vkmd_uff_params_load_default(vkmd_uff_param_table *out);

/* Frees the rows and zeroes the table. Safe on a zeroed struct. */
void vkmd_uff_params_destroy(vkmd_uff_param_table *t);

/* Index of `label` in the table, or -1. */
int32_t vkmd_uff_params_find(const vkmd_uff_param_table *t, const char *label);

#endif
