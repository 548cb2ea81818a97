/* The UFF terms of a typed molecule with their parameters, enumerated as
 * RDKit 2022.09's UFF builder does. This is what the CPU reference
 * (ref/ref_uff.h) and the GPU pass evaluate; every parameter is derived here
 * from the atomic table (Rappe et al. 1992):
 *
 * bond stretch, every bond: E = kb/2 (r - r0)^2 with the natural length
 *   r0 = ri + rj + rBO - rEN, rBO = -0.1332 (ri + rj) ln(order),
 *   rEN = ri rj (sqrt(Xi) - sqrt(Xj))^2 / (Xi ri + Xj rj) (RDKit's sign:
 *   subtracted), kb = 2 * 332.06 Zi Zj / r0^3. Aromatic bonds have
 *   order 1.5. (RDKit does not use the paper's 1.41 for amide C-N.)
 * angle bend, every pair of neighbours of a centre j: with c = cos(theta),
 *   general (order 0): E = ka (C0 + C1 c + C2 (2c^2 - 1)),
 *     C2 = 1 / (4 sin^2 theta0), C1 = -4 C2 cos theta0, C0 = C2 (2 cos^2 theta0 + 1);
 *   linear (sp centre, order 1): E = ka (1 + c);
 *   order n = 2, 3, 4: E = ka / n^2 (1 - cos(n theta)): trigonal (sp2,
 *     n = 3), octahedral (sp3d2, n = 4), and for a trigonal-bipyramidal
 *     (sp3d, five neighbours) centre axial-axial n = 2, equatorial pairs
 *     n = 3, axial-equatorial general; axial = the most opposed pair in
 *     conformer 0. Square-planar (sp2d) centres use the general form, as RDKit.
 *   ka = 664.12 Zi Zk / rik^5 (3 rij rjk (1 - cos^2 theta0) - rik^2 cos theta0)
 *   with rij, rjk the natural lengths and rik from them at theta0. sp2 centres in
 *   3- and 4-rings (RDKit's rule): theta0 60 or 90 degrees inside the ring,
 *   150 or 135 between a ring bond and a substituent, general form.
 * torsion, every bond j-k whose atoms have other neighbours, no triple bond
 *   and sp2 or sp3 hybridisation, for each i on j and l on k (i != l):
 *   E = V/2 (1 - cos_term cos(n phi)), V divided by the number of torsions
 *   about the bond;
 *   sp3-sp3: V = sqrt(Vj Vk), n 3, cos_term -1; a single bond between two
 *     group-16 atoms: V = sqrt(Vj Vk) with 2 for O and 6.8 for S, Se...,
 *     n 2, cos_term -1;
 *   sp2-sp2: V = 5 sqrt(Uj Uk) (1 + 4.18 ln(order)) (equation 17), n 2,
 *     cos_term 1;
 *   sp2-sp3: V 1, n 6, cos_term 1; for a single bond, when the sp3 atom is
 *     group 16 and the sp2 atom is not: V from equation 17, n 2, cos_term -1; else
 *     when i or l is sp2: V 2, n 3, cos_term -1.
 * inversion, every centre C, N, O (sp2) or P, As, Sb, Bi with exactly three
 *   neighbours, three terms (each neighbour in turn out of the plane of the
 *   other two): E = K (C0 + C1 sin(Y) + C2 cos(2W)), Y the angle between the
 *   plane normal and the bond to the out-of-plane atom (W = 90 - Y);
 *   C, N, O: C0 1, C1 -1, C2 0, K 6/3 (50/3 for C bound to an sp2 O);
 *   group 15: C2 1, C1 -4 cos(w0), C0 -(C1 cos w0 + C2 cos 2 w0),
 *   K = 22 / (C0 + C1 + C2) / 3, w0 84.4339 (P), 86.9735 (As), 87.7047 (Sb),
 *   90 (Bi) degrees.
 * van der Waals, every pair neither bonded nor sharing a neighbour (1-4
 *   pairs at full strength), and by RDKit's default not between different
 *   fragments: E = D (x^12/r^12 - 2 x^6/r^6), x = sqrt(xi xj),
 *   D = sqrt(Di Dj); zero beyond vdw_threshold * x.
 * Coulomb (optional, not in RDKit's UFF), the same pairs when the molecule
 *   has partial charges: E = k qi qj / (dielectric r). */
#ifndef VKMD_SYSTEM_UFF_TERMS_H
#define VKMD_SYSTEM_UFF_TERMS_H

#include "system/uff_molecule.h"
#include "system/uff_params.h"
#include "system/uff_typing.h"

#include <stdint.h>

#define VKMD_UFF_G             332.06   /* bond force constant prefactor, kcal/mol A / e^2 */
#define VKMD_UFF_BO_LAMBDA     0.1332   /* bond-order correction scale */
#define VKMD_UFF_COULOMB_K     332.0637 /* kcal/mol A / e^2 (CODATA 2018, as OpenMM) */
#define VKMD_UFF_VDW_THRESHOLD 10.0     /* RDKit's default, in units of x */

