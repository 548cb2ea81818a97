/* A run's summary (run/reporter.h's vkmd_run_summary) as `vkmd run` prints
 * it: one line of text, or one JSON object whose keys carry their units
 * (ns_per_day, mean_temperature_K, energy_drift_kcal_mol_per_ns ...), so
 * every client reports a run the same way. */
#ifndef VKMD_RUN_RUN_SUMMARY_H
#define VKMD_RUN_RUN_SUMMARY_H

#include "run/run.h"

#include <stdio.h>

/* "vkmd run: N steps of SYSTEM in T s on DEVICE: X ns/day, mean T ...;
 * outputs in DIR/" and a newline. */
void vkmd_run_summary_write_text(FILE *out, const vkmd_run *run, const vkmd_run_summary *s);

/* One JSON object and a newline: system, device, atoms, dof, integrator,
 * dt_fs, steps, first_step, temperature_target_K, wall_s, ns_per_day,
 * mean_temperature_K, final_total_kcal_mol, the energy drift, constraint
 * violations, the minimisation (when it ran), the precision choice and the
 * outputs' file names. */
void vkmd_run_summary_write_json(FILE *out, const vkmd_run *run, const vkmd_run_summary *s);

#endif
