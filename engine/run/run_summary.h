/* A run's summary (run/reporter.h's vkmd_run_summary) as `vkmd run` prints
 * it: one line of text, or one JSON object whose keys carry their units
 * (ns_per_day, mean_temperature_K, mean_density_g_cm3 ...), so every client
 * reports a run the same way. Every run reports its mean temperature and its
 * standard deviation over the report steps (and, periodic, its density); only
 * a Verlet (NVE) run reports an energy drift: a Langevin run's total energy is
 * not conserved, so its drift says nothing about the integration. */
#ifndef VKMD_RUN_RUN_SUMMARY_H
#define VKMD_RUN_RUN_SUMMARY_H

#include "run/run.h"

#include <stdio.h>

/* "vkmd run: N steps of SYSTEM in T s on DEVICE: X ns/day, T M +- SD K[,
 * density M +- SD g/cm^3][, energy drift D kcal/mol/ns (K kT/ns/dof)] (mean
 * +- sd over the reports); outputs in DIR/" and a newline: the density for
 * periodic systems, the drift for Verlet runs. */
void vkmd_run_summary_write_text(FILE *out, const vkmd_run *run, const vkmd_run_summary *s);

/* One JSON object and a newline: system, device, atoms, dof, integrator,
 * dt_fs, steps, first_step, temperature_target_K, wall_s, ns_per_day,
 * mean_temperature_K, sd_temperature_K, final_total_kcal_mol,
 * mean_density_g_cm3 and sd_density_g_cm3 (periodic systems only), the
 * energy drift (energy_drift_kcal_mol_per_ns, _stderr_, _kT_per_ns_per_dof:
 * Verlet runs only), constraint violations, the minimisation (when it ran),
 * the precision choice and the outputs' file names. */
void vkmd_run_summary_write_json(FILE *out, const vkmd_run *run, const vkmd_run_summary *s);

/* One line (and a newline) of where a run that did not complete stopped
 * and how to continue it, after "PROG: ": "stopped by SIGTERM at step 1234
 * (dynamics); checkpoint DIR/checkpoint.chk is at step 1000: continue with
 * the same options and --restart DIR/checkpoint.chk", or, stopped in the
 * minimisation or the --equilibrate steps, the state written and the
 * options that continue from it. */
void vkmd_run_summary_write_stop(FILE *out, const char *prog, const vkmd_run *run,
                                 const vkmd_run_summary *s);

#endif
