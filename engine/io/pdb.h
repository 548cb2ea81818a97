/* PDB coordinates: read positions and the CRYST1 box into an existing system,
 * and write a system as PDB (for viewers and checks, 3 decimals).
 *
 * Reading uses ATOM/HETATM columns 31-54 of the first model only (up to
 * ENDMDL); the order must be the topology's. CRYST1 1 1 1 (a placeholder many
 * tools write for "no box") is ignored. Writing wraps atom serials beyond
 * 99999 and residue numbers beyond 9999 as OpenMM does. */
#ifndef VKMD_IO_PDB_H
#define VKMD_IO_PDB_H

#include "core/result.h"
#include "system/system.h"

/* Replaces sys->positions (and sys->box when the file has a CRYST1 record)
 * from the PDB at `path`; the ATOM/HETATM count must equal sys->atom_count.
 * On failure `sys` is unchanged. Errors: VKMD_ERROR_IO, VKMD_ERROR_PARSE
 * ("path:line: expected ..., found ..."; a count mismatch),
 * VKMD_ERROR_OUT_OF_MEMORY; CRYST1 lengths and angles that describe no cell
 * are VKMD_ERROR_PARSE. Angles other than 90 give a triclinic box. */
vkmd_result vkmd_pdb_read_coords(const char *path, vkmd_system *sys);

/* Writes `sys` (positions required) to `path`: CRYST1 if periodic, one ATOM
 * (with the box's angles) record per atom with its name, residue and element, TER, END.
 * Errors: VKMD_ERROR_INVALID_ARGUMENT (no positions, or a coordinate that
 * does not fit the 8-column field), VKMD_ERROR_IO. */
vkmd_result vkmd_pdb_write(const char *path, const vkmd_system *sys);

#endif
