/* Batches of MD steps (see md.h): the pass-by-pass step and the fused one
 * (sim/step.h) recorded into command buffers that are replayed, and the
 * host loop that runs them.
 *
 * Gated batches (a periodic system on a device with conditional rendering,
 * vk/conditional.h): every step's dispatches are conditional on its word of
 * the neighbour list's gate, and no step records the list's rebuild except,
 * when the list asks for one (a halt, a new box or state), the first. A
 * check that finds an atom may pass the rebuild trigger by the next check
 * halts the batch after its own step (forces/pass_neighbor.h): the later
 * steps are skipped on the device, the batch's end (wrap, step counter)
 * still runs, the step counter advances by the steps run, and the host
 * starts the next batch, with the rebuild at its first step, from there. So
 * a step that does not rebuild records no rebuild work and no step waits on
 * the host. A rebuild due at a step that records none anyway (the look
 * ahead was wrong) marks the list `missed`: the batch is put back from its
 * backups and repeated with a rebuild recorded at every step, as the
 * batches of devices without conditional rendering always are.
 *
 * Steps record no transfer command (a gated batch would not skip one): the
 * kicks clear the force accumulators after reading them and the PME
 * conversion leaves the charge grid zero. */
#include "sim/md_impl.h"

#include "core/log.h"
#include "core/stop.h"
#include "forces/pass_neighbor.h"
#include "vk/barrier.h"
#include "vk/conditional.h"
#include "vk/pipeline.h"
#include "vk/stats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- recording ---------------------------------------------------------- */

static void dispatch(const vkmd_md *md, VkCommandBuffer cb, uint32_t mode, uint32_t threads,
                     const vkmd_md_push *push)
{
    uint32_t groups = vkmd_vk_div_up(threads, VKMD_MD_WORKGROUP_SIZE);
    if (groups == 0)
        groups = 1;
    vkmd_vk_dispatch(cb, &md->pipe[mode], &md->set[mode], push, groups, 1, 1);
}

void md_copy_buffer(VkCommandBuffer cb, const vkmd_vk_buffer *src, const vkmd_vk_buffer *dst)
{
    const VkBufferCopy region = {.size = src->size < dst->size ? src->size : dst->size};
    vkCmdCopyBuffer(cb, src->buffer, dst->buffer, 1, &region);
}

static void record_constrain_positions(const vkmd_md *md, VkCommandBuffer cb, float dt_fs)
{
    if (md->cset.constraint_count > 0)
        vkmd_sim_constraints_record_positions(md->cons, cb, dt_fs);
}

static void record_constrain_velocities(const vkmd_md *md, VkCommandBuffer cb)
{
    if (md->cset.constraint_count > 0)
        vkmd_sim_constraints_record_velocities(md->cons, cb);
}

static void mark(md_marks *m, VkCommandBuffer cb, int pass)
{
    if (!m || m->next >= MD_PROFILE_SLOTS)
        return;
    vkmd_vk_timer_record_mark(cb, m->timer, m->next);
    m->from[m->next] = m->last;
    m->pass[m->next] = (uint8_t)pass;
    m->last = m->next++;
}

static void record_forces(const vkmd_md *md, VkCommandBuffer cb, md_marks *m, unsigned flags)
{
    if (!m) {
        vkmd_forcefield_record(md->ff, cb, flags, NULL, 0);
        return;
    }
    const uint32_t before = m->last, first = m->next;
    vkmd_forcefield_record(md->ff, cb, flags, m->timer, first);
    m->ff_slot[m->ff_count++] = first;
    m->next += VKMD_FORCEFIELD_TIMER_SLOTS;
    m->last = before;
    mark(m, cb, MD_PASS_FF_TOTAL);
}

/* One pass-by-pass step. energy: its evaluation sums energies too (the last
 * step of a batch, whose state a report reads); rebuild: the list's rebuild
 * dispatches are recorded; gated: inside a gated batch. The kick that reads
 * the forces last clears them for the evaluation. */
