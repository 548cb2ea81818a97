/* Constraints on the device (see sim_constraints.h, shaders/constraints.comp).
 *
 * Two pipelines, positions and velocities (a specialization constant of one
 * source), each dispatch constraining the waters and the H clusters
 * together. The per-water and per-cluster records are uploaded once at
 * create; dt, which only the position record call knows, travels in the push
 * constants, so a recorded step replays with the dt it was recorded with. A
 * set with nothing to do (no waters, no clusters) has no pipelines and
 * records nothing. */
#include "sim/sim_constraints.h"
#include "common/vkmd_layout.h"
#include "core/log.h"
#include "forces/positions.h"
#include "vk/barrier.h"
#include "vk/pipeline.h"

#include <math.h>
#include <stdlib.h>

_Static_assert(VKMD_HCONSTRAINTS_MAX_H == VKMD_HCLUSTER_MAX,
               "constraints.comp holds every hydrogen of a cluster");

enum { KIND_SETTLE = 0, KIND_HCLUSTER = 1, KIND_COUNT = 2 };

struct vkmd_sim_constraints {
    vkmd_vk_pipeline pipeline[2]; /* [VKMD_CONSTRAINTS_MODE_*] */
    vkmd_vk_descset set[2];
    vkmd_vk_buffer records[KIND_COUNT], placeholder;
    uint32_t count[KIND_COUNT]; /* waters, clusters */
    uint32_t groups;
    int32_t atom_count;
    vkmd_constraints_push push; /* inv_dt set per record */
};

static vkmd_result bad_atom(const char *what, int32_t n, int32_t atom, int32_t atom_count)
{
    return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "constraints: %s %d names atom %d outside 0..%d",
                     what, n, atom, atom_count - 1);
}

/* Waters as uvec4 (o, h1, h2, 0), after checking indices and masses. */
static vkmd_result pack_waters(const vkmd_system *sys, const vkmd_constraint_set *set,
                               vkmd_gpu_uvec4 *out)
{
    const int32_t na = sys->atom_count;
    for (int32_t n = 0; n < set->water_count; ++n) {
        const vkmd_water *w = &set->waters[n];
        const int32_t a[3] = {w->o, w->h1, w->h2};
        for (int k = 0; k < 3; ++k)
            if (a[k] < 0 || a[k] >= na)
                return bad_atom("water", n, a[k], na);
        /* SETTLE's canonical triangle has the centre of mass on its axis */
        double m1 = sys->atoms[w->h1].mass, m2 = sys->atoms[w->h2].mass;
        if (!(sys->atoms[w->o].mass > 0) || !(m1 > 0) || fabs(m1 - m2) > 1e-9 * m1)
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "constraints: water %d (atoms %d %s, %d %s, %d %s, residue %d): "
                             "SETTLE needs positive masses and equal hydrogen masses "
                             "(%g, %g, %g amu)",
                             n, w->o, sys->atoms[w->o].name, w->h1, sys->atoms[w->h1].name, w->h2,
                             sys->atoms[w->h2].name, sys->atoms[w->o].res_index + 1,
                             sys->atoms[w->o].mass, m1, m2);
        out[n] = (vkmd_gpu_uvec4){(uint32_t)w->o, (uint32_t)w->h1, (uint32_t)w->h2, 0};
    }
    return VKMD_OK;
}

