/* Molecular dynamics on the device: the state buffers, whole steps recorded
 * once into command buffers and replayed many steps per submit, and what the
 * host reads between batches (energies, positions, velocities).
 *
 * One step (Verlet):   VV_KICK_DRIFT -> position constraints (+ velocity
 *   correction) -> force field (neighbour check/rebuild, nonbonded, bonded,
 *   PME) -> VV_KICK -> velocity constraints.
 * One step (Langevin middle): LM_KICK -> velocity constraints -> LM_DRIFT
 *   (A O A with Philox noise keyed by seed, step, atom) -> position
 *   constraints (+ velocity correction, as OpenMM's LangevinMiddleIntegrator)
 *   -> force field.
 * Between steps the force accumulators hold F(x) of the current positions.
 * A batch of steps ends, when due, with centre-of-mass motion removal and
 * with molecules wrapped into the box as whole molecules (so positions read
 * for outputs never show a molecule broken across the boundary), then the
 * step counter advances on the device. The formulas are engine/ref/ref_md.h's
 * (the CPU oracle); shaders/md.comp holds the pieces.
 *
 * Neighbour-list overflow during a batch: the batch starts by copying the
 * state to backups; if the list overflowed, the state is restored, the list
 * grown, the forces recomputed and the batch repeated, so results never
 * depend on an overflow.
 *
 * Neighbour-list rebuilds: on a device with conditional rendering, batches
 * are gated (sim/md_batch.c): a step that does not rebuild records no
 * rebuild work, and the list halts a batch after the step where it sees a
 * rebuild coming; the next batch rebuilds at its first step. Elsewhere
 * every step records the rebuild dispatches, empty unless due.
 *
 * Buffers (owned here unless said): positions (the force field's, vec4 fp32,
 * A), positions_ref (vec4), velocities (vec4, xyz A/fs, w = 1/m), backups
 * of both, momentum (fixed point [4]), step counter (uvec4), molecule table
 * and per-molecule shifts. */
#ifndef VKMD_SIM_MD_H
#define VKMD_SIM_MD_H

#include "forces/forcefield.h"
#include "sim/barostat.h"
#include "sim/minimize.h"
#include "system/constraints.h"
#include "system/ff_settings.h"
#include "system/molecules.h"
#include "system/system.h"
#include "vk/context.h"

typedef enum vkmd_integrator {
    VKMD_INTEGRATOR_LANGEVIN = 0, /* Langevin middle (BAOAB), the default */
    VKMD_INTEGRATOR_VERLET = 1    /* velocity Verlet (NVE) */
} vkmd_integrator;

typedef enum vkmd_constraint_mode {
    VKMD_CONSTRAINTS_HBONDS = 0, /* bonds to hydrogen (default) */
    VKMD_CONSTRAINTS_NONE = 1
} vkmd_constraint_mode;

/* Zero means default for every field. */
typedef struct vkmd_md_desc {
    const vkmd_ff_settings *settings;  /* required, resolved */
    vkmd_integrator integrator;        /* LANGEVIN */
    double dt_fs;                      /* 2 */
    double temperature_k;              /* 300 (Langevin bath) */
    double friction_per_ps;            /* 1 (Langevin) */
    uint64_t seed;                     /* 0 is a valid seed */
    vkmd_constraint_mode constraints;  /* HBONDS */
    int flexible_water;                /* 0: rigid waters (SETTLE); 1: flexible */
    double constraint_tol;             /* 1e-5 relative */
    int32_t com_every;                 /* 0: every 100 steps (at batch ends); < 0: never */
    int32_t max_batch_steps;           /* 0: 50 steps recorded per command buffer */
    double skin_a;                     /* 0: the neighbour list's default (1 A): the inner list
                                          holds pairs within cutoff + skin, pruned when an atom
                                          moved skin / 2 */
    double outer_skin_a;               /* 0: from the time step (vkmd_md_outer_skin); the
                                          outer list, rebuilt when an atom moved outer skin / 2,
                                          reaches skin + outer skin past the cutoff */
    int unfused;                       /* 1: pass by pass; -1: the fused step where the system
                                          allows it (periodic, PME); 0: fused on a CPU device,
                                          pass by pass on a GPU, $VKMD_MD_UNFUSED (1 / 0)
                                          overriding (md.c: want_fused) */
    int force_staging;                 /* as in vkmd_forcefield_desc */
    double pressure_bar;               /* 0: no barostat (constant volume); > 0: Monte Carlo
                                          barostat at this pressure (sim/barostat.h; Langevin,
                                          periodic systems only) */
    int32_t barostat_every;            /* 0: 25 steps between volume moves */
    vkmd_barostat_mode barostat;       /* ISO (x, y, z one factor), ANISO, MEMBRANE */
    const vkmd_restraints *restraints; /* NULL: none; positional restraints (AMBER's
                                          E = k |r - r0|^2) in the force field, copied at
                                          create (k changes: vkmd_md_set_restraint_k) */
} vkmd_md_desc;

