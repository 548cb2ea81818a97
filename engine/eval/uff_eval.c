/* Replica evaluation for the UFF commands of any client (see uff_eval.h):
 * the CPU reference one replica at a time, or the device batches of
 * sim/uff_replicas.h; the surface on the device (sim/uff_surface_eval.h) or
 * the reference (ref/ref_uff_surface.h). */
#include "eval/uff_eval.h"
#include "core/stop.h"
#include "forces/pass_uff_surface.h"
#include "io/uff_surface_io.h"
#include "ref/ref_uff.h"
#include "ref/ref_uff_fire.h"
#include "ref/ref_uff_lbfgs.h"
#include "ref/ref_uff_surface.h"
#include "sim/uff_surface_eval.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

vkmd_result vkmd_uff_eval_open(const char *device, vkmd_uff_eval *out)
{
    return vkmd_uff_eval_open_desc(device, NULL, out);
}

vkmd_result vkmd_uff_eval_open_desc(const char *device, const vkmd_vk_context_desc *base,
                                    vkmd_uff_eval *out)
{
    memset(out, 0, sizeof *out);
    out->debug_replica = -1;
    if (!strcmp(device, "cpu")) {
        snprintf(out->device, sizeof out->device, "cpu (double-precision reference)");
        return VKMD_OK;
    }
    const int automatic = !strcmp(device, "auto");
    vkmd_vk_context_desc desc = {0};
    if (base)
        desc = *base;
    desc.device = automatic ? NULL : device;
    vkmd_result res = vkmd_vk_context_create(&desc, &out->ctx);
    if (res == VKMD_ERROR_NO_DEVICE && automatic) {
        snprintf(out->device, sizeof out->device,
                 "cpu (double-precision reference; no Vulkan device found)");
        return VKMD_OK;
    }
    if (res != VKMD_OK)
        return res;
    snprintf(out->device, sizeof out->device, "%s (Vulkan device %u)", out->ctx->info.name,
             out->ctx->info.index);
    return VKMD_OK;
}

vkmd_result vkmd_uff_eval_close(vkmd_uff_eval *ev)
{
    vkmd_result res = VKMD_OK;
    if (ev->ctx) {
        res = vkmd_vk_context_check_validation(ev->ctx);
        vkmd_vk_context_destroy(ev->ctx);
        ev->ctx = NULL;
    }
    return res;
}

static vkmd_result run_cpu(const vkmd_uff_terms *const *mols, const vkmd_uff_replica *reps,
                           int32_t count, vkmd_uff_energy *out_energy, double *const *out_forces,
                           int32_t *done)
{
    for (int32_t r = 0; r < count; *done = ++r) {
        if (r > 0 && vkmd_stop_requested())
            return vkmd_fail(VKMD_ERROR_STOPPED, "UFF replicas: stopped by %s after %d of %d",
                             vkmd_stop_name(vkmd_stop_requested()), r, count);
        vkmd_result res = vkmd_ref_uff_compute(mols[reps[r].molecule], reps[r].positions,
                                               &out_energy[r], out_forces ? out_forces[r] : NULL);
        if (res != VKMD_OK)
            return res;
    }
    return VKMD_OK;
}

vkmd_result vkmd_uff_eval_run(vkmd_uff_eval *ev, const vkmd_uff_terms *const *mols,
                              int32_t mol_count, const vkmd_uff_replica *reps, int32_t count,
                              vkmd_uff_energy *out_energy, double *const *out_forces,
                              vkmd_uff_debug_record **out_debug, int32_t *out_debug_count)
{
    if (out_debug) {
        *out_debug = NULL;
        *out_debug_count = 0;
    }
    ev->done = 0;
    if (!ev->ctx) {
        if (ev->debug_replica >= 0 && ev->debug_replica < count)
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "per-interaction details are computed on a Vulkan device only");
        return run_cpu(mols, reps, count, out_energy, out_forces, &ev->done);
    }
    const vkmd_uff_replicas_desc d = {.replicas_per_batch = ev->replicas_per_batch,
                                      .debug = ev->debug_replica >= 0,
                                      .debug_replica = ev->debug_replica};
    const int32_t before = ev->batches;
    const vkmd_result res =
        vkmd_uff_replicas_evaluate(ev->ctx, mols, mol_count, reps, count, &d, out_energy,
                                   out_forces, out_debug, out_debug_count, &ev->batches);
    /* Every batch but the last is full. */
    const int64_t per = ev->replicas_per_batch > 0 ? ev->replicas_per_batch : count;
    const int64_t made = (int64_t)(ev->batches - before) * per;
    ev->done = res == VKMD_OK ? count : made < count ? (int32_t)made : count;
    return res;
}

