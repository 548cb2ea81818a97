/* Monte Carlo barostat (see barostat.h). */
#include "sim/barostat.h"

#include "core/log.h"
#include "core/philox.h"
#include "core/units.h"
#include "maths/density.h"
#include "maths/volume_move.h"

#include <math.h>
#include <stdlib.h>

struct vkmd_barostat {
    double pressure; /* kcal/mol/A^3 */
    int32_t every;   /* steps between attempts */
    vkmd_barostat_mode mode;
    double kt; /* kcal/mol */
    uint64_t seed;
    int64_t molecule_count;
    vkmd_barostat_state state;
};

const char *vkmd_barostat_mode_name(vkmd_barostat_mode mode)
{
    static const char *names[] = {"iso", "aniso", "membrane"};
    return (unsigned)mode < 3 ? names[mode] : "?";
}

vkmd_result vkmd_barostat_create(double pressure_bar, int32_t every, vkmd_barostat_mode mode,
                                 double kt, uint64_t seed, int64_t molecule_count,
                                 vkmd_barostat **out)
{
    *out = NULL;
    if (!(pressure_bar > 0 && pressure_bar < 1e6) || every < 1 || !(kt > 0) ||
        (unsigned)mode > VKMD_BAROSTAT_MEMBRANE || molecule_count < 1)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "barostat: pressure %g bar, every %d steps, mode %d, kT %g, %lld "
                         "molecules (need pressure in (0, 1e6) bar, every >= 1, a known mode)",
                         pressure_bar, every, (int)mode, kt, (long long)molecule_count);
    vkmd_barostat *b = calloc(1, sizeof *b);
    if (!b)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "barostat: out of memory");
    b->pressure = pressure_bar * VKMD_KCAL_PER_A3_PER_BAR;
    b->every = every;
    b->mode = mode;
    b->kt = kt;
    b->seed = seed;
    b->molecule_count = molecule_count;
    *out = b;
    return VKMD_OK;
}

void vkmd_barostat_destroy(vkmd_barostat *b)
{
    free(b);
}

void vkmd_barostat_set_pressure(vkmd_barostat *b, double pressure_bar)
{
    b->pressure = pressure_bar * VKMD_KCAL_PER_A3_PER_BAR;
}

const vkmd_barostat_state *vkmd_barostat_state_get(const vkmd_barostat *b)
{
    return &b->state;
}

void vkmd_barostat_state_set(vkmd_barostat *b, const vkmd_barostat_state *state)
{
    b->state = *state;
}

/* OpenMM's adaptation, every 10 attempts of a kind. */
static void adapt(vkmd_barostat_state *s, int k, double volume)
{
    if (s->window_attempts[k] < 10)
        return;
    const double rate = (double)s->window_accepted[k] / s->window_attempts[k];
    if (rate < 0.25)
        s->step_a3[k] *= 0.9;
    else if (rate > 0.75)
        s->step_a3[k] = fmin(s->step_a3[k] * 1.1, 0.3 * volume);
    s->window_attempts[k] = 0;
    s->window_accepted[k] = 0;
}

