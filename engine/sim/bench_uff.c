/* The UFF benchmark (see bench_uff.h). */
#include "sim/bench_uff.h"
#include "forces/pass_uff.h"
#include "system/uff_batch.h"
#include "system/uff_molecule.h"
#include "system/uff_terms.h"
#include "vk/command.h"
#include "vk/timer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* xorshift64*: the displacements of the starts. */
static double rnd(uint64_t *rng)
{
    *rng ^= *rng >> 12;
    *rng ^= *rng << 25;
    *rng ^= *rng >> 27;
    return (double)((*rng * 0x2545F4914F6CDD1Dull) >> 11) / 9007199254740992.0;
}

static int cmp_int(const void *a, const void *b)
{
    return *(const int32_t *)a - *(const int32_t *)b;
}

/* Median of the first n of v (sorted here). */
static double median_of(int32_t *v, int32_t n)
{
    if (n == 0)
        return 0;
    qsort(v, (size_t)n, sizeof *v, cmp_int);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* The size bucket of a molecule of `atoms` atoms. */
static int size_bucket(int32_t atoms)
{
    const int b = (atoms - 1) / VKMD_BENCH_UFF_BUCKET_SIZE;
    return b < VKMD_BENCH_UFF_BUCKETS ? b : VKMD_BENCH_UFF_BUCKETS - 1;
}

/* The relaxation's figures by molecule size (out->buckets). */
static vkmd_result fill_buckets(const vkmd_uff_batch *batch, const vkmd_uff_relax_result *fr,
                                vkmd_bench_uff_result *out)
{
    const int32_t n = batch->replica_count;
    int32_t *steps = malloc(sizeof *steps * (size_t)(n > 0 ? n : 1));
    if (!steps)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "bench --uff: %d replicas", n);
    for (int32_t mol = 0; mol < batch->molecule_count; ++mol)
        ++out->buckets[size_bucket(batch->molecule_atom_count[mol])].molecules;
    for (int b = 0; b < VKMD_BENCH_UFF_BUCKETS; ++b) {
        vkmd_bench_uff_bucket *k = &out->buckets[b];
        int32_t m = 0;
        for (int32_t r = 0; r < n; ++r) {
            if (size_bucket(vkmd_uff_batch_replica_atoms(batch, r)) != b)
                continue;
            ++k->replicas;
            k->converged += fr[r].converged != 0;
            k->evaluations += fr[r].evaluations;
            k->max_steps = fr[r].iterations > k->max_steps ? fr[r].iterations : k->max_steps;
            steps[m++] = fr[r].iterations;
        }
        k->median_steps = median_of(steps, m);
    }
    free(steps);
    return VKMD_OK;
}

/* One replica count: GPU ms per pass and evaluations per second, and the
 * relaxation's figures with relax. */
