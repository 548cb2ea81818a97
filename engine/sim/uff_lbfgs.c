/* Quasi-Newton minimisation of many UFF replicas on a Vulkan device (see
 * uff_lbfgs.h). Per evaluation: the force pass and shaders/uff_lbfgs.comp
 * recorded check_interval times into one replayable command buffer; the
 * host reads the per-replica state after each replay. Whole relaxation
 * (CPU devices): shaders/uff_relax_replica.comp once per molecule of the
 * batch, one submission. */
#include "sim/uff_lbfgs.h"
#include "common/layout_uff_lbfgs.h"
#include "core/clock.h"
#include "core/log.h"
#include "core/stop.h"
#include "forces/fixed_point.h"
#include "forces/pass_uff.h"
#include "vk/barrier.h"
#include "vk/command.h"
#include "vk/context.h"
#include "vk/pipeline.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(VKMD_UFF_LBFGS_MAX_MEMORY <= VKMD_UFF_LBFGS_DEVICE_MAX_MEMORY,
               "the shader holds every L-BFGS pair's coefficients");
_Static_assert(VKMD_UFF_RELAX_STEP == 2 && VKMD_UFF_RELAX_GRADIENT == 1 &&
                   VKMD_UFF_RELAX_ENERGY == 3,
               "uff_lbfgs.comp's status codes");

/* The whole relaxation's command buffers (1, 2, 4 ... dispatches, then
 * `rounds`, at most 64) and its ladder's steps (caps 1 ... 4096, then the
 * command buffers). */
#define WHOLE_MAX_CMDS  8
#define WHOLE_MAX_STEPS 24

struct vkmd_uff_lbfgs {
    vkmd_uff_lbfgs_params params;
    vkmd_pass_uff *pass;
    vkmd_vk_pipeline pipeline;
    vkmd_vk_descset set;
    int whole;           /* 1: uff_relax_replica.comp, the whole relaxation per invocation */
    int32_t whole_evals; /* evaluations per replica per submission, at least */
    vkmd_uff_relax_group *whole_groups; /* the group table's contents */
    uint32_t whole_group_count;
    int32_t whole_least, whole_most;        /* the molecules' evaluation budgets per dispatch */
    vkmd_vk_cmd whole_cmds[WHOLE_MAX_CMDS]; /* whole_dispatches[k] dispatches each */
    int32_t whole_dispatches[WHOLE_MAX_CMDS], whole_cmd_count;
    struct whole_step {
        int32_t cmd, cap; /* whole_cmds[cmd]; a.w at most cap */
    } whole_steps[WHOLE_MAX_STEPS];
    int32_t whole_step_count, whole_step; /* the ladder (whole_pace) and where it is */
    vkmd_vk_buffer planes, replicas, state, history, e0, group_table;
    vkmd_vk_cmd cmd, tail; /* check_interval evaluations; check_interval / 8 for the end */
    int32_t tail_interval;
    vkmd_uff_lbfgs_push push;
    int32_t atom_count, replica_count;
    uint32_t groups;
    int32_t submissions;
    uint32_t *table; /* [4 * replica_count]: the replicas buffer's contents */
};

int vkmd_uff_lbfgs_whole_replica(const vkmd_vk_context *ctx, int32_t memory)
{
    if (memory != 0)
        return 0;
    const char *e = getenv("VKMD_UFF_RELAX_REPLICA");
    if (e && *e)
        return strcmp(e, "0") != 0;
    return ctx->info.type == VK_PHYSICAL_DEVICE_TYPE_CPU;
}

static vkmd_result make_buffer(vkmd_vk_context *ctx, VkDeviceSize size, const char *name,
                               vkmd_vk_buffer *out)
{
    const vkmd_vk_buffer_desc d = {.size = size > 0 ? size : 16, .name = name};
    return vkmd_vk_buffer_create(ctx, &d, out);
}

