/* The fused MD step (see step.h). */
#include "sim/step.h"

#include "core/log.h"
#include "forces/fixed_point.h"
#include "forces/positions.h"
#include "forces/tile.h"
#include "vk/barrier.h"
#include "vk/pipeline.h"

#include <stdlib.h>
#include <string.h>

struct vkmd_step {
    vkmd_vk_pipeline step[VKMD_STEP_MODE_COUNT];
    vkmd_vk_descset step_set[VKMD_STEP_MODE_COUNT];
    vkmd_vk_pipeline forces[2]; /* without, with energies */
    vkmd_vk_descset forces_set[2];
    vkmd_vk_buffer free_atoms, step_params, forces_params, placeholder;
    const vkmd_neighbor *nl;
    const vkmd_pass_pme *pme;
    vkmd_forcefield *ff;
    const vkmd_sim_constraints *constraints;
    vkmd_step_desc desc;
    uint32_t step_groups, forces_groups; /* powers of two (common/group_order.glsl) */
    uint32_t free_count;
};

static vkmd_result make_buffer(vkmd_vk_context *ctx, vkmd_vk_buffer *buf, VkDeviceSize size,
                               int force_staging, const char *name)
{
    const vkmd_vk_buffer_desc d = {
        .size = size ? size : 16, .force_staging = force_staging, .name = name};
    return vkmd_vk_buffer_create(ctx, &d, buf);
}

/* The stride of common/group_order.glsl for n workgroups: coprime to n,
 * near 0.618 n (so consecutive workgroups take blocks spread over the
 * range). */
static uint32_t group_stride(uint32_t n)
{
    if (n <= 2)
        return n == 2 ? 1u : 0u;
    for (uint32_t p = (uint32_t)(0.6180339887 * n + 0.5);; ++p) {
        uint32_t a = n, b = p % n;
        while (b) {
            const uint32_t t = a % b;
            a = b;
            b = t;
        }
        if (a == 1)
            return p % n;
    }
}

/* Atoms in no rigid water and no H cluster, ascending. */
static vkmd_result free_atom_list(const vkmd_system *sys, const vkmd_constraint_set *set,
                                  uint32_t **out, uint32_t *out_count)
{
    const int32_t n = sys->atom_count;
    uint8_t *held = calloc((size_t)n, 1);
    uint32_t *list = malloc(sizeof *list * (size_t)(n ? n : 1));
    if (!held || !list) {
        free(held);
        free(list);
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "step: out of memory");
    }
    for (int32_t w = 0; w < set->water_count; ++w) {
        held[set->waters[w].o] = 1;
        held[set->waters[w].h1] = 1;
        held[set->waters[w].h2] = 1;
    }
    for (int32_t c = 0; c < set->cluster_count; ++c) {
        held[set->clusters[c].center] = 1;
        for (int32_t k = 0; k < set->clusters[c].h_count; ++k)
            held[set->clusters[c].h[k]] = 1;
    }
    uint32_t count = 0;
    for (int32_t a = 0; a < n; ++a)
        if (!held[a])
            list[count++] = (uint32_t)a;
    free(held);
    *out = list;
    *out_count = count;
    return VKMD_OK;
}

vkmd_result vkmd_step_update(vkmd_vk_context *ctx, vkmd_step *st)
{
    const vkmd_step_desc *d = &st->desc;
    vkmd_sim_constraints_view cv;
    vkmd_sim_constraints_view_get(st->constraints, &cv);
    vkmd_neighbor_view nv;
    vkmd_neighbor_view_get(st->nl, &nv);
    vkmd_pass_pme_view pv;
    vkmd_pass_pme_view_get(st->pme, &pv);
    uint32_t max_iter = cv.max_iter;
    float max_iter_bits;
    memcpy(&max_iter_bits, &max_iter, 4);
    vkmd_step_params sp = {
        .box = {pv.push.box.x, pv.push.box.y, pv.push.box.z, 1.0f},
        .counts = {nv.atom_count, cv.water_count, cv.cluster_count, st->free_count},
        .md = {d->dt_fs, d->c1, d->c2, 1.0f / d->dt_fs},
        .seed = {(uint32_t)d->seed, (uint32_t)(d->seed >> 32), 0u, group_stride(st->step_groups)},
        .hold = {cv.d_hh, cv.height, cv.tol, max_iter_bits},
        .pme_grid = pv.push.grid,
        .nl = nv.push,
    };
    vkmd_forces_params fp = {.pme_grid = pv.push.grid,
                             .roles = {st->forces_groups, group_stride(st->forces_groups), 0, 0}};
    const vkmd_vk_buffer *unused_params, *unused_lj, *unused_terms;
    vkmd_pass_nonbonded_view(vkmd_forcefield_nonbonded(st->ff), &unused_params, &unused_lj, &fp.nb);
    vkmd_pass_bonded_view(vkmd_forcefield_bonded(st->ff), &unused_terms, &fp.bd);
    fp.nl = nv.push;
    vkmd_result res = vkmd_vk_buffer_upload(ctx, &st->step_params, 0, &sp, sizeof sp);
    if (res == VKMD_OK)
        res = vkmd_vk_buffer_upload(ctx, &st->forces_params, 0, &fp, sizeof fp);
    return res;
}