static vkmd_result bench_replicas(vkmd_vk_context *ctx, const vkmd_uff_relax_set *set,
                                  int32_t replicas, int repeat, const vkmd_uff_relax_params *relax,
                                  uint64_t *rng, vkmd_bench_uff_result *out)
{
    vkmd_uff_relax_result *fr = NULL;
    int32_t *steps = NULL, *rep_mol = NULL;
    vkmd_result res = VKMD_OK;
    vkmd_uff_batch batch = {0};
    vkmd_pass_uff *pass = NULL;
    vkmd_vk_timer timer = {0};
    vkmd_vk_cmd cmd = {0};
    double *xyz = NULL;
    const int32_t n0 = set->replica_count;
    memset(out, 0, sizeof *out);
    if (n0 < 1)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "bench --uff: no record to relax");
    rep_mol = malloc(sizeof *rep_mol * (size_t)replicas);
    if (!rep_mol)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "bench --uff: %d replicas", replicas);
    for (int32_t r = 0; r < replicas; ++r)
        rep_mol[r] = set->replica_molecule[r % n0];
    VKMD_TRY(vkmd_uff_batch_build(set->terms_of, set->molecule_count, rep_mol, replicas, &batch));
    xyz = malloc(sizeof *xyz * 3 * (size_t)batch.atom_count);
    if (!xyz) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "bench --uff: %d atoms", batch.atom_count);
        goto cleanup;
    }
    for (int32_t r = 0; r < replicas; ++r) {
        const double *x0 = set->start + 3 * (size_t)set->batch.replica_atom_offset[r % n0];
        for (int32_t i = 0; i < 3 * vkmd_uff_batch_replica_atoms(&batch, r); ++i)
            xyz[3 * (size_t)batch.replica_atom_offset[r] + i] = x0[i] + 0.4 * (rnd(rng) - 0.5);
    }
    VKMD_TRY(vkmd_pass_uff_create(ctx, &batch, NULL, &pass));
    VKMD_TRY(vkmd_pass_uff_upload_positions(ctx, pass, xyz));
    VKMD_TRY(vkmd_vk_timer_create(ctx, 2, &timer));
    VKMD_TRY(vkmd_vk_cmd_create(ctx, &cmd));
    VKMD_TRY(vkmd_vk_cmd_begin(ctx, &cmd));
    vkmd_vk_timer_record_reset(cmd.cb, &timer);
    vkmd_vk_timer_record_mark(cmd.cb, &timer, 0);
    vkmd_pass_uff_record_clear(pass, cmd.cb);
    vkmd_pass_uff_record(pass, cmd.cb);
    vkmd_vk_timer_record_mark(cmd.cb, &timer, 1);
    VKMD_TRY(vkmd_vk_cmd_end(ctx, &cmd));
    VKMD_TRY(vkmd_vk_cmd_submit_wait(ctx, &cmd)); /* warm-up: pipeline compiled */
    double gpu_ns = 0, wall = 0;
    for (int it = 0; it < repeat; ++it) {
        double t0 = now_s(), ns;
        VKMD_TRY(vkmd_vk_cmd_submit_wait(ctx, &cmd));
        wall += now_s() - t0;
        VKMD_TRY(vkmd_vk_timer_elapsed_ns(ctx, &timer, 0, 1, &ns));
        gpu_ns += ns;
    }
    out->replicas = replicas;
    out->gpu_ms_per_batch = gpu_ns * 1e-6 / repeat;
    out->wall_ms_per_batch = wall * 1e3 / repeat;
    out->evals_per_s = replicas / (out->gpu_ms_per_batch * 1e-3);
    if (relax) {
        fr = calloc((size_t)replicas, sizeof *fr);
        steps = calloc((size_t)replicas, sizeof *steps);
        if (!fr || !steps) {
            res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "bench --uff: %d replicas", replicas);
            goto cleanup;
        }
        /* The pass and pipelines are made inside, as a user's call makes
         * them: included in the time. */
        double t0 = now_s();
        VKMD_TRY(vkmd_uff_relax_batch(ctx, &batch, relax, xyz, NULL, fr, &out->relax_host_checks));
        out->relax_s = now_s() - t0;
        out->relax_per_s = replicas / out->relax_s;
        for (int32_t r = 0; r < replicas; ++r) {
            out->relax_converged += fr[r].converged != 0;
            out->relax_evaluations += fr[r].evaluations;
            steps[r] = fr[r].iterations;
        }
        out->relax_median_steps = median_of(steps, replicas);
        out->relax_max_steps = steps[replicas - 1];
        out->relax_evals_per_s = (double)out->relax_evaluations / out->relax_s;
        VKMD_TRY(fill_buckets(&batch, fr, out));
    }
cleanup:
    free(fr);
    free(steps);
    free(rep_mol);
    vkmd_vk_cmd_destroy(ctx, &cmd);
    vkmd_vk_timer_destroy(ctx, &timer);
    vkmd_pass_uff_destroy(ctx, pass);
    vkmd_uff_batch_free(&batch);
    free(xyz);
    return res;
}

