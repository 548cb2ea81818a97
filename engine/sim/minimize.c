/* FIRE minimisation on the device (see minimize.h): the force field's
 * passes and minimize_fire.comp's modes recorded check_interval iterations
 * at a time into one replayed command buffer, plus a one-evaluation
 * "measure" command buffer for the start and the end. */
#include "sim/minimize.h"
#include "forces/positions.h"
#include "core/log.h"
#include "core/stop.h"
#include "core/units.h"
#include "forces/fixed_point.h"
#include "forces/forcefield.h"
#include "sim/fire_push.h"
#include "sim/md.h"
#include "sim/sim_constraints.h"
#include "vk/barrier.h"
#include "vk/command.h"
#include "vk/pipeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_REGROWTHS 4 /* overflows of one batch recovered from before giving up */

/* Everything one run holds on the device. */
typedef struct minimizer {
    vkmd_minimize_desc d;
    vkmd_forcefield *ff;
    const vkmd_sim_constraints *c;
    const vkmd_vk_buffer *positions, *positions_ref, *velocities;
    const vkmd_vk_buffer *positions_x, *positions_ref_x; /* split parts; NULL for fp32 */
    int positions_mode;
    int32_t atom_count;
    uint32_t wg, groups;
    vkmd_vk_pipeline pipe[VKMD_MINIMIZE_MODE_COUNT];
    vkmd_vk_descset set[VKMD_MINIMIZE_MODE_COUNT];
    vkmd_vk_buffer fire_vel, partials, state;
    vkmd_vk_buffer save_pos, save_vel, save_state; /* the state at the start of a batch */
    vkmd_vk_buffer save_pos_x;                     /* split parts of save_pos */
    vkmd_vk_cmd batch, measure;
    vkmd_minimize_push push;
    int32_t batch_iterations; /* iterations recorded in `batch` */
} minimizer;

static vkmd_result make_buffer(vkmd_vk_context *ctx, VkDeviceSize size, const char *name,
                               vkmd_vk_buffer *out)
{
    const vkmd_vk_buffer_desc bd = {.size = size, .name = name};
    return vkmd_vk_buffer_create(ctx, &bd, out);
}

static void copy(VkCommandBuffer cb, const vkmd_vk_buffer *src, const vkmd_vk_buffer *dst,
                 VkDeviceSize size)
{
    const VkBufferCopy region = {.size = size};
    vkCmdCopyBuffer(cb, src->buffer, dst->buffer, 1, &region);
}

static void dispatch(const minimizer *m, VkCommandBuffer cb, int mode,
                     const vkmd_minimize_push *push, uint32_t groups)
{
    vkmd_vk_dispatch(cb, &m->pipe[mode], &m->set[mode], push, groups, 1, 1);
    vkmd_vk_barrier_compute(cb);
}

/* Copies positions, FIRE's velocities and state into the save buffers
 * (restore = the opposite copies). */
static void record_save(const minimizer *m, VkCommandBuffer cb, int restore)
{
    const VkDeviceSize vec = 16 * (VkDeviceSize)m->atom_count;
    vkmd_vk_barrier_compute_to_transfer(cb);
    if (restore) {
        copy(cb, &m->save_pos, m->positions, vec);
        if (m->positions_x)
            copy(cb, &m->save_pos_x, m->positions_x, 2 * vec);
        copy(cb, &m->save_vel, &m->fire_vel, vec);
        copy(cb, &m->save_state, &m->state, sizeof(vkmd_minimize_state));
    } else {
        copy(cb, m->positions, &m->save_pos, vec);
        if (m->positions_x)
            copy(cb, m->positions_x, &m->save_pos_x, 2 * vec);
        copy(cb, &m->fire_vel, &m->save_vel, vec);
        copy(cb, &m->state, &m->save_state, sizeof(vkmd_minimize_state));
    }
    vkmd_vk_barrier_transfer_to_compute(cb);
}

/* Forces at the current positions and their norms into the state; with
 * measure_only the FIRE scalars stay, else STATE advances them and MOVE
 * moves. energy: the evaluation sums the energies too (FIRE reads none:
 * only the reports do), else it takes the PME convolution fused into
 * VkFFT's transforms, whose kernel the batch prepared. */
