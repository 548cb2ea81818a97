/* Equilibration of a solvated system, the protocol a user otherwise runs by
 * hand before production (vkmd equilibrate):
 *   1. minimise with the solute restrained;
 *   2. heat at constant volume: Langevin, the bath raised from T/increments
 *      to T in `heat_increments` equal steps, restraints on;
 *   3. density: the Monte Carlo barostat at `pressure_bar`, the restraint
 *      constant tapered from k to 0 in `taper_stages` equal parts;
 *   4. free: constant pressure, no restraints.
 * With implicit solvent (run.ff.gb, no box) stages 3 and 4 run at constant
 * volume: 3 only tapers the restraints ("release k ..." stages).
 * Restraints are AMBER's positional restraints (E = k |r - r0|^2) on the atoms
 * of `mask` (default: solute heavy atoms) or of run.restraints.file, r0 the
 * starting coordinates or run.restraints.reference.
 *
 * One simulation runs every stage (the run controller sets it up: loading,
 * hydrogen mass repartitioning, precision, minimisation, velocities); between
 * stages only the bath, the barostat and the restraint constant change.
 * Outputs in out_dir: equilibrate.csv (one row per report: stage, step, time,
 * temperature, bath, restraint k and energy, potential, volume, density, the
 * solute's RMSD from the reference), stage_N_NAME.chk after each stage, and
 * the final state as final.rst7 (positions, velocities, box: `vkmd run
 * SYSTEM --coords DIR/final.rst7` continues from it), final.pdb and
 * final.chk (exact; also accepted by --coords). */
#ifndef VKMD_RUN_EQUILIBRATE_H
#define VKMD_RUN_EQUILIBRATE_H

#include "run/run.h"

#include <stdio.h>

/* The default restraint mask: every atom that is not water or a common ion
 * and not a hydrogen. */
#define VKMD_EQUIL_SOLUTE_MASK "!:WAT,HOH,TIP3,Na+,Cl-,K+,NA,CL,K & !@H="

/* Zero means default for every field. */
typedef struct vkmd_equil_desc {
    vkmd_run_desc run;       /* system, coords, out_dir, md (dt, friction, seed, temperature
                                = the target T, default 300 K), ff, precision, hmr,
                                min (minimiser settings; max iterations default 2000),
                                restraints.file / flat_bottom_a / reference, traj_every,
                                traj_path, restart_out; the integrator must be Langevin;
                                steps, report_every and the restraint/barostat fields
                                are set by the protocol */
    const char *mask;        /* VKMD_EQUIL_SOLUTE_MASK, unless run.restraints.file names an
                                atom list */
    double restraint_k;      /* 10 kcal/mol/A^2 */
    double pressure_bar;     /* 1 */
    double heat_ps;          /* 20 */
    int32_t heat_increments; /* 10 */
    double density_ps;       /* 50 */
    int32_t taper_stages;    /* 5: k, then k (1 - i / (taper_stages - 1)) ... 0 */
    double release_ps;       /* 50 */
    int64_t report_every;    /* 500 steps */
} vkmd_equil_desc;

#define VKMD_EQUIL_STAGES 4

typedef struct vkmd_equil_stage {
    const char *name;     /* "minimise", "heat", "density", "free" */
    int64_t steps;        /* MD steps of the stage (0 for the minimisation) */
    double temperature_k; /* mean kinetic temperature over the stage's reports */
    double temperature_sd_k;
    double density_g_cm3; /* mean over the second half of the stage's reports */
    double density_sd_g_cm3;
    double final_density_g_cm3;
    double rmsd_a;     /* solute RMSD from the reference at the stage's end */
    double max_rmsd_a; /* largest over the stage's reports */
    double potential;  /* kcal/mol at the stage's end */
    double seconds;    /* wall time */
} vkmd_equil_stage;

typedef struct vkmd_equil_summary {
    vkmd_equil_stage stage[VKMD_EQUIL_STAGES];
    int32_t stages_done;
    int32_t restrained_atoms;
    int32_t minimize_iterations;
    double box[3];        /* final box, A */
    double density_g_cm3; /* the result: mean over the second half of the free stage */
    double density_sd_g_cm3;
    double barostat_acceptance; /* accepted / attempted volume moves, stages 3 and 4 */
    char final_rst7[4200];
    /* A stop request (core/stop.h) ended it: where, and what it left. */
    int stop_why;            /* 0: not stopped; else the signal or VKMD_STOP_ASKED */
    char stopped_in[64];     /* "minimisation" or the stage's name */
    int64_t stop_step;       /* the MD step reached (-1: in the minimisation) */
    int64_t checkpoint_step; /* of DIR/checkpoint.chk (-1: none) */
    char partial[4200];      /* a stopped minimisation's structure (DIR/minimized.rst7) */
} vkmd_equil_summary;

/* `in` with defaults filled in and checked. Errors: VKMD_ERROR_INVALID_ARGUMENT
 * naming the field. */
vkmd_result vkmd_equil_desc_resolve(const vkmd_equil_desc *in, vkmd_equil_desc *out);

/* Runs the protocol on `ctx`. `reporters` (may be 0) get the run's notes
 * (note) and every report (report, with the stage's name in the note before
 * it); stop_requested ends the equilibration at the next report with the
 * stage's checkpoint. out_summary (may be NULL) is filled as far as the run
 * got. Errors: those of the run controller, VKMD_ERROR_NUMERIC (a blown-up
 * state: the message names the stage and step; the last stage checkpoint is
 * intact), VKMD_ERROR_INVALID_ARGUMENT (a vacuum system: constant pressure
 * needs a box; a mask that selects no atom). */
vkmd_result vkmd_equilibrate(vkmd_vk_context *ctx, const vkmd_equil_desc *desc,
                             const vkmd_reporter *reporters, int32_t reporter_count,
                             vkmd_equil_summary *out_summary);

/* The summary of a finished equilibration (`desc` resolved, as
 * vkmd_equil_desc_resolve gives it) as text: a line of settings, a row per
 * stage (steps, mean and SD of T, density, solute RMSD, wall time), the
 * minimisation, barostat acceptance, final density and box and where the
 * final state is; or as one JSON object with units in its keys
 * (equilibrate_summary.c). */
void vkmd_equil_summary_write_text(FILE *out, const vkmd_equil_desc *desc,
                                   const vkmd_equil_summary *s);
/* One line (and a newline) of where a stopped equilibration stopped and
 * what it left: the last report's checkpoint, each finished stage's, or the
 * stopped minimisation's structure; each is accepted by vkmd run --coords. */
void vkmd_equil_summary_write_stop(FILE *out, const vkmd_equil_desc *desc,
                                   const vkmd_equil_summary *s);
void vkmd_equil_summary_write_json(FILE *out, const vkmd_equil_desc *desc,
                                   const vkmd_equil_summary *s);

#endif
