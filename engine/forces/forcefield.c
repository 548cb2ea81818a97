/* The force field on a device (see forcefield.h): owns the shared buffers and
 * the passes, records them in order, adds the host-side constants.
 *
 * The passes all add into the same 64-bit fixed-point accumulators with
 * atomics (int64 or 32-bit word pairs, forces/fixed_point.h); Vulkan
 * treats those as writes, so consecutive passes are separated by compute
 * barriers (no order dependence in the values: integer sums commute).
 *
 * The constant terms (Ewald self energy, long-range dispersion correction,
 * net-charge correction) depend only on charges, LJ types and the box: they
 * come from the reference functions in double, once per box. */
#include "forces/forcefield.h"
#include "core/log.h"
#include "forces/pass_neighbor.h"
#include "forces/pass_bonded.h"
#include "forces/pass_gb.h"
#include "forces/pass_nonbonded.h"
#include "forces/pass_pme.h"
#include "forces/pass_vsite.h"
#include "forces/positions.h"
#include "maths/ewald.h"
#include "vk/barrier.h"
#include "vk/command.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Timestamp slots (relative to first_slot). */
enum {
    MARK_START = 0,
    MARK_NEIGHBOR,
    MARK_NONBONDED,
    MARK_BONDED,
    MARK_PME_FIRST, /* VKMD_PME_TIMER_MARKS slots from here */
    MARK_COUNT = MARK_PME_FIRST + VKMD_PME_TIMER_MARKS
};
_Static_assert(MARK_COUNT <= VKMD_FORCEFIELD_TIMER_SLOTS, "timer slots fit");

struct vkmd_forcefield {
    vkmd_ff_settings settings;
    vkmd_system const *sys; /* borrowed for re-creating the list; see grow_neighbor */
    int32_t atom_count;
    int periodic;
    double skin_a, outer_skin_a;
    int force_staging;
    vkmd_vk_buffer positions;
    vkmd_vk_buffer positions_x; /* split parts (empty for fp32) */
    vkmd_accum accum;
    vkmd_neighbor *neighbor;
    vkmd_pass_nonbonded *nonbonded;
    vkmd_pass_bonded *bonded;
    vkmd_pass_pme *pme;
    vkmd_pass_vsite *vsite; /* NULL without virtual sites */
    vkmd_pass_gb *gb;       /* NULL without implicit solvent */
    vkmd_box box;           /* the current box (starts as the system's; vkmd_forcefield_set_box) */
    /* host constants, kcal/mol; the dispersion and net-charge terms scale as 1/V */
    double e_self, e_dispersion, e_net_charge;
    double e_dispersion_v, e_net_charge_v; /* the two times the volume, kcal/mol A^3 */
};

const char *vkmd_ff_pass_name(vkmd_ff_pass pass)
{
    static const char *names[VKMD_FF_PASS_COUNT] = {
        "neighbor", "nonbonded", "bonded", "pme_spread", "pme_fft", "pme_convolve", "pme_gather"};
    return (unsigned)pass < VKMD_FF_PASS_COUNT ? names[pass] : "?";
}

static void compute_constants(vkmd_forcefield *ff, const vkmd_system *sys)
{
    const vkmd_ff_settings *s = &ff->settings;
    double k = vkmd_ff_coulomb_k(s);
    ff->e_self = ff->e_dispersion = ff->e_net_charge = 0;
    if (!sys->box.periodic)
        return;
    ff->e_self = vkmd_ewald_self_energy(sys, s->ewald_alpha, k);
    if (!s->no_dispersion_correction)
        ff->e_dispersion = vkmd_ewald_dispersion_energy(sys, s->cutoff_a);
    if (s->net_charge_correction)
        ff->e_net_charge = vkmd_ewald_net_charge_energy(sys, s->ewald_alpha, k);
    const double volume = vkmd_box_volume_a3(&sys->box);
    ff->e_dispersion_v = ff->e_dispersion * volume;
    ff->e_net_charge_v = ff->e_net_charge * volume;
}

/* (Re)creates the neighbour list and the nonbonded pass that reads it;
 * strides 0 = the list's own estimates. */