static void record_iteration(const minimizer *m, VkCommandBuffer cb, int measure_only, int energy)
{
    const uint32_t atom_groups = m->groups;
    vkmd_minimize_push push = m->push;
    push.measure_only = measure_only ? 1u : 0u;
    vkmd_forcefield_record(m->ff, cb, energy ? VKMD_FF_RECORD_ENERGY : VKMD_FF_RECORD_PREPARED,
                           NULL, 0); /* orders earlier reads before its clears */
    if (m->c) {
        dispatch(m, cb, VKMD_MINIMIZE_MODE_ACCEL, &push, atom_groups);
        vkmd_sim_constraints_record_velocities(m->c, cb);
    }
    dispatch(m, cb, VKMD_MINIMIZE_MODE_REDUCE, &push, atom_groups);
    dispatch(m, cb, VKMD_MINIMIZE_MODE_STATE, &push, 1);
    if (measure_only)
        return;
    dispatch(m, cb, VKMD_MINIMIZE_MODE_MOVE, &push, atom_groups);
    if (m->c)
        vkmd_sim_constraints_record_positions(m->c, cb, 0.0f);
}

/* (Re)records both command buffers: after create, when the last batch
 * needs fewer iterations, and after the force field re-created its
 * nonbonded pass to grow the neighbour list. */
static vkmd_result record_all(vkmd_vk_context *ctx, minimizer *m, int32_t batch_iterations)
{
    vkmd_result res = VKMD_OK;
    VKMD_TRY(vkmd_vk_cmd_begin(ctx, &m->batch));
    record_save(m, m->batch.cb, 0);
    /* Energies at the batch's last evaluation only: the report after each
     * batch reads them (the progress callback), nothing else does. The
     * evaluations before it read the prepared PME kernel (none in a batch of
     * one evaluation, as a large system's on a CPU device). */
    if (batch_iterations > 1) {
        vkmd_forcefield_record_prepare(m->ff, m->batch.cb);
        vkmd_vk_barrier_compute(m->batch.cb);
    }
    for (int32_t k = 0; k < batch_iterations; ++k)
        record_iteration(m, m->batch.cb, 0, k == batch_iterations - 1);
    vkmd_vk_barrier_compute_to_transfer(m->batch.cb);
    vkmd_vk_barrier_device_to_host(m->batch.cb);
    VKMD_TRY(vkmd_vk_cmd_end(ctx, &m->batch));
    m->batch_iterations = batch_iterations;

    VKMD_TRY(vkmd_vk_cmd_begin(ctx, &m->measure));
    record_save(m, m->measure.cb, 0);
    record_iteration(m, m->measure.cb, 1, 1);
    vkmd_vk_barrier_compute_to_transfer(m->measure.cb);
    vkmd_vk_barrier_device_to_host(m->measure.cb);
    VKMD_TRY(vkmd_vk_cmd_end(ctx, &m->measure));
cleanup:
    return res;
}

/* Replays `cmd` and checks the neighbour list; on overflow restores the
 * saved state, lets the force field grow the list, re-records and replays. */
static vkmd_result submit_checked(vkmd_vk_context *ctx, minimizer *m, vkmd_vk_cmd *cmd,
                                  vkmd_minimize_result *out)
{
    vkmd_result res = VKMD_OK;
    VkCommandBuffer cb = VK_NULL_HANDLE;
    for (int attempt = 0;; ++attempt) {
        VKMD_TRY(vkmd_vk_cmd_submit_wait(ctx, cmd));
        res = vkmd_forcefield_readback(ctx, m->ff, NULL, NULL);
        if (res != VKMD_ERROR_CAPACITY || attempt >= MAX_REGROWTHS)
            return res;
        vkmd_log_info("minimisation: neighbour list overflowed at iteration batch %d; growing "
                      "it and repeating the batch",
                      out->batches);
        VKMD_TRY(vkmd_vk_oneshot_begin(ctx, &cb));
        record_save(m, cb, 1);
        VkCommandBuffer done = cb;
        cb = VK_NULL_HANDLE;
        VKMD_TRY(vkmd_vk_oneshot_submit(ctx, done));
        VKMD_TRY(vkmd_forcefield_evaluate(ctx, m->ff, NULL, NULL, NULL));
        VKMD_TRY(record_all(ctx, m, m->batch_iterations));
        ++out->list_regrowths;
    }
cleanup:
    if (cb != VK_NULL_HANDLE)
        (void)vkmd_vk_oneshot_submit(ctx, cb);
    return res;
}

static vkmd_result read_state(vkmd_vk_context *ctx, const minimizer *m, vkmd_minimize_state *st)
{
    vkmd_result res = vkmd_vk_buffer_readback(ctx, &m->state, 0, st, sizeof *st);
    if (res == VKMD_OK && st->u.z == VKMD_MINIMIZE_NONFINITE)
        res = vkmd_fail(VKMD_ERROR_NUMERIC,
                        "minimisation: the forces became non-finite after %u moves (max |f| "
                        "%g kcal/mol/A before)",
                        st->u.w, (double)st->g.x);
    return res;
}