/* `count` evaluations (force pass, then the minimiser) into *cmd. */
static vkmd_result record(vkmd_vk_context *ctx, vkmd_uff_lbfgs *lb, int32_t count, vkmd_vk_cmd *cmd)
{
    VKMD_TRY_RETURN(vkmd_vk_cmd_create(ctx, cmd));
    VKMD_TRY_RETURN(vkmd_vk_cmd_begin(ctx, cmd));
    vkmd_pass_uff_record_clear(lb->pass, cmd->cb);
    for (int32_t k = 0; k < count; ++k) {
        vkmd_pass_uff_record(lb->pass, cmd->cb);
        vkmd_vk_barrier_compute(cmd->cb);
        vkmd_vk_dispatch(cmd->cb, &lb->pipeline, &lb->set, &lb->push, lb->groups, 1, 1);
        vkmd_vk_barrier_compute(cmd->cb);
    }
    vkmd_vk_barrier_compute_to_transfer(cmd->cb);
    vkmd_vk_barrier_device_to_host(cmd->cb);
    return vkmd_vk_cmd_end(ctx, cmd);
}

/* llvmpipe ends every loop of an invocation once 65,535 loop iterations
 * have run in it, all loops together (gallivm's LP_MAX_TGSI_LOOP_ITERATIONS);
 * a dispatch of uff_relax_replica.comp stays below this. */
#define WHOLE_LOOP_LIMIT 60000

/* The whole-relaxation kernel pads a replica's coordinates (its private
 * arrays and the inverse Hessian's rows) to a multiple of 4 floats. */
static int64_t whole_padded(int64_t dim)
{
    return (dim + 3) / 4 * 4;
}

/* Loop iterations uff_relax_replica.comp runs per evaluation, at most, for
 * a molecule of `terms` terms and dim coordinates, counted from the shader:
 * the terms (and the runs of angles, torsions and pairs: at most one per
 * atom of each), the vector loops over dim (fewer than 16), the two sweeps
 * over the inverse Hessian of an accepted step (dim rows of np / 16 steps
 * of four vec4, at most 3 single vec4 after them, and the row loop) and
 * two resets to c I (np^2 / 16 steps each: the lanes of one SIMD vector can
 * take both reset paths in one evaluation, and the limiter counts the
 * vector's iterations). */
static int64_t whole_eval_loops(int64_t terms, int64_t dim)
{
    const int64_t np = whole_padded(dim);
    return terms + 16 + 19 * dim + 2 * dim * (np / 16 + 3 + 1) + 2 * (np * np / 16);
}

/* Evaluations per replica per dispatch for molecule m (the start counts as
 * one): what fits the loop limit after the saves; 0 if not even one fits
 * (the molecule is too large for the whole-relaxation kernel: about 120
 * atoms). */
static int32_t whole_budget(const vkmd_uff_batch *batch, int32_t m)
{
    int64_t terms = 0;
    for (int k = 0; k < VKMD_UFF_KIND_COUNT; ++k)
        terms += batch->molecule_term_count[m][k];
    const int64_t dim = 3 * (int64_t)batch->molecule_atom_count[m];
    const int64_t per = whole_eval_loops(terms, dim);
    const int64_t left = WHOLE_LOOP_LIMIT - 16 * dim;
    return left < per ? 0 : (int32_t)(left / per > 4096 ? 4096 : left / per);
}

/* A stop request is honoured between submissions, and a submission of the
 * whole relaxation grows with the replicas a device works through one after
 * another (a CPU device's threads: with 1,024 benzylpenicillin replicas, 10
 * dispatches of 7 evaluations each took 3 s on lavapipe's 2 threads). So
 * the submissions climb a ladder of efforts: one dispatch of at most 1, 2,
 * 4 ... evaluations per replica (a.w; the molecule's budget b.z at most),
 * then 2, 4 ... dispatches of the whole budget, up to `rounds` of them. The
 * first submission takes the lowest step; after each, the next climbs one
 * step if its work, in proportion to this one's time, fits the target, and
 * drops to the step that fits if this one took longer than the target.
 * The same arithmetic resumes from the saved state at any step, so the
 * results do not change (1,024 replicas: the same SDF bytes; xylitol
 * R = 1,000 on one thread within the run-to-run noise). */
#define WHOLE_SUBMISSION_TARGET_S 0.5

/* Evaluations per replica a step makes at most (the largest budget). */
static int64_t whole_step_work(const vkmd_uff_lbfgs *lb, int32_t s)
{
    const int32_t cap = lb->whole_steps[s].cap;
    return (int64_t)lb->whole_dispatches[lb->whole_steps[s].cmd] *
           (cap < lb->whole_most ? cap : lb->whole_most);
}

