/* What `vkmd run` writes besides the trajectory: the energy CSV, the progress
 * line on stderr, and the linear fit of the total energy against time that
 * the run summary reports as the energy drift.
 *
 * Units as everywhere in vkmd: kcal/mol, K, fs for time steps; the CSV and the
 * fit take time in ps because that is what the CSV's time column holds. */
#ifndef VKMD_TOOLS_RUN_OUTPUT_H
#define VKMD_TOOLS_RUN_OUTPUT_H

#include "core/result.h"

#include <stdint.h>
#include <stdio.h>

/* ------------------------------------------------------------ energy CSV */

/* Header of the energy CSV. Zero or NULL fields are left out of it. */
typedef struct run_csv_desc {
    const char *system;     /* system spec or path, e.g. "villin.prmtop" (required) */
    int32_t atom_count;     /* atoms */
    int64_t dof;            /* degrees of freedom the temperature is computed with */
    const char *integrator; /* e.g. "langevin-middle", "verlet" */
    double dt_fs;           /* time step, fs */
    double temperature_k;   /* thermostat target, K (0: none, NVE) */
    double friction_per_ps; /* Langevin friction, 1/ps */
    const char *settings;   /* further free text: constraints, cutoff, PME tolerance, device */
    int append;             /* 1: append rows to an existing file (restarts); the header is
                               written only if the file is empty (default 0: truncate) */
} run_csv_desc;

/* One row. ns_per_day is 0 while not yet measured. */
typedef struct run_energy_row {
    int64_t step;
    double time_ps;
    double potential_kcal_mol;
    double kinetic_kcal_mol;
    double total_kcal_mol;
    double temperature_k;
    double ns_per_day;
} run_energy_row;

/* The column line every energy CSV has after its '#' header lines. */
#define RUN_CSV_COLUMNS                                                                            \
    "step,time_ps,potential_kcal_mol,kinetic_kcal_mol,total_kcal_mol,temperature_K,ns_per_day"

typedef struct run_csv run_csv;

/* Opens `path` and writes the header: '#' lines naming the system, the
 * integrator settings and the units, then RUN_CSV_COLUMNS.
 * Errors: VKMD_ERROR_INVALID_ARGUMENT (no system), VKMD_ERROR_IO,
 * VKMD_ERROR_OUT_OF_MEMORY. */
vkmd_result run_csv_create(const char *path, const run_csv_desc *desc, run_csv **out_csv);

/* Appends one row (energies and time with 6 decimals, temperature with 4,
 * ns/day with 3) and flushes. A non-finite value is VKMD_ERROR_NUMERIC
 * naming the column and step, and nothing is written; VKMD_ERROR_IO on a
 * failed write. */
vkmd_result run_csv_write(run_csv *csv, const run_energy_row *row);

/* Closes the file and frees `csv` (NULL is fine); VKMD_ERROR_IO if the close
 * reports a failed write. */
vkmd_result run_csv_close(run_csv *csv);

/* Restarts: keeps the '#' header, the column line and the rows up to
 * `last_step` of the CSV at `path` and drops the rest (rows written after a
 * checkpoint), replacing the file through a temporary. Errors:
 * VKMD_ERROR_IO, VKMD_ERROR_PARSE (a malformed row, or no row at last_step:
 * rows would be lost), naming the file. */
vkmd_result run_csv_truncate_after(const char *path, int64_t last_step);

/* ------------------------------------------------------------ progress */

typedef struct run_progress_desc {
    int64_t first_step;    /* step the run starts from (default 0) */
    int64_t last_step;     /* step the run ends at (required, > first_step) */
    double dt_fs;          /* time step, for the simulated time shown */
    FILE *out;             /* default stderr */
    int mode;              /* RUN_PROGRESS_AUTO (default): bar if isatty(out), else lines */
    double min_interval_s; /* bar redraws at most this often (default 0.2) */
} run_progress_desc;

enum { RUN_PROGRESS_AUTO = 0, RUN_PROGRESS_BAR = 1, RUN_PROGRESS_LINES = 2 };

typedef struct run_progress {
    run_progress_desc d;
    int bar;            /* resolved mode: 1 bar, 0 lines */
    double start_s;     /* monotonic seconds at init */
    double last_draw_s; /* monotonic seconds of the last bar redraw (-1: none yet) */
    int drawn_len;      /* length of the bar line last drawn (to blank leftovers) */
    int pending;        /* 1: the latest update was not drawn yet */
    int64_t step;       /* latest update */
    double ns_per_day, temperature_k;
    double now_s;
} run_progress;

/* Monotonic clock in seconds (CLOCK_MONOTONIC). */
double run_now_s(void);

/* Simulated ns per day of wall time for `steps` of dt_fs in wall_s seconds
 * (0 if wall_s <= 0). */
double run_ns_per_day(int64_t steps, double dt_fs, double wall_s);

/* Starts a reporter at time now_s (run_now_s()). */
void run_progress_init(run_progress *p, const run_progress_desc *desc, double now_s);

/* Reports reaching `step`. Bar mode: redraws the line with '\r' (percent,
 * step, ns/day, temperature, ETA) unless the last redraw was less than
 * min_interval_s ago; the last step is always drawn. Line mode: prints one
 * line per call. ns_per_day <= 0 means unknown: the ETA then comes from the
 * wall time since init. */
void run_progress_update(run_progress *p, int64_t step, double ns_per_day, double temperature_k,
                         double now_s);

/* Draws a pending update and, in bar mode, ends the line. */
void run_progress_finish(run_progress *p);

/* Formats the progress text of `p`'s latest update into buf (no '\r' or
 * '\n'); the bar and the lines both use it. Returns the length. */
int run_progress_format(const run_progress *p, char *buf, size_t size);

/* ------------------------------------------------------------ energy drift */

typedef struct run_drift {
    int32_t samples;
    double slope_kcal_mol_per_ns;        /* least-squares slope of the total energy vs time */
    double slope_stderr_kcal_mol_per_ns; /* its standard error (0 for 2 samples) */
    double intercept_kcal_mol;           /* fitted total energy at time 0 */
    double rms_residual_kcal_mol; /* RMS of the fit's residuals (fluctuation about the line) */
    double kt_per_ns_per_dof;     /* slope / (k_B T) / dof */
} run_drift;

/* Fits total_kcal_mol[i] = a + b time_ps[i] over n samples (centred sums, so
 * large totals lose no digits) and expresses the slope per ns and in k_B T per
 * ns per degree of freedom at temperature_k. Errors:
 * VKMD_ERROR_INVALID_ARGUMENT (n < 2, all times equal, temperature_k or dof
 * not positive), VKMD_ERROR_NUMERIC (a non-finite sample, index named). */
vkmd_result run_drift_fit(const double *time_ps, const double *total_kcal_mol, int32_t n,
                          double temperature_k, int64_t dof, run_drift *out_drift);

#endif
