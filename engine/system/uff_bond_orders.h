/* Bond orders for a molecule whose connectivity is known but whose orders
 * are not (an XYZ file): each atom is brought to one of its standard neutral
 * valences (H 1, B 3, C 4, N 3, O 2, F Cl Br I 1, Si 4, P 3 or 5, S Se 2, 4
 * or 6) by raising single bonds to double or triple bonds.
 *
 * Search: depth-first over the atom still short of a valence that has the
 * fewest partners able to take another bond, preferring partners that are
 * short themselves; first with every atom held to its smallest standard
 * valence at or above its neighbour count (thiophene's S stays divalent, a
 * phosphate's P is pentavalent), then, only if that fails, with any standard
 * valence (a sulfone's S). Any Kekule structure of an aromatic ring is as good as another: the
 * typing perceives aromaticity. Molecules that need formal charges to be
 * valid (zwitterions, nitro groups) have no neutral assignment and are
 * refused. */
#ifndef VKMD_SYSTEM_UFF_BOND_ORDERS_H
#define VKMD_SYSTEM_UFF_BOND_ORDERS_H

#include "system/uff_molecule.h"

/* Replaces the orders of m->bonds (taken as the connectivity; their current
 * orders are ignored) so that every atom has a standard neutral valence.
 * `what` names the input in messages. Errors: VKMD_ERROR_UNSUPPORTED (an
 * element without standard valences here, an atom with more neighbours than
 * its largest valence, no assignment found, or the search limit of 10^6
 * steps reached), VKMD_ERROR_OUT_OF_MEMORY; m unchanged on failure. */
vkmd_result vkmd_uff_assign_bond_orders(vkmd_uff_molecule *m, const char *what);

#endif
