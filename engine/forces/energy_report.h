/* One configuration's energy breakdown as a report: a text table or one
 * JSON object (units in its "units" object; every energy kcal/mol), with the
 * force-field settings and the arithmetic it was computed in, and the
 * per-atom forces as a text file. `vkmd energy` prints these. */
#ifndef VKMD_FORCES_ENERGY_REPORT_H
#define VKMD_FORCES_ENERGY_REPORT_H

#include "forces/precision.h"
#include "system/ff_settings.h"
#include "system/system.h"

#include <stdio.h>

typedef struct vkmd_energy_report_desc {
    const char *system; /* the system's name as given (prmtop path or water:N) */
    const char *device; /* where it was computed, e.g. "cpu (double-precision reference)" */
    /* The device arithmetic the terms used; NULL: the CPU double reference. */
    const vkmd_precision_choice *choice;
    int json; /* 1: one JSON object; 0: the text table */
} vkmd_energy_report_desc;

/* Writes the report of `e` (kcal/mol), computed for `sys` with the resolved
 * settings `s`, to `out`. Errors: VKMD_ERROR_IO when writing fails. */
vkmd_result vkmd_energy_report_write(FILE *out, const vkmd_energy_report_desc *desc,
                                     const vkmd_system *sys, const vkmd_ff_settings *s,
                                     const vkmd_energy *e);

/* Writes `path`: a header with the atom count, units and `device`, then one
 * "index fx fy fz" line per atom (1-based, kcal/mol/A) of forces
 * [3 * atom_count]. Errors: VKMD_ERROR_IO naming the path. */
vkmd_result vkmd_energy_report_write_forces(const char *path, const char *device,
                                            const vkmd_system *sys, const double *forces);

#endif
