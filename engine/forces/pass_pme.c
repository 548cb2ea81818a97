/* Smooth-PME reciprocal GPU pass (see pass_pme.h and shaders/pme_*.comp).
 *
 * Four pipelines share one binding table (VKMD_PME_BINDING_*, each shader
 * uses a subset) and one push-constant block, so each gets a descriptor set
 * over the same buffers. The charge grid is 64-bit fixed point only for the
 * deterministic spread; VkFFT works on the separate fp32 grid, in place. The
 * shaders are the int64 or 32-bit words builds (forces/fixed_point.h). */
#include "forces/pass_pme.h"
#include "core/log.h"
#include "forces/fixed_point.h"
#include "forces/pme_fft.h"
#include "forces/positions.h"
#include "maths/ewald.h"
#include "vk/barrier.h"
#include "vk/command.h"
#include "vk/pipeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { STAGE_SPREAD, STAGE_CONVERT, STAGE_CONVOLVE, STAGE_GATHER, STAGE_COUNT };

static const char *const stage_shaders[STAGE_COUNT] = {"pme_spread.comp", "pme_grid_convert.comp",
                                                       "pme_convolve.comp", "pme_gather.comp"};

/* The convolution without the energy sum (steps that read no energies), and
 * the kernel of VkFFT's fused convolution (pme_convolve.comp KERNEL). */
#define STAGE_CONVOLVE_FORCES STAGE_COUNT
#define STAGE_KERNEL          (STAGE_COUNT + 1)
#define PIPELINE_COUNT        (STAGE_COUNT + 2)

struct vkmd_pass_pme {
    vkmd_vk_pipeline pipelines[PIPELINE_COUNT];
    vkmd_vk_descset sets[PIPELINE_COUNT];
    uint32_t groups[PIPELINE_COUNT];
    vkmd_vk_buffer charges;     /* float [atom_count] */
    vkmd_vk_buffer charge_grid; /* 64-bit fixed point [K0 K1 K2] */
    vkmd_vk_buffer fft_grid;    /* float [K0 K1 2 (K2/2+1)] */
    vkmd_vk_buffer moduli;      /* float [K0 + K1 + K2] */
    vkmd_vk_buffer kernel;      /* vec2 [K0 K1 (K2/2+1)]: VkFFT's fused convolution */
    vkmd_vk_buffer placeholder; /* the list's bindings when spread and gather take atom order */
    const vkmd_vk_buffer *bufs[VKMD_PME_BINDING_COUNT]; /* the bindings (again after a new list) */
    int sorted;                                         /* spread and gather in slot order */
    vkmd_pme_fft *fft;
    const vkmd_accum *accum;
    vkmd_pme_push push;
    int order;
    double alpha;     /* 1/A */
    double coulomb_k; /* kcal/mol A e^-2 */
};

void vkmd_pass_pme_set_box(vkmd_pass_pme *pass, const vkmd_box *box)
{
    const double *len = box->len;
    if (!box->periodic || !(len[0] > 0 && len[1] > 0 && len[2] > 0)) {
        vkmd_log_error("PME pass: ignoring a box that is not periodic with positive edges");
        return;
    }
    const double volume = vkmd_box_volume_a3(box);
    if (box->triclinic) { /* layout_pme.h: the diagonal and the shear */
        const double(*v)[3] = box->vec;
        const float s[3] = {(float)(-v[1][0] / v[1][1]),
                            (float)((v[1][0] * v[2][1] - v[1][1] * v[2][0]) / (v[1][1] * v[2][2])),
                            (float)(-v[2][1] / v[2][2])};
        pass->push.box = (vkmd_gpu_vec4){(float)v[0][0], (float)v[1][1], (float)v[2][2], 0.0f};
        memcpy(&pass->push.shear0, &s[0], 4);
        memcpy(&pass->push.shear1, &s[1], 4);
        memcpy(&pass->push.shear2, &s[2], 4);
        pass->push.box_t = (vkmd_gpu_vec4){(float)v[1][0], (float)v[2][0], (float)v[2][1], 0.0f};
    } else {
        pass->push.box = (vkmd_gpu_vec4){(float)len[0], (float)len[1], (float)len[2], 0.0f};
    }
    pass->push.ewald = (vkmd_gpu_vec4){(float)(M_PI * M_PI / (pass->alpha * pass->alpha)),
                                       (float)(pass->coulomb_k / (M_PI * volume)), 0.0f, 0.0f};
}