/* Energy of the last evaluation and the progress callback. */
static vkmd_result report(vkmd_vk_context *ctx, const minimizer *m, const vkmd_minimize_state *st,
                          double *out_energy)
{
    vkmd_energy e;
    vkmd_result res = vkmd_forcefield_readback(ctx, m->ff, &e, NULL);
    if (res != VKMD_OK)
        return res;
    if (out_energy)
        *out_energy = e.total;
    if (m->d.progress)
        m->d.progress(m->d.progress_user, (int32_t)st->u.w, e.total, (double)st->g.x);
    return VKMD_OK;
}

/* Every atom's velocities.w must be a usable 1/m; massless atoms (virtual
 * sites, rebuilt by the force field) hold 0 and stay put. */
static vkmd_result check_inverse_masses(vkmd_vk_context *ctx, const vkmd_vk_buffer *velocities,
                                        int32_t n, const vkmd_system *sys)
{
    vkmd_result res = VKMD_OK;
    float *v = malloc(16 * (size_t)n);
    if (!v)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "minimisation: %d atoms", n);
    VKMD_TRY(vkmd_vk_buffer_readback(ctx, velocities, 0, v, 16 * (VkDeviceSize)n));
    for (int32_t i = 0; i < n; ++i)
        if ((!(v[4 * i + 3] > 0) || !isfinite(v[4 * i + 3])) &&
            !(v[4 * i + 3] == 0 && sys && sys->atoms[i].mass == 0)) {
            res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                            "minimisation: atom %d has velocities.w = %g; it must hold 1/mass "
                            "(1/amu)",
                            i, (double)v[4 * i + 3]);
            goto cleanup;
        }
cleanup:
    free(v);
    return res;
}

static vkmd_result create_pipelines(vkmd_vk_context *ctx, minimizer *m)
{
    vkmd_result res = VKMD_OK;
    const char *shader = NULL;
    VKMD_TRY(vkmd_fixed_shader(ctx, "minimisation", "minimize_fire.comp", &shader));
    const vkmd_vk_buffer *bufs[VKMD_MINIMIZE_BINDING_COUNT];
    bufs[VKMD_MINIMIZE_BINDING_POSITIONS] = m->positions;
    bufs[VKMD_MINIMIZE_BINDING_POSITIONS_REF] = m->positions_ref;
    bufs[VKMD_MINIMIZE_BINDING_VELOCITIES] = m->velocities;
    bufs[VKMD_MINIMIZE_BINDING_FORCES] = &vkmd_forcefield_accum(m->ff)->forces;
    bufs[VKMD_MINIMIZE_BINDING_FIRE_VEL] = &m->fire_vel;
    bufs[VKMD_MINIMIZE_BINDING_PARTIALS] = &m->partials;
    bufs[VKMD_MINIMIZE_BINDING_STATE] = &m->state;
    VKMD_TRY(vkmd_positions_extra_binding(m->positions, m->positions_x, m->positions_mode,
                                          m->atom_count, "minimisation",
                                          &bufs[VKMD_MINIMIZE_BINDING_POSITIONS_X]));
    VKMD_TRY(vkmd_positions_extra_binding(m->positions_ref, m->positions_ref_x, m->positions_mode,
                                          m->atom_count, "minimisation",
                                          &bufs[VKMD_MINIMIZE_BINDING_REF_X]));
    for (int mode = 0; mode < VKMD_MINIMIZE_MODE_COUNT; ++mode) {
        if (mode == VKMD_MINIMIZE_MODE_ACCEL && !m->c)
            continue;
        const vkmd_vk_spec specs[] = {{VKMD_SPEC_WORKGROUP_SIZE, m->wg},
                                      {VKMD_SPEC_MINIMIZE_MODE, (uint32_t)mode},
                                      {VKMD_SPEC_MINIMIZE_CONSTRAINED, m->c ? 1u : 0u},
                                      {VKMD_SPEC_POSITIONS, (uint32_t)m->positions_mode}};
        const vkmd_vk_pipeline_desc pd = {.shader = shader,
                                          .buffer_count = VKMD_MINIMIZE_BINDING_COUNT,
                                          .push_size = sizeof(vkmd_minimize_push),
                                          .specs = specs,
                                          .spec_count = 4};
        VKMD_TRY(vkmd_vk_pipeline_create(ctx, &pd, &m->pipe[mode]));
        VKMD_TRY(vkmd_vk_descset_create(ctx, &m->pipe[mode], bufs, &m->set[mode]));
    }
cleanup:
    return res;
}

