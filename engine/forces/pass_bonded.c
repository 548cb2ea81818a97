/* Bonded GPU pass (see pass_bonded.h and shaders/bonded.comp).
 *
 * Parameters are packed into one array of vkmd_bonded_term (32 bytes each),
 * bonds (+ Urey-Bradley), angles, dihedrals (+ harmonic impropers), 1-4
 * pairs, excluded pairs, CMAP terms, positional restraints, then the CMAP
 * maps' bicubic cells (computed here on the host, evaluated on the device),
 * so one dispatch covers all of them; a
 * thread therefore branches on its term kind, which costs little because
 * the kinds are contiguous and warps/waves straddle at most two boundaries. */
#include "forces/pass_bonded.h"
#include "core/log.h"
#include "forces/fixed_point.h"
#include "forces/positions.h"
#include "maths/cmap_spline.h"
#include "vk/pipeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* CMAP cells: two term entries of 8 coefficients each per cell, after the
 * terms (vkmd_layout.h). */
static uint32_t cmap_table_entries(const vkmd_system *sys)
{
    uint32_t n = 0;
    for (int32_t m = 0; sys->cmap_count > 0 && m < sys->cmap_map_count; ++m)
        n += 2u * (uint32_t)sys->cmap_maps[m].resolution * (uint32_t)sys->cmap_maps[m].resolution;
    return n;
}

struct vkmd_pass_bonded {
    vkmd_vk_pipeline pipeline[2]; /* without, with energies */
    vkmd_vk_descset set;
    vkmd_vk_buffer terms;
    const vkmd_accum *accum;
    vkmd_bonded_push push;
    int with_pairs; /* 1-4 pairs and exclusion corrections packed */
    double coulomb_k;
    uint32_t workgroup_size;
    uint32_t groups;
    vkmd_bonded_term *restraints; /* [push.restraint_count] packed, kept for k changes */
    uint32_t cmap_entries;        /* CMAP cell entries after the terms */
};

/* Exclusions whose Ewald correction is not identically zero (both atoms
 * charged); only periodic systems have the correction. */
static uint32_t charged_exclusions(const vkmd_system *sys)
{
    uint32_t n = 0;
    if (!sys->box.periodic)
        return 0;
    for (int32_t e = 0; e < sys->exclusion_count; ++e)
        if (sys->atoms[sys->exclusions[e].i].charge * sys->atoms[sys->exclusions[e].j].charge != 0)
            ++n;
    return n;
}

static uint32_t term_total(const vkmd_bonded_push *p)
{
    return p->bond_count + p->angle_count + p->dihedral_count + p->pair14_count + p->excl_count +
           p->cmap_count + p->restraint_count;
}

static vkmd_result bad_index(const char *kind, int32_t n, int32_t atom_count)
{
    return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "bonded pass: %s %d names an atom outside 0..%d",
                     kind, n, atom_count - 1);
}

/* The rounding residual of x as a float: (float)x + float_lo(x) carries
 * x to ~1e-15. Charge products go to the shader as such a pair: every water
 * has the same k q_O q_H, so a plain float would round every one of them the
 * same way, and that coherent 3e-8 bias times the +56 kcal/mol exclusion
 * correction per water (cancelled by the self term) would show in totals. */
static float float_lo(double x)
{
    return (float)(x - (double)(float)x);
}

static vkmd_result pack_pairs(const vkmd_pass_bonded *pass, const vkmd_system *sys,
                              vkmd_bonded_term *t);
static vkmd_result pack_cmap(const vkmd_pass_bonded *pass, const vkmd_system *sys,
                             vkmd_bonded_term *t, vkmd_bonded_term *table);

/* The CMAP terms from `t` on and every map's cells (maths/cmap_spline.h) as
 * float coefficients from `table` on. */