/* Validates everything create needs from its arguments. */
static vkmd_result check_args(const vkmd_vk_context *ctx, const vkmd_system *sys,
                              const vkmd_pass_pme_desc *desc)
{
    if (!desc || !desc->positions || !desc->accum || !desc->settings)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "PME pass: positions, accumulators and settings are required");
    if (!sys->box.periodic)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "PME pass: the system has no periodic box; PME needs one (without a box "
                         "Coulomb is a plain sum over all pairs)");
    const double *len = sys->box.len;
    if (!(len[0] > 0 && len[1] > 0 && len[2] > 0))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "PME pass: box %g x %g x %g A", len[0],
                         len[1], len[2]);
    if (sys->atom_count <= 0 || !sys->atoms)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "PME pass: the system has no atoms");
    if (desc->accum->atom_count != sys->atom_count ||
        desc->positions->size < (VkDeviceSize)sys->atom_count * 16)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "PME pass: buffers sized for %d atoms, system has %d",
                         desc->accum->atom_count, sys->atom_count);
    const vkmd_ff_settings *s = desc->settings;
    const int *k = s->pme_grid;
    if (s->pme_order < 3 || s->pme_order > VKMD_PME_MAX_ORDER)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "PME pass: B-spline order %d outside 3..%d (settings not resolved?)",
                         s->pme_order, VKMD_PME_MAX_ORDER);
    if (k[0] < s->pme_order || k[1] < s->pme_order || k[2] < s->pme_order)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "PME pass: grid %dx%dx%d: every dimension must be >= the order %d "
                         "(settings not resolved?)",
                         k[0], k[1], k[2], s->pme_order);
    if (!(s->ewald_alpha > 0) || !isfinite(s->ewald_alpha))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "PME pass: Ewald alpha %g 1/A (settings not resolved?)", s->ewald_alpha);
    /* Shaders index the padded fp32 grid with 32-bit unsigned integers, and a
     * descriptor may not span more than maxStorageBufferRange bytes. */
    const double padded = (double)k[0] * k[1] * 2.0 * (k[2] / 2 + 1);
    const double grid_bytes = fmax(padded * sizeof(float), (double)k[0] * k[1] * k[2] * 8.0);
    if (padded > 4294967295.0 || grid_bytes > (double)ctx->limits.maxStorageBufferRange)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "PME pass: grid %dx%dx%d needs %.0f-byte buffers, more than %s allows "
                         "in one storage buffer (%u bytes)",
                         k[0], k[1], k[2], grid_bytes, ctx->info.name,
                         ctx->limits.maxStorageBufferRange);
    return VKMD_OK;
}

static vkmd_result make_buffer(vkmd_vk_context *ctx, VkDeviceSize size, int force_staging,
                               const char *name, vkmd_vk_buffer *out)
{
    const vkmd_vk_buffer_desc bd = {.size = size, .force_staging = force_staging, .name = name};
    return vkmd_vk_buffer_create(ctx, &bd, out);
}

/* Uploads the charges (e, as float) and 1 / |b(m)|^2 per axis (float, from
 * the reference's double moduli). */