static void record_step(const vkmd_md *md, VkCommandBuffer cb, uint32_t offset, md_marks *m,
                        int energy, int rebuild, int gated)
{
    const uint32_t n = (uint32_t)md->atom_count;
    vkmd_md_push p = md->push;
    p.step_offset = offset;
    p.flags = (vkmd_gpu_uvec4){1u, energy ? 1u : 0u, 0u, 0u};
    const unsigned ff_flags =
        VKMD_FF_RECORD_CLEARED | VKMD_FF_RECORD_PREPARED | (energy ? VKMD_FF_RECORD_ENERGY : 0u) |
        (rebuild ? 0u : VKMD_FF_RECORD_NO_REBUILD) | (gated ? VKMD_FF_RECORD_GATED : 0u);
    if (md->desc.integrator == VKMD_INTEGRATOR_VERLET) {
        dispatch(md, cb, VKMD_MD_MODE_VV_KICK_DRIFT, n, &p);
        vkmd_vk_barrier_compute(cb);
        mark(m, cb, VKMD_MD_PASS_INTEGRATE);
        record_constrain_positions(md, cb, p.dt_fs);
        mark(m, cb, VKMD_MD_PASS_CONSTRAINTS);
        record_forces(md, cb, m, ff_flags);
        p.flags = (vkmd_gpu_uvec4){0u, 0u, 0u, 0u}; /* the next step's kick reads them again */
        dispatch(md, cb, VKMD_MD_MODE_VV_KICK, n, &p);
        vkmd_vk_barrier_compute(cb);
        mark(m, cb, VKMD_MD_PASS_INTEGRATE);
        record_constrain_velocities(md, cb);
        mark(m, cb, VKMD_MD_PASS_CONSTRAINTS);
    } else {
        dispatch(md, cb, VKMD_MD_MODE_LM_KICK, n, &p);
        vkmd_vk_barrier_compute(cb);
        mark(m, cb, VKMD_MD_PASS_INTEGRATE);
        record_constrain_velocities(md, cb);
        mark(m, cb, VKMD_MD_PASS_CONSTRAINTS);
        dispatch(md, cb, VKMD_MD_MODE_LM_DRIFT, n, &p);
        vkmd_vk_barrier_compute(cb);
        mark(m, cb, VKMD_MD_PASS_INTEGRATE);
        record_constrain_positions(md, cb, p.dt_fs);
        mark(m, cb, VKMD_MD_PASS_CONSTRAINTS);
        record_forces(md, cb, m, ff_flags);
    }
}

static void step_mark(void *user, VkCommandBuffer cb, int piece)
{
    static const int pass_of[] = {
        [VKMD_STEP_PIECE_STEP] = VKMD_MD_PASS_STEP,
        [VKMD_STEP_PIECE_REBUILD] = VKMD_MD_PASS_NEIGHBOR,
        [VKMD_STEP_PIECE_FORCES] = VKMD_MD_PASS_FORCES,
        [VKMD_STEP_PIECE_SPECTRAL] = VKMD_MD_PASS_PME_FFT,
        [VKMD_STEP_PIECE_GATHER] = VKMD_MD_PASS_PME_GATHER,
        [VKMD_STEP_PIECE_CLOSE] = VKMD_MD_PASS_STEP,
    };
    mark(user, cb, pass_of[piece]);
}

