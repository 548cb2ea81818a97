/* Non-bonded GPU pass (see pass_nonbonded.h and shaders/nonbonded.comp).
 *
 * Periodic systems use nonbonded.comp's LIST kernel bound to the neighbour
 * list's buffers; vacuum systems its ALL_PAIRS kernel (the same tiles over
 * every pair of clusters in index order, forces/vacuum_tiles.h) with the
 * list bindings filled by a 16-byte placeholder, since every pipeline has the same binding
 * layout. Each comes as two pipelines, with and without the energy sums. */
#include "forces/pass_nonbonded.h"
#include "forces/positions.h"
#include "core/log.h"
#include "forces/fixed_point.h"
#include "forces/tile.h"
#include "forces/vacuum_tiles.h"
#include "vk/barrier.h"
#include "vk/pipeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct vkmd_pass_nonbonded {
    vkmd_vk_pipeline pairs[2]; /* without, with energies */
    vkmd_vk_descset sets[2];
    vkmd_vk_buffer params, lj, excl, placeholder;
    vkmd_vk_buffer scratch[5]; /* vacuum: the bindings the prune writes, one each */
    const vkmd_accum *accum;
    vkmd_nb_push push;
    uint32_t pair_groups;
    int periodic;
    int lj_table;
    float list_radius;     /* the list's inner radius (the prune's), A */
    uint32_t outer_stride; /* the list's outer stride */
};

static uint32_t cap_groups(const vkmd_vk_context *ctx, uint32_t n, uint32_t wg)
{
    uint32_t g = vkmd_vk_div_up(n, wg);
    uint32_t max = ctx->info.max_workgroup_count_x ? ctx->info.max_workgroup_count_x : 65535;
    return g < 1 ? 1 : g < max ? g : max;
}

static vkmd_result make_buffer(vkmd_vk_context *ctx, vkmd_vk_buffer *buf, VkDeviceSize size,
                               int force_staging, const char *name)
{
    const vkmd_vk_buffer_desc d = {
        .size = size ? size : 16, .force_staging = force_staging, .name = name};
    return vkmd_vk_buffer_create(ctx, &d, buf);
}

void vkmd_pass_nonbonded_set_box(vkmd_pass_nonbonded *pass, const vkmd_box *box)
{
    if (box->periodic && box->triclinic) { /* common/box.glsl: L, T */
        const double(*v)[3] = box->vec;
        pass->push.box = (vkmd_gpu_vec4){(float)v[0][0], (float)v[1][1], (float)v[2][2], 1.0f};
        pass->push.box_lo =
            (vkmd_gpu_vec4){(float)v[1][0], (float)v[2][0], (float)v[2][1], pass->list_radius};
        pass->push.box_inv = (vkmd_gpu_vec4){(float)(1.0 / v[0][0]), (float)(1.0 / v[1][1]),
                                             (float)(1.0 / v[2][2]), 0.0f};
        memcpy(&pass->push.box_inv.w, &pass->outer_stride, 4);
        return;
    }
    float hi[3];
    for (int d = 0; d < 3; ++d)
        hi[d] = box->periodic ? (float)box->len[d] : 0.0f;
    pass->push.box = (vkmd_gpu_vec4){hi[0], hi[1], hi[2], box->periodic ? 1.0f : 0.0f};
    pass->push.box_lo =
        (vkmd_gpu_vec4){(float)(box->periodic ? box->len[0] - hi[0] : 0.0),
                        (float)(box->periodic ? box->len[1] - hi[1] : 0.0),
                        (float)(box->periodic ? box->len[2] - hi[2] : 0.0), pass->list_radius};
    pass->push.box_inv = (vkmd_gpu_vec4){box->periodic ? (float)(1.0 / box->len[0]) : 0.0f,
                                         box->periodic ? (float)(1.0 / box->len[1]) : 0.0f,
                                         box->periodic ? (float)(1.0 / box->len[2]) : 0.0f, 0.0f};
    memcpy(&pass->push.box_inv.w, &pass->outer_stride, 4);
}

