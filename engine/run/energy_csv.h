/* The energy CSV of a run: '#' header lines naming the system, the
 * integrator settings and the units, a column line, then one row per report
 * step (written by the run's file reporters, run/file_reporters.h), and its
 * truncation back to a checkpoint's step when a run is continued.
 *
 * Units as everywhere in vkmd: kcal/mol, K, ps for the time column. */
#ifndef VKMD_RUN_ENERGY_CSV_H
#define VKMD_RUN_ENERGY_CSV_H

#include "core/result.h"

#include <stdint.h>

/* Header of the energy CSV. Zero or NULL fields are left out of it. */
typedef struct vkmd_energy_csv_desc {
    const char *system;     /* system spec or path, e.g. "villin.prmtop" (required) */
    int32_t atom_count;     /* atoms */
    int64_t dof;            /* degrees of freedom the temperature is computed with */
    const char *integrator; /* e.g. "langevin-middle", "verlet" */
    double dt_fs;           /* time step, fs */
    double temperature_k;   /* thermostat target, K (0: none, NVE) */
    double friction_per_ps; /* Langevin friction, 1/ps */
    const char *settings;   /* further free text: constraints, cutoff, PME tolerance, device */
    int periodic;           /* 1: rows carry the box (VKMD_ENERGY_CSV_BOX_COLUMNS) */
    int append;             /* 1: append rows to an existing file (restarts); the header is
                               written only if the file is empty (default 0: truncate) */
    int restraint_column;   /* 0; 1: the rows end with restraint_kcal_mol */
} vkmd_energy_csv_desc;

/* One row. ns_per_day is 0 while not yet measured. */
typedef struct vkmd_energy_row {
    int64_t step;
    double time_ps;
    double potential_kcal_mol;
    double kinetic_kcal_mol;
    double total_kcal_mol;
    double temperature_k;
    double ns_per_day;
    double restraint_kcal_mol; /* positional restraint energy (part of the potential); written
                                  when the file was created with restraint_column */
    double volume_a3;          /* periodic only: A^3 */
    double density_g_cm3;      /* periodic only: g/cm^3 */
    double box_a[3];           /* periodic only: edges, A */
} vkmd_energy_row;

/* The column line every energy CSV has after its '#' header lines; runs
 * with positional restraints add VKMD_ENERGY_CSV_RESTRAINT_COLUMN at its end
 * (last, so that readers of the first seven by position keep working, and
 * only then, so that unrestrained runs keep their format). */
#define VKMD_ENERGY_CSV_COLUMNS                                                                    \
    "step,time_ps,potential_kcal_mol,kinetic_kcal_mol,total_kcal_mol,temperature_K,ns_per_day"
#define VKMD_ENERGY_CSV_RESTRAINT_COLUMN ",restraint_kcal_mol"

/* Appended to the column line (and each row) of a periodic system's CSV:
 * the state's box, which changes under a barostat. */
#define VKMD_ENERGY_CSV_BOX_COLUMNS ",volume_A3,density_g_cm3,box_x_A,box_y_A,box_z_A"

typedef struct vkmd_energy_csv vkmd_energy_csv;

/* Opens `path` and writes the header: '#' lines naming the system, the
 * integrator settings and the units, then VKMD_ENERGY_CSV_COLUMNS (then
 * the restraint column when desc->restraint_column, then
 * VKMD_ENERGY_CSV_BOX_COLUMNS when periodic).
 * Errors: VKMD_ERROR_INVALID_ARGUMENT (no system), VKMD_ERROR_IO,
 * VKMD_ERROR_OUT_OF_MEMORY. */
vkmd_result vkmd_energy_csv_create(const char *path, const vkmd_energy_csv_desc *desc,
                                   vkmd_energy_csv **out_csv);

/* Appends one row (energies and time with 6 decimals, temperature with 4,
 * ns/day with 3; periodic: volume with 4, density and edges with 6) and
 * flushes. A non-finite value is VKMD_ERROR_NUMERIC
 * naming the column and step, and nothing is written; VKMD_ERROR_IO on a
 * failed write. */
vkmd_result vkmd_energy_csv_write(vkmd_energy_csv *csv, const vkmd_energy_row *row);

/* Closes the file and frees `csv` (NULL is fine); VKMD_ERROR_IO if the close
 * reports a failed write. */
vkmd_result vkmd_energy_csv_close(vkmd_energy_csv *csv);

/* Restarts: keeps the '#' header, the column line and the rows up to
 * `last_step` of the CSV at `path` and drops the rest (rows written after a
 * checkpoint), replacing the file through a temporary. Errors:
 * VKMD_ERROR_IO, VKMD_ERROR_PARSE (a malformed row, or no row at last_step:
 * rows would be lost), naming the file. */
vkmd_result vkmd_energy_csv_truncate_after(const char *path, int64_t last_step);

#endif