static vkmd_result create_nonbonded(vkmd_vk_context *ctx, vkmd_forcefield *ff,
                                    const vkmd_system *sys, uint32_t max_neighbors,
                                    uint32_t max_inner)
{
    vkmd_result res = VKMD_OK;
    vkmd_pass_nonbonded_destroy(ctx, ff->nonbonded);
    vkmd_neighbor_destroy(ctx, ff->neighbor);
    ff->nonbonded = NULL;
    ff->neighbor = NULL;
    if (ff->periodic) {
        const vkmd_neighbor_desc nd = {.positions = &ff->positions,
                                       .positions_x = vkmd_forcefield_positions_x(ff),
                                       .positions_mode = ff->settings.positions,
                                       .cutoff_a = ff->settings.cutoff_a,
                                       .skin_a = ff->skin_a,
                                       .outer_skin_a = ff->outer_skin_a,
                                       .max_neighbors = max_neighbors,
                                       .max_inner = max_inner,
                                       .force_staging = ff->force_staging};
        VKMD_TRY(vkmd_neighbor_create(ctx, sys, &nd, &ff->neighbor));
        VKMD_TRY(vkmd_neighbor_set_box(ff->neighbor, &ff->box)); /* a box set since create */
    }
    const vkmd_pass_nonbonded_desc bd = {.positions = &ff->positions,
                                         .positions_x = vkmd_forcefield_positions_x(ff),
                                         .positions_mode = ff->settings.positions,
                                         .accum = &ff->accum,
                                         .neighbor = ff->neighbor,
                                         .settings = &ff->settings,
                                         .force_staging = ff->force_staging};
    VKMD_TRY(vkmd_pass_nonbonded_create(ctx, sys, &bd, &ff->nonbonded));
    vkmd_pass_nonbonded_set_box(ff->nonbonded, &ff->box);
    if (ff->pme && ff->neighbor) { /* a new list: PME takes its atoms in the new one's order */
        vkmd_neighbor_view nv;
        vkmd_neighbor_view_get(ff->neighbor, &nv);
        VKMD_TRY(vkmd_pass_pme_set_list(ctx, ff->pme, nv.order, nv.state));
    }
cleanup:
    return res;
}

vkmd_result vkmd_forcefield_create(vkmd_vk_context *ctx, const vkmd_system *sys,
                                   const vkmd_forcefield_desc *desc, vkmd_forcefield **out_ff)
{
    vkmd_result res = VKMD_OK;
    *out_ff = NULL;
    if (!desc || !desc->settings)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "force field: settings are required");
    if (!sys->positions || sys->atom_count <= 0)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "force field: the system has no coordinates");
    if (sys->box.periodic && !(desc->settings->ewald_alpha > 0 && desc->settings->cutoff_a > 0))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "force field: settings are not resolved (vkmd_ff_settings_resolve)");
    vkmd_forcefield *ff = calloc(1, sizeof *ff);
    if (!ff)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "force field");
    ff->settings = *desc->settings;
    ff->sys = sys;
    ff->atom_count = sys->atom_count;
    ff->periodic = sys->box.periodic;
    ff->box = sys->box;
    ff->skin_a = desc->skin_a;
    ff->outer_skin_a = desc->outer_skin_a;
    ff->force_staging = desc->force_staging;
    VKMD_TRY(vkmd_positions_create(ctx, sys->atom_count, desc->force_staging, &ff->positions));
    VKMD_TRY(vkmd_positions_create_extra(ctx, sys->atom_count, ff->settings.positions,
                                         desc->force_staging, &ff->positions_x));
    VKMD_TRY(vkmd_forcefield_upload_positions(ctx, ff, sys->positions));
    VKMD_TRY(vkmd_accum_create(ctx, sys->atom_count, desc->force_staging, &ff->accum));
    VKMD_TRY(create_nonbonded(ctx, ff, sys, desc->max_neighbors, 0));
    const vkmd_pass_bonded_desc bd = {.positions = &ff->positions,
                                      .positions_x = vkmd_forcefield_positions_x(ff),
                                      .positions_mode = ff->settings.positions,
                                      .accum = &ff->accum,
                                      .settings = &ff->settings,
                                      .restraints = desc->restraints,
                                      .force_staging = desc->force_staging};
    VKMD_TRY(vkmd_pass_bonded_create(ctx, sys, &bd, &ff->bonded));
    if (ff->periodic && !desc->no_pme) {
        vkmd_neighbor_view nv;
        vkmd_neighbor_view_get(ff->neighbor, &nv);
        const vkmd_pass_pme_desc md = {.positions = &ff->positions,
                                       .positions_x = vkmd_forcefield_positions_x(ff),
                                       .positions_mode = ff->settings.positions,
                                       .accum = &ff->accum,
                                       .settings = &ff->settings,
                                       .force_staging = desc->force_staging,
                                       .list_order = nv.order,
                                       .list_state = nv.state};
        VKMD_TRY(vkmd_pass_pme_create(ctx, sys, &md, &ff->pme));
    }
    if (sys->vsite_count > 0) {
        const vkmd_pass_vsite_desc vd = {.positions = &ff->positions,
                                         .positions_x = vkmd_forcefield_positions_x(ff),
                                         .positions_mode = ff->settings.positions,
                                         .accum = &ff->accum,
                                         .force_staging = desc->force_staging};
        VKMD_TRY(vkmd_pass_vsite_create(ctx, sys, &vd, &ff->vsite));
    }
    if (ff->settings.gb.model != VKMD_GB_NONE) {
        vkmd_gb_params gp;
        VKMD_TRY(vkmd_gb_params_build(sys, &ff->settings.gb, &gp));
        const vkmd_pass_gb_desc gd = {.positions = &ff->positions,
                                      .positions_x = vkmd_forcefield_positions_x(ff),
                                      .positions_mode = ff->settings.positions,
                                      .accum = &ff->accum,
                                      .force_staging = desc->force_staging};
        res = vkmd_pass_gb_create(ctx, &gp, &gd, &ff->gb);
        vkmd_gb_params_destroy(&gp);
        if (res != VKMD_OK)
            goto cleanup;
    }
    compute_constants(ff, sys);
    vkmd_log_debug("force field: %d atoms, %.1f MiB of device memory", sys->atom_count,
                   vkmd_forcefield_memory_bytes(ff) / 1048576.0);
    *out_ff = ff;
    return VKMD_OK;