typedef struct vkmd_md vkmd_md;

/* `in` with every zero field replaced by its default (the one place the
 * defaults above are applied; settings are left as given), checked.
 * Errors: VKMD_ERROR_INVALID_ARGUMENT naming the field out of range. */
vkmd_result vkmd_md_desc_resolve(const vkmd_md_desc *in, vkmd_md_desc *out);

/* The outer skin (A) vkmd_md takes for a time step when the desc leaves it 0:
 * wide enough that the fastest atom of a solvated protein needs 20 steps or
 * more to cross half of it (DHFR, HMR 1.5 amu, 4 fs: the largest
 * displacement grows to 2.1 A in 20 steps; 2 fs: 1.6 A in 20 steps). */
double vkmd_md_outer_skin(double dt_fs);

/* What vkmd_md_read returns. */
typedef struct vkmd_md_report {
    int64_t step;
    double time_ps;
    vkmd_energy potential; /* kcal/mol, every term */
    double kinetic;        /* kcal/mol, of the constrained velocities */
    double total;          /* potential.total + kinetic */
    double temperature_k;  /* 2 KE / (dof k_B) */
    double box[3];         /* A, the box of this state (0 for vacuum): edge lengths */
    vkmd_box cell;         /* the whole cell of this state (vectors, angles; zero for vacuum) */
    double volume_a3;      /* A^3 (0 for vacuum) */
    double density_g_cm3;  /* g/cm^3 (0 for vacuum) */
} vkmd_md_report;

/* Builds the force field, constraints and state for `sys` (positions
 * required; velocities used if present, else zero: call
 * vkmd_md_init_velocities). `sys` is borrowed for the lifetime of the MD.
 * Molecules are made whole and wrapped into the box on upload. Errors:
 * invalid settings (naming the field), constraint-set errors, device errors. */
vkmd_result vkmd_md_create(vkmd_vk_context *ctx, const vkmd_system *sys, const vkmd_md_desc *desc,
                           vkmd_md **out_md);
void vkmd_md_destroy(vkmd_vk_context *ctx, vkmd_md *md);

/* Maxwell-Boltzmann velocities at temperature_k from `seed` (Philox, stream
 * 1), constrained, centre-of-mass motion removed, scaled so the kinetic
 * temperature equals temperature_k exactly; uploaded. */
vkmd_result vkmd_md_init_velocities(vkmd_vk_context *ctx, vkmd_md *md, double temperature_k,
                                    uint64_t seed);

/* Minimises the energy on the device (FIRE, engine/sim/minimize.h) from the
 * current positions, with the run's constraints; velocities are zero
 * afterwards (call vkmd_md_init_velocities). `d` may be NULL (defaults). */
vkmd_result vkmd_md_minimize(vkmd_vk_context *ctx, vkmd_md *md, const vkmd_minimize_desc *d,
                             vkmd_minimize_result *out);

/* Switches the integrator (e.g. Langevin equilibration, then Verlet);
 * the state and the step counter carry on. */
vkmd_result vkmd_md_set_integrator(vkmd_md *md, vkmd_integrator integrator);