static vkmd_result pack_cmap(const vkmd_pass_bonded *pass, const vkmd_system *sys,
                             vkmd_bonded_term *t, vkmd_bonded_term *table)
{
    if (pass->push.cmap_count == 0)
        return VKMD_OK;
    const int32_t na = sys->atom_count;
    vkmd_result res = VKMD_OK;
    uint32_t *first = calloc((size_t)sys->cmap_map_count, sizeof *first);
    double *c = NULL;
    if (!first)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "bonded pass: %d CMAP maps",
                         sys->cmap_map_count);
    const uint32_t table_start = term_total(&pass->push);
    uint32_t next = 0;
    for (int32_t m = 0; m < sys->cmap_map_count; ++m) {
        const int32_t r = sys->cmap_maps[m].resolution;
        free(c);
        c = malloc(sizeof *c * 16 * (size_t)r * (size_t)r);
        if (!c) {
            res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "bonded pass: CMAP map %d", m + 1);
            goto cleanup;
        }
        VKMD_TRY(vkmd_cmap_spline_coefficients(&sys->cmap_maps[m], c));
        first[m] = table_start + next;
        for (int32_t cell = 0; cell < r * r; ++cell) {
            for (int h = 0; h < 2; ++h) {
                const double *k = &c[(size_t)cell * 16 + 8 * h];
                vkmd_bonded_term *e = &table[next++];
                uint32_t w[4];
                for (int q = 0; q < 4; ++q) {
                    const float f = (float)k[q];
                    memcpy(&w[q], &f, sizeof f);
                }
                e->atoms = (vkmd_gpu_uvec4){w[0], w[1], w[2], w[3]};
                e->params = (vkmd_gpu_vec4){(float)k[4], (float)k[5], (float)k[6], (float)k[7]};
            }
        }
    }
    for (int32_t n = 0; n < sys->cmap_count; ++n, ++t) {
        const vkmd_cmap *q = &sys->cmaps[n];
        if (!(q->i >= 0 && q->i < na) || !(q->j >= 0 && q->j < na) || !(q->k >= 0 && q->k < na) ||
            !(q->l >= 0 && q->l < na) || !(q->m >= 0 && q->m < na) || q->map < 0 ||
            q->map >= sys->cmap_map_count) {
            res = bad_index("CMAP term", n, na);
            goto cleanup;
        }
        const uint32_t bits[3] = {(uint32_t)q->m, first[q->map],
                                  (uint32_t)sys->cmap_maps[q->map].resolution};
        *t = (vkmd_bonded_term){
            .atoms = {(uint32_t)q->i, (uint32_t)q->j, (uint32_t)q->k, (uint32_t)q->l}};
        memcpy(&t->params.x, &bits[0], sizeof bits[0]);
        memcpy(&t->params.y, &bits[1], sizeof bits[1]);
        memcpy(&t->params.z, &bits[2], sizeof bits[2]);
    }
cleanup:
    free(c);
    free(first);
    return res;
}

/* Packs the system's terms in dispatch order into `out` [term_total], then
 * the CMAP cells. */
static vkmd_result pack_terms(const vkmd_pass_bonded *pass, const vkmd_system *sys,
                              vkmd_bonded_term *out)
{
    const int32_t na = sys->atom_count;
#define IN_RANGE(x) ((x) >= 0 && (x) < na)
    vkmd_bonded_term *t = out;
    for (int32_t n = 0; n < sys->bond_count; ++n, ++t) {
        const vkmd_bond *b = &sys->bonds[n];
        if (!IN_RANGE(b->i) || !IN_RANGE(b->j))
            return bad_index("bond", n, na);
        *t = (vkmd_bonded_term){.atoms = {(uint32_t)b->i, (uint32_t)b->j, 0, 0},
                                .params = {(float)b->k, (float)b->r0, 0, 0}};
    }
    for (int32_t n = 0; n < sys->urey_bradley_count; ++n, ++t) {
        const vkmd_bond *b = &sys->urey_bradleys[n];
        if (!IN_RANGE(b->i) || !IN_RANGE(b->j))
            return bad_index("Urey-Bradley term", n, na);
        *t = (vkmd_bonded_term){.atoms = {(uint32_t)b->i, (uint32_t)b->j, 0, 0},
                                .params = {(float)b->k, (float)b->r0, 1.0f, 0}};
    }
    for (int32_t n = 0; n < sys->angle_count; ++n, ++t) {
        const vkmd_angle *a = &sys->angles[n];
        if (!IN_RANGE(a->i) || !IN_RANGE(a->j) || !IN_RANGE(a->k))
            return bad_index("angle", n, na);
        *t = (vkmd_bonded_term){.atoms = {(uint32_t)a->i, (uint32_t)a->j, (uint32_t)a->k, 0},
                                .params = {(float)a->k_theta, (float)a->theta0, 0, 0}};
    }
    for (int32_t n = 0; n < sys->dihedral_count; ++n, ++t) {
        const vkmd_dihedral *d = &sys->dihedrals[n];
        if (!IN_RANGE(d->i) || !IN_RANGE(d->j) || !IN_RANGE(d->k) || !IN_RANGE(d->l))
            return bad_index("dihedral", n, na);
        *t = (vkmd_bonded_term){
            .atoms = {(uint32_t)d->i, (uint32_t)d->j, (uint32_t)d->k, (uint32_t)d->l},
            .params = {(float)d->k_phi, (float)d->phase, (float)d->periodicity,
                       d->improper ? 1.0f : 0.0f}};
    }
    for (int32_t n = 0; n < sys->improper_harmonic_count; ++n, ++t) {
        const vkmd_improper_harmonic *d = &sys->impropers_harmonic[n];
        if (!IN_RANGE(d->i) || !IN_RANGE(d->j) || !IN_RANGE(d->k) || !IN_RANGE(d->l))
            return bad_index("harmonic improper", n, na);
        *t = (vkmd_bonded_term){
            .atoms = {(uint32_t)d->i, (uint32_t)d->j, (uint32_t)d->k, (uint32_t)d->l},
            .params = {(float)d->k_psi, (float)d->psi0, 0, 2.0f}};
    }
    if (pass->with_pairs) {
        vkmd_result res = pack_pairs(pass, sys, t);
        if (res != VKMD_OK)
            return res;
        t += pass->push.pair14_count + pass->push.excl_count;
    }
    vkmd_result res = pack_cmap(pass, sys, t, out + term_total(&pass->push));
    if (res != VKMD_OK)
        return res;
    if (pass->push.restraint_count > 0)
        memcpy(out + term_total(&pass->push) - pass->push.restraint_count, pass->restraints,
               sizeof *pass->restraints * pass->push.restraint_count);
#undef IN_RANGE
    return VKMD_OK;
}