static vkmd_result pack_clusters(const vkmd_system *sys, const vkmd_constraint_set *set,
                                 vkmd_hcluster_record *out)
{
    const int32_t na = sys->atom_count;
    for (int32_t n = 0; n < set->cluster_count; ++n) {
        const vkmd_hcluster *cl = &set->clusters[n];
        if (cl->h_count < 1 || cl->h_count > VKMD_HCLUSTER_MAX)
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "constraints: cluster %d (atom %d) has %d hydrogens, not 1..%d", n,
                             cl->center, cl->h_count, VKMD_HCLUSTER_MAX);
        if (cl->center < 0 || cl->center >= na)
            return bad_atom("cluster", n, cl->center, na);
        vkmd_hcluster_record r = {.info = {(uint32_t)cl->center, (uint32_t)cl->h_count, 0, 0}};
        uint32_t *h = &r.h.x;
        float *d = &r.d.x;
        for (int32_t k = 0; k < cl->h_count; ++k) {
            if (cl->h[k] < 0 || cl->h[k] >= na)
                return bad_atom("cluster", n, cl->h[k], na);
            if (!(cl->d[k] > 0))
                return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                                 "constraints: cluster %d: atom %d %s - atom %d %s distance %g A",
                                 n, cl->center, sys->atoms[cl->center].name, cl->h[k],
                                 sys->atoms[cl->h[k]].name, cl->d[k]);
            h[k] = (uint32_t)cl->h[k];
            d[k] = (float)cl->d[k];
        }
        out[n] = r;
    }
    return VKMD_OK;
}

/* The records buffer of one kind. */
static vkmd_result upload_kind(vkmd_vk_context *ctx, vkmd_sim_constraints *c, int kind,
                               const void *records, VkDeviceSize record_size, int force_staging)
{
    vkmd_result res = VKMD_OK;
    const vkmd_vk_buffer_desc bd = {
        .size = record_size * c->count[kind],
        .force_staging = force_staging,
        .name = kind == KIND_SETTLE ? "SETTLE waters" : "H clusters",
    };
    VKMD_TRY(vkmd_vk_buffer_create(ctx, &bd, &c->records[kind]));
    VKMD_TRY(vkmd_vk_buffer_upload(ctx, &c->records[kind], 0, records, bd.size));
cleanup:
    return res;
}

/* Both pipelines and their descriptor sets (a kind without units binds a
 * placeholder). */
static vkmd_result create_pipelines(vkmd_vk_context *ctx, vkmd_sim_constraints *c,
                                    const vkmd_sim_constraints_desc *desc)
{
    vkmd_result res = VKMD_OK;
    const uint32_t wg = VKMD_CONSTRAINTS_WORKGROUP_SIZE;
    const vkmd_vk_buffer_desc pd0 = {
        .size = 64, .force_staging = desc->force_staging, .name = "constraints placeholder"};
    VKMD_TRY(vkmd_vk_buffer_create(ctx, &pd0, &c->placeholder));
    const vkmd_vk_buffer *bufs[VKMD_CONSTRAINTS_BINDING_COUNT];
    bufs[VKMD_CONSTRAINTS_BINDING_POSITIONS] = desc->positions;
    bufs[VKMD_CONSTRAINTS_BINDING_POSITIONS_REF] = desc->positions_ref;
    bufs[VKMD_CONSTRAINTS_BINDING_VELOCITIES] = desc->velocities;
    bufs[VKMD_CONSTRAINTS_BINDING_WATERS] =
        c->count[KIND_SETTLE] ? &c->records[KIND_SETTLE] : &c->placeholder;
    bufs[VKMD_CONSTRAINTS_BINDING_CLUSTERS] =
        c->count[KIND_HCLUSTER] ? &c->records[KIND_HCLUSTER] : &c->placeholder;
    VKMD_TRY(vkmd_positions_extra_binding(desc->positions, desc->positions_x, desc->positions_mode,
                                          c->atom_count, "constraints",
                                          &bufs[VKMD_CONSTRAINTS_BINDING_POSITIONS_X]));
    VKMD_TRY(vkmd_positions_extra_binding(desc->positions_ref, desc->positions_ref_x,
                                          desc->positions_mode, c->atom_count, "constraints",
                                          &bufs[VKMD_CONSTRAINTS_BINDING_REF_X]));
    for (uint32_t mode = 0; mode < 2; ++mode) {
        const vkmd_vk_spec specs[] = {{VKMD_SPEC_WORKGROUP_SIZE, wg},
                                      {VKMD_SPEC_CONSTRAINTS_MODE, mode},
                                      {VKMD_SPEC_POSITIONS, (uint32_t)desc->positions_mode}};
        const vkmd_vk_pipeline_desc pd = {
            .shader = "constraints.comp",
            .buffer_count = VKMD_CONSTRAINTS_BINDING_COUNT,
            .push_size = sizeof(vkmd_constraints_push),
            .specs = specs,
            .spec_count = 3,
        };
        VKMD_TRY(vkmd_vk_pipeline_create(ctx, &pd, &c->pipeline[mode]));
        VKMD_TRY(vkmd_vk_descset_create(ctx, &c->pipeline[mode], bufs, &c->set[mode]));
    }
    const uint32_t max_groups =
        ctx->info.max_workgroup_count_x ? ctx->info.max_workgroup_count_x : 65535;
    const uint32_t most = c->count[KIND_SETTLE] > c->count[KIND_HCLUSTER] ? c->count[KIND_SETTLE]
                                                                          : c->count[KIND_HCLUSTER];
    const uint32_t groups = vkmd_vk_div_up(most, wg);
    c->groups = groups < max_groups ? groups : max_groups;
cleanup:
    return res;
}

