/* The UFF benchmark behind `vkmd bench --uff`, beside the passes it
 * measures: replica evaluations (energy + forces) per second of the
 * multi-replica pass (forces/pass_uff.h), from GPU timestamps around one
 * clear + pass averaged over `repeat` submissions after a warm-up; with
 * relax, relaxations of every replica per second (sim/uff_relax.h: the
 * quasi-Newton minimiser or FIRE; wall time, host checks included), the
 * iterations each replica needed (median, max) and the energy evaluations
 * per second inside the relaxation (every replica's evaluations over the
 * wall time), also by molecule size (buckets of 16 atoms). Replicas cycle
 * through the records of the molecule file (a relaxation set,
 * system/uff_relax_set.h: records of different molecules make one mixed
 * batch), each its record's first conformer displaced by up to 0.2 A per
 * coordinate (a fixed generator, so every run times the same starts). */
#ifndef VKMD_SIM_BENCH_UFF_H
#define VKMD_SIM_BENCH_UFF_H

#include "core/result.h"
#include "system/uff_molecule.h"
#include "system/uff_terms.h"
#include "sim/uff_relax.h"
#include "system/uff_relax_set.h"
#include "vk/context.h"

#include <stdint.h>
#include <stdio.h>

/* Molecule sizes, 16 atoms a bucket: 1-16, 17-32, ..., 81 and more. */
#define VKMD_BENCH_UFF_BUCKETS     6
#define VKMD_BENCH_UFF_BUCKET_SIZE 16

/* The relaxation of the replicas of one size bucket (within the run of the
 * whole mixed batch: the time is the batch's). */
typedef struct vkmd_bench_uff_bucket {
    int32_t molecules, replicas, converged;
    int32_t max_steps;
    double median_steps;
    int64_t evaluations;
} vkmd_bench_uff_bucket;

typedef struct vkmd_bench_uff_result {
    int32_t replicas;
    double gpu_ms_per_batch;   /* GPU time of one clear + pass over every replica, ms */
    double wall_ms_per_batch;  /* the same with submit and fence wait, ms */
    double evals_per_s;        /* replicas / GPU time */
    double relax_s;            /* wall time of relaxing every replica (0: not run) */
    double relax_per_s;        /* replicas / relax_s */
    int32_t relax_converged;   /* replicas that met the convergence tests */
    int32_t relax_max_steps;   /* most iterations (L-BFGS) or steps (FIRE) any replica took */
    double relax_median_steps; /* their median */
    int64_t relax_evaluations; /* energy + gradient evaluations, all replicas */
    double relax_evals_per_s;  /* relax_evaluations / relax_s */
    int32_t relax_host_checks; /* command-buffer submissions */
    vkmd_bench_uff_bucket buckets[VKMD_BENCH_UFF_BUCKETS]; /* by molecule size, with relax */
} vkmd_bench_uff_result;

/* Times each of the `count` replica counts replicas[k] of the records of
 * `set` (borrowed; replica r starts from the start of set replica r modulo
 * its replica count, displaced) on ctx into out[k]; with relax (NULL:
 * none), also relaxations with those parameters of every replica from the
 * same displaced starts. Errors: pass, minimiser, Vulkan and memory
 * errors. */
vkmd_result vkmd_bench_uff_run(vkmd_vk_context *ctx, const vkmd_uff_relax_set *set,
                               const int32_t *replicas, int count, int repeat,
                               const vkmd_uff_relax_params *relax, vkmd_bench_uff_result *out);

/* Writes the `nrep` results res[] of `molecule` on `device` (its name), with
 * the CPU reference's rate for scale and the minimiser's name ("L-BFGS",
 * "FIRE"; NULL: no relaxation), as one JSON object ("benchmark": "uff") to
 * `path`. Errors: VKMD_ERROR_IO naming the path. */
vkmd_result vkmd_bench_uff_write(const char *path, const char *molecule, const char *device,
                                 double cpu_evals_per_s, const char *minimizer,
                                 const vkmd_bench_uff_result *res, int nrep);

/* The results as `vkmd bench --uff` prints them: a row per replica count
 * (ms per batch on the GPU and wall, evaluations/s), with the relaxation's
 * figures when `minimizer` ("L-BFGS", "FIRE") is not NULL, and then a line
 * per size bucket that holds replicas (bench_tables.c). */
void vkmd_bench_uff_write_table(FILE *out, const char *molecule, const vkmd_vk_device_info *d,
                                const char *minimizer, const vkmd_bench_uff_result *res, int nrep);

#endif