/* The 1-4 pairs and exclusion corrections from `t` on. */
static vkmd_result pack_pairs(const vkmd_pass_bonded *pass, const vkmd_system *sys,
                              vkmd_bonded_term *t)
{
    const int32_t na = sys->atom_count;
#define IN_RANGE(x) ((x) >= 0 && (x) < na)
    const int32_t nt = sys->lj_type_count;
    /* CHARMM's own 1-4 LJ tables when the system has them (as the reference) */
    const double *lj_a = sys->lj14_a ? sys->lj14_a : sys->lj_a;
    const double *lj_b = sys->lj14_b ? sys->lj14_b : sys->lj_b;
    for (int32_t n = 0; n < sys->pair14_count; ++n, ++t) {
        const vkmd_pair14 *p = &sys->pairs14[n];
        if (!IN_RANGE(p->i) || !IN_RANGE(p->j))
            return bad_index("1-4 pair", n, na);
        const vkmd_atom *ai = &sys->atoms[p->i], *aj = &sys->atoms[p->j];
        int32_t ty = ai->lj_type * nt + aj->lj_type;
        /* scee/scnb of 0 mean "no such term" (as the reference) */
        double lj_scale = p->scnb != 0 ? 1.0 / p->scnb : 0.0;
        double q_scale = p->scee != 0 ? 1.0 / p->scee : 0.0;
        double kqq = pass->coulomb_k * ai->charge * aj->charge * q_scale;
        *t = (vkmd_bonded_term){.atoms = {(uint32_t)p->i, (uint32_t)p->j, 0, 0},
                                .params = {(float)kqq, (float)(lj_a[ty] * lj_scale),
                                           (float)(lj_b[ty] * lj_scale), float_lo(kqq)}};
    }
    for (int32_t n = 0; sys->box.periodic && n < sys->exclusion_count; ++n) {
        const vkmd_pair *p = &sys->exclusions[n];
        if (!IN_RANGE(p->i) || !IN_RANGE(p->j))
            return bad_index("exclusion", n, na);
        double qq = sys->atoms[p->i].charge * sys->atoms[p->j].charge;
        if (qq == 0)
            continue;
        double kqq = pass->coulomb_k * qq;
        *t++ = (vkmd_bonded_term){.atoms = {(uint32_t)p->i, (uint32_t)p->j, 0, 0},
                                  .params = {(float)kqq, float_lo(kqq), 0, 0}};
    }
#undef IN_RANGE
    return VKMD_OK;
}

