/* vkmd: molecular dynamics on any GPU through Vulkan compute. The public C
 * API of libvkmd, the only header a program needs (the Vulkan interop for
 * programs that record their own Vulkan work is vkmd_vulkan.h).
 *
 *   cc prog.c $(pkg-config --cflags --libs vkmd)
 *   CMake: find_package(vkmd) and target_link_libraries(prog vkmd::vkmd)
 *
 * Handles are opaque; each has a create (or load) and a destroy, and destroy
 * takes NULL. What a call returns through a pointer is owned by the caller
 * unless said otherwise. Every fallible call returns a vkmd_result; on
 * failure vkmd_last_error() says what went wrong (file:line of an input,
 * the Vulkan call, the expected value).
 *
 * Units everywhere: A (lengths), fs (time steps), ps (times), kcal/mol
 * (energies), amu, e, K; velocities in A/fs. Desc structs are zero means
 * default: zero-initialise and set what you need.
 *
 * Threads: a context and everything created from it are used by one thread
 * at a time. The error message is per thread.
 *
 * The first part (result codes and messages) is also the engine's own
 * (engine/core/result.h includes it alone, with VKMD_RESULT_ONLY defined).
 * Public names never repeat an internal engine name, since the library's
 * api module sees both. */

/* ---- Exports, result codes and messages --------------------------------- */
#ifndef VKMD_H_RESULT
#define VKMD_H_RESULT

#if defined(VKMD_BUILDING_LIBRARY) && defined(__GNUC__)
#define VKMD_API __attribute__((visibility("default")))
#else
#define VKMD_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef enum vkmd_result {
    VKMD_OK = 0,
    VKMD_ERROR_INVALID_ARGUMENT, /* impossible parameter from the caller or the user */
    VKMD_ERROR_OUT_OF_MEMORY,    /* host allocation failed */
    VKMD_ERROR_IO,               /* file cannot be opened, read or written */
    VKMD_ERROR_PARSE,            /* malformed input file */
    VKMD_ERROR_UNSUPPORTED,      /* valid input that vkmd does not handle (e.g. triclinic box) */
    VKMD_ERROR_NO_DEVICE,        /* no usable Vulkan device */
    VKMD_ERROR_VULKAN,           /* a Vulkan call failed */
    VKMD_ERROR_DEVICE_LOST,      /* VK_ERROR_DEVICE_LOST */
    VKMD_ERROR_DEVICE_MEMORY,    /* out of device memory */
    VKMD_ERROR_VALIDATION,       /* the validation layer reported an error */
    VKMD_ERROR_NUMERIC,          /* non-finite or runaway numbers */
    VKMD_ERROR_CAPACITY,         /* a device-side list outgrew its buffer (grow and repeat) */
    VKMD_ERROR_STOPPED,          /* a stop was requested (a signal, vkmd_request_stop, the
                                    stop callback): the call ended early, its state whole */
    VKMD_RESULT_COUNT
} vkmd_result;

/* Short name of a result code ("parse error", ...): static, never NULL. */
VKMD_API const char *vkmd_result_str(vkmd_result r);

/* Detail of the last failure on this thread ("" if none); valid until the
 * next vkmd call on this thread. */
VKMD_API const char *vkmd_last_error(void);

/* Clears this thread's failure detail. */
VKMD_API void vkmd_error_clear(void);

#ifdef __cplusplus
}
#endif
#endif /* VKMD_H_RESULT */

/* ---- The API ------------------------------------------------------------ */
#if !defined(VKMD_H) && !defined(VKMD_RESULT_ONLY)
#define VKMD_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Version of this header; vkmd_version() gives the library's. The shared
 * library's soname changes with the major version. */
#define VKMD_VERSION_MAJOR  0
#define VKMD_VERSION_MINOR  1
#define VKMD_VERSION_PATCH  0
#define VKMD_VERSION_STRING "0.1.0"

/* The library's version: "MAJOR.MINOR.PATCH" (static); any out pointer may
 * be NULL. */
VKMD_API const char *vkmd_version(int *out_major, int *out_minor, int *out_patch);

/* ---- Stopping long calls ------------------------------------------------ */

/* The long calls (vkmd_dynamics_step, vkmd_dynamics_minimize, vkmd_mdrun_run,
 * the UFF group's relax and md) poll a process-wide stop request between
 * pieces of device work that take well under a second; when one is pending
 * they return VKMD_ERROR_STOPPED with their state whole (the step counter
 * exact, the positions those of the last whole step or iteration; a run
 * with its checkpoint). A callback set here is polled with them: nonzero
 * requests the stop (a Python binding checks its signals there). The
 * request stays until vkmd_clear_stop. The library installs no signal
 * handler; the vkmd command does. */