static vkmd_result upload_parameters(vkmd_vk_context *ctx, vkmd_pass_pme *p, const vkmd_system *sys,
                                     int order)
{
    vkmd_result res = VKMD_OK;
    const int32_t n = sys->atom_count;
    const uint32_t k[3] = {p->push.grid.x, p->push.grid.y, p->push.grid.z};
    const uint32_t kmax = k[0] > k[1] ? (k[0] > k[2] ? k[0] : k[2]) : (k[1] > k[2] ? k[1] : k[2]);
    float *q = malloc(sizeof *q * (size_t)n);
    float *inv = malloc(sizeof *inv * (size_t)(k[0] + k[1] + k[2]));
    double *mod = malloc(sizeof *mod * (size_t)kmax);
    if (!q || !inv || !mod) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "PME pass: parameters for %d atoms", n);
        goto cleanup;
    }
    for (int32_t i = 0; i < n; ++i)
        q[i] = (float)sys->atoms[i].charge;
    for (int d = 0, off = 0; d < 3; off += (int)k[d], ++d) {
        vkmd_pme_moduli((int)k[d], order, mod);
        for (uint32_t m = 0; m < k[d]; ++m)
            inv[off + (int)m] = (float)(1.0 / mod[m]);
    }
    VKMD_TRY(vkmd_vk_buffer_upload(ctx, &p->charges, 0, q, sizeof *q * (size_t)n));
    VKMD_TRY(vkmd_vk_buffer_upload(ctx, &p->moduli, 0, inv, p->moduli.size));
cleanup:
    free(q);
    free(inv);
    free(mod);
    return res;
}