/* The restraints as terms: (i, residual bits) and (float r0, k). */
static vkmd_result pack_restraints(vkmd_pass_bonded *pass, const vkmd_restraints *r,
                                   int32_t atom_count)
{
    if (!r || r->count == 0)
        return VKMD_OK;
    if (!(r->k >= 0) || !isfinite(r->k) || !(r->flat_bottom_a >= 0))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "bonded pass: restraint k %g or flat bottom %g A out of range", r->k,
                         r->flat_bottom_a);
    pass->restraints = calloc((size_t)r->count, sizeof *pass->restraints);
    if (!pass->restraints)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "bonded pass: %d restraints", r->count);
    for (int32_t n = 0; n < r->count; ++n) {
        if (r->atoms[n] < 0 || r->atoms[n] >= atom_count)
            return bad_index("restraint", n, atom_count);
        const double *x = &r->ref[3 * n];
        float lo[3];
        uint32_t bits[3];
        for (int d = 0; d < 3; ++d) {
            lo[d] = float_lo(x[d]);
            memcpy(&bits[d], &lo[d], sizeof bits[d]);
        }
        pass->restraints[n] =
            (vkmd_bonded_term){.atoms = {(uint32_t)r->atoms[n], bits[0], bits[1], bits[2]},
                               .params = {(float)x[0], (float)x[1], (float)x[2], (float)r->k}};
    }
    pass->push.restraint_count = (uint32_t)r->count;
    pass->push.restraint_fb = (float)r->flat_bottom_a;
    return VKMD_OK;
}

vkmd_result vkmd_pass_bonded_set_restraint_k(vkmd_vk_context *ctx, vkmd_pass_bonded *pass, double k)
{
    if (!(k >= 0) || !isfinite(k))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "bonded pass: restraint k = %g kcal/mol/A^2 must be finite and >= 0", k);
    const uint32_t n = pass->push.restraint_count;
    if (n == 0)
        return k == 0 ? VKMD_OK
                      : vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                                  "bonded pass: restraint k %g set without restraints", k);
    for (uint32_t r = 0; r < n; ++r)
        pass->restraints[r].params.w = (float)k;
    const VkDeviceSize first = (VkDeviceSize)(term_total(&pass->push) - n);
    return vkmd_vk_buffer_upload(ctx, &pass->terms, first * sizeof *pass->restraints,
                                 pass->restraints, n * sizeof *pass->restraints);
}

void vkmd_pass_bonded_set_box(vkmd_pass_bonded *pass, const vkmd_box *box)
{
    if (box->periodic && box->triclinic) { /* bonded_terms.glsl: L in box.xyz, T in box_t.xyz */
        const double(*v)[3] = box->vec;
        pass->push.box = (vkmd_gpu_vec4){(float)v[0][0], (float)v[1][1], (float)v[2][2], 1.0f};
        pass->push.box_t = (vkmd_gpu_vec4){(float)v[1][0], (float)v[2][0], (float)v[2][1], 0.0f};
        return;
    }
    pass->push.box = (vkmd_gpu_vec4){(float)box->len[0], (float)box->len[1], (float)box->len[2],
                                     box->periodic ? 1.0f : 0.0f};
}

vkmd_result vkmd_pass_bonded_upload(vkmd_vk_context *ctx, vkmd_pass_bonded *pass,
                                    const vkmd_system *sys)
{
    vkmd_result res = VKMD_OK;
    if (sys->bond_count + sys->urey_bradley_count != (int32_t)pass->push.bond_count ||
        sys->angle_count != (int32_t)pass->push.angle_count ||
        sys->dihedral_count + sys->improper_harmonic_count != (int32_t)pass->push.dihedral_count ||
        sys->cmap_count != (int32_t)pass->push.cmap_count ||
        cmap_table_entries(sys) != pass->cmap_entries ||
        sys->atom_count != (int32_t)pass->push.atom_count ||
        (pass->with_pairs && (sys->pair14_count != (int32_t)pass->push.pair14_count ||
                              charged_exclusions(sys) != pass->push.excl_count)))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "bonded pass: upload of a system with other term counts than at create");
    uint32_t total = term_total(&pass->push) + pass->cmap_entries;
    vkmd_bonded_term *terms = NULL;
    if (total > 0) {
        terms = calloc(total, sizeof *terms);
        if (!terms)
            return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "bonded pass: %u terms", total);
        VKMD_TRY(pack_terms(pass, sys, terms));
        VKMD_TRY(vkmd_vk_buffer_upload(ctx, &pass->terms, 0, terms, total * sizeof *terms));
    }
    vkmd_pass_bonded_set_box(pass, &sys->box);
