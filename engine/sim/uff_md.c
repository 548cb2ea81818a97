/* Langevin (BAOAB) dynamics of many UFF replicas on a Vulkan device (see
 * uff_md.h): per step the BAOA half of shaders/uff_md.comp, the force pass,
 * then the B half; check_interval steps per replayed command buffer. */
#include "sim/uff_md.h"
#include "core/stop.h"
#include "core/philox.h"
#include "forces/fixed_point.h"
#include "forces/pass_uff.h"
#include "vk/barrier.h"
#include "vk/command.h"
#include "vk/context.h"
#include "vk/pipeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Standard atomic weights, H..Xe (IUPAC, conventional values). */
static const double atomic_mass[55] = {
    0,      1.008,  4.0026, 6.94,   9.0122, 10.81,  12.011, 14.007, 15.999, 18.998, 20.180,
    22.990, 24.305, 26.982, 28.085, 30.974, 32.06,  35.45,  39.948, 39.098, 40.078, 44.956,
    47.867, 50.942, 51.996, 54.938, 55.845, 58.933, 58.693, 63.546, 65.38,  69.723, 72.630,
    74.922, 78.971, 79.904, 83.798, 85.468, 87.62,  88.906, 91.224, 92.906, 95.95,  97.0,
    101.07, 102.91, 106.42, 107.87, 112.41, 114.82, 118.71, 121.76, 127.60, 126.90, 131.29};

vkmd_result vkmd_uff_masses(const vkmd_uff_molecule *m, double *out_mass)
{
    for (int32_t a = 0; a < m->atom_count; ++a) {
        if (m->z[a] < 1 || m->z[a] > 54)
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "%s: atom %d (atomic number %d) has no tabled mass (H..Xe)", m->source,
                             a + 1, m->z[a]);
        out_mass[a] = atomic_mass[m->z[a]];
    }
    return VKMD_OK;
}

struct vkmd_uff_md {
    vkmd_uff_md_params params;
    vkmd_pass_uff *pass;
    vkmd_vk_pipeline pipe_baoa, pipe_b;
    vkmd_vk_descset set_baoa, set_b;
    vkmd_vk_buffer velocities, replicas, state;
    vkmd_vk_cmd cmd;
    vkmd_uff_md_push push;
    int32_t atom_count, replica_count;
    uint32_t groups;
    int64_t steps;
    float *mass;     /* [atom_count] amu, as on the device */
    uint32_t *table; /* [4 * replica_count]: the replicas buffer */
};

static vkmd_result make_buffer(vkmd_vk_context *ctx, VkDeviceSize size, const char *name,
                               vkmd_vk_buffer *out)
{
    const vkmd_vk_buffer_desc d = {.size = size > 0 ? size : 16, .name = name};
    return vkmd_vk_buffer_create(ctx, &d, out);
}

static vkmd_uff_md_params resolve(const vkmd_uff_md_params *p)
{
    vkmd_uff_md_params r = p ? *p : (vkmd_uff_md_params){0};
    if (r.dt_fs == 0)
        r.dt_fs = 0.5;
    if (r.temperature_k == 0)
        r.temperature_k = 300;
    if (r.friction_per_ps == 0)
        r.friction_per_ps = 5;
    if (r.check_interval == 0)
        r.check_interval = 50;
    return r;
}