vkmd_result vkmd_pass_pme_create(vkmd_vk_context *ctx, const vkmd_system *sys,
                                 const vkmd_pass_pme_desc *desc, vkmd_pass_pme **out_pass)
{
    *out_pass = NULL;
    vkmd_result res = check_args(ctx, sys, desc);
    if (res != VKMD_OK)
        return res;
    const vkmd_ff_settings *s = desc->settings;
    const int *k = s->pme_grid;
    const int staging = desc->force_staging;

    vkmd_pass_pme *p = calloc(1, sizeof *p);
    if (!p)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "PME pass");
    p->accum = desc->accum;
    p->alpha = s->ewald_alpha;
    p->coulomb_k = vkmd_ff_coulomb_k(s);
    p->push.grid =
        (vkmd_gpu_uvec4){(uint32_t)k[0], (uint32_t)k[1], (uint32_t)k[2], (uint32_t)(k[2] / 2 + 1)};
    p->push.atom_count = (uint32_t)sys->atom_count;
    vkmd_pass_pme_set_box(p, &sys->box);
    p->order = s->pme_order;

    const VkDeviceSize points = (VkDeviceSize)k[0] * (VkDeviceSize)k[1] * (VkDeviceSize)k[2];
    const VkDeviceSize padded = (VkDeviceSize)k[0] * (VkDeviceSize)k[1] * 2 * p->push.grid.w;
    VKMD_TRY(make_buffer(ctx, (VkDeviceSize)sys->atom_count * sizeof(float), staging, "PME charges",
                         &p->charges));
    VKMD_TRY(
        make_buffer(ctx, points * sizeof(int64_t), staging, "PME charge grid", &p->charge_grid));
    VKMD_TRY(make_buffer(ctx, padded * sizeof(float), staging, "PME FFT grid", &p->fft_grid));
    VKMD_TRY(make_buffer(ctx, (VkDeviceSize)(k[0] + k[1] + k[2]) * sizeof(float), staging,
                         "PME B-spline moduli", &p->moduli));
    VKMD_TRY(
        make_buffer(ctx, padded * sizeof(float), staging, "PME convolution kernel", &p->kernel));
    VKMD_TRY(upload_parameters(ctx, p, sys, s->pme_order));

    VKMD_TRY(make_buffer(ctx, sizeof(vkmd_nl_state), staging, "PME placeholder", &p->placeholder));
    p->sorted = desc->list_order && desc->list_state;
    const vkmd_vk_buffer **bufs = p->bufs;
    bufs[VKMD_PME_BINDING_ORDER] = p->sorted ? desc->list_order : &p->placeholder;
    bufs[VKMD_PME_BINDING_NL_STATE] = p->sorted ? desc->list_state : &p->placeholder;
    bufs[VKMD_PME_BINDING_POSITIONS] = desc->positions;
    bufs[VKMD_PME_BINDING_CHARGES] = &p->charges;
    bufs[VKMD_PME_BINDING_FORCES] = &desc->accum->forces;
    bufs[VKMD_PME_BINDING_ENERGIES] = &desc->accum->energies;
    bufs[VKMD_PME_BINDING_CHARGE] = &p->charge_grid;
    bufs[VKMD_PME_BINDING_FFT_GRID] = &p->fft_grid;
    bufs[VKMD_PME_BINDING_MODULI] = &p->moduli;
    bufs[VKMD_PME_BINDING_KERNEL] = &p->kernel;
    VKMD_TRY(vkmd_positions_extra_binding(desc->positions, desc->positions_x, desc->positions_mode,
                                          sys->atom_count, "PME pass",
                                          &bufs[VKMD_PME_BINDING_POSITIONS_X]));
    for (int st = 0; st < PIPELINE_COUNT; ++st) {
        const int convolve = st == STAGE_CONVOLVE_FORCES || st == STAGE_KERNEL;
        const vkmd_vk_spec specs[] = {
            {VKMD_SPEC_WORKGROUP_SIZE, VKMD_PME_WORKGROUP_SIZE},
            {VKMD_SPEC_PME_ORDER, (uint32_t)s->pme_order},
            {VKMD_SPEC_POSITIONS, (uint32_t)desc->positions_mode},
            {VKMD_SPEC_ENERGY, st == STAGE_CONVOLVE_FORCES || st == STAGE_KERNEL ? 0u : 1u},
            {VKMD_SPEC_TRICLINIC, sys->box.triclinic ? 1u : 0u},
            {VKMD_SPEC_PME_KERNEL, st == STAGE_KERNEL ? 1u : 0u},
            {VKMD_SPEC_PME_SORTED, (uint32_t)p->sorted}};
        const char *shader = NULL;
        VKMD_TRY(vkmd_fixed_shader(ctx, "PME pass", stage_shaders[convolve ? STAGE_CONVOLVE : st],
                                   &shader));
        const vkmd_vk_pipeline_desc pd = {
            .shader = shader,
            .buffer_count = VKMD_PME_BINDING_COUNT,
            .push_size = sizeof(vkmd_pme_push),
            .specs = specs,
            .spec_count = convolve || st == STAGE_CONVOLVE           ? 6
                          : st == STAGE_SPREAD || st == STAGE_GATHER ? 7
                                                                     : 5,
        };
        VKMD_TRY(vkmd_vk_pipeline_create(ctx, &pd, &p->pipelines[st]));
        VKMD_TRY(vkmd_vk_descset_create(ctx, &p->pipelines[st], bufs, &p->sets[st]));
    }
    VKMD_TRY(vkmd_pme_fft_create(ctx, k, &p->fft_grid, &p->kernel, &p->fft));
    VkCommandBuffer cb = VK_NULL_HANDLE;
    VKMD_TRY(vkmd_vk_oneshot_begin(ctx, &cb));
    vkmd_pass_pme_record_fill(p, cb); /* every conversion leaves it zero again */
    VKMD_TRY(vkmd_vk_oneshot_submit(ctx, cb));

    /* A thread per atom, per padded real value, per complex value, capped by
     * the device limit; the shaders' grid-stride loops cover the rest. */
    const uint32_t max_groups =
        ctx->info.max_workgroup_count_x ? ctx->info.max_workgroup_count_x : 65535;
    const uint32_t items =
        p->sorted ? (uint32_t)(desc->list_order->size / 4) : (uint32_t)sys->atom_count;
    const uint32_t work[STAGE_COUNT] = {items, (uint32_t)padded, (uint32_t)(padded / 2), items};
    for (int st = 0; st < STAGE_COUNT; ++st) {
        uint32_t g = vkmd_vk_div_up(work[st], VKMD_PME_WORKGROUP_SIZE);
        p->groups[st] = g < max_groups ? g : max_groups;
    }
    p->groups[STAGE_CONVOLVE_FORCES] = p->groups[STAGE_CONVOLVE];
    p->groups[STAGE_KERNEL] = p->groups[STAGE_CONVOLVE];
    vkmd_log_debug("PME pass: %d atoms, grid %dx%dx%d, order %d, alpha %g 1/A, %zu bytes",
                   sys->atom_count, k[0], k[1], k[2], s->pme_order, s->ewald_alpha,
                   vkmd_pass_pme_memory_bytes(p));
    *out_pass = p;
    return VKMD_OK;
