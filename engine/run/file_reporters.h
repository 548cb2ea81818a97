/* The run's files as reporters (run/reporter.h): the energy CSV
 * (run/energy_csv.h), the DCD trajectory (io/dcd.h) and the final PDB
 * (io/pdb.h). The run controller adds them for desc->out_dir unless
 * desc->no_file_outputs; a client may add them for other paths. On a
 * restart the CSV and the DCD are cut back to the checkpoint's step and
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

/* final.pdb: the last positions, written at the end of a run. */
vkmd_result vkmd_reporter_final_pdb(const char *path, vkmd_reporter *out);

#endif