typedef int (*vkmd_stop_fn)(void *user);
VKMD_API void vkmd_set_stop_callback(vkmd_stop_fn fn, void *user); /* NULL: none */
VKMD_API void vkmd_request_stop(void);                             /* async-signal-safe */
VKMD_API void vkmd_clear_stop(void);

/* ---- Context: one Vulkan device ----------------------------------------- */

typedef struct vkmd_context vkmd_context;

typedef struct vkmd_context_desc {
    const char *device; /* NULL, "" or "gpu": $VKMD_DEVICE if set, else the best device
                           (discrete > integrated > virtual > cpu); "N": device index N
                           (as `vkmd devices` lists them); otherwise a case-insensitive
                           substring of the device name (as `vkmd run --device`) */
    int validation;     /* 0: Vulkan validation layer on iff $VKMD_VALIDATION is set and
                           not "0"; 1: on; -1: off */
} vkmd_context_desc;

/* Creates a context on one device. `desc` may be NULL (defaults). Errors:
 * VKMD_ERROR_NO_DEVICE (no usable device, or none matches desc->device; the
 * message lists the devices), VKMD_ERROR_VULKAN, VKMD_ERROR_OUT_OF_MEMORY. */
VKMD_API vkmd_result vkmd_context_create(const vkmd_context_desc *desc, vkmd_context **out_ctx);

/* Waits for the device and destroys the context; everything created from it
 * must be destroyed before. NULL is a no-op. */
VKMD_API void vkmd_context_destroy(vkmd_context *ctx);

/* The device's name, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)"; owned by the
 * context. */
VKMD_API const char *vkmd_context_device_name(const vkmd_context *ctx);

/* Validation errors counted so far (0 without validation). */
VKMD_API uint32_t vkmd_context_validation_errors(const vkmd_context *ctx);

/* ---- System: atoms, force field parameters, coordinates, box ------------ */

typedef struct vkmd_sys vkmd_sys;

/* Loads a system as `vkmd run SPEC [--coords COORDS]` does: SPEC "water:N"
 * (N TIP3P waters in a cubic box) or an AMBER prmtop path; `coords_path`
 * (may be NULL) an inpcrd/rst7 or .pdb file, else the prmtop's .inpcrd or
 * .rst7 beside it. Errors: VKMD_ERROR_IO, VKMD_ERROR_PARSE (naming
 * file:line), VKMD_ERROR_INVALID_ARGUMENT (no coordinates, malformed spec). */
VKMD_API vkmd_result vkmd_sys_load(const char *spec, const char *coords_path, vkmd_sys **out_sys);

/* Frees the system. NULL is a no-op. */
VKMD_API void vkmd_sys_destroy(vkmd_sys *sys);

VKMD_API int32_t vkmd_sys_atom_count(const vkmd_sys *sys);

/* The periodic box edges in A (orthorhombic); returns 1, or 0 for a system
 * without a box (out_len_a then zero). out_len_a may be NULL. */
VKMD_API int vkmd_sys_box(const vkmd_sys *sys, double out_len_a[3]);

/* Copies the positions, xyz per atom, A, into out_xyz[3 * capacity_atoms].
 * Errors: VKMD_ERROR_INVALID_ARGUMENT (capacity_atoms < atom count). */
VKMD_API vkmd_result vkmd_sys_get_positions(const vkmd_sys *sys, int32_t capacity_atoms,
                                            double *out_xyz);

/* Hydrogen mass repartitioning (vkmd run --hmr): every hydrogen bonded to a
 * heavy atom gets `hydrogen_mass_amu`, taken from that atom (waters are left
 * alone), so 4 fs steps are stable. Call before vkmd_dynamics_create.
 * Errors: VKMD_ERROR_INVALID_ARGUMENT (masses then unchanged). */
VKMD_API vkmd_result vkmd_sys_repartition_hydrogen_mass(vkmd_sys *sys, double hydrogen_mass_amu);

/* Generalized Born implicit solvent (vkmd run --implicit ...), for a system
 * without a box whose prmtop has GB radii (RADII, SCREEN). Zero means
 * default for every field. */
typedef struct vkmd_implicit_desc {
    const char *model;         /* "hct", "obc1", "obc2", "gbn", "gbn2" (AMBER igb 1, 2, 5, 7,
                                  8; also "1", "2", "5", "7", "8"); NULL or "none": off */
    double salt_molar;         /* Debye-Hueckel screening, mol/L (0: none) */
    int ace;                   /* 1: ACE nonpolar term (OpenMM's default surface tension) */
    double solute_dielectric;  /* 1 */
    double solvent_dielectric; /* 78.5 */
    double cutoff_a;           /* 0: all pairs; else GB pairs within it only */
} vkmd_implicit_desc;