vkmd_result vkmd_uff_md_create(vkmd_vk_context *ctx, const vkmd_uff_batch *batch,
                               const double *masses_amu, const vkmd_uff_md_params *params,
                               vkmd_uff_md **out_md)
{
    vkmd_result res = VKMD_OK;
    *out_md = NULL;
    const vkmd_uff_md_params p = resolve(params);
    if (!(p.dt_fs > 0 && p.dt_fs <= 10) || !(p.temperature_k > 0 && p.temperature_k <= 1e5) ||
        !(p.friction_per_ps > 0 && p.friction_per_ps <= 1e4) || p.check_interval < 1)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "UFF MD: dt %g fs (0..10], temperature %g K (0..1e5], friction %g /ps "
                         "(0..1e4], check interval %d",
                         p.dt_fs, p.temperature_k, p.friction_per_ps, p.check_interval);
    for (int32_t i = 0; i < batch->atom_count; ++i)
        if (!(masses_amu[i] > 0))
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "UFF MD: atom %d has mass %g amu", i,
                             masses_amu[i]);
    vkmd_uff_md *md = calloc(1, sizeof *md);
    if (!md)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "UFF MD");
    md->params = p;
    md->atom_count = batch->atom_count;
    md->replica_count = batch->replica_count;
    md->mass = calloc((size_t)batch->atom_count, sizeof *md->mass);
    md->table = calloc(4 * (size_t)batch->replica_count, sizeof *md->table);
    if (!md->mass || !md->table) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "UFF MD tables");
        goto cleanup;
    }
    for (int32_t i = 0; i < batch->atom_count; ++i)
        md->mass[i] = (float)masses_amu[i];
    int32_t most = 1;
    for (int32_t r = 0; r < batch->replica_count; ++r) {
        md->table[4 * r] = (uint32_t)batch->replica_atom_offset[r];
        md->table[4 * r + 1] = (uint32_t)vkmd_uff_batch_replica_atoms(batch, r);
        most = (int32_t)md->table[4 * r + 1] > most ? (int32_t)md->table[4 * r + 1] : most;
    }
    VKMD_TRY(vkmd_pass_uff_create(ctx, batch, NULL, &md->pass));
    const char *shader = NULL;
    VKMD_TRY(vkmd_fixed_shader(ctx, "UFF MD", "uff_md.comp", &shader));
    uint32_t wg = 16;
    while (wg < VKMD_UFF_MD_WORKGROUP_SIZE && wg < (uint32_t)most)
        wg *= 2;
    for (int phase = 0; phase < 2; ++phase) {
        const vkmd_vk_spec specs[] = {{VKMD_SPEC_WORKGROUP_SIZE, wg},
                                      {VKMD_SPEC_UFF_MD_PHASE, (uint32_t)phase}};
        const vkmd_vk_pipeline_desc pd = {.shader = shader,
                                          .buffer_count = VKMD_UFF_MD_BINDING_COUNT,
                                          .push_size = sizeof(vkmd_uff_md_push),
                                          .specs = specs,
                                          .spec_count = 2};
        VKMD_TRY(vkmd_vk_pipeline_create(ctx, &pd, phase ? &md->pipe_b : &md->pipe_baoa));
    }
    VKMD_TRY(
        make_buffer(ctx, 16 * (VkDeviceSize)batch->atom_count, "MD velocities", &md->velocities));
    VKMD_TRY(
        make_buffer(ctx, 16 * (VkDeviceSize)batch->replica_count, "MD replicas", &md->replicas));
    VKMD_TRY(make_buffer(ctx, sizeof(vkmd_uff_md_state) * (VkDeviceSize)batch->replica_count,
                         "MD state", &md->state));
    VKMD_TRY(vkmd_vk_buffer_upload(ctx, &md->replicas, 0, md->table,
                                   16 * (VkDeviceSize)batch->replica_count));
    const vkmd_vk_buffer *bufs[VKMD_UFF_MD_BINDING_COUNT];
    bufs[VKMD_UFF_MD_BINDING_POSITIONS] = vkmd_pass_uff_positions(md->pass);
    bufs[VKMD_UFF_MD_BINDING_FORCES] = vkmd_pass_uff_forces(md->pass);
    bufs[VKMD_UFF_MD_BINDING_ENERGIES] = vkmd_pass_uff_energies(md->pass);
    bufs[VKMD_UFF_MD_BINDING_VELOCITIES] = &md->velocities;
    bufs[VKMD_UFF_MD_BINDING_REPLICAS] = &md->replicas;
    bufs[VKMD_UFF_MD_BINDING_STATE] = &md->state;
    VKMD_TRY(vkmd_vk_descset_create(ctx, &md->pipe_baoa, bufs, &md->set_baoa));
    VKMD_TRY(vkmd_vk_descset_create(ctx, &md->pipe_b, bufs, &md->set_b));

    const double gamma_per_fs = p.friction_per_ps * 1e-3;
    const double c1 = exp(-gamma_per_fs * p.dt_fs);
    md->push = (vkmd_uff_md_push){.replica_count = (uint32_t)batch->replica_count,
                                  .atom_count = (uint32_t)batch->atom_count,
                                  .seed_lo = (uint32_t)p.seed,
                                  .seed_hi = (uint32_t)(p.seed >> 32),
                                  .dt_fs = (float)p.dt_fs,
                                  .c1 = (float)c1,
                                  .c2 = (float)sqrt(1 - c1 * c1),
                                  .kt = (float)(VKMD_KB_KCAL_PER_MOL_K * p.temperature_k)};
    const uint32_t max_groups =
        ctx->info.max_workgroup_count_x ? ctx->info.max_workgroup_count_x : 65535;
    md->groups =
        (uint32_t)batch->replica_count < max_groups ? (uint32_t)batch->replica_count : max_groups;
    VKMD_TRY(vkmd_vk_cmd_create(ctx, &md->cmd));
    VKMD_TRY(vkmd_vk_cmd_begin(ctx, &md->cmd));
    for (int32_t k = 0; k < p.check_interval; ++k) {
        vkmd_vk_dispatch(md->cmd.cb, &md->pipe_baoa, &md->set_baoa, &md->push, md->groups, 1, 1);
        vkmd_vk_barrier_compute(md->cmd.cb);
        vkmd_pass_uff_record(md->pass, md->cmd.cb);
        vkmd_vk_barrier_compute(md->cmd.cb);
        vkmd_vk_dispatch(md->cmd.cb, &md->pipe_b, &md->set_b, &md->push, md->groups, 1, 1);
        vkmd_vk_barrier_compute(md->cmd.cb);
    }
    vkmd_vk_barrier_compute_to_transfer(md->cmd.cb);
    vkmd_vk_barrier_device_to_host(md->cmd.cb);
    VKMD_TRY(vkmd_vk_cmd_end(ctx, &md->cmd));
    *out_md = md;
    return VKMD_OK;
