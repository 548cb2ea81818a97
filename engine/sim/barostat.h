/* Monte Carlo barostat (as OpenMM's MonteCarloBarostat, AMBER's barostat = 2):
 * between batches of MD steps, every `every` steps, one trial change of the
 * box volume. Whole molecules move with the box (their centres of mass are
 * scaled, engine/maths/volume_move.h), so constraints stay satisfied; the
 * trial state's energy is evaluated on the device and the move is accepted
 * with probability min(1, exp(-(dU + P dV - N_mol kT ln(V'/V)) / kT)); a
 * rejected move puts the saved state back bit for bit (positions,
 * velocities, forces, energies, box). Velocities are never scaled.
 *
 * Random numbers: Philox (core/philox.h) keyed by the MD seed, counter
 * (0, step low, step high, VKMD_BAROSTAT_STREAM): a restart at any step draws
 * the same numbers without a stored random state.
 *
 * Step size: starts at 1% of the volume; after every 10 attempts of a kind,
 * an acceptance below 0.25 scales it by 0.9, above 0.75 by 1.1 (at most 30%
 * of the volume). Kinds: iso, one (all edges by one factor); aniso, three
 * (x, y, z, one edge per attempt, chosen at random); membrane, two (x and y
 * by one factor: an area move, in slot 0; or z alone, in slot 2), chosen at
 * random with equal odds.
 *
 * Refused (vkmd_md_desc_resolve, vkmd_md_create, vkmd_md_set_pressure):
 * velocity Verlet (NVE has no temperature), vacuum systems, a negative or
 * non-finite pressure (0 turns the barostat off). A trial box with an edge
 * below 2 cutoffs is rejected as a move (counted as an attempt). */
#ifndef VKMD_SIM_BAROSTAT_H
#define VKMD_SIM_BAROSTAT_H

#include "core/result.h"
#include "forces/forcefield.h"
#include "system/box.h"
#include "system/molecules.h"
#include "system/system.h"
#include "vk/context.h"

#include <stdint.h>

typedef enum vkmd_barostat_mode {
    VKMD_BAROSTAT_ISO = 0,     /* one factor for x, y and z (default) */
    VKMD_BAROSTAT_ANISO = 1,   /* x, y or z alone, each its own step size */
    VKMD_BAROSTAT_MEMBRANE = 2 /* x and y together (same factor), or z alone */
} vkmd_barostat_mode;

#define VKMD_BAROSTAT_STREAM 2u /* Philox stream (0: Langevin noise, 1: velocities) */
#define VKMD_BAROSTAT_SLOTS  3  /* step sizes / counters per move kind */

/* "iso", "aniso", "membrane" ("?" outside the enum). */
const char *vkmd_barostat_mode_name(vkmd_barostat_mode mode);

/* What carries over a restart, and the statistics. Slots: iso [0]; aniso
 * [0] x, [1] y, [2] z; membrane [0] x and y, [2] z. */
typedef struct vkmd_barostat_state {
    double step_a3[VKMD_BAROSTAT_SLOTS]; /* volume step sizes, A^3 (0: not started) */
    int64_t attempts[VKMD_BAROSTAT_SLOTS];
    int64_t accepted[VKMD_BAROSTAT_SLOTS];
    int32_t window_attempts[VKMD_BAROSTAT_SLOTS]; /* since the last step-size change */
    int32_t window_accepted[VKMD_BAROSTAT_SLOTS];
} vkmd_barostat_state;

typedef struct vkmd_barostat vkmd_barostat;

/* What a trial move needs of the simulation it changes (sim/md fills it:
 * the barostat knows no MD). `user` is passed back to every call. */
typedef struct vkmd_barostat_target {
    const vkmd_system *sys;
    const vkmd_molecules *molecules; /* whole molecules move with the box */
    uint64_t step;                   /* the current step (keys the random numbers) */
    vkmd_box cell;                   /* the current box */
    double cutoff_a;                 /* a trial box narrower than 2 cutoffs is rejected */
    void *user;
    /* The current positions [3 N] (A, whole molecules). */
    vkmd_result (*read_positions)(vkmd_vk_context *ctx, void *user, double *out_x);
    /* The energy of the current state (as summed by the last evaluation). */
    vkmd_result (*energy)(vkmd_vk_context *ctx, void *user, vkmd_energy *out);
    /* Saves the state; puts the saved state back bit for bit. */
    vkmd_result (*save)(vkmd_vk_context *ctx, void *user);
    vkmd_result (*restore)(vkmd_vk_context *ctx, void *user);
    /* Sets the box and positions and evaluates the energy there. */
    vkmd_result (*set_cell_state)(vkmd_vk_context *ctx, void *user, const vkmd_box *cell,
                                  const double *x);
} vkmd_barostat_target;

/* pressure_bar > 0, every >= 1, kt > 0 (kcal/mol). Errors:
 * VKMD_ERROR_INVALID_ARGUMENT, VKMD_ERROR_OUT_OF_MEMORY. */
vkmd_result vkmd_barostat_create(double pressure_bar, int32_t every, vkmd_barostat_mode mode,
                                 double kt, uint64_t seed, int64_t molecule_count,
                                 vkmd_barostat **out);
void vkmd_barostat_destroy(vkmd_barostat *b); /* NULL: no-op */

/* Changes the pressure (bar, > 0) of later attempts; the step sizes stay. */
void vkmd_barostat_set_pressure(vkmd_barostat *b, double pressure_bar);

/* One trial move of the target (its state between steps) at its current
 * step: reads positions and energy, scales, evaluates, accepts or restores.
 * *out_accepted (may be NULL) says which. Errors: device errors. */
vkmd_result vkmd_barostat_attempt(vkmd_vk_context *ctx, vkmd_barostat *b,
                                  const vkmd_barostat_target *t, int *out_accepted);

const vkmd_barostat_state *vkmd_barostat_state_get(const vkmd_barostat *b);
void vkmd_barostat_state_set(vkmd_barostat *b, const vkmd_barostat_state *state);

#endif