vkmd_result vkmd_sim_constraints_create(vkmd_vk_context *ctx, const vkmd_system *sys,
                                        const vkmd_sim_constraints_desc *desc,
                                        vkmd_sim_constraints **out_c)
{
    vkmd_result res = VKMD_OK;
    *out_c = NULL;
    if (!desc || !desc->set || !desc->positions || !desc->positions_ref || !desc->velocities)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "constraints: set, positions, positions_ref and velocities are required");
    const vkmd_constraint_set *set = desc->set;
    const double tol = desc->tol != 0 ? desc->tol : 1e-5;
    if (!(tol > 0 && tol < 0.1))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "constraints: tolerance %g is not in (0, 0.1)", desc->tol);
    const VkDeviceSize need = 16 * (VkDeviceSize)sys->atom_count;
    if (desc->positions->size < need || desc->positions_ref->size < need ||
        desc->velocities->size < need)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "constraints: positions, positions_ref and velocities must hold %d "
                         "atoms (%llu bytes)",
                         sys->atom_count, (unsigned long long)need);
    if (set->water_count < 0 || set->cluster_count < 0 || (set->water_count > 0 && !set->waters) ||
        (set->cluster_count > 0 && !set->clusters))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "constraints: malformed set (%d waters, %d clusters)", set->water_count,
                         set->cluster_count);
    double height = 0;
    if (set->water_count > 0) {
        height = set->water_d_oh * set->water_d_oh - 0.25 * set->water_d_hh * set->water_d_hh;
        if (!(set->water_d_hh > 0) || !(height > 0))
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "constraints: water distances O-H %g A, H-H %g A make no triangle",
                             set->water_d_oh, set->water_d_hh);
        height = sqrt(height);
    }

    vkmd_gpu_uvec4 *waters = NULL;
    vkmd_hcluster_record *clusters = NULL;
    vkmd_sim_constraints *c = calloc(1, sizeof *c);
    if (!c)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "constraints");
    c->atom_count = sys->atom_count;
    c->count[KIND_SETTLE] = (uint32_t)set->water_count;
    c->count[KIND_HCLUSTER] = (uint32_t)set->cluster_count;
    c->push = (vkmd_constraints_push){.water_count = c->count[KIND_SETTLE],
                                      .cluster_count = c->count[KIND_HCLUSTER],
                                      .d_hh = (float)set->water_d_hh,
                                      .height = (float)height,
                                      .tol = (float)tol,
                                      .max_iter = VKMD_HCONSTRAINTS_MAX_ITER};
    if (set->water_count > 0) {
        waters = calloc((size_t)set->water_count, sizeof *waters);
        if (!waters) {
            res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "constraints: %d waters", set->water_count);
            goto cleanup;
        }
        VKMD_TRY(pack_waters(sys, set, waters));
        VKMD_TRY(upload_kind(ctx, c, KIND_SETTLE, waters, sizeof *waters, desc->force_staging));
    }
    if (set->cluster_count > 0) {
        clusters = calloc((size_t)set->cluster_count, sizeof *clusters);
        if (!clusters) {
            res =
                vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "constraints: %d clusters", set->cluster_count);
            goto cleanup;
        }
        VKMD_TRY(pack_clusters(sys, set, clusters));
        VKMD_TRY(
            upload_kind(ctx, c, KIND_HCLUSTER, clusters, sizeof *clusters, desc->force_staging));
    }
    if (set->water_count > 0 || set->cluster_count > 0)
        VKMD_TRY(create_pipelines(ctx, c, desc));
    vkmd_log_debug("constraints: %d SETTLE waters, %d H clusters, tolerance %g", set->water_count,
                   set->cluster_count, tol);
    free(waters);
    free(clusters);
    *out_c = c;
    return VKMD_OK;