/* Sets (or, model NULL/"none", clears) the system's implicit solvent, used
 * by every later vkmd_dynamics_create and vkmd_sys_energy. Checked here:
 * VKMD_ERROR_INVALID_ARGUMENT for an unknown model, a system with a box,
 * a prmtop without GB radii, values out of range (nothing changed then). */
VKMD_API vkmd_result vkmd_sys_set_implicit_solvent(vkmd_sys *sys, const vkmd_implicit_desc *desc);

/* ---- Dynamics: MD of one system on one context --------------------------- */

typedef struct vkmd_dynamics vkmd_dynamics;

typedef enum vkmd_dynamics_integrator {
    VKMD_DYNAMICS_LANGEVIN = 0, /* Langevin middle (BAOAB, as OpenMM's), the default */
    VKMD_DYNAMICS_VERLET = 1    /* velocity Verlet (NVE) */
} vkmd_dynamics_integrator;

/* Positions and Lennard-Jones arithmetic on the device (docs/PRECISION.md). */
typedef enum vkmd_precision_mode {
    VKMD_PRECISION_MODE_AUTO = 0,   /* mixed, LJ arithmetic calibrated on the device */
    VKMD_PRECISION_MODE_SINGLE = 1, /* fp32 positions and LJ */
    VKMD_PRECISION_MODE_MIXED = 2,  /* split-float positions */
    VKMD_PRECISION_MODE_FIXED = 3   /* split-int positions: bitwise reproducible */
} vkmd_precision_mode;

/* Zero means default for every field; the defaults are those of vkmd run. */
typedef struct vkmd_dynamics_desc {
    vkmd_dynamics_integrator integrator; /* LANGEVIN */
    double dt_fs;                        /* 2 */
    double temperature_k;                /* 300: Langevin bath and initial velocities */
    double friction_per_ps;              /* 1 (Langevin) */
    uint64_t seed;                       /* 0: 1 (vkmd run's default); Langevin noise and
                                            initial velocities */
    int no_hbond_constraints;            /* 0: bonds to hydrogen constrained; 1: none */
    int flexible_water;                  /* 0: rigid waters (SETTLE); 1: flexible */
    double constraint_tol;               /* 1e-5, relative */
    int32_t com_every;                   /* 0: remove centre-of-mass motion every 100 steps;
                                            < 0: never */
    double cutoff_a;                     /* 9 A (non-bonded; periodic systems) */
    double ewald_tolerance;              /* 5e-4 (PME accuracy) */
    vkmd_precision_mode precision;       /* AUTO */
} vkmd_dynamics_desc;

/* Energies and temperature of the current state. */
typedef struct vkmd_dynamics_report {
    int64_t step;              /* steps done since creation */
    double time_ps;            /* step * dt */
    double potential_kcal_mol; /* every term below and the corrections */
    double kinetic_kcal_mol;   /* of the constrained velocities */
    double total_kcal_mol;     /* potential + kinetic */
    double temperature_k;      /* 2 KE / (dof k_B) */
    double bond_kcal_mol;      /* bonds */
    double angle_kcal_mol;     /* angles */
    double dihedral_kcal_mol;  /* proper and improper torsions */
    double lj_kcal_mol;        /* Lennard-Jones: pairs, 1-4, long-range correction */
    double coulomb_kcal_mol;   /* Coulomb: real and reciprocal space, 1-4, corrections */
    double solvation_kcal_mol; /* implicit solvent: generalized Born + nonpolar (0 without) */
} vkmd_dynamics_report;

/* Builds the force field, constraints and state of `sys` on `ctx` (`desc`
 * may be NULL), then, unless the system came with velocities, draws them at
 * temperature_k from the seed. `sys` is borrowed: it must outlive the
 * dynamics and not change. Errors: VKMD_ERROR_INVALID_ARGUMENT (a desc
 * field, named; a box shorter than twice the cutoff), device errors. */
VKMD_API vkmd_result vkmd_dynamics_create(vkmd_context *ctx, const vkmd_sys *sys,
                                          const vkmd_dynamics_desc *desc, vkmd_dynamics **out_dyn);

/* Frees the dynamics. NULL is a no-op. */
VKMD_API void vkmd_dynamics_destroy(vkmd_dynamics *dyn);

/* Runs `steps` (>= 0) steps and waits for them. Errors: device errors;
 * VKMD_ERROR_INVALID_ARGUMENT for steps < 0. */