/* IEEE binary16 bits of x (round to nearest even; x in the normal range). */
static uint32_t half_bits(double x)
{
    const _Float16 h = (_Float16)x;
    uint16_t u;
    memcpy(&u, &h, sizeof u);
    return u;
}

/* Per-type sigma and eps from the diagonal of the A/B tables; 1 when every
 * pair of types follows the Lorentz-Berthelot rule (sigma_ij the mean,
 * eps_ij the geometric mean) to 1e-6 relative, so the kernel can combine
 * per-atom factors instead of reading the table by type pair (NBFIX-style
 * tables keep the table). */
static int lorentz_berthelot(const vkmd_system *sys, double *sigma, double *eps)
{
    const int32_t nt = sys->lj_type_count;
    for (int32_t t = 0; t < nt; ++t) {
        const double a = sys->lj_a[t * nt + t], b = sys->lj_b[t * nt + t];
        sigma[t] = a > 0 && b > 0 ? pow(a / b, 1.0 / 6.0) : 0.0;
        eps[t] = a > 0 && b > 0 ? b * b / (4.0 * a) : 0.0;
    }
    for (int32_t i = 0; i < nt; ++i)
        for (int32_t j = 0; j < nt; ++j) {
            const double s = 0.5 * (sigma[i] + sigma[j]), e = sqrt(eps[i] * eps[j]);
            const double s6 = pow(s, 6.0);
            const double a = 4.0 * e * s6 * s6, b = 4.0 * e * s6;
            const double ta = sys->lj_a[i * nt + j], tb = sys->lj_b[i * nt + j];
            if (fabs(a - ta) > 1e-6 * fabs(ta) + 1e-300 || fabs(b - tb) > 1e-6 * fabs(tb) + 1e-300)
                return 0;
        }
    return 1;
}

/* Per-atom parameters (charge scaled by sqrt(k), LB factors, type) and the
 * A/B table (with the fp16 builds' tables), uploaded. */
static vkmd_result upload_params(vkmd_vk_context *ctx, vkmd_pass_nonbonded *p,
                                 const vkmd_system *sys, double coulomb_k)
{
    vkmd_result res = VKMD_OK;
    const int32_t n = sys->atom_count, nt = sys->lj_type_count;
    float *q = malloc(sizeof *q * 4 * (size_t)n);
    const size_t nt2 = (size_t)nt * (size_t)nt;
    float *lj = malloc(sizeof *lj * 5 * nt2);
    double *sigma = malloc(sizeof *sigma * (size_t)nt), *eps = malloc(sizeof *eps * (size_t)nt);
    if (!q || !lj || !sigma || !eps) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "nonbonded pass: parameters of %d atoms", n);
        goto cleanup;
    }
    p->lj_table = !lorentz_berthelot(sys, sigma, eps);
    const double sqrt_k = sqrt(coulomb_k);
    for (int32_t a = 0; a < n; ++a) {
        const int32_t t = sys->atoms[a].lj_type;
        if (t < 0 || t >= nt) {
            res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                            "nonbonded pass: atom %d has LJ type %d outside 0..%d", a, t, nt - 1);
            goto cleanup;
        }
        const uint32_t tb = (uint32_t)t;
        q[4 * a] = (float)(sys->atoms[a].charge * sqrt_k);
        q[4 * a + 1] = (float)(0.5 * sigma[t]);
        q[4 * a + 2] = (float)(2.0 * sqrt(eps[t]));
        memcpy(&q[4 * a + 3], &tb, sizeof tb);
    }
    for (int32_t k = 0; k < nt * nt; ++k) {
        const double a = sys->lj_a[k], b = sys->lj_b[k];
        lj[2 * k] = (float)a;
        lj[2 * k + 1] = (float)b;
        /* A = 4 eps sigma^12, B = 4 eps sigma^6: sigma^2 = (A/B)^(1/3), 4 eps = B^2/A. */
        double sig2 = 0, eps4 = 0;
        if (a > 0 && b > 0) {
            sig2 = cbrt(a / b);
            eps4 = b * b / a;
        }
        const uint32_t packed = half_bits(sig2) | half_bits(eps4) << 16;
        memcpy(&lj[2 * nt2 + (size_t)k], &packed, sizeof packed);
        lj[3 * nt2 + 2 * (size_t)k] = (float)sig2;
        lj[3 * nt2 + 2 * (size_t)k + 1] = (float)eps4;
    }
    VKMD_TRY(vkmd_vk_buffer_upload(ctx, &p->params, 0, q, sizeof *q * 4 * (size_t)n));
    VKMD_TRY(vkmd_vk_buffer_upload(ctx, &p->lj, 0, lj, sizeof *lj * 5 * nt2));
