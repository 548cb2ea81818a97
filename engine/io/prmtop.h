/* AMBER prmtop (parameter/topology) reader.
 *
 * Reads the format tleap and ParmEd write (%VERSION, %FLAG NAME, %FORMAT(...)
 * then fixed-width fields, parsed by the FORMAT's width because numbers may
 * run together). Builds a vkmd_system with atoms, LJ type tables, bonds,
 * angles, dihedrals, 1-4 pairs, exclusions, rigid waters and the box, but no
 * coordinates (see io/coords.h, io/pdb.h, io/load.h).
 *
 * Conventions, as OpenMM's AmberPrmtopFile:
 *   - a dihedral whose 3rd or 4th stored index is negative computes no 1-4
 *     pair (multi-term dihedral or ring duplicate); a negative 4th index marks
 *     an improper; 1-4 pairs are de-duplicated keeping the first;
 *   - exclusions are EXCLUDED_ATOMS_LIST plus every 1-4 pair;
 *   - waters are 3-atom residues named WAT, HOH, TIP3 or SOL made of one O and
 *     two H.
 * Boxes: IFBOX = 1 with beta = 90 is rectangular; any other beta, IFBOX = 2
 * (truncated octahedron) or 3 gives a triclinic box with all three angles
 * beta (BOX_DIMENSIONS holds beta, a, b, c), as OpenMM reads it; a coordinate
 * file's box line, which has all three angles, replaces it.
 * Refused as VKMD_ERROR_UNSUPPORTED: non-zero
 * 10-12 H-bond terms, extra points (NUMEXTRA > 0), CMAP, 12-6-4 C
 * coefficients, CHAMBER/AMOEBA files, perturbation (IFPERT) and cap (IFCAP)
 * data: vkmd would otherwise compute the wrong energy silently. */
#ifndef VKMD_IO_PRMTOP_H
#define VKMD_IO_PRMTOP_H

#include "core/result.h"
#include "system/system.h"

/* Reads the prmtop at `path` into `out`, which is overwritten (pass a zeroed
 * or destroyed system; the caller frees the result with vkmd_system_destroy).
 * On failure `out` is left zeroed and the error names "path:line", the %FLAG
 * section and what was expected: VKMD_ERROR_IO (cannot read),
 * VKMD_ERROR_PARSE (malformed), VKMD_ERROR_UNSUPPORTED (see above),
 * VKMD_ERROR_OUT_OF_MEMORY. */
vkmd_result vkmd_prmtop_read(const char *path, vkmd_system *out);

#endif