static void destroy(vkmd_vk_context *ctx, minimizer *m)
{
    vkmd_vk_cmd_destroy(ctx, &m->measure);
    vkmd_vk_cmd_destroy(ctx, &m->batch);
    for (int mode = 0; mode < VKMD_MINIMIZE_MODE_COUNT; ++mode) {
        vkmd_vk_descset_destroy(ctx, &m->set[mode]);
        vkmd_vk_pipeline_destroy(ctx, &m->pipe[mode]);
    }
    vkmd_vk_buffer_destroy(ctx, &m->save_state);
    vkmd_vk_buffer_destroy(ctx, &m->save_vel);
    vkmd_vk_buffer_destroy(ctx, &m->save_pos);
    vkmd_vk_buffer_destroy(ctx, &m->save_pos_x);
    vkmd_vk_buffer_destroy(ctx, &m->state);
    vkmd_vk_buffer_destroy(ctx, &m->partials);
    vkmd_vk_buffer_destroy(ctx, &m->fire_vel);
}

/* Constrains the starting positions, with themselves as the reference. */
static vkmd_result constrain_start(vkmd_vk_context *ctx, const minimizer *m)
{
    VkCommandBuffer cb = VK_NULL_HANDLE;
    vkmd_result res = vkmd_vk_oneshot_begin(ctx, &cb);
    if (res != VKMD_OK)
        return res;
    copy(cb, m->positions, m->positions_ref, 16 * (VkDeviceSize)m->atom_count);
    if (m->positions_x)
        copy(cb, m->positions_x, m->positions_ref_x, 32 * (VkDeviceSize)m->atom_count);
    vkmd_vk_barrier_transfer_to_compute(cb);
    vkmd_sim_constraints_record_positions(m->c, cb, 0.0f);
    return vkmd_vk_oneshot_submit(ctx, cb);
}

/* Iterations per batch: check_interval, and no more than an MD batch of the
 * size (vkmd_md_batch_fit), so that a stop request (core/stop.h) is seen
 * within about a second on a slow device; fixed by the size, never by a
 * clock, so a run repeats bitwise. */
static int32_t batch_fit(const vkmd_vk_context *ctx, const minimizer *m)
{
    const int32_t p = vkmd_md_batch_fit(ctx, m->atom_count);
    return p > m->d.check_interval ? m->d.check_interval : p;
}

