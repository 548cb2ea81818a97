/* AMBER NetCDF trajectories (.nc) and restarts (.ncrst) through libnetcdf,
 * following the AMBER conventions (https://ambermd.org/netcdf/nctraj.xhtml)
 * as cpptraj, pmemd, MDTraj, MDAnalysis and VMD read and write them.
 *
 * Files written are NetCDF-3 with 64-bit offsets (what AMBER writes, and what
 * MDTraj reads without the netCDF4 module). Global attributes: Conventions
 * "AMBER" (trajectory) or "AMBERRESTART" (restart), ConventionVersion "1.0",
 * program "vkmd", programVersion, title. Dimensions: frame (unlimited;
 * trajectories only), spatial = 3, atom, cell_spatial = 3, cell_angular = 3,
 * label = 5. Variables:
 *   spatial(spatial) char "xyz", cell_spatial char "abc",
 *   cell_angular(cell_angular, label) char "alpha" "beta " "gamma";
 *   time: float time(frame) in a trajectory, double time in a restart, ps;
 *   coordinates: float (frame, atom, spatial) in a trajectory, double
 *     (atom, spatial) in a restart, units "angstrom";
 *   velocities (optional; always in a restart vkmd writes): same shape and
 *     type, units "angstrom/picosecond", scale_factor 20.455: the stored
 *     numbers are AMBER's internal unit, A per (1/20.455) ps, and
 *     stored * scale_factor is A/ps (vkmd: A/fs = stored * 20.455 / 1000);
 *   cell_lengths (angstrom) and cell_angles (degree), double, (frame, 3) or
 *     (3), only for a periodic box: the box's len[] and angle_deg[] as
 *     engine/system/box.h keeps them (90 degrees for a rectangular box).
 * A trajectory is synced after every frame, so a run killed at any point
 * leaves a file whose frame count is the frames it holds.
 *
 * Reading accepts the NetCDF-3 formats (classic, 64-bit offset, CDF-5)
 * after checking the header against the file's size (libnetcdf trusts it);
 * NetCDF-4 (HDF5) files are refused with advice (VKMD_ERROR_UNSUPPORTED:
 * HDF5's parser leaks and worse on corrupt files). It accepts float or
 * double variables, velocities with or without
 * a scale_factor (without: A/ps), and checks every dimension against the
 * conventions; errors name the file (and the frame or atom). Cells with
 * angles other than 90 degrees are refused (VKMD_ERROR_UNSUPPORTED) until
 * the rest of vkmd handles triclinic boxes. */
#ifndef VKMD_IO_NETCDF_H
#define VKMD_IO_NETCDF_H

#include "core/result.h"
#include "system/system.h"

#include <stdint.h>

/* AMBER's velocity scale factor: stored * 20.455 = A/ps. */
#define VKMD_NETCDF_VELOCITY_SCALE 20.455

/* 1 when `path` names a NetCDF trajectory by its extension (.nc, .ncdf,
 * .netcdf; any case), 0 otherwise (the run's trajectory is then DCD). */
int vkmd_netcdf_is_traj_path(const char *path);

/* 1 when `path` names a NetCDF restart by its extension (.ncrst, .nc,
 * .ncdf; any case), 0 otherwise (the restart is then ASCII rst7). */
int vkmd_netcdf_is_restart_path(const char *path);

/* What a trajectory writer writes. Zero means the default where given. */
typedef struct vkmd_netcdf_desc {
    int32_t atom_count; /* > 0, required */
    int periodic;       /* 1: every frame carries cell_lengths and cell_angles (default 0) */
    int velocities;     /* 1: every frame carries velocities (default 0) */
    const char *title;  /* the title attribute, cut to 80 characters (default "vkmd") */
} vkmd_netcdf_desc;

/* What a reader finds in a file. */
typedef struct vkmd_netcdf_info {
    int restart;         /* 1: Conventions AMBERRESTART (one frame); 0: AMBER trajectory */
    int32_t atom_count;  /* > 0 */
    int32_t frame_count; /* frames in the file (1 for a restart; may be 0 for a trajectory) */
    int periodic;        /* cell_lengths and cell_angles present */
    int velocities;      /* velocities present */
    int has_time;        /* a time variable present (0: frames read time 0) */
    char title[81];      /* the title attribute (empty when absent) */
    char program[81];    /* the program attribute (empty when absent) */
} vkmd_netcdf_info;

typedef struct vkmd_netcdf_writer vkmd_netcdf_writer;
typedef struct vkmd_netcdf_reader vkmd_netcdf_reader;

/* Creates (or replaces) the trajectory `path` with no frames. The writer
 * owns the open file until vkmd_netcdf_writer_close. Errors:
 * VKMD_ERROR_INVALID_ARGUMENT (atom_count <= 0 or beyond 2^31 / 3),
 * VKMD_ERROR_IO (cannot create or define, naming the file and libnetcdf's
 * reason), VKMD_ERROR_OUT_OF_MEMORY. */
vkmd_result vkmd_netcdf_writer_create(const char *path, const vkmd_netcdf_desc *desc,
                                      vkmd_netcdf_writer **out_w);