VKMD_API vkmd_result vkmd_dynamics_step(vkmd_dynamics *dyn, int64_t steps);

/* Energies and temperature of the current state (reads the device). */
VKMD_API vkmd_result vkmd_dynamics_get_report(vkmd_dynamics *dyn, vkmd_dynamics_report *out_report);

/* Copies the current positions (A, whole molecules wrapped into the box) or
 * velocities (A/fs), xyz per atom, into out_xyz[3 * capacity_atoms].
 * Errors: VKMD_ERROR_INVALID_ARGUMENT (capacity_atoms < atom count), device
 * errors. */
VKMD_API vkmd_result vkmd_dynamics_get_positions(vkmd_dynamics *dyn, int32_t capacity_atoms,
                                                 double *out_xyz);
VKMD_API vkmd_result vkmd_dynamics_get_velocities(vkmd_dynamics *dyn, int32_t capacity_atoms,
                                                  double *out_xyz);

/* ---- Runs: what `vkmd run` does, for any client ------------------------- */

/* A run loads a system, sets up dynamics as vkmd_dynamics does, minimises,
 * equilibrates and steps to `steps`, writing DIR/energy.csv, DIR/traj.dcd,
 * DIR/final.pdb and DIR/checkpoint.chk, checking every report step (a
 * blown-up state stops the run and is replayed to name the step, the term
 * and the atoms), and calling the client's reporter. Checkpoints carry the
 * run's settings: one written here continues with `vkmd run --restart` (and
 * the reverse) given the same settings, and the continuation is bitwise the
 * run that did not stop. */
typedef struct vkmd_mdrun vkmd_mdrun;

/* Zero means default for every field; the defaults are those of vkmd run. */
typedef struct vkmd_mdrun_desc {
    const char *system;              /* required: "water:N" or an AMBER prmtop path */
    const char *coords;              /* NULL: the prmtop's .inpcrd or .rst7 (as vkmd_sys_load) */
    vkmd_dynamics_desc dynamics;     /* integrator, dt, temperature, seed (0: 1), precision ... */
    double hydrogen_mass_amu;        /* 0: no hydrogen mass repartitioning (vkmd run --hmr) */
    int64_t steps;                   /* 10000: the run's last step; < 0: none */
    int64_t report_every;            /* 1000; < 0: only at the last step */
    int64_t traj_every;              /* 0: report_every; < 0: no trajectory */
    int64_t checkpoint_every;        /* 0: the multiple of report_every nearest above 10000;
                                        < 0: only at the end and when stopped */
    int64_t equilibrate_steps;       /* 0: Langevin steps before the run, not reported */
    int minimize;                    /* 0; 1: minimise the energy first */
    double minimize_force_tol;       /* kcal/mol/A; 0: 10 kJ/mol/nm */
    int32_t minimize_max_iterations; /* 0: 10000 */
    const char *out_dir;             /* "vkmd_run" (created) */
    const char *restart;             /* NULL, or a checkpoint to continue (same settings) */
    int no_file_outputs;             /* 1: no energy.csv, traj.dcd, final.pdb (checkpoints stay) */
} vkmd_mdrun_desc;

/* One state of a run, as reporters see it (valid during the call only). */
typedef struct vkmd_mdrun_state {
    int64_t step;              /* run step */
    double time_ps;            /* step * dt */
    double potential_kcal_mol; /* as vkmd_dynamics_report */
    double kinetic_kcal_mol;
    double total_kcal_mol;
    double temperature_k;
    double ns_per_day; /* speed since the previous report; 0 when not measured */
    int32_t atom_count;
    const double *positions;  /* [3 * atom_count] A */
    const double *velocities; /* [3 * atom_count] A/fs */
    int start;                /* 1: the state the run starts from (not a new report) */
} vkmd_mdrun_state;

/* A client's view of a run; every callback may be NULL. A callback's error
 * ends the run with that error. */
typedef struct vkmd_mdrun_reporter {
    void *user;
    vkmd_result (*report)(void *user, const vkmd_mdrun_state *s); /* every report step */
    vkmd_result (*frame)(void *user, const vkmd_mdrun_state *s);  /* every trajectory frame */
    vkmd_result (*checkpoint)(void *user, int64_t step, const char *path);
    int (*stop_requested)(void *user);          /* nonzero: stop at the next report step */
    void (*note)(void *user, const char *text); /* a line of what the run does */
} vkmd_mdrun_reporter;

typedef enum vkmd_mdrun_end {
    VKMD_MDRUN_COMPLETE = 0,   /* every step */
    VKMD_MDRUN_INTERRUPTED = 2 /* stop_requested: stopped at a report step, checkpoint there */
} vkmd_mdrun_end;

