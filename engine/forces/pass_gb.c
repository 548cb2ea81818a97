/* The generalized Born pass (pass_gb.h): per-atom parameters, the neck table
 * over the system's distinct radii, a scratch buffer, and four pipelines of
 * shaders/gb.comp (radii, energy phase without and with energies, forces)
 * over one descriptor set. */
#include "forces/pass_gb.h"

#include "common/layout_gb.h"
#include "core/log.h"
#include "forces/fixed_point.h"
#include "forces/positions.h"
#include "vk/barrier.h"
#include "vk/pipeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { PIPE_RADII = 0, PIPE_ENERGY_NO_E, PIPE_ENERGY_E, PIPE_FORCES, PIPE_COUNT };

struct vkmd_pass_gb {
    vkmd_vk_pipeline pipeline[PIPE_COUNT];
    vkmd_vk_descset set;
    vkmd_vk_buffer atoms, neck, scratch;
    vkmd_gb_push push;
    uint32_t groups;
};

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The distinct radii of p, sorted, into *out_radii (malloc'd) and their
 * count; each atom's index among them into index [atom_count]. */
static vkmd_result distinct_radii(const vkmd_gb_params *p, double **out_radii, uint32_t *out_count,
                                  uint32_t *index)
{
    const int32_t n = p->atom_count;
    double *r = malloc((size_t)n * sizeof *r);
    if (!r)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "generalized Born pass: %d radii", n);
    memcpy(r, p->radius, (size_t)n * sizeof *r);
    qsort(r, (size_t)n, sizeof *r, cmp_double);
    uint32_t count = 0;
    for (int32_t a = 0; a < n; ++a)
        if (count == 0 || r[a] != r[count - 1])
            r[count++] = r[a];
    for (int32_t a = 0; a < n; ++a) {
        const double *hit = bsearch(&p->radius[a], r, count, sizeof *r, cmp_double);
        index[a] = (uint32_t)(hit - r);
    }
    *out_radii = r;
    *out_count = count;
    return VKMD_OK;
}

static vkmd_result upload_tables(vkmd_vk_context *ctx, vkmd_pass_gb *pass, const vkmd_gb_params *p,
                                 int force_staging)
{
    vkmd_result res = VKMD_OK;
    const int32_t n = p->atom_count;
    double *radii = NULL;
    uint32_t rc = 0;
    uint32_t *index = malloc((size_t)n * sizeof *index);
    vkmd_gb_atom *atoms = calloc((size_t)n, sizeof *atoms);
    vkmd_gb_neck *neck = NULL;
    if (!index || !atoms) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "generalized Born pass: %d atoms", n);
        goto cleanup;
    }
    VKMD_TRY(distinct_radii(p, &radii, &rc, index));
    const double sqrt_k = sqrt(p->coulomb_k);
    for (int32_t a = 0; a < n; ++a) {
        const uint32_t idx = index[a];
        float idx_bits;
        memcpy(&idx_bits, &idx, sizeof idx_bits);
        atoms[a].a = (vkmd_gpu_vec4){(float)p->offset_radius[a], (float)p->scaled_radius[a],
                                     (float)p->radius[a], (float)(p->charge[a] * sqrt_k)};
        atoms[a].b =
            (vkmd_gpu_vec4){(float)p->alpha[a], (float)p->beta[a], (float)p->gamma[a], idx_bits};
    }
    /* The neck constants of every ordered pair of distinct radii, as the
     * reference looks them up pair by pair; one unread entry without a neck. */
    const uint32_t entries = p->neck_scale > 0 ? rc * rc : 1u;
    neck = calloc(entries, sizeof *neck);
    if (!neck) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "generalized Born pass: neck table of %u", rc);
        goto cleanup;
    }
    for (uint32_t row = 0; p->neck_scale > 0 && row < rc; ++row)
        for (uint32_t col = 0; col < rc; ++col) {
            double d0, m0;
            vkmd_gb_neck_lookup(radii[row], radii[col], &d0, &m0);
            neck[row * rc + col] = (vkmd_gb_neck){(float)d0, (float)m0};
        }
    pass->push.radius_count = p->neck_scale > 0 ? rc : 1u;

    const vkmd_vk_buffer_desc ad = {.size = (VkDeviceSize)n * sizeof *atoms,
                                    .force_staging = force_staging,
                                    .name = "generalized Born atoms"};
    const vkmd_vk_buffer_desc nd = {.size = (VkDeviceSize)entries * sizeof *neck,
                                    .force_staging = force_staging,
                                    .name = "generalized Born neck table"};
    const vkmd_vk_buffer_desc sd = {.size = (VkDeviceSize)n * 3 * sizeof(vkmd_gpu_vec4),
                                    .force_staging = force_staging,
                                    .name = "generalized Born scratch"};
    VKMD_TRY(vkmd_vk_buffer_create(ctx, &ad, &pass->atoms));
    VKMD_TRY(vkmd_vk_buffer_upload(ctx, &pass->atoms, 0, atoms, ad.size));
    VKMD_TRY(vkmd_vk_buffer_create(ctx, &nd, &pass->neck));
    VKMD_TRY(vkmd_vk_buffer_upload(ctx, &pass->neck, 0, neck, nd.size));
    VKMD_TRY(vkmd_vk_buffer_create(ctx, &sd, &pass->scratch));
    vkmd_log_debug("generalized Born pass: %d atoms, %u distinct radii, neck table %u entries", n,
                   rc, entries);