/* A batch: backups, `steps` steps, COM removal if asked, wrap, advance. */
vkmd_result md_record_batch(vkmd_vk_context *ctx, const vkmd_md *md, vkmd_vk_cmd *cmd,
                            int32_t steps, int with_com, md_rebuilds rebuilds, int energy_last,
                            md_marks *m)
{
    vkmd_result res = VKMD_OK;
    VKMD_TRY(vkmd_vk_cmd_begin(ctx, cmd));
    VkCommandBuffer cb = cmd->cb;
    const uint32_t n = (uint32_t)md->atom_count;
    const vkmd_neighbor *nl = vkmd_forcefield_neighbor(md->ff);
    const int gated = md->gated;
    if (!gated)
        rebuilds = MD_REBUILD_EVERY;
    if (m) {
        vkmd_vk_timer_record_reset(cb, m->timer);
        m->next = m->last = 0;
        m->ff_count = 0;
        mark(m, cb, VKMD_MD_PASS_REDUCE);
    }
    /* The PME convolution kernel of this box first: the barriers below
     * order it before the steps (it touches none of what they copy). */
    vkmd_forcefield_record_prepare(md->ff, cb);
    vkmd_vk_barrier_compute_to_transfer(cb);
    md_copy_buffer(cb, vkmd_forcefield_positions(md->ff), &md->pos_backup);
    if (md->pos_x_backup.buffer)
        md_copy_buffer(cb, vkmd_forcefield_positions_x(md->ff), &md->pos_x_backup);
    md_copy_buffer(cb, &md->vel, &md->vel_backup);
    md_copy_buffer(cb, &md->counter, &md->counter_backup);
    if (md->step) /* the fused step spreads onto a cleared charge grid */
        vkmd_pass_pme_record_fill(vkmd_forcefield_pme(md->ff), cb);
    if (gated) {
        /* Every step open; the look ahead on unless every step rebuilds. */
        vkmd_neighbor_record_gate_open(nl, cb, rebuilds != MD_REBUILD_EVERY);
        vkmd_vk_barrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT |
                            VK_PIPELINE_STAGE_CONDITIONAL_RENDERING_BIT_EXT,
                        VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                            VK_ACCESS_CONDITIONAL_RENDERING_READ_BIT_EXT);
    } else {
        vkmd_vk_barrier_transfer_to_compute(cb);
    }
    mark(m, cb, VKMD_MD_PASS_REDUCE);
    const VkBuffer gate = gated ? vkmd_neighbor_gate(nl) : VK_NULL_HANDLE;
    for (int32_t s = 0; s < steps; ++s) {
        const int rebuild =
            rebuilds == MD_REBUILD_EVERY || (rebuilds == MD_REBUILD_FIRST && s == 0);
        const int energy = energy_last && s == steps - 1;
        if (gated)
            vkmd_vk_conditional_begin(ctx, cb, gate, 4 * (VkDeviceSize)s);
        if (md->step) {
            const unsigned flags =
                (s == 0 ? VKMD_STEP_FIRST : 0u) | (energy ? VKMD_STEP_ENERGY : 0u) |
                (rebuild ? VKMD_STEP_REBUILD : 0u) | (gated ? VKMD_STEP_GATED : 0u);
            vkmd_step_record(md->step, cb, (uint32_t)s, flags, m ? step_mark : NULL, m);
        } else {
            record_step(md, cb, (uint32_t)s, m, energy, rebuild, gated);
        }
        if (gated)
            vkmd_vk_conditional_end(ctx, cb);
    }
    /* The end runs whatever the gate says: it closes the last step run. */
    if (md->step)
        vkmd_step_record_close(md->step, cb, m ? step_mark : NULL, m);
    vkmd_md_push p = md->push;
    if (with_com) { /* at the batch's last step: skipped when the batch stopped before it */
        if (gated)
            vkmd_vk_conditional_begin(ctx, cb, gate, 4 * (VkDeviceSize)(steps - 1));
        dispatch(md, cb, VKMD_MD_MODE_COM_SUM, n, &p);
        vkmd_vk_barrier_compute(cb);
        dispatch(md, cb, VKMD_MD_MODE_COM_APPLY, n, &p);
        vkmd_vk_barrier_compute(cb);
        if (gated)
            vkmd_vk_conditional_end(ctx, cb);
    }
    if (md->periodic) {
        dispatch(md, cb, VKMD_MD_MODE_WRAP_SHIFT, (uint32_t)md->mol.count, &p);
        vkmd_vk_barrier_compute(cb);
        dispatch(md, cb, VKMD_MD_MODE_WRAP_APPLY, n, &p);
        vkmd_vk_barrier_compute(cb);
    }
    p.steps = gated ? VKMD_MD_STEPS_RUN : (uint32_t)steps;
    dispatch(md, cb, VKMD_MD_MODE_ADVANCE, 1, &p);
    mark(m, cb, VKMD_MD_PASS_REDUCE);
    vkmd_vk_barrier_compute_to_transfer(cb);
    if (gated)
        vkmd_neighbor_record_gate_close(nl, cb);
    vkmd_vk_barrier_device_to_host(cb);
    VKMD_TRY(vkmd_vk_cmd_end(ctx, cmd));
cleanup:
    return res;
}

/* ---- the cache of recorded batches ---------------------------------------- */

void md_free_batches(vkmd_vk_context *ctx, vkmd_md *md)
{
    for (int i = 0; i < MD_BATCH_CACHE; ++i) {
        vkmd_vk_cmd_destroy(ctx, &md->batch[i].cmd);
        memset(&md->batch[i], 0, sizeof md->batch[i]);
    }
}