vkmd_result vkmd_barostat_attempt(vkmd_vk_context *ctx, vkmd_barostat *b,
                                  const vkmd_barostat_target *t, int *out_accepted)
{
    vkmd_result res = VKMD_OK;
    const vkmd_system *sys = t->sys;
    const size_t n3 = 3 * (size_t)sys->atom_count;
    int accepted = 0;
    double *x = malloc(sizeof *x * n3);
    if (!x)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "barostat: out of memory");

    const uint64_t step = t->step;
    const uint32_t counter[4] = {0, (uint32_t)step, (uint32_t)(step >> 32), VKMD_BAROSTAT_STREAM};
    const uint32_t key[2] = {(uint32_t)b->seed, (uint32_t)(b->seed >> 32)};
    uint32_t bits[4];
    vkmd_philox4x32_10(counter, key, bits);
    double u[4];
    for (int k = 0; k < 4; ++k)
        u[k] = ((double)bits[k] + 0.5) * 0x1p-32;

    double box[3], trial[3];
    const vkmd_box cell = t->cell;
    vkmd_box trial_cell;
    for (int d = 0; d < 3; ++d)
        box[d] = cell.len[d];
    if (cell.triclinic && b->mode != VKMD_BAROSTAT_ISO) {
        res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                        "barostat: a triclinic box takes isotropic moves only (anisotropic and "
                        "membrane barostats scale edges apart, which changes the cell's angles)");
        goto cleanup;
    }
    const double volume = cell.triclinic ? vkmd_box_volume_a3(&cell) : vkmd_box_volume(box);
    vkmd_barostat_state *s = &b->state;
    int kind = 0;
    if (b->mode == VKMD_BAROSTAT_ANISO)
        kind = u[0] < 1.0 / 3 ? 0 : u[0] < 2.0 / 3 ? 1 : 2;
    else if (b->mode == VKMD_BAROSTAT_MEMBRANE)
        kind = u[0] < 0.5 ? 0 : 2;
    if (!(s->step_a3[kind] > 0))
        s->step_a3[kind] = 0.01 * volume;
    const double dv = s->step_a3[kind] * 2 * (u[1] - 0.5);
    const double v_new = volume + dv;
    const double ratio = v_new / volume;
    double scale[3] = {1, 1, 1};
    if (b->mode == VKMD_BAROSTAT_ISO)
        scale[0] = scale[1] = scale[2] = cbrt(ratio);
    else if (b->mode == VKMD_BAROSTAT_ANISO)
        scale[kind] = ratio;
    else if (kind == 0)
        scale[0] = scale[1] = sqrt(ratio);
    else
        scale[2] = ratio;
    const double min_edge = 2.0 * t->cutoff_a;
    int fits = v_new > 0;
    for (int d = 0; d < 3; ++d) {
        trial[d] = box[d] * scale[d];
        fits = fits && trial[d] >= min_edge;
    }
    if (cell.triclinic) { /* the whole lattice scaled: its smallest width must fit */
        trial_cell = cell;
        vkmd_box_scale(&trial_cell, scale[0]);
        fits = v_new > 0 && vkmd_box_min_width(&trial_cell) >= min_edge;
    }
    s->attempts[kind]++;
    s->window_attempts[kind]++;
    if (fits) {
        /* the energy the batch's last step summed (of these positions) */
        vkmd_energy e_old, e;
        VKMD_TRY(t->read_positions(ctx, t->user, x));
        VKMD_TRY(t->energy(ctx, t->user, &e_old));
        VKMD_TRY(t->save(ctx, t->user));
        vkmd_volume_move_scale(sys, t->molecules, scale, x);
        if (!cell.triclinic)
            vkmd_box_set_rect(&trial_cell, trial);
        VKMD_TRY(t->set_cell_state(ctx, t->user, &trial_cell, x));
        VKMD_TRY(t->energy(ctx, t->user, &e));
        const double w = vkmd_volume_move_exponent(e.total - e_old.total, b->pressure, volume,
                                                   v_new, b->molecule_count, b->kt);
        accepted = isfinite(w) && (w <= 0 || u[2] < exp(-w));
        if (accepted) {
            s->accepted[kind]++;
            s->window_accepted[kind]++;
        } else {
            VKMD_TRY(t->restore(ctx, t->user));
        }
        vkmd_log_debug("barostat: step %llu, V %.1f -> %.1f A^3, dU %.3f kcal/mol, w/kT %.3f: %s",
                       (unsigned long long)step, volume, v_new, e.total - e_old.total, w,
                       accepted ? "accepted" : "rejected");
    }
    adapt(s, kind, accepted ? v_new : volume);
cleanup:
    free(x);
    if (out_accepted)
        *out_accepted = accepted;
    return res;
}