cleanup:
    free(radii);
    free(index);
    free(atoms);
    free(neck);
    return res;
}

vkmd_result vkmd_pass_gb_create(vkmd_vk_context *ctx, const vkmd_gb_params *params,
                                const vkmd_pass_gb_desc *desc, vkmd_pass_gb **out_pass)
{
    vkmd_result res = VKMD_OK;
    *out_pass = NULL;
    if (!params || params->atom_count <= 0 || !desc || !desc->positions || !desc->accum)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "generalized Born pass: parameters, positions and accumulators are "
                         "required");
    const int32_t n = params->atom_count;
    if (desc->accum->atom_count != n || desc->positions->size < (VkDeviceSize)n * 16)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "generalized Born pass: buffers sized for %d atoms, parameters for %d",
                         desc->accum->atom_count, n);
    const uint32_t wg = desc->workgroup_size ? desc->workgroup_size : VKMD_GB_WORKGROUP_SIZE;
    const uint32_t shared_bytes = wg * (2 * 16 + 2 * 8);
    if ((wg & (wg - 1)) != 0 || wg > ctx->info.max_workgroup_invocations ||
        shared_bytes > ctx->info.max_shared_memory_bytes)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "generalized Born pass: workgroup size %u is not a power of two <= %u "
                         "whose tiles (%u bytes) fit the device's %u bytes of shared memory",
                         wg, ctx->info.max_workgroup_invocations, shared_bytes,
                         ctx->info.max_shared_memory_bytes);
    const uint32_t groups = vkmd_vk_div_up((uint32_t)n, wg);
    const uint32_t max_groups =
        ctx->info.max_workgroup_count_x ? ctx->info.max_workgroup_count_x : 65535;
    if (groups > max_groups)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "generalized Born pass: %d atoms need %u workgroups of %u, the device "
                         "dispatches %u",
                         n, groups, wg, max_groups);
    const char *shader = NULL;
    VKMD_TRY_RETURN(vkmd_fixed_shader(ctx, "generalized Born pass", "gb.comp", &shader));
    /* CPU devices pass the j atoms round by subgroup shuffles (the +subgroup
     * builds, shaders/gb.comp): a shared-memory read there is a loop over
     * the lanes. Same bits. */
    if (vkmd_vk_texel_reads(ctx) && ctx->info.features.subgroup_shuffle)
        shader =
            strcmp(shader, "gb.comp+words") == 0 ? "gb.comp+subgroupwords" : "gb.comp+subgroup";
    vkmd_pass_gb *p = calloc(1, sizeof *p);
    if (!p)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "generalized Born pass");
    p->groups = groups;

    const vkmd_gb_settings *s = &params->settings;
    vkmd_gb_push *q = &p->push;
    q->atom_count = (uint32_t)n;
    q->flags = (s->model != VKMD_GB_HCT ? VKMD_GB_FLAG_RESCALE : 0u) |
               (s->nonpolar ? VKMD_GB_FLAG_NONPOLAR : 0u) |
               (s->cutoff_a > 0 ? VKMD_GB_FLAG_CUTOFF : 0u);
    q->kappa = (float)params->kappa_per_a;
    q->inv_eps_in = (float)(1.0 / s->solute_dielectric);
    q->inv_eps_out = (float)(1.0 / s->solvent_dielectric);
    q->inv_cut = s->cutoff_a > 0 ? (float)(1.0 / s->cutoff_a) : 0.0f;
    q->cut2 = s->cutoff_a > 0 ? (float)(s->cutoff_a * s->cutoff_a) : 0.0f;
    q->neck_scale = (float)params->neck_scale;
    q->neck_cut = (float)params->neck_cut_a;
    q->probe = (float)s->probe_radius_a;
    q->ace_factor = (float)params->ace_factor;
    VKMD_TRY(upload_tables(ctx, p, params, desc->force_staging));

    static const uint32_t modes[PIPE_COUNT] = {VKMD_GB_MODE_RADII, VKMD_GB_MODE_ENERGY,
                                               VKMD_GB_MODE_ENERGY, VKMD_GB_MODE_FORCES};
    for (uint32_t k = 0; k < PIPE_COUNT; ++k) {
        const vkmd_vk_spec specs[] = {{VKMD_SPEC_WORKGROUP_SIZE, wg},
                                      {VKMD_SPEC_POSITIONS, (uint32_t)desc->positions_mode},
                                      {VKMD_SPEC_ENERGY, k == PIPE_ENERGY_E ? 1u : 0u},
                                      {VKMD_SPEC_GB_MODE, modes[k]}};
        const vkmd_vk_pipeline_desc pd = {.shader = shader,
                                          .buffer_count = VKMD_GB_BINDING_COUNT,
                                          .push_size = sizeof(vkmd_gb_push),
                                          .specs = specs,
                                          .spec_count = 4};
        VKMD_TRY(vkmd_vk_pipeline_create(ctx, &pd, &p->pipeline[k]));
    }
    const vkmd_vk_buffer *pos_x = NULL;
    VKMD_TRY(vkmd_positions_extra_binding(desc->positions, desc->positions_x, desc->positions_mode,
                                          n, "generalized Born pass", &pos_x));
    const vkmd_vk_buffer *bufs[VKMD_GB_BINDING_COUNT];
    bufs[VKMD_GB_BINDING_POSITIONS] = desc->positions;
    bufs[VKMD_GB_BINDING_POSITIONS_X] = pos_x;
    bufs[VKMD_GB_BINDING_FORCES] = &desc->accum->forces;
    bufs[VKMD_GB_BINDING_ENERGIES] = &desc->accum->energies;
    bufs[VKMD_GB_BINDING_ATOMS] = &p->atoms;
    bufs[VKMD_GB_BINDING_NECK] = &p->neck;
    bufs[VKMD_GB_BINDING_SCRATCH] = &p->scratch;
    VKMD_TRY(vkmd_vk_descset_create(ctx, &p->pipeline[0], bufs, &p->set));
    vkmd_log_debug("generalized Born pass: %s, %u groups of %u, fixed point in %s",
                   vkmd_gb_model_name(s->model), p->groups, wg,
                   vkmd_fixed_mode_name(vkmd_fixed_mode_of(ctx)));
    *out_pass = p;
    return VKMD_OK;