cleanup:
    vkmd_pass_pme_destroy(ctx, p);
    return res;
}

vkmd_result vkmd_pass_pme_set_list(vkmd_vk_context *ctx, vkmd_pass_pme *pass,
                                   const vkmd_vk_buffer *order, const vkmd_vk_buffer *state)
{
    vkmd_result res = VKMD_OK;
    if (!pass->sorted)
        return VKMD_OK;
    pass->bufs[VKMD_PME_BINDING_ORDER] = order;
    pass->bufs[VKMD_PME_BINDING_NL_STATE] = state;
    for (int st = 0; st < PIPELINE_COUNT; ++st) {
        vkmd_vk_descset_destroy(ctx, &pass->sets[st]);
        VKMD_TRY(vkmd_vk_descset_create(ctx, &pass->pipelines[st], pass->bufs, &pass->sets[st]));
    }
    /* A larger list may have more slots: enough invocations for them. */
    const uint32_t max_groups =
        ctx->info.max_workgroup_count_x ? ctx->info.max_workgroup_count_x : 65535;
    uint32_t g = vkmd_vk_div_up((uint32_t)(order->size / 4), VKMD_PME_WORKGROUP_SIZE);
    pass->groups[STAGE_SPREAD] = pass->groups[STAGE_GATHER] = g < max_groups ? g : max_groups;
cleanup:
    return res;
}

static void mark(VkCommandBuffer cb, const vkmd_vk_timer *timer, uint32_t slot)
{
    if (timer)
        vkmd_vk_timer_record_mark(cb, timer, slot);
}

static void dispatch(const vkmd_pass_pme *pass, VkCommandBuffer cb, int stage)
{
    vkmd_vk_dispatch(cb, &pass->pipelines[stage], &pass->sets[stage], &pass->push,
                     pass->groups[stage], 1, 1);
}

static void record_fft(const vkmd_pass_pme *pass, VkCommandBuffer cb, int inverse)
{
    /* Cannot fail after create's trial recording; reported if it ever does. */
    if (vkmd_pme_fft_record(pass->fft, cb, inverse) != VKMD_OK)
        vkmd_log_error("PME pass: %s", vkmd_last_error());
}

void vkmd_pass_pme_record_fill(const vkmd_pass_pme *pass, VkCommandBuffer cb)
{
    vkmd_vk_buffer_record_fill(cb, &pass->charge_grid, 0);
}

void vkmd_pass_pme_record_spread(const vkmd_pass_pme *pass, VkCommandBuffer cb)
{
    dispatch(pass, cb, STAGE_SPREAD);
}

void vkmd_pass_pme_record_convert(const vkmd_pass_pme *pass, VkCommandBuffer cb)
{
    dispatch(pass, cb, STAGE_CONVERT);
}

/* Forward FFT, convolution, inverse FFT (phi in the FFT grid at the end;
 * no barrier after). A step without energies whose caller filled the kernel
 * takes VkFFT's fused convolution; its marks then hold the whole spectral
 * part in the forward FFT's interval (the others empty). */
static void record_spectral(const vkmd_pass_pme *pass, VkCommandBuffer cb, unsigned flags,
                            const vkmd_vk_timer *timer, uint32_t first_slot)
{
    if (!(flags & VKMD_PME_RECORD_ENERGY) && (flags & VKMD_PME_RECORD_FUSED) &&
        vkmd_pme_fft_has_convolution(pass->fft)) {
        if (vkmd_pme_fft_record_convolution(pass->fft, cb) != VKMD_OK)
            vkmd_log_error("PME pass: %s", vkmd_last_error());
        mark(cb, timer, first_slot + 2);
        mark(cb, timer, first_slot + 3);
        return;
    }
    record_fft(pass, cb, 0);
    vkmd_vk_barrier_compute(cb);
    mark(cb, timer, first_slot + 2);
    dispatch(pass, cb, (flags & VKMD_PME_RECORD_ENERGY) ? STAGE_CONVOLVE : STAGE_CONVOLVE_FORCES);
    vkmd_vk_barrier_compute(cb);
    mark(cb, timer, first_slot + 3);
    record_fft(pass, cb, 1);
}