static vkmd_result get_batch(vkmd_vk_context *ctx, vkmd_md *md, int32_t steps, int with_com,
                             md_rebuilds rebuilds, int energy, md_batch **out)
{
    vkmd_result res = VKMD_OK;
    md_batch *slot = NULL;
    for (int i = 0; i < MD_BATCH_CACHE; ++i)
        if (md->batch[i].steps == steps && md->batch[i].with_com == with_com &&
            md->batch[i].rebuilds == rebuilds && md->batch[i].energy == energy) {
            slot = &md->batch[i];
            slot->last_use = ++md->use_clock;
            *out = slot;
            return VKMD_OK;
        }
    slot = &md->batch[0];
    for (int i = 1; i < MD_BATCH_CACHE; ++i)
        if (md->batch[i].last_use < slot->last_use)
            slot = &md->batch[i];
    if (!slot->cmd.cb)
        VKMD_TRY(vkmd_vk_cmd_create(ctx, &slot->cmd));
    slot->steps = 0;
    VKMD_TRY(md_record_batch(ctx, md, &slot->cmd, steps, with_com, rebuilds, energy, NULL));
    slot->steps = steps;
    slot->with_com = with_com;
    slot->rebuilds = rebuilds;
    slot->energy = energy;
    slot->last_use = ++md->use_clock;
    *out = slot;
cleanup:
    return res;
}

/* Puts the state saved at the start of the last batch back. */
static vkmd_result restore_backup(vkmd_vk_context *ctx, vkmd_md *md)
{
    vkmd_result res = VKMD_OK;
    VkCommandBuffer cb = VK_NULL_HANDLE;
    VKMD_TRY(vkmd_vk_oneshot_begin(ctx, &cb));
    md_copy_buffer(cb, &md->pos_backup, vkmd_forcefield_positions(md->ff));
    if (md->pos_x_backup.buffer)
        md_copy_buffer(cb, &md->pos_x_backup, vkmd_forcefield_positions_x(md->ff));
    md_copy_buffer(cb, &md->vel_backup, &md->vel);
    md_copy_buffer(cb, &md->counter_backup, &md->counter);
    vkmd_vk_buffer_record_fill(cb, &md->momentum, 0);
    VKMD_TRY(vkmd_vk_oneshot_submit(ctx, cb));
cleanup:
    return res;
}

/* ---- the fused step --------------------------------------------------------- */

/* Whether to take the fused step (sim/step.h) where the system allows it,
 * with the reason in md->step_reason: desc.unfused 1 or $VKMD_MD_UNFUSED=1:
 * no; desc.unfused -1 or $VKMD_MD_UNFUSED=0: yes; else the rule recorded
 * from measurements (docs/BENCHMARKS.md): yes on a CPU device (lavapipe),
 * where it needs fewer dispatches and they cost little, pass by pass on a
 * GPU (an NVIDIA H200 ran DHFR at 731 ns/day pass by pass against 519
 * fused at 13b8785; the fused step's list problems that decided it are gone
 * since ab93ce8, and the rule is to be measured again). */
static int want_fused(const vkmd_vk_context *ctx, vkmd_md *md)
{
    const size_t n = sizeof md->step_reason;
    /* Virtual sites are built and spread inside vkmd_forcefield_record,
     * which only the pass-by-pass step calls. */
    if (md->sys->vsite_count > 0) {
        snprintf(md->step_reason, n, "pass by pass: virtual sites");
        return 0;
    }
    if (!md->periodic || !vkmd_forcefield_pme(md->ff)) {
        snprintf(md->step_reason, n, "pass by pass: the fused step needs a periodic box and PME");
        return 0;
    }
    if (md->cell.triclinic) {
        snprintf(md->step_reason, n, "pass by pass: the fused step takes rectangular boxes");
        return 0;
    }
    if (md->desc.unfused) {
        snprintf(md->step_reason, n, "%s: asked", md->desc.unfused < 0 ? "fused" : "pass by pass");
        return md->desc.unfused < 0;
    }
    const char *env = getenv("VKMD_MD_UNFUSED");
    if (env && *env) {
        const int fused = strcmp(env, "0") == 0;
        snprintf(md->step_reason, n, "%s: VKMD_MD_UNFUSED=%s", fused ? "fused" : "pass by pass",
                 env);
        return fused;
    }
    const int cpu = ctx->info.type == VK_PHYSICAL_DEVICE_TYPE_CPU;
    snprintf(md->step_reason, n, "%s",
             cpu ? "fused: a CPU device (fewer dispatches; measured faster on lavapipe)"
                 : "pass by pass: a GPU (measured faster on an NVIDIA H200, docs/BENCHMARKS.md)");
    return cpu;
}

const char *vkmd_md_step_reason(const vkmd_md *md)
{
    return md->step_reason;
}