typedef struct vkmd_uff_bond_term {
    int32_t i, j;
    double kb; /* kcal/mol/A^2 */
    double r0; /* A */
} vkmd_uff_bond_term;

typedef struct vkmd_uff_angle_term {
    int32_t i, j, k;   /* j is the centre */
    int32_t order;     /* 0 general, 1 linear, 2, 3, 4: E = ka/n^2 (1 - cos n theta) */
    double ka;         /* kcal/mol */
    double theta0;     /* rad (the ring rule's value where it applies) */
    double c0, c1, c2; /* general form coefficients (order 0) */
} vkmd_uff_angle_term;

typedef struct vkmd_uff_torsion_term {
    int32_t i, j, k, l; /* about bond j-k */
    int32_t n;          /* periodicity 2, 3 or 6 */
    double v;           /* kcal/mol, already divided by the torsions about the bond */
    double cos_term;    /* -cos(n phi0): 1 or -1 */
} vkmd_uff_torsion_term;

typedef struct vkmd_uff_inversion_term {
    int32_t i, j, k, l; /* j centre; l is the atom out of the plane i-j-k */
    double k_inv;       /* kcal/mol */
    double c0, c1, c2;
} vkmd_uff_inversion_term;

typedef struct vkmd_uff_pair_term {
    int32_t i, j;
    double x_ij; /* vdW minimum distance, A */
    double d_ij; /* vdW well depth, kcal/mol */
    double qq;   /* coulomb_k q_i q_j / dielectric, kcal/mol A (0 without charges) */
} vkmd_uff_pair_term;

typedef struct vkmd_uff_terms_desc {
    double vdw_threshold;      /* 10 (RDKit): vdW pairs beyond vdw_threshold * x_ij are zero */
    int include_interfragment; /* 0 (RDKit's default): no pairs between fragments; 1: all */
    double coulomb_k;          /* 332.0637 kcal/mol A/e^2 */
    double dielectric;         /* 1 */
} vkmd_uff_terms_desc;

typedef struct vkmd_uff_terms {
    int32_t atom_count;
    int32_t bond_count, angle_count, torsion_count, inversion_count, pair_count;
    vkmd_uff_bond_term *bonds;           /* owned */
    vkmd_uff_angle_term *angles;         /* owned */
    vkmd_uff_torsion_term *torsions;     /* owned */
    vkmd_uff_inversion_term *inversions; /* owned */
    vkmd_uff_pair_term *pairs;           /* owned; O(N^2) list of non-excluded pairs */
    double vdw_threshold;                /* resolved */
    int coulomb;                         /* 1 if the molecule had partial charges */
} vkmd_uff_terms;

/* Energies by term, kcal/mol. */
typedef struct vkmd_uff_energy {
    double bond, angle, torsion, inversion, vdw, coulomb;
    double total;
} vkmd_uff_energy;

/* Enumerates and parameterises every term of `mol` typed as `types` (from
 * vkmd_uff_type_atoms with the same table). Conformer 0 decides the axial
 * bonds of trigonal-bipyramidal centres. `desc` may be NULL (defaults).
 * Errors: VKMD_ERROR_INVALID_ARGUMENT (a negative threshold or dielectric;
 * typing of another molecule), VKMD_ERROR_OUT_OF_MEMORY. */
vkmd_result vkmd_uff_terms_build(const vkmd_uff_molecule *mol, const vkmd_uff_typing *types,
                                 const vkmd_uff_param_table *params,
                                 const vkmd_uff_terms_desc *desc, vkmd_uff_terms *out);

/* Frees the term arrays and zeroes `t`. Safe on a zeroed struct. */
void vkmd_uff_terms_free(vkmd_uff_terms *t);

/* One-call setup: the default table, typing and terms of `mol`; `desc` may
 * be NULL. Errors: those of the three steps. */
vkmd_result vkmd_uff_setup(const vkmd_uff_molecule *mol, const vkmd_uff_terms_desc *desc,
                           vkmd_uff_typing *out_types, vkmd_uff_terms *out_terms);

/* Parameter formulas, exposed for tests (see the file comment). */
double vkmd_uff_bond_rest_length(double order, const vkmd_uff_atom_params *a,
                                 const vkmd_uff_atom_params *b);
double vkmd_uff_bond_force_constant(double r0, const vkmd_uff_atom_params *a,
                                    const vkmd_uff_atom_params *b);
double vkmd_uff_angle_force_constant(double theta0, double order_ij, double order_jk,
                                     const vkmd_uff_atom_params *i, const vkmd_uff_atom_params *j,
                                     const vkmd_uff_atom_params *k);
/* Equation 17: V = 5 sqrt(Uj Uk) (1 + 4.18 ln(order)). */
double vkmd_uff_torsion_sp2_barrier(double order, const vkmd_uff_atom_params *j,
                                    const vkmd_uff_atom_params *k);
/* Inversion K and coefficients of a centre of atomic number z. */
void vkmd_uff_inversion_params(int32_t z, int bound_to_sp2_oxygen, double *out_k, double *out_c0,
                               double *out_c1, double *out_c2);

#endif