vkmd_result vkmd_step_create(vkmd_vk_context *ctx, const vkmd_system *sys,
                             const vkmd_step_desc *desc, vkmd_step **out_step)
{
    vkmd_result res = VKMD_OK;
    vkmd_step *st = NULL;
    uint32_t *free_list = NULL;
    *out_step = NULL;
    if (!desc || !desc->ff || !desc->constraints || !desc->set || !desc->positions_ref ||
        !desc->velocities || !desc->counter)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "step: force field, constraints, reference positions, velocities and "
                         "counter are required");
    const vkmd_neighbor *nl = vkmd_forcefield_neighbor(desc->ff);
    const vkmd_pass_pme *pme = vkmd_forcefield_pme(desc->ff);
    if (!sys->box.periodic || !nl || !pme)
        return vkmd_fail(VKMD_ERROR_UNSUPPORTED,
                         "step: the fused step needs a periodic system with PME");
    const int mode = vkmd_forcefield_positions_mode(desc->ff);
    const char *step_shader = NULL, *forces_shader = NULL;
    uint32_t tile_wg = 0;
    VKMD_TRY(vkmd_fixed_shader(ctx, "step", "step.comp", &step_shader));
    /* With split tiles (GPUs) a pair-role workgroup is the split's groups,
     * which prune one cluster together before each takes its part
     * (forces.comp). */
    const uint32_t split = vkmd_tile_split(ctx);
    VKMD_TRY(vkmd_tile_shader(ctx, "step", "forces.comp",
                              split > 1 ? VKMD_NL_CLUSTER_SIZE * split : VKMD_NB_WORKGROUP_SIZE, 1,
                              &forces_shader, &tile_wg));
    if (tile_wg > ctx->info.max_workgroup_invocations)
        VKMD_TRY(vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                           "step: a tile split of %u needs workgroups of %u invocations (the "
                           "device allows %u)",
                           split, tile_wg, ctx->info.max_workgroup_invocations));

    st = calloc(1, sizeof *st);
    if (!st)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "step");
    st->desc = *desc;
    st->nl = nl;
    st->pme = pme;
    st->ff = desc->ff;
    st->constraints = desc->constraints;
    const int fs = desc->force_staging;
    uint32_t free_count = 0;
    VKMD_TRY(free_atom_list(sys, desc->set, &free_list, &free_count));
    VKMD_TRY(
        make_buffer(ctx, &st->free_atoms, 4 * (VkDeviceSize)free_count, fs, "step free atoms"));
    if (free_count)
        VKMD_TRY(vkmd_vk_buffer_upload(ctx, &st->free_atoms, 0, free_list, 4 * (size_t)free_count));
    st->free_count = free_count;
    VKMD_TRY(make_buffer(ctx, &st->step_params, sizeof(vkmd_step_params), fs, "step parameters"));
    VKMD_TRY(
        make_buffer(ctx, &st->forces_params, sizeof(vkmd_forces_params), fs, "forces parameters"));
    VKMD_TRY(make_buffer(ctx, &st->placeholder, 16, fs, "step placeholder"));

    vkmd_neighbor_view nv;
    vkmd_neighbor_view_get(nl, &nv);
    vkmd_pass_pme_view pv;
    vkmd_pass_pme_view_get(pme, &pv);
    vkmd_sim_constraints_view cv;
    vkmd_sim_constraints_view_get(desc->constraints, &cv);
    const vkmd_accum *acc = vkmd_forcefield_accum(desc->ff);
    const vkmd_vk_buffer *ph = &st->placeholder;

    /* Groups: a thread per unit of the most numerous kind; a workgroup of
     * tile groups per role in forces.comp, enough for every cluster. */
    uint32_t most = cv.water_count > cv.cluster_count ? cv.water_count : cv.cluster_count;
    most = free_count > most ? free_count : most;
    const uint32_t max_groups =
        ctx->info.max_workgroup_count_x ? ctx->info.max_workgroup_count_x : 65535;
    st->step_groups = vkmd_vk_div_up(most ? most : 1, VKMD_STEP_WORKGROUP_SIZE);
    st->forces_groups = vkmd_vk_div_up(nv.cluster_capacity * split, tile_wg / VKMD_NL_CLUSTER_SIZE);
    if (st->step_groups > max_groups)
        st->step_groups = max_groups;
    if (st->forces_groups * VKMD_FORCES_ROLES > max_groups)
        st->forces_groups = max_groups / VKMD_FORCES_ROLES;
    VKMD_TRY(vkmd_step_update(ctx, st));

    /* Texel views for the hot reads where the device wants them
     * (vk/pipeline.h), else the placeholder at those bindings. */
    const int texel_reads = vkmd_vk_texel_reads(ctx);
    const vkmd_vk_buffer *sb[VKMD_STEP_BINDING_COUNT + VKMD_STEP_TEXEL_COUNT];
    sb[VKMD_STEP_BINDING_POSITIONS] = vkmd_forcefield_positions(desc->ff);
    VKMD_TRY(vkmd_positions_extra_binding(
        sb[VKMD_STEP_BINDING_POSITIONS], vkmd_forcefield_positions_x(desc->ff), mode,
        sys->atom_count, "step", &sb[VKMD_STEP_BINDING_POSITIONS_X]));
    sb[VKMD_STEP_BINDING_REF] = desc->positions_ref;
    VKMD_TRY(vkmd_positions_extra_binding(desc->positions_ref, desc->positions_ref_x, mode,
                                          sys->atom_count, "step", &sb[VKMD_STEP_BINDING_REF_X]));
    sb[VKMD_STEP_BINDING_VELOCITIES] = desc->velocities;
    sb[VKMD_STEP_BINDING_FORCES] = &acc->forces;
    sb[VKMD_STEP_BINDING_COUNTER] = desc->counter;
    sb[VKMD_STEP_BINDING_WATERS] = cv.waters ? cv.waters : ph;
    sb[VKMD_STEP_BINDING_HCLUSTERS] = cv.clusters ? cv.clusters : ph;
    sb[VKMD_STEP_BINDING_FREE] = &st->free_atoms;
    sb[VKMD_STEP_BINDING_PARAMS] = &st->step_params;
    sb[VKMD_STEP_BINDING_NL_STATE] = nv.state;
    sb[VKMD_STEP_BINDING_NL_SAVED] = nv.saved;
    sb[VKMD_STEP_BINDING_NL_SLOT_OF] = nv.slot_of;
    sb[VKMD_STEP_BINDING_NL_CLUSTER] = nv.cluster;
    sb[VKMD_STEP_BINDING_NL_REL] = nv.rel;
    sb[VKMD_STEP_BINDING_NL_ARGS] = nv.args;
    sb[VKMD_STEP_BINDING_NL_GATE] = nv.gate;
    sb[VKMD_STEP_BINDING_CHARGES] = pv.charges;
    sb[VKMD_STEP_BINDING_QGRID] = pv.charge_grid;
    sb[VKMD_STEP_BINDING_GRID] = pv.fft_grid;
    sb[VKMD_STEP_BINDING_ENERGIES] = &acc->energies;
    sb[VKMD_STEP_BINDING_GRID_TEXELS] = texel_reads ? pv.fft_grid : ph;
    for (uint32_t m = 0; m < VKMD_STEP_MODE_COUNT; ++m) {
        if (desc->verlet ? m == VKMD_STEP_MODE_LM : m != VKMD_STEP_MODE_LM)
            continue;
        const vkmd_vk_spec specs[] = {{VKMD_SPEC_WORKGROUP_SIZE, VKMD_STEP_WORKGROUP_SIZE},
                                      {VKMD_SPEC_POSITIONS, (uint32_t)mode},
                                      {VKMD_SPEC_STEP_MODE, m},
                                      {VKMD_SPEC_PME_ORDER, (uint32_t)pv.order},
                                      {VKMD_SPEC_TEXEL_READS, (uint32_t)texel_reads}};
        const vkmd_vk_pipeline_desc pd = {.shader = step_shader,
                                          .buffer_count = VKMD_STEP_BINDING_COUNT,
                                          .texel_count = VKMD_STEP_TEXEL_COUNT,
                                          .texel_scalar_mask = VKMD_STEP_TEXEL_SCALAR_MASK,
                                          .push_size = sizeof(vkmd_step_push),
                                          .specs = specs,
                                          .spec_count = 5};
        VKMD_TRY(vkmd_vk_pipeline_create(ctx, &pd, &st->step[m]));
        VKMD_TRY(vkmd_vk_descset_create(ctx, &st->step[m], sb, &st->step_set[m]));
    }

    const vkmd_vk_buffer *nb_params, *lj, *terms;
    vkmd_nb_push nb_push;
    vkmd_bonded_push bd_push;
    vkmd_pass_nonbonded_view(vkmd_forcefield_nonbonded(desc->ff), &nb_params, &lj, &nb_push);
    vkmd_pass_bonded_view(vkmd_forcefield_bonded(desc->ff), &terms, &bd_push);
    const vkmd_vk_buffer *fb[VKMD_FORCES_BINDING_COUNT + VKMD_FORCES_TEXEL_COUNT];
    fb[VKMD_FORCES_BINDING_POSITIONS] = sb[VKMD_STEP_BINDING_POSITIONS];
    fb[VKMD_FORCES_BINDING_POSITIONS_X] = sb[VKMD_STEP_BINDING_POSITIONS_X];
    fb[VKMD_FORCES_BINDING_FORCES] = &acc->forces;
    fb[VKMD_FORCES_BINDING_ENERGIES] = &acc->energies;
    fb[VKMD_FORCES_BINDING_NB_PARAMS] = nb_params;
    fb[VKMD_FORCES_BINDING_LJ] = lj;
    fb[VKMD_FORCES_BINDING_ORDER] = nv.order;
    fb[VKMD_FORCES_BINDING_REL] = nv.rel;
    fb[VKMD_FORCES_BINDING_OUTER] = nv.outer;
    fb[VKMD_FORCES_BINDING_INNER] = nv.inner;
    fb[VKMD_FORCES_BINDING_MASKS] = nv.masks;
    fb[VKMD_FORCES_BINDING_COUNTS] = nv.counts;
    fb[VKMD_FORCES_BINDING_NL_STATE] = nv.state;
    fb[VKMD_FORCES_BINDING_NL_SAVED] = nv.saved;
    fb[VKMD_FORCES_BINDING_TERMS] = terms;
    fb[VKMD_FORCES_BINDING_QGRID] = pv.charge_grid;
    fb[VKMD_FORCES_BINDING_GRID] = pv.fft_grid;
    fb[VKMD_FORCES_BINDING_PARAMS] = &st->forces_params;
    fb[VKMD_FORCES_BINDING_ORDER_TEXELS] = texel_reads ? nv.order : ph;
    fb[VKMD_FORCES_BINDING_REL_TEXELS] = texel_reads ? nv.rel : ph;
    fb[VKMD_FORCES_BINDING_NB_PARAMS_TEXELS] = texel_reads ? nb_params : ph;
    const int lj_table = vkmd_pass_nonbonded_lj_table(vkmd_forcefield_nonbonded(desc->ff));
    for (uint32_t k = 0; k < 2; ++k) {
        const vkmd_vk_spec specs[] = {{VKMD_SPEC_WORKGROUP_SIZE, tile_wg},
                                      {VKMD_SPEC_POSITIONS, (uint32_t)mode},
                                      {VKMD_SPEC_ENERGY, k},
                                      {VKMD_SPEC_NB_LJ_TABLE, (uint32_t)lj_table},
                                      {VKMD_SPEC_NB_TILE_SPLIT, split},
                                      {VKMD_SPEC_TEXEL_READS, (uint32_t)texel_reads}};
        const vkmd_vk_pipeline_desc pd = {.shader = forces_shader,
                                          .buffer_count = VKMD_FORCES_BINDING_COUNT,
                                          .texel_count = VKMD_FORCES_TEXEL_COUNT,
                                          .texel_scalar_mask = VKMD_FORCES_TEXEL_SCALAR_MASK,
                                          .specs = specs,
                                          .spec_count = 6};
        VKMD_TRY(vkmd_vk_pipeline_create(ctx, &pd, &st->forces[k]));
        VKMD_TRY(vkmd_vk_descset_create(ctx, &st->forces[k], fb, &st->forces_set[k]));
    }
    vkmd_log_debug("step: fused, %u waters, %u H clusters, %u free atoms, %u + 3 x %u groups "
                   "(tiles split %u), %s reads",
                   cv.water_count, cv.cluster_count, free_count, st->step_groups, st->forces_groups,
                   split, texel_reads ? "texel" : "storage-buffer");
    *out_step = st;
    st = NULL;