vkmd_result md_create_step(vkmd_vk_context *ctx, vkmd_md *md)
{
    vkmd_step_destroy(ctx, md->step);
    md->step = NULL;
    if (!want_fused(ctx, md))
        return VKMD_OK;
    const vkmd_step_desc sd = {.ff = md->ff,
                               .constraints = md->cons,
                               .set = &md->cset,
                               .positions_ref = &md->pos_ref,
                               .positions_ref_x = &md->pos_ref_x,
                               .velocities = &md->vel,
                               .counter = &md->counter,
                               .verlet = md->desc.integrator == VKMD_INTEGRATOR_VERLET,
                               .dt_fs = md->push.dt_fs,
                               .c1 = md->push.c1,
                               .c2 = md->push.c2,
                               .seed = md->desc.seed,
                               .force_staging = md->desc.force_staging};
    return vkmd_step_create(ctx, md->sys, &sd, &md->step);
}

vkmd_result md_list_changed(vkmd_vk_context *ctx, vkmd_md *md)
{
    vkmd_result res = VKMD_OK;
    md_free_batches(ctx, md);
    VKMD_TRY(md_create_pipelines(ctx, md));
    VKMD_TRY(md_create_step(ctx, md));
cleanup:
    return res;
}

vkmd_result md_prime_forces(vkmd_vk_context *ctx, vkmd_md *md)
{
    const vkmd_neighbor *before = vkmd_forcefield_neighbor(md->ff);
    vkmd_result res = vkmd_forcefield_evaluate(ctx, md->ff, NULL, NULL, NULL);
    if (res == VKMD_OK && vkmd_forcefield_neighbor(md->ff) != before) /* the list grew */
        res = md_list_changed(ctx, md);
    if (res == VKMD_OK)
        md->energy_step = md->steps_done;
    return res;
}

/* ---- running ------------------------------------------------------------- */

vkmd_result md_compile_batch(vkmd_vk_context *ctx, const vkmd_md *md)
{
    vkmd_vk_cmd cmd = {0};
    vkmd_result res = vkmd_vk_cmd_create(ctx, &cmd);
    if (res == VKMD_OK)
        res = md_record_batch(ctx, md, &cmd, 2, md->desc.com_every > 0,
                              md->gated ? MD_REBUILD_FIRST : MD_REBUILD_EVERY, 1, NULL);
    vkmd_vk_cmd_destroy(ctx, &cmd);
    return res;
}

vkmd_result md_next_rebuilds(vkmd_vk_context *ctx, const vkmd_md *md, md_rebuilds *out)
{
    *out = MD_REBUILD_EVERY;
    if (!md->gated)
        return VKMD_OK;
    vkmd_neighbor_stats ns;
    vkmd_result res = vkmd_forcefield_neighbor_stats(ctx, md->ff, &ns);
    if (res == VKMD_OK)
        *out = ns.force ? MD_REBUILD_FIRST : MD_REBUILD_NONE;
    return res;
}

/* Submits a batch of `steps` (the cached recording, or recorded with marks
 * into `own`) and waits; if the neighbour list overflowed inside it, puts the
 * backups back, grows the list and repeats the batch; if a rebuild was due
 * at a step that records none, puts the backups back and repeats the batch
 * with a rebuild recorded at every step. */
vkmd_result md_run_batch(vkmd_vk_context *ctx, vkmd_md *md, int32_t steps, int with_com, int energy,
                         md_marks *m, vkmd_vk_cmd *own, int32_t *out_run)
{
    vkmd_result res = VKMD_OK;
    int32_t run = 0;
    if (md->step_stale) {
        md_free_batches(ctx, md);
        VKMD_TRY(md_create_step(ctx, md));
        md->step_stale = 0;
    }
    md_rebuilds rebuilds;
    VKMD_TRY(md_next_rebuilds(ctx, md, &rebuilds));
    for (int attempt = 0;; ++attempt) {
        vkmd_vk_cmd *cmd = own;
        if (own) {
            VKMD_TRY(md_record_batch(ctx, md, own, steps, with_com, rebuilds, energy, m));
        } else {
            md_batch *b = NULL;
            VKMD_TRY(get_batch(ctx, md, steps, with_com, rebuilds, energy, &b));
            cmd = &b->cmd;
        }
        VKMD_TRY(vkmd_vk_cmd_submit_wait(ctx, cmd));
        vkmd_neighbor_stats ns;
        res = vkmd_forcefield_check_list(ctx, md->ff, &ns);
        if (res == VKMD_ERROR_CAPACITY && attempt < 3) {
            VKMD_TRY(restore_backup(ctx, md));
            VKMD_TRY(vkmd_forcefield_grow_neighbors(ctx, md->ff));
            VKMD_TRY(md_list_changed(ctx, md)); /* the list's buffers are new */
            VKMD_TRY(md_prime_forces(ctx, md));
            VKMD_TRY(md_next_rebuilds(ctx, md, &rebuilds));
            continue;
        }
        if (res == VKMD_OK && ns.missed && rebuilds != MD_REBUILD_EVERY) {
            vkmd_log_debug("md: a list rebuild was due at a step that records none; the batch "
                           "of %d steps is repeated with one at every step",
                           steps);
            VKMD_TRY(vkmd_forcefield_clear_missed(ctx, md->ff));
            VKMD_TRY(restore_backup(ctx, md));
            VKMD_TRY(md_prime_forces(ctx, md));
            md->repeats += steps;
            rebuilds = MD_REBUILD_EVERY;
            continue;
        }
        if (res == VKMD_OK) {
            run = md->gated ? (int32_t)ns.batch_checks : steps;
            if (run < 1 || run > steps)
                res = vkmd_fail(VKMD_ERROR_NUMERIC,
                                "md: a batch of %d steps ran %d (the neighbour list's count)",
                                steps, run);
            else if (run < steps)
                md->halts += 1;
        }
        break;
    }
    if (res == VKMD_OK) {
        md->steps_done += run;
        if (energy && run == steps)
            md->energy_step = md->steps_done;
    }
cleanup:
    if (out_run)
        *out_run = run;
    return res;
}

