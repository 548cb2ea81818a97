/* The lattice water box, "water:N:lattice" (water:N itself is cut from the
 * equilibrated tile: system/water_tile.h, which shares the topology and
 * parameters below): N flexible TIP3P waters in a cubic periodic box at
 * 0.997 g/cm^3, with amber14/tip3p parameters exactly as
 * OpenMM's amber14/tip3p.xml (and ParmEd) give them:
 *   O charge -0.834 e, H +0.417 e; masses O 15.99943, H 1.007947 amu;
 *   O LJ from rmin/2 = 1.7683 A, eps = 0.1520 kcal/mol (OpenMM: sigma
 *   0.31507524 nm, eps 0.635968 kJ/mol); H has no LJ;
 *   bond O-H k = 553.0 kcal/mol/A^2, r0 = 0.9572 A;
 *   angle H-O-H k = 100.0 kcal/mol/rad^2, theta0 = 104.52 degrees.
 * Atom names O/H1/H2, types OW/HW, residue WAT, exclusions O-H1, O-H2, H1-H2.
 *
 * Molecule centres (H-H midpoints) sit on whichever simple-cubic,
 * body-centred or face-centred cubic lattice keeps neighbours farthest apart,
 * with vacancies spread evenly when N does not fill it; orientations (and a
 * shift of up to 0.25 A) are pseudo-random from the seed and re-drawn until no
 * two atoms of different molecules are closer than
 * VKMD_WATER_BOX_MIN_CONTACT_A under the minimum image. Molecules are whole
 * (not wrapped into the box). Not equilibrated: minimise before dynamics. It
 * made the tile (assets/water_tip3p_216.md) and serves tests of the lattice. */
#ifndef VKMD_SYSTEM_WATER_BOX_H
#define VKMD_SYSTEM_WATER_BOX_H

#include "core/result.h"
#include "system/system.h"

#include <stdint.h>

#define VKMD_WATER_BOX_MAX_WATERS    10000000 /* 30 M atoms */
#define VKMD_WATER_BOX_DENSITY_G_CM3 0.997
#define VKMD_WATER_BOX_MIN_CONTACT_A 1.9
#define VKMD_WATER_BOX_DEFAULT_SEED  2024u

/* The edge (A) of the cube holding n_waters at VKMD_WATER_BOX_DENSITY_G_CM3,
 * counting 18.01528 amu per water. */
double vkmd_water_box_edge_a(int32_t n_waters);

/* Fills the topology of n TIP3P waters into `s` (zeroed by the caller):
 * atoms O, H1, H2 per molecule in that order, LJ tables, bonds, angles,
 * exclusions, rigid-water entries, the box unset and positions allocated
 * (3 n atoms, zero). Errors: VKMD_ERROR_OUT_OF_MEMORY (what was allocated
 * stays in `s` for vkmd_system_destroy). Shared with system/water_tile.c. */
vkmd_result vkmd_water_box_topology(int32_t n, vkmd_system *s);

/* Builds the box into `out` (overwritten; free with vkmd_system_destroy). The
 * same (n_waters, seed) always gives the same coordinates. Errors:
 * VKMD_ERROR_INVALID_ARGUMENT (n_waters < 1 or > VKMD_WATER_BOX_MAX_WATERS),
 * VKMD_ERROR_OUT_OF_MEMORY, VKMD_ERROR_NUMERIC (no clash-free orientation was
 * found; does not happen for the lattices used, but is reported, not hidden). */
vkmd_result vkmd_water_box_build(int32_t n_waters, uint64_t seed, vkmd_system *out);

#endif