cleanup:
    free(q);
    free(lj);
    free(sigma);
    free(eps);
    return res;
}

vkmd_result vkmd_pass_nonbonded_create(vkmd_vk_context *ctx, const vkmd_system *sys,
                                       const vkmd_pass_nonbonded_desc *desc,
                                       vkmd_pass_nonbonded **out_pass)
{
    vkmd_result res = VKMD_OK;
    *out_pass = NULL;
    if (!desc || !desc->positions || !desc->accum || !desc->settings)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "nonbonded pass: positions, accumulators and settings are required");
    const vkmd_ff_settings *s = desc->settings;
    if (s->nonbonded_fp16 < VKMD_LJ_FP32 || s->nonbonded_fp16 > VKMD_LJ_FP16_POWERS)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "nonbonded pass: LJ precision %d unknown",
                         s->nonbonded_fp16);
    uint32_t wg = desc->workgroup_size ? desc->workgroup_size : VKMD_NB_WORKGROUP_SIZE;
    if ((wg & (wg - 1)) != 0 || wg < VKMD_NL_CLUSTER_SIZE ||
        wg > ctx->info.max_workgroup_invocations)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "nonbonded pass: workgroup size %u is not a power of two in %d..%u", wg,
                         VKMD_NL_CLUSTER_SIZE, ctx->info.max_workgroup_invocations);
    const char *shader = NULL;
    uint32_t tile_wg = 0;
    /* With split tiles (GPUs) a workgroup is the split's groups, which
     * prune one cluster together before each takes its part (pair_prune). */
    const uint32_t split = vkmd_tile_split(ctx);
    if (!desc->workgroup_size && split > 1 &&
        VKMD_NL_CLUSTER_SIZE * split <= ctx->info.max_workgroup_invocations)
        wg = VKMD_NL_CLUSTER_SIZE * split;
    res = vkmd_tile_shader(ctx, "nonbonded pass", "nonbonded.comp", wg, 1, &shader, &tile_wg);
    if (res != VKMD_OK)
        return res;
    if (s->nonbonded_fp16) {
        /* The fp16 builds declare Float16: a module of their own. */
        if (!ctx->info.features.shader_float16)
            return vkmd_fail(VKMD_ERROR_UNSUPPORTED,
                             "nonbonded pass: --nonbonded fp16 needs shaderFloat16, which %s "
                             "lacks",
                             ctx->info.name);
        if (!ctx->info.features.subgroup_shuffle)
            return vkmd_fail(VKMD_ERROR_UNSUPPORTED,
                             "nonbonded pass: --nonbonded fp16 needs subgroup shuffles, which %s "
                             "lacks",
                             ctx->info.name);
        shader = vkmd_fixed_mode_of(ctx) == VKMD_FIXED_MODE_WORDS ? "nonbonded.comp+fp16words"
                                                                  : "nonbonded.comp+fp16";
        if (s->fp16_min_r_a < 0)
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "nonbonded pass: fp16 distance %g A is negative", s->fp16_min_r_a);
    }
    const int periodic = sys->box.periodic != 0;
    if (desc->accum->atom_count != sys->atom_count ||
        desc->positions->size < (VkDeviceSize)sys->atom_count * 16)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "nonbonded pass: buffers sized for %d atoms, system has %d",
                         desc->accum->atom_count, sys->atom_count);
    if (sys->lj_type_count <= 0 || !sys->lj_a || !sys->lj_b)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "nonbonded pass: no LJ type tables");
    vkmd_neighbor_view view = {0};
    if (periodic) {
        if (!desc->neighbor)
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "nonbonded pass: a periodic system needs a neighbour list");
        vkmd_neighbor_view_get(desc->neighbor, &view);
        if (!(s->cutoff_a > 0 && s->ewald_alpha > 0))
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "nonbonded pass: settings are not resolved (cutoff %g, alpha %g)",
                             s->cutoff_a, s->ewald_alpha);
        if (view.atom_count != (uint32_t)sys->atom_count || view.cutoff_a < s->cutoff_a)
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "nonbonded pass: the neighbour list has %u atoms and cutoff %g A; "
                             "the system %d atoms and cutoff %g A",
                             view.atom_count, view.cutoff_a, sys->atom_count, s->cutoff_a);
    }

    vkmd_pass_nonbonded *p = calloc(1, sizeof *p);
    uint32_t *excl = NULL;
    if (!p)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "nonbonded pass");
    p->accum = desc->accum;
    p->periodic = periodic;
    p->list_radius = periodic ? view.push.box_lo.w : 0.0f;
    p->outer_stride = periodic ? view.max_neighbors : 0u;
    const int fs = desc->force_staging;
    const uint32_t n = (uint32_t)sys->atom_count, nt = (uint32_t)sys->lj_type_count;
    VKMD_TRY(make_buffer(ctx, &p->params, 16 * (VkDeviceSize)n, fs, "nonbonded parameters"));
    VKMD_TRY(make_buffer(ctx, &p->lj, 20 * (VkDeviceSize)nt * nt, fs, "nonbonded LJ table"));
    VKMD_TRY(upload_params(ctx, p, sys, vkmd_ff_coulomb_k(s)));
    VKMD_TRY(make_buffer(ctx, &p->placeholder, 16, fs, "nonbonded placeholder"));
    /* Bindings the shader may write get placeholders of their own (never
     * written in vacuum, but a shared one would look like a hazard). */
    for (int k = 0; !periodic && k < 5; ++k)
        VKMD_TRY(make_buffer(ctx, &p->scratch[k], 128, fs, "nonbonded placeholder"));
    if (!periodic) {
        size_t words = 0;
        VKMD_TRY(vkmd_vacuum_tiles_build(sys, &excl, &words));
        VKMD_TRY(make_buffer(ctx, &p->excl, 4 * (VkDeviceSize)words, fs, "nonbonded tile masks"));
        VKMD_TRY(vkmd_vk_buffer_upload(ctx, &p->excl, 0, excl, 4 * (VkDeviceSize)words));
    }

    const vkmd_vk_buffer *ph = &p->placeholder;
    const vkmd_vk_buffer *bufs[VKMD_NB_BINDING_COUNT + VKMD_NB_TEXEL_COUNT];
    /* The tiles' per-atom reads through texel views where the device wants
     * them (vk/pipeline.h), else the placeholder at those bindings. */
    const int texel_reads = periodic && vkmd_vk_texel_reads(ctx);
    bufs[VKMD_NB_BINDING_POSITIONS] = desc->positions;
    bufs[VKMD_NB_BINDING_FORCES] = &desc->accum->forces;
    bufs[VKMD_NB_BINDING_ENERGIES] = &desc->accum->energies;
    bufs[VKMD_NB_BINDING_PARAMS] = &p->params;
    bufs[VKMD_NB_BINDING_LJ] = &p->lj;
    bufs[VKMD_NB_BINDING_EXCL] = periodic ? ph : &p->excl;
    bufs[VKMD_NB_BINDING_ORDER] = periodic ? view.order : ph;
    bufs[VKMD_NB_BINDING_REL] = periodic ? view.rel : ph;
    bufs[VKMD_NB_BINDING_TILES] = periodic ? view.inner : &p->scratch[0];
    bufs[VKMD_NB_BINDING_MASKS] = periodic ? view.masks : &p->scratch[1];
    bufs[VKMD_NB_BINDING_COUNTS] = periodic ? view.counts : &p->scratch[2];
    bufs[VKMD_NB_BINDING_NL_STATE] = periodic ? view.state : &p->scratch[3];
    bufs[VKMD_NB_BINDING_OUTER] = periodic ? view.outer : ph;
    bufs[VKMD_NB_BINDING_NL_SAVED] = periodic ? view.saved : &p->scratch[4];
    bufs[VKMD_NB_BINDING_ORDER_TEXELS] = texel_reads ? view.order : ph;
    bufs[VKMD_NB_BINDING_REL_TEXELS] = texel_reads ? view.rel : ph;
    bufs[VKMD_NB_BINDING_PARAMS_TEXELS] = texel_reads ? &p->params : ph;
    VKMD_TRY(vkmd_positions_extra_binding(desc->positions, desc->positions_x, desc->positions_mode,
                                          sys->atom_count, "nonbonded pass",
                                          &bufs[VKMD_NB_BINDING_POSITIONS_X]));

    const uint32_t use_wg = tile_wg;
    for (int k = 0; k < 2; ++k) {
        const vkmd_vk_spec specs[] = {
            {VKMD_SPEC_WORKGROUP_SIZE, use_wg},
            {VKMD_SPEC_NB_MODE, periodic ? VKMD_NB_MODE_LIST : VKMD_NB_MODE_ALL_PAIRS},
            {VKMD_SPEC_POSITIONS, (uint32_t)desc->positions_mode},
            /* Vacuum tiles sum energies in both pipelines: without them
             * the compiler rounds the forces differently (lavapipe), and a
             * trajectory must not depend on which steps report. */
            {VKMD_SPEC_ENERGY, periodic ? (uint32_t)k : 1u},
            {VKMD_SPEC_NB_LJ_TABLE, (uint32_t)p->lj_table},
            {VKMD_SPEC_NB_TILE_SPLIT, split},
            {VKMD_SPEC_TRICLINIC, periodic && sys->box.triclinic ? 1u : 0u},
            {VKMD_SPEC_TEXEL_READS, (uint32_t)texel_reads},
            {VKMD_SPEC_NB_FP16_MIN_R, vkmd_vk_spec_float((float)s->fp16_min_r_a)},
            {VKMD_SPEC_NB_LJ16_OFFSET, 2 * nt * nt},
            {VKMD_SPEC_NB_FP16_FORM, s->nonbonded_fp16 == VKMD_LJ_FP16_POWERS
                                         ? VKMD_NB_FP16_FORM_POWERS
                                         : VKMD_NB_FP16_FORM_PURE},
        };
        const vkmd_vk_pipeline_desc pd = {
            .shader = shader,
            .buffer_count = VKMD_NB_BINDING_COUNT,
            .texel_count = VKMD_NB_TEXEL_COUNT,
            .texel_scalar_mask = VKMD_NB_TEXEL_SCALAR_MASK,
            .push_size = sizeof(vkmd_nb_push),
            .specs = specs,
            .spec_count = s->nonbonded_fp16 ? 11 : 8,
        };
        VKMD_TRY(vkmd_vk_pipeline_create(ctx, &pd, &p->pairs[k]));
        VKMD_TRY(vkmd_vk_descset_create(ctx, &p->pairs[k], bufs, &p->sets[k]));
    }

    vkmd_pass_nonbonded_set_box(p, &sys->box);
    p->push.params =
        (vkmd_gpu_vec4){(float)(s->cutoff_a * s->cutoff_a), (float)s->ewald_alpha, 0.0f, 0.0f};
    p->push.sizes = (vkmd_gpu_uvec4){n, view.slot_capacity, view.cluster_capacity, view.max_inner};
    p->push.extra = (vkmd_gpu_uvec4){view.cluster_capacity * view.max_neighbors, nt, 0, 0};
    const uint32_t clusters =
        periodic ? view.cluster_capacity : vkmd_vk_div_up(n, VKMD_NL_CLUSTER_SIZE);
    p->pair_groups = cap_groups(ctx, clusters * split, use_wg / VKMD_NL_CLUSTER_SIZE);
    vkmd_log_debug("nonbonded pass: %s, %u atoms, %u groups of %u (tiles split %u), LJ %s",
                   periodic ? "cluster-pair tiles" : "all-pairs tiles", n, p->pair_groups, use_wg,
                   split, p->lj_table ? "table by type pair" : "Lorentz-Berthelot factors");
    *out_pass = p;
    p = NULL;
