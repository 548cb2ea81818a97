/* The reporter interface of a run (run/run.h): what a client plugs in to see
 * a run's states as they are produced, draw it, or ask it to stop. The run's
 * own outputs (energy CSV, DCD trajectory, final PDB: run/file_reporters.h)
 * are reporters too; the `vkmd run` command adds its progress line and its
 * viewer window the same way.
 *
 * Every callback may be NULL. Callbacks returning vkmd_result stop the run
 * with that error (the run still writes nothing further and calls every
 * reporter's finish). Pointers passed to callbacks are valid during the
 * call only. */
#ifndef VKMD_RUN_REPORTER_H
#define VKMD_RUN_REPORTER_H

#include "forces/precision.h"
#include "run/energy_drift.h"
#include "sim/md.h"
#include "sim/minimize.h"

#include <stdint.h>

struct vkmd_run_desc;

/* What reporters get when the run starts (after setup: minimisation,
 * velocities, equilibration, a restart's state). */
typedef struct vkmd_run_info {
    const struct vkmd_run_desc *desc;       /* resolved: every default filled in */
    const vkmd_system *system;              /* the run's system (masses after HMR) */
    vkmd_vk_context *ctx;                   /* the device and the simulation, for reporters */
    vkmd_md *md;                            /*   that draw from its buffers (the viewer) */
    const vkmd_precision_choice *precision; /* what the precision request resolved to */
    int64_t first_step;                     /* 0, or the checkpoint's step on a restart */
    int restart;                            /* 1 when continuing a checkpoint */
    int64_t dof;                            /* degrees of freedom of the temperature */
    const char *summary;                    /* one line: constraints, cutoff, PME grid, Ewald
                                               tolerance, precision, seed, device */
} vkmd_run_info;

/* One state of the run: at a report step, a trajectory frame or the end. */
typedef struct vkmd_run_sample {
    int64_t step;                 /* run step (0 .. desc->steps) */
    double time_ps;               /* step * dt */
    const vkmd_md_report *report; /* energies kcal/mol, temperature K */
    double ns_per_day;            /* speed since the previous report; 0 when not measured */
    const double *positions;      /* [3 * atom_count] A, whole molecules */
    const double *velocities;     /* [3 * atom_count] A/fs; NULL at the end */
    const vkmd_box *box;          /* the periodic box (A) */
    int32_t stage;                /* the run's stage at this step (-1: a run without stages) */
    int start;                    /* 1: the state the run starts from (step first_step): a
                                     fresh run's step-0 row, or a restart's state (not a new
                                     row) */
} vkmd_run_sample;

/* How a run ended (vkmd_run_summary.ended). */
typedef enum vkmd_run_end {
    VKMD_RUN_COMPLETE = 0,   /* every step of desc->steps */
    VKMD_RUN_ENDED = 1,      /* a reporter's `idle` asked to end: the run ended at a report step
                                with a checkpoint and its final outputs, as if that were the last */
    VKMD_RUN_INTERRUPTED = 2 /* a stop request (core/stop.h: a signal, a client's callback) or a
                                reporter's `stop_requested`: stopped within a second, no final
                                outputs; in dynamics the checkpoint holds the last report step
                                (summary.last_checkpoint_step), in the minimisation or the
                                --equilibrate steps summary.partial_path the state reached */
} vkmd_run_end;