cleanup:
    free(free_list);
    vkmd_step_destroy(ctx, st);
    return res;
}

void vkmd_step_destroy(vkmd_vk_context *ctx, vkmd_step *st)
{
    if (!st)
        return;
    for (int m = 0; m < VKMD_STEP_MODE_COUNT; ++m) {
        vkmd_vk_descset_destroy(ctx, &st->step_set[m]);
        vkmd_vk_pipeline_destroy(ctx, &st->step[m]);
    }
    for (int k = 0; k < 2; ++k) {
        vkmd_vk_descset_destroy(ctx, &st->forces_set[k]);
        vkmd_vk_pipeline_destroy(ctx, &st->forces[k]);
    }
    vkmd_vk_buffer *bufs[] = {&st->free_atoms, &st->step_params, &st->forces_params,
                              &st->placeholder};
    for (size_t k = 0; k < sizeof bufs / sizeof *bufs; ++k)
        vkmd_vk_buffer_destroy(ctx, bufs[k]);
    free(st);
}

static void dispatch_step(const vkmd_step *st, VkCommandBuffer cb, uint32_t mode,
                          const vkmd_step_push *push)
{
    vkmd_vk_dispatch(cb, &st->step[mode], &st->step_set[mode], push, st->step_groups, 1, 1);
}

