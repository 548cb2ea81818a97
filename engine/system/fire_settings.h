/* The settings and reports of vkmd's two FIRE minimisers (Bitzek et al.,
 * PRL 97, 170201, 2006), shared by the device drivers (sim/minimize.h for the
 * AMBER force field, sim/uff_fire.h for UFF replicas) and their CPU
 * references (ref/ref_minimize.h, ref/ref_uff_fire.h): FIRE's own
 * parameters (one struct, vkmd_fire_params, that both descriptors hold), the
 * descriptors with their defaults and range checks, the per-run reports and
 * the seeded perturbation of UFF starting coordinates. See the drivers'
 * headers for the algorithm and the reasons behind each default. No Vulkan.
 *
 * Surprise: each descriptor holds its FIRE parameters in an anonymous union
 * of `fire` (a vkmd_fire_params) and a struct of the same fields under the
 * descriptor's own names (dt_start_fs, f_inc, ...), so `d.fire` is the one
 * struct the algorithm takes and `d.f_inc` is d.fire.f_inc, the same
 * storage (the _Static_asserts in fire_settings.c pin every offset). */
#ifndef VKMD_SYSTEM_FIRE_SETTINGS_H
#define VKMD_SYSTEM_FIRE_SETTINGS_H

#include "core/result.h"

#include <stdint.h>

/* ---- FIRE itself (both minimisers) -------------------------------------- */
/* The paper's constants, both minimisers' defaults. */
#define VKMD_FIRE_N_MIN       5
#define VKMD_FIRE_F_INC       1.1
#define VKMD_FIRE_F_DEC       0.5
#define VKMD_FIRE_ALPHA_START 0.1
#define VKMD_FIRE_F_ALPHA     0.99

/* FIRE's parameters. Times are in the minimiser's unit (fs for the AMBER
 * force field, UFF's unit-mass time for UFF: see the drivers' headers). Zero
 * fields take their defaults in the descriptors' resolve functions. */
typedef struct vkmd_fire_params {
    double dt_start;    /* the minimiser's: initial time step */
    double dt_max;      /* the minimiser's: dt never grows past it */
    double max_step_a;  /* the minimiser's: cap on one atom's move per step, A */
    int32_t n_min;      /* VKMD_FIRE_N_MIN: P > 0 steps in a row before dt grows */
    double f_inc;       /* VKMD_FIRE_F_INC: dt growth factor */
    double f_dec;       /* VKMD_FIRE_F_DEC: dt shrink factor at a reset (P <= 0) */
    double alpha_start; /* VKMD_FIRE_ALPHA_START: mixing at the start and after a reset */
    double f_alpha;     /* VKMD_FIRE_F_ALPHA: alpha decay factor */
} vkmd_fire_params;

/* `p` with its zero fields replaced: dt_start, dt_max and max_step_a by the
 * given ones (the minimiser's defaults), the rest by the paper's. */
vkmd_fire_params vkmd_fire_params_resolve(const vkmd_fire_params *p, double dt_start, double dt_max,
                                          double max_step_a);

/* 1 when every field of a resolved set is in range (dt_start > 0, dt_max >=
 * dt_start, max_step_a > 0, n_min >= 0, f_inc >= 1, 0 < f_dec < 1,
 * 0 < alpha_start < 1, 0 < f_alpha <= 1), else 0. */
int vkmd_fire_params_valid(const vkmd_fire_params *p);

/* ---- AMBER force field (sim/minimize.h) ---------------------------------- */
/* Defaults (see the file comment for the reasons). */
#define VKMD_MINIMIZE_FORCE_TOL      0.2390057361376673 /* kcal/mol/A = 10 kJ/mol/nm */
#define VKMD_MINIMIZE_MAX_ITERATIONS 10000
#define VKMD_MINIMIZE_CHECK_INTERVAL 50
#define VKMD_MINIMIZE_DT_START_FS    0.2
#define VKMD_MINIMIZE_MAX_STEP_A     0.1

/* Called with the energy (kcal/mol) and max |f| (kcal/mol/A) at the
 * positions after `iteration` moves: by the device path at the start and
 * after every batch, by the reference at every iteration. */
typedef void (*vkmd_minimize_progress_fn)(void *user, int32_t iteration, double energy,
                                          double max_force);