cleanup:
    free(waters);
    free(clusters);
    vkmd_sim_constraints_destroy(ctx, c);
    return res;
}

void vkmd_sim_constraints_destroy(vkmd_vk_context *ctx, vkmd_sim_constraints *c)
{
    if (!c)
        return;
    for (int mode = 0; mode < 2; ++mode) {
        vkmd_vk_descset_destroy(ctx, &c->set[mode]);
        vkmd_vk_pipeline_destroy(ctx, &c->pipeline[mode]);
    }
    for (int kind = 0; kind < KIND_COUNT; ++kind)
        vkmd_vk_buffer_destroy(ctx, &c->records[kind]);
    vkmd_vk_buffer_destroy(ctx, &c->placeholder);
    free(c);
}

/* Both kinds in one dispatch (disjoint atoms), then the barrier that makes
 * the results visible to the next pass. */
static void record_mode(const vkmd_sim_constraints *c, VkCommandBuffer cb, uint32_t mode,
                        float inv_dt)
{
    if (vkmd_sim_constraints_dispatch_count(c) == 0)
        return;
    vkmd_constraints_push p = c->push;
    p.inv_dt = inv_dt;
    vkmd_vk_dispatch(cb, &c->pipeline[mode], &c->set[mode], &p, c->groups, 1, 1);
    vkmd_vk_barrier_compute(cb);
}

void vkmd_sim_constraints_record_positions(const vkmd_sim_constraints *c, VkCommandBuffer cb,
                                           float dt_fs)
{
    record_mode(c, cb, VKMD_CONSTRAINTS_MODE_POSITIONS, dt_fs > 0 ? 1.0f / dt_fs : 0.0f);
}

void vkmd_sim_constraints_record_velocities(const vkmd_sim_constraints *c, VkCommandBuffer cb)
{
    record_mode(c, cb, VKMD_CONSTRAINTS_MODE_VELOCITIES, 0.0f);
}

uint32_t vkmd_sim_constraints_dispatch_count(const vkmd_sim_constraints *c)
{
    return c->count[KIND_SETTLE] > 0 || c->count[KIND_HCLUSTER] > 0;
}

void vkmd_sim_constraints_view_get(const vkmd_sim_constraints *c, vkmd_sim_constraints_view *out)
{
    *out = (vkmd_sim_constraints_view){
        .waters = c->count[KIND_SETTLE] ? &c->records[KIND_SETTLE] : NULL,
        .clusters = c->count[KIND_HCLUSTER] ? &c->records[KIND_HCLUSTER] : NULL,
        .water_count = c->count[KIND_SETTLE],
        .cluster_count = c->count[KIND_HCLUSTER],
        .d_hh = c->push.d_hh,
        .height = c->push.height,
        .tol = c->push.tol,
        .max_iter = c->push.max_iter,
    };
}