/* Sets the Langevin bath temperature (K, >= 0) for the steps that follow
 * (heating in stages); the state and the step counter carry on. Errors:
 * VKMD_ERROR_INVALID_ARGUMENT (negative or not finite). */
vkmd_result vkmd_md_set_temperature(vkmd_md *md, double temperature_k);

/* The bath temperature the next steps use, K. */
double vkmd_md_temperature(const vkmd_md *md);

/* Atom-steps of a batch at most (vkmd_md_step): on a GPU (an H200 steps
 * DHFR in about 0.2 ms and a million atoms in about 7 ms: 50-step batches up
 * to 335,000 atoms, 16 steps, about 0.1 s, at a million; a batch never ends
 * for the host's sake where it need not), and on a CPU device (lavapipe,
 * 11-17 us per atom-step on one core: at most 0.28 s; water:216 takes
 * 16-step batches, whose fixed cost, about 8 dispatches, adds 0.5 a step). */
#define VKMD_MD_BATCH_ATOM_STEPS     (1 << 25)
#define VKMD_MD_BATCH_ATOM_STEPS_CPU 16384

/* The steps of one batch of `atom_count` atoms on `ctx` at most: a power
 * of two within the budget above, at least 1 (the minimiser's iterations
 * too). */
int32_t vkmd_md_batch_fit(const vkmd_vk_context *ctx, int32_t atom_count);

/* Runs `steps` steps and waits, in batches of at most max_batch_steps and
 * of at most vkmd_md_batch_fit steps. Between batches it polls the stop request (core/stop.h): then
 * it returns VKMD_ERROR_STOPPED at a whole step (vkmd_md_steps_done says
 * which). */
vkmd_result vkmd_md_step(vkmd_vk_context *ctx, vkmd_md *md, int64_t steps);

/* Reads the current state: report (may be NULL), positions and velocities
 * [3 * atom_count] (A, A/fs; may be NULL). Positions are whole molecules. */
vkmd_result vkmd_md_read(vkmd_vk_context *ctx, vkmd_md *md, vkmd_md_report *out_report,
                         double *out_positions, double *out_velocities);

/* Replaces positions (and velocities if not NULL), e.g. for a restart;
 * rebuilds the neighbour list and recomputes the forces, so the state after
 * this call depends only on the arguments. Positions must be whole molecules that satisfy the
 * constraints (as vkmd_md_read returns them). */
vkmd_result vkmd_md_set_state(vkmd_vk_context *ctx, vkmd_md *md, const double *positions,
                              const double *velocities);

/* Changes the positional restraints' k (kcal/mol/A^2, finite, >= 0) between
 * batches (an equilibration's taper; k = 0 costs one test per restrained
 * atom) and recomputes the forces: the state is read and set again
 * (vkmd_md_set_state), exactly what a restart from this step with this k
 * does, so a tapered run and one restarted at a stage boundary agree
 * bitwise. Errors: VKMD_ERROR_INVALID_ARGUMENT (bad k; k != 0 for an MD
 * created without restraints), device errors. */
vkmd_result vkmd_md_set_restraint_k(vkmd_vk_context *ctx, vkmd_md *md, double k);

/* The box is state of the simulation: it starts as sys->box and changes
 * with the barostat or these calls. vkmd_md_set_box_state sets the box
 * (edges A) and, if `positions` is not NULL, the positions (as
 * vkmd_md_set_state: whole molecules, constraints satisfied); every
 * box-dependent constant follows (force field, neighbour list, PME push
 * constants and 1/V factor, dispersion correction, wrapping, the fused
 * step's parameters), recorded batches are recorded again, the neighbour
 * list is rebuilt and the forces (and energies) recomputed. vkmd_md_set_box
 * keeps the positions. The PME grid stays that of the start box. Errors:
 * VKMD_ERROR_INVALID_ARGUMENT (vacuum, an edge not > 0 or below 2 cutoffs:
 * nothing changed), device errors. */