static vkmd_result whole_set_step(vkmd_vk_context *ctx, vkmd_uff_lbfgs *lb, int32_t s)
{
    const int32_t cap = lb->whole_steps[s].cap;
    lb->whole_step = s;
    for (uint32_t g = 0; g < lb->whole_group_count; ++g) {
        vkmd_uff_relax_group *grp = &lb->whole_groups[g];
        grp->a.w = grp->b.z < (uint32_t)cap ? grp->b.z : (uint32_t)cap;
    }
    lb->whole_evals = lb->whole_dispatches[lb->whole_steps[s].cmd] *
                      (lb->whole_least < cap ? lb->whole_least : cap);
    return vkmd_vk_buffer_upload(ctx, &lb->group_table, 0, lb->whole_groups,
                                 sizeof *lb->whole_groups * (VkDeviceSize)lb->whole_group_count);
}

static vkmd_result whole_pace(vkmd_vk_context *ctx, vkmd_uff_lbfgs *lb, double seconds)
{
    int32_t s = lb->whole_step;
    if (seconds > WHOLE_SUBMISSION_TARGET_S) {
        const double fits = (double)whole_step_work(lb, s) * WHOLE_SUBMISSION_TARGET_S / seconds;
        while (s > 0 && (double)whole_step_work(lb, s) > fits)
            --s;
    } else if (s + 1 < lb->whole_step_count &&
               seconds * (double)whole_step_work(lb, s + 1) <=
                   WHOLE_SUBMISSION_TARGET_S * (double)whole_step_work(lb, s)) {
        ++s;
    }
    if (s == lb->whole_step)
        return VKMD_OK;
    vkmd_log_debug("L-BFGS: a submission took %.3f s; from now on %d dispatches of at most %d "
                   "evaluations per replica",
                   seconds, lb->whole_dispatches[lb->whole_steps[s].cmd], lb->whole_steps[s].cap);
    return whole_set_step(ctx, lb, s);
}

/* The ladder of whole_pace (record_whole records its command buffers). */
static void whole_ladder(vkmd_uff_lbfgs *lb, int32_t rounds)
{
    lb->whole_cmd_count = 0;
    for (int32_t d = 1; d < rounds && lb->whole_cmd_count < WHOLE_MAX_CMDS - 1; d *= 2)
        lb->whole_dispatches[lb->whole_cmd_count++] = d;
    lb->whole_dispatches[lb->whole_cmd_count++] = rounds;
    lb->whole_step_count = 0;
    for (int32_t cap = 1;; cap *= 2) {
        const int32_t c = cap < lb->whole_most ? cap : lb->whole_most;
        lb->whole_steps[lb->whole_step_count++] = (struct whole_step){0, c};
        if (c == lb->whole_most)
            break;
    }
    for (int32_t k = 1; k < lb->whole_cmd_count; ++k)
        lb->whole_steps[lb->whole_step_count++] = (struct whole_step){k, lb->whole_most};
}

/* The whole relaxation's workgroups: each up to wg replicas of one
 * molecule (the batch groups slots by molecule), making at most its
 * molecule's budget of evaluations per replica per dispatch; `rounds`
 * dispatches over the batch into the ladder's last command buffer (and 1,
 * 2, 4 ... into the others), so that every running replica advances by at
 * least rounds x the smallest budget per submission at the ladder's top. */
