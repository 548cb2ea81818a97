/* AMBER ASCII coordinate files: inpcrd / rst7 (restrt) reading and rst7
 * writing.
 *
 * Layout: a title line; the atom count (and optionally the time in ps); then
 * 3N coordinates in 12-character fields, 6 per line (6F12.7); optionally 3N
 * velocities in the same layout; optionally one box line (a b c [alpha beta
 * gamma]). Fields are cut by column because numbers may run together.
 * Velocities are stored in A per (1/20.455 ps) and converted to A/fs.
 * NetCDF restarts (binary, .ncrst) are recognised by their first bytes and
 * read as io/netcdf.h reads them. */
#ifndef VKMD_IO_COORDS_H
#define VKMD_IO_COORDS_H

#include "core/result.h"
#include "system/system.h"

/* AMBER's velocity unit is A per (1/20.455) ps: multiply by this to get A/fs. */
#define VKMD_AMBER_VELOCITY_TO_A_PER_FS (20.455 / 1000.0)

/* Reads coordinates (and velocities and the box when present) from the
 * inpcrd/rst7 or AMBER NetCDF restart at `path` into `sys`, whose atom_count must match the file.
 * Replaces sys->positions (and sys->velocities and sys->box when the file has
 * them); on failure `sys` is unchanged. Errors: VKMD_ERROR_IO (cannot read),
 * VKMD_ERROR_PARSE ("path:line: expected ..., found ..."; also an atom count
 * that differs from the system's, or box lengths and angles that describe no
 * cell), those of vkmd_netcdf_read_restart for a NetCDF file,
 * VKMD_ERROR_OUT_OF_MEMORY. A box line with angles other than 90 gives a
 * triclinic box (system/box.h). */
vkmd_result vkmd_coords_read_amber(const char *path, vkmd_system *sys);

/* Writes sys->positions (required), sys->velocities (if non-NULL) and the box
 * (if periodic; lengths and angles as the box was read) as an ASCII rst7 at `path`, with `time_ps`
 * on the count line. Values are written %12.7f, with fewer decimals only if a number would not fit
 * in 12 characters. Errors: VKMD_ERROR_INVALID_ARGUMENT (no positions, or a value that fits no
 * 12-character field), VKMD_ERROR_IO. */
vkmd_result vkmd_coords_write_rst7(const char *path, const vkmd_system *sys, double time_ps);

#endif