cleanup:
    free(terms);
    return res;
}

vkmd_result vkmd_pass_bonded_create(vkmd_vk_context *ctx, const vkmd_system *sys,
                                    const vkmd_pass_bonded_desc *desc, vkmd_pass_bonded **out_pass)
{
    vkmd_result res = VKMD_OK;
    *out_pass = NULL;
    const char *shader = NULL;
    res = vkmd_fixed_shader(ctx, "bonded pass", "bonded.comp", &shader);
    if (res != VKMD_OK)
        return res;
    if (!desc || !desc->positions || !desc->accum)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "bonded pass: positions and accumulators "
                                                      "are required");
    if (desc->accum->atom_count != sys->atom_count ||
        desc->positions->size < (VkDeviceSize)sys->atom_count * 16)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "bonded pass: buffers sized for %d atoms, system has %d",
                         desc->accum->atom_count, sys->atom_count);
    uint32_t wg = desc->workgroup_size ? desc->workgroup_size : VKMD_BONDED_WORKGROUP_SIZE;
    if ((wg & (wg - 1)) != 0 || wg > ctx->info.max_workgroup_invocations)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "bonded pass: workgroup size %u is not a power of two <= %u", wg,
                         ctx->info.max_workgroup_invocations);

    vkmd_pass_bonded *p = calloc(1, sizeof *p);
    if (!p)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "bonded pass");
    p->accum = desc->accum;
    p->workgroup_size = wg;
    p->push.bond_count = (uint32_t)(sys->bond_count + sys->urey_bradley_count);
    p->push.angle_count = (uint32_t)sys->angle_count;
    p->push.dihedral_count = (uint32_t)(sys->dihedral_count + sys->improper_harmonic_count);
    p->push.cmap_count = (uint32_t)sys->cmap_count;
    p->cmap_entries = cmap_table_entries(sys);
    p->push.atom_count = (uint32_t)sys->atom_count;
    VKMD_TRY(pack_restraints(p, desc->restraints, sys->atom_count));
    if (desc->settings) {
        p->with_pairs = 1;
        p->coulomb_k = vkmd_ff_coulomb_k(desc->settings);
        p->push.pair14_count = (uint32_t)sys->pair14_count;
        p->push.excl_count = charged_exclusions(sys);
        p->push.ewald_alpha = (float)desc->settings->ewald_alpha;
        p->push.ewald_alpha_lo = float_lo(desc->settings->ewald_alpha);
        if (p->push.excl_count > 0 && !(desc->settings->ewald_alpha > 0)) {
            res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                            "bonded pass: periodic system needs resolved settings (ewald_alpha)");
            goto cleanup;
        }
    }

    const vkmd_vk_buffer *pos_x = NULL;
    VKMD_TRY(vkmd_positions_extra_binding(desc->positions, desc->positions_x, desc->positions_mode,
                                          sys->atom_count, "bonded pass", &pos_x));
    for (uint32_t k = 0; k < 2; ++k) {
        const vkmd_vk_spec specs[] = {{VKMD_SPEC_WORKGROUP_SIZE, wg},
                                      {VKMD_SPEC_POSITIONS, (uint32_t)desc->positions_mode},
                                      {VKMD_SPEC_ENERGY, k},
                                      {VKMD_SPEC_TRICLINIC, sys->box.triclinic ? 1u : 0u}};
        const vkmd_vk_pipeline_desc pd = {
            .shader = shader,
            .buffer_count = VKMD_BONDED_BINDING_COUNT,
            .push_size = sizeof(vkmd_bonded_push),
            .specs = specs,
            .spec_count = 4,
        };
        VKMD_TRY(vkmd_vk_pipeline_create(ctx, &pd, &p->pipeline[k]));
    }

    uint32_t total = term_total(&p->push) + p->cmap_entries;
    const vkmd_vk_buffer_desc bd = {
        .size = (total ? total : 1) * sizeof(vkmd_bonded_term),
        .force_staging = desc->force_staging,
        .name = "bonded terms",
    };
    VKMD_TRY(vkmd_vk_buffer_create(ctx, &bd, &p->terms));
    VKMD_TRY(vkmd_pass_bonded_upload(ctx, p, sys));

    const vkmd_vk_buffer *bufs[VKMD_BONDED_BINDING_COUNT];
    bufs[VKMD_BONDED_BINDING_POSITIONS] = desc->positions;
    bufs[VKMD_BONDED_BINDING_FORCES] = &desc->accum->forces;
    bufs[VKMD_BONDED_BINDING_ENERGIES] = &desc->accum->energies;
    bufs[VKMD_BONDED_BINDING_TERMS] = &p->terms;
    bufs[VKMD_BONDED_BINDING_POSITIONS_X] = pos_x;
    VKMD_TRY(vkmd_vk_descset_create(ctx, &p->pipeline[0], bufs, &p->set));

    /* Enough groups to give every term of the most numerous kind a thread,
     * capped by the device limit; the shader's grid-stride loops (one per
     * kind) cover the rest. */
    const vkmd_bonded_push *q = &p->push;
    uint32_t most = q->bond_count;
    const uint32_t kinds[] = {q->angle_count, q->dihedral_count, q->pair14_count,
                              q->excl_count,  q->cmap_count,     q->restraint_count};
    for (int k = 0; k < 6; ++k)
        most = kinds[k] > most ? kinds[k] : most;
    uint32_t groups = vkmd_vk_div_up(most, wg);
    uint32_t max_groups = ctx->info.max_workgroup_count_x ? ctx->info.max_workgroup_count_x : 65535;
    p->groups = groups < max_groups ? groups : max_groups;
    vkmd_log_debug("bonded pass: %u terms, %u groups of %u, fixed point in %s", total, p->groups,
                   wg, vkmd_fixed_mode_name(vkmd_fixed_mode_of(ctx)));
    *out_pass = p;
    return VKMD_OK;