cleanup:
    vkmd_uff_md_destroy(ctx, md);
    return res;
}

vkmd_result vkmd_uff_md_set_state(vkmd_vk_context *ctx, vkmd_uff_md *md, const double *xyz,
                                  const double *vel)
{
    vkmd_result res = VKMD_OK;
    const int32_t n = md->atom_count, nr = md->replica_count;
    float *v4 = calloc(4 * (size_t)n, sizeof *v4);
    vkmd_uff_md_state *st = calloc((size_t)nr, sizeof *st);
    if (!v4 || !st) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "UFF MD state of %d atoms", n);
        goto cleanup;
    }
    VKMD_TRY(vkmd_pass_uff_upload_positions(ctx, md->pass, xyz));
    const double kt = VKMD_KB_KCAL_PER_MOL_K * md->params.temperature_k;
    const uint32_t key[2] = {(uint32_t)md->params.seed, (uint32_t)(md->params.seed >> 32)};
    for (int32_t r = 0; r < nr; ++r) {
        for (uint32_t a = 0; a < md->table[4 * r + 1]; ++a) {
            const uint32_t i = md->table[4 * r] + a;
            double v[3];
            if (vel) {
                memcpy(v, vel + 3 * (size_t)i, sizeof v);
            } else {
                const uint32_t ctr[4] = {0, (uint32_t)r, a, 1};
                uint32_t bits[4];
                double g[3];
                vkmd_philox4x32_10(ctr, key, bits);
                vkmd_philox_box_muller3(bits, g);
                const double s = sqrt(kt * VKMD_ACCEL_UNIT / md->mass[i]);
                for (int c = 0; c < 3; ++c)
                    v[c] = s * g[c];
            }
            for (int c = 0; c < 3; ++c)
                v4[4 * i + c] = (float)v[c];
            v4[4 * i + 3] = md->mass[i];
        }
    }
    VKMD_TRY(vkmd_vk_buffer_upload(ctx, &md->velocities, 0, v4, 16 * (VkDeviceSize)n));
    VKMD_TRY(vkmd_vk_buffer_upload(ctx, &md->state, 0, st, sizeof *st * (VkDeviceSize)nr));
    md->steps = 0;
cleanup:
    free(v4);
    free(st);
    return res;
}

vkmd_result vkmd_uff_md_run(vkmd_vk_context *ctx, vkmd_uff_md *md, int32_t steps,
                            double *out_mean_temperature)
{
    vkmd_result res = VKMD_OK;
    const int32_t nr = md->replica_count;
    VkCommandBuffer cb = VK_NULL_HANDLE;
    vkmd_uff_md_state *st = calloc((size_t)nr, sizeof *st);
    if (!st)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "UFF MD state");
    if (steps < 0) {
        res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "UFF MD: %d steps", steps);
        goto cleanup;
    }
    /* The run's step limit and fresh kinetic sums; the step counter (the
     * Philox counter) goes on. */
    VKMD_TRY(vkmd_vk_buffer_readback(ctx, &md->state, 0, st, sizeof *st * (VkDeviceSize)nr));
    const uint32_t first = st[0].u.x;
    for (int32_t r = 0; r < nr; ++r) {
        st[r].f.x = st[r].f.y = 0;
        st[r].u.y = st[r].u.x + (uint32_t)steps;
    }
    VKMD_TRY(vkmd_vk_buffer_upload(ctx, &md->state, 0, st, sizeof *st * (VkDeviceSize)nr));
    /* Forces at the current positions. */
    VKMD_TRY(vkmd_vk_oneshot_begin(ctx, &cb));
    vkmd_pass_uff_record_clear(md->pass, cb);
    vkmd_pass_uff_record(md->pass, cb);
    vkmd_vk_barrier_compute(cb);
    VKMD_TRY(vkmd_vk_oneshot_submit(ctx, cb));
    /* A stop request (core/stop.h) ends the run between submissions: the
     * steps made are counted (vkmd_uff_md_steps), the state whole. */
    for (int32_t done = 0; done < steps && !vkmd_stop_requested();
         done += md->params.check_interval)
        VKMD_TRY(vkmd_vk_cmd_submit_wait(ctx, &md->cmd));
    VKMD_TRY(vkmd_vk_buffer_readback(ctx, &md->state, 0, st, sizeof *st * (VkDeviceSize)nr));
    steps = (int32_t)(st[0].u.x - first);
    md->steps += steps;
    for (int32_t r = 0; r < nr; ++r) {
        const double n3 = 3.0 * md->table[4 * r + 1];
        const double t = steps > 0 ? 2 * ((double)st[r].f.x - (double)st[r].f.y) / steps /
                                         (n3 * VKMD_KB_KCAL_PER_MOL_K)
                                   : 0;
        if (!isfinite(t)) {
            res = vkmd_fail(VKMD_ERROR_NUMERIC,
                            "UFF MD: replica %d has a non-finite temperature (atoms too close? a "
                            "smaller --dt?)",
                            r);
            goto cleanup;
        }
        if (out_mean_temperature)
            out_mean_temperature[r] = t;
    }