static vkmd_result record_whole(vkmd_vk_context *ctx, vkmd_uff_lbfgs *lb,
                                const vkmd_uff_batch *batch, uint32_t wg)
{
    const vkmd_gpu_uvec4 *slots = batch->slots;
    vkmd_uff_relax_group *groups = calloc((size_t)batch->replica_count, sizeof *groups);
    if (!groups)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "whole-relaxation workgroups");
    uint32_t count = 0;
    int32_t least = 4096, largest = 1;
    for (int32_t k = 0; k < batch->replica_count;) {
        const uint32_t m = slots[k].w;
        int32_t end = k + 1;
        while (end < batch->replica_count && slots[end].w == m && (uint32_t)(end - k) < wg)
            ++end;
        const uint32_t dim = 3 * (uint32_t)batch->molecule_atom_count[m];
        const int32_t budget = whole_budget(batch, (int32_t)m);
        least = budget < least ? budget : least;
        largest = budget > largest ? budget : largest;
        groups[count++] = (vkmd_uff_relax_group){
            .a = {(uint32_t)k, (uint32_t)(end - k), batch->range_count + m, (uint32_t)budget},
            .b = {dim, (uint32_t)whole_padded(dim), (uint32_t)budget, 0}};
        k = end;
    }
    const int32_t rounds =
        least >= lb->params.check_interval ? 1 : (lb->params.check_interval + least - 1) / least;
    lb->whole_least = least;
    lb->whole_most = largest;
    whole_ladder(lb, rounds);
    vkmd_log_debug("L-BFGS: the whole-relaxation kernel, %u workgroups, %d dispatches per "
                   "submission, at least %d evaluations per replica each",
                   count, rounds, least);
    vkmd_uff_relax_push push = {.atom_count = (uint32_t)batch->atom_count,
                                .max_iterations = lb->push.max_iterations,
                                .force_tol = lb->push.force_tol,
                                .energy_tol = lb->push.energy_tol,
                                .max_step = lb->push.max_step,
                                .max_evaluations = 20 * (uint32_t)lb->params.max_iterations + 16};
    const uint32_t most = ctx->info.max_workgroup_count_x ? ctx->info.max_workgroup_count_x : 65535;
    vkmd_result res = VKMD_OK;
    for (int32_t k = 0; k < lb->whole_cmd_count && res == VKMD_OK; ++k) {
        vkmd_vk_cmd *cmd = &lb->whole_cmds[k];
        res = vkmd_vk_cmd_create(ctx, cmd);
        if (res == VKMD_OK)
            res = vkmd_vk_cmd_begin(ctx, cmd);
        if (res != VKMD_OK)
            break;
        for (int32_t round = 0; round < lb->whole_dispatches[k]; ++round) {
            for (uint32_t g0 = 0; g0 < count; g0 += most) {
                push.group_start = g0;
                vkmd_vk_dispatch(cmd->cb, &lb->pipeline, &lb->set, &push,
                                 count - g0 < most ? count - g0 : most, 1, 1);
            }
            vkmd_vk_barrier_compute(cmd->cb);
        }
        vkmd_vk_barrier_compute_to_transfer(cmd->cb);
        vkmd_vk_barrier_device_to_host(cmd->cb);
        res = vkmd_vk_cmd_end(ctx, cmd);
    }
    lb->whole_groups = groups;
    lb->whole_group_count = count;
    return res == VKMD_OK ? whole_set_step(ctx, lb, 0) : res;
}

/* Curvature memory (floats) of the batch: the whole-relaxation kernel pads
 * the inverse Hessian's rows to 4 floats. */
static uint64_t curvature_total(const vkmd_uff_batch *batch, const vkmd_uff_lbfgs_params *p,
                                int whole)
{
    uint64_t total = 0;
    for (int32_t r = 0; r < batch->replica_count; ++r) {
        uint64_t dim = 3 * (uint64_t)vkmd_uff_batch_replica_atoms(batch, r);
        dim = whole ? (uint64_t)whole_padded((int64_t)dim) : dim;
        total += p->memory == 0 ? dim * dim : 2 * (uint64_t)p->memory * dim;
    }
    return total;
}