cleanup:
    free(excl);
    vkmd_pass_nonbonded_destroy(ctx, p);
    return res;
}

void vkmd_pass_nonbonded_record(const vkmd_pass_nonbonded *pass, VkCommandBuffer cb,
                                int with_energy)
{
    const int k = with_energy ? 1 : 0;
    vkmd_vk_dispatch(cb, &pass->pairs[k], &pass->sets[k], &pass->push, pass->pair_groups, 1, 1);
}

vkmd_result vkmd_pass_nonbonded_readback(vkmd_vk_context *ctx, const vkmd_pass_nonbonded *pass,
                                         double *out_forces, vkmd_energy *out_energy)
{
    double slots[VKMD_ENERGY_SLOT_COUNT];
    vkmd_result res = vkmd_accum_readback(ctx, pass->accum, out_forces, out_energy ? slots : NULL);
    if (res == VKMD_OK && out_energy) {
        out_energy->lj_pair = slots[VKMD_ENERGY_LJ];
        out_energy->coulomb_real = slots[VKMD_ENERGY_COUL_REAL];
    }
    return res;
}

int vkmd_pass_nonbonded_lj_table(const vkmd_pass_nonbonded *pass)
{
    return pass->lj_table;
}

size_t vkmd_pass_nonbonded_memory_bytes(const vkmd_pass_nonbonded *pass)
{
    const vkmd_vk_buffer *bufs[] = {&pass->params,      &pass->lj,         &pass->excl,
                                    &pass->placeholder, &pass->scratch[0], &pass->scratch[1],
                                    &pass->scratch[2],  &pass->scratch[3], &pass->scratch[4]};
    size_t total = 0;
    for (size_t k = 0; k < sizeof bufs / sizeof bufs[0]; ++k)
        total += (size_t)bufs[k]->size;
    return total;
}

void vkmd_pass_nonbonded_destroy(vkmd_vk_context *ctx, vkmd_pass_nonbonded *pass)
{
    if (!pass)
        return;
    for (int k = 0; k < 2; ++k) {
        vkmd_vk_descset_destroy(ctx, &pass->sets[k]);
        vkmd_vk_pipeline_destroy(ctx, &pass->pairs[k]);
    }
    vkmd_vk_buffer *bufs[] = {&pass->params,      &pass->lj,         &pass->excl,
                              &pass->placeholder, &pass->scratch[0], &pass->scratch[1],
                              &pass->scratch[2],  &pass->scratch[3], &pass->scratch[4]};
    for (size_t k = 0; k < sizeof bufs / sizeof bufs[0]; ++k)
        vkmd_vk_buffer_destroy(ctx, bufs[k]);
    free(pass);
}

void vkmd_pass_nonbonded_view(const vkmd_pass_nonbonded *pass, const vkmd_vk_buffer **out_params,
                              const vkmd_vk_buffer **out_lj, vkmd_nb_push *out_push)
{
    *out_params = &pass->params;
    *out_lj = &pass->lj;
    *out_push = pass->push;
}