void vkmd_step_record(const vkmd_step *st, VkCommandBuffer cb, uint32_t offset, unsigned flags,
                      vkmd_step_mark_fn mark, void *user)
{
    const int first = (flags & VKMD_STEP_FIRST) != 0, energy = (flags & VKMD_STEP_ENERGY) != 0;
    const int rebuild = (flags & VKMD_STEP_REBUILD) != 0;
    const vkmd_step_push push = {.step_offset = offset,
                                 .gather = first ? 0u : 1u,
                                 .may_rebuild = rebuild ? 1u : 0u,
                                 .energy = energy ? 1u : 0u};
    const uint32_t mode = !st->desc.verlet ? VKMD_STEP_MODE_LM
                          : first          ? VKMD_STEP_MODE_VV_OPEN
                                           : VKMD_STEP_MODE_VV_STEP;
    /* The last inverse FFT (phi) and every other write of the last step
     * before the integration reads them. */
    vkmd_vk_barrier_compute(cb);
    dispatch_step(st, cb, mode, &push);
    if (mark)
        mark(user, cb, VKMD_STEP_PIECE_STEP);
    /* The check's dispatch arguments (indirect reads), its gate words in a
     * gated batch, and the spread grid, relative positions, cleared forces
     * (compute reads). */
    vkmd_neighbor_record_check_barrier(cb, (flags & VKMD_STEP_GATED) ? VKMD_NL_RECORD_GATED : 0u);
    if (rebuild)
        vkmd_neighbor_record_rebuild(st->nl, cb);
    if (mark)
        mark(user, cb, VKMD_STEP_PIECE_REBUILD);
    const int k = energy ? 1 : 0;
    vkmd_vk_dispatch(cb, &st->forces[k], &st->forces_set[k], NULL,
                     st->forces_groups * VKMD_FORCES_ROLES, 1, 1);
    vkmd_vk_barrier_compute(cb);
    if (mark)
        mark(user, cb, VKMD_STEP_PIECE_FORCES);
    /* The batch recorded the convolution kernel at its start
     * (vkmd_forcefield_record_prepare): steps without energies take VkFFT's
     * fused convolution. */
    vkmd_pass_pme_record_spectral(st->pme, cb,
                                  energy ? VKMD_PME_RECORD_ENERGY : VKMD_PME_RECORD_FUSED);
    if (mark)
        mark(user, cb, VKMD_STEP_PIECE_SPECTRAL);
}

void vkmd_step_record_close(const vkmd_step *st, VkCommandBuffer cb, vkmd_step_mark_fn mark,
                            void *user)
{
    vkmd_vk_barrier_compute(cb);
    vkmd_pass_pme_record_gather(st->pme, cb);
    vkmd_vk_barrier_compute(cb);
    if (mark)
        mark(user, cb, VKMD_STEP_PIECE_GATHER);
    if (st->desc.verlet) {
        const vkmd_step_push push = {.gather = 0u};
        dispatch_step(st, cb, VKMD_STEP_MODE_VV_CLOSE, &push);
        vkmd_vk_barrier_compute(cb);
        if (mark)
            mark(user, cb, VKMD_STEP_PIECE_CLOSE);
    }
}
