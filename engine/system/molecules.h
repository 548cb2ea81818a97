/* Molecules (connected components of the bond graph) of a system: used to
 * make molecules whole and to wrap them into the box by whole molecules, so
 * outputs never show a molecule broken across the periodic boundary. */
#ifndef VKMD_SYSTEM_MOLECULES_H
#define VKMD_SYSTEM_MOLECULES_H

#include "system/system.h"

typedef struct vkmd_molecules {
    int32_t count;
    int32_t *atom_molecule; /* [atom_count] molecule index of each atom */
    int32_t *first;         /* [count + 1] start of each molecule in `atoms` */
    int32_t *atoms;         /* [atom_count] atoms grouped by molecule, ascending inside */
    /* Breadth-first walk of each molecule's bonds from its first atom, for
     * vkmd_molecules_make_whole: walk[first[m] .. first[m + 1]) holds molecule
     * m's atoms in walk order (walk[first[m]] is its first atom), parent[a]
     * the atom a was reached from (-1 for each molecule's first atom). */
    int32_t *walk;   /* [atom_count] */
    int32_t *parent; /* [atom_count] */
} vkmd_molecules;

/* Components of the bond graph (every bond in sys->bonds, plus each water's
 * O-H pairs), numbered by their lowest atom. Errors: OUT_OF_MEMORY. */
vkmd_result vkmd_molecules_build(const vkmd_system *sys, vkmd_molecules *out);
void vkmd_molecules_destroy(vkmd_molecules *m);

/* Periodic systems: moves atoms by whole box vectors so that every bond has
 * its minimum-image length (molecules whole, walking each molecule's bonds
 * from its first atom), then translates each molecule by whole box vectors
 * so that its first atom lies in [0, L) on every axis (a triclinic box: in
 * the brick [0, ax) x [0, by) x [0, cz) of vkmd_box_wrap_shift, by lattice
 * vectors). No-op for vacuum. */
void vkmd_molecules_make_whole(const vkmd_system *sys, const vkmd_molecules *m, double *xyz);

#endif
