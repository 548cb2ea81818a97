/* Temperature replica exchange (REMD): the exchange logic of an ensemble of
 * replicas, with no MPI and no device in it, so that any driver (the MPI
 * `vkmd ensemble`, a test's toy model, a Python client) shares one
 * implementation.
 *
 * A ladder of R temperatures (ascending, K) is held by R replicas, one
 * temperature each. Every exchange attempt k (k = 0, 1, ...) tries the
 * neighbouring temperature pairs (i, i + 1) with i even when k is even and i
 * odd when k is odd. For the replicas a (at T_i) and b (at T_{i+1}) with
 * potential energies U_a, U_b (kcal/mol) the swap is accepted with the
 * Metropolis probability
 *     min(1, exp((beta_i - beta_{i+1}) (U_a - U_b))),  beta = 1 / (k_B T),
 * which satisfies detailed balance for the product of the replicas'
 * canonical distributions. An accepted swap exchanges the two replicas'
 * temperatures; each replica keeps its coordinates and scales its
 * velocities by sqrt(T_new / T_old) (vkmd_remd_velocity_scale).
 *
 * The uniform deviate of pair i at attempt k is a Philox4x32-10 word keyed by
 * the ensemble's seed with counter (i, k low, k high, VKMD_REMD_STREAM): it
 * depends only on (seed, k, i), so every rank can draw it, and a restart
 * that carries k continues the same stream bitwise.
 *
 * The state (ladder, the temperature index of each replica, the attempt
 * counter, per-pair counts) is saved and loaded as a small text file
 * (vkmd_remd_save / vkmd_remd_load) beside the replicas' own checkpoints. */
#ifndef VKMD_RUN_REMD_H
#define VKMD_RUN_REMD_H

#include "core/result.h"

#include <stdint.h>

#define VKMD_REMD_MAX_REPLICAS 256
#define VKMD_REMD_STREAM       0x52454d44u /* "REMD": the exchange's Philox stream word */

typedef struct vkmd_remd {
    int32_t replica_count;                         /* R, 2 .. VKMD_REMD_MAX_REPLICAS */
    uint64_t seed;                                 /* the exchange random stream's key */
    int64_t attempt;                               /* exchange attempts made so far */
    double temperature_k[VKMD_REMD_MAX_REPLICAS];  /* the ladder, ascending, K */
    int32_t temp_index[VKMD_REMD_MAX_REPLICAS];    /* replica -> its temperature index */
    int64_t pair_tries[VKMD_REMD_MAX_REPLICAS];    /* per pair (i, i + 1): attempts */
    int64_t pair_accepted[VKMD_REMD_MAX_REPLICAS]; /* ... and accepted swaps */
} vkmd_remd;

/* One tried pair of an exchange attempt (vkmd_remd_exchange's output). */
typedef struct vkmd_remd_pair {
    int32_t pair;       /* temperature indices pair, pair + 1 */
    int32_t replica_lo; /* the replica that was at T[pair] before the attempt */
    int32_t replica_hi; /* the replica that was at T[pair + 1] */
    double probability; /* min(1, exp(...)) */
    int accepted;       /* 1: the two swapped temperatures */
} vkmd_remd_pair;

/* Starts an ensemble: replica r at temperature index r. `temperatures_k`
 * must be strictly ascending and positive, count 2 .. VKMD_REMD_MAX_REPLICAS.
 * Errors: VKMD_ERROR_INVALID_ARGUMENT naming the problem. */
vkmd_result vkmd_remd_init(vkmd_remd *remd, const double *temperatures_k, int32_t count,
                           uint64_t seed);

/* A geometric ladder of `count` temperatures from t_min_k to t_max_k
 * (T_i = t_min (t_max / t_min)^(i / (count - 1))). */
vkmd_result vkmd_remd_ladder_geometric(double t_min_k, double t_max_k, int32_t count,
                                       double *out_temperatures_k);

/* Parses a ladder: "T1,T2,..." (K, ascending) or, for a range,
 * "TMIN:TMAX:COUNT" (geometric). Errors name the text and the problem. */
vkmd_result vkmd_remd_ladder_parse(const char *text, double *out_temperatures_k,
                                   int32_t *out_count);

/* The uniform deviate in (0, 1) that decides pair `pair` at attempt
 * `attempt`. */
double vkmd_remd_uniform(uint64_t seed, int64_t attempt, int32_t pair);

/* The Metropolis probability of swapping a replica with potential u_lo at
 * t_lo and one with potential u_hi at t_hi (kcal/mol, K). */
double vkmd_remd_probability(double t_lo_k, double t_hi_k, double u_lo, double u_hi);

/* One exchange attempt: `potential_by_replica[r]` is replica r's potential
 * energy (kcal/mol) at this step. Decides the pairs of this attempt's parity,
 * updates temp_index and the counts, advances `attempt`. out_pairs (room for
 * replica_count / 2 entries, may be NULL) gets each tried pair;
 * *out_pair_count (may be NULL) their number. A non-finite potential is an
 * error (VKMD_ERROR_NUMERIC) and changes nothing. */
vkmd_result vkmd_remd_exchange(vkmd_remd *remd, const double *potential_by_replica,
                               vkmd_remd_pair *out_pairs, int32_t *out_pair_count);

/* The factor that velocities are scaled by when a replica's bath goes from
 * t_old_k to t_new_k: sqrt(t_new / t_old). */
double vkmd_remd_velocity_scale(double t_old_k, double t_new_k);

/* The temperature (K) replica r holds now. */
double vkmd_remd_temperature_of(const vkmd_remd *remd, int32_t replica);

/* Writes the state to `path` (through path.tmp and a rename, so a crash never
 * leaves a half-written file) as text with every double at 17 digits.
 * Errors: VKMD_ERROR_IO naming the path. */
vkmd_result vkmd_remd_save(const vkmd_remd *remd, int64_t step, const char *path);

/* Reads a state written by vkmd_remd_save; *out_step (may be NULL) is the
 * step it was saved at. Errors: VKMD_ERROR_IO (cannot read), VKMD_ERROR_PARSE
 * naming path:line and what was expected. */
vkmd_result vkmd_remd_load(const char *path, vkmd_remd *remd, int64_t *out_step);

/* A restart's exchange state: reads `path` into *inout when it was saved at
 * `step` (the replicas' checkpoints') for the ladder and seed *inout holds
 * (what the restarted run asks for). Errors: those of vkmd_remd_load,
 * VKMD_ERROR_INVALID_ARGUMENT naming the difference; *inout is kept then. */
vkmd_result vkmd_remd_load_matching(const char *path, int64_t step, vkmd_remd *inout);

#endif
