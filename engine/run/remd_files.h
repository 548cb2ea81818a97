/* The files of an ensemble of replicas beside each replica's own run outputs
 * (run/run.h: DIR/replica_<r>/energy.csv, traj.dcd, checkpoint.chk), for any
 * driver of run/remd.h (vkmd-mpi ensemble, a Python or test driver); no MPI
 * and no device here:
 *   - replicas.csv: one row per round (step, time, each replica's
 *     temperature index during the steps that led to it, each replica's
 *     potential energy), and exchange.csv: every tried pair (step, pair,
 *     the two temperatures and replicas, their potentials, the Metropolis
 *     probability, accepted); on a restart both are cut back to the
 *     checkpoint's step and continued;
 *   - DIR/temperature_<i>.dcd: the frames sampled at ladder temperature i,
 *     gathered from the replicas that held it (vkmd_remd_demux);
 *   - the ensemble's summary: per replica speed and temperatures, per pair
 *     acceptance, as text or JSON (ensemble.json). */
#ifndef VKMD_RUN_REMD_FILES_H
#define VKMD_RUN_REMD_FILES_H

#include "run/remd.h"
#include "system/system.h"

#include <stdint.h>
#include <stdio.h>

typedef struct vkmd_remd_logs {
    FILE *replicas; /* DIR/replicas.csv */
    FILE *exchange; /* DIR/exchange.csv; NULL without exchanges (independent walkers) */
    int32_t replica_count;
} vkmd_remd_logs;

/* Opens DIR/replicas.csv (and DIR/exchange.csv when `exchange`) for
 * `replica_count` replicas: new files with their column line, or with
 * `restart` the existing files cut back to the rows at or before `max_step`
 * (the checkpoint's) and opened for appending. On failure nothing stays
 * open. Errors: VKMD_ERROR_IO naming the file. */
vkmd_result vkmd_remd_logs_open(vkmd_remd_logs *logs, const char *dir, int32_t replica_count,
                                int exchange, int restart, int64_t max_step);

/* One round's row of replicas.csv: t_index[r] the temperature index replica
 * r held during the steps that led to `step`, potential[r] its potential
 * energy there (kcal/mol). */
void vkmd_remd_logs_round(vkmd_remd_logs *logs, int64_t step, double time_ps,
                          const int32_t *t_index, const double *potential);

/* The `count` tried pairs of an exchange attempt (vkmd_remd_exchange's
 * output; potential as in vkmd_remd_logs_round) as exchange.csv rows. */
void vkmd_remd_logs_pairs(vkmd_remd_logs *logs, int64_t step, const vkmd_remd *remd,
                          const vkmd_remd_pair *pairs, int32_t count, const double *potential);

/* Flushes both files (at a checkpoint). Errors: VKMD_ERROR_IO. */
vkmd_result vkmd_remd_logs_flush(vkmd_remd_logs *logs);

/* Closes both files (NULL members are fine) and zeroes *logs. */
void vkmd_remd_logs_close(vkmd_remd_logs *logs);

/* DIR/temperature_<i>.dcd for each of the `replica_count` ladder
 * temperatures, from DIR/replica_<r>/traj.dcd and DIR/replicas.csv: the
 * frame of replica r at step s was sampled at the temperature index r held
 * during the steps up to s, which is replicas.csv's t_index_r in the first
 * row at or after s (frames every traj_every steps, which divides the
 * exchange interval). `sys` gives the atoms and whether frames carry a box.
 * Errors: VKMD_ERROR_IO and the DCD reader's and writer's. */
vkmd_result vkmd_remd_demux(const char *dir, int32_t replica_count, const vkmd_system *sys,
                            double dt_fs, int64_t traj_every);

/* One replica's figures for the summary. */
typedef struct vkmd_ensemble_replica {
    double ns_per_day;
    double wall_s;
    double mean_temperature_k; /* run/reporter.h's, over its reports */
    double sd_temperature_k;
    double final_potential_kcal_mol;
} vkmd_ensemble_replica;

/* The ensemble's summary of `count` replicas that ran `steps` steps each,
 * as text (with `out_dir` named) or as one JSON object; `remd` (NULL:
 * independent replicas) adds each replica's final temperature and every
 * pair's acceptance. */
void vkmd_ensemble_summary_write(FILE *out, int json, const vkmd_ensemble_replica *replicas,
                                 int32_t count, int64_t steps, int64_t exchange_every,
                                 const vkmd_remd *remd, const char *out_dir);

#endif
