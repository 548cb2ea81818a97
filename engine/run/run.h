/* The run controller: a molecular-dynamics run of a system from its
 * description to its outputs, the loop that `vkmd run`, the library's
 * clients and the tests share.
 *
 * A run loads the system (AMBER prmtop + coordinates, or water:N), applies
 * hydrogen mass repartitioning, resolves the force-field settings and the
 * precision request (calibrating on the device when asked for auto), builds
 * the simulation (sim/md.h), minimises, draws velocities and equilibrates as
 * asked, then steps in pieces between report steps and trajectory frames:
 *   - at every report step the state is read back and checked
 *     (sim/md_health.h); a bad state writes nothing, is replayed step by step
 *     from the last good state to name the step, the energy term and the
 *     atoms (run/blowup.h), and the run fails with VKMD_ERROR_NUMERIC;
 *   - a good report goes to every reporter (run/reporter.h) and becomes the
 *     last good state; checkpoints are written at report steps only (every
 *     checkpoint_every steps, at the end and when a reporter stops the run),
 *     and the state is re-uploaded there so that the neighbour list is
 *     rebuilt at the same steps in every run: a continuation from any report
 *     step is bitwise the same as the run that did not stop.
 * The checkpoint (io/checkpoint.h) carries the settings record of the run
 * (run/run_settings.h): everything that changes the trajectory, so that any
 * client's checkpoint continues in any other only with the same settings.
 *
 * Outputs in desc->out_dir (created): energy.csv, traj.dcd (or
 * desc->traj_path, DCD or AMBER NetCDF), final.pdb and checkpoint.chk
 * (run/file_reporters.h), and desc->restart_out when given. On a restart
 * energy.csv and the trajectory are cut back to the checkpoint's step and
 * continued. */
#ifndef VKMD_RUN_RUN_H
#define VKMD_RUN_RUN_H

#include "forces/precision.h"
#include "io/restraint_spec.h"
#include "run/reporter.h"
#include "sim/md.h"
#include "sim/minimize.h"
#include "system/ff_settings.h"

#include <stdint.h>

/* Defaults of a run (zero fields of vkmd_run_desc). */
#define VKMD_RUN_STEPS        10000
#define VKMD_RUN_REPORT_EVERY 1000
#define VKMD_RUN_CHECKPOINT_AT_MOST                                                                \
    10000 /* steps: the default checkpoint interval is the                                         \
             multiple of report_every nearest above */
#define VKMD_RUN_OUT_DIR "vkmd_run"

/* One stage of a staged run (an equilibration: run/equilibrate.h): `steps`
 * steps after the previous stage's last, with these settings. Stages change
 * only what is cheap to change on a running simulation: the bath, the
 * barostat and the restraint constant. */
#define VKMD_RUN_STAGES_MAX 64
typedef struct vkmd_run_stage {
    char name[32];        /* for reports and the settings record ("heat 150 K") */
    int64_t steps;        /* > 0 */
    double temperature_k; /* Langevin bath, K (> 0) */
    double pressure_bar;  /* 0: constant volume; > 0: the barostat at this pressure */
    double restraint_k;   /* kcal/mol/A^2 for the run's restraints (0: off) */
} vkmd_run_stage;