cleanup:
    vkmd_pass_gb_destroy(ctx, p);
    return res;
}

void vkmd_pass_gb_destroy(vkmd_vk_context *ctx, vkmd_pass_gb *pass)
{
    if (!pass)
        return;
    vkmd_vk_descset_destroy(ctx, &pass->set);
    vkmd_vk_buffer_destroy(ctx, &pass->scratch);
    vkmd_vk_buffer_destroy(ctx, &pass->neck);
    vkmd_vk_buffer_destroy(ctx, &pass->atoms);
    for (int k = 0; k < PIPE_COUNT; ++k)
        vkmd_vk_pipeline_destroy(ctx, &pass->pipeline[k]);
    free(pass);
}

void vkmd_pass_gb_record(const vkmd_pass_gb *pass, VkCommandBuffer cb, int with_energy)
{
    const int phases[3] = {PIPE_RADII, with_energy ? PIPE_ENERGY_E : PIPE_ENERGY_NO_E, PIPE_FORCES};
    for (int k = 0; k < 3; ++k) {
        vkmd_vk_dispatch(cb, &pass->pipeline[phases[k]], &pass->set, &pass->push, pass->groups, 1,
                         1);
        vkmd_vk_barrier_compute(cb);
    }
}

size_t vkmd_pass_gb_memory_bytes(const vkmd_pass_gb *pass)
{
    return (size_t)pass->atoms.size + (size_t)pass->neck.size + (size_t)pass->scratch.size;
}