cleanup:
    vkmd_pass_bonded_destroy(ctx, p);
    return res;
}

void vkmd_pass_bonded_record(const vkmd_pass_bonded *pass, VkCommandBuffer cb, int with_energy)
{
    if (pass->groups == 0)
        return;
    const int k = with_energy ? 1 : 0;
    vkmd_vk_dispatch(cb, &pass->pipeline[k], &pass->set, &pass->push, pass->groups, 1, 1);
}

vkmd_result vkmd_pass_bonded_readback(vkmd_vk_context *ctx, const vkmd_pass_bonded *pass,
                                      double *out_forces, vkmd_energy *out_energy)
{
    double slots[VKMD_ENERGY_SLOT_COUNT];
    vkmd_result res = vkmd_accum_readback(ctx, pass->accum, out_forces, out_energy ? slots : NULL);
    if (res == VKMD_OK && out_energy) {
        out_energy->bond = slots[VKMD_ENERGY_BOND];
        out_energy->angle = slots[VKMD_ENERGY_ANGLE];
        out_energy->improper = slots[VKMD_ENERGY_IMPROPER];
        out_energy->dihedral = slots[VKMD_ENERGY_PROPER] + slots[VKMD_ENERGY_IMPROPER];
        if (pass->with_pairs) {
            out_energy->lj14 = slots[VKMD_ENERGY_LJ14];
            out_energy->coulomb14 = slots[VKMD_ENERGY_COULOMB14];
            out_energy->coulomb_excl = slots[VKMD_ENERGY_COUL_EXCL];
        }
        out_energy->restraint = slots[VKMD_ENERGY_RESTRAINT];
        out_energy->urey_bradley = slots[VKMD_ENERGY_UREY_BRADLEY];
        out_energy->improper_harmonic = slots[VKMD_ENERGY_IMPROPER_HARMONIC];
        out_energy->cmap = slots[VKMD_ENERGY_CMAP];
    }
    return res;
}

void vkmd_pass_bonded_destroy(vkmd_vk_context *ctx, vkmd_pass_bonded *pass)
{
    if (!pass)
        return;
    vkmd_vk_descset_destroy(ctx, &pass->set);
    vkmd_vk_buffer_destroy(ctx, &pass->terms);
    vkmd_vk_pipeline_destroy(ctx, &pass->pipeline[0]);
    vkmd_vk_pipeline_destroy(ctx, &pass->pipeline[1]);
    free(pass->restraints);
    free(pass);
}

void vkmd_pass_bonded_view(const vkmd_pass_bonded *pass, const vkmd_vk_buffer **out_terms,
                           vkmd_bonded_push *out_push)
{
    *out_terms = &pass->terms;
    *out_push = pass->push;
}