typedef struct vkmd_mdrun_summary {
    vkmd_mdrun_end ended;
    int blown_up;                        /* 1: stopped at a bad state (VKMD_ERROR_NUMERIC) */
    int64_t first_step;                  /* 0, or the checkpoint's step */
    int64_t last_step;                   /* the step the run ended at */
    int64_t last_checkpoint_step;        /* -1: none */
    double wall_s;                       /* wall time of the steps */
    double ns_per_day;                   /* simulated ns per day of wall time */
    double mean_temperature_k;           /* over the report steps once a Langevin bath has
                                            taken hold (1/friction after step 0, at most
                                            the first half left out); Verlet: every one */
    double final_total_kcal_mol;         /* total energy at the end */
    double energy_drift_kcal_mol_per_ns; /* fit of the total energy over the reports */
} vkmd_mdrun_summary;

/* Checks `desc`, loads the system, checks a restart's checkpoint against it
 * and creates the output directory; no device work yet. The desc's strings
 * are borrowed until vkmd_mdrun_destroy. Errors: VKMD_ERROR_INVALID_ARGUMENT
 * (a field, named), those of vkmd_sys_load, VKMD_ERROR_IO. */
VKMD_API vkmd_result vkmd_mdrun_create(const vkmd_mdrun_desc *desc, vkmd_mdrun **out_run);

/* Runs on `ctx` (once per run) with `reporter` (may be NULL); out_summary
 * (may be NULL) is filled also after an error. Errors: device errors (the
 * last checkpoint holds the last good state), VKMD_ERROR_NUMERIC (blown up;
 * the message names the step, term and atoms), VKMD_ERROR_INVALID_ARGUMENT
 * (a restart with other settings: the first is named), I/O errors. */
VKMD_API vkmd_result vkmd_mdrun_execute(vkmd_mdrun *run, vkmd_context *ctx,
                                        const vkmd_mdrun_reporter *reporter,
                                        vkmd_mdrun_summary *out_summary);

/* The run's checkpoint file (DIR/checkpoint.chk; owned by the run) and the
 * step of its last good checkpoint (-1: none) in *out_step (may be NULL). */
VKMD_API const char *vkmd_mdrun_checkpoint(const vkmd_mdrun *run, int64_t *out_step);

/* Frees the run (before its context). NULL is a no-op. */
VKMD_API void vkmd_mdrun_destroy(vkmd_mdrun *run);

/* ---- Memory and devices -------------------------------------------------- */

/* Frees what a call below returned through a `char **` or array out
 * pointer (JSON text, molecule arrays). NULL is a no-op. */
VKMD_API void vkmd_free(void *p);

/* The Vulkan devices as `vkmd devices --json` prints them (one JSON
 * object: "devices", each with its index, name, type, driver, memory and
 * features, and the index picked by default), malloc'd into *out_json
 * (vkmd_free). Errors: VKMD_ERROR_VULKAN (no loader or instance),
 * VKMD_ERROR_NO_DEVICE (none; the message says what to install),
 * VKMD_ERROR_OUT_OF_MEMORY. */
VKMD_API vkmd_result vkmd_devices_json(char **out_json);

/* ---- One configuration's energy ------------------------------------------ */

/* Energies per term and forces of `sys`'s coordinates on ctx's device, as
 * `vkmd energy SYSTEM --device D --json` computes and prints them (same
 * force field settings, same arithmetic, same JSON writer): *out_json
 * (vkmd_free) is that object (energies kcal/mol under "energy_kcal_mol");
 * out_forces [3 * atom_count] kcal/mol/A (may be NULL). cutoff_a: 0 is 9 A;
 * precision as vkmd_dynamics_desc. The CPU double-precision reference is
 * the command's oracle and not in the library. Errors: those of
 * vkmd_dynamics_create's set-up (a box shorter than twice the cutoff),
 * device errors. */
VKMD_API vkmd_result vkmd_sys_energy(const vkmd_sys *sys, vkmd_context *ctx, double cutoff_a,
                                     vkmd_precision_mode precision, char **out_json,
                                     double *out_forces);

/* ---- Dynamics: state in and out, minimisation, checkpoints ---------------- */

/* Forces on the current positions, kcal/mol/A, xyz per atom, into
 * out_xyz[3 * capacity_atoms]. Errors: as vkmd_dynamics_get_positions. */
VKMD_API vkmd_result vkmd_dynamics_get_forces(vkmd_dynamics *dyn, int32_t capacity_atoms,
                                              double *out_xyz);