cleanup:
    free(st);
    return res;
}

vkmd_result vkmd_uff_md_read(vkmd_vk_context *ctx, vkmd_uff_md *md, double *out_xyz,
                             double *out_vel, vkmd_uff_energy *out_energies)
{
    vkmd_result res = VKMD_OK;
    const int32_t n = md->atom_count;
    VkCommandBuffer cb = VK_NULL_HANDLE;
    float *buf = calloc(4 * (size_t)n, sizeof *buf);
    if (!buf)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "UFF MD readback");
    if (out_xyz) {
        VKMD_TRY(vkmd_vk_buffer_readback(ctx, vkmd_pass_uff_positions(md->pass), 0, buf,
                                         16 * (VkDeviceSize)n));
        for (int32_t i = 0; i < n; ++i)
            for (int c = 0; c < 3; ++c)
                out_xyz[3 * i + c] = buf[4 * i + c];
    }
    if (out_vel) {
        VKMD_TRY(vkmd_vk_buffer_readback(ctx, &md->velocities, 0, buf, 16 * (VkDeviceSize)n));
        for (int32_t i = 0; i < n; ++i)
            for (int c = 0; c < 3; ++c)
                out_vel[3 * i + c] = buf[4 * i + c];
    }
    if (out_energies) {
        VKMD_TRY(vkmd_vk_oneshot_begin(ctx, &cb));
        vkmd_pass_uff_record_clear(md->pass, cb);
        vkmd_pass_uff_record(md->pass, cb);
        vkmd_vk_barrier_compute_to_transfer(cb);
        VKMD_TRY(vkmd_vk_oneshot_submit(ctx, cb));
        VKMD_TRY(vkmd_pass_uff_readback(ctx, md->pass, NULL, out_energies));
    }
cleanup:
    free(buf);
    return res;
}

int64_t vkmd_uff_md_steps(const vkmd_uff_md *md)
{
    return md->steps;
}

const vkmd_vk_buffer *vkmd_uff_md_positions(const vkmd_uff_md *md)
{
    return vkmd_pass_uff_positions(md->pass);
}

const vkmd_vk_buffer *vkmd_uff_md_velocities(const vkmd_uff_md *md)
{
    return &md->velocities;
}

const vkmd_vk_buffer *vkmd_uff_md_forces(const vkmd_uff_md *md)
{
    return vkmd_pass_uff_forces(md->pass);
}

void vkmd_uff_md_destroy(vkmd_vk_context *ctx, vkmd_uff_md *md)
{
    if (!md)
        return;
    vkmd_vk_cmd_destroy(ctx, &md->cmd);
    vkmd_vk_descset_destroy(ctx, &md->set_b);
    vkmd_vk_descset_destroy(ctx, &md->set_baoa);
    vkmd_vk_buffer_destroy(ctx, &md->state);
    vkmd_vk_buffer_destroy(ctx, &md->replicas);
    vkmd_vk_buffer_destroy(ctx, &md->velocities);
    vkmd_vk_pipeline_destroy(ctx, &md->pipe_b);
    vkmd_vk_pipeline_destroy(ctx, &md->pipe_baoa);
    vkmd_pass_uff_destroy(ctx, md->pass);
    free(md->mass);
    free(md->table);
    free(md);
}
