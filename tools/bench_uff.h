/* vkmd bench --uff (bench_uff.c): replica evaluations per second of the
 * multi-replica UFF pass. */
#ifndef VKMD_TOOLS_BENCH_UFF_H
#define VKMD_TOOLS_BENCH_UFF_H

#include "core/result.h"
#include "vk/context.h"

#include <stdint.h>

typedef struct bench_uff_result {
    int32_t replicas;
    double gpu_ms_per_batch;  /* GPU time of one clear + pass over every replica, ms */
    double wall_ms_per_batch; /* the same with submit and fence wait, ms */
    double evals_per_s;       /* replicas / GPU time */
    double relax_s;           /* wall time of FIRE on every replica (0: not run) */
    double relax_per_s;       /* replicas / relax_s */
    int32_t relax_converged;  /* replicas that met the force tolerance */
    int32_t relax_max_steps;  /* most FIRE steps any replica took */
} bench_uff_result;

/* Times `count` replica counts of `molecule` (a built-in name or file) on
 * `ctx`; with `relax`, also FIRE relaxations of every replica (default
 * tolerance, max |F| < 1e-3 kcal/mol/A) from the same displaced starts;
 * *out_cpu_evals_per_s: the CPU double reference, one replica at a time.
 * Errors: loading, typing, pass and Vulkan errors. */
vkmd_result bench_uff_run(vkmd_vk_context *ctx, const char *molecule, const int32_t *replicas,
                          int count, int repeat, int relax, bench_uff_result *out,
                          double *out_cpu_evals_per_s);

#endif
