/* The settings record of a run: everything that changes its trajectory, one
 * "key value" line each, stored in every checkpoint (io/checkpoint.h) by
 * the run controller and compared line by line when a run continues one, so
 * that a checkpoint written by any client continues in any other only with
 * the same settings. */
#ifndef VKMD_RUN_RUN_SETTINGS_H
#define VKMD_RUN_RUN_SETTINGS_H

#include "forces/precision.h"
#include "io/checkpoint.h"
#include "run/run.h"

#include <stddef.h>

/* The record of a resolved run desc `d` whose force-field settings resolved
 * to `ff` (precision applied) and whose precision request to `c`: system,
 * integrator, dt_fs, temperature_k, friction_per_ps, constraints,
 * rigid_water, constraint_tol, hmr_amu, cutoff_a, ewald_tolerance, pme_grid,
 * com_every, seed, report_every, traj_every, precision, positions, and
 * nonbonded when LJ is fp16, pressure_bar, barostat and barostat_every
 * when the barostat is on. Doubles with 17 significant digits. */
void vkmd_run_settings_text(const vkmd_run_desc *d, const vkmd_ff_settings *ff,
                            const vkmd_precision_choice *c, char *out, size_t size);

/* The restraint lines of the record (appended by the run controller when
 * the spec is active): restraint_selection (mask:... or file:...),
 * restraints (count and a digest of the atoms and reference positions: the
 * reference's identity), restraint_k, restraint_flat_bottom_a. */
void vkmd_run_settings_restraints(const vkmd_restraint_spec *spec, const vkmd_restraints *r,
                                  char *out, size_t size);

/* Compares the checkpoint's record with `now` (from vkmd_run_settings_text)
 * line by line (a checkpoint with restraints and a run without, or the
 * reverse, differ too). Errors: VKMD_ERROR_INVALID_ARGUMENT naming `path`, the key
 * and both values ("give the same options as the run that wrote it"). */
vkmd_result vkmd_run_settings_check(const vkmd_checkpoint *c, const char *now, const char *path);

/* A restart that asks for the default precision (auto, no override) takes
 * the checkpoint's choice instead of calibrating again: timings vary, the
 * continuation must not. Returns 1 and fills *out (the checkpoint's mode
 * with explicit positions and LJ) when that applies, 0 when the request
 * stands as given. Errors (a malformed record) return -1 with the message
 * set. */
int vkmd_run_settings_precision(const vkmd_checkpoint *c, const vkmd_precision_request *req,
                                vkmd_precision_request *out);

#endif