cleanup:
    vkmd_forcefield_destroy(ctx, ff);
    return res;
}

vkmd_result vkmd_forcefield_set_restraint_k(vkmd_vk_context *ctx, vkmd_forcefield *ff, double k)
{
    return vkmd_pass_bonded_set_restraint_k(ctx, ff->bonded, k);
}

void vkmd_forcefield_destroy(vkmd_vk_context *ctx, vkmd_forcefield *ff)
{
    if (!ff)
        return;
    vkmd_pass_vsite_destroy(ctx, ff->vsite);
    vkmd_pass_gb_destroy(ctx, ff->gb);
    vkmd_pass_pme_destroy(ctx, ff->pme);
    vkmd_pass_bonded_destroy(ctx, ff->bonded);
    vkmd_pass_nonbonded_destroy(ctx, ff->nonbonded);
    vkmd_neighbor_destroy(ctx, ff->neighbor);
    vkmd_accum_destroy(ctx, &ff->accum);
    vkmd_vk_buffer_destroy(ctx, &ff->positions_x);
    vkmd_vk_buffer_destroy(ctx, &ff->positions);
    free(ff);
}

const vkmd_vk_buffer *vkmd_forcefield_positions(const vkmd_forcefield *ff)
{
    return &ff->positions;
}

const vkmd_vk_buffer *vkmd_forcefield_positions_x(const vkmd_forcefield *ff)
{
    return ff->settings.positions != VKMD_POSITIONS_FP32 ? &ff->positions_x : NULL;
}

int vkmd_forcefield_positions_mode(const vkmd_forcefield *ff)
{
    return ff->settings.positions;
}

vkmd_result vkmd_forcefield_read_positions(vkmd_vk_context *ctx, const vkmd_forcefield *ff,
                                           double *out_positions)
{
    return vkmd_positions_readback_mode(ctx, &ff->positions, &ff->positions_x,
                                        ff->settings.positions, out_positions, ff->atom_count);
}

const vkmd_system *vkmd_forcefield_system(const vkmd_forcefield *ff)
{
    return ff->sys;
}

const vkmd_accum *vkmd_forcefield_accum(const vkmd_forcefield *ff)
{
    return &ff->accum;
}

vkmd_result vkmd_forcefield_upload_positions(vkmd_vk_context *ctx, vkmd_forcefield *ff,
                                             const double *positions)
{
    return vkmd_positions_upload_mode(ctx, &ff->positions, &ff->positions_x, ff->settings.positions,
                                      positions, ff->atom_count);
}