vkmd_result vkmd_bench_uff_run(vkmd_vk_context *ctx, const vkmd_uff_relax_set *set,
                               const int32_t *replicas, int count, int repeat,
                               const vkmd_uff_relax_params *relax, vkmd_bench_uff_result *out)
{
    vkmd_result res = VKMD_OK;
    uint64_t rng = 0x2545F4914F6CDD1Dull; /* one stream over every replica count */
    for (int k = 0; k < count && res == VKMD_OK; ++k)
        res = bench_replicas(ctx, set, replicas[k], repeat, relax, &rng, &out[k]);
    return res;
}

vkmd_result vkmd_bench_uff_write(const char *path, const char *molecule, const char *device,
                                 double cpu_evals_per_s, const char *minimizer,
                                 const vkmd_bench_uff_result *res, int nrep)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return vkmd_fail(VKMD_ERROR_IO, "%s: cannot open for writing", path);
    fprintf(f,
            "{\n  \"benchmark\": \"uff\",\n  \"molecule\": \"%s\",\n  \"units\": {\"time\": "
            "\"ms\", \"rate\": \"replica evaluations per second\"},\n  \"device\": \"%s\","
            "\n  \"commit\": \"%s\",\n  \"cpu_reference_evals_per_s\": %.3f,\n  "
            "\"minimizer\": \"%s\",\n  \"runs\": [\n",
            molecule, device, VKMD_GIT_COMMIT, cpu_evals_per_s, minimizer ? minimizer : "none");
    for (int k = 0; k < nrep; ++k) {
        fprintf(f,
                "    {\"replicas\": %d, \"gpu_ms_per_batch\": %.6f, \"wall_ms_per_batch\": "
                "%.6f, \"evals_per_s\": %.3f, \"relax_s\": %.6f, \"relaxations_per_s\": "
                "%.6f, \"relax_converged\": %d, \"relax_max_steps\": %d, "
                "\"relax_median_steps\": %.1f, \"relax_evaluations\": %lld, "
                "\"relax_evals_per_s\": %.3f, \"relax_host_checks\": %d, \"relax_by_atoms\": [",
                res[k].replicas, res[k].gpu_ms_per_batch, res[k].wall_ms_per_batch,
                res[k].evals_per_s, res[k].relax_s, res[k].relax_per_s, res[k].relax_converged,
                res[k].relax_max_steps, res[k].relax_median_steps,
                (long long)res[k].relax_evaluations, res[k].relax_evals_per_s,
                res[k].relax_host_checks);
        const char *sep = "";
        for (int b = 0; b < VKMD_BENCH_UFF_BUCKETS; ++b) {
            const vkmd_bench_uff_bucket *u = &res[k].buckets[b];
            if (u->replicas == 0)
                continue;
            char hi[16] = "null"; /* the last bucket has no upper bound */
            if (b + 1 < VKMD_BENCH_UFF_BUCKETS)
                snprintf(hi, sizeof hi, "%d", (b + 1) * VKMD_BENCH_UFF_BUCKET_SIZE);
            fprintf(f,
                    "%s{\"atoms_min\": %d, \"atoms_max\": %s, \"molecules\": %d, "
                    "\"replicas\": %d, \"converged\": %d, \"median_steps\": %.1f, "
                    "\"max_steps\": %d, \"evaluations\": %lld}",
                    sep, b * VKMD_BENCH_UFF_BUCKET_SIZE + 1, hi, u->molecules, u->replicas,
                    u->converged, u->median_steps, u->max_steps, (long long)u->evaluations);
            sep = ", ";
        }
        fprintf(f, "]}%s\n", k + 1 < nrep ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
    if (fclose(f) != 0)
        return vkmd_fail(VKMD_ERROR_IO, "%s: write failed", path);
    return VKMD_OK;
}