/* Zero fields take their defaults. */
typedef struct vkmd_minimize_desc {
    double force_tol;       /* VKMD_MINIMIZE_FORCE_TOL kcal/mol/A: 10 kJ/mol/nm, GROMACS's
                               emtol and OpenMM's minimiser tolerance; converged when
                               max_atoms |f_i| < force_tol */
    int32_t max_iterations; /* VKMD_MINIMIZE_MAX_ITERATIONS moves */
    int32_t check_interval; /* VKMD_MINIMIZE_CHECK_INTERVAL iterations per command buffer */
    union {
        vkmd_fire_params fire; /* FIRE's parameters, also under the names below */
        struct {
            double dt_start_fs; /* VKMD_MINIMIZE_DT_START_FS */
            double dt_max_fs;   /* 10 * dt_start_fs */
            double max_step_a;  /* VKMD_MINIMIZE_MAX_STEP_A: cap on one atom's move */
            int32_t n_min;      /* 5 */
            double f_inc;       /* 1.1 */
            double f_dec;       /* 0.5 */
            double alpha_start; /* 0.1 */
            double f_alpha;     /* 0.99 */
        };
    };
    double constraint_tol; /* reference only: 1e-5 (relative, as vkmd_sim_constraints_desc);
                              the device uses its constraints object's */
    vkmd_minimize_progress_fn progress; /* NULL */
    void *progress_user;                /* NULL */
} vkmd_minimize_desc;

typedef struct vkmd_minimize_result {
    int32_t iterations;     /* moves made */
    double energy_initial;  /* kcal/mol at the start (constrained start with constraints) */
    double energy_final;    /* kcal/mol at the final positions */
    double max_force;       /* max_atoms |f_i| at the final positions, kcal/mol/A (f
                               constrained when constraints are given) */
    double rms_force;       /* sqrt(sum_i |f_i|^2 / N) there */
    int converged;          /* 1 when max_force < force_tol */
    int stopped;            /* 1: a stop request (core/stop.h) ended it early, not converged;
                               the positions are those after `iterations` moves */
    int32_t batches;        /* command buffers replayed (device); 0 for the reference */
    int32_t list_regrowths; /* neighbour-list overflows recovered from (device) */
} vkmd_minimize_result;

/* `d` (may be NULL) with every zero field replaced by its default. */
vkmd_minimize_desc vkmd_minimize_desc_resolve(const vkmd_minimize_desc *d);

/* VKMD_ERROR_INVALID_ARGUMENT naming the first parameter out of range of a
 * resolved desc, else VKMD_OK. */
vkmd_result vkmd_minimize_desc_check(const vkmd_minimize_desc *d);

/* ---- UFF replicas (sim/uff_fire.h) --------------------------------------- */
#define VKMD_UFF_FIRE_MAX_FORCE 0 /* converged when max_a |F_a| < ftol */
#define VKMD_UFF_FIRE_RMS_FORCE 1 /* converged when sqrt(sum |F_a|^2 / N) < ftol */

typedef struct vkmd_uff_fire_params {
    double ftol;       /* 1e-3 kcal/mol/A */
    int criterion;     /* 0: VKMD_UFF_FIRE_MAX_FORCE; VKMD_UFF_FIRE_RMS_FORCE */
    int32_t max_steps; /* 20000 FIRE steps per replica */
    union {
        vkmd_fire_params fire; /* FIRE's parameters, also under the names below */
        struct {
            double dt_start;    /* 0.01 (sim/uff_fire.h gives the time unit) */
            double dt_max;      /* 0.05 */
            double max_step_a;  /* 0.1 A: cap on one atom's displacement per step */
            int32_t n_min;      /* 5 */
            double f_inc;       /* 1.1 */
            double f_dec;       /* 0.5 */
            double alpha_start; /* 0.1 */
            double f_alpha;     /* 0.99 */
        };
    };
    int32_t check_interval; /* 100: steps recorded per command buffer between host checks */
} vkmd_uff_fire_params;

/* `p` with every zero field replaced by its default (p may be NULL). */
vkmd_uff_fire_params vkmd_uff_fire_params_resolve(const vkmd_uff_fire_params *p);

/* VKMD_ERROR_INVALID_ARGUMENT naming the first parameter of a resolved set
 * that is out of range. */
vkmd_result vkmd_uff_fire_params_check(const vkmd_uff_fire_params *p);

/* Outcome of one replica's minimisation. */
typedef struct vkmd_uff_fire_result {
    double energy_initial; /* kcal/mol at the start */
    double energy_final;   /* kcal/mol at the final coordinates */
    double fmax;           /* max_a |F_a| at the final coordinates, kcal/mol/A */
    double frms;           /* RMS force at the final coordinates, kcal/mol/A */
    int32_t steps;         /* FIRE steps taken (moves) */
    int converged;         /* 1 when the criterion was met within max_steps */
} vkmd_uff_fire_result;

/* Displaces `xyz` ([3 * atom_count] A) by a uniform random amount in
 * [-amplitude_a, amplitude_a] per coordinate into out_xyz (may be xyz). The
 * numbers come from splitmix64 seeded with seed + 0x9E3779B97F4A7C15 *
 * (replica + 1), one 53-bit double per coordinate in atom-major order, so
 * the same (seed, replica) give the same start everywhere
 * (tests/oracles/uff_relax_rdkit.py repeats it for RDKit). */
void vkmd_uff_perturb(const double *xyz, int32_t atom_count, double amplitude_a, uint64_t seed,
                      uint32_t replica, double *out_xyz);

#endif