vkmd_result vkmd_uff_lbfgs_create(vkmd_vk_context *ctx, const vkmd_uff_batch *batch,
                                  const vkmd_uff_lbfgs_params *params, vkmd_uff_lbfgs **out_lbfgs)
{
    vkmd_result res = VKMD_OK;
    *out_lbfgs = NULL;
    const vkmd_uff_lbfgs_params p = vkmd_uff_lbfgs_params_resolve(params);
    if ((res = vkmd_uff_lbfgs_params_check(&p)) != VKMD_OK)
        return res;
    /* The whole-relaxation kernel where the device wants it and every
     * molecule fits its per-dispatch loop budget (else the per-evaluation
     * kernel, which has no such limit). */
    int whole = vkmd_uff_lbfgs_whole_replica(ctx, p.memory);
    for (int32_t m = 0; m < batch->molecule_count && whole; ++m)
        if (whole_budget(batch, m) < 1) {
            vkmd_log_debug("L-BFGS: molecule %d (%d atoms) is too large for one evaluation per "
                           "whole-relaxation dispatch; the per-evaluation kernel runs the batch",
                           m + 1, batch->molecule_atom_count[m]);
            whole = 0;
        }
    for (int32_t m = 0; m < batch->molecule_count && p.memory == 0; ++m)
        if (3 * batch->molecule_atom_count[m] > VKMD_UFF_LBFGS_DENSE_MAX_DIM)
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "dense BFGS takes molecules of up to %d atoms (molecule %d has %d); "
                             "use L-BFGS memory (e.g. 8)",
                             VKMD_UFF_LBFGS_DENSE_MAX_DIM / 3, m + 1,
                             batch->molecule_atom_count[m]);
    uint64_t total = curvature_total(batch, &p, whole);
    /* The whole-relaxation kernel reads the inverse Hessians through one
     * texel view (vk/pipeline.h). */
    if (whole && !vkmd_vk_texels_fit(ctx, (VkDeviceSize)total / 4)) {
        vkmd_log_debug("L-BFGS: %.3g inverse-Hessian numbers exceed the device's texel view "
                       "(%u texels); the per-evaluation kernel runs the batch",
                       (double)total, ctx->limits.maxTexelBufferElements);
        whole = 0;
        total = curvature_total(batch, &p, whole);
    }
    if (total >= (1ull << 32))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "quasi-Newton minimiser: %.3g curvature numbers for %d replicas exceed "
                         "2^32; use L-BFGS memory (e.g. 8) or fewer replicas per batch",
                         (double)total, batch->replica_count);
    vkmd_uff_lbfgs *lb = calloc(1, sizeof *lb);
    if (!lb)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "L-BFGS");
    lb->params = p;
    lb->whole = whole;
    lb->atom_count = batch->atom_count;
    lb->replica_count = batch->replica_count;
    VKMD_TRY(vkmd_pass_uff_create(ctx, batch, NULL, &lb->pass));
    const char *shader = NULL;
    VKMD_TRY(vkmd_fixed_shader(ctx, "UFF L-BFGS",
                               lb->whole ? "uff_relax_replica.comp" : "uff_lbfgs.comp", &shader));

    /* Threads per replica: about one per 8 coordinates of the largest
     * replica, a power of two from 16 to 64. Every shared-memory reduction
     * level is a barrier, and on lavapipe xylitol (66 coordinates) relaxed
     * 25-30% faster with 16 threads than with 64 (vkmd bench --uff --relax
     * --replicas 100, back to back); GPUs are not measured yet. */
    int32_t most = 1;
    for (int32_t m = 0; m < batch->molecule_count; ++m)
        most = 3 * batch->molecule_atom_count[m] > most ? 3 * batch->molecule_atom_count[m] : most;
    uint32_t wg = 16;
    while (wg < VKMD_UFF_LBFGS_WORKGROUP_SIZE && 8 * wg < (uint32_t)most)
        wg *= 2;
    /* Whole relaxation: lanes are replicas; the subgroup (8 on lavapipe)
     * per workgroup, the private arrays as long as the largest molecule's
     * coordinates. */
    const uint32_t whole_wg = ctx->info.features.subgroup_size ? ctx->info.features.subgroup_size
                                                               : VKMD_UFF_RELAX_WORKGROUP_SIZE;
    const vkmd_vk_spec specs[] = {{VKMD_SPEC_WORKGROUP_SIZE, lb->whole ? whole_wg : wg},
                                  {VKMD_SPEC_LBFGS_MEMORY, (uint32_t)p.memory}};
    const vkmd_vk_spec whole_specs[] = {{VKMD_SPEC_WORKGROUP_SIZE, whole_wg},
                                        {VKMD_SPEC_UFF_RELAX_DIM, (uint32_t)whole_padded(most)}};
    const vkmd_vk_pipeline_desc pd = {
        .shader = shader,
        .buffer_count = lb->whole ? VKMD_UFF_RELAX_BINDING_COUNT : VKMD_UFF_LBFGS_BINDING_COUNT,
        .texel_count = lb->whole ? VKMD_UFF_RELAX_TEXEL_COUNT : 0,
        .push_size = lb->whole ? sizeof(vkmd_uff_relax_push) : sizeof(vkmd_uff_lbfgs_push),
        .specs = lb->whole ? whole_specs : specs,
        .spec_count = 2};
    VKMD_TRY(vkmd_vk_pipeline_create(ctx, &pd, &lb->pipeline));
    VKMD_TRY(make_buffer(
        ctx, 4 * (VkDeviceSize)VKMD_UFF_LBFGS_PLANE_COUNT * 3 * (VkDeviceSize)batch->atom_count,
        "L-BFGS planes", &lb->planes));
    VKMD_TRY(make_buffer(ctx, 16 * (VkDeviceSize)batch->replica_count, "L-BFGS replicas",
                         &lb->replicas));
    VKMD_TRY(make_buffer(ctx, sizeof(vkmd_uff_lbfgs_state) * (VkDeviceSize)batch->replica_count,
                         "L-BFGS state", &lb->state));
    VKMD_TRY(make_buffer(ctx, 4 * (VkDeviceSize)total, "L-BFGS curvature memory", &lb->history));
    VKMD_TRY(make_buffer(ctx, 16 * (VkDeviceSize)batch->replica_count, "L-BFGS energies", &lb->e0));
    if (lb->whole) /* at most one workgroup per replica */
        VKMD_TRY(make_buffer(ctx, sizeof(vkmd_uff_relax_group) * (VkDeviceSize)batch->replica_count,
                             "whole-relaxation workgroups", &lb->group_table));
    uint32_t *table = lb->table = calloc(4 * (size_t)batch->replica_count, sizeof *table);
    if (!table) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "L-BFGS replica table");
        goto cleanup;
    }
    uint64_t off = 0;
    for (int32_t r = 0; r < batch->replica_count; ++r) {
        const uint32_t na = (uint32_t)vkmd_uff_batch_replica_atoms(batch, r);
        table[4 * r] = (uint32_t)batch->replica_atom_offset[r];
        table[4 * r + 1] = na;
        table[4 * r + 2] = (uint32_t)off;
        const uint64_t dim = whole ? (uint64_t)whole_padded(3 * (int64_t)na) : 3 * (uint64_t)na;
        off += p.memory == 0 ? dim * dim : 2 * (uint64_t)p.memory * dim;
    }
    VKMD_TRY(vkmd_vk_buffer_upload(ctx, &lb->replicas, 0, table,
                                   16 * (VkDeviceSize)batch->replica_count));

    const vkmd_vk_buffer *bufs[VKMD_UFF_RELAX_BINDING_COUNT + VKMD_UFF_RELAX_TEXEL_COUNT];
    if (lb->whole) {
        bufs[VKMD_UFF_RELAX_BINDING_POSITIONS] = vkmd_pass_uff_positions(lb->pass);
        bufs[VKMD_UFF_RELAX_BINDING_PLANES] = &lb->planes;
        bufs[VKMD_UFF_RELAX_BINDING_REPLICAS] = &lb->replicas;
        bufs[VKMD_UFF_RELAX_BINDING_STATE] = &lb->state;
        bufs[VKMD_UFF_RELAX_BINDING_HISTORY] = &lb->history;
        bufs[VKMD_UFF_RELAX_BINDING_E0] = &lb->e0;
        bufs[VKMD_UFF_RELAX_BINDING_TERMS] = vkmd_pass_uff_terms(lb->pass);
        bufs[VKMD_UFF_RELAX_BINDING_RANGES] = vkmd_pass_uff_ranges(lb->pass);
        bufs[VKMD_UFF_RELAX_BINDING_SLOTS] = vkmd_pass_uff_slots(lb->pass);
        bufs[VKMD_UFF_RELAX_BINDING_GROUPS] = &lb->group_table;
        bufs[VKMD_UFF_RELAX_BINDING_HISTORY_TEXELS] = &lb->history;
        bufs[VKMD_UFF_RELAX_BINDING_TERMS_TEXELS] = vkmd_pass_uff_terms(lb->pass);
    } else {
        bufs[VKMD_UFF_LBFGS_BINDING_POSITIONS] = vkmd_pass_uff_positions(lb->pass);
        bufs[VKMD_UFF_LBFGS_BINDING_FORCES] = vkmd_pass_uff_forces(lb->pass);
        bufs[VKMD_UFF_LBFGS_BINDING_ENERGIES] = vkmd_pass_uff_energies(lb->pass);
        bufs[VKMD_UFF_LBFGS_BINDING_PLANES] = &lb->planes;
        bufs[VKMD_UFF_LBFGS_BINDING_REPLICAS] = &lb->replicas;
        bufs[VKMD_UFF_LBFGS_BINDING_STATE] = &lb->state;
        bufs[VKMD_UFF_LBFGS_BINDING_HISTORY] = &lb->history;
        bufs[VKMD_UFF_LBFGS_BINDING_E0] = &lb->e0;
    }
    VKMD_TRY(vkmd_vk_descset_create(ctx, &lb->pipeline, bufs, &lb->set));

    lb->push = (vkmd_uff_lbfgs_push){.replica_count = (uint32_t)batch->replica_count,
                                     .atom_count = (uint32_t)batch->atom_count,
                                     .max_iterations = (uint32_t)p.max_iterations,
                                     .force_tol = (float)p.force_tol,
                                     .energy_tol = (float)p.energy_tol,
                                     .max_step = (float)p.max_step_a};
    const uint32_t max_groups =
        ctx->info.max_workgroup_count_x ? ctx->info.max_workgroup_count_x : 65535;
    lb->groups =
        (uint32_t)batch->replica_count < max_groups ? (uint32_t)batch->replica_count : max_groups;

    /* check_interval evaluations: forces, then the minimiser, which leaves
     * the forces and energies zeroed for the next pass (one clear up front).
     * A second, shorter buffer serves once most replicas have stopped: the
     * pass still evaluates every replica, so evaluations recorded past the
     * last replica's end are wasted. */
    if (lb->whole) {
        VKMD_TRY(record_whole(ctx, lb, batch, whole_wg));
        *out_lbfgs = lb;
        return VKMD_OK;
    }
    lb->tail_interval = p.check_interval / 8 > 0 ? p.check_interval / 8 : 1;
    VKMD_TRY(record(ctx, lb, p.check_interval, &lb->cmd));
    VKMD_TRY(record(ctx, lb, lb->tail_interval, &lb->tail));
    *out_lbfgs = lb;
    return VKMD_OK;
