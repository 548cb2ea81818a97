/* Blow-up diagnosis of a run (see blowup.h). */
#include "run/blowup.h"
#include "sim/md_health.h"
#include "core/log.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The term to blame: the first non-finite one, else the one that changed
 * most since the last good step. */
static const char *bad_term(const vkmd_energy *e, const vkmd_energy *good)
{
    static const char *names[] = {"bond",
                                  "angle",
                                  "dihedral",
                                  "Lennard-Jones pairs",
                                  "1-4 Lennard-Jones",
                                  "Coulomb real space",
                                  "PME reciprocal",
                                  "1-4 Coulomb",
                                  "excluded-pair Coulomb",
                                  "positional restraints",
                                  "Urey-Bradley",
                                  "harmonic improper",
                                  "CMAP"};
    const double now[] = {e->bond,         e->angle,        e->dihedral,      e->lj_pair,
                          e->lj14,         e->coulomb_real, e->coulomb_recip, e->coulomb14,
                          e->coulomb_excl, e->restraint,    e->urey_bradley,  e->improper_harmonic,
                          e->cmap};
    const double was[] = {good->bond,          good->angle,        good->dihedral,
                          good->lj_pair,       good->lj14,         good->coulomb_real,
                          good->coulomb_recip, good->coulomb14,    good->coulomb_excl,
                          good->restraint,     good->urey_bradley, good->improper_harmonic,
                          good->cmap};
    int worst = -1;
    double change = -1;
    for (int k = 0; k < (int)(sizeof now / sizeof *now); ++k) {
        if (!isfinite(now[k]))
            return names[k];
        const double d = fabs(now[k] - was[k]);
        if (d > change) {
            change = d;
            worst = k;
        }
    }
    return worst >= 0 ? names[worst] : "?";
}

static int32_t worst_atom(const double *a, int32_t n, double *out_mag)
{
    int32_t worst = 0;
    double m = -1;
    for (int32_t i = 0; i < n; ++i) {
        const double s =
            a[3 * i] * a[3 * i] + a[3 * i + 1] * a[3 * i + 1] + a[3 * i + 2] * a[3 * i + 2];
        if (!isfinite(s)) {
            *out_mag = s;
            return i;
        }
        if (s > m) {
            m = s;
            worst = i;
        }
    }
    *out_mag = sqrt(m);
    return worst;
}

static void atom_name(const vkmd_system *sys, int32_t i, char *out, size_t size)
{
    const vkmd_atom *a = &sys->atoms[i];
    snprintf(out, size, "atom %d (%s of %s %d)", i + 1, a->name, a->res_name, a->res_index + 1);
}

vkmd_result vkmd_blowup_diagnose(vkmd_vk_context *ctx, vkmd_md *md, const vkmd_system *sys,
                                 const double *x, const double *v, int64_t md_step, int64_t base,
                                 int64_t max_steps, double t_target_k, char *msg, size_t size)
{
    vkmd_result res = VKMD_OK;
    const int32_t n = sys->atom_count;
    double *f = malloc(sizeof *f * 3 * (size_t)n);
    double *vv = malloc(sizeof *vv * 3 * (size_t)n);
    if (!f || !vv) {
        free(f);
        free(vv);
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "run: out of memory");
    }
    VKMD_TRY(vkmd_md_set_state(ctx, md, x, v));
    VKMD_TRY(vkmd_md_set_step(ctx, md, md_step));
    vkmd_md_report good, r;
    VKMD_TRY(vkmd_md_read(ctx, md, &good, NULL, NULL));
    char why[160];
    for (int64_t s = 0; s < max_steps; ++s) {
        VKMD_TRY(vkmd_md_step(ctx, md, 1));
        res = vkmd_md_read(ctx, md, &r, NULL, vv);
        if (res == VKMD_ERROR_NUMERIC) {
            /* The state cannot even be reported (e.g. a water torn apart). */
            snprintf(why, sizeof why, "%s", vkmd_last_error());
            memset(&r.potential, 0, sizeof r.potential);
            r.step = vkmd_md_steps_done(md);
            res = VKMD_OK;
        } else if (res != VKMD_OK) {
            goto cleanup;
        } else if (!vkmd_md_health_check(&r, t_target_k, why, sizeof why)) {
            good = r;
            continue;
        }
        vkmd_energy e;
        VKMD_TRY(vkmd_forcefield_readback(ctx, vkmd_md_forcefield(md), &e, f));
        double fmag = 0, vmag = 0;
        const int32_t fa = worst_atom(f, n, &fmag), va = worst_atom(vv, n, &vmag);
        char fa_name[96], va_name[96];
        atom_name(sys, fa, fa_name, sizeof fa_name);
        atom_name(sys, va, va_name, sizeof va_name);
        char fs[32], vs[32];
        snprintf(fs, sizeof fs, isfinite(fmag) ? "%.4g" : "non-finite", fmag);
        snprintf(vs, sizeof vs, isfinite(vmag) ? "%.4g" : "non-finite", vmag);
        snprintf(msg, size,
                 "the simulation blew up at step %lld: %s; the term that failed first: %s; "
                 "largest force on %s (|F| %s kcal/mol/A), largest velocity of %s (|v| %s "
                 "A/fs). Try a smaller --dt, --minimize, or check the input",
                 (long long)(r.step - base), why, bad_term(&e, &good.potential), fa_name, fs,
                 va_name, vs);
        goto cleanup;
    }
    snprintf(msg, size,
             "the simulation blew up within %lld steps after step %lld, but replaying those steps "
             "one at a time did not reproduce it",
             (long long)max_steps, (long long)(md_step - base));
cleanup:
    free(f);
    free(vv);
    return res;
}