/* Replaces the positions (A; whole molecules, constraints satisfied, as
 * vkmd_dynamics_get_positions returns them) and, if `velocities` is not
 * NULL, the velocities (A/fs); forces are recomputed. `atom_count` must be
 * the system's. vkmd_dynamics_set_velocities keeps the positions. Errors:
 * VKMD_ERROR_INVALID_ARGUMENT (count, non-finite value), device errors. */
VKMD_API vkmd_result vkmd_dynamics_set_state(vkmd_dynamics *dyn, int32_t atom_count,
                                             const double *positions, const double *velocities);
VKMD_API vkmd_result vkmd_dynamics_set_velocities(vkmd_dynamics *dyn, int32_t atom_count,
                                                  const double *velocities);

/* The current periodic box edges, A (zeros and 0 returned for vacuum). */
VKMD_API int vkmd_dynamics_get_box(vkmd_dynamics *dyn, double out_len_a[3]);

/* Sets the box edges (A; each > 2 cutoffs), keeping the positions.
 * Errors: VKMD_ERROR_INVALID_ARGUMENT (vacuum, too small: nothing changed). */
VKMD_API vkmd_result vkmd_dynamics_set_box(vkmd_dynamics *dyn, const double len_a[3]);

/* Energy minimisation on the device (FIRE with the constraints, as vkmd run
 * --minimize) from the current positions; velocities are drawn again at the
 * desc's temperature afterwards. force_tol kcal/mol/A (0: 10 kJ/mol/nm),
 * max_iterations (0: 10000). out_max_force (may be NULL): the final largest
 * force, kcal/mol/A. Errors: device errors, VKMD_ERROR_NUMERIC. */
VKMD_API vkmd_result vkmd_dynamics_minimize(vkmd_dynamics *dyn, double force_tol,
                                            int32_t max_iterations, double *out_max_force);

/* Writes the exact state (step, box, positions, velocities) to a
 * checkpoint file (the format of vkmd run's, written atomically) and reads
 * one back into a dynamics of the same system: the continuation is bitwise
 * the run that did not stop. Errors: VKMD_ERROR_IO, VKMD_ERROR_PARSE (a
 * damaged file, named), VKMD_ERROR_INVALID_ARGUMENT (another system). */
VKMD_API vkmd_result vkmd_dynamics_save_checkpoint(vkmd_dynamics *dyn, const char *path);
VKMD_API vkmd_result vkmd_dynamics_load_checkpoint(vkmd_dynamics *dyn, const char *path);

/* ---- Trajectories: DCD files (CHARMM/NAMD layout, as MDTraj reads) -------- */

typedef struct vkmd_dcd vkmd_dcd;

/* Creates `path` for frames of `atom_count` atoms, each with a unit cell
 * if `periodic`; dt_fs and steps_per_frame (0: 1) go into the header.
 * Errors: VKMD_ERROR_IO naming the path, VKMD_ERROR_INVALID_ARGUMENT. */
VKMD_API vkmd_result vkmd_dcd_create(const char *path, int32_t atom_count, int periodic,
                                     double dt_fs, int32_t steps_per_frame, vkmd_dcd **out_dcd);

/* Appends one frame: xyz[3 * atom_count] A and the box edges (A; NULL or
 * zeros: no unit cell). Errors: VKMD_ERROR_IO. */
VKMD_API vkmd_result vkmd_dcd_append(vkmd_dcd *dcd, const double *xyz, const double box_a[3]);

/* Closes the file (frame count in the header); NULL is a no-op. Errors:
 * VKMD_ERROR_IO. */
VKMD_API vkmd_result vkmd_dcd_close(vkmd_dcd *dcd);

/* ---- UFF: molecules, batches of replicas ----------------------------------- */

/* A UFF molecule: elements, formal charges, Kekule bonds and one or more
 * conformers (coordinate sets). Typing and terms follow RDKit 2022.09's
 * UFF, as `vkmd uff`. */
typedef struct vkmd_uff_mol vkmd_uff_mol;

/* Loads every record of what `vkmd uff energy MOL` takes: a built-in name
 * ("formic-acid", "xylitol"), an SDF/MOL V2000 file (every record) or an
 * XYZ file (frames are conformers). *out_mols: an array of *out_count
 * molecules (each vkmd_uff_mol_destroy, the array vkmd_free). Errors:
 * VKMD_ERROR_IO, VKMD_ERROR_PARSE (path:line), VKMD_ERROR_INVALID_ARGUMENT. */
VKMD_API vkmd_result vkmd_uff_mol_load(const char *spec, vkmd_uff_mol ***out_mols,
                                       int32_t *out_count);