/* Zero means default for every field. */
typedef struct vkmd_run_desc {
    const char *system;  /* required: an AMBER prmtop path, or "water:N" (N TIP3P waters) */
    const char *coords;  /* NULL: the prmtop's basename .inpcrd or .rst7 (io/load.h) */
    vkmd_md_desc md;     /* integrator, dt, temperature, friction, seed (0 is a seed),
                            constraints ...: sim/md.h's defaults; `settings` is ignored */
    vkmd_ff_settings ff; /* cutoff, Ewald tolerance ...: system/ff_settings.h's defaults */
    vkmd_precision_request precision; /* auto (calibrated on the device) */
    double hmr_mass_amu;              /* 0: no hydrogen mass repartitioning */
    int64_t steps;                    /* VKMD_RUN_STEPS: the run's last step; < 0: none (the start's
                                         setup and outputs only) */
    int64_t report_every;             /* VKMD_RUN_REPORT_EVERY; < 0: only at the last step */
    int64_t traj_every;               /* 0: report_every; < 0: no trajectory */
    int64_t checkpoint_every;         /* 0: VKMD_RUN_CHECKPOINT_AT_MOST rounded up to a multiple of
                                         report_every; < 0: only at the end and when stopped; else a
                                         multiple of report_every */
    int64_t equilibrate;              /* 0: Langevin steps at the bath temperature before the run
                                         (not reported), then the run's integrator */
    int minimize;                     /* 0; 1: minimise on the device before dynamics */
    vkmd_minimize_desc min;           /* its settings (sim/minimize.h's defaults) */
    const char *out_dir;              /* VKMD_RUN_OUT_DIR, created if missing, locked while the run
                                         lives; earlier outputs in it are refused (io/outdir.h) */
    int overwrite;                    /* 0; 1: earlier outputs are moved aside to NAME.1 ... */
    const char *restart;     /* NULL; a checkpoint to continue (same settings; steps may grow;
                                minimize and equilibrate are skipped: they were done) */
    int no_file_outputs;     /* 0; 1: no energy.csv, traj.dcd or final.pdb (checkpoints are
                                still written) */
    const char *traj_path;   /* NULL: out_dir/traj.dcd; else this path: AMBER NetCDF when it
                                ends .nc, .ncdf or .netcdf (io/netcdf.h), DCD otherwise */
    const char *restart_out; /* NULL: none; else the state (positions, velocities, box) is
                                written here at every checkpoint, so at the end: an AMBER
                                NetCDF restart for .ncrst/.nc/.ncdf, ASCII rst7 otherwise;
                                written also with no_file_outputs */
    vkmd_restraint_spec restraints; /* none; positional restraints (io/restraint_spec.h),
                                       referenced to the loaded coordinates (before any
                                       minimisation) unless restraints.reference is given;
                                       md.restraints is ignored */
    const vkmd_run_stage *stages;   /* NULL: one stage with md's settings; else stage_count
                                       stages (copied), run in order: steps defaults to
                                       their sum (a different value is refused), the bath
                                       starts at stages[0]'s temperature (velocities too),
                                       each stage's restraint_k replaces restraints.k */
    int32_t stage_count;            /* 0 .. VKMD_RUN_STAGES_MAX */
} vkmd_run_desc;

/* `in` with every default filled in and checked against itself (not yet
 * against a system). Errors: VKMD_ERROR_INVALID_ARGUMENT naming the field. */
vkmd_result vkmd_run_desc_resolve(const vkmd_run_desc *in, vkmd_run_desc *out);

typedef struct vkmd_run vkmd_run;

/* Resolves `desc` (copied; its strings are borrowed for the run's
 * lifetime), loads and checks the system, reads and checks a restart's
 * checkpoint against it, creates the output directory. No device work yet.
 * Errors: those of the loaders (naming file and line), invalid settings,
 * VKMD_ERROR_IO. On failure *out_run is NULL. */
vkmd_result vkmd_run_create(const vkmd_run_desc *desc, vkmd_run **out_run);

/* NULL: no-op. Frees the simulation (on the context it ran on, which must
 * still exist). */
void vkmd_run_destroy(vkmd_run *run);

/* The run's system (loaded, masses after HMR; positions of the checkpoint on
 * a restart). */
const vkmd_system *vkmd_run_system(const vkmd_run *run);

/* The resolved description. */
const vkmd_run_desc *vkmd_run_desc_get(const vkmd_run *run);

/* Runs on `ctx` (which must outlive the run) with the run's file outputs and
 * the `reporter_count` reporters (may be 0), to desc->steps or until a
 * reporter ends or stops it. Call once per run. out_summary (may be NULL)
 * is filled whenever the loop was reached, also after an error.
 * Errors: device errors (VKMD_ERROR_DEVICE_LOST: the last checkpoint holds
 * the last good state), VKMD_ERROR_NUMERIC (a blown-up state: the message
 * names the step, the term and the atoms; nothing of the bad state is
 * written), VKMD_ERROR_INVALID_ARGUMENT (a restart whose settings differ:
 * the message names the first), those of the reporters and outputs. */
vkmd_result vkmd_run_execute(vkmd_run *run, vkmd_vk_context *ctx, const vkmd_reporter *reporters,
                             int32_t reporter_count, vkmd_run_summary *out_summary);

/* The step of the last good checkpoint written or read (-1: none), and its
 * path: what a client names after a failure. */
int64_t vkmd_run_last_checkpoint(const vkmd_run *run, const char **out_path);

/* What the precision request resolved to (valid once vkmd_run_execute has
 * started; zeroed before). */
const vkmd_precision_choice *vkmd_run_precision(const vkmd_run *run);

/* The stage that step `step` of the run belongs to (stage i holds steps
 * after the end of stage i - 1 up to and including its own end; step 0 is
 * stage 0's); -1 for a run without stages. */
int32_t vkmd_run_stage_at(const vkmd_run_desc *d, int64_t step);

/* The simulation (NULL before vkmd_run_execute set it up). */
vkmd_md *vkmd_run_md(vkmd_run *run);

#endif