cleanup:
    vkmd_uff_lbfgs_destroy(ctx, lb);
    return res;
}

vkmd_result vkmd_uff_lbfgs_run(vkmd_vk_context *ctx, vkmd_uff_lbfgs *lb, const double *xyz,
                               double *out_xyz, vkmd_uff_relax_result *out_results)
{
    vkmd_result res = VKMD_OK;
    VkCommandBuffer cb = VK_NULL_HANDLE;
    const int32_t n = lb->atom_count, nr = lb->replica_count;
    const size_t pn = 3 * (size_t)n; /* floats per plane */
    float *pl = calloc(VKMD_UFF_LBFGS_PLANE_COUNT * pn, sizeof *pl);
    vkmd_uff_lbfgs_state *st = calloc((size_t)nr, sizeof *st);
    vkmd_uff_energy *e0 = calloc((size_t)nr, sizeof *e0);
    vkmd_uff_energy *e1 = calloc((size_t)nr, sizeof *e1);
    double *f = calloc(3 * (size_t)n, sizeof *f);
    if (!pl || !st || !e0 || !e1 || !f) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "L-BFGS run of %d atoms", n);
        goto cleanup;
    }
    lb->submissions = 0;
    /* Start: the pass's positions (float) and energies; x0 as float plus its
     * residue; every replica in phase START. */
    VKMD_TRY(vkmd_pass_uff_evaluate(ctx, lb->pass, xyz, NULL, e0));
    for (size_t i = 0; i < pn; ++i) {
        const float hi = (float)xyz[i];
        pl[VKMD_UFF_LBFGS_X0_HI * pn + i] = hi;
        pl[VKMD_UFF_LBFGS_X0_LO * pn + i] = (float)(xyz[i] - (double)hi);
    }
    VKMD_TRY(vkmd_vk_buffer_upload(ctx, &lb->planes, 0, pl,
                                   4 * (VkDeviceSize)VKMD_UFF_LBFGS_PLANE_COUNT * pn));
    VKMD_TRY(vkmd_vk_buffer_upload(ctx, &lb->state, 0, st, sizeof *st * (VkDeviceSize)nr));

    /* Each iteration takes at least one evaluation, a line search rarely
     * more than a few: bound the replays generously. */
    const int64_t max_evals = 20 * (int64_t)lb->params.max_iterations + 16;
    int64_t evals = 0;
    int32_t running = nr;
    for (;;) {
        /* The short buffer once fewer than half the replicas run (the
         * whole-relaxation kernel has one: stopped replicas cost nothing). */
        const int tail = 2 * running < nr && !lb->whole;
        const double t0 = vkmd_clock_now_s();
        VKMD_TRY(vkmd_vk_cmd_submit_wait(
            ctx, lb->whole ? &lb->whole_cmds[lb->whole_steps[lb->whole_step].cmd]
                 : tail    ? &lb->tail
                           : &lb->cmd));
        if (lb->whole)
            VKMD_TRY(whole_pace(ctx, lb, vkmd_clock_now_s() - t0));
        evals += lb->whole ? lb->whole_evals : tail ? lb->tail_interval : lb->params.check_interval;
        ++lb->submissions;
        VKMD_TRY(vkmd_vk_buffer_readback(ctx, &lb->state, 0, st, sizeof *st * (VkDeviceSize)nr));
        running = 0;
        for (int32_t r = 0; r < nr; ++r)
            running += st[r].u.x != VKMD_UFF_LBFGS_PHASE_DONE;
        /* A stop request (core/stop.h) ends the relaxation here: every
         * replica still running is reported where it is, not converged. */
        if (running == 0 || evals >= max_evals || vkmd_stop_requested())
            break;
    }

    /* Final energies and forces at the final float positions. */
    VKMD_TRY(vkmd_vk_oneshot_begin(ctx, &cb));
    vkmd_pass_uff_record_clear(lb->pass, cb);
    vkmd_pass_uff_record(lb->pass, cb);
    vkmd_vk_barrier_compute_to_transfer(cb);
    VKMD_TRY(vkmd_vk_oneshot_submit(ctx, cb));
    VKMD_TRY(vkmd_pass_uff_readback(ctx, lb->pass, f, e1));
    VKMD_TRY(vkmd_vk_buffer_readback(ctx, &lb->planes, 0, pl, 4 * (VkDeviceSize)2 * pn));
    for (size_t i = 0; i < pn; ++i)
        if (!isfinite(pl[VKMD_UFF_LBFGS_X0_HI * pn + i])) {
            res = vkmd_fail(VKMD_ERROR_NUMERIC,
                            "L-BFGS: atom %d of the batch moved to a non-finite position",
                            (int)(i / 3));
            goto cleanup;
        }
    if (out_xyz)
        for (size_t i = 0; i < pn; ++i)
            out_xyz[i] = (double)pl[VKMD_UFF_LBFGS_X0_HI * pn + i] +
                         (double)pl[VKMD_UFF_LBFGS_X0_LO * pn + i];
    if (out_results) {
        for (int32_t r = 0; r < nr; ++r) {
            double fmax, frms;
            vkmd_uff_force_norms(f + 3 * (size_t)lb->table[4 * r], (int32_t)lb->table[4 * r + 1],
                                 &fmax, &frms);
            const int done = st[r].u.x == VKMD_UFF_LBFGS_PHASE_DONE;
            const int32_t status = done ? (int32_t)st[r].u.w : VKMD_UFF_RELAX_RUNNING;
            out_results[r] = (vkmd_uff_relax_result){.energy_initial = e0[r].total,
                                                     .energy_final = e1[r].total,
                                                     .fmax = fmax,
                                                     .frms = frms,
                                                     .iterations = (int32_t)st[r].u.y,
                                                     .evaluations = (int32_t)st[r].u.z,
                                                     .status = status,
                                                     .converged = status != VKMD_UFF_RELAX_RUNNING};
        }
    }