int32_t vkmd_md_batch_fit(const vkmd_vk_context *ctx, int32_t atom_count)
{
    const int64_t budget = ctx->info.type == VK_PHYSICAL_DEVICE_TYPE_CPU
                               ? VKMD_MD_BATCH_ATOM_STEPS_CPU
                               : VKMD_MD_BATCH_ATOM_STEPS;
    int32_t fit = 1;
    while (fit < (1 << 20) && 2 * (int64_t)fit * atom_count <= budget)
        fit *= 2;
    return fit;
}

vkmd_result vkmd_md_step(vkmd_vk_context *ctx, vkmd_md *md, int64_t steps)
{
    vkmd_result res = VKMD_OK;
    if (steps < 0)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "md: negative step count %lld",
                         (long long)steps);
    const int baro = md->baro && md->desc.pressure_bar > 0;
    const int64_t baro_every = md->desc.barostat_every;
    int64_t most = md->desc.max_batch_steps;
    /* A stop request (core/stop.h) is seen between batches: a large
     * system's batch is shorter, so that it ends within about
     * VKMD_STOP_PIECE_S on a slow device. Fixed by the atom count and the
     * device type, never by a clock: where batches end changes the bits (the
     * wrap at each batch's end), and a run must repeat bitwise. */
    const int64_t fit = vkmd_md_batch_fit(ctx, md->atom_count);
    if (most > fit)
        most = fit;
    if (md->gated && most > VKMD_NL_GATE_WORDS)
        most = VKMD_NL_GATE_WORDS; /* a gate word per step */
    while (steps > 0) {
        const int why = vkmd_stop_requested();
        if (why)
            return vkmd_fail(VKMD_ERROR_STOPPED, "md: stopped (%s) at step %lld, %lld steps early",
                             vkmd_stop_name(why), (long long)md->steps_done, (long long)steps);
        int64_t c = steps < most ? steps : most;
        if (baro) { /* batches end at barostat steps */
            const int64_t next = (md->steps_done / baro_every + 1) * baro_every;
            if (md->steps_done + c > next)
                c = next - md->steps_done;
        }
        int with_com = 0;
        if (md->desc.com_every > 0) {
            const int64_t every = md->desc.com_every;
            const int64_t next = (md->steps_done / every + 1) * every; /* next COM step */
            if (md->steps_done + c >= next) {
                c = next - md->steps_done;
                with_com = 1;
            }
        }
        /* Energies only where they are read: the call's last step (a
         * report reads it) and a barostat move's step. A batch cut short by
         * the step budget above sums none: on lavapipe the energy builds
         * and the unfused PME convolution cost water:216 0.3 ms, and
         * villin in water (8,867 atoms, one step a batch) 30 ms a step. */
        const int energy = c == steps || (baro && (md->steps_done + c) % baro_every == 0);
        int32_t run = 0;
        VKMD_TRY(md_run_batch(ctx, md, (int32_t)c, with_com, energy, NULL, NULL, &run));
        steps -= run;
        if (baro && run == c && md->steps_done % baro_every == 0)
            VKMD_TRY(md_barostat_attempt(ctx, md));
    }
cleanup:
    return res;
}