/* A molecule from arrays (e.g. an RDKit Mol, kekulised): z[atom_count]
 * atomic numbers, formal_charge[atom_count] (NULL: 0), bonds[3 *
 * bond_count] (atom a, atom b, order 1-3; 0-based), xyz[conformer_count *
 * atom_count * 3] A. `name` may be NULL. Errors: VKMD_ERROR_INVALID_ARGUMENT
 * (naming the bad atom or bond), VKMD_ERROR_OUT_OF_MEMORY. */
VKMD_API vkmd_result vkmd_uff_mol_create(const char *name, int32_t atom_count, const int32_t *z,
                                         const int32_t *formal_charge, int32_t bond_count,
                                         const int32_t *bonds, int32_t conformer_count,
                                         const double *xyz, vkmd_uff_mol **out_mol);

VKMD_API void vkmd_uff_mol_destroy(vkmd_uff_mol *mol);
VKMD_API int32_t vkmd_uff_mol_atom_count(const vkmd_uff_mol *mol);
VKMD_API int32_t vkmd_uff_mol_conformer_count(const vkmd_uff_mol *mol);
VKMD_API const char *vkmd_uff_mol_name(const vkmd_uff_mol *mol); /* owned by mol */

/* Copies atomic numbers out_z[atom_count] (may be NULL) and conformer c's
 * coordinates out_xyz[3 * atom_count] A (may be NULL). Errors:
 * VKMD_ERROR_INVALID_ARGUMENT (c out of range). */
VKMD_API vkmd_result vkmd_uff_mol_get(const vkmd_uff_mol *mol, int32_t c, int32_t *out_z,
                                      double *out_xyz);

/* A batch: R replicas of one or more molecules, each replica its own
 * coordinates, evaluated together (one dispatch on a device). */
typedef struct vkmd_uff_group vkmd_uff_group;

typedef struct vkmd_uff_group_desc {
    int include_interfragment; /* 0: no van der Waals between fragments (as RDKit) */
    double dielectric;         /* 1: Coulomb dielectric (molecules with charges only) */
} vkmd_uff_group_desc;

/* Types and builds the terms of the molecules mols[mol_count] (copied) and
 * R = replica_count replicas, replica r of molecule replica_molecule[r],
 * starting at its molecule's conformer 0. ctx (borrowed; outlives the
 * batch) is the device every call runs on. `desc` may be NULL. Errors:
 * typing and parameter errors (naming the atom), VKMD_ERROR_INVALID_ARGUMENT,
 * VKMD_ERROR_OUT_OF_MEMORY. */
VKMD_API vkmd_result vkmd_uff_group_create(vkmd_context *ctx, const vkmd_uff_mol *const *mols,
                                           int32_t mol_count, const int32_t *replica_molecule,
                                           int32_t replica_count, const vkmd_uff_group_desc *desc,
                                           vkmd_uff_group **out_batch);
VKMD_API void vkmd_uff_group_destroy(vkmd_uff_group *batch);
VKMD_API int32_t vkmd_uff_group_replica_count(const vkmd_uff_group *batch);
/* Atoms of all replicas; replica r's atoms start at its offset. */
VKMD_API int32_t vkmd_uff_group_atom_count(const vkmd_uff_group *batch);
VKMD_API int32_t vkmd_uff_group_replica_offset(const vkmd_uff_group *batch, int32_t replica);

/* Coordinates of every replica, batch order, xyz[3 * batch atom count], A.
 * Errors: VKMD_ERROR_INVALID_ARGUMENT (count, non-finite value). */
VKMD_API vkmd_result vkmd_uff_group_set_positions(vkmd_uff_group *batch, int32_t atom_count,
                                                  const double *xyz);
VKMD_API vkmd_result vkmd_uff_group_get_positions(const vkmd_uff_group *batch, int32_t atom_count,
                                                  double *out_xyz);

/* Energy terms per replica, kcal/mol, out_energy[VKMD_UFF_GROUP_TERMS * R] in
 * the order bond, angle, torsion, inversion, vdw, coulomb, total; forces
 * out_forces[3 * batch atom count] kcal/mol/A (may be NULL): as `vkmd uff
 * energy --device D` computes them. Errors: device errors. */
#define VKMD_UFF_GROUP_TERMS 7
VKMD_API vkmd_result vkmd_uff_group_evaluate(vkmd_uff_group *batch, double *out_energy,
                                             double *out_forces);