/* What a run did (vkmd_run_execute's out_summary and reporters' `end`). */
typedef struct vkmd_run_summary {
    vkmd_run_end ended;
    int stop_why;                 /* VKMD_RUN_INTERRUPTED: the signal (core/stop.h), or
                                     VKMD_STOP_ASKED */
    const char *stopped_in;       /* VKMD_RUN_INTERRUPTED: "minimisation", "equilibration" or
                                     "dynamics"; else NULL */
    const char *partial_path;     /* a stop in the minimisation or equilibration: DIR/minimized.rst7
                                     or DIR/equilibration.rst7 (for --coords); else NULL */
    const char *stop_detail;      /* with partial_path: how far it got ("after 120
                                     iterations, not converged ...") */
    int blown_up;                 /* 1: stopped at a bad state (the run's VKMD_ERROR_NUMERIC
                                     names the step, the term and the atoms) */
    int64_t first_step;           /* 0, or the checkpoint's step */
    int64_t last_step;            /* the step the run ended at */
    int64_t last_checkpoint_step; /* -1: none written or read */
    const char *device;           /* the device's name */
    int64_t dof;                  /* degrees of freedom of the temperature */
    const char *checkpoint_path;  /* DIR/checkpoint.chk */
    double wall_s;                /* wall time of the steps (setup excluded) */
    double ns_per_day;            /* (last_step - first_step) steps over wall_s */
    double mean_temperature_k;    /* over the report steps at or after temperature_from_ps
                                     (all reports after the start when there are none) */
    double sd_temperature_k;      /* their standard deviation (n - 1; 0 with one sample) */
    double temperature_from_ps;   /* Langevin: the bath has taken hold, 1/friction after step
                                     0 (less --equilibrate), at most half way through the
                                     run; Verlet: the start */
    int64_t temperature_samples;  /* the reports in the mean */
    double mean_density_g_cm3;    /* over the same steps; 0 for vacuum */
    double sd_density_g_cm3;      /* their standard deviation (0: fixed box or one sample) */
    vkmd_md_report final;         /* the last state's report */
    vkmd_energy_drift drift;      /* total energy against time over the report steps (zero
                                     with fewer than 2) */
    double max_water_violation_a; /* at the end: largest |r - d| of a rigid water, A */
    double max_hbond_violation_rel; /* at the end: largest |r - d| / d of an H bond */
    int minimized;                  /* 1: desc->minimize ran (not on a restart) */
    vkmd_minimize_result minimize;  /* its result */
} vkmd_run_summary;

typedef struct vkmd_reporter {
    void *user; /* passed to every callback */
    /* The run starts. */
    vkmd_result (*begin)(void *user, const vkmd_run_info *info);
    /* A report step (every desc->report_every steps and the last step), after
     * its checks passed; and once with s->start = 1 for the starting state. */
    vkmd_result (*report)(void *user, const vkmd_run_sample *s);
    /* A report step at a multiple of desc->report_every after the start,
     * after every reporter's `report` and before the step's checkpoint: may
     * set *inout_temperature_k (the bath now, K) to a new bath temperature;
     * the run then scales the velocities by sqrt(T_new / T_old) (so they stay
     * at the new bath's kinetic temperature), checkpoints those and steps on
     * at the new bath. The settings record keeps desc->md.temperature_k: a
     * client that changes the bath restores it itself on a restart (in
     * `begin`, with vkmd_md_set_temperature on info->md). Temperature
     * replica exchange (run/remd.h) uses this. */
    vkmd_result (*retemper)(void *user, const vkmd_run_sample *s, double *inout_temperature_k);
    /* A trajectory frame (every desc->traj_every steps). */
    vkmd_result (*frame)(void *user, const vkmd_run_sample *s);
    /* A checkpoint was written at `step` to `path`. */
    vkmd_result (*checkpoint)(void *user, int64_t step, const char *path);
    /* Before each piece of steps from `step` (a viewer draws a frame here):
     * may lower *max_steps (0: no steps this time, ask again) and may set
     * *end_run = 1 to end the run at the next report step (VKMD_RUN_ENDED). */
    vkmd_result (*idle)(void *user, int64_t step, int64_t *max_steps, int *end_run);
    /* Polled between pieces, as the process-wide request (core/stop.h) is:
     * nonzero stops the run (VKMD_RUN_INTERRUPTED) with a checkpoint of the
     * last report step. */
    int (*stop_requested)(void *user);
    /* A line of what the run does ("minimised in 120 iterations: ...",
     * "bad state at step 400 (...); replaying from step 300"), no newline. */
    void (*note)(void *user, const char *text);
    /* The run ended with VKMD_RUN_COMPLETE or VKMD_RUN_ENDED; `final` holds
     * the last positions. Not called after an error or an interruption. */
    vkmd_result (*end)(void *user, const vkmd_run_sample *final, const vkmd_run_summary *s);
    /* Always called once when vkmd_run_execute returns (after an error too):
     * close files, free `user`. An error here is the run's error if it had
     * none. */
    vkmd_result (*finish)(void *user);
} vkmd_reporter;

#endif