cleanup:
    free(pl);
    free(st);
    free(e0);
    free(e1);
    free(f);
    return res;
}

int32_t vkmd_uff_lbfgs_submissions(const vkmd_uff_lbfgs *lb)
{
    return lb->submissions;
}

void vkmd_uff_lbfgs_destroy(vkmd_vk_context *ctx, vkmd_uff_lbfgs *lb)
{
    if (!lb)
        return;
    vkmd_vk_cmd_destroy(ctx, &lb->cmd);
    vkmd_vk_cmd_destroy(ctx, &lb->tail);
    for (int32_t k = 0; k < WHOLE_MAX_CMDS; ++k)
        vkmd_vk_cmd_destroy(ctx, &lb->whole_cmds[k]);
    vkmd_vk_descset_destroy(ctx, &lb->set);
    vkmd_vk_buffer_destroy(ctx, &lb->e0);
    vkmd_vk_buffer_destroy(ctx, &lb->group_table);
    vkmd_vk_buffer_destroy(ctx, &lb->history);
    vkmd_vk_buffer_destroy(ctx, &lb->state);
    vkmd_vk_buffer_destroy(ctx, &lb->replicas);
    vkmd_vk_buffer_destroy(ctx, &lb->planes);
    vkmd_vk_pipeline_destroy(ctx, &lb->pipeline);
    vkmd_pass_uff_destroy(ctx, lb->pass);
    free(lb->whole_groups);
    free(lb->table);
    free(lb);
}