typedef enum vkmd_uff_minimizer {
    VKMD_UFF_MINIMIZER_LBFGS = 0, /* quasi-Newton as RDKit's BFGS (the default;
                                     docs/UFF_RELAX.md), L-BFGS with memory > 0 */
    VKMD_UFF_MINIMIZER_FIRE = 1   /* FIRE */
} vkmd_uff_minimizer;

/* Zero means default. What `vkmd uff relax --device D` runs. */
typedef struct vkmd_uff_group_relax_desc {
    vkmd_uff_minimizer minimizer; /* LBFGS */
    double force_tol;             /* LBFGS: RDKit's forceTol test on the scaled gradient, 1e-4;
                                     FIRE: max |F_atom| below it, 1e-3 kcal/mol/A */
    double energy_tol;      /* LBFGS only: relative energy change (RDKit's energyTol); 0 off */
    int32_t max_iterations; /* LBFGS 1000 line searches, FIRE 20000 steps, per replica */
    int32_t memory;         /* LBFGS only: 0 dense BFGS, 1..16 L-BFGS pairs */
} vkmd_uff_group_relax_desc;

typedef struct vkmd_uff_group_relax_result {
    double energy_initial_kcal_mol;
    double energy_final_kcal_mol;
    double max_force_kcal_mol_a; /* at the final coordinates */
    int32_t iterations;          /* line searches (LBFGS) or moves (FIRE) */
    int32_t evaluations;         /* energy + force evaluations, the start included */
    int converged;
} vkmd_uff_group_relax_result;

/* Relaxes every replica from its coordinates (replaced by the relaxed
 * ones), every replica at its own pace in one batch; out_results[R] may be
 * NULL. Errors: VKMD_ERROR_INVALID_ARGUMENT (a parameter out of range, an
 * LBFGS-only one with FIRE), VKMD_ERROR_NUMERIC, device errors. */
VKMD_API vkmd_result vkmd_uff_group_relax(vkmd_uff_group *batch,
                                          const vkmd_uff_group_relax_desc *desc,
                                          vkmd_uff_group_relax_result *out_results);

typedef struct vkmd_uff_group_md_desc {
    double dt_fs;           /* 0.5 */
    double temperature_k;   /* 300 */
    double friction_per_ps; /* 5 */
    uint64_t seed;          /* 0 */
} vkmd_uff_group_md_desc;

/* Langevin dynamics (BAOAB, as `vkmd uff md`) of every replica for
 * `steps` steps from its coordinates (replaced), velocities drawn at the
 * temperature on the first call, kept between calls (call k > 0 draws its
 * noise from seed + k * 0x9E3779B97F4A7C15, not the first call's stream
 * again). out_mean_temperature_k
 * [R] (may be NULL): each replica's mean temperature over the steps.
 * Errors: VKMD_ERROR_INVALID_ARGUMENT (a desc field), VKMD_ERROR_NUMERIC,
 * device errors. */
VKMD_API vkmd_result vkmd_uff_group_md(vkmd_uff_group *batch, const vkmd_uff_group_md_desc *desc,
                                       int32_t steps, double *out_mean_temperature_k);

typedef struct vkmd_uff_group_surface_desc {
    const char *substrate; /* required: "nacl", "graphene" or an extended-XYZ path */
    int morse;             /* 0: UFF LJ 12-6; 1: Morse with the same well */
    int grid;              /* 0: direct pair sums; 1: the potential grid */
    double spacing_a;      /* 0.1: grid spacing */
    double height_a;       /* 3.0: each replica's lowest atom this far above the top layer */
} vkmd_uff_group_surface_desc;

/* The replicas above a periodic substrate, as `vkmd uff energy --surface`:
 * each replica is moved in z (its coordinates replaced) so its lowest atom
 * is at height_a, then out_energy[R] gets the molecule-surface energies
 * (kcal/mol) and out_forces[3 * batch atoms] (may be NULL) the surface's
 * forces on each atom (kcal/mol/A; the UFF terms are not included).
 * Errors: substrate and grid errors (naming the file), device errors. */
VKMD_API vkmd_result vkmd_uff_group_surface(vkmd_uff_group *batch,
                                            const vkmd_uff_group_surface_desc *desc,
                                            double *out_energy, double *out_forces);

/* What the device computed for every interaction of one replica (geometry,
 * energy, derivative, force on each atom) as the JSON array of `vkmd uff
 * energy --debug-replica` (keys carry units), malloc'd (vkmd_free). Errors:
 * VKMD_ERROR_INVALID_ARGUMENT (replica out of range), device errors. */
VKMD_API vkmd_result vkmd_uff_group_debug_json(vkmd_uff_group *batch, int32_t replica,
                                               char **out_json);

#ifdef __cplusplus
}
#endif
#endif /* VKMD_H */
