/* The run's files as reporters (run/reporter.h): the energy CSV
 * (run/energy_csv.h), the DCD or AMBER NetCDF trajectory (io/dcd.h,
 * io/netcdf.h), the final PDB (io/pdb.h) and a restart (rst7 or NetCDF:
 * io/coords.h, io/netcdf.h). The run controller adds the first three for
 * desc->out_dir unless desc->no_file_outputs, and the restart for
 * desc->restart_out; a client may add them for other paths. On a restart
 * the CSV and the trajectory are cut back to the checkpoint's step and
 * continued (no row or frame is lost or written twice). */
#ifndef VKMD_RUN_FILE_REPORTERS_H
#define VKMD_RUN_FILE_REPORTERS_H

#include "run/reporter.h"

/* energy.csv: a header naming the system, the integrator, the settings and
 * the units, then one row per report step (a fresh run's start included).
 * `path` is copied. Errors: VKMD_ERROR_OUT_OF_MEMORY. */
vkmd_result vkmd_reporter_energy_csv(const char *path, vkmd_reporter *out);

/* traj.dcd: one frame every desc->traj_every steps (nothing when
 * traj_every < 0). */
vkmd_result vkmd_reporter_dcd(const char *path, vkmd_reporter *out);

/* traj.nc: AMBER NetCDF (io/netcdf.h), one frame every desc->traj_every
 * steps with its time and box (nothing when traj_every < 0). */
vkmd_result vkmd_reporter_netcdf(const char *path, vkmd_reporter *out);

/* The trajectory by the path's extension: NetCDF for .nc, .ncdf and
 * .netcdf (vkmd_netcdf_is_traj_path), DCD otherwise. */
vkmd_result vkmd_reporter_trajectory(const char *path, vkmd_reporter *out);

/* A restart: the positions, velocities (A/fs) and box of the state at each
 * checkpoint (so the last one at the end of a run, also a stopped one),
 * with its time: an AMBER NetCDF restart (doubles) when the path ends .ncrst,
 * .nc or .ncdf (vkmd_netcdf_is_restart_path), ASCII rst7 (%12.7f)
 * otherwise. Either starts a new run with --coords (its step counter at 0:
 * see docs on what continues bitwise). Errors: VKMD_ERROR_OUT_OF_MEMORY. */
vkmd_result vkmd_reporter_restart(const char *path, vkmd_reporter *out);

/* final.pdb: the last positions, written at the end of a run. */
vkmd_result vkmd_reporter_final_pdb(const char *path, vkmd_reporter *out);

#endif