static void mark(VkCommandBuffer cb, const vkmd_vk_timer *timer, uint32_t slot)
{
    if (timer)
        vkmd_vk_timer_record_mark(cb, timer, slot);
}

static void record_terms(const vkmd_forcefield *ff, VkCommandBuffer cb, unsigned flags,
                         const vkmd_vk_timer *timer, uint32_t first_slot)
{
    const int energy = (flags & VKMD_FF_RECORD_ENERGY) != 0;
    const unsigned pme_flags = (energy ? VKMD_PME_RECORD_ENERGY : 0u) |
                               ((flags & VKMD_FF_RECORD_PREPARED) ? VKMD_PME_RECORD_FUSED : 0u);
    /* The nonbonded pass prunes the list in front of its tiles. */
    const unsigned nl_flags =
        VKMD_NL_RECORD_NO_PRUNE |
        ((flags & VKMD_FF_RECORD_NO_REBUILD) ? VKMD_NL_RECORD_NO_REBUILD : 0u) |
        ((flags & VKMD_FF_RECORD_GATED) ? VKMD_NL_RECORD_GATED : 0u);
    /* The accumulators cleared by transfer commands unless the caller's
     * integration cleared them (a gated MD step records no transfers). The
     * PME charge grid needs no clear: the conversion leaves it zero. */
    if (!(flags & VKMD_FF_RECORD_CLEARED)) {
        vkmd_vk_barrier_compute_to_transfer(cb); /* earlier reads of the accumulators first */
        vkmd_accum_record_clear(cb, &ff->accum); /* + transfer -> compute barrier */
    }
    if (!timer && ff->pme) {
        /* Passes that write different buffers share a barrier interval: the
         * nonbonded pass (forces, energies) with the PME spread (charge
         * grid), the bonded pass (forces, energies) with the grid
         * conversion (FFT grid); passes adding into the same accumulators
         * stay separated by barriers. Timed records (bench) keep one pass
         * per interval so each can be timed alone. */
        if (ff->neighbor)
            vkmd_neighbor_record(ff->neighbor, cb, nl_flags);
        vkmd_pass_nonbonded_record(ff->nonbonded, cb, energy);
        vkmd_pass_pme_record_spread(ff->pme, cb);
        vkmd_vk_barrier_compute(cb);
        vkmd_pass_bonded_record(ff->bonded, cb, energy);
        vkmd_pass_pme_record_convert(ff->pme, cb);
        vkmd_vk_barrier_compute(cb);
        vkmd_pass_pme_record_solve(ff->pme, cb, pme_flags);
        vkmd_vk_barrier_compute(cb);
        return;
    }
    mark(cb, timer, first_slot + MARK_START);
    if (ff->neighbor)
        vkmd_neighbor_record(ff->neighbor, cb, nl_flags);
    mark(cb, timer, first_slot + MARK_NEIGHBOR);
    vkmd_pass_nonbonded_record(ff->nonbonded, cb, energy);
    vkmd_vk_barrier_compute(cb);
    if (ff->gb) /* vacuum only; timed with the nonbonded pass */
        vkmd_pass_gb_record(ff->gb, cb, energy);
    mark(cb, timer, first_slot + MARK_NONBONDED);
    vkmd_pass_bonded_record(ff->bonded, cb, energy);
    vkmd_vk_barrier_compute(cb);
    mark(cb, timer, first_slot + MARK_BONDED);
    if (ff->pme) {
        vkmd_pass_pme_record(ff->pme, cb, pme_flags, timer, first_slot + MARK_PME_FIRST);
        vkmd_vk_barrier_compute(cb);
    }
}

/* With virtual sites the terms are wrapped: sites built from their parents
 * first (the list check and every pass see them), their forces handed to the
 * parents last. */
void vkmd_forcefield_record(const vkmd_forcefield *ff, VkCommandBuffer cb, unsigned flags,
                            const vkmd_vk_timer *timer, uint32_t first_slot)
{
    if (ff->vsite)
        vkmd_pass_vsite_record_build(ff->vsite, cb);
    record_terms(ff, cb, flags, timer, first_slot);
    if (ff->vsite)
        vkmd_pass_vsite_record_spread(ff->vsite, cb);
}

