/* XYZ reader producing a UFF molecule (system/uff_molecule.h): atoms and
 * coordinates from the file, bonds perceived from covalent radii and bond
 * orders assigned from standard valences (system/uff_bond_orders.h).
 *
 * Format: a count line, a comment line (kept as the name), then one line per
 * atom "Symbol x y z" (A; the symbol may also be an atomic number); further
 * frames of the same atoms follow the same way and become conformers. Bonds
 * and orders come from the first frame. An XYZ file has no charges: a
 * molecule that needs formal charges (a zwitterion, a nitro group) cannot be
 * given its bond orders and is refused with advice to use SDF. */
#ifndef VKMD_IO_XYZ_H
#define VKMD_IO_XYZ_H

#include "core/result.h"
#include "system/uff_molecule.h"

/* Two atoms are bonded when their distance is at most the sum of their
 * covalent radii plus this tolerance (A). */
#define VKMD_XYZ_BOND_TOLERANCE_A 0.45

/* Reads the XYZ file at `path` into `out` (overwritten; free with
 * vkmd_uff_molecule_destroy; zeroed on failure). Errors: VKMD_ERROR_IO,
 * VKMD_ERROR_PARSE ("path:line: expected ..., found ..."; a frame whose
 * atoms differ from the first), VKMD_ERROR_UNSUPPORTED (an element without a
 * covalent radius here; atoms closer than 0.4 A; a hydrogen with two bonds;
 * bond orders that no neutral valence assignment satisfies),
 * VKMD_ERROR_OUT_OF_MEMORY. */
vkmd_result vkmd_xyz_read(const char *path, vkmd_uff_molecule *out);

/* Perceives the bonds of conformer 0 of `m` from covalent radii (orders 1),
 * replacing m->bonds. Errors as vkmd_xyz_read's connectivity errors; `what`
 * names the input in messages. */
vkmd_result vkmd_xyz_perceive_bonds(vkmd_uff_molecule *m, const char *what);

#endif