vkmd_result vkmd_md_set_box_state(vkmd_vk_context *ctx, vkmd_md *md, const double box[3],
                                  const double *positions);
vkmd_result vkmd_md_set_box(vkmd_vk_context *ctx, vkmd_md *md, const double box[3]);
/* The current box edges, A (zeros for vacuum). */
void vkmd_md_get_box(const vkmd_md *md, double out_box[3]);
/* As vkmd_md_set_box_state for a whole cell (copied): rectangular or
 * triclinic, of the same kind as the system's box (vkmd_md_set_box_state
 * takes rectangular boxes only and refuses on a triclinic system). Errors
 * as vkmd_md_set_box_state, and a cell of the other kind. */
vkmd_result vkmd_md_set_cell_state(vkmd_vk_context *ctx, vkmd_md *md, const vkmd_box *cell,
                                   const double *positions);
/* The current cell (zeroed for vacuum). */
void vkmd_md_get_cell(const vkmd_md *md, vkmd_box *out_cell);

/* Saves the state between steps on the device (positions, velocities,
 * forces, energies, box); vkmd_md_restore_state puts it back bit for bit
 * (the neighbour list is rebuilt at the next step). One saved state;
 * the barostat uses it for rejected moves. Errors: device errors,
 * VKMD_ERROR_INVALID_ARGUMENT (restore without a save). */
vkmd_result vkmd_md_save_state(vkmd_vk_context *ctx, vkmd_md *md);
vkmd_result vkmd_md_restore_state(vkmd_vk_context *ctx, vkmd_md *md);

/* Turns the barostat on at pressure_bar (> 0; with the desc's every and
 * mode) or off (0), e.g. between equilibration stages; its step sizes and
 * counters carry on. Errors: VKMD_ERROR_INVALID_ARGUMENT (negative or
 * non-finite pressure; a vacuum system; velocity Verlet). */
vkmd_result vkmd_md_set_pressure(vkmd_md *md, double pressure_bar);

/* One trial move of barostat `b` on the MD's state between steps (the MD
 * runs its own barostat's moves inside vkmd_md_step; tests make others).
 * *out_accepted (may be NULL) says whether it was kept. */
vkmd_result vkmd_md_barostat_move(vkmd_vk_context *ctx, vkmd_md *md, vkmd_barostat *b,
                                  int *out_accepted);

/* The barostat's statistics and state (all zero when it never ran). */
typedef struct vkmd_barostat_stats {
    double pressure_bar; /* 0: off */
    int32_t every;
    vkmd_barostat_mode mode;
    int64_t attempts, accepted; /* over every kind */
    vkmd_barostat_state state;  /* step sizes (A^3) and counters per kind */
} vkmd_barostat_stats;
void vkmd_md_barostat_stats(const vkmd_md *md, vkmd_barostat_stats *out);
/* Puts a saved barostat state back (a restart); creates the barostat's
 * state even while the pressure is 0. */
vkmd_result vkmd_md_set_barostat_state(vkmd_md *md, const vkmd_barostat_state *state);

/* Sets the step counter (which keys the Langevin noise and the phase of
 * centre-of-mass removal), e.g. for a restart. */
vkmd_result vkmd_md_set_step(vkmd_vk_context *ctx, vkmd_md *md, int64_t step);

/* Largest constraint violations of the current positions: water O-H / H-H
 * |r - d| in A, and H-bond |r - d| / d (0 when there are none). */
vkmd_result vkmd_md_constraint_violation(vkmd_vk_context *ctx, vkmd_md *md, double *out_water_a,
                                         double *out_hbond_rel);

/* Where the GPU time of a step goes (vkmd bench). The first seven passes
 * are the force field's (vkmd_ff_pass order). */