/* Reopens a trajectory to go on appending (checkpoint restarts) after its
 * first `keep` frames: a file with more is rewritten with only those (NetCDF
 * cannot shorten its frame dimension in place; the copy replaces the file
 * atomically). The file's atom count, cell and velocity flags must equal the
 * desc's. Errors: VKMD_ERROR_IO (missing, unreadable or unwritable),
 * VKMD_ERROR_PARSE (not an AMBER NetCDF trajectory; keep > its frames:
 * frames are lost), VKMD_ERROR_INVALID_ARGUMENT (a mismatch, both values
 * named), VKMD_ERROR_OUT_OF_MEMORY. */
vkmd_result vkmd_netcdf_writer_open_append(const char *path, const vkmd_netcdf_desc *desc,
                                           int32_t keep, vkmd_netcdf_writer **out_w);

/* Appends one frame at time_ps (ps): xyz [3 * atom_count] A, stored as
 * floats; vel [3 * atom_count] A/fs (required when desc.velocities, else
 * ignored); box (required when periodic, else ignored). Syncs the file.
 * Errors: VKMD_ERROR_NUMERIC (a non-finite value or one beyond float range:
 * nothing is written, the atom named), VKMD_ERROR_INVALID_ARGUMENT (a NULL
 * vel or box the file needs, a non-periodic box), VKMD_ERROR_IO. */
vkmd_result vkmd_netcdf_writer_append(vkmd_netcdf_writer *w, double time_ps, const double *xyz,
                                      const double *vel, const vkmd_box *box);

/* Frames in the file. */
int32_t vkmd_netcdf_writer_frame_count(const vkmd_netcdf_writer *w);

/* Closes the file and frees the writer. NULL is fine. Errors: VKMD_ERROR_IO
 * when the final close fails (e.g. disk full). */
vkmd_result vkmd_netcdf_writer_close(vkmd_netcdf_writer *w);

/* Opens a NetCDF trajectory or restart and checks its layout. Errors:
 * VKMD_ERROR_IO (cannot open), VKMD_ERROR_PARSE (not NetCDF-3, a corrupt
 * header (byte named), not AMBER's conventions, a missing or misshapen
 * variable or dimension: named), VKMD_ERROR_UNSUPPORTED (a ConventionVersion
 * other than 1.0, a NetCDF-4 file),
 * VKMD_ERROR_OUT_OF_MEMORY. */
vkmd_result vkmd_netcdf_reader_open(const char *path, vkmd_netcdf_reader **out_r);

/* The file's description (owned by the reader). */
const vkmd_netcdf_info *vkmd_netcdf_reader_info(const vkmd_netcdf_reader *r);

/* Reads frame `index` (0 .. frame_count - 1): out_xyz [3 * atom_count] A
 * (required); out_vel [3 * atom_count] A/fs (may be NULL; zeros when the
 * file has none); out_box (may be NULL; periodic 0 without a cell); out_time_ps
 * (may be NULL; 0 without a time variable). Errors: VKMD_ERROR_INVALID_ARGUMENT
 * (index out of range), VKMD_ERROR_PARSE (a non-finite value, a cell of
 * non-positive lengths or impossible angles: file, frame and atom named),
 * VKMD_ERROR_UNSUPPORTED (a triclinic cell), VKMD_ERROR_IO (a read error). */
vkmd_result vkmd_netcdf_reader_frame(vkmd_netcdf_reader *r, int32_t index, double *out_xyz,
                                     double *out_vel, vkmd_box *out_box, double *out_time_ps);

/* The time of frame `index` in ps alone (0 without a time variable).
 * Errors: as vkmd_netcdf_reader_frame's. */
vkmd_result vkmd_netcdf_reader_time(vkmd_netcdf_reader *r, int32_t index, double *out_time_ps);

/* Closes the file and frees the reader. NULL is fine. */
void vkmd_netcdf_reader_close(vkmd_netcdf_reader *r);

/* Writes sys->positions (required) and sys->velocities (when non-NULL),
 * both as doubles, the box (when periodic) and time_ps as an AMBER NetCDF
 * restart at `path`, through `path`.tmp renamed over it (a reader never sees
 * half a restart). Velocities are stored as stored = v / (20.455 / 1000)
 * with scale_factor 20.455; the reader's v = stored * (20.455 / 1000) may
 * differ from v in the last bit of a double (not of a float).
 * Errors: VKMD_ERROR_INVALID_ARGUMENT (no positions), VKMD_ERROR_IO. */
vkmd_result vkmd_netcdf_write_restart(const char *path, const vkmd_system *sys, double time_ps);

/* Reads an AMBER NetCDF restart (a trajectory is refused: a restart is
 * asked for) into `sys`, whose atom_count must
 * match: replaces sys->positions, sys->velocities (when the file has them)
 * and sys->box (when it has a cell); on failure `sys` is unchanged.
 * out_time_ps (may be NULL) gets the file's time. Errors: the reader's,
 * VKMD_ERROR_PARSE (a trajectory, not a restart; an atom count unlike the
 * system's). */
vkmd_result vkmd_netcdf_read_restart(const char *path, vkmd_system *sys, double *out_time_ps);

#endif
