/* Counting the atom pairs within a cutoff on the host, in double: the work
 * a pair kernel must do at least, against which `vkmd bench` sets the lane
 * pairs it does. */
#ifndef VKMD_MATHS_PAIR_COUNT_H
#define VKMD_MATHS_PAIR_COUNT_H

#include "system/system.h"

/* Unique pairs i < j of sys's atoms at positions x ([atom_count][3] A, any
 * image) closer than cutoff_a under the minimum image of sys->box (a
 * periodic box), less sys's excluded pairs that are. A cell list with cells
 * of at least the cutoff; all pairs when the box has fewer than 3 cells per
 * edge or a triclinic box. Returns -1 when out of memory. */
double vkmd_count_pairs_within(const vkmd_system *sys, const double *x, double cutoff_a);

#endif