void vkmd_forcefield_record_prepare(const vkmd_forcefield *ff, VkCommandBuffer cb)
{
    if (ff->pme)
        vkmd_pass_pme_record_kernel(ff->pme, cb);
}

void vkmd_forcefield_record_invalidate_prune(const vkmd_forcefield *ff, VkCommandBuffer cb)
{
    if (ff->neighbor)
        vkmd_neighbor_record_invalidate_prune(ff->neighbor, cb);
}

void vkmd_forcefield_record_invalidate(const vkmd_forcefield *ff, VkCommandBuffer cb)
{
    if (ff->neighbor)
        vkmd_neighbor_record_invalidate(ff->neighbor, cb);
}

vkmd_result vkmd_forcefield_pass_times(vkmd_vk_context *ctx, const vkmd_forcefield *ff,
                                       const vkmd_vk_timer *timer, uint32_t first_slot,
                                       double *out_ns)
{
    vkmd_result res = VKMD_OK;
    const uint32_t f = first_slot;
    for (int p = 0; p < VKMD_FF_PASS_COUNT; ++p)
        out_ns[p] = 0;
    VKMD_TRY(vkmd_vk_timer_elapsed_ns(ctx, timer, f + MARK_START, f + MARK_NEIGHBOR,
                                      &out_ns[VKMD_FF_PASS_NEIGHBOR]));
    VKMD_TRY(vkmd_vk_timer_elapsed_ns(ctx, timer, f + MARK_NEIGHBOR, f + MARK_NONBONDED,
                                      &out_ns[VKMD_FF_PASS_NONBONDED]));
    VKMD_TRY(vkmd_vk_timer_elapsed_ns(ctx, timer, f + MARK_NONBONDED, f + MARK_BONDED,
                                      &out_ns[VKMD_FF_PASS_BONDED]));
    if (ff->pme) {
        const uint32_t m = f + MARK_PME_FIRST;
        double fwd, ifft;
        /* the bonded -> PME gap (one barrier) is counted with the spread */
        VKMD_TRY(vkmd_vk_timer_elapsed_ns(ctx, timer, f + MARK_BONDED, m + 1,
                                          &out_ns[VKMD_FF_PASS_PME_SPREAD]));
        VKMD_TRY(vkmd_vk_timer_elapsed_ns(ctx, timer, m + 1, m + 2, &fwd));
        VKMD_TRY(
            vkmd_vk_timer_elapsed_ns(ctx, timer, m + 2, m + 3, &out_ns[VKMD_FF_PASS_PME_CONVOLVE]));
        VKMD_TRY(vkmd_vk_timer_elapsed_ns(ctx, timer, m + 3, m + 4, &ifft));
        VKMD_TRY(
            vkmd_vk_timer_elapsed_ns(ctx, timer, m + 4, m + 5, &out_ns[VKMD_FF_PASS_PME_GATHER]));
        out_ns[VKMD_FF_PASS_PME_FFT] = fwd + ifft;
    }
cleanup:
    return res;
}

vkmd_result vkmd_forcefield_readback(vkmd_vk_context *ctx, const vkmd_forcefield *ff,
                                     vkmd_energy *out_energy, double *out_forces)
{
    vkmd_result res = VKMD_OK;
    if (ff->neighbor)
        VKMD_TRY(vkmd_neighbor_check(ctx, ff->neighbor, NULL));
    double slots[VKMD_ENERGY_SLOT_COUNT];
    VKMD_TRY(vkmd_accum_readback(ctx, &ff->accum, out_forces, slots));
    if (out_energy) {
        vkmd_energy *e = out_energy;
        memset(e, 0, sizeof *e);
        e->bond = slots[VKMD_ENERGY_BOND];
        e->angle = slots[VKMD_ENERGY_ANGLE];
        e->improper = slots[VKMD_ENERGY_IMPROPER];
        e->dihedral = slots[VKMD_ENERGY_PROPER] + slots[VKMD_ENERGY_IMPROPER];
        e->lj_pair = slots[VKMD_ENERGY_LJ];
        e->lj14 = slots[VKMD_ENERGY_LJ14];
        e->lj_dispersion = ff->e_dispersion;
        e->coulomb_real = slots[VKMD_ENERGY_COUL_REAL];
        e->coulomb_recip = slots[VKMD_ENERGY_COUL_RECIP];
        e->coulomb_self = ff->e_self;
        e->coulomb_excl = slots[VKMD_ENERGY_COUL_EXCL];
        e->coulomb_net_charge = ff->e_net_charge;
        e->coulomb14 = slots[VKMD_ENERGY_COULOMB14];
        e->restraint = slots[VKMD_ENERGY_RESTRAINT];
        e->urey_bradley = slots[VKMD_ENERGY_UREY_BRADLEY];
        e->improper_harmonic = slots[VKMD_ENERGY_IMPROPER_HARMONIC];
        e->cmap = slots[VKMD_ENERGY_CMAP];
        e->gb = slots[VKMD_ENERGY_GB];
        e->nonpolar = slots[VKMD_ENERGY_NONPOLAR];
        vkmd_energy_sum(e);
    }
cleanup:
    return res;
}