static void record_solve(const vkmd_pass_pme *pass, VkCommandBuffer cb, unsigned flags,
                         const vkmd_vk_timer *timer, uint32_t first_slot)
{
    record_spectral(pass, cb, flags, timer, first_slot);
    vkmd_vk_barrier_compute(cb);
    mark(cb, timer, first_slot + 4);
    dispatch(pass, cb, STAGE_GATHER);
    mark(cb, timer, first_slot + 5);
}

void vkmd_pass_pme_record_solve(const vkmd_pass_pme *pass, VkCommandBuffer cb, unsigned flags)
{
    record_solve(pass, cb, flags, NULL, 0);
}

void vkmd_pass_pme_record_kernel(const vkmd_pass_pme *pass, VkCommandBuffer cb)
{
    dispatch(pass, cb, STAGE_KERNEL);
}

void vkmd_pass_pme_record(const vkmd_pass_pme *pass, VkCommandBuffer cb, unsigned flags,
                          const vkmd_vk_timer *timer, uint32_t first_slot)
{
    mark(cb, timer, first_slot + 0);
    /* The charge grid is zero: made so at create, left so by every
     * conversion (pme_grid_convert.comp). */
    vkmd_pass_pme_record_spread(pass, cb);
    vkmd_vk_barrier_compute(cb);
    vkmd_pass_pme_record_convert(pass, cb);
    vkmd_vk_barrier_compute(cb);
    mark(cb, timer, first_slot + 1);
    record_solve(pass, cb, flags, timer, first_slot);
}

vkmd_result vkmd_pass_pme_readback(vkmd_vk_context *ctx, const vkmd_pass_pme *pass,
                                   double *out_forces, vkmd_energy *out_energy)
{
    double slots[VKMD_ENERGY_SLOT_COUNT];
    vkmd_result res = vkmd_accum_readback(ctx, pass->accum, out_forces, out_energy ? slots : NULL);
    if (res == VKMD_OK && out_energy)
        out_energy->coulomb_recip = slots[VKMD_ENERGY_COUL_RECIP];
    return res;
}

size_t vkmd_pass_pme_memory_bytes(const vkmd_pass_pme *pass)
{
    if (!pass)
        return 0;
    return (size_t)(pass->charges.size + pass->charge_grid.size + pass->fft_grid.size +
                    pass->moduli.size + pass->kernel.size) +
           vkmd_pme_fft_memory_bytes(pass->fft);
}

void vkmd_pass_pme_destroy(vkmd_vk_context *ctx, vkmd_pass_pme *pass)
{
    if (!pass)
        return;
    vkmd_pme_fft_destroy(ctx, pass->fft);
    for (int st = 0; st < PIPELINE_COUNT; ++st) {
        vkmd_vk_descset_destroy(ctx, &pass->sets[st]);
        vkmd_vk_pipeline_destroy(ctx, &pass->pipelines[st]);
    }
    vkmd_vk_buffer_destroy(ctx, &pass->charges);
    vkmd_vk_buffer_destroy(ctx, &pass->charge_grid);
    vkmd_vk_buffer_destroy(ctx, &pass->fft_grid);
    vkmd_vk_buffer_destroy(ctx, &pass->moduli);
    vkmd_vk_buffer_destroy(ctx, &pass->kernel);
    vkmd_vk_buffer_destroy(ctx, &pass->placeholder);
    free(pass);
}

void vkmd_pass_pme_record_spectral(const vkmd_pass_pme *pass, VkCommandBuffer cb, unsigned flags)
{
    record_spectral(pass, cb, flags, NULL, 0);
}

void vkmd_pass_pme_record_gather(const vkmd_pass_pme *pass, VkCommandBuffer cb)
{
    dispatch(pass, cb, STAGE_GATHER);
}

void vkmd_pass_pme_view_get(const vkmd_pass_pme *pass, vkmd_pass_pme_view *out)
{
    *out = (vkmd_pass_pme_view){.charges = &pass->charges,
                                .charge_grid = &pass->charge_grid,
                                .fft_grid = &pass->fft_grid,
                                .push = pass->push,
                                .order = pass->order};
}