vkmd_result vkmd_uff_eval_relax_reference(const vkmd_uff_terms *t,
                                          const vkmd_uff_relax_params *params, double *xyz,
                                          vkmd_uff_relax_result *out)
{
    const vkmd_uff_relax_params p = params ? *params : (vkmd_uff_relax_params){0};
    if (p.minimizer == VKMD_UFF_MIN_FIRE) {
        const vkmd_uff_fire_params fp = vkmd_uff_relax_fire_params(&p);
        vkmd_uff_fire_result f;
        VKMD_TRY_RETURN(vkmd_ref_uff_fire(t, &fp, xyz, &f));
        *out = vkmd_uff_relax_result_of_fire(&f);
        return VKMD_OK;
    }
    const vkmd_uff_lbfgs_params lp = vkmd_uff_relax_lbfgs_params(&p);
    return vkmd_ref_uff_lbfgs(t, &lp, xyz, out, NULL, 0);
}

vkmd_result vkmd_uff_eval_relax(const vkmd_uff_eval *ev, const vkmd_uff_relax_set *set,
                                const vkmd_uff_relax_params *params, double *final,
                                vkmd_uff_relax_result *out, int32_t *out_checks)
{
    if (out_checks)
        *out_checks = 0;
    if (set->replica_count == 0)
        return VKMD_OK;
    if (ev->ctx)
        return vkmd_uff_relax_batch(ev->ctx, &set->batch, params, set->start, final, out,
                                    out_checks);
    memcpy(final, set->start, 3 * sizeof *final * (size_t)set->batch.atom_count);
    /* A stop request ends the loop between replicas: the rest keep their
     * start, reported as not converged after no iteration. */
    int stopped = 0;
    for (int32_t r = 0; r < set->replica_count; ++r) {
        const vkmd_uff_terms *t = set->terms_of[set->replica_molecule[r]];
        double *x = vkmd_uff_relax_set_replica(set, final, r);
        stopped = stopped || (r > 0 && vkmd_stop_requested());
        if (!stopped) {
            VKMD_TRY_RETURN(vkmd_uff_eval_relax_reference(t, params, x, &out[r]));
            continue;
        }
        double *f = malloc(3 * sizeof *f * (size_t)t->atom_count);
        vkmd_uff_energy e;
        vkmd_result res = f ? vkmd_ref_uff_compute(t, x, &e, f)
                            : vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "forces of a replica");
        vkmd_uff_relax_result nr = {.energy_initial = 0, .evaluations = 1};
        if (res == VKMD_OK) {
            vkmd_uff_force_norms(f, t->atom_count, &nr.fmax, &nr.frms);
            nr.energy_initial = nr.energy_final = e.total;
        }
        free(f);
        VKMD_TRY_RETURN(res);
        out[r] = nr;
    }
    return VKMD_OK;
}

vkmd_result vkmd_uff_eval_surface(const vkmd_uff_eval *ev, const vkmd_uff_surface_setup_desc *sd,
                                  const char *save_grid, const vkmd_uff_typing *const *types,
                                  const vkmd_uff_terms *const *mols, int32_t mol_count,
                                  const vkmd_uff_replica *reps, int32_t count,
                                  double *const *forces, double *out_energy, int32_t *out_below,
                                  char *out_desc, size_t desc_size)
{
    vkmd_result res = VKMD_OK;
    vkmd_uff_surface_setup s;
    double *f = NULL;
    VKMD_TRY(vkmd_uff_surface_setup_build(sd, types, mol_count, reps, count, &s));
    const vkmd_uff_surface_replicas *placed = &s.placed;
    f = calloc(3 * (size_t)(placed->atom_count > 0 ? placed->atom_count : 1), sizeof *f);
    if (!f)
        VKMD_TRY(vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "surface"));
    if (sd->grid && !sd->load_grid) {
        if (ev->ctx) {
            VKMD_TRY(vkmd_pass_uff_surface_grid_compute(ev->ctx, &s.surf, &s.grid));
        } else {
            ref_uff_surface_grid_values(&s.surf, &s.grid);
            VKMD_TRY(vkmd_uff_surface_grid_prefilter(&s.grid));
        }
    }
    if (save_grid)
        VKMD_TRY(vkmd_uff_surface_grid_save(save_grid, &s.grid));
    if (ev->ctx) {
        VKMD_TRY(vkmd_uff_surface_evaluate(ev->ctx, &s.surf, sd->grid ? &s.grid : NULL, mols,
                                           mol_count, reps, placed, f, out_energy, out_below));
    } else {
        for (int32_t r = 0; r < count; ++r) {
            const int32_t n = types[reps[r].molecule]->atom_count;
            const size_t o = (size_t)placed->offset[r];
            const int32_t *channel = placed->channel;
            const double *xyz = placed->xyz;
            out_below[r] = 0;
            out_energy[r] =
                sd->grid ? ref_uff_surface_grid(&s.grid, channel + o, n, xyz + 3 * o, f + 3 * o,
                                                &out_below[r])
                         : ref_uff_surface_direct(&s.surf, channel + o, n, xyz + 3 * o, f + 3 * o);
        }
    }
    for (int32_t r = 0; r < count; ++r)
        if (forces && forces[r])
            for (int32_t i = 0; i < 3 * types[reps[r].molecule]->atom_count; ++i)
                forces[r][i] += f[3 * (size_t)placed->offset[r] + i];
    vkmd_uff_surface_setup_describe(&s, sd, out_desc, desc_size);
cleanup:
    free(f);
    vkmd_uff_surface_setup_free(&s);
    return res;
}