typedef enum vkmd_md_pass {
    VKMD_MD_PASS_NEIGHBOR = VKMD_FF_PASS_NEIGHBOR,
    VKMD_MD_PASS_NONBONDED = VKMD_FF_PASS_NONBONDED,
    VKMD_MD_PASS_BONDED = VKMD_FF_PASS_BONDED,
    VKMD_MD_PASS_PME_SPREAD = VKMD_FF_PASS_PME_SPREAD,
    VKMD_MD_PASS_PME_FFT = VKMD_FF_PASS_PME_FFT,
    VKMD_MD_PASS_PME_CONVOLVE = VKMD_FF_PASS_PME_CONVOLVE,
    VKMD_MD_PASS_PME_GATHER = VKMD_FF_PASS_PME_GATHER,
    VKMD_MD_PASS_INTEGRATE = VKMD_FF_PASS_COUNT, /* kicks and drifts */
    VKMD_MD_PASS_CONSTRAINTS,                    /* SETTLE and H-bond clusters */
    VKMD_MD_PASS_REDUCE, /* accumulator clears, backups, COM, wrap, step counter */
    VKMD_MD_PASS_STEP,   /* fused step (sim/step.h): integration, constraints, spread, list check */
    VKMD_MD_PASS_FORCES, /* fused step: pair tiles (and prune), bonded terms, grid conversion */
    VKMD_MD_PASS_COUNT
} vkmd_md_pass;

typedef struct vkmd_md_profile {
    int32_t steps;                      /* steps timed */
    double step_ns;                     /* GPU time per step (sum of the passes) */
    double pass_ns[VKMD_MD_PASS_COUNT]; /* per step */
    int32_t batch_steps;                /* steps per recorded command buffer */
    int gated;                          /* batches stop themselves (md_batch.c) */
    double dispatches_per_step;         /* recorded in a batch whose steps do not rebuild
                                           (without conditional rendering every step records
                                           the rebuild), per step */
    double barriers_per_step;           /* likewise */
    double rebuild_dispatches;          /* more in a step that rebuilds (gated batches) */
    double rebuild_barriers;            /* likewise */
} vkmd_md_profile;

/* Runs `steps` (1..16) steps as one batch with GPU timestamps between the
 * passes (the simulation advances; a halt may end the batch sooner: `steps`
 * of the result says how many ran) and counts what a normal batch records.
 * Errors: VKMD_ERROR_UNSUPPORTED (no timestamps on this device),
 * VKMD_ERROR_INVALID_ARGUMENT, device errors. */
vkmd_result vkmd_md_profile_steps(vkmd_vk_context *ctx, vkmd_md *md, int32_t steps,
                                  vkmd_md_profile *out);

/* 1 when steps are recorded fused (sim/step.h), 0 pass by pass. */
int vkmd_md_fused(const vkmd_md *md);

/* One line: which step is recorded and why (the system, a request, or the
 * rule for the device; owned by the MD). */
const char *vkmd_md_step_reason(const vkmd_md *md);

/* Steps repeated because a rebuild was due at a step that records none (the
 * look ahead of a gated batch missed it; the whole batch is redone with a
 * rebuild recorded at every step, so the count is in steps of the batches
 * redone). */
int64_t vkmd_md_repeats(const vkmd_md *md);

/* Batches the neighbour list stopped before their last step (to rebuild at
 * the first step of the next), since create. */
int64_t vkmd_md_halts(const vkmd_md *md);

/* 1 when batches are gated (a periodic system on a device with conditional
 * rendering: steps that do not rebuild record no rebuild work). */
int vkmd_md_gated(const vkmd_md *md);

/* Accessors. */
int64_t vkmd_md_dof(const vkmd_md *md);
int64_t vkmd_md_steps_done(const vkmd_md *md);
const vkmd_constraint_set *vkmd_md_constraint_set(const vkmd_md *md);
const vkmd_system *vkmd_md_system(const vkmd_md *md);
const vkmd_molecules *vkmd_md_molecules(const vkmd_md *md);
double vkmd_md_cutoff(const vkmd_md *md); /* A */
vkmd_forcefield *vkmd_md_forcefield(vkmd_md *md);
/* The velocities buffer (vec4 [atom_count]: xyz A/fs, w 1/m), e.g. for the
 * viewer; owned by the MD. */
const vkmd_vk_buffer *vkmd_md_velocities_buffer(const vkmd_md *md);
#endif