/* Submits one recorded evaluation and waits. */
static vkmd_result submit_once(vkmd_vk_context *ctx, const vkmd_forcefield *ff)
{
    vkmd_result res = VKMD_OK;
    vkmd_vk_cmd cmd = {0};
    VKMD_TRY(vkmd_vk_cmd_create(ctx, &cmd));
    VKMD_TRY(vkmd_vk_cmd_begin(ctx, &cmd));
    vkmd_forcefield_record(ff, cmd.cb, VKMD_FF_RECORD_ENERGY, NULL, 0);
    vkmd_vk_barrier_compute_to_transfer(cmd.cb);
    VKMD_TRY(vkmd_vk_cmd_end(ctx, &cmd));
    VKMD_TRY(vkmd_vk_cmd_submit_wait(ctx, &cmd));
cleanup:
    vkmd_vk_cmd_destroy(ctx, &cmd);
    return res;
}

vkmd_result vkmd_forcefield_evaluate(vkmd_vk_context *ctx, vkmd_forcefield *ff,
                                     const double *positions, vkmd_energy *out_energy,
                                     double *out_forces)
{
    vkmd_result res = VKMD_OK;
    if (positions)
        VKMD_TRY(vkmd_forcefield_upload_positions(ctx, ff, positions));
    for (int attempt = 0;; ++attempt) {
        VKMD_TRY(submit_once(ctx, ff));
        res = vkmd_forcefield_readback(ctx, ff, out_energy, out_forces);
        if (res != VKMD_ERROR_CAPACITY || attempt >= 3)
            break;
        VKMD_TRY(vkmd_forcefield_grow_neighbors(ctx, ff));
    }
cleanup:
    return res;
}

vkmd_result vkmd_forcefield_check_capacity(vkmd_vk_context *ctx, const vkmd_forcefield *ff)
{
    return ff->neighbor ? vkmd_neighbor_check(ctx, ff->neighbor, NULL) : VKMD_OK;
}

vkmd_result vkmd_forcefield_check_list(vkmd_vk_context *ctx, const vkmd_forcefield *ff,
                                       vkmd_neighbor_stats *out)
{
    memset(out, 0, sizeof *out);
    return ff->neighbor ? vkmd_neighbor_check(ctx, ff->neighbor, out) : VKMD_OK;
}

vkmd_result vkmd_forcefield_set_box(vkmd_forcefield *ff, const double box[3])
{
    if (!ff->periodic)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "force field: a vacuum system has no box to change");
    if (!(box[0] > 0 && box[1] > 0 && box[2] > 0 && isfinite(box[0] * box[1] * box[2])))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "force field: box %g x %g x %g A is not a box", box[0], box[1], box[2]);
    vkmd_box b;
    vkmd_box_set_rect(&b, box);
    return vkmd_forcefield_set_cell(ff, &b);
}

vkmd_result vkmd_forcefield_set_cell(vkmd_forcefield *ff, const vkmd_box *cell)
{
    if (!ff->periodic)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "force field: a vacuum system has no box to change");
    if (!cell->periodic || (cell->triclinic != 0) != (ff->box.triclinic != 0))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "force field: the new box is %s, the system's is %s (the passes are built "
                         "for one kind)",
                         !cell->periodic   ? "not periodic"
                         : cell->triclinic ? "triclinic"
                                           : "rectangular",
                         ff->box.triclinic ? "triclinic" : "rectangular");
    const double volume = vkmd_box_volume_a3(cell);
    if (!(volume > 0 && isfinite(volume)))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "force field: a box of volume %g A^3",
                         volume);
    if (ff->neighbor) { /* checks the widths against the cutoff first: nothing changes on error */
        vkmd_result res = vkmd_neighbor_set_box(ff->neighbor, cell);
        if (res != VKMD_OK)
            return res;
    }
    ff->box = *cell;
    vkmd_pass_nonbonded_set_box(ff->nonbonded, cell);
    vkmd_pass_bonded_set_box(ff->bonded, cell);
    if (ff->pme)
        vkmd_pass_pme_set_box(ff->pme, cell);
    ff->e_dispersion = ff->e_dispersion_v / volume;
    ff->e_net_charge = ff->e_net_charge_v / volume;
    return VKMD_OK;
}