vkmd_result vkmd_minimize_run(vkmd_vk_context *ctx, vkmd_forcefield *ff,
                              const vkmd_sim_constraints *c, const vkmd_vk_buffer *positions_ref,
                              const vkmd_vk_buffer *positions_ref_x,
                              const vkmd_vk_buffer *velocities, const vkmd_minimize_desc *desc,
                              vkmd_minimize_result *out)
{
    vkmd_result res = VKMD_OK;
    minimizer m = {.d = vkmd_minimize_desc_resolve(desc), .ff = ff, .c = c};
    *out = (vkmd_minimize_result){0};
    VKMD_TRY(vkmd_minimize_desc_check(&m.d));
    m.positions = vkmd_forcefield_positions(ff);
    m.positions_ref = positions_ref;
    m.velocities = velocities;
    m.positions_mode = vkmd_forcefield_positions_mode(ff);
    m.positions_x = vkmd_forcefield_positions_x(ff);
    m.positions_ref_x = m.positions_x ? positions_ref_x : NULL;
    const int32_t n = m.atom_count = vkmd_forcefield_accum(ff)->atom_count;
    if (m.positions_x && (!positions_ref_x || positions_ref_x->size < 32 * (VkDeviceSize)n)) {
        res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                        "minimisation: %s positions need the split parts of positions_ref",
                        vkmd_positions_mode_name(m.positions_mode));
        goto cleanup;
    }
    const VkDeviceSize vec = 16 * (VkDeviceSize)n;
    if (!positions_ref || !velocities || positions_ref->size < vec || velocities->size < vec) {
        res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                        "minimisation: positions_ref and velocities must be vec4 buffers of %d "
                        "atoms",
                        n);
        goto cleanup;
    }
    VKMD_TRY(check_inverse_masses(ctx, velocities, n, vkmd_forcefield_system(ff)));

    m.wg = VKMD_MINIMIZE_WORKGROUP_SIZE;
    while (m.wg > ctx->info.max_workgroup_invocations)
        m.wg /= 2;
    m.groups = vkmd_vk_div_up((uint32_t)n, m.wg);
    m.push = (vkmd_minimize_push){.atom_count = (uint32_t)n,
                                  .group_count = m.groups,
                                  .max_iterations = (uint32_t)m.d.max_iterations,
                                  .force_tol = (float)m.d.force_tol,
                                  .accel_per_force_mass = (float)VKMD_ACCEL_PER_FORCE_MASS,
                                  .fire = vkmd_sim_fire_push(&m.d.fire)};
    VKMD_TRY(make_buffer(ctx, vec, "FIRE velocities", &m.fire_vel));
    VKMD_TRY(make_buffer(ctx, 16 * (VkDeviceSize)m.groups, "FIRE partial sums", &m.partials));
    VKMD_TRY(make_buffer(ctx, sizeof(vkmd_minimize_state), "FIRE state", &m.state));
    VKMD_TRY(make_buffer(ctx, vec, "FIRE saved positions", &m.save_pos));
    if (m.positions_x)
        VKMD_TRY(make_buffer(ctx, 2 * vec, "FIRE saved positions (split parts)", &m.save_pos_x));
    VKMD_TRY(make_buffer(ctx, vec, "FIRE saved velocities", &m.save_vel));
    VKMD_TRY(make_buffer(ctx, sizeof(vkmd_minimize_state), "FIRE saved state", &m.save_state));
    VKMD_TRY(create_pipelines(ctx, &m));
    VKMD_TRY(vkmd_vk_cmd_create(ctx, &m.batch));
    VKMD_TRY(vkmd_vk_cmd_create(ctx, &m.measure));
    VKMD_TRY(record_all(ctx, &m, batch_fit(ctx, &m)));

    /* Start: v = 0, dt_start, alpha_start, nothing counted. */
    {
        float *zero = calloc(4 * (size_t)n, sizeof *zero);
        if (!zero) {
            res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "minimisation: %d atoms", n);
            goto cleanup;
        }
        res = vkmd_vk_buffer_upload(ctx, &m.fire_vel, 0, zero, vec);
        free(zero);
        if (res != VKMD_OK)
            goto cleanup;
    }
    vkmd_minimize_state st = {.f = {(float)m.d.dt_start_fs, (float)m.d.alpha_start, 1.0f, 0.0f}};
    VKMD_TRY(vkmd_vk_buffer_upload(ctx, &m.state, 0, &st, sizeof st));
    if (c)
        VKMD_TRY(constrain_start(ctx, &m));

    VKMD_TRY(submit_checked(ctx, &m, &m.measure, out));
    const int32_t fit = batch_fit(ctx, &m);
    VKMD_TRY(read_state(ctx, &m, &st));
    VKMD_TRY(report(ctx, &m, &st, &out->energy_initial));
    /* Each iteration makes at most one move: a batch never needs more
     * iterations than moves remain (the last one is re-recorded shorter).
     * A stop request (core/stop.h) ends it between batches. */
    while (st.u.z == VKMD_MINIMIZE_RUNNING && (int32_t)st.u.y < m.d.max_iterations) {
        if (vkmd_stop_requested()) {
            out->stopped = 1;
            break;
        }
        const int32_t remaining = m.d.max_iterations - (int32_t)st.u.y;
        const int32_t want = remaining < fit ? remaining : fit;
        if (want != m.batch_iterations)
            VKMD_TRY(record_all(ctx, &m, want));
        VKMD_TRY(submit_checked(ctx, &m, &m.batch, out));
        ++out->batches;
        VKMD_TRY(read_state(ctx, &m, &st));
        VKMD_TRY(report(ctx, &m, &st, NULL));
    }
    /* The last batch ends with a move (unless converged in it): measure the
     * final positions (this also tests convergence there). */
    VKMD_TRY(submit_checked(ctx, &m, &m.measure, out));
    VKMD_TRY(read_state(ctx, &m, &st));
    vkmd_energy e;
    VKMD_TRY(vkmd_forcefield_readback(ctx, ff, &e, NULL));
    out->energy_final = e.total;
    out->iterations = (int32_t)st.u.y;
    out->max_force = st.g.x;
    out->rms_force = st.g.y;
    out->converged = st.u.z == VKMD_MINIMIZE_CONVERGED;
    vkmd_log_debug("minimisation: %d moves in %d batches, E %.4f -> %.4f kcal/mol, max |f| %.4g "
                   "kcal/mol/A (%s)",
                   out->iterations, out->batches, out->energy_initial, out->energy_final,
                   out->max_force, out->converged ? "converged" : "not converged");
cleanup:
    destroy(ctx, &m);
    return res;
}
