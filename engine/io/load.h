/* One entry point for every way a user names a system on the command line:
 * "water:N" (built-in TIP3P box) or an AMBER prmtop path, plus an optional
 * coordinate file (inpcrd/rst7/pdb). */
#ifndef VKMD_IO_LOAD_H
#define VKMD_IO_LOAD_H

#include "core/result.h"
#include "system/system.h"

/* Loads the system `spec` into `out` (overwritten; free with
 * vkmd_system_destroy; zeroed on failure).
 *   spec "water:N": N TIP3P waters (N a plain positive integer) cut from
 *     the pre-equilibrated 300 K tile (system/water_tile.h);
 *   spec "water:N:lattice": the same N waters on a lattice with random
 *     orientations (system/water_box.h), seed VKMD_WATER_BOX_DEFAULT_SEED:
 *     not equilibrated, minimise first (how the tile was made);
 *   any other spec: a prmtop path.
 * coords_path, if non-NULL, replaces the coordinates: by extension .pdb is
 * read as PDB, .chk as a checkpoint (its exact positions, velocities and box
 * as a new start; only the atom count is checked), anything else (.inpcrd
 * .rst7 .crd .restrt ...) as AMBER ASCII.
 * If NULL and spec is a prmtop, <prmtop without extension>.inpcrd and then
 * .rst7 beside it are tried (the one used is logged at info level); with
 * neither, out->positions stays NULL and the caller reports it
 * (vkmd_system_check_coordinates). A box in the coordinate file replaces the
 * topology's box. Errors: those of the readers, each naming its file, and
 * VKMD_ERROR_INVALID_ARGUMENT for a malformed "water:" spec. */
vkmd_result vkmd_system_load(const char *spec, const char *coords_path, vkmd_system *out);

/* Parses "water:N" or "water:N:lattice" strictly (N digits only, in
 * 1..VKMD_WATER_BOX_MAX_WATERS) into *out_n and *out_lattice (1 for the
 * lattice form) without building anything. Errors:
 * VKMD_ERROR_INVALID_ARGUMENT naming the spec. */
vkmd_result vkmd_water_spec_parse(const char *spec, int32_t *out_n, int *out_lattice);

/* Reads coordinates (and box, velocities) from `path` into an existing
 * system, choosing the format by extension as vkmd_system_load does. */
vkmd_result vkmd_system_load_coords(const char *path, vkmd_system *sys);

#endif