void vkmd_forcefield_get_box(const vkmd_forcefield *ff, double out_box[3])
{
    for (int d = 0; d < 3; ++d)
        out_box[d] = ff->periodic ? ff->box.len[d] : 0.0;
}

vkmd_result vkmd_forcefield_grow_neighbors(vkmd_vk_context *ctx, vkmd_forcefield *ff)
{
    vkmd_result res = VKMD_OK;
    if (!ff->neighbor)
        return VKMD_OK;
    /* Grow to what the device saw plus a margin, rebuild from scratch. */
    vkmd_neighbor_stats st;
    VKMD_TRY(vkmd_neighbor_stats_read(ctx, ff->neighbor, &st));
    uint32_t want = st.max_count + st.max_count / 4 + 32;
    uint32_t want_inner = st.max_inner + st.max_inner / 4 + 32;
    if (want < st.capacity)
        want = st.capacity;
    if (want_inner < st.inner_capacity)
        want_inner = st.inner_capacity;
    if (want_inner > want)
        want = want_inner;
    vkmd_log_info("neighbour list: growing from %u / %u to %u / %u outer / inner tiles per "
                  "cluster",
                  st.capacity, st.inner_capacity, want, want_inner);
    VKMD_TRY(create_nonbonded(ctx, ff, ff->sys, want, want_inner));
cleanup:
    return res;
}

size_t vkmd_forcefield_memory_bytes(const vkmd_forcefield *ff)
{
    size_t b = (size_t)ff->positions.size + (size_t)ff->positions_x.size +
               (size_t)ff->accum.forces.size + (size_t)ff->accum.energies.size;
    if (ff->neighbor)
        b += vkmd_neighbor_memory_bytes(ff->neighbor);
    if (ff->nonbonded)
        b += vkmd_pass_nonbonded_memory_bytes(ff->nonbonded);
    if (ff->pme)
        b += vkmd_pass_pme_memory_bytes(ff->pme);
    if (ff->gb)
        b += vkmd_pass_gb_memory_bytes(ff->gb);
    return b;
}

vkmd_result vkmd_forcefield_neighbor_builds(vkmd_vk_context *ctx, const vkmd_forcefield *ff,
                                            uint32_t *out_builds)
{
    *out_builds = 0;
    if (!ff->neighbor)
        return VKMD_OK;
    vkmd_neighbor_stats st;
    vkmd_result res = vkmd_neighbor_stats_read(ctx, ff->neighbor, &st);
    if (res == VKMD_OK)
        *out_builds = st.builds;
    return res;
}

vkmd_result vkmd_forcefield_neighbor_stats(vkmd_vk_context *ctx, const vkmd_forcefield *ff,
                                           vkmd_neighbor_stats *out)
{
    memset(out, 0, sizeof *out);
    return ff->neighbor ? vkmd_neighbor_stats_read(ctx, ff->neighbor, out) : VKMD_OK;
}

const vkmd_neighbor *vkmd_forcefield_neighbor(const vkmd_forcefield *ff)
{
    return ff->neighbor;
}

const vkmd_pass_nonbonded *vkmd_forcefield_nonbonded(const vkmd_forcefield *ff)
{
    return ff->nonbonded;
}

const vkmd_pass_bonded *vkmd_forcefield_bonded(const vkmd_forcefield *ff)
{
    return ff->bonded;
}

const vkmd_pass_pme *vkmd_forcefield_pme(const vkmd_forcefield *ff)
{
    return ff->pme;
}

vkmd_result vkmd_forcefield_clear_missed(vkmd_vk_context *ctx, vkmd_forcefield *ff)
{
    return ff->neighbor ? vkmd_neighbor_clear_missed(ctx, ff->neighbor) : VKMD_OK;
}
