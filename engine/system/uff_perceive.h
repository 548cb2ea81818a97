/* Chemical perception for UFF typing, following RDKit 2022.09's
 * sanitization so that vkmd's UFF atom types and terms are RDKit's:
 *
 *  1. rings: a smallest set of smallest rings (Horton candidates, GF(2)
 *     independence), used for aromaticity and for "atom in a 3/4-ring";
 *  2. aromaticity, RDKit's default model: per-atom pi-electron donor types
 *     (an exocyclic double bond to a more electronegative atom takes an
 *     electron away, so 2-pyridone and caffeine count as aromatic), Hueckel
 *     4n+2 on single rings and on fused combinations of up to six rings that
 *     share one bond each; aromatic bonds get order 1.5 except a bond shared
 *     by rings that are aromatic only together;
 *  3. conjugation: bonds next to a multiple or aromatic bond between atoms
 *     that can donate pi electrons (C, N, O, ...; not P or S with two or more
 *     neighbours);
 *  4. hybridisation from the number of neighbours plus lone pairs, lowered
 *     from sp3 to sp2 for an atom with three or fewer neighbours and a
 *     conjugated bond (the OH oxygen of an acid, an amide N).
 *
 * Input conventions: hydrogens explicit, Kekule bond orders, formal charges
 * given. Each atom's total valence must be a standard one for its element
 * (or for the isoelectronic element when charged: N+ as C, O- as F); an
 * atom that is not, or an element outside H B C N O F Si P S Cl Se Br I, is
 * an error naming the atom.
 *
 * Differences from RDKit, all outside the molecules RDKit-checked here:
 * the ring set is not "symmetrized" (cage molecules such as cubane can
 * differ), and chirality tags are not used (they only force sp3 on
 * four-coordinate atoms, which are sp3 here anyway). */
#ifndef VKMD_SYSTEM_UFF_PERCEIVE_H
#define VKMD_SYSTEM_UFF_PERCEIVE_H

#include "system/uff_molecule.h"

#include <stdint.h>

typedef enum vkmd_uff_hybridization {
    VKMD_UFF_HYB_UNSPECIFIED = 0,
    VKMD_UFF_HYB_S,     /* H, halogens (one neighbour, no hybridisation label) */
    VKMD_UFF_HYB_SP,    /* linear */
    VKMD_UFF_HYB_SP2,   /* trigonal */
    VKMD_UFF_HYB_SP3,   /* tetrahedral */
    VKMD_UFF_HYB_SP2D,  /* square planar */
    VKMD_UFF_HYB_SP3D,  /* trigonal bipyramidal */
    VKMD_UFF_HYB_SP3D2, /* octahedral */
} vkmd_uff_hybridization;

/* Short name ("SP2"), as RDKit prints it. */
const char *vkmd_uff_hybridization_name(vkmd_uff_hybridization h);

typedef struct vkmd_uff_perception {
    int32_t atom_count, bond_count;
    /* adjacency in bond order: neighbours of atom a are nbr_atom[nbr_start[a] ..
     * nbr_start[a + 1] - 1], reached through bond nbr_bond[...] */
    int32_t *nbr_start;          /* [atom_count + 1] */
    int32_t *nbr_atom;           /* [2 * bond_count] */
    int32_t *nbr_bond;           /* [2 * bond_count] */
    int32_t *bond_atoms;         /* [2 * bond_count] the two atoms of each bond */
    int32_t *valence;            /* [atom_count] sum of Kekule bond orders */
    int32_t *fragment;           /* [atom_count] connected component, 0-based */
    vkmd_uff_hybridization *hyb; /* [atom_count] */
    uint8_t *aromatic;           /* [atom_count] 1 if in an aromatic ring */
    uint8_t *small_ring;         /* [atom_count] bit 0: in a 3-ring, bit 1: in a 4-ring */
    uint8_t *in_triple;          /* [atom_count] 1 if it has a triple bond */
    uint8_t *bond_aromatic;      /* [bond_count] */
    uint8_t *bond_conjugated;    /* [bond_count] */
    uint8_t *bond_in_ring;       /* [bond_count] */
    double *bond_order;          /* [bond_count] 1, 1.5 (aromatic), 2 or 3: UFF's bond order */
    int32_t ring_count;          /* rings of the smallest set */
    int32_t *ring_start;         /* [ring_count + 1] */
    int32_t *ring_atoms;         /* atoms of ring r: ring_atoms[ring_start[r] ..], in cycle order */
} vkmd_uff_perception;

/* Perceives rings, aromaticity, conjugation and hybridisation of `mol` into
 * `out` (overwritten; free with vkmd_uff_perception_free). Errors:
 * VKMD_ERROR_UNSUPPORTED ("<source>: atom N (El): ..." for an element
 * without typing rules or a valence/charge combination that is not
 * standard, e.g. a missing hydrogen), VKMD_ERROR_INVALID_ARGUMENT (a bond
 * order outside 1..3, an atom index out of range),
 * VKMD_ERROR_OUT_OF_MEMORY. */
vkmd_result vkmd_uff_perceive(const vkmd_uff_molecule *mol, vkmd_uff_perception *out);

/* Frees the arrays and zeroes `p`. Safe on a zeroed struct. */
void vkmd_uff_perception_free(vkmd_uff_perception *p);

/* Number of outer-shell electrons and RDKit's default valence of element z
 * (0 and -1 for elements without typing rules here). */
int vkmd_uff_outer_electrons(int32_t z);
int vkmd_uff_default_valence(int32_t z);

/* The rings alone: fills p->bond_in_ring, p->ring_* and p->small_ring of a
 * perception whose adjacency (nbr_*) is set. Used by vkmd_uff_perceive. */
vkmd_result vkmd_uff_find_rings(vkmd_uff_perception *p);

#endif
